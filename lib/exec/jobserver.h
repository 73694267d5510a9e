/*
 * GNU make's jobserver, as a client (wspx run from a make recipe shares
 * make's -j budget) and as a server (make run from a wspx job shares
 * wspx's).  A token is taken before a job starts and given back when it
 * ends; every process also holds one implicit token of its own.
 */
#ifndef WSPX_JOBSERVER_H
#define WSPX_JOBSERVER_H

#include <stdbool.h>

struct wspx__jobserver;

/* Find the jobserver named by makeflags, the value of MAKEFLAGS (may be
 * NULL): --jobserver-auth=fifo:PATH (make 4.4), --jobserver-auth=R,W (make
 * 4.3) or --jobserver-fds=R,W (older); the last such option wins, as in
 * make.  Returns 0 with *js NULL when it names none, 0 with *js set (free
 * with wspx__jobserver_free()), -EBADF when R and W are not the two open
 * ends of one pipe (the recipe lacked '+', or make 4.4 passed -2,-2) or
 * PATH is no FIFO, -ENOENT etc. when PATH cannot be opened, -EINVAL for a
 * malformed value, or -ENOMEM.  Call it before opening other fds: a stale
 * R,W may name them. */
int wspx__jobserver_client(struct wspx__jobserver **js,
    const char *makeflags);

/* Create a jobserver with n tokens in all: n - 1 bytes in a new pipe,
 * whose ends stay inheritable for the jobs' make, plus the implicit one
 * (n of 0 or 1: no pipe, -j1).  Sets *makeflags (malloc'd, the caller
 * frees it) to the MAKEFLAGS to export: oldmakeflags (may be NULL) less its
 * jobserver and -j options, plus " -j<n> --jobserver-auth=R,W".  Returns 0,
 * -EINVAL when n > 32769 (the pipe must not fill), -ENOBUFS when the pipe
 * is too small for n - 1 tokens, or another -errno. */
int wspx__jobserver_server(struct wspx__jobserver **js, unsigned n,
    const char *oldmakeflags, char **makeflags);

/* Take a token for a job about to start: the implicit one if no job of
 * ours holds it, else a byte from the jobserver, waiting until one is
 * free.  While waiting, calls stopping(ctx) (NULL: never stop) at least
 * every 50 ms.  Returns 1 with *tok set (for wspx__jobserver_give()), 0
 * without a token when stopping returned true, or -errno.  Any thread,
 * several at once. */
int wspx__jobserver_take(struct wspx__jobserver *js,
    bool (*stopping)(void *), void *ctx, int *tok);

/* Give back tok, taken with wspx__jobserver_take(): write its byte back
 * to the jobserver, or free the implicit token and wake a thread waiting
 * in take.  Any thread.  A write that fails other than by EINTR or EAGAIN
 * loses the token. */
void wspx__jobserver_give(struct wspx__jobserver *js, int tok);

/* Free js (NULL: nothing), closing the fds it opened (a client leaves
 * make's R and W open).  Give every token back first; no thread may be in
 * take or give. */
void wspx__jobserver_free(struct wspx__jobserver *js);

#endif /* WSPX_JOBSERVER_H */
