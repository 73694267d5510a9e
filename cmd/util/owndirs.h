/*
 * The temporary directories wspx makes for a run (the outputs of a job
 * file's jobs, --pipe's blocks): removed, with the files in them, on
 * every way out: the run's own end, exit() after a fatal error, and a
 * death by a signal that wspx passes on.
 */
#ifndef WSPX_OWNDIRS_H
#define WSPX_OWNDIRS_H

/* Own the directory path (borrowed: it must live until disowned): at
 * most 8 at once; one more is a fatal error.  The first call registers
 * the removal with atexit(). */
void owndir(const char *path);

/* Remove path with its entries (wspx's directories hold files only) and
 * stop owning it. */
void owndir_remove(const char *path);

/* Remove every directory still owned: before a death by a signal.  Any
 * thread; not from a signal handler. */
void owndir_removeall(void);

#endif /* WSPX_OWNDIRS_H */
