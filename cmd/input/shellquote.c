/*
 * The shell syntax of command lines (see shellquote.h): what a word
 * leaves to a program and what needs a shell, and the quoting that makes
 * any value one word of data for the shell that runs the line.  POSIX
 * shells take a value in single quotes, with each quote as '\''; fish
 * reads backslashes inside them, and outside them expands a word %self;
 * csh and tcsh read ! and a newline there, which are escaped.
 */
#include "shellquote.h"

#include <stdlib.h>
#include <string.h>

#include "base/shellname.h"
#include "util/buf.h"

/* Characters a shell leaves alone in an unquoted word. */
static bool
safechar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || strchr("_@%+:,./-", c) != NULL;
}

static bool
blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Words that are shell syntax or builtins with no program of their own,
 * then the builtins of every POSIX shell that are also programs: a command
 * that starts with one of those runs in the shell too, as GNU parallel
 * runs every command, because the builtin is what its users get and it
 * can differ (dash's echo reads backslash escapes, coreutils' does not),
 * and because it is faster than starting the program, which loads the
 * locale where the shell does not. */
static bool
shellword(const char *w, size_t n, bool programs)
{
	static const char *words[] = { ".", ":", "!", "{", "}", "[[", "alias",
	    "bg", "bind", "break", "builtin", "caller", "case", "cd",
	    "command", "compgen", "complete", "compopt", "continue", "coproc",
	    "declare", "dirs", "disown", "do", "done", "elif", "else",
	    "enable", "esac", "eval", "exec", "exit", "export", "fc", "fg",
	    "fi", "for", "function", "getopts", "hash", "help", "history",
	    "if", "jobs", "let", "local", "logout", "mapfile", "popd", "pushd",
	    "read", "readarray", "readonly", "return", "select", "set",
	    "shift", "shopt", "source", "suspend", "then", "time", "times",
	    "trap", "type", "typeset", "ulimit", "umask", "unalias", "unset",
	    "until", "wait", "while",
	    "echo", "false", "kill", "printf", "pwd", "test", "true" };
	/* (the builtins that are also programs: the last 7) */
	size_t i, all = sizeof(words) / sizeof(words[0]);

	for (i = 0; i < (programs ? all : all - 7); i++)
		if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
			return true;
	return false;
}

bool
text_needs_shell(const char *s, size_t n, bool first, bool programs)
{
	size_t i;

	if (first && shellword(s, n, programs))
		return true;
	for (i = 0; i < n; i++)
		if (!safechar(s[i]) && !(s[i] == '=' && !first))
			return true;
	return false;
}

bool
line_needs_shell(const char *line)
{
	return line_needs_shell_as(line, true);
}

bool
line_needs_shell_as(const char *line, bool programs)
{
	const char *p = line, *w;
	bool first = true;

	for (;;) {
		while (blank(*p))
			p++;
		if (*p == '\0')
			return first;	/* an empty line: let the shell have it */
		for (w = p; *p != '\0' && !blank(*p); p++)
			;
		if (text_needs_shell(w, (size_t)(p - w), first, programs))
			return true;
		first = false;
	}
}

char **
line_argv(const char *line)
{
	struct buf words = { NULL, 0, 0 };
	const char *p = line, *w;
	size_t n = 0;
	char **argv;

	for (;;) {
		while (blank(*p))
			p++;
		if (*p == '\0')
			break;
		for (w = p; *p != '\0' && !blank(*p); p++)
			;
		bufadd(&words, w, (size_t)(p - w));
		bufaddc(&words, '\0');
		n++;
	}
	argv = packwords(&words, n);
	free(words.s);
	return argv;
}

enum shellkind
shell_kind(const char *path)
{
	enum wspx__shlang lang;

	if (wspx__shellname_lang(path, &lang) != 0)
		return SHELL_POSIX;
	return lang == WSPX__SH_FISH ? SHELL_FISH : lang == WSPX__SH_CSH ?
	    SHELL_CSH : SHELL_POSIX;
}

/* Whether s goes into a line as it is: all safe characters, and for fish
 * no '%' first, since fish expands a word "%self" to its process id. */
static bool
bare(const char *s, enum shellkind kind)
{
	const char *p;

	if (*s == '\0' || (kind == SHELL_FISH && *s == '%'))
		return false;
	for (p = s; *p != '\0' && safechar(*p); p++)
		;
	return *p == '\0';
}

void
quote(struct buf *b, const char *s, enum shellkind kind)
{
	const char *p;

	if (bare(s, kind)) {
		bufadds(b, s);
		return;
	}
	bufaddc(b, '\'');
	for (p = s; *p != '\0'; p++) {
		if (*p == '\'' && kind == SHELL_FISH)
			bufadds(b, "\\'");
		else if (*p == '\\' && kind == SHELL_FISH)
			bufadds(b, "\\\\");
		else if (*p == '\'')
			bufadds(b, "'\\''");
		else if (*p == '!' && kind == SHELL_CSH)
			bufadds(b, "\\!");
		else if (*p == '\n' && kind == SHELL_CSH)
			bufadds(b, "\\\n");
		else
			bufaddc(b, *p);
	}
	bufaddc(b, '\'');
}

char *
argv_text(char *const *argv)
{
	struct buf b = { NULL, 0, 0 };
	size_t i;

	for (i = 0; argv[i] != NULL; i++) {
		if (i > 0)
			bufaddc(&b, ' ');
		quote(&b, argv[i], SHELL_POSIX);
	}
	return buftake(&b);
}

size_t
quote_len(const char *s, enum shellkind kind)
{
	const char *p;
	size_t n = 2;

	if (bare(s, kind))
		return strlen(s);
	for (p = s; *p != '\0'; p++)
		n += *p == '\'' ? (kind == SHELL_FISH ? 2 : 4) : *p == '\\' &&
		    kind == SHELL_FISH ? 2 : (*p == '!' || *p == '\n') &&
		    kind == SHELL_CSH ? 2 : 1;
	return n;
}
