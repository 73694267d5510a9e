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
	WSPX_TRIAL_OVERTIME,	/* the limit stopped it (or SIGKILL) */
	WSPX_TRIAL_FAILED	/* it died otherwise: fn crashed (its stack
				 * overflowed, say) */
};

/* Run fn(arg) in a forked child that may use seconds (at least 1) of CPU
 * time, user and system: at that the kernel stops it (SIGXCPU, then
 * SIGKILL a second later).  The child ends at once (exit_group(2)): it
 * runs no atexit() handler and flushes no stdio buffer; fn must not write
 * anything the caller shares (files, pipes).  Waits for the child, so
 * that none is left behind, through signals that interrupt the wait.
 * Returns an enum wspx_trial, or -errno if no child could be made. */
int wspx__trial(void (*fn)(void *), void *arg, unsigned seconds);

#endif /* WSPX_TRIAL_H */
