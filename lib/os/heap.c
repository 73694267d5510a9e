/*
 * The heap's first pages made present at once (see heap.h).  glibc's
 * malloc() takes the heap from brk(2), M_TOP_PAD bytes more than it needs
 * each time, and keeps that much when it gives memory back: the pages
 * between the first block and the break are the ones the next
 * allocations write.  sbrk(), mallopt() and MADV_POPULATE_WRITE (Linux
 * 5.14) need _GNU_SOURCE, which only os/ asks for.
 */
#define _GNU_SOURCE
#include "heap.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

/* The largest mmap threshold glibc's own adjustment reaches on a 64-bit
 * machine (DEFAULT_MMAP_THRESHOLD_MAX). */
#define MMAP_THRESHOLD	(32 << 20)

void
wspx__heap_prefault(size_t bytes)
{
#if defined(M_TOP_PAD) && defined(MADV_POPULATE_WRITE)
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), from, to;
	void *first;

	/* (setting M_TOP_PAD stops glibc from raising the mmap threshold
	 * as blocks are freed, from 128 KB up to 32 MB: set where it would
	 * end, or each block of 128 KB or more is mapped and unmapped anew,
	 * page faults and all) */
	if (bytes > INT32_MAX || mallopt(M_TOP_PAD, (int)bytes) == 0 ||
	    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 0 ||
	    (first = malloc(1)) == NULL)
		return;
	from = ((uintptr_t)first + page) & ~(page - 1);
	to = (uintptr_t)sbrk(0) & ~(page - 1);
	/* (not if the block is not below the break: a malloc() of another
	 * kind, or one that took it from mmap(2)) */
	if (to > from && to - from <= 2 * bytes)
		(void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
	free(first);
#else
	(void)bytes;
#endif
}
