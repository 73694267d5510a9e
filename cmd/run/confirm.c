/*
 * Asking before each job (see confirm.h).  The terminal is read a byte at
 * a time, up to the end of the line, so that nothing of the next answer,
 * typed ahead, is taken with this one; each byte is waited for together
 * with the run's stop, so that Ctrl-C does not wait for an answer.
 */
#include "confirm.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/thread.h"
#include "util/buf.h"
#include "util/util.h"

void
confirm_open(struct confirm *k, bool on, int stopfd)
{
	k->tty = -1;
	k->stopfd = stopfd;
	WSPX_MUST(pthread_mutex_init(&k->lock, NULL));
	if (on && (k->tty = open("/dev/tty", O_RDONLY | O_CLOEXEC)) < 0)
		badusage("-p asks on the terminal, and there is none "
		    "(/dev/tty: %s)", strerror(errno));
}

void
confirm_close(struct confirm *k)
{
	if (k->tty >= 0)
		close(k->tty);
	WSPX_MUST(pthread_mutex_destroy(&k->lock));
}

/* Wait for a byte of the answer, or the run's stop.  Returns 1 and sets
 * *c, 0 at the end of the terminal's input or on an error, -1 once the
 * run stops. */
static int
answerbyte(const struct confirm *k, char *c)
{
	struct pollfd pf[2] = { { k->tty, POLLIN, 0 }, { k->stopfd, POLLIN,
	    0 } };
	ssize_t r;

	for (;;) {
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			return 0;
		if (pf[1].revents != 0)
			return -1;
		if (pf[0].revents != 0 && ((r = read(k->tty, c, 1)) >= 0 ||
		    errno != EINTR))
			return r == 1;
	}
}

/* Read a line from the terminal: 1 if it starts with y or Y, blanks
 * skipped; 0 if not (or the input ended); -1 if the run stopped. */
static int
yes(const struct confirm *k)
{
	bool first = true;
	int y = 0, r;
	char c;

	while ((r = answerbyte(k, &c)) == 1) {
		if (c == '\n')
			break;
		if (first && !isspace((unsigned char)c)) {
			y = c == 'y' || c == 'Y';
			first = false;
		}
	}
	return r < 0 ? -1 : y;
}

int
confirm_ask(struct confirm *k, struct wspx__exec *x,
    struct wspx__output *out, struct wspx__cmd *cmd)
{
	struct buf b = { NULL, 0, 0 };
	bool asked = false;
	int run = -1;

	bufprintf(&b, "%s ?...", cmd->text != NULL ? cmd->text : "");
	WSPX_MUST(pthread_mutex_lock(&k->lock));
	/* (asked in turn: the answer before may have halted the run) */
	if (!wspx__exec_halting(x)) {
		wspx__output_note(out, b.s, b.len);
		asked = true;
		run = yes(k);
	}
	if (asked && run < 0)	/* (a question given up ends its line) */
		wspx__output_note(out, "\n", 1);
	WSPX_MUST(pthread_mutex_unlock(&k->lock));
	free(b.s);
	cmd->declined = run == 0;
	return run < 0 ? -ECANCELED : 0;
}
