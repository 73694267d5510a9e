/*
 * A bump allocator for memory that dies all at once: a YAML tree's nodes and
 * strings (yamldoc.c), a job file's jobs (jobfile/jobfile.c).  Memory comes
 * from chunks that grow from 8 KiB to 1 MiB, so a small file costs little and
 * a large one few mallocs; nothing is freed alone, and _fini frees every
 * chunk.  Not thread-safe: one thread at a time per arena.
 */
#ifndef WSPX_ARENA_H
#define WSPX_ARENA_H

#include <stddef.h>

struct wspx__arena_chunk;

/* Embedded by its owner; all zero is an empty arena. */
struct wspx__arena {
	struct wspx__arena_chunk *head;	/* the chunk being filled, or
					 * NULL */
	size_t chunksize;		/* of the next chunk; 0: the first */
};

/* size bytes from a, aligned to align (a power of 2), valid until _fini.
 * A request larger than a chunk gets a chunk of its own.  Returns NULL
 * without memory. */
void *wspx__arena_alloc(struct wspx__arena *a, size_t size, size_t align);

/* A copy of s[0..len) in a, NUL-terminated (s may hold NULs).  Returns
 * NULL without memory. */
char *wspx__arena_strdup(struct wspx__arena *a, const void *s, size_t len);

/* Free every chunk of a, which is then empty (and may be used again). */
void wspx__arena_fini(struct wspx__arena *a);

#endif /* WSPX_ARENA_H */
