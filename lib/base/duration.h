/*
 * Durations as users write them, in options (--timeout 10m) and in job
 * files (timeout: 10m): decimal numbers each followed by ms, s, m, h or d
 * (any case), added up, the last one's unit s when it has none: 2h30m,
 * 1m30, 1.5h, 500ms; at most a day.
 */
#ifndef WSPX_DURATION_H
#define WSPX_DURATION_H

#include <stdbool.h>

/* What a value that is not a duration is, in a message. */
#define WSPX__NOT_DURATION \
	"is not a duration (like 2s, 500ms, 1m30s, 2h, 1d)"

/* Read s into *seconds.  Returns true, or false with *why saying what is
 * wrong (WSPX__NOT_DURATION, "is more than a day"). */
bool wspx__duration_parse(const char *s, double *seconds, const char **why);

#endif /* WSPX_DURATION_H */
