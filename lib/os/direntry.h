/*
 * What kind of file a directory entry names, from readdir(3)'s d_type,
 * which spares a walk of a tree a stat per entry where the file system
 * fills it in.  d_type's names (DT_DIR, ...) need _DEFAULT_SOURCE, which
 * only os/ may ask for.
 */
#ifndef WSPX_DIRENTRY_H
#define WSPX_DIRENTRY_H

#include <dirent.h>

/* 'd' a directory, 'l' a symbolic link, 'f' any other kind of file, or
 * '?' if the entry does not say (stat it).  Any thread. */
int wspx__direntry_kind(const struct dirent *e);

#endif /* WSPX_DIRENTRY_H */
