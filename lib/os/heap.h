/*
 * The program's heap, its first pages made present at once.
 */
#ifndef WSPX_HEAP_H
#define WSPX_HEAP_H

#include <stddef.h>

/* Have malloc() grow the heap by bytes at a time, and make the pages of
 * its first bytes present with one call (MADV_POPULATE_WRITE), before
 * they are written.  Each page a program first writes is otherwise a
 * page fault, and in a virtual machine that shadows the guest's page
 * tables one costs about 15 us, where populating costs about 1 us a page:
 * a short run (a no-op build) spends a fifth of its time in faults.
 * Blocks of up to 32 MB then come from the heap, as glibc's own
 * adjustment of its mmap threshold has them after the first such block
 * is freed.  For a program's main(), before its first malloc(), not for
 * a library; does nothing where malloc() or the kernel cannot. */
void wspx__heap_prefault(size_t bytes);

#endif /* WSPX_HEAP_H */
