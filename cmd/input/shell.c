/*
 * Which shell runs the command lines that need one.  Unless --shell or
 * $WSPX_SHELL names it, it is the shell wspx was started from, as with GNU
 * parallel: the lines of a bash script run in bash, those of a #!/bin/sh
 * script or a make recipe run by /bin/sh in the POSIX shell, whatever
 * login shell $SHELL names.  Unasked, wspx takes only a POSIX shell whose
 * quoting it knows (quoting for one it does not know could let input add
 * code; fish and csh do not read the sh syntax that command lines are
 * written in), and only its parent, not an ancestor further up: a program
 * in between (timeout, xargs, a Python script) started wspx without that
 * shell.  Then $SHELL decides, under the same conditions, then /bin/sh.
 *
 * The parent is identified once, at start, by /proc/PPID/exe, the program
 * it runs, which its argv[0] ("-bash", "sh") cannot disguise.  Busybox
 * needs argv too: its binary is a shell only when it runs its sh or ash
 * applet, and it runs one only when told which, so the shell becomes
 * `busybox sh -c LINE`.  A parent that has exited (wspx was handed to init
 * or a subreaper), or whose /proc entry cannot be read, is no shell.
 *
 * Bash functions exported with `export -f NAME` (the environment variable
 * BASH_FUNC_NAME%%) are a GNU parallel idiom; a command whose first word
 * is one runs in bash even when the shell chosen is another one (see
 * shell_function()).  They are read from the environment once, so the
 * check for each job is a short search without allocation.
 */
#include "shell.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/proc.h"
#include "progpath.h"
#include "util/buf.h"
#include "util/util.h"

/* The shells wspx takes without being asked, from its parent or $SHELL:
 * POSIX shells common enough to be the one a script runs in.  The others
 * that shellquote.c can quote for (fish, csh, yash, ...) are used only when
 * named by --shell or $WSPX_SHELL. */
static const char *const known[] = { "sh", "ash", "dash", "bash", "zsh",
    "ksh", "mksh", "busybox" };

/* The parent's program; kept for the run. */
static char parentexe[PATH_MAX];

/* An exported bash function: its name, in the environment. */
struct func {
	const char *name;	/* in the environment, not NUL-terminated */
	size_t n;		/* its length */
	bool program;		/* name is also a program in PATH */
};

static struct func *funcs;
static size_t nfuncs;
static struct shell bash;	/* runs the functions; path NULL if none */
static bool runisbash;		/* the chosen shell is bash */

/* Whether path is a program that can be run: with a '/', an executable
 * regular file; else one found in PATH. */
static bool
runnable(const char *path)
{
	struct stat st;

	if (strchr(path, '/') == NULL)
		return progpath(path) != NULL;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, X_OK) == 0;
}

/* Whether the last component of path is name, perhaps with a version after
 * it (ksh93, bash5, bash-5.2). */
static bool
named(const char *path, const char *name)
{
	const char *base = strrchr(path, '/');
	size_t n = strlen(name);

	base = base != NULL ? base + 1 : path;
	return strncmp(base, name, n) == 0 &&
	    strspn(base + n, "0123456789.-") == strlen(base + n);
}

static bool
known_shell(const char *path)
{
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (named(path, known[i]))
			return true;
	return false;
}

/* sh for the program path; busybox runs applet, by default sh. */
static void
setshell(struct shell *sh, const char *path, const char *applet)
{
	sh->path = path;
	sh->applet = applet != NULL ? applet : named(path, "busybox") ? "sh" :
	    NULL;
	sh->kind = shell_kind(path);
}

/* The applet named by argv[0] of a command line: the last component,
 * without the '-' of a login shell. */
static const char *
appletname(const char *arg0)
{
	const char *base = strrchr(arg0, '/');

	base = base != NULL ? base + 1 : arg0;
	return *base == '-' ? base + 1 : base;
}

/* The shell applet (sh or ash) that the busybox process pid runs, from its
 * argv: "sh", "-sh", "/bin/ash", or "busybox sh"; NULL if another one. */
static const char *
busyboxapplet(pid_t pid)
{
	char args[512];
	const char *a;
	int n;

	if ((n = wspx__proc_cmdline(pid, args, sizeof(args))) <= 0)
		return NULL;
	a = appletname(args);
	if (strcmp(a, "busybox") == 0 && strlen(args) + 1 < (size_t)n)
		a = appletname(args + strlen(args) + 1);
	return strcmp(a, "sh") == 0 ? "sh" : strcmp(a, "ash") == 0 ? "ash" :
	    NULL;
}

/* Set sh to the parent process's shell; false if the parent is not a
 * shell wspx knows, or it cannot be run. */
static bool
parentshell(struct shell *sh)
{
	pid_t ppid = getppid();
	const char *applet = NULL;

	if (wspx__proc_exe(ppid, parentexe, sizeof(parentexe)) <= 0)
		return false;
	if (!known_shell(parentexe) || (named(parentexe, "busybox") &&
	    (applet = busyboxapplet(ppid)) == NULL) || !runnable(parentexe))
		return false;
	setshell(sh, parentexe, applet);
	return true;
}

/* A shell named explicitly, by --shell or $WSPX_SHELL (as what): any
 * program, which must be one that can be run. */
static void
explicitshell(struct shell *sh, const char *path, const char *what)
{
	if (!runnable(path))
		fatal("%s%s: not a program that can be run", what, path);
	setshell(sh, path, NULL);
}

/* GNU parallel's PARALLEL_SHELL is not read: wspx reads none of GNU
 * parallel's settings, which are for that program. */
void
shell_choose(struct shell *sh, const char *opt)
{
	const char *e = getenv("WSPX_SHELL");

	if (opt != NULL)
		explicitshell(sh, opt, "--shell ");
	else if (e != NULL && *e != '\0')
		explicitshell(sh, e, "WSPX_SHELL=");
	else if (!parentshell(sh)) {
		e = getenv("SHELL");
		setshell(sh, e != NULL && known_shell(e) && runnable(e) ? e :
		    "/bin/sh", NULL);
	}
}

/* If env entry e exports a bash function, its name's length, else 0.
 * Bash itself imports only values that start with "() {", and no name
 * with a '/'. */
static size_t
funcname(const char *e)
{
	static const char prefix[] = "BASH_FUNC_";
	const char *eq, *name = e + sizeof(prefix) - 1;
	size_t n;

	if (strncmp(e, prefix, sizeof(prefix) - 1) != 0 ||
	    (eq = strchr(name, '=')) == NULL || eq - name < 3 ||
	    strncmp(eq - 2, "%%", 2) != 0 || strncmp(eq + 1, "() {", 4) != 0)
		return 0;
	n = (size_t)(eq - 2 - name);
	return memchr(name, '/', n) == NULL ? n : 0;
}

void
shell_functions_init(char *const *env, const struct shell *run)
{
	struct buf name = { NULL, 0, 0 };
	const char *path;
	size_t i, n;

	for (i = 0; env[i] != NULL; i++) {
		if ((n = funcname(env[i])) == 0)
			continue;
		funcs = xrealloc(funcs, (nfuncs + 1) * sizeof(*funcs));
		funcs[nfuncs].name = env[i] + strlen("BASH_FUNC_");
		funcs[nfuncs].n = n;
		name.len = 0;
		bufadd(&name, funcs[nfuncs].name, n);
		funcs[nfuncs++].program = progpath(name.s) != NULL;
	}
	free(name.s);
	runisbash = named(run->path, "bash") && run->applet == NULL;
	if (runisbash)
		bash = *run;
	else if (nfuncs > 0 && (path = progpath("bash")) != NULL)
		setshell(&bash, path, NULL);
}

void
shell_fini(void)
{
	free(funcs);
	funcs = NULL;
	nfuncs = 0;
	memset(&bash, 0, sizeof(bash));
	runisbash = false;
}

bool
shell_any_function(void)
{
	return nfuncs > 0;
}

bool
shell_function(const char *name, size_t n, const struct shell **sh)
{
	size_t i;

	for (i = 0; i < nfuncs; i++) {
		if (funcs[i].n != n || memcmp(funcs[i].name, name, n) != 0)
			continue;
		if (funcs[i].program && !runisbash)
			return false;
		*sh = bash.path != NULL ? &bash : NULL;
		return true;
	}
	return false;
}

const char *
shell_firstword(const char *line, size_t *n)
{
	line += strspn(line, " \t\n");
	*n = strcspn(line, " \t\n;&|()<>");
	return line;
}
