/*
 * --pipe and --pipepart in a run: the jobs that the blocks make (one per
 * block, or with --round-robin one per job slot, each fed block after
 * block), each job's stdin made when it starts, and the files that {}
 * names with --cat and --fifo.
 */
#ifndef WSPX_PIPEJOBS_H
#define WSPX_PIPEJOBS_H

#include <stdbool.h>
#include <stdint.h>

#include "pipeopts.h"

struct args;
struct pipejob;
struct pipejobs;
struct wspx__cmd;
struct wspx__exec;

/* Open o's input for --pipe or --pipepart and start the feeder; wakefd
 * becomes readable when the run stops.  Exits with a message if the
 * input cannot be opened, or a --recstart, --recend or --header does not
 * compile.  o is copied; its input and strings are borrowed for the life
 * of the result. */
struct pipejobs *pipejobs_new(const struct pipe_opts *o, int wakefd);

/* Stop the feeder and close the input; every job must have finished. */
void pipejobs_free(struct pipejobs *p);

/* Make the next job: its block (*pj, the job's until
 * pipejobs_finished()) and its arguments, for --cat and --fifo {} (args->v
 * then the caller's to free), else none.  Returns false at the end of the
 * input, or once x is halting.  With --round-robin the blocks after the
 * first -j go to the running jobs instead, so this returns only for a new
 * job or the end.  The reader's thread. */
bool pipejobs_next(struct pipejobs *p, struct wspx__exec *x,
    struct pipejob **pj, struct args *args);

/* No more jobs will be asked for (the input ended, or the run halts):
 * --round-robin's jobs get their end of file once they have written what
 * they have.  The reader's thread. */
void pipejobs_end(struct pipejobs *p);

/* Before each attempt of the job of pj: its stdin (cmd->in_fd, a pipe
 * the feeder fills), or its --fifo, or its --cat file.  An earlier
 * attempt's feeding is ended first, so a retry gets the whole block
 * again.  Returns 0 or
 * -errno (the job then cannot start).  The job's blocking thread. */
int pipejobs_prepare(struct pipejobs *p, struct pipejob *pj,
    struct wspx__cmd *cmd);

/* The job of *pj is over (or will not run): end its feeding, remove its
 * file, release its block, and set *pj to NULL (nothing if it is
 * already).  Any thread; the job's args.v stays the caller's to free. */
void pipejobs_finished(struct pipejobs *p, struct pipejob **pj);

/* The bytes given to the stdin of pj's job, as GNU parallel's joblog
 * counts them (Send): its header and block, or a stream's so far; 0 for
 * NULL.  Any thread. */
uint64_t pipejobs_sent(struct pipejobs *p, const struct pipejob *pj);

/* Whether reading the input failed (it was reported). */
bool pipejobs_failed(const struct pipejobs *p);

#endif /* WSPX_PIPEJOBS_H */
