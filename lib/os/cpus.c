/*
 * Counting the CPUs this process may use (see cpus.h).  The affinity mask
 * comes from sched_getaffinity(), grown until the kernel's mask fits; a
 * CPU's core and package from /sys/devices/system/cpu/cpuN/topology, whose
 * files hold one decimal number each.  Distinct (package, core) pairs are
 * the cores, distinct packages the sockets.
 */
#define _GNU_SOURCE
#include "cpus.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The largest number of CPUs asked of the kernel (Linux's NR_CPUS goes
 * to 8192). */
#define MAXCPUS		65536

struct place {
	long pkg, core;
};

/* The affinity mask, allocated for *ncpus CPUs; NULL if it cannot be
 * read. */
static cpu_set_t *
affinity(int *ncpus)
{
	cpu_set_t *set;
	int n;

	for (n = 1024; n <= MAXCPUS; n *= 2) {
		if ((set = CPU_ALLOC(n)) == NULL)
			return NULL;
		if (sched_getaffinity(0, CPU_ALLOC_SIZE(n), set) == 0) {
			*ncpus = n;
			return set;
		}
		CPU_FREE(set);
		if (errno != EINVAL)
			return NULL;
	}
	return NULL;
}

/* The number in /sys/devices/system/cpu/cpuN/topology/name, or -1. */
static long
topology(int cpu, const char *name)
{
	char path[96], buf[32], *end;
	ssize_t n;
	long v;
	int fd;

	snprintf(path, sizeof(path),
	    "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	v = strtol(buf, &end, 10);
	return end != buf && (*end == '\n' || *end == '\0') && v >= 0 ? v :
	    -1;
}

/* Whether the place p is among the n of v (only its package, if
 * pkgonly). */
static bool
seen(const struct place *v, size_t n, struct place p, bool pkgonly)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].pkg == p.pkg && (pkgonly || v[i].core == p.core))
			return true;
	return false;
}

/* Cores and sockets of the threads' places, if every one is known. */
static void
places(struct wspx__cpus *c, const struct place *v, size_t n)
{
	size_t i, cores = 0, sockets = 0;

	for (i = 0; i < n; i++) {
		if (v[i].pkg < 0 || v[i].core < 0)
			return;
		cores += !seen(v, i, v[i], false);
		sockets += !seen(v, i, v[i], true);
	}
	c->cores = cores > 0 ? (unsigned)cores : 1;
	c->sockets = sockets > 0 ? (unsigned)sockets : 1;
}

void
wspx__cpus_count(struct wspx__cpus *c)
{
	struct place *v;
	cpu_set_t *set;
	int ncpus = 0, cpu;
	size_t n = 0;

	c->threads = wspx__cpus_threads();
	c->cores = c->threads;
	c->sockets = 1;
	if ((set = affinity(&ncpus)) == NULL)
		return;
	if ((v = calloc((size_t)CPU_COUNT_S(CPU_ALLOC_SIZE(ncpus), set),
	    sizeof(*v))) != NULL) {
		for (cpu = 0; cpu < ncpus; cpu++) {
			if (!CPU_ISSET_S((size_t)cpu, CPU_ALLOC_SIZE(ncpus),
			    set))
				continue;
			v[n].pkg = topology(cpu, "physical_package_id");
			v[n++].core = topology(cpu, "core_id");
		}
		places(c, v, n);
		free(v);
	}
	CPU_FREE(set);
}

unsigned
wspx__cpus_threads(void)
{
	cpu_set_t *set;
	int ncpus = 0, n = 0;
	long online;

	if ((set = affinity(&ncpus)) != NULL) {
		n = CPU_COUNT_S(CPU_ALLOC_SIZE(ncpus), set);
		CPU_FREE(set);
	}
	if (n > 0)
		return (unsigned)n;
	online = sysconf(_SC_NPROCESSORS_ONLN);
	return online > 0 ? (unsigned)online : 1;
}
