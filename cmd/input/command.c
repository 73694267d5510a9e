/*
 * The commands of the jobs (see command.h).  COMMAND is parsed once into a
 * template (template.c); each job fills it with its arguments, either
 * into an argv run directly, when the template's own text needs no shell,
 * or into a line for the run's shell with each value quoted for it.  With
 * no COMMAND, each input line is the command, run directly if it has no
 * shell syntax.
 *
 * Exported bash functions.  A command whose first word is a function
 * exported in the environment (export -f) runs in bash, whatever the run's
 * shell, as GNU parallel users expect.  Whether it is one is decided once
 * when COMMAND's first word is literal text, else per job (the word comes
 * from the input), by a lookup that allocates nothing.
 */
#include "command.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "progpath.h"
#include "shell.h"
#include "util/buf.h"
#include "util/util.h"

extern char **environ;

/* When an exported bash function decides a job's shell. */
enum funcs {
	FUNCS_NEVER,		/* no function exported, or not COMMAND's */
	FUNCS_ALWAYS,		/* COMMAND's literal first word is one */
	FUNCS_PERJOB		/* the first word comes from the input */
};

struct commands {
	struct template *cmd;	/* NULL: each input line is a command */
	struct template *tag;	/* --tagstring, or NULL */
	bool tagargs;		/* --tag: the arguments are the tag */
	struct shell shell;	/* for command lines (shell.c) */
	enum funcs funcs;
	const struct shell *funcsh;	/* FUNCS_ALWAYS: bash, or NULL */
};

/* argv to run line with sh. */
static char **
shellargv(const struct shell *sh, const char *line)
{
	struct buf words = { NULL, 0, 0 };
	char **argv;
	size_t n = 3;

	bufadd(&words, sh->path, strlen(sh->path) + 1);
	if (sh->applet != NULL) {
		bufadd(&words, sh->applet, strlen(sh->applet) + 1);
		n++;
	}
	bufadd(&words, "-c", 3);
	bufadd(&words, line, strlen(line) + 1);
	argv = packwords(&words, n);
	free(words.s);
	return argv;
}

/* Run cmd->text with sh. */
static void
inshell(const struct shell *sh, struct wspx__cmd *cmd)
{
	cmd->argv = shellargv(sh, cmd->text);
	cmd->search = strchr(sh->path, '/') == NULL;
}

/* The fields joined with spaces: a whole command, or a --tag. */
static char *
joinargs(const struct args *a)
{
	struct buf b = { NULL, 0, 0 };
	size_t i;

	for (i = 0; i < a->n; i++) {
		if (i > 0)
			bufaddc(&b, ' ');
		bufadds(&b, a->v[i]);
	}
	return buftake(&b);
}

/* The bash for a command whose first word begins s (a whole command line
 * if line, else the word) if it is an exported bash function; else NULL.
 * A function with no bash to run it sets *nobash. */
static const struct shell *
funcshell(const struct commands *cm, const char *s, bool line, bool *nobash)
{
	const struct shell *bash = cm->funcsh;
	size_t n;

	if (cm->funcs == FUNCS_NEVER)
		return NULL;
	if (cm->funcs == FUNCS_PERJOB) {
		if (line)
			s = shell_firstword(s, &n);
		else
			n = strlen(s);
		if (!shell_function(s, n, &bash))
			return NULL;
	}
	*nobash = bash == NULL;
	return bash;
}

/* The command of a job with no COMMAND: its input is the command line,
 * run as it is. */
static void
linecommand(const struct commands *cm, const struct args *a,
    struct wspx__cmd *cmd, bool *nobash)
{
	const struct shell *sh;

	cmd->text = joinargs(a);
	sh = funcshell(cm, cmd->text, true, nobash);
	if (sh == NULL && line_needs_shell(cmd->text))
		sh = &cm->shell;
	if (sh != NULL) {
		inshell(sh, cmd);
	} else {
		cmd->argv = line_argv(cmd->text);
		cmd->search = true;
	}
}

/* The command of a job of COMMAND: a shell line with the values quoted for
 * the shell that runs it, or an argv; in bash for an exported function. */
static void
templatecommand(const struct commands *cm, const struct args *a,
    uint64_t seq, unsigned slot, struct wspx__cmd *cmd, bool *nobash)
{
	const struct shell *sh;

	if (template_needs_shell(cm->cmd)) {
		cmd->text = template_line(cm->cmd, a, seq, slot, true,
		    cm->shell.kind);
		sh = funcshell(cm, cmd->text, true, nobash);
		if (sh != NULL && sh->kind != cm->shell.kind) {
			free(cmd->text);
			cmd->text = template_line(cm->cmd, a, seq, slot, true,
			    sh->kind);
		}
		inshell(sh != NULL ? sh : &cm->shell, cmd);
		return;
	}
	cmd->argv = template_argv(cm->cmd, a, seq, slot);
	cmd->text = argv_text(cmd->argv);
	cmd->search = true;
	/* (argv_text() quotes each word for bash, a POSIX shell) */
	if (cmd->argv[0] != NULL &&
	    (sh = funcshell(cm, cmd->argv[0], false, nobash)) != NULL) {
		free(cmd->argv);
		inshell(sh, cmd);
	}
}

int
commands_build(const struct commands *cm, const struct args *a,
    uint64_t seq, unsigned slot, struct wspx__cmd *cmd, bool *nobash)
{
	*nobash = false;
	if (cm->cmd == NULL)
		linecommand(cm, a, cmd, nobash);
	else
		templatecommand(cm, a, seq, slot, cmd, nobash);
	if (cmd->search && cmd->argv[0] != NULL)
		cmd->file = progpath(cmd->argv[0]);
	return *nobash ? -ENOENT : 0;
}

char *
commands_tag(const struct commands *cm, const struct args *a, uint64_t seq,
    unsigned slot)
{
	struct buf tag = { NULL, 0, 0 };
	char *t;

	if (!cm->tagargs && cm->tag == NULL)
		return NULL;
	t = cm->tag != NULL ? template_line(cm->tag, a, seq, slot, false,
	    cm->shell.kind) : joinargs(a);
	bufadds(&tag, t);
	bufaddc(&tag, '\t');
	free(t);
	return buftake(&tag);
}

/* COMMAND's first word, as the shell would see it; with -q, the first word
 * whole (the program's name).  Returns a malloc'd string. */
static char *
firstword(const struct command_opts *o)
{
	struct buf line = { NULL, 0, 0 };
	const char *w;
	char *word;
	size_t i, n;

	for (i = 0; i < o->ncommand; i++) {
		if (i > 0)
			bufaddc(&line, ' ');
		bufadds(&line, o->command[i]);
	}
	if (o->flags & TMPL_QUOTED) {
		w = o->command[0];
		n = strlen(w);
	} else {
		w = shell_firstword(line.s, &n);
	}
	word = xmalloc(n + 1);
	memcpy(word, w, n);
	word[n] = '\0';
	free(line.s);
	return word;
}

/* When exported bash functions decide the jobs' shell: once for COMMAND
 * whose first word is literal text (no '{' that could start a replacement
 * string, no renamed one), else per job. */
static void
funcsmode(struct commands *cm, const struct command_opts *o)
{
	char *word;

	cm->funcs = shell_any_function() ? FUNCS_PERJOB : FUNCS_NEVER;
	if (cm->funcs == FUNCS_NEVER || o->ncommand == 0)
		return;
	word = firstword(o);
	if (!replnames_maybe_in(o->names, word))
		cm->funcs = shell_function(word, strlen(word), &cm->funcsh) ?
		    FUNCS_ALWAYS : FUNCS_NEVER;
	free(word);
}

bool
commands_inshell(const struct commands *cm)
{
	return cm->cmd == NULL || template_needs_shell(cm->cmd);
}

size_t
commands_baselen(const struct commands *cm)
{
	return cm->cmd != NULL ? template_baselen(cm->cmd) : 0;
}

size_t
commands_reclen(const struct commands *cm, const struct args *rec,
    size_t *units, struct buf *scratch)
{
	size_t i, n = 0;

	if (cm->cmd != NULL)
		return template_reclen(cm->cmd, rec, commands_inshell(cm),
		    cm->shell.kind, units, scratch);
	for (i = 0; i < rec->n; i++)
		n += (i > 0) + strlen(rec->v[i]);
	*units = 1;
	return n;
}

bool
commands_needs_total(const struct commands *cm)
{
	return (cm->cmd != NULL && template_needs_total(cm->cmd)) ||
	    (cm->tag != NULL && template_needs_total(cm->tag));
}

void
commands_set_total(struct commands *cm, uint64_t total, unsigned slots)
{
	if (cm->cmd != NULL)
		template_set_total(cm->cmd, total, slots);
	if (cm->tag != NULL)
		template_set_total(cm->tag, total, slots);
}

struct commands *
commands_new(const struct command_opts *o)
{
	struct commands *cm = xcalloc(1, sizeof(*cm));
	char *tagstring = (char *)o->tagstring;

	shell_choose(&cm->shell, o->shell);
	shell_functions_init(environ, &cm->shell);
	funcsmode(cm, o);
	cm->cmd = o->ncommand > 0 ? template_new(o->command, o->ncommand,
	    o->names, o->flags) : NULL;
	cm->tag = tagstring != NULL && *tagstring != '\0' ?
	    template_new(&tagstring, 1, o->names, o->flags & (TMPL_PLUS |
	    TMPL_CONTEXT)) : NULL;
	cm->tagargs = o->tag;
	commands_set_total(cm, 0, o->jobs);
	return cm;
}

void
commands_free(struct commands *cm)
{
	if (cm == NULL)
		return;
	template_free(cm->cmd);
	template_free(cm->tag);
	shell_fini();
	free(cm);
}
