/*
 * How many jobs run at once: -j's value against a number of CPUs, for
 * this machine (-j) and for each host of -S, whose CPUs are asked once
 * its connection is up.
 */
#ifndef WSPX_SLOTS_H
#define WSPX_SLOTS_H

/* The most jobs at once, for -j and for the hosts of -S together. */
#define MAXJOBS		65535

/* The job slots that spec gives against ncpus CPUs: N, N% of them, +N or
 * -N more or fewer, at least 1, at most MAXJOBS; or 0 for 0, as many as
 * possible, which the caller bounds.
 * Returns NULL and sets *slots, or what is wrong with spec (a static
 * string, to follow the value in a message). */
const char *slots_parse(const char *spec, unsigned ncpus, unsigned *slots);

#endif /* WSPX_SLOTS_H */
