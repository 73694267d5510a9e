/*
 * The start gates' set-up and messages (see gates.h).
 */
#include "gates.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/size.h"
#include "exec/jobserver.h"
#include "exec/output.h"
#include "options/optvalue.h"
#include "os/thread.h"
#include "os/sysload.h"
#include "util/buf.h"
#include "util/util.h"

/* With --jobserver inside another jobserver, wspx is its client: the
 * jobs' make then share the outer budget, which MAKEFLAGS already names. */
struct wspx__jobserver *
gates_jobserver(const struct config *c)
{
	struct wspx__jobserver *js = NULL;
	const char *flags = getenv("MAKEFLAGS");
	char *exported;
	int rc;

	if ((rc = wspx__jobserver_client(&js, flags)) == -EBADF)
		warn("MAKEFLAGS names a jobserver that is not open here (a "
		    "make recipe line needs '+' or $(MAKE) to share it): "
		    "running -j %u on its own", c->jobs);
	else if (rc != 0)
		warn("MAKEFLAGS names a jobserver that cannot be used (%s): "
		    "running -j %u on its own", strerror(-rc), c->jobs);
	if (js != NULL || !c->jobserver || c->dryrun)
		return js;
	if ((rc = wspx__jobserver_server(&js, c->jobs, flags, &exported)) != 0)
		fatal("--jobserver: %s", strerror(-rc));
	if (setenv("MAKEFLAGS", exported, 1) != 0)
		fatal("--jobserver: MAKEFLAGS:");
	free(exported);
	return js;
}

void
gates_check(const struct config *c)
{
	uint64_t total;
	char size[32];

	if (c->memfree == 0 || wspx__sysload_meminfo_read(NULL, "MemTotal",
	    &total) != 0 || c->memfree <= total)
		return;
	fatal("--memfree %s: more than this machine's memory (%s): no job "
	    "could ever start", c->memfreespec, wspx__size_format(total, size,
	    sizeof(size)));
}

void
gates_waiting(const struct config *c, struct wspx__output *out, bool memory,
    double value)
{
	struct buf b = { NULL, 0, 0 };
	char size[32];

	if (memory)
		bufmsg(&b, "--memfree %s: waiting to start jobs: %s "
		    "available\n", c->memfreespec, wspx__size_format(
		    (uint64_t)value, size, sizeof(size)));
	else
		bufmsg(&b, "--load %s: waiting to start jobs: the load "
		    "average is %.2f\n", c->loadspec, value);
	wspx__output_note(out, b.s, b.len);
	free(b.s);
}

/* --load FILE: the limit it held when last read, and how the file was
 * then, so that it is read again only once it changes. */
struct gates_load {
	pthread_mutex_t lock;
	const char *path;
	struct timespec mtime;
	off_t size;
	double limit;
	struct wspx__output *out;	/* for the warning */
};

struct gates_load *
gates_load_new(const struct config *c, struct wspx__output *out)
{
	struct gates_load *g;
	struct stat st;

	if (c->loadfile == NULL)
		return NULL;
	g = xcalloc(1, sizeof(*g));
	WSPX_MUST(pthread_mutex_init(&g->lock, NULL));
	g->path = c->loadfile;
	g->limit = c->maxload;
	g->out = out;
	if (stat(g->path, &st) == 0) {
		g->mtime = st.st_mtim;
		g->size = st.st_size;
	}
	return g;
}

void
gates_load_free(struct gates_load *g)
{
	if (g == NULL)
		return;
	WSPX_MUST(pthread_mutex_destroy(&g->lock));
	free(g);
}

/* Read the file again: a new limit, or a warning and the last one. */
static void
reread(struct gates_load *g)
{
	struct buf b = { NULL, 0, 0 };
	double n = loadfile_read(g->path);

	if (n > 0) {
		g->limit = n;
		return;
	}
	bufmsg(&b, "--load %s: %s: the limit stays %.2f\n", g->path,
	    n == LOAD_UNREAD ? strerror(errno) : n == LOAD_ZERO ?
	    "holds a load not more than 0" : "holds no load (N, N%, +N, -N)",
	    g->limit);
	wspx__output_note(g->out, b.s, b.len);
	free(b.s);
}

double
gates_load_limit(struct gates_load *g)
{
	struct stat st;
	double limit;

	WSPX_MUST(pthread_mutex_lock(&g->lock));
	if (stat(g->path, &st) == 0 && (st.st_size != g->size ||
	    st.st_mtim.tv_sec != g->mtime.tv_sec ||
	    st.st_mtim.tv_nsec != g->mtime.tv_nsec)) {
		g->mtime = st.st_mtim;
		g->size = st.st_size;
		reread(g);
	}
	limit = g->limit;
	WSPX_MUST(pthread_mutex_unlock(&g->lock));
	return limit;
}
