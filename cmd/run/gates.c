/*
 * The start gates' set-up and messages (see gates.h).
 */
#include "gates.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/size.h"
#include "exec/jobserver.h"
#include "exec/output.h"
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
