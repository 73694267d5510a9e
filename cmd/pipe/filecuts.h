/*
 * Cutting a regular file into blocks without reading them: each cut is
 * found by reading a few KiB around it.  The blocks of --pipe when its
 * input is a file, and --pipepart's parts.
 */
#ifndef WSPX_FILECUTS_H
#define WSPX_FILECUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct records;

/* A file being cut, embedded by blocks.c; the reader's thread only. */
struct filecuts {
	const struct records *rs;	/* borrowed */
	int fd;				/* borrowed */
	const char *name;		/* for messages, borrowed */
	uint64_t pos;			/* where the next block starts */
	uint64_t size;			/* where the file ends */
	bool failed;			/* a read failed (reported) */
	char *scratch;			/* for the reads */
};

/* Cut fd from pos (its offset now) to size (its end), with the records
 * of rs.  name, rs and fd are borrowed. */
void filecuts_init(struct filecuts *fc, const struct records *rs, int fd,
    const char *name, uint64_t pos, uint64_t size);

/* Free what filecuts_init() allocated (not fd). */
void filecuts_fini(struct filecuts *fc);

/* The --header at pos, which the blocks then skip: a malloc'd copy of
 * *len bytes (0 if there is none, or the file does not hold it whole). */
char *filecuts_header(struct filecuts *fc, size_t *len);

/* --pipe's next block: its length (0 at the end) and *off, its start.
 * The cuts are those of blocks.c's rules by size (the file may still be
 * growing: its end is looked at again before the last block). */
uint64_t filecuts_block(struct filecuts *fc, uint64_t bs, uint64_t *off);

/* --pipepart's next part: up to the first cut bs bytes on or later, as
 * GNU parallel's (with --regexp, the last cut in the first 128 KiB
 * reads from there that hold one). */
uint64_t filecuts_part(struct filecuts *fc, uint64_t bs, uint64_t *off);

#endif /* WSPX_FILECUTS_H */
