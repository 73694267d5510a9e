/*
 * --files, as GNU parallel's: the job writes its stdout into a file named
 * like GNU parallel's (DIR/parXXXXXX.par), which is left for the user; the
 * name is printed in the job's place in the output, so -k orders names as
 * it would order output.  The job's stderr is printed as usual.
 */
#include "outfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/tmp.h"
#include "util/util.h"

int
outfiles_new(const char *dir, char **path)
{
	/* (close-on-exec at once: other jobs are spawned meanwhile) */
	return wspx__tmp_file(dir, "par", ".par", path);
}

void
outfiles_count(const char *path, struct wspx__result *res)
{
	struct stat st;

	/* (the job may have removed or replaced it: what is there now) */
	if (path == NULL || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	res->outbytes += (uint64_t)st.st_size;
	res->bytes += (uint64_t)st.st_size;
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
