/*
 * Work tried in a child process under a limit of CPU time, to learn
 * whether it ends in time before the caller does it itself: for work
 * whose cost no bound reckoned beforehand foretells well (glibc's
 * regcomp()), and that cannot be stopped once begun in the caller.
 */
#ifndef WSPX_TRIAL_H
#define WSPX_TRIAL_H

/* How a trial went. */
enum wspx_trial {
	WSPX_TRIAL_ENDED,	/* fn returned */
	WSPX_TRIAL_OVERTIME,	/* the limit stopped it */
	WSPX_TRIAL_FAILED	/* it died otherwise: fn crashed (its stack
				 * overflowed, say), or was killed */
};

/* Run fn(arg) in a forked child that may use seconds (at least 1) of CPU
 * time, user and system, or the caller's own hard limit if lower: at that
 * the kernel kills it.  A child that outlives 30 times seconds of wall
 * time without using them (blocked) is killed too, as over time.  The
 * child ends at once (exit_group(2)): it runs no atexit() handler and
 * flushes no stdio buffer; fn must not write anything the caller shares
 * (files, pipes).  Only while the process has one thread: the child has
 * a copy of its memory, and a lock another thread held would stay held
 * there.  Waits for the child, so that none is left behind.  Returns 0
 * with *how set, or -errno if the trial could not be made (no child, or
 * one that could not set its limits). */
int wspx__trial(void (*fn)(void *), void *arg, unsigned seconds,
    enum wspx_trial *how);

#endif /* WSPX_TRIAL_H */
