/*
 * Between the files of the builtins only (builtin.h is their interface):
 * builtin.c, which has the table, runs the builtins of fs.c (the
 * file builtins), rm.c (remove) and wait.c (sleep and
 * wait-for), and gives them its readers of a call's values.  Each reader
 * checks a value by the rules of wspx__builtin_check(), since one written
 * with a ${{ }} expression is only known when the builtin runs.
 */
#ifndef WSPX_BUILTIN_INT_H
#define WSPX_BUILTIN_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "builtin.h"

struct wspx_worker;

/* The builtins of the other files, called by wspx__builtin_run(); each
 * ends with c->done(), as that says. */
void wspx__builtin_mkdir(struct wspx_worker *w, struct wspx__bcall *c);
void wspx__builtin_touch(struct wspx_worker *w, struct wspx__bcall *c);
void wspx__builtin_write(struct wspx_worker *w, struct wspx__bcall *c);
void wspx__builtin_copy(struct wspx_worker *w, struct wspx__bcall *c);
void wspx__builtin_sha256(struct wspx_worker *w, struct wspx__bcall *c);
void wspx__builtin_remove(struct wspx_worker *w, struct wspx__bcall *c);
void wspx__builtin_sleep(struct wspx_worker *w, struct wspx__bcall *c);
void wspx__builtin_waitfor(struct wspx_worker *w, struct wspx__bcall *c);

/* The value(s) of key, or NULL, having written that it is missing. */
const struct wspx__barg *wspx__builtin_need(struct wspx__bcall *c,
    const char *key);

/* The one string of key in *s, or NULL if key is missing and not
 * required.  Returns true, or false having written why there is none
 * (missing, or a list). */
bool wspx__builtin_str(struct wspx__bcall *c, const char *key,
    bool required, const char **s);

/* The boolean of key in *b, false if key is missing.  Returns true, or
 * false having written why the value is not one. */
bool wspx__builtin_bool(struct wspx__bcall *c, const char *key, bool *b);

/* The duration s, the value of key, in *ns.  Returns true, or false
 * having written why s is not one. */
bool wspx__builtin_duration(struct wspx__bcall *c, const char *key,
    const char *s, int64_t *ns);

/* The TCP port s, the value of key, in *port (1 to 65535).  Returns true,
 * or false having written why s is not one. */
bool wspx__builtin_port(struct wspx__bcall *c, const char *key,
    const char *s, int *port);

/* Write "wspx: NAME: ", the printf-style message and a newline to c's
 * stream 2, and set c->status to 1.  Returns false, so that a check can
 * end with `return wspx__builtin_fail(...)`. */
bool wspx__builtin_fail(struct wspx__bcall *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* WSPX_BUILTIN_INT_H */
