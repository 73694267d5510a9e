/*
 * wspx report --svg OUT: the run as a timeline in one self-contained SVG
 * file: a row per slot (per host and slot), a bar per attempt coloured by
 * how it ended, the critical path outlined, the jobs running as a strip
 * below, and a time axis.  Bars narrower than a pixel are merged into one
 * of the row's, so 100,000 jobs give at most a few thousand shapes.
 */
#ifndef WSPX_TIMELINE_H
#define WSPX_TIMELINE_H

#include <stddef.h>

#include "critpath.h"
#include "runlog.h"

/* Write the timeline of rl (and its critical path, n jobs) to path,
 * whole or not at all (a temporary file renamed).  Returns 0, or -errno
 * with nothing written. */
int timeline_write(const char *path, const char *title,
    const struct runlog *rl, const struct critjob *crit, size_t ncrit);

#endif /* WSPX_TIMELINE_H */
