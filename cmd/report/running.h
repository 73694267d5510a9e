/*
 * The jobs running now, by slot, for SIGUSR1: set when a job starts,
 * cleared when it ends, listed on request.  A mutex per table; the job
 * threads hold it to store a pointer, so a listing never slows them down
 * for long.
 */
#ifndef WSPX_RUNNING_H
#define WSPX_RUNNING_H

#include <stdint.h>

#include "util/buf.h"
#include "util/util.h"

struct running;

struct running *running_new(unsigned slots);
void running_free(struct running *r);

/* Job seq started in slot (1..slots) with command and name (a job
 * file's job's, else NULL), which must stay valid until running_end() for
 * seq returns (no copy on the per-job path). */
void running_start(struct running *r, unsigned slot, uint64_t seq,
    const char *name, const char *command);

/* Job seq, which ran in slot, has ended (the slot may already run
 * another job: only seq's entry is cleared). */
void running_end(struct running *r, unsigned slot, uint64_t seq);

/* The name (else the command, cut) of the job that has run longest, and
 * "(+N)" for the others running, into b (size bytes); "" if none. */
void running_longest(struct running *r, char *b, size_t size);

/* Append a line per running job to b: "running: NAME (seq 3, slot 1,
 * 2.0s): COMMAND", the command on one line, cut; with no name "running:
 * seq 3, slot 1, 2.0s: COMMAND".  Returns how many. */
unsigned running_list(struct running *r, struct buf *b);

#endif /* WSPX_RUNNING_H */
