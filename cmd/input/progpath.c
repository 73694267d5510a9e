/*
 * A small cache from program names to their paths in PATH.  Lookups come
 * from the blocking threads that start jobs, hence the mutex; the table is
 * a short list searched in order, since a run has few distinct programs,
 * and it stops growing at MAXPROGS (later names are looked up every time).
 * An entry is a name in one PATH value: wspx's own (progpath()) or a job
 * file's job's (progpath_in()), which may set a PATH of its own.
 */
#include "progpath.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/thread.h"
#include "util/buf.h"
#include "util/util.h"

#define MAXPROGS 256
/* (PATH unset: the directories of the shell's own default that hold
 * programs for everyone, in its order, since the commands that are not
 * spawned directly go through the shell) */
#define DEFAULTPATH "/usr/local/bin:/bin:/usr/bin"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *searchpath;		/* the PATH to search */
static struct {
	const char *pathvar;		/* searchpath, or a copy */
	char *name;
	char *path;
} progs[MAXPROGS];
static size_t nprogs;			/* lock */

void
progpath_init(const char *path)
{
	searchpath = xstrdup(path != NULL ? path : DEFAULTPATH);
}

void
progpath_fini(void)
{
	size_t i;

	for (i = 0; i < nprogs; i++) {
		if (progs[i].pathvar != searchpath)
			free((char *)progs[i].pathvar);
		free(progs[i].name);
		free(progs[i].path);
	}
	nprogs = 0;
	free(searchpath);
	searchpath = NULL;
}

char *
progpath_search(const char *pathvar, const char *name)
{
	struct buf b = { NULL, 0, 0 };
	struct stat st;
	const char *p = pathvar != NULL ? pathvar : DEFAULTPATH, *end;

	for (; p != NULL; p = *end != '\0' ? end + 1 : NULL) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		b.len = 0;
		bufadd(&b, p, (size_t)(end - p));
		if (b.len == 0)
			bufaddc(&b, '.');
		bufaddc(&b, '/');
		bufadds(&b, name);
		if (access(b.s, X_OK) == 0 && stat(b.s, &st) == 0 &&
		    S_ISREG(st.st_mode))
			return b.s;
	}
	free(b.s);
	return NULL;
}

/* The entry for name in pathvar, or NULL; under the lock. */
static const char *
known(const char *pathvar, const char *name)
{
	size_t i;

	for (i = 0; i < nprogs; i++)
		if (strcmp(progs[i].name, name) == 0 &&
		    (progs[i].pathvar == pathvar ||
		    strcmp(progs[i].pathvar, pathvar) == 0))
			return progs[i].path;
	return NULL;
}

/* name in pathvar (searchpath itself, or a value to copy if kept). */
static const char *
lookup(const char *pathvar, const char *name)
{
	const char *found;
	char *path;

	WSPX_MUST(pthread_mutex_lock(&lock));
	found = known(pathvar, name);
	WSPX_MUST(pthread_mutex_unlock(&lock));
	if (found != NULL || (path = progpath_search(pathvar, name)) == NULL)
		return found;
	WSPX_MUST(pthread_mutex_lock(&lock));
	/* (another thread may have been first) */
	if ((found = known(pathvar, name)) == NULL && nprogs < MAXPROGS) {
		progs[nprogs].pathvar = pathvar == searchpath ? pathvar :
		    xstrdup(pathvar);
		progs[nprogs].name = xstrdup(name);
		progs[nprogs].path = path;
		found = progs[nprogs++].path;
		path = NULL;
	}
	WSPX_MUST(pthread_mutex_unlock(&lock));
	free(path);	/* NULL if kept; if the table is full, the spawn */
	return found;	/* searches PATH itself */
}

const char *
progpath(const char *name)
{
	if (strchr(name, '/') != NULL || *name == '\0')
		return NULL;
	return lookup(searchpath, name);
}

const char *
progpath_in(const char *pathvar, const char *name)
{
	const char *p;

	if (strchr(name, '/') != NULL || *name == '\0')
		return NULL;
	/* (a relative entry is relative to the job's directory, which
	 * differs between jobs) */
	for (p = pathvar; p != NULL; p = strchr(p, ':'), p = p != NULL ?
	    p + 1 : NULL)
		if (*p != '/')
			return NULL;
	return lookup(pathvar, name);
}
