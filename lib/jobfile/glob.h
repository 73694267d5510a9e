/*
 * Pattern expansion for a job's `sources` and `generates`: shell-style
 * wildcards in each '/'-separated segment, plus `**` for any number of
 * directory levels, expanded against the file system relative to a
 * directory descriptor.
 */
#ifndef WSPX_GLOB_H
#define WSPX_GLOB_H

#include <stddef.h>

/* Expand pattern relative to dirfd (AT_FDCWD: the working directory; a
 * pattern starting with '/' is absolute).  Each segment is matched with
 * fnmatch(3) and FNM_PERIOD against the entries of a directory ("." and
 * ".." never match), so a leading '.' must be written to match.  A segment
 * that is exactly `**` matches zero or more directory levels; it never
 * enters a directory whose name starts with '.' and never follows a
 * symbolic link to a directory (no loops).  As the last segment it matches
 * the directory it stands in and everything beneath, files and
 * directories.  Empty segments are ignored ("a//b" is "a/b"; a trailing
 * '/' is dropped).  Other segments are followed through symbolic links.
 *
 * On success returns 0 and sets *paths to the matches, sorted by strcmp()
 * with no duplicates, as written ("src/a/b.c", relative when the pattern
 * is), and *n to their number: 0 (and *paths NULL) if a pattern with
 * wildcards matched nothing.  A pattern with no wildcard character (none
 * of * ? [ \) is not matched but looked up: if it exists (following
 * symbolic links) it comes back as the one path, unchanged; if it does not
 * the return is -ENOENT and still *paths holds it as the one path (*n 1),
 * so the caller can name it.  *paths is one block from malloc(3): free it
 * with free(*paths) alone.
 *
 * Any other error returns -errno with *paths NULL and *n 0: -EINVAL for an
 * empty pattern, -ENOMEM, or an error reading a directory other than
 * ENOENT and ENOTDIR (those mean no match): an unreadable directory is an
 * error rather than a silent gap.  Any thread. */
int wspx__glob(int dirfd, const char *pattern, char ***paths, size_t *n);

#endif /* WSPX_GLOB_H */
