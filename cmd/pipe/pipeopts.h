/*
 * What --pipe and --pipepart are given: the input, how it is cut into
 * blocks, and how each block reaches its job.  Filled by the run from the
 * options; the modules of pipe/ read no other option.
 */
#ifndef WSPX_PIPEOPTS_H
#define WSPX_PIPEOPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct srcspec;

struct pipe_opts {
	const struct srcspec *src;	/* the input: stdin ("-") or -a FILE */
	bool pipepart;		/* --pipepart: the file's byte ranges */
	uint64_t block;		/* --block, bytes */
	bool blockset;		/* --block was given */
	unsigned blockparts;	/* --block -N: --pipepart's parts per job
				 * slot; or 0 */
	const char *recstart;	/* --recstart, or NULL */
	const char *recend;	/* --recend, or NULL: "\n" unless recstart
				 * is given */
	bool regexp;		/* --regexp: recstart/recend are regexes */
	const char *header;	/* --header N|REGEX, or NULL */
	size_t lines;		/* -L: lines per record, or 0 */
	size_t count;		/* -N: records a block, or 0: by size */
	bool roundrobin;	/* --round-robin */
	bool cat;		/* --cat: {} is a file holding the block */
	bool fifo;		/* --fifo: {} is a FIFO giving the block */
	unsigned jobs;		/* -j: the job slots */
	bool dryrun;		/* --dry-run: no block is given to a job */
	const char *tmpdir;	/* where --cat's and --fifo's files go */
};

#endif /* WSPX_PIPEOPTS_H */
