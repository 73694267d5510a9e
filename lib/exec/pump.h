/*
 * A running job's output, from its pipes into the output module.
 */
#ifndef WSPX_PUMP_H
#define WSPX_PUMP_H

#include <poll.h>
#include <sys/types.h>

struct wspx__output;
struct wspx__outjob;

/* Read the job's stdout (pf[0]) and stderr (pf[1]) into oj until both are
 * at end of file, or the child pid has ended and something else keeps them
 * open; close them.  A pipe that is not used has fd -1.  The thread that
 * runs the job only. */
void wspx__pump(struct wspx__output *o, struct wspx__outjob *oj,
    struct pollfd pf[2], pid_t pid);

#endif /* WSPX_PUMP_H */
