/*
 * --semaphore, GNU parallel's sem: COMMAND runs once, holding one of the
 * -j slots of a semaphore that wspx processes started apart share
 * (os/semslot.h: lock files that the kernel lets go of when their holder
 * ends, however it ends).  With --fg, the process that runs COMMAND
 * holds the slot.  In the background, the default, wspx forks once it has
 * the slot, before any thread exists: the parent exits with 0, and the
 * child holds the slot and runs COMMAND, as sem does.  --wait waits until
 * no slot of the semaphore is held.
 *
 * A semaphore is the directory semaphores/wspx-NAME of $PARALLEL_HOME,
 * else of ~/.parallel: the user's own, and apart from GNU sem's id-NAME
 * directories, which count their entries as holders.  NAME is
 * --semaphore-name, else the name of the terminal on stdin (tty(1)),
 * else "notty", each byte but - _ and ASCII letters and digits written
 * as two hex digits, as GNU's: no name leaves the directory.
 */
#include "semaphore.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/semslot.h"
#include "util/buf.h"
#include "util/util.h"

static void
makedir(const char *path)
{
	if (mkdir(path, 0700) != 0 && errno != EEXIST)
		fatal("--semaphore: cannot make %s:", path);
}

static bool
plainbyte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* The semaphore's name, as messages give it. */
static const char *
semname(const struct semconf *s)
{
	const char *tty;

	if (s->name != NULL)
		return s->name;
	return (tty = ttyname(STDIN_FILENO)) != NULL ? tty : "notty";
}

/* The semaphore's directory, made (mode 0700) with the two above it. */
static char *
semdir(const struct semconf *s)
{
	struct buf b = { NULL, 0, 0 };
	const char *home = getenv("PARALLEL_HOME"), *p;

	if (home != NULL && *home != '\0')
		bufadds(&b, home);
	else if ((home = getenv("HOME")) != NULL && *home != '\0')
		bufprintf(&b, "%s/.parallel", home);
	else
		fatal("--semaphore: neither $PARALLEL_HOME nor $HOME is set: "
		    "no place for the semaphore");
	makedir(b.s);
	bufadds(&b, "/semaphores");
	makedir(b.s);
	bufadds(&b, "/wspx-");
	for (p = semname(s); *p != '\0'; p++)
		if (plainbyte(*p))
			bufaddc(&b, *p);
		else
			bufprintf(&b, "%02x", (unsigned char)*p);
	makedir(b.s);
	return buftake(&b);
}

/* --semaphore-timeout in ms for semslot (-1: none). */
static int
timeoutms(double seconds)
{
	double ms = (seconds < 0 ? -seconds : seconds) * 1000;

	return seconds == 0 ? -1 : ms >= INT_MAX ? INT_MAX : (int)ms;
}

/* Take the slot (its fd is kept, close-on-exec, to the end of the
 * process).  Returns -1, or 1 when a negative timeout ran out. */
static int
takeslot(const struct config *c, const char *dir)
{
	int fd = wspx__semslot_take(dir, c->sem.slots,
	    timeoutms(c->sem.timeout));

	if (fd == -ETIMEDOUT && c->sem.timeout < 0) {
		warn("--semaphore-timeout: no slot of semaphore %s came free "
		    "within %gs: %s not run", semname(&c->sem),
		    -c->sem.timeout, c->command[0]);
		return 1;
	}
	if (fd == -ETIMEDOUT)
		warn("--semaphore-timeout: no slot of semaphore %s came free "
		    "within %gs: running %s without one", semname(&c->sem),
		    c->sem.timeout, c->command[0]);
	else if (fd == -EMFILE)
		fatal("--semaphore -j %u: a slot is a file, and so many "
		    "cannot be open at once (ulimit -n)", c->sem.slots);
	else if (fd < 0)
		fatal("--semaphore: semaphore %s: its slots in %s: %s",
		    semname(&c->sem), dir, strerror(-fd));
	return -1;
}

int
semaphore_enter(const struct config *c)
{
	char *dir = semdir(&c->sem);
	int rc;
	pid_t pid;

	if (c->sem.wait) {
		rc = wspx__semslot_drain(dir, timeoutms(c->sem.timeout));
		if (rc == -ETIMEDOUT)
			warn("--semaphore-timeout: semaphore %s still held "
			    "after %gs: waiting no longer", semname(&c->sem),
			    c->sem.timeout < 0 ? -c->sem.timeout :
			    c->sem.timeout);
		else if (rc != 0)
			fatal("--wait: semaphore %s: %s: %s", semname(&c->sem),
			    dir, strerror(-rc));
		free(dir);
		return rc == 0 ? EXIT_ALLOK : 1;
	}
	rc = takeslot(c, dir);
	free(dir);
	if (rc >= 0 || c->sem.fg)
		return rc;
	if ((pid = fork()) < 0)
		fatal("--semaphore: fork:");
	return pid > 0 ? EXIT_ALLOK : -1;
}

int
semaphore_status(int exitval)
{
	/* (-2: declined at -p's question, a failure that ran nothing) */
	return exitval >= 0 && exitval <= 255 ? exitval : 1;
}
