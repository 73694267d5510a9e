/*
 * What the readers of runlog.c (the joblog) and jsonlog.c (a trace, an
 * --events file) share: the file in memory and adding to a runlog.
 */
#ifndef WSPX_RUNLOG_INT_H
#define WSPX_RUNLOG_INT_H

#include <stddef.h>
#include <stdint.h>

#include "runlog.h"

/* The file being read. */
struct logfile {
	const char *path;
	const char *s;
	size_t len;
};

/* Report what is wrong at f->s[pos] (file:line:column) and exit.  (Not
 * declared noreturn, nor is fatal(): a caller's frame then stays whole,
 * and LeakSanitizer still sees what it holds at the exit.) */
void logfile_bad(const struct logfile *f, size_t pos, const char *why);

/* A new span at the end of rl's, zeroed, and a copy of s that lives as
 * long as rl. */
struct span *runlog_add(struct runlog *rl);
const char *runlog_keep(struct runlog *rl, const char *s);

/* v as a count from 0 to max; 0 for anything else (a file's number may
 * be negative, fractional or huge). */
uint64_t runlog_count(double v, uint64_t max);

/* The index + 1 of host in rl->hosts, added if new. */
unsigned runlog_host(struct runlog *rl, const char *host);

/* A trace, an --events file (jsonlog.c). */
void jsonlog_trace(const struct logfile *f, struct runlog *rl);
void jsonlog_events(const struct logfile *f, struct runlog *rl);

#endif /* WSPX_RUNLOG_INT_H */
