/*
 * Moving a running job's output from its pipes into the output module:
 * poll both pipes, read what is there, until both are at end of file or
 * the job has ended while something it left behind (a background
 * grandchild) keeps them open.
 */
#include "pump.h"

#include <errno.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "os/proc.h"
#include "output.h"

/* How often a job whose pipes stay open is checked for having ended, in
 * milliseconds. */
#define EXIT_POLL_MS	200

/* A job that has written this much is a big writer.  Its pipes are then
 * widened to 1 MiB (each job's start costs less with the default 64 KiB,
 * which is plenty for most), so that it blocks on a full pipe 16 times
 * less often, and after a read that emptied its pipe we wait NAP_NS before
 * looking again, so that the next read takes what it wrote meanwhile, not
 * each of its writes (8 KiB at a time, for most programs) with a wake-up
 * and two system calls of its own: a third of the CPU time of wspx for a
 * job that prints megabytes.  Only if the pipes could be widened to
 * NAP_PIPE bytes, so that a writer waits for us only past about 4 GB/s;
 * the end of its output is seen at most NAP_NS late, which no reader of
 * the output can tell. */
#define BIG_WRITER	(64u * 1024)
#define NAP_NS		250000
#define NAP_PIPE	(1u << 20)

/* Read what the job wrote on stream from fd into the output: straight
 * into its collected bytes when the output module has room for them,
 * else through a buffer.  Returns what read() returned. */
static ssize_t
readinto(struct wspx__output *o, struct wspx__outjob *oj, int stream, int fd)
{
	char buf[65536], *p;
	size_t room;
	ssize_t n;

	if ((p = wspx__output_space(o, oj, stream, sizeof(buf), &room))) {
		if ((n = read(fd, p, room)) > 0)
			wspx__output_commit(oj, stream, (size_t)n);
		return n;
	}
	if ((n = read(fd, buf, sizeof(buf))) > 0)
		wspx__output_write(o, oj, stream, buf, (size_t)n);
	return n;
}

/* Whether the job is a big writer whose pipes could be widened enough to
 * nap (see NAP_NS); *big caches the widening, -1 before it. */
static bool
bigwriter(struct wspx__outjob *oj, struct pollfd pf[2], int *big)
{
	int i;

	if (wspx__output_bytes(oj) < BIG_WRITER)
		return false;
	for (i = 0; *big < 0 && i < 2; i++)
		if (pf[i].fd >= 0 && wspx__proc_pipe_grow(pf[i].fd) < NAP_PIPE)
			*big = 0;
	if (*big < 0)
		*big = 1;
	return *big == 1;
}

void
wspx__pump(struct wspx__output *o, struct wspx__outjob *oj,
    struct pollfd pf[2], pid_t pid)
{
	int open = (pf[0].fd >= 0) + (pf[1].fd >= 0), i, r;
	bool nap = false;	/* the last read emptied a pipe */
	int big = -1;		/* bigwriter()'s pipe check, once */
	ssize_t n;

	while (open > 0) {
		if (bigwriter(oj, pf, &big) && nap)
			nanosleep(&(struct timespec){ 0, NAP_NS }, NULL);
		nap = false;
		r = poll(pf, 2, EXIT_POLL_MS);
		if (r == 0 && wspx__proc_exited(pid, false) == 1)
			break;
		for (i = 0; r > 0 && i < 2; i++) {
			if (pf[i].fd < 0 || pf[i].revents == 0)
				continue;
			if ((n = readinto(o, oj, i + 1, pf[i].fd)) < 0 &&
			    errno == EINTR)
				continue;
			wspx__output_check_overflow(o);
			nap |= n > 0 && n < (ssize_t)BIG_WRITER;
			if (n <= 0) {
				close(pf[i].fd);
				pf[i].fd = -1;
				open--;
			}
		}
	}
	for (i = 0; i < 2; i++)
		if (pf[i].fd >= 0)
			close(pf[i].fd);
}
