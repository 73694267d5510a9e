/*
 * --semaphore, GNU parallel's sem: before the run, a slot of a semaphore
 * shared by the wspx processes of a user (see semaphore.c).
 */
#ifndef WSPX_SEMAPHORE_H
#define WSPX_SEMAPHORE_H

#include "options/config.h"

/* With c->sem.on, before the run: take a slot of the semaphore (waiting
 * for one, as --semaphore-timeout says) and keep it to the end of this
 * process, or for --wait wait until no slot is held.  Returns -1 when
 * this process goes on to run COMMAND (--fg, or the child that runs it
 * in the background), or the status this process exits with: 0 for
 * --wait and for the parent of a COMMAND in the background, 1 when a
 * negative --semaphore-timeout ran out. */
int semaphore_enter(const struct config *c);

/* The exit status of --fg: that of COMMAND as $? gives it, from its
 * exit value (exec.h's wspx__exec_exitval()). */
int semaphore_status(int exitval);

#endif /* WSPX_SEMAPHORE_H */
