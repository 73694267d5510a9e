/*
 * The blocks of --pipe and --pipepart: the input cut into blocks of
 * records, each the data of one job, in input order.  A block is either
 * bytes in memory (read from a pipe) or a byte range of a file that a
 * feeder moves into the job's pipe without reading it (stdin or -a FILE
 * that is a regular file, and --pipepart's parts).
 */
#ifndef WSPX_BLOCKS_H
#define WSPX_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pipe_opts;
struct chunk;
struct blocks;

/* One block: read-only for everyone until blocks_release(). */
struct block {
	uint64_t seq;		/* 1, 2, ...: its place in the input */
	const char *mem;	/* its bytes in memory, or NULL: */
	int fd;			/* the range [off, off + len) of this
				 * file (borrowed from the blocks) */
	uint64_t off;
	uint64_t len;		/* its size in bytes */
	struct chunk *chunk;	/* the memory holding mem (blocks.c's) */
};

/* Open o's input for blocks (stdin, -a FILE, --pipepart's file); o->jobs
 * is -j, for --pipepart's default size.  wakefd becomes readable when
 * reading should stop.  A file that cannot be opened, or that --pipepart
 * cannot seek in, is fatal, with a message naming it. */
struct blocks *blocks_open(const struct pipe_opts *o, int wakefd);

/* Close the input; every block must have been released. */
void blocks_close(struct blocks *b);

/* The next block, or NULL at the end of the input (or when wakefd became
 * readable).  One thread only (the reader).  Reads only what this block
 * needs, with at most one chunk of read-ahead. */
struct block *blocks_next(struct blocks *b);

/* Give back a block from blocks_next(); its memory may then be reused.
 * Any thread. */
void blocks_release(struct blocks *b, struct block *k);

/* The --header, which the feeders put before the blocks (len 0 if none).
 * Known once blocks_next() has returned, and unchanging after. */
const char *blocks_header(const struct blocks *b, size_t *len);

/* Whether reading the input failed (then it was reported). */
bool blocks_failed(const struct blocks *b);

#endif /* WSPX_BLOCKS_H */
