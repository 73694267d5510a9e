/*
 * Fuzz target: the command template and its replacement strings ({}, {n},
 * {/.}, --plus forms, -X context, -I), filled with input values and quoted
 * for the shell that runs the line.  The values are the hostile part: they
 * come from input files that wspx's user did not write, and a value that
 * quoting lets out as shell syntax is code run on that user's machine.
 * COMMAND, -I and --tagstring come from the command line.
 *
 * The input is two bytes of options, then words separated by NULs:
 *
 *	byte 0	1 -q, 2 --plus, 4 context (-X, -N), 8 -m (a builtin
 *		that is also a program runs as the program), 16 no
 *		arguments (-N 0), 32 a first word for -I, 64 a next word
 *		for --tagstring, 128 --tag
 *	byte 1	bits 0-2 the shell (below), bits 3-4 fields per record,
 *		less one (--colsep, or several ::: sources), bits 5-7
 *		COMMAND's words
 *	words	-I's string, --tagstring, COMMAND's words, then the
 *		values, cut into records of that many fields, all one
 *		job's (-m, -X)
 *
 * The commands are built as cmd/run builds them (commands_new() with the
 * flags of runopts.c's cmdflags(), commands_build(), commands_tag(), and
 * the lengths jobargs.c measures with), and checked:
 *
 *   - each value, quoted for each kind of shell, reads back as itself
 *     through a strict reading of that shell's quoting written here from
 *     the shells' manuals (not from shellquote.c), which refuses any
 *     character outside quotes that a shell could take for syntax;
 *     template-shells.sh checks the same reading against the real shells;
 *   - a line run directly: its text (-v, --dry-run) reads back, as a
 *     POSIX shell would split it, as its argv; and a template that needs
 *     no shell gives, quoted for a POSIX shell, a line that splits into
 *     the same words as the argv it is run with (template.c's promise);
 *   - a line run in a shell is `SHELL [sh] -c LINE`;
 *   - where the template has only strings of whole records (no {n}, {#},
 *     ...), -s's count (base length, each record's length, a space per
 *     place between records) is the length of the line;
 *   - a tag is there when asked for, and ends in a TAB.
 *
 * The shells are empty files of those names in a directory of the
 * target's, so that --shell finds a program to run whatever is installed:
 * nothing is run.  Exported bash functions are removed from the
 * environment first, so that the target does not depend on the one it
 * was started in.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "input/command.h"
#include "input/progpath.h"
#include "input/shell.h"
#include "input/shellquote.h"
#include "input/template.h"
#include "util/buf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern char **environ;

/* The job's numbers, and {##} and -j when asked for. */
#define SEQ	123
#define SLOT	3
#define TOTAL	4567
#define JOBS	16

/* The shells --shell can name, by the bits of byte 1: POSIX shells, then
 * fish, then the csh family. */
static const char *const shells[] = { "sh", "bash", "busybox", "zsh",
    "ksh93", "fish", "csh", "tcsh" };
#define NSHELLS (sizeof(shells) / sizeof(shells[0]))

static const struct {
	enum shellkind kind;
	const char *name;
} kinds[] = { { SHELL_POSIX, "posix" }, { SHELL_FISH, "fish" },
    { SHELL_CSH, "csh" } };

static char dir[64];
static char paths[NSHELLS][96];

/* One input, read. */
struct input {
	struct command_opts o;
	struct replnames names;	/* o.names: -I, --er and their kin */
	bool noargs;		/* -N 0: a job has no arguments */
	struct args a;		/* the job's */
	size_t *rec;		/* a.rec, the records' offsets */
	char **words;		/* fz_words()'s, which the rest borrow */
};

static void
removeshells(void)
{
	size_t i;

	for (i = 0; i < NSHELLS; i++)
		unlink(paths[i]);
	rmdir(dir);
}

/* Empty files with the shells' names, that --shell takes as programs. */
static void
makeshells(void)
{
	size_t i;
	int fd;

	snprintf(dir, sizeof(dir), "/tmp/wspx-fuzz-template.XXXXXX");
	if (mkdtemp(dir) == NULL)
		abort();
	atexit(removeshells);
	for (i = 0; i < NSHELLS; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir, shells[i]);
		fd = open(paths[i], O_WRONLY | O_CREAT | O_TRUNC, 0700);
		if (fd < 0 || fchmod(fd, 0700) != 0)
			abort();
		close(fd);
	}
}

/* Remove BASH_FUNC_name%% from the environment (see the top). */
static void
nofunctions(void)
{
	char name[256];
	size_t i, n;

	for (i = 0; environ[i] != NULL;) {
		n = strcspn(environ[i], "=");
		if (strncmp(environ[i], "BASH_FUNC_", 10) != 0 ||
		    n >= sizeof(name)) {
			i++;
			continue;
		}
		memcpy(name, environ[i], n);
		name[n] = '\0';
		if (unsetenv(name) != 0)
			abort();
	}
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	makeshells();
	nofunctions();
	return 0;
}

/* The job's arguments: values cut into records of f fields each, all of
 * one job, as jobargs.c's pack() makes them. */
static void
records(struct input *in, char **v, size_t n, size_t f)
{
	size_t k = (n + f - 1) / f, i;

	in->a.v = v;
	if (in->noargs || n == 0) {
		in->a.v = v + n;	/* (its NULL) */
		return;
	}
	in->rec = malloc((k + 1) * sizeof(*in->rec));
	for (i = 0; i < k; i++)
		in->rec[i] = i * f;
	in->rec[k] = n;
	in->a.n = n;
	in->a.nrec = k;
	in->a.rec = in->rec;
}

/* One of the options that rename replacement strings, the first byte of
 * word choosing which (-I, --er, ..., or --parens): word is its value.
 * ('' is refused, as is a --parens of less than two bytes; -i with no
 * value renames nothing.) */
static void
renameby(struct input *in, const char *word)
{
	unsigned which = (unsigned char)word[0] % (RM_RENAMED + 1);

	in->o.names = &in->names;
	if (which == RM_RENAMED && strlen(word) >= 2)
		in->names.parens = word;
	else if (which < RM_RENAMED && *word != '\0')
		in->names.name[which] = word;
}

static void
readinput(struct input *in, const uint8_t *data, size_t size)
{
	uint8_t b0 = size > 0 ? data[0] : 0, b1 = size > 1 ? data[1] : 0;
	size_t n, at = 0;

	memset(in, 0, sizeof(*in));
	in->words = fz_words(data + (size > 2 ? 2 : size),
	    size > 2 ? size - 2 : 0, size, &n);
	in->noargs = b0 & 16;
	in->o.flags = (b0 & 1 ? TMPL_QUOTED : 0) | (b0 & 2 ? TMPL_PLUS : 0) |
	    (b0 & 4 ? TMPL_CONTEXT : 0) | (b0 & 8 ? TMPL_PROGRAMS : 0) |
	    (in->noargs ? 0 : TMPL_APPEND);
	if ((b0 & 32) && at < n)
		renameby(in, in->words[at]);
	at += (b0 & 32) && at < n;
	if ((b0 & 64) && at < n)
		in->o.tagstring = in->words[at++];
	in->o.tag = b0 & 128;
	in->o.shell = paths[b1 & 7];
	in->o.jobs = JOBS;
	in->o.command = in->words + at;
	in->o.ncommand = (size_t)(b1 >> 5) < n - at ? (size_t)(b1 >> 5) :
	    n - at;
	at += in->o.ncommand;
	records(in, in->words + at, n - at, (size_t)((b1 >> 3) & 3) + 1);
}

/* Characters that none of the shells wspx quotes for reads as syntax in
 * a word outside quotes, by their manuals (the oracle's own list); with
 * words, also '=', which is syntax only in a line's first word. */
static bool
plainchar(char c, bool words)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || (c != '\0' &&
	    strchr(words ? "_@%+:,./-=" : "_@%+:,./-", c) != NULL);
}

static bool
blankchar(char c)
{
	return c == ' ' || c == '\t';
}

/* The single-quoted string at *p into w, *p then after its end.  POSIX
 * shells: no escape inside.  fish: \\ and \' are the only escapes (a
 * backslash before anything else is kept, but wspx never writes one).
 * csh, tcsh: history reads ! even there, and a newline ends the line, so
 * both need a backslash before them; a backslash before anything else is
 * itself. */
static bool
squoted(const char **p, enum shellkind kind, struct buf *w)
{
	const char *s;

	for (s = *p + 1; *s != '\''; s++) {
		if (*s == '\0')
			return false;
		if (kind == SHELL_FISH && *s == '\\') {
			if (s[1] != '\\' && s[1] != '\'')
				return false;
			s++;
		} else if (kind == SHELL_CSH && *s == '\\' &&
		    (s[1] == '!' || s[1] == '\n')) {
			s++;
		} else if (kind == SHELL_CSH && (*s == '!' || *s == '\n')) {
			return false;
		}
		bufaddc(w, *s);
	}
	*p = s + 1;
	return true;
}

/* Read the word at *p as kind's shell reads it, its value appended to w;
 * *p is left at the unquoted blank or the end that ends it.  False for
 * anything outside the forms a value may take: an unquoted character a
 * shell could read as syntax (fish: a '%' that starts the word, which
 * "%self" expands), a double quote, an unterminated quote, a backslash
 * outside quotes before a newline (a continued line), or in fish at all
 * (\n and the like are its escapes there). */
static bool
readword(const char **p, enum shellkind kind, bool words, struct buf *w)
{
	const char *s = *p, *start = *p;

	while (*s != '\0' && !blankchar(*s)) {
		if (*s == '\'') {
			if (!squoted(&s, kind, w))
				return false;
		} else if (*s == '\\' && kind != SHELL_FISH && s[1] != '\0' &&
		    s[1] != '\n') {
			bufaddc(w, s[1]);
			s += 2;
		} else if (plainchar(*s, words) && !(kind == SHELL_FISH &&
		    s == start && *s == '%')) {
			bufaddc(w, *s++);
		} else {
			return false;
		}
	}
	*p = s;
	return true;
}

static bool
samebytes(const struct buf *w, const char *v)
{
	size_t n = strlen(v);

	return w->len == n && (n == 0 || memcmp(w->s, v, n) == 0);
}

/* v quoted for kind reads back as v, and quote_len() is its length. */
static void
checkquote(const char *v, enum shellkind kind, const char *name,
    struct buf *q, struct buf *w)
{
	const char *p;

	q->len = 0;
	w->len = 0;
	quote(q, v, kind);
	if (q->len == 0)
		fz_fail("quote(\"%s\", %s) is empty", v, name);
	if (quote_len(v, kind) != q->len)
		fz_fail("quote_len(\"%s\", %s) = %zu, quote() made %zu: %s",
		    v, name, quote_len(v, kind), q->len, q->s);
	p = q->s;
	if (!readword(&p, kind, false, w) || *p != '\0' || !samebytes(w, v))
		fz_fail("injection: the value \"%s\" quoted for %s as %s "
		    "does not read back as one word of itself", v, name, q->s);
}

/* line, split into words as a POSIX shell reads it, is argv. */
static void
checksplit(const char *line, char *const *argv, const char *what)
{
	struct buf w = { NULL, 0, 0 };
	const char *p = line;
	size_t i = 0;

	for (;; i++) {
		while (blankchar(*p))
			p++;
		if (*p == '\0')
			break;
		w.len = 0;
		if (!readword(&p, SHELL_POSIX, true, &w))
			fz_fail("%s: \"%s\" does not read as words", what,
			    line);
		if (argv[i] == NULL || !samebytes(&w, argv[i]))
			fz_fail("%s: word %zu of \"%s\" is not argv's "
			    "\"%s\"", what, i, line,
			    argv[i] != NULL ? argv[i] : "(end)");
	}
	if (argv[i] != NULL)
		fz_fail("%s: \"%s\" has %zu words, argv more (\"%s\")", what,
		    line, i, argv[i]);
	free(w.s);
}

/* Every value, quoted for every kind of shell, reads back. */
static void
checkvalues(char *const *v, size_t n)
{
	struct buf q = { NULL, 0, 0 }, w = { NULL, 0, 0 };
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			checkquote(v[i], kinds[k].kind, kinds[k].name, &q,
			    &w);
	free(q.s);
	free(w.s);
}

/* Whether the job's command runs in a shell: a template's when its text
 * needs one, a line of input (no COMMAND, or an empty one) when its
 * text does. */
static bool
inshell(const struct commands *cm, const struct template *t,
    const struct wspx__cmd *cmd)
{
	return t != NULL ? commands_inshell(cm) : line_needs_shell(cmd->text);
}

/* A shell's argv is `SHELL [sh] -c LINE`; a direct one is what its text
 * says (-v, --dry-run). */
static void
checkargv(const struct input *in, const struct wspx__cmd *cmd, bool sh)
{
	char *const *v = cmd->argv;
	bool busybox = in->o.shell == paths[2];	/* (its applet) */

	if (!sh) {
		checksplit(cmd->text, cmd->argv, "direct command");
		return;
	}
	if (v[0] == NULL || strcmp(v[0], in->o.shell) != 0 ||
	    (busybox && (v[1] == NULL || strcmp(v[1], "sh") != 0)))
		fz_fail("a shell line is not run by %s", in->o.shell);
	v += 1 + busybox;
	if (v[0] == NULL || strcmp(v[0], "-c") != 0 || v[1] == NULL ||
	    strcmp(v[1], cmd->text) != 0 || v[2] != NULL)
		fz_fail("a shell line is not `%s -c \"%s\"`", in->o.shell,
		    cmd->text);
}

/* Whether the template can have no strings but whole records: any other
 * ({n}, {-n}, {#}, {%}, {##}, {0#}, {0%}) needs a digit, '#' or '%',
 * unless {#} or {%} was renamed. */
static bool
recordsonly(const struct input *in)
{
	size_t i;

	if (in->names.name[RM_SEQ] != NULL || in->names.name[RM_SLOT] != NULL)
		return false;
	for (i = 0; i < in->o.ncommand; i++)
		if (strpbrk(in->o.command[i], "0123456789#%") != NULL)
			return false;
	return true;
}

/* -s's count for the job, as jobargs.c's fits() adds it up. */
static size_t
measure(const struct commands *cm, const struct args *a)
{
	struct buf scratch = { NULL, 0, 0 };
	struct args rec = { NULL, 0, 0, NULL };
	size_t r, units, len = commands_baselen(cm);

	for (r = 0; r < a->nrec; r++) {
		rec.v = a->v + a->rec[r];
		rec.n = a->rec[r + 1] - a->rec[r];
		len += commands_reclen(cm, &rec, &units, &scratch);
		len += r > 0 ? units : 0;
	}
	free(scratch.s);
	return len;
}

/* The template as commands_new() makes it, for what struct commands does
 * not show: the line of a command run directly. */
static struct template *
template(const struct input *in)
{
	struct template *t;

	if (in->o.ncommand == 0)
		return NULL;
	t = template_new(in->o.command, in->o.ncommand, in->o.names,
	    in->o.flags);
	if (t != NULL)
		template_set_total(t, template_needs_total(t) ? TOTAL : 0,
		    JOBS);
	return t;
}

/* -s's count is the line's length; and a template that needs no shell
 * makes a POSIX line that splits into its argv. */
static void
checkline(const struct input *in, const struct commands *cm,
    const struct template *t, const struct wspx__cmd *cmd, bool sh)
{
	char *line = NULL;
	size_t want, got;

	if (t != NULL && !template_needs_shell(t)) {
		line = template_line(t, &in->a, SEQ, SLOT, true, SHELL_POSIX);
		if (!(in->o.flags & TMPL_QUOTED))
			checksplit(line, cmd->argv, "template line");
		free(line);
		line = template_line(t, &in->a, SEQ, SLOT, false,
		    SHELL_POSIX);
	}
	if (in->a.n > 0 && recordsonly(in)) {
		want = measure(cm, &in->a);
		got = strlen(sh || line == NULL ? cmd->text : line);
		if (want != got)
			fz_fail("-s counts %zu for a line of %zu: %s", want,
			    got, sh || line == NULL ? cmd->text : line);
	}
	free(line);
}

static void
checktag(const struct input *in, const struct commands *cm)
{
	char *tag = commands_tag(cm, &in->a, SEQ, SLOT);
	bool want = in->o.tag || (in->o.tagstring != NULL &&
	    *in->o.tagstring != '\0');

	if (want != (tag != NULL))
		fz_fail("a tag %s", want ? "is missing" : "is not asked for");
	if (tag != NULL && (*tag == '\0' || tag[strlen(tag) - 1] != '\t'))
		fz_fail("the tag \"%s\" does not end in a TAB", tag);
	free(tag);
}

static void
build(const struct input *in)
{
	struct commands *cm = commands_new(&in->o);
	struct template *t = template(in);
	struct wspx__cmd cmd;
	bool nobash, sh;

	if (commands_needs_total(cm))
		commands_set_total(cm, TOTAL, JOBS);
	memset(&cmd, 0, sizeof(cmd));
	if (commands_build(cm, &in->a, SEQ, SLOT, &cmd, &nobash) != 0)
		fz_fail("no bash for a function, and none is exported");
	sh = inshell(cm, t, &cmd);
	checkargv(in, &cmd, sh);
	checkline(in, cm, t, &cmd, sh);
	checktag(in, cm);
	free(cmd.argv);
	free(cmd.text);
	template_free(t);
	commands_free(cm);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in;

	readinput(&in, data, size);
	checkvalues(in.a.v, in.a.n);
	progpath_init(dir);
	fz_begin();
	if (setjmp(fz_jump) == 0)
		build(&in);
	fz_done();
	if (fz_exited())	/* commands_free()'s reset of the statics */
		shell_fini();
	progpath_fini();
	free(in.rec);
	fz_freewords(in.words);
	return 0;
}
