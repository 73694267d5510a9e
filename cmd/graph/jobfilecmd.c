/*
 * The commands for job files (wspx(5)): `wspx run [OPTIONS] [FILE
 * [JOB...]]` runs the graph (graphrun.c), `wspx check FILE` only reads
 * and checks it, `wspx list FILE` prints its jobs' names, `wspx graph
 * FILE` prints it as a Graphviz digraph.  FILE may be "-" for stdin;
 * without it, wspx.yml or wspx.yaml in the current directory.  Every
 * error of the file is printed as FILE:LINE:COLUMN: message, sorted by
 * place, and nothing runs.
 */
#include "jobfilecmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "graphrun.h"
#include "jobfile/jobfile.h"
#include "jobselect.h"
#include "options/options.h"
#include "report/resume.h"
#include "util/buf.h"
#include "util/util.h"

static const char *const commands[] = { "run", "check", "list", "graph" };

bool
jobfile_command(const char *word)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(word, commands[i]) == 0)
			return true;
	return false;
}

/* Whether prog is a program that can run: a path to one, or a name found
 * in PATH. */
static bool
runnable(const char *prog)
{
	char *found;

	if (strchr(prog, '/') != NULL)
		return access(prog, X_OK) == 0;
	found = graphcmd_findprog(getenv("PATH"), NULL, prog);
	free(found);
	return found != NULL;
}

/* Every shell: that cannot run, as an error at its place; returns how
 * many.  (A job file's shell is part of its program: a missing one is
 * found before anything runs, not blamed on a command.) */
static size_t
shells(const struct wspx__jobfile *jf, const char *file)
{
	const struct wspx__ynode *last = NULL, *v;
	size_t i, bad = 0;

	for (i = 0; i < jf->njobs; i++) {
		v = jf->jobs[i].shellnode;
		if (v == NULL || v == last)
			continue;
		last = v;
		if (runnable(v->str))
			continue;
		fprintf(stderr, "%s:%u:%u: shell: %s: no such program%s\n",
		    file, v->line, v->col, v->str, strchr(v->str, '/') != NULL ?
		    "" : " in PATH");
		bad++;
	}
	return bad;
}

/* The file to read: the one named, or wspx.yml, or wspx.yaml. */
static const char *
filename(const char *given)
{
	static const char *const names[] = { "wspx.yml", "wspx.yaml" };
	size_t i;

	if (given != NULL)
		return given;
	for (i = 0; i < 2; i++)
		if (access(names[i], F_OK) == 0)
			return names[i];
	fprintf(stderr, PROGNAME ": no job file given, and neither wspx.yml "
	    "nor wspx.yaml is in the current directory\n");
	exit(EXIT_USAGE);
}

/* The largest job file read: the text of a million jobs. */
#define JOBFILE_MAX ((size_t)64 << 20)

/* The whole of file ("-": stdin) in *b: a regular file, a pipe (as
 * <(...) makes) or the like, of at most JOBFILE_MAX bytes (so that
 * /dev/zero is an error, not all the memory). */
static void
slurp(const char *file, struct buf *b)
{
	char chunk[65536];
	ssize_t r;
	int fd = strcmp(file, "-") == 0 ? 0 : open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		fatal("%s:", file);
	while ((r = read(fd, chunk, sizeof(chunk))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			fatal("%s:", file);
		bufadd(b, chunk, (size_t)r);
		if (b->len > JOBFILE_MAX)
			fatal("%s: larger than 64 MiB: not a job file", file);
	}
	if (fd != 0)
		close(fd);
}

/* Read and check file into jf; print every error and exit 255 if any. */
static void
load(struct wspx__jobfile *jf, const char *file)
{
	struct buf text = { NULL, 0, 0 };
	struct wspx__diag d;
	FILE *f;
	size_t i;
	int rc;

	slurp(file, &text);
	/* (an empty file is a stream of no bytes, which fmemopen refuses) */
	if ((f = text.len > 0 ? fmemopen(text.s, text.len, "r") :
	    fopen("/dev/null", "re")) == NULL)
		fatal("%s:", file);
	wspx__diag_init(&d, file);
	rc = wspx__jobfile_read(jf, f, &d);
	fclose(f);
	free(text.s);
	wspx__diag_sort(&d);
	for (i = 0; i < d.n; i++)
		if (d.v[i].line == 0)	/* the file as a whole */
			warn("%s: %s", file, d.v[i].msg);
		else
			fprintf(stderr, "%s:%u:%u: %s\n", file, d.v[i].line,
			    d.v[i].col, d.v[i].msg);
	if (d.nomem || rc == -ENOMEM)
		warn("%s: out of memory", file);
	else if (rc != 0 && d.n == 0)
		warn("%s: %s", file, strerror(-rc));
	wspx__diag_fini(&d);
	if (rc == 0)
		return;
	wspx__jobfile_fini(jf);
	exit(EXIT_USAGE);
}

/* A name for dot: quoted, with " and \ escaped. */
static void
dotname(FILE *out, const char *s)
{
	putc('"', out);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			putc('\\', out);
		putc(*s, out);
	}
	putc('"', out);
}

/* How a run went for each job, from its joblog (--joblog), by the
 * jobs' names there: NULL without one. */
struct ran {
	bool *rows;		/* the jobs that have a row */
	bool *ok;		/* those with a row that succeeded */
};

/* The attributes of job i: a builtin's box is rounded; with a joblog,
 * green if it succeeded, red if it failed, grey and dashed if it did not
 * run (skipped, up to date, or the run stopped first). */
static void
attributes(const struct wspx__jfjob *j, size_t i, const struct ran *r)
{
	const char *round = j->builtin != NULL ? "rounded," : "";

	if (r == NULL) {
		printf("%s;\n", j->builtin != NULL ? " [style=rounded]" : "");
		return;
	}
	if (r->ok[i])
		printf(" [style=\"%sfilled\", fillcolor=palegreen];\n", round);
	else if (r->rows[i])
		printf(" [style=\"%sfilled\", fillcolor=salmon];\n", round);
	else
		printf(" [style=\"%sdashed\", color=gray50, "
		    "fontcolor=gray50];\n", round);
}

static void
printgraph(const struct wspx__jobfile *jf, const bool *sel,
    const struct ran *r)
{
	const struct wspx__jfjob *j;
	size_t i, k;

	printf("digraph wspx {\n\trankdir=LR;\n\tnode [shape=box];\n");
	for (i = 0; i < jf->njobs; i++) {
		if (sel != NULL && !sel[i])
			continue;
		j = &jf->jobs[i];
		putchar('\t');
		dotname(stdout, j->name);
		attributes(j, i, r);
		for (k = 0; k < j->nneeds; k++) {
			putchar('\t');
			dotname(stdout, jf->jobs[j->needs[k]].name);
			fputs(" -> ", stdout);
			dotname(stdout, j->name);
			puts(";");
		}
	}
	puts("}");
}

/* The options that put input records into jobs, if one was given. */
static const char *
manyargs(const struct config *c)
{
	return c->multi != MULTI_NONE ? "-m, -X and --xargs" :
	    c->maxreplset ? "-N" : c->maxlines > 0 ? "-L and -l" :
	    c->maxchars > 0 ? "-s" : c->exitbig ? "-x" : c->eofstr != NULL ?
	    "-E and -e" : c->link ? "--link" : c->pipe ? "--pipe and "
	    "--pipepart" : c->plus ? "--plus" : c->files ? "--files" : NULL;
}

/* Whether an option renamed a replacement string. */
static bool
renamed(const struct config *c)
{
	size_t i;

	for (i = 0; i < RM_RENAMED; i++)
		if (c->names.name[i] != NULL)
			return true;
	return c->names.parens != NULL;
}

/* Options that read input or shape commands from it have no meaning for
 * a job file. */
static void
refuse(const struct config *c)
{
	const char *what = c->shell != NULL ? "--shell (a job file's "
	    "commands run in its shell:, else in /bin/sh)" : c->nsrc > 0 ?
	    "input sources (-a, :::, ::::)" :
	    renamed(c) ? "-I, -i, --parens and the options that rename "
	    "replacement strings" : c->hascolsep ? "--colsep" :
	    c->maxargs != 1 ? "-n" : c->quote ? "-q" : c->skipblank ? "-r" :
	    c->results != NULL ? "--results" : c->trimset ? "--trim" :
	    c->delim != '\n' ? "-0 and -d" : c->tagstring != NULL ?
	    "--tagstring (--tag tags with the job's name)" : c->total >= 0 ?
	    "--total" : c->interactive ? "-p" : c->sem.on ? "--semaphore "
	    "and its kin (a job file's pools: limit jobs at once)" :
	    c->remote.ntransfer > 0 || c->remote.nret > 0 ||
	    c->remote.cleanup ? "--transfer-file, --return and --cleanup" :
	    manyargs(c);

	if (what != NULL)
		fatal("%s: not for a job file (see " PROGNAME "(1))", what);
	resume_needs_joblog(c->resume, c->joblog);
}

/* wspx graph: the named jobs (or all) and what they need, coloured by
 * how the run of --joblog went, if given, each job found there by its
 * name. */
static void
graph(const struct config *c, const struct wspx__jobfile *jf,
    const char *file, char **targets, size_t n)
{
	bool *sel = jobselect_pick(jf, file, targets, n);
	struct ran r;

	if (c->joblog == NULL) {
		printgraph(jf, sel, NULL);
		free(sel);
		return;
	}
	/* (for --resume a missing joblog is an empty one; here it would
	 * draw every job grey, as if none had run) */
	if (access(c->joblog, R_OK) != 0)
		fatal("--joblog %s:", c->joblog);
	r.rows = jobselect_resumed(jf, c->joblog, RESUME, "--joblog");
	r.ok = jobselect_resumed(jf, c->joblog, RESUME_FAILED, "--joblog");
	printgraph(jf, sel, &r);
	free(r.rows);
	free(r.ok);
	free(sel);
}

/* Whether w is NAME=value, a variable for the jobs' environment (a leg's
 * name, job[key=value], is not: its name holds a [). */
static bool
isvariable(const char *w)
{
	const char *p = w;

	if (!showvars_namechar(*p, true))
		return false;
	while (showvars_namechar(*p, false))
		p++;
	return *p == '=';
}

/* Sort the words into the file (the first of the others), the jobs to
 * run and the variables, in place: vars[0..*nvars), then the rest. */
static void
sortwords(const char *cmd, char **words, size_t n, size_t *nvars)
{
	size_t i, k = 0;
	char *w;

	for (i = 0; i < n; i++) {
		if (!isvariable(words[i]))
			continue;
		if (strcmp(cmd, "run") != 0)
			fatal("%s: a variable is only for " PROGNAME " run",
			    words[i]);
		w = words[i];
		memmove(words + k + 1, words + k, (i - k) * sizeof(*words));
		words[k++] = w;
	}
	*nvars = k;
}

int
jobfile_main(struct config *c, const char *cmd, char **words, size_t n)
{
	struct wspx__jobfile jf;
	struct jobwords jw;
	size_t i, nvars;
	int status = 0;

	refuse(c);
	for (i = 0; i < n; i++)
		if (strcmp(words[i], ":::") == 0 || strcmp(words[i], "::::") ==
		    0) {
			fatal("input sources (%s): not for a job file (see "
			    PROGNAME "(1))", words[i]);
		}
	if (c->json && strcmp(cmd, "list") != 0)
		fatal("--json is for " PROGNAME " list");
	if (c->watch && (strcmp(cmd, "run") != 0 || c->dryrun))
		fatal("--watch is for " PROGNAME " run, and not a dry run");
	sortwords(cmd, words, n, &nvars);
	jw.vars = words;
	jw.nvars = nvars;
	words += nvars;
	n -= nvars;
	if (strcmp(cmd, "run") != 0 && strcmp(cmd, "graph") != 0 && n > 1)
		fatal("%s takes one job file (see " PROGNAME " --help)", cmd);
	jw.file = filename(n > 0 ? words[0] : NULL);
	jw.source = NULL;
	jw.targets = n > 1 ? words + 1 : NULL;
	jw.ntargets = n > 1 ? n - 1 : 0;
	load(&jf, jw.file);
	if ((strcmp(cmd, "check") == 0 || strcmp(cmd, "run") == 0) &&
	    shells(&jf, jw.file) > 0) {
		wspx__jobfile_fini(&jf);
		return EXIT_USAGE;
	}
	if (strcmp(cmd, "list") == 0)
		joblist_print(c, &jf);
	else if (strcmp(cmd, "graph") == 0)
		graph(c, &jf, jw.file, jw.targets, jw.ntargets);
	else if (strcmp(cmd, "run") == 0 && c->watch)
		status = graphwatch(c, &jf, &jw);
	else if (strcmp(cmd, "run") == 0)
		status = graphrun(c, &jf, &jw);
	if (fflush(stdout) != 0 || ferror(stdout))
		fatal("cannot write the output:");
	wspx__jobfile_fini(&jf);
	return status;
}
