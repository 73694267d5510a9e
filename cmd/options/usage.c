/*
 * wspx's help, written from the options table (optable.c): a usage head,
 * the options a section at a time, then three examples.  Each option has
 * one entry, its names first ("-j, --jobs, -P, --max-procs, --maxprocs
 * N"), then its help at HELPCOL, or on the next line when the names reach
 * past it.  No line is wider than WIDTH: names and help texts wrap at
 * spaces, a name line that goes on ending with a comma.
 * tests/cli/docs.bats parses this layout (an entry's names are the
 * words up to two spaces, on lines indented by 2 or 6) and checks the
 * width.
 */
#include "usage.h"

#include <string.h>

#include "optable.h"

#define WIDTH	79	/* the widest line */
#define HELPCOL	26	/* where the help texts start */
#define SHORTCOL 2	/* where an entry starts with a short name */
#define LONGCOL	6	/* with a long one, and where names go on */

static const char *const titles[NSECTIONS] = {
	[SEC_INPUT] = "Input (the lines of stdin, or the ::: and :::: "
	    "sources):",
	[SEC_PIPE] = "Input in blocks, each the stdin of a job:",
	[SEC_COMMAND] = "Command lines:",
	[SEC_RUN] = "Running:",
	[SEC_OUTPUT] = "Output:",
	[SEC_WATCH] = "Watching a run:",
	[SEC_FAILURES] = "Failures, logs and stopping:",
	[SEC_JOBFILE] = "Job files (wspx run, wspx list):",
	[SEC_REMOTE] = "Remote hosts:",
	[SEC_INFO] = "Information:",
};

/* The sections in the order of each help; SEC_SAME ends a list. */
static const enum optsection stdinorder[] = {
	SEC_INPUT, SEC_PIPE, SEC_COMMAND, SEC_RUN, SEC_OUTPUT, SEC_WATCH,
	SEC_FAILURES, SEC_JOBFILE, SEC_REMOTE, SEC_INFO, SEC_SAME
};
static const enum optsection jobfileorder[] = {
	SEC_JOBFILE, SEC_RUN, SEC_OUTPUT, SEC_WATCH, SEC_FAILURES,
	SEC_REMOTE, SEC_INFO, SEC_SAME
};

/* Where the help being written stands. */
struct out {
	FILE *f;	/* the help's stream */
	size_t col;	/* the column of the next character */
};

static void
newline(struct out *o)
{
	fputc('\n', o->f);
	o->col = 0;
}

/* Write s[0..n) after a space, or at column col if the line is short of
 * it; on a new line at col if it would reach past WIDTH. */
static void
put(struct out *o, const char *s, size_t n, size_t col)
{
	if (o->col > 0 && o->col + 1 + n > WIDTH)
		newline(o);
	if (o->col < col) {
		fprintf(o->f, "%*s", (int)(col - o->col), "");
		o->col = col;
	} else {
		fputc(' ', o->f);
		o->col++;
	}
	fwrite(s, 1, n, o->f);
	o->col += n;
}

/* Write the words of text, wrapped, each line from column col. */
static void
words(struct out *o, const char *text, size_t col)
{
	size_t n;

	while (*text != '\0') {
		n = strcspn(text, " ");
		if (n > 0)
			put(o, text, n, col);
		text += n;
		text += strspn(text, " ");
	}
}

/* Whether optable[i] is a spelling of the option that starts before. */
static bool
spelling(size_t i)
{
	return i < optable_size && optable[i].help == NULL;
}

/* Write one name of an option at column col (or after a space), with
 * a comma after it, or if it is the last one, the value d->arg. */
static void
name(struct out *o, const char *nm, size_t col, const struct optdef *d,
    bool last)
{
	char b[80];
	int n;

	if (!last)
		n = snprintf(b, sizeof(b), "%s,", nm);
	else if (d->arg == NULL)
		n = snprintf(b, sizeof(b), "%s", nm);
	else
		n = snprintf(b, sizeof(b), optable_optional(d) ? "%s%s" :
		    "%s %s", nm, d->arg);
	put(o, b, (size_t)n, col);
}

/* Write the names of the option that starts at optable[i], its short
 * and long ones, then its spellings', with its value after the last;
 * returns the index after its spellings. */
static size_t
names(struct out *o, size_t i)
{
	const struct optdef *d = &optable[i];
	size_t col = d->shortname != 0 ? SHORTCOL : LONGCOL;
	size_t k, end;
	char b[64];

	for (end = i + 1; spelling(end); end++)
		;
	for (k = i; k < end; k++) {
		if (optable[k].shortname != 0) {
			snprintf(b, sizeof(b), "-%c", optable[k].shortname);
			name(o, b, col, d, k + 1 == end &&
			    optable[k].longname == NULL);
			col = LONGCOL;
		}
		if (optable[k].longname != NULL) {
			snprintf(b, sizeof(b), "--%s", optable[k].longname);
			name(o, b, col, d, k + 1 == end);
			col = LONGCOL;
		}
	}
	return end;
}

/* Write the options of section sec (but those of the input if
 * jobfile), after its title; nothing if it has none. */
static void
section(struct out *o, enum optsection sec, bool jobfile)
{
	const char *help;
	bool titled = false;
	size_t i = 0;

	while (i < optable_size) {
		if (optable[i].sec != sec ||
		    (jobfile && optable_inputonly(optable[i].id))) {
			i++;
			continue;
		}
		if (!titled)
			fprintf(o->f, "\n%s\n", titles[sec]);
		titled = true;
		help = optable[i].help;
		i = names(o, i);
		if (o->col + 2 > HELPCOL)
			newline(o);
		words(o, help, HELPCOL);
		newline(o);
	}
}

/* The lines before the options: the stdin mode's, or (jobfile) those of
 * `wspx run --help`, which says what its words are. */
static void
head(FILE *f, bool jobfile)
{
	if (jobfile) {
		fputs("usage: wspx run [OPTIONS] [FILE [JOB...]] "
		    "[NAME=VALUE...]\n"
		    "       wspx check|list|graph [FILE]\n\n"
		    "Run the jobs of a job file (wspx(5)), each once the jobs "
		    "it needs are over.\n"
		    "FILE: wspx.yml or wspx.yaml if not given.  JOB...: only "
		    "these jobs, and those\n"
		    "they need.  NAME=VALUE: a variable over the file's "
		    "env:.  Options may come\n"
		    "anywhere, after FILE too; after --, words only.  wspx "
		    "check checks the file,\n"
		    "wspx list lists its jobs, wspx graph writes its graph "
		    "for dot(1).\n", f);
		return;
	}
	fputs("usage: wspx [OPTIONS] [--] [COMMAND [ARG...]] "
	    "[::: ARGS... | :::: FILES...]...\n"
	    "       wspx run [OPTIONS] [FILE [JOB...]] [NAME=VALUE...]\n"
	    "       wspx check|list|graph [FILE]\n"
	    "       wspx report [--svg OUT] [--top N] FILE\n\n"
	    "Run COMMAND once per input, in parallel; with no COMMAND, each "
	    "input is a\ncommand.  In COMMAND, {} is the input and {.} {/} "
	    "{//} {/.} parts of it; {n}\n{n.} {n/} {n//} {n/.} the same of "
	    "its field n ({-n}: from the end); {#} is the\njob's number and "
	    "{%} its slot.  wspx run runs the jobs of a job file (see\n"
	    "wspx run --help), and wspx report tells of a run from its "
	    "--trace, --events\nor --joblog file.  A long option may be "
	    "shortened to a prefix no other one has.\n", f);
}

/* The examples and the exit statuses, after the options. */
static void
tail(FILE *f, bool jobfile)
{
	if (jobfile)
		fputs("\nExamples:\n"
		    "  wspx run                             "
		    "the jobs of wspx.yml (or wspx.yaml) here\n"
		    "  wspx run jobs.yaml test CC=clang     "
		    "job test and those it needs, CC=clang\n"
		    "  wspx run --dry-run --explain         "
		    "what would run, and why\n", f);
	else
		fputs("\nExamples:\n"
		    "  ls *.log | wspx gzip                 "
		    "gzip each file, as many at once as CPUs\n"
		    "  wspx -k echo {1}{2} ::: a b ::: 1 2  "
		    "a1 a2 b1 b2, in this order (-k)\n"
		    "  wspx run jobs.yaml test              "
		    "job test and the jobs it needs\n", f);
	fputs("\nExit status: 0 all succeeded, 1-100 that many failed, 101 "
	    "more, 255 error,\n128+N killed by signal N.  See wspx(1).\n", f);
}

void
usage_write(FILE *f, bool jobfile)
{
	const enum optsection *sec = jobfile ? jobfileorder : stdinorder;
	struct out o = { f, 0 };

	head(f, jobfile);
	for (; *sec != SEC_SAME; sec++)
		section(&o, *sec, jobfile);
	tail(f, jobfile);
}
