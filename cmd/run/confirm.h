/*
 * -p, --interactive, as GNU parallel's: before a job starts, its command
 * is shown on stderr with " ?..." after it, and a line is read from the
 * terminal; the job runs if the answer starts with y or Y (after blanks),
 * and is declined otherwise: it does not run, and counts as failed, with
 * -2 in the joblog, as in GNU parallel.  One question at a time: jobs
 * that start together ask in turn.  Once the run stops or halts, no job
 * asks, and a question being asked is given up.
 */
#ifndef WSPX_CONFIRM_H
#define WSPX_CONFIRM_H

#include <pthread.h>
#include <stdbool.h>

#include "exec/exec.h"
#include "exec/output.h"

struct confirm {
	int tty;		/* /dev/tty, read for the answers; -1: off */
	int stopfd;		/* readable once the run stops */
	pthread_mutex_t lock;	/* one question at a time */
};

/* Set k up: with on, open the terminal, or exit with an error saying
 * why (-p needs one); stopfd becomes readable once the run stops. */
void confirm_open(struct confirm *k, bool on, int stopfd);

void confirm_close(struct confirm *k);

/* Ask whether the job of cmd runs, on out's error fd; if the answer is
 * not yes, decline it (cmd->declined).  Returns 0, or -ECANCELED if x
 * halts or the run stops first (nothing is asked then).  Any thread. */
int confirm_ask(struct confirm *k, struct wspx__exec *x,
    struct wspx__output *out, struct wspx__cmd *cmd);

#endif /* WSPX_CONFIRM_H */
