/*
 * The feeder: one thread that writes --pipe's blocks into the jobs' stdin
 * pipes (or --fifo's FIFOs), all of them at once, each as fast as its job
 * reads; and --round-robin's queue of blocks for the long-lived jobs.
 */
#ifndef WSPX_FEEDER_H
#define WSPX_FEEDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct block;
struct blocks;
struct feeder;
struct feed;

/* Start the feeder thread.  src gives the --header and takes back the
 * blocks that feeds own (borrowed for the feeder's life); stopfd becomes
 * readable when the run stops, and then every feed ends; queue is how
 * many blocks feeder_put() may hold.  Call after the signal mask is set
 * (the thread blocks every signal anyway). */
struct feeder *feeder_new(struct blocks *src, int stopfd, size_t queue);

/* End the thread and free f, releasing the blocks still queued.  Every
 * feed must have been ended with feeder_end(). */
void feeder_free(struct feeder *f);

/* Feed the header, then blk, into fd, a pipe's write end that the feed
 * takes over (made non-blocking; closed when the feed ends, which is the
 * job's end of file); or, with fd -1, into the FIFO at the path fifo
 * (borrowed until feeder_end()), opened once a reader has opened it.
 * Without stream, blk is borrowed until feeder_end() and may be NULL (the
 * job then gets an empty stdin); with stream (--round-robin), the feed
 * owns blk, releases it once written and goes on with the blocks of
 * feeder_put().  Any thread. */
struct feed *feeder_start(struct feeder *f, int fd, const char *fifo,
    struct block *blk, bool stream);

/* End fe if it still runs, wait until the feeder has let go of it, and
 * free it.  Any thread, once per feed. */
void feeder_end(struct feeder *f, struct feed *fe);

/* The bytes that fe was given to write: the header and each block
 * (those of a stream so far), written or not.  Any thread, before
 * feeder_end(). */
uint64_t feeder_given(struct feeder *f, struct feed *fe);

/* --round-robin: n (1) jobs that will start a stream were made, or (-1)
 * one ended without starting its feed.  The reader's thread. */
void feeder_streams(struct feeder *f, int n);

/* --round-robin: queue blk for the first stream that has written what it
 * had (waiting while the queue is full).  Returns false, blk not taken,
 * if no stream can take blocks any more or the run stops. */
bool feeder_put(struct feeder *f, struct block *blk);

/* --round-robin: no more blocks; each stream ends (its job's end of file)
 * once the queue is empty and it has written its block. */
void feeder_close(struct feeder *f);

#endif /* WSPX_FEEDER_H */
