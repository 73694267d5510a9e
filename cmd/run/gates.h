/*
 * What holds jobs back before they start, as the options set it up: the
 * --memfree and --load gates (their messages), and make's jobserver, as a
 * client of the one MAKEFLAGS names or, with --jobserver, as its server.
 */
#ifndef WSPX_GATES_H
#define WSPX_GATES_H

#include <stdbool.h>

#include "options/config.h"

struct gates_load;
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

/* With --load FILE, what reads its limit again when the file changes
 * (warnings go to out); NULL without one. */
struct gates_load *gates_load_new(const struct config *c,
    struct wspx__output *out);

void gates_load_free(struct gates_load *g);

/* The limit now: the file's, read again if it changed since; if it no
 * longer holds a load, the last one, with a warning.  Any thread. */
double gates_load_limit(struct gates_load *g);

#endif /* WSPX_GATES_H */
