/*
 * What holds jobs back before they start, as the options set it up: the
 * --memfree and --load gates (their messages), and make's jobserver, as a
 * client of the one MAKEFLAGS names or, with --jobserver, as its server.
 */
#ifndef WSPX_GATES_H
#define WSPX_GATES_H

#include <stdbool.h>

#include "options/config.h"

struct wspx__jobserver;
struct wspx__output;

/* Find or make the jobserver, before wspx opens any file of its own (a
 * stale MAKEFLAGS may name those fds).  Returns it, or NULL for none. */
struct wspx__jobserver *gates_jobserver(const struct config *c);

/* Check --memfree against the machine: more than all of its memory is an
 * error (no job could ever start). */
void gates_check(const struct config *c);

/* The executor's waiting(): jobs wait for memory or the load; a note on
 * out. */
void gates_waiting(const struct config *c, struct wspx__output *out,
    bool memory, double value);

#endif /* WSPX_GATES_H */
