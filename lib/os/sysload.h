/*
 * The machine's readings behind the --memfree SIZE and --load N gates (GNU
 * parallel's options): free memory from /proc/meminfo and the load
 * average from /proc/loadavg.  The parsers take text, so they can be
 * tested without the files.  Every function is reentrant: any thread may
 * call any of them at any time.
 */
#ifndef WSPX_SYSLOAD_H
#define WSPX_SYSLOAD_H

#include <stddef.h>
#include <stdint.h>

/* Find field (e.g. "MemAvailable") in the text of /proc/meminfo, buf of n
 * bytes (not necessarily NUL-terminated), and set *bytes to its value in
 * bytes (a "kB" unit is 1024; a value without one is taken as it is).
 * Returns 0, -ENOENT if no line starts "field:", -EINVAL if that line is
 * malformed or field is empty, or -ERANGE if the value overflows. */
int wspx__sysload_meminfo_parse(const char *buf, size_t n, const char *field,
    uint64_t *bytes);

/* Read field from the meminfo file at path (NULL: /proc/meminfo) as
 * wspx__sysload_meminfo_parse() does, with one pass of read(2) and no stdio.
 * Returns 0 or -errno (-ENOENT for a missing file or field). */
int wspx__sysload_meminfo_read(const char *path, const char *field,
    uint64_t *bytes);

/* The free memory in meminfo text buf (n bytes) as --memfree counts it:
 * MemAvailable, or MemFree + Buffers + Cached from kernels older than
 * 3.14, which lack it.  Returns 0 or an error as
 * wspx__sysload_meminfo_parse(). */
int wspx__sysload_memavailable_parse(const char *buf, size_t n,
    uint64_t *bytes);

/* The free memory now, as wspx__sysload_memavailable_parse() counts it from
 * /proc/meminfo.  Returns 0 or -errno. */
int wspx__sysload_memavailable(uint64_t *bytes);

/* The 1-minute load average from the text of /proc/loadavg, buf of n
 * bytes ("0.52 0.58 0.59 1/389 12345"), read without the locale.
 * Returns 0, or -EINVAL if the text does not start with a number. */
int wspx__sysload_loadavg_parse(const char *buf, size_t n, double *load);

/* The 1-minute load average now, from /proc/loadavg.  Returns 0 or -errno
 * (-ENOENT where there is no /proc/loadavg). */
int wspx__sysload_loadavg(double *load);

#endif /* WSPX_SYSLOAD_H */
