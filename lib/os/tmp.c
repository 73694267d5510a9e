/*
 * Temporary files and directories (see tmp.h): mkostemps() and O_TMPFILE,
 * which need _GNU_SOURCE, as every platform call of os/ may.
 */
#define _GNU_SOURCE
#include "tmp.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RANDOM		"XXXXXX"

/* dir/PREFIXXXXXXXSUFFIX, malloc'd, or NULL without memory. */
static char *
template(const char *dir, const char *prefix, const char *suffix)
{
	size_t n;
	char *t;

	n = (dir != NULL ? strlen(dir) + 1 : 0) + strlen(prefix) +
	    sizeof(RANDOM) + (suffix != NULL ? strlen(suffix) : 0);
	if ((t = malloc(n)) != NULL)
		snprintf(t, n, "%s%s%s%s%s", dir != NULL ? dir : "",
		    dir != NULL ? "/" : "", prefix, RANDOM,
		    suffix != NULL ? suffix : "");
	return t;
}

int
wspx__tmp_file(const char *dir, const char *prefix, const char *suffix,
    char **path)
{
	int fd, err;
	char *t;

	if ((t = template(dir, prefix, suffix)) == NULL)
		return -ENOMEM;
	fd = mkostemps(t, suffix != NULL ? (int)strlen(suffix) : 0,
	    O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		free(t);
		return -err;
	}
	*path = t;
	return fd;
}

int
wspx__tmp_dir(const char *dir, const char *prefix, char **path)
{
	int err;
	char *t;

	if ((t = template(dir, prefix, NULL)) == NULL)
		return -ENOMEM;
	if (mkdtemp(t) == NULL) {
		err = errno;
		free(t);
		return -err;
	}
	*path = t;
	return 0;
}

int
wspx__tmp_anon(const char *dir)
{
	char *path;
	int fd;

#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR &&
	    errno != EINVAL))
		return fd >= 0 ? fd : -errno;
#endif
	if ((fd = wspx__tmp_file(dir, "wspx.", NULL, &path)) < 0)
		return fd;
	unlink(path);
	free(path);
	return fd;
}
