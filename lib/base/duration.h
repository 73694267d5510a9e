/*
 * Durations as users write them, in options (--timeout 10m) and in job
 * files (timeout: 10m): a decimal number of seconds, or one followed by
 * ms, s, m or h; at most a day.
 */
#ifndef WSPX_DURATION_H
#define WSPX_DURATION_H

#include <stdbool.h>

/* Read s into *seconds.  Returns true, or false with *why saying what is
 * wrong ("is not a duration (like 2s, 500ms, 1m)", "is more than a
 * day"). */
bool wspx__duration_parse(const char *s, double *seconds, const char **why);

#endif /* WSPX_DURATION_H */
