/*
 * Moving a running job's output from its pipes into the output module:
 * poll both pipes, read what is there, until both are at end of file or
 * the job has ended while something it left behind (a background
 * grandchild) keeps them open.
 */
#include "pump.h"

#include <errno.h>
#include <unistd.h>

#include "output.h"
#include "proc.h"

/* How often a job whose pipes stay open is checked for having ended, in
 * milliseconds. */
#define EXIT_POLL_MS	200

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

void
wspx__pump(struct wspx__output *o, struct wspx__outjob *oj,
    struct pollfd pf[2], pid_t pid)
{
	int open = (pf[0].fd >= 0) + (pf[1].fd >= 0), i, r;
	ssize_t n;

	while (open > 0) {
		r = poll(pf, 2, EXIT_POLL_MS);
		if (r == 0 && wspx__proc_exited(pid, false) == 1)
			break;
		for (i = 0; r > 0 && i < 2; i++) {
			if (pf[i].fd < 0 || pf[i].revents == 0)
				continue;
			if ((n = readinto(o, oj, i + 1, pf[i].fd)) < 0 &&
			    errno == EINTR)
				continue;
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
