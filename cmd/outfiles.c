/*
 * --files, as GNU parallel's: the job writes its stdout into a file named
 * like GNU parallel's (DIR/parXXXXXX.par), which is left for the user; the
 * name is printed in the job's place in the output, so -k orders names as
 * it would order output.  The job's stderr is printed as usual.
 */
#define _GNU_SOURCE		/* mkostemps() */
#include "outfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

int
outfiles_new(const char *dir, char **path)
{
	struct buf b = { NULL, 0, 0 };
	int fd, err;

	bufprintf(&b, "%s/parXXXXXX.par", dir);
	/* (close-on-exec at once: other jobs are spawned meanwhile) */
	if ((fd = mkostemps(b.s, 4, O_CLOEXEC)) < 0) {
		err = errno;
		free(b.s);
		return -err;
	}
	*path = b.s;
	return fd;
}

void
outfiles_ended(struct wspx__output *out, struct wspx__outjob *oj,
    char **path, bool retry)
{
	if (*path == NULL)
		return;
	if (retry) {
		(void)unlink(*path);
	} else if (oj != NULL) {
		(void)wspx__output_write(out, oj, 1, *path, strlen(*path));
		(void)wspx__output_write(out, oj, 1, "\n", 1);
	}
	free(*path);
	*path = NULL;
}
