/*
 * Temporary directories removed on every way out (see owndirs.h).  The
 * list is short and changes twice a run: a mutex is enough, and the
 * removal at exit() or before a signal takes it too, so that a directory
 * being removed by the run's end is not removed twice.
 */
#include "owndirs.h"

#include <dirent.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define MAXOWNED 8

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const char *owned[MAXOWNED];	/* lock */

/* Remove path's entries, then path. */
static void
rmdir1(const char *path)
{
	struct dirent *e;
	DIR *d;
	int fd;

	if ((d = opendir(path)) != NULL) {
		fd = dirfd(d);
		while ((e = readdir(d)) != NULL)
			if (strcmp(e->d_name, ".") != 0 &&
			    strcmp(e->d_name, "..") != 0)
				(void)unlinkat(fd, e->d_name, 0);
		closedir(d);
	}
	(void)rmdir(path);
}

static void
removeall(void)
{
	owndir_removeall();
}

void
owndir(const char *path)
{
	static bool registered;
	size_t i;

	(void)pthread_mutex_lock(&lock);
	if (!registered && atexit(removeall) == 0)
		registered = true;
	for (i = 0; i < MAXOWNED && owned[i] != NULL; i++)
		;
	if (i < MAXOWNED)
		owned[i] = path;
	(void)pthread_mutex_unlock(&lock);
	if (i == MAXOWNED)
		fatal("more than %d temporary directories at once", MAXOWNED);
}

void
owndir_remove(const char *path)
{
	size_t i;

	(void)pthread_mutex_lock(&lock);
	for (i = 0; i < MAXOWNED; i++)
		if (owned[i] == path)
			owned[i] = NULL;
	rmdir1(path);
	(void)pthread_mutex_unlock(&lock);
}

void
owndir_removeall(void)
{
	size_t i;

	(void)pthread_mutex_lock(&lock);
	for (i = 0; i < MAXOWNED; i++)
		if (owned[i] != NULL) {
			rmdir1(owned[i]);
			owned[i] = NULL;
		}
	(void)pthread_mutex_unlock(&lock);
}
