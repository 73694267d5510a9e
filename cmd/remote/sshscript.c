/*
 * The script a remote job runs as, with /bin/sh on its host: it goes to
 * the job's directory (made if missing), exports what the job gets (the
 * --env variables, a job file's env:, the job's numbers), and runs the
 * command line in a subshell with stdin from /dev/null.
 *
 * Beside it, a watcher reads the session's stdin, which wspx never
 * writes and closes when it tells the job to end (a timeout, a halt now,
 * a signal), as does a dropped connection: the read ends, and the
 * watcher sends SIGTERM to the session's process group (sshd makes the
 * login shell, which execs /bin/sh, a session leader), then SIGKILL
 * after the grace of --term-timeout.  Without it, killing the local ssh
 * would leave the job running there with no one to read its output.
 * When the job ends by itself, the script kills the watcher.
 */
#include "sshscript.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/exec.h"
#include "input/template.h"
#include "util/buf.h"
#include "util/util.h"

extern char **environ;

/* renice sets the niceness (util-linux) or adds to it (BSD, busybox):
 * the same from a login at 0, as sshd starts them. */
char *
sshscript_prologue(const char *const *names, size_t n, int nice)
{
	struct buf b = { NULL, 0, 0 };
	const char *v;
	size_t i;

	bufadds(&b, "");
	if (nice != 0)
		bufprintf(&b, "renice -n %d -p $$ >/dev/null 2>&1; ", nice);
	for (i = 0; i < n; i++) {
		if ((v = getenv(names[i])) == NULL)
			continue;
		bufprintf(&b, "export %s=", names[i]);
		quote(&b, v, SHELL_POSIX);
		bufadds(&b, "; ");
	}
	return buftake(&b);
}

/* Whether s is one of wspx's own environment's strings. */
static bool
inherited(const char *s)
{
	char **e;

	for (e = environ; *e != NULL; e++)
		if (*e == s)
			return true;
	return false;
}

/* Export what the job's own environment (a job file's env:) sets: the
 * host's session has only its own.  A job file's environment holds wspx's
 * own strings and its settings (graph/graphcmd.c), so a string that is not one
 * of wspx's is a setting, even of the value wspx has.  Left out: what the
 * script sets itself, and WSPX_OUTPUT, a file here. */
static void
ownenv(struct buf *b, char *const *envp)
{
	static const char *const skip[] = { "WSPX_SEQ=", "WSPX_SLOT=",
		"PARALLEL_SEQ=", "PARALLEL_JOBSLOT=", "WSPX_OUTPUT=" };
	const char *eq;
	size_t i;

	for (; envp != NULL && *envp != NULL; envp++) {
		if (inherited(*envp) || (eq = strchr(*envp, '=')) == NULL ||
		    eq == *envp)
			continue;
		for (i = 0; i < sizeof(skip) / sizeof(skip[0]) &&
		    strncmp(*envp, skip[i], strlen(skip[i])) != 0; i++)
			;
		if (i < sizeof(skip) / sizeof(skip[0]))
			continue;
		bufadds(b, "export ");
		bufadd(b, *envp, (size_t)(eq - *envp) + 1);
		quote(b, eq + 1, SHELL_POSIX);
		bufadds(b, "; ");
	}
}

char *
sshscript(const char *dir, const char *exports,
    const struct wspx__cmd *cmd, uint64_t seq, unsigned slot, double grace)
{
	struct buf b = { NULL, 0, 0 };
	const char *line = cmd->text;

	/* (mkdir, a program, only when cd, a builtin, finds none) */
	bufadds(&b, "cd -- ");
	quote(&b, dir, SHELL_POSIX);
	bufadds(&b, " 2>/dev/null || { mkdir -p -- ");
	quote(&b, dir, SHELL_POSIX);
	bufadds(&b, " && cd -- ");
	quote(&b, dir, SHELL_POSIX);
	bufadds(&b, "; } || exit 1; ");
	bufadds(&b, exports);
	ownenv(&b, cmd->envp);
	bufprintf(&b, "export WSPX_SEQ=%llu PARALLEL_SEQ=%llu WSPX_SLOT=%u "
	    "PARALLEL_JOBSLOT=%u PARALLEL_PID=%ld; ", (unsigned long long)seq,
	    (unsigned long long)seq, slot, slot, (long)getpid());
	/* (the watcher's own words then no longer hold the job's) */
	bufprintf(&b, "exec 3<&0; (trap '' TERM; while read -r _; do :; done; "
	    "exec /bin/sh -c \"kill -TERM 0; sleep %.3f; kill -KILL 0\") "
	    "<&3 >/dev/null 2>&1 & w=$!; exec 3<&-; (", grace);
	bufadds(&b, line);
	bufadds(&b, "\n) </dev/null; s=$?; kill -KILL $w 2>/dev/null; "
	    "exit $s");
	return buftake(&b);
}
