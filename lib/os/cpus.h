/*
 * The CPUs this process may run on, as GNU parallel's --number-of-threads,
 * --number-of-cores and --number-of-sockets count them, and as nproc(1)
 * counts threads: those of its affinity mask (taskset(1), a container's
 * cpuset), not all those the system has.  Reentrant.
 */
#ifndef WSPX_CPUS_H
#define WSPX_CPUS_H

struct wspx__cpus {
	unsigned threads;	/* hardware threads (what -j counts) */
	unsigned cores;		/* physical cores they belong to */
	unsigned sockets;	/* physical packages */
};

/* Count the CPUs of the affinity mask, cores and sockets from the
 * topology in /sys; where it cannot be read, a thread is a core and all
 * are one socket.  Each count is at least 1. */
void wspx__cpus_count(struct wspx__cpus *c);

/* The hardware threads of the affinity mask (at least 1). */
unsigned wspx__cpus_threads(void);

#endif
