/*
 * A counting semaphore shared by processes that never meet (GNU parallel's
 * sem): a directory of lock files, one per slot, each held with flock(2).
 * The kernel lets go of a lock when the last fd of its open file is
 * closed, also when its holder dies by SIGKILL, so a slot is never lost
 * to a process that did not clean up.
 */
#ifndef WSPX_SEMSLOT_H
#define WSPX_SEMSLOT_H

/* Take one of the n slots of the semaphore in directory dir (which the
 * caller made): the first of its slot files 0 to n-1 that no process
 * holds, waiting while all are held, at most timeout_ms (negative: no
 * bound).  Returns the fd that holds the slot (close-on-exec: the slot is
 * free again once every process that has it closed it), -ETIMEDOUT, or
 * -errno. */
int wspx__semslot_take(const char *dir, unsigned n, int timeout_ms);

/* Wait until no slot of the semaphore in dir is held: take each of its
 * slot files in number order, keeping those taken so that the slots
 * already passed are not taken again meanwhile, until every slot file
 * there (also those made while waiting) was held at once; then let them
 * all go.  Waits at most timeout_ms (negative: no bound).  The caller
 * holds no slot of dir.  Returns 0, -ETIMEDOUT or -errno. */
int wspx__semslot_drain(const char *dir, int timeout_ms);

#endif /* WSPX_SEMSLOT_H */
