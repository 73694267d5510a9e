/*
 * wspx run --watch: after the run, wait for a change to any source of a
 * job of the run (inotify, lib/os/fswatch.c), then run again: the jobs
 * the change makes out of date run, the others are up to date, as
 * go-task's --watch and watchexec do.  Until a signal: Ctrl-C while
 * waiting ends wspx at once, with the signal's status; while a run goes,
 * it stops that run as it stops any.
 *
 * Each source pattern is watched where it can match: the directory
 * before its first wildcard, and every directory under it when a
 * wildcard is in a directory's part (all of src for a ** under src),
 * for the names its last part matches; so the files a run writes
 * elsewhere (its generates, the state file) wake nothing.  Changes seen during a run were that
 * run's, and are forgotten.
 */
#include "graphrun.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/fswatch.h"
#include "os/thread.h"
#include "run/signals.h"
#include "util/buf.h"
#include "util/util.h"

#define QUIET_MS 100	/* the quiet after a change that ends it */

struct watching {
	struct wspx__fswatch *fs;
	size_t patterns;
	int err;	/* the first error adding a watch, -errno */
};

/* Whether s holds a wildcard of a pattern. */
static bool
wild(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[')
			return true;
	return false;
}

/* A source pattern of a job, relative to dir: watch it where it can
 * match (see the top). */
static void
source(void *ctx, const char *dir, const char *pattern)
{
	struct watching *wt = ctx;
	struct buf path = { NULL, 0, 0 };
	const char *last = strrchr(pattern, '/'), *cut;
	size_t keep;
	bool deep;
	int rc;

	if (pattern[0] != '/')
		bufprintf(&path, "%s/", dir);
	/* the directories' part: up to the last /, then cut at the first
	 * part with a wildcard */
	keep = last != NULL ? (size_t)(last - pattern) : 0;
	deep = wild(pattern, keep);
	for (cut = pattern; deep && cut < pattern + keep; cut++)
		if (*cut == '*' || *cut == '?' || *cut == '[')
			break;
	while (deep && cut > pattern && cut[-1] != '/')
		cut--;
	if (deep)
		keep = cut > pattern ? (size_t)(cut - pattern) - 1 : 0;
	bufadd(&path, pattern, keep);
	if (path.len == 0)
		bufaddc(&path, '/');
	rc = wspx__fswatch_add(wt->fs, path.s, deep, last != NULL ? last + 1 :
	    pattern);
	if (rc != 0 && wt->err == 0)
		wt->err = rc;
	wt->patterns++;
	free(path.s);
}

/* The sources of the run that just ended are watched, or wspx stops
 * with why (the watch freed first: a leak checker would fail the
 * exit). */
static void
watched(struct watching *wt)
{
	if (wt->err != 0 || wt->patterns == 0)
		wspx__fswatch_free(wt->fs);
	if (wt->err != 0)
		fatal("--watch: %s%s", strerror(-wt->err), wt->err == -ENOSPC ?
		    " (the limit of inotify watches: "
		    "sysctl fs.inotify.max_user_watches)" : "");
	if (wt->patterns == 0)
		fatal("--watch: no job of the run has sources: nothing to "
		    "watch");
}

int
graphwatch(struct config *c, struct wspx__jobfile *jf, struct jobwords *w)
{
	struct watching wt;
	sigset_t start, stops;
	int rc, sig;

	WSPX_MUST(pthread_sigmask(SIG_SETMASK, NULL, &start));
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigaddset(&stops, SIGQUIT);
	w->source = source;
	w->sourcectx = &wt;
	for (;;) {
		memset(&wt, 0, sizeof(wt));
		if ((rc = wspx__fswatch_new(&wt.fs)) != 0)
			fatal("--watch: %s", strerror(-rc));
		/* (each run as the first: the jobs get the signal mask wspx
		 * was started with) */
		WSPX_MUST(pthread_sigmask(SIG_SETMASK, &start, NULL));
		(void)graphrun(c, jf, w);
		WSPX_MUST(pthread_sigmask(SIG_BLOCK, &stops, NULL));
		watched(&wt);
		wspx__fswatch_drain(wt.fs);
		fprintf(stderr, PROGNAME ": watching %zu director%s for "
		    "changes to the sources (Ctrl-C stops)\n",
		    wspx__fswatch_count(wt.fs),
		    wspx__fswatch_count(wt.fs) == 1 ? "y" : "ies");
		rc = wspx__fswatch_wait(wt.fs, QUIET_MS, &stops, &sig);
		wspx__fswatch_free(wt.fs);
		if (rc != 0)
			fatal("--watch: %s", strerror(-rc));
		if (sig != 0) {
			fprintf(stderr, PROGNAME ": stopped watching: %s\n",
			    signame(sig) != NULL ? signame(sig) : "a signal");
			diesig(sig);
		}
		fprintf(stderr, PROGNAME ": a source changed: running "
		    "again\n");
	}
}
