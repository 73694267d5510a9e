/*
 * Job output: what each job writes to its stdout and stderr, printed to
 * wspx's own with no byte lost and no two jobs' output interleaved, in one
 * of the modes of wspx(1): grouped per job (the default), whole lines as
 * they come, or in input order with the oldest job streamed live.  Memory
 * stays bounded: past a threshold a job's output goes to an unlinked
 * temporary file.
 */
#ifndef WSPX_OUTPUT_H
#define WSPX_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spill.h"

enum wspx_outmode {
	WSPX_OUT_GROUP,		/* a job's stdout, then its stderr, at its end */
	WSPX_OUT_LINES,		/* whole lines as they come */
	WSPX_OUT_UNGROUP	/* jobs write to wspx's fds themselves */
};

struct wspx__output_opts {
	enum wspx_outmode mode;
	bool keep_order;	/* print in sequence order, head live */
	bool hold;		/* keep printed bytes staged until the stage
				 * is full or wspx__output_flush() */
	int out_fd;		/* where jobs' stdout goes */
	int err_fd;		/* where jobs' stderr and notes go */
	size_t spill;		/* bytes per stream kept in memory; 0: 128 KiB */
	const char *tmpdir;	/* where spill files go */
	const char *compress;	/* shell commands that compress and */
	const char *decompress;	/* decompress spill files; NULL: plain */
	/* Called once, with the lock held, when writing the output first
	 * fails (-errno); NULL: not called.  It must not print. */
	void (*failed)(void *ctx, int err);
	void *ctx;
};

struct wspx__output;
struct wspx__outjob;

/* Set up output with opts (copied; tmpdir is borrowed).  Returns 0 and sets
 * *o, or -ENOMEM. */
int wspx__output_new(struct wspx__output **o,
    const struct wspx__output_opts *opts);

/* Free o; every job must have been closed. */
void wspx__output_free(struct wspx__output *o);

/* Start collecting the output of the job numbered seq; tag (copied, may be
 * NULL) is put before each of its lines.  With keep_order every number from
 * 1 up is opened exactly once, in any order.  Any thread.  Returns 0 and
 * sets *j, or -ENOMEM. */
int wspx__output_open(struct wspx__output *o, uint64_t seq, const char *tag,
    struct wspx__outjob **j);

/* The job wrote n bytes to its stream 1 (stdout) or 2 (stderr).  Only the
 * thread that reads the job's output calls this.  Returns 0, or the error
 * that stopped output (-EPIPE once wspx's stdout has no reader). */
int wspx__output_write(struct wspx__output *o, struct wspx__outjob *j,
    int stream, const char *buf, size_t n);

/* Room for at least want more bytes of the job's stream, in memory, for
 * the reader to read into and then pass to wspx__output_commit(), saving a
 * copy; sets *n to the room and returns it, or returns NULL when this mode
 * does not just collect or the stream has reached its spill threshold
 * (read elsewhere and call wspx__output_write()).  Reader thread only. */
char *wspx__output_space(struct wspx__output *o, struct wspx__outjob *j,
    int stream, size_t want, size_t *n);

/* n bytes were read into the room wspx__output_space() gave. */
void wspx__output_commit(struct wspx__outjob *j, int stream, size_t n);

/* With keep-order, print j's output only once it is closed, never live
 * as the head: it may run again, and its output be discarded.  Before
 * its first write. */
void wspx__output_hold(struct wspx__output *o, struct wspx__outjob *j);

/* Forget what j collected and has not printed, and its byte count: a job
 * run again starts its output afresh (what was printed already, as by
 * the live head of keep-order or whole lines, stays).  Reader thread. */
void wspx__output_discard(struct wspx__output *o, struct wspx__outjob *j);

/* Text to print on the output fd around the job's output, grouped (other
 * modes ignore it): head before its first byte (set it before the job
 * writes), tail after its last (until it is closed); on the output fd,
 * where the job's stdout goes, as a GitHub runner reads its folding
 * markers (stderr comes through another pipe, at another pace).  Takes ownership of
 * each that is not NULL, which replaces the one set before.  The reader
 * thread. */
void wspx__output_frame(struct wspx__output *o, struct wspx__outjob *j,
    char *head, char *tail);

/* A line about j that belongs before its output (a job file's progress
 * line, as the job ends): with grouped output, first, before j's head,
 * if nothing of j is printed yet, else (a job shown as it ran, with -k)
 * after its tail; on the output fd, as the frame.  Otherwise a note.  No
 * memory: no line.  Any thread, before j is closed. */
void wspx__output_lead(struct wspx__output *o, struct wspx__outjob *j,
    const char *line);

/* The n bytes of line belong after j's output (a --joblog - row), on the
 * output fd: printed as j is closed, after all of it and its tail, in
 * every mode and in j's turn with keep-order; lines given for j before
 * follow in the order given (a row for each attempt).  With no j, now,
 * between jobs' output.  Out of memory: the output fails.  Any thread,
 * before j is closed. */
void wspx__output_trail(struct wspx__output *o, struct wspx__outjob *j,
    const char *line, size_t n);

/* Copy up to n of the last bytes the job wrote to its stderr (1 KiB are
 * kept) into buf; returns how many.  The reader thread. */
size_t wspx__output_errtail(const struct wspx__outjob *j, char *buf,
    size_t n);

/* The job ended: print what is left of its output, now or when its turn
 * comes, and free j.  Returns 0 or the error that stopped output. */
int wspx__output_close(struct wspx__output *o, struct wspx__outjob *j);

/* Write out what is staged (opts.hold).  Any thread. */
void wspx__output_flush(struct wspx__output *o);

/* Print a message of wspx's own (a command for -v, an error) to the
 * error fd, between jobs' output.  Returns 0 or -errno. */
int wspx__output_note(struct wspx__output *o, const char *msg, size_t n);

/* Keep a status line on fd (a terminal, wspx's stderr): output that
 * reaches the same screen is printed above it.  Not with ungrouped output,
 * which the jobs write themselves. */
void wspx__output_status_start(struct wspx__output *o, int fd);

/* Set the status line's text (n bytes, one line that fits the terminal's
 * width) and draw it, unless output has left a partial line on the screen:
 * it is drawn once that line ends.  Any thread.  Returns 0 or -ENOMEM. */
int wspx__output_status_set(struct wspx__output *o, const char *text,
    size_t n);

/* Erase the status line and stop keeping one; if output left a partial
 * line on its screen, end that line. */
void wspx__output_status_end(struct wspx__output *o);

/* Whether jobs' output is captured (not ungrouped). */
bool wspx__output_captures(const struct wspx__output *o);

/* wspx's fd for stream 1 (stdout) or 2 (stderr). */
int wspx__output_fd(const struct wspx__output *o, int stream);

/* Bytes the job has written so far, both streams. */
uint64_t wspx__output_bytes(const struct wspx__outjob *j);

/* Bytes the job has written to its stdout so far. */
uint64_t wspx__output_stdout_bytes(const struct wspx__outjob *j);

/* The first error writing output (0 if none): -EPIPE when the reader of
 * wspx's stdout went away.  Any thread. */
int wspx__output_error(struct wspx__output *o);

/* The first error a spill file met (-errno; none could be made, or one
 * could not be written, as on a full disk), or 0.  The output then stayed
 * in memory, unless that overflowed (wspx__output_overflowed()).  Read it
 * once the jobs have ended. */
int wspx__output_spill_error(struct wspx__output *o);

/* If what a job printed had to be dropped (no spill file could take it,
 * and the memory for output that waits was full; or its compressor
 * failed), fail the output with the spill file's error (-EIO for the
 * compressor), as a write error fails it: nothing more is
 * printed, and opts.failed is called.  A job's reader thread, holding no
 * lock. */
void wspx__output_check_overflow(struct wspx__output *o);

/* Whether output had to be dropped so.  Any thread. */
bool wspx__output_overflowed(struct wspx__output *o);

/* Whether a filter of opts.compress failed, which one, and why (see
 * wspx__spill_zipfailed()): the output then failed with -EIO.  Read it
 * once the jobs have ended. */
enum wspx_zipper wspx__output_zipfailed(struct wspx__output *o, int *why);

#endif /* WSPX_OUTPUT_H */
