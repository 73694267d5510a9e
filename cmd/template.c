/*
 * Command templates and shell quoting.  One file past 600 lines because
 * the two are one contract: what a template's text may contain to run
 * without a shell, and how a value is quoted when it needs one.
 *
 * COMMAND's words are joined with spaces into one command line, as GNU
 * parallel does, and parsed into tokens: literal text, runs of blanks
 * between words, and replacement strings:
 *
 *     {}  {.}  {/}  {//}  {/.}      the argument, its modified forms
 *     {n} {n.} {n/} {n//} {n/.}     the n-th field of the argument
 *     {-n} {-n.} ...                the n-th field from the end
 *     {#}  {%}                      the job's sequence and slot numbers
 *
 * A job runs directly (posix_spawnp, no shell) when the template's own
 * text has nothing a shell would interpret; the values then go in as they
 * are, and a replacement string with several values splits its word into
 * several, exactly as the shell would split the quoted words.  Otherwise
 * the line runs in a shell (shell.c), and each value is quoted for that
 * shell, so an input line can never inject shell syntax.
 */
#include "template.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum kind {
	TEXT,		/* literal text, no blanks */
	BLANK,		/* blanks between words */
	REPL		/* a replacement string */
};

enum mod {
	WHOLE,		/* {}    */
	NOEXT,		/* {.}   */
	BASE,		/* {/}   */
	DIR,		/* {//}  */
	BASENOEXT,	/* {/.}  */
	SEQ,		/* {#}   */
	SLOT		/* {%}   */
};

struct token {
	enum kind kind;
	char *text;	/* TEXT, BLANK */
	size_t field;	/* REPL: 1-based field, or 0 for all of them */
	enum mod mod;	/* REPL */
	bool fromend;	/* REPL: field counts from the last one */
};

struct template {
	struct token *tok;
	size_t n;
	bool shell;	/* the text needs a shell */
	bool quoted;	/* -q: each of COMMAND's words is one argument */
};

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

/* Does literal text, word `first` of a line or not, need a shell?  '=' in
 * the first word would be an assignment.  programs: a builtin that is
 * also a program (echo) needs the shell too. */
static bool
textneedsshell(const char *s, size_t n, bool first, bool programs)
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
		if (textneedsshell(w, (size_t)(p - w), first, programs))
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

/* The shells by name (a version suffix such as bash5 is allowed). */
static const struct {
	const char *name;
	enum shellkind kind;
} shells[] = { { "sh", SHELL_POSIX }, { "bash", SHELL_POSIX },
    { "dash", SHELL_POSIX }, { "ash", SHELL_POSIX }, { "ksh", SHELL_POSIX },
    { "mksh", SHELL_POSIX }, { "pdksh", SHELL_POSIX },
    { "oksh", SHELL_POSIX }, { "loksh", SHELL_POSIX },
    { "zsh", SHELL_POSIX }, { "yash", SHELL_POSIX }, { "posh", SHELL_POSIX },
    { "busybox", SHELL_POSIX }, { "fish", SHELL_FISH },
    { "csh", SHELL_CSH }, { "tcsh", SHELL_CSH } };

/* The entry for the shell at path, or -1. */
static int
findshell(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t i, n;

	base = base != NULL ? base + 1 : path;
	for (i = 0; i < sizeof(shells) / sizeof(shells[0]); i++) {
		n = strlen(shells[i].name);
		if (strncmp(base, shells[i].name, n) == 0 &&
		    strspn(base + n, "0123456789.-") == strlen(base + n))
			return (int)i;
	}
	return -1;
}

enum shellkind
shell_kind(const char *path)
{
	int i = findshell(path);

	return i >= 0 ? shells[i].kind : SHELL_POSIX;
}

void
quote(struct buf *b, const char *s, enum shellkind kind)
{
	const char *p;

	for (p = s; *p != '\0' && safechar(*p); p++)
		;
	if (*s != '\0' && *p == '\0') {
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

/* If a replacement string starts at p, describe it in *t and return its
 * length; else return 0.  With -I, plain replaces "{}". */
static size_t
matchrepl(const char *p, const char *plain, struct token *t)
{
	static const struct {
		const char *s;
		enum mod mod;
	} mods[] = { { "}", WHOLE }, { ".}", NOEXT }, { "/}", BASE },
	    { "//}", DIR }, { "/.}", BASENOEXT } };
	const char *q = p + 1;
	size_t i, field = 0;

	t->kind = REPL;
	t->field = 0;
	t->fromend = false;
	if (plain != NULL && strncmp(p, plain, strlen(plain)) == 0) {
		t->mod = WHOLE;
		return strlen(plain);
	}
	if (*p != '{')
		return 0;
	if ((q[0] == '#' || q[0] == '%') && q[1] == '}') {
		t->mod = q[0] == '#' ? SEQ : SLOT;
		return 3;
	}
	if (q[0] == '-' && q[1] >= '1' && q[1] <= '9') {
		t->fromend = true;
		q++;
	}
	for (; *q >= '0' && *q <= '9' && field < 100000; q++)
		field = field * 10 + (size_t)(*q - '0');
	if (q > p + 1 && field == 0)
		return 0;
	for (i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		if (strncmp(q, mods[i].s, strlen(mods[i].s)) != 0)
			continue;
		if (plain != NULL && field == 0 && mods[i].mod == WHOLE)
			return 0;	/* with -I, "{}" is just text */
		t->field = field;
		t->mod = mods[i].mod;
		return (size_t)(q - p) + strlen(mods[i].s);
	}
	return 0;
}

static void
push(struct template *t, struct token tok)
{
	t->tok = xrealloc(t->tok, (t->n + 1) * sizeof(*t->tok));
	t->tok[t->n++] = tok;
}

/* Push literal text s[0..n) as TEXT and BLANK tokens; with whole, as one
 * TEXT token, blanks and all (a BLANK would end -q's word there). */
static void
pushtext(struct template *t, const char *s, size_t n, bool whole)
{
	struct token tok = { TEXT, NULL, 0, WHOLE, false };
	size_t k;

	while (n > 0) {
		for (k = 0; k < n && (whole || blank(s[k]) == blank(s[0])); k++)
			;
		tok.kind = blank(s[0]) && !whole ? BLANK : TEXT;
		tok.text = xmalloc(k + 1);
		memcpy(tok.text, s, k);
		tok.text[k] = '\0';
		push(t, tok);
		s += k;
		n -= k;
	}
}

/* Whether the template's literal text needs a shell: checked word by
 * word, the first word also for builtins and assignments. */
static bool
needsshell(const struct template *t)
{
	size_t i, word = 0;

	for (i = 0; i < t->n; i++) {
		if (t->tok[i].kind == BLANK)
			word++;
		else if (t->tok[i].kind == TEXT &&
		    textneedsshell(t->tok[i].text, strlen(t->tok[i].text),
		    word == 0, true))
			return true;
	}
	return false;
}

/* Parse text into tokens (as one word, blanks and all, with whole).
 * Returns whether it had a replacement string. */
static bool
parse(struct template *t, const char *text, const char *plain, bool whole)
{
	struct token tok = { REPL, NULL, 0, WHOLE, false };
	const char *p, *lit;
	size_t len;
	bool repl = false;

	for (p = lit = text; *p != '\0';) {
		if ((len = matchrepl(p, plain, &tok)) == 0) {
			p++;
			continue;
		}
		pushtext(t, lit, (size_t)(p - lit), whole);
		push(t, tok);
		repl = true;
		p += len;
		lit = p;
	}
	pushtext(t, lit, (size_t)(p - lit), whole);
	return repl;
}

struct template *
template_new(char *const *words, size_t n, const char *plain, bool quoted,
    bool append)
{
	struct template *t = xcalloc(1, sizeof(*t));
	struct token tok = { REPL, NULL, 0, WHOLE, false };
	struct buf line = { NULL, 0, 0 };
	bool repl = false;
	size_t i;

	for (i = 0; i < n && quoted; i++) {
		if (i > 0)
			pushtext(t, " ", 1, false);
		repl |= parse(t, words[i], plain, true);
	}
	for (i = 0; i < n && !quoted; i++) {
		if (i > 0)
			bufaddc(&line, ' ');
		bufadds(&line, words[i]);
	}
	if (!quoted && line.s != NULL)
		repl = parse(t, line.s, plain, false);
	free(line.s);
	if (t->n == 0 && !(quoted && n > 0)) {
		template_free(t);
		return NULL;
	}
	if (!repl && append) {
		pushtext(t, " ", 1, false);
		push(t, tok);
	}
	t->shell = !quoted && needsshell(t);
	t->quoted = quoted;
	return t;
}

void
template_free(struct template *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		if (t->tok[i].kind != REPL)
			free(t->tok[i].text);
	free(t->tok);
	free(t);
}

bool
template_needs_shell(const struct template *t)
{
	return t->shell;
}

/* The value v with mod applied, added to b. */
static void
modify(struct buf *b, const char *v, enum mod mod)
{
	const char *slash = strrchr(v, '/'), *base, *dot, *end;
	size_t n = strlen(v);

	if (mod == DIR) {
		while (n > 1 && v[n - 1] == '/')
			n--;		/* trailing slashes */
		while (n > 0 && v[n - 1] != '/')
			n--;		/* the last component */
		while (n > 1 && v[n - 1] == '/')
			n--;
		if (n == 0)
			bufaddc(b, '.');
		else
			bufadd(b, v, n);
		return;
	}
	base = mod == BASE || mod == BASENOEXT ? (slash ? slash + 1 : v) : v;
	end = v + n;
	if (mod == NOEXT || mod == BASENOEXT) {
		/* drop a final ".ext" with no '/' or '.' in ext */
		dot = strrchr(base, '.');
		if (dot != NULL && dot[1] != '\0' && (slash == NULL ||
		    dot > slash))
			end = dot;
	}
	bufadd(b, base, (size_t)(end - base));
}

/* The values of replacement tok for the job: NUL-separated in vals.
 * Returns how many: none for a field the job does not have, which GNU
 * parallel replaces with nothing, so that it is no argument. */
static size_t
values(const struct token *tok, const struct args *a, uint64_t seq,
    unsigned slot, struct buf *vals)
{
	char num[24];
	size_t i;

	vals->len = 0;
	if (tok->mod == SEQ || tok->mod == SLOT) {
		snprintf(num, sizeof(num), "%llu", tok->mod == SEQ ?
		    (unsigned long long)seq : (unsigned long long)slot);
		bufadd(vals, num, strlen(num) + 1);
		return 1;
	}
	if (tok->field > a->n)
		return 0;
	if (tok->field > 0) {
		modify(vals, tok->fromend ? a->v[a->n - tok->field] :
		    a->v[tok->field - 1], tok->mod);
		bufaddc(vals, '\0');
		return 1;
	}
	for (i = 0; i < a->n; i++) {
		modify(vals, a->v[i], tok->mod);
		bufaddc(vals, '\0');
	}
	if (a->n == 0)
		bufaddc(vals, '\0');
	return a->n > 0 ? a->n : 1;
}

char *
template_line(const struct template *t, const struct args *a, uint64_t seq,
    unsigned slot, bool doquote, enum shellkind kind)
{
	struct buf b = { NULL, 0, 0 }, vals = { NULL, 0, 0 };
	const char *v;
	size_t i, k, n;

	for (i = 0; i < t->n; i++) {
		if (t->tok[i].kind != REPL) {
			bufadds(&b, t->tok[i].text);
			continue;
		}
		n = values(&t->tok[i], a, seq, slot, &vals);
		for (k = 0, v = vals.s; k < n; k++, v += strlen(v) + 1) {
			if (k > 0)
				bufaddc(&b, ' ');
			if (doquote)
				quote(&b, v, kind);
			else
				bufadds(&b, v);
		}
	}
	free(vals.s);
	return buftake(&b);
}

char **
template_argv(const struct template *t, const struct args *a, uint64_t seq,
    unsigned slot)
{
	struct buf words = { NULL, 0, 0 }, vals = { NULL, 0, 0 };
	const char *v;
	size_t i, k, n, nwords = 0;
	bool inword = t->quoted;	/* -q: even an empty word is one */
	char **argv;

	for (i = 0; i < t->n; i++) {
		if (t->tok[i].kind == BLANK) {
			if (inword) {
				bufaddc(&words, '\0');
				nwords++;
			}
			inword = t->quoted;
			continue;
		}
		if (t->tok[i].kind == TEXT) {
			bufadds(&words, t->tok[i].text);
			inword = true;
			continue;
		}
		n = values(&t->tok[i], a, seq, slot, &vals);
		for (k = 0, v = vals.s; k < n; k++, v += strlen(v) + 1) {
			if (k > 0) {
				bufaddc(&words, '\0');
				nwords++;
			}
			bufadds(&words, v);
			inword = true;
		}
	}
	if (inword) {
		bufaddc(&words, '\0');
		nwords++;
	}
	argv = packwords(&words, nwords);
	free(words.s);
	free(vals.s);
	return argv;
}

/* Pass k (0 to 4) of GNU parallel's unquote_printf() at a backslash
 * followed by p[0..n): if the pass replaces what follows, add the
 * replacement to b and return the bytes it took, else return 0.  Passes
 * 0-2 read \t, \n and \r; pass 3 reads \ddd and pass 4 \d, each d a
 * decimal digit, as Perl reads them in a string: the leading octal digits
 * make a byte (over 255: *wide is set) and the other digits stay. */
static size_t
unescape(struct buf *b, int k, const char *p, size_t n, bool *wide)
{
	size_t want = k == 3 ? 3 : 1, i, oct;
	unsigned v = 0;

	if (k < 3) {
		if (n == 0 || p[0] != "tnr"[k])
			return 0;
		bufaddc(b, "\t\n\r"[k]);
		return 1;
	}
	for (i = 0; i < want; i++)
		if (i >= n || p[i] < '0' || p[i] > '9')
			return 0;
	for (oct = 0; oct < want && p[oct] <= '7'; oct++)
		v = v * 8 + (unsigned)(p[oct] - '0');
	if (oct > 0)
		bufaddc(b, (char)v);
	*wide |= v > 255;
	bufadd(b, p + oct, want - oct);
	return want;
}

char *
unprintf(const char *s, const char **why)
{
	struct buf in = { NULL, 0, 0 }, out = { NULL, 0, 0 }, swap;
	bool wide = false;
	size_t i, took;
	int k;

	bufadds(&in, s);
	/* One pass after another, as GNU parallel's substitutions: what one
	 * makes, the next may read. */
	for (k = 0; k < 5; k++) {
		out.len = 0;
		for (i = 0; i < in.len; i++) {
			took = in.s[i] != '\\' ? 0 : unescape(&out, k,
			    in.s + i + 1, in.len - i - 1, &wide);
			if (took == 0)
				bufaddc(&out, in.s[i]);
			i += took;
		}
		swap = in;
		in = out;
		out = swap;
	}
	free(out.s);
	*why = wide ? "has an octal escape over \\377, which is no byte" :
	    in.len > 0 && memchr(in.s, '\0', in.len) != NULL ? "makes a NUL "
	    "byte, which a tag cannot hold" : NULL;
	if (*why != NULL) {
		free(in.s);
		return NULL;
	}
	return buftake(&in);
}
