/*
 * Asking before each job (see confirm.h).  The terminal is read a byte at
 * a time, up to the end of the line, so that nothing of the next answer,
 * typed ahead, is taken with this one.
 */
#include "confirm.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/thread.h"
#include "util/buf.h"
#include "util/util.h"

void
confirm_open(struct confirm *k, bool on)
{
	k->tty = -1;
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

/* Read a line from the terminal: whether it starts with y or Y, blanks
 * skipped.  End of file, or an error: no. */
static bool
yes(int tty)
{
	bool first = true, y = false;
	ssize_t r;
	char c;

	while ((r = read(tty, &c, 1)) == 1 || (r < 0 && errno == EINTR)) {
		if (r < 0)
			continue;
		if (c == '\n')
			break;
		if (first && !isspace((unsigned char)c)) {
			y = c == 'y' || c == 'Y';
			first = false;
		}
	}
	return y;
}

void
confirm_ask(struct confirm *k, struct wspx__output *out,
    struct wspx__cmd *cmd)
{
	struct buf b = { NULL, 0, 0 };
	bool run;

	bufprintf(&b, "%s ?...", cmd->text != NULL ? cmd->text : "");
	WSPX_MUST(pthread_mutex_lock(&k->lock));
	wspx__output_note(out, b.s, b.len);
	run = yes(k->tty);
	WSPX_MUST(pthread_mutex_unlock(&k->lock));
	free(b.s);
	cmd->declined = !run;
}
