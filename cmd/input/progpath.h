/*
 * Program paths looked up in PATH once per run, not once per job: a job
 * of `wspx true` would otherwise try every directory of PATH before the
 * one that has it, on every start.
 */
#ifndef WSPX_PROGPATH_H
#define WSPX_PROGPATH_H

/* Set up the cache for the given PATH (copied; NULL: the default). */
void progpath_init(const char *path);

void progpath_fini(void);

/* The path of program name, as execvp() would find it, or NULL if name
 * has a '/' (nothing to look up), was not found, or the cache is full: the
 * spawn then searches PATH itself (and reports a program not found).  The
 * string lives until progpath_fini().  Any thread. */
const char *progpath(const char *name);

/* As progpath(), in the PATH value pathvar instead of wspx's own; NULL
 * also if pathvar has an entry that is not a whole path (the caller
 * searches: such an entry depends on the job's directory).  Needs no
 * progpath_init(); lives until progpath_fini(). */
const char *progpath_in(const char *pathvar, const char *name);

/* The first regular file called name that we may execute in the
 * directories of pathvar (NULL: the default of progpath_init()), an
 * empty or relative entry taken from the current directory; malloc'd, or
 * NULL.  No cache, no lock: any thread, any time. */
char *progpath_search(const char *pathvar, const char *name);

#endif /* WSPX_PROGPATH_H */
