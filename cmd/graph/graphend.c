/*
 * How a job file's run ends: its last line, which counts how the jobs
 * went, and in GitHub Actions its step summary.  With
 * $GITHUB_STEP_SUMMARY set, a Markdown table of the jobs (name, result,
 * time, the line that says why it failed or did not run) is appended to
 * that file, as GitHub's own summaries show a workflow's jobs, and the
 * run's last line under it.  The jobs in the file's order, at most
 * MAXROWS of them (GitHub shows at most 1 MiB of a step's summary): the
 * failed ones first when there are more.
 */
#include "graphrun.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/proc.h"
#include "report/failures.h"
#include "report/stats.h"
#include "util/buf.h"
#include "util/util.h"

#define MAXROWS		1000	/* jobs in the table */
#define CELL_MAX	200	/* bytes of a cell's text */

/* s, at most max bytes of it, as the text of a table cell: Markdown's
 * punctuation escaped with a backslash (GitHub reads those as the
 * characters), < and & as entities, a line break or a tab as a space. */
static void
bufcell(struct buf *b, const char *s, size_t max)
{
	size_t i, n = strlen(s);

	for (i = 0; i < n && i < max; i++) {
		if (s[i] == '<')
			bufadds(b, "&lt;");
		else if (s[i] == '&')
			bufadds(b, "&amp;");
		else if (s[i] == '\n' || s[i] == '\r' || s[i] == '\t')
			bufaddc(b, ' ');
		else if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			continue;
		else if (strchr("\\`*_{}[]()#+-.!|>~", s[i]) != NULL) {
			bufaddc(b, '\\');
			bufaddc(b, s[i]);
		} else
			bufaddc(b, s[i]);
	}
	if (i < n)
		bufadds(b, "...");
}

/* Whether the line p[0..n) speaks of an error, in any case. */
static bool
errorish(const char *p, size_t n)
{
	static const char word[] = "error";
	size_t i, k;

	for (i = 0; i + 5 <= n; i++) {
		for (k = 0; k < 5 && (p[i + k] | 0x20) == word[k]; k++)
			;
		if (k == 5)
			return true;
	}
	return false;
}

char *
graphend_errline(const char *tail, size_t n)
{
	const char *p = tail, *end = tail + n, *nl, *pick = NULL;
	size_t len = 0, k;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		k = (size_t)(nl - p);
		if (k > 0 && errorish(p, k)) {
			pick = p;
			len = k;
			break;
		}
		if (k > 0) {
			pick = p;
			len = k;
		}
	}
	if (pick == NULL)
		return NULL;
	return memcpy(xcalloc(1, len + 1), pick, len);
}

/* The result column of job j. */
static const char *
result(const struct gjob *j)
{
	switch (j->outcome) {
	case OUT_OK:
		return j->failed ? "failed (continue-on-error)" : "ok";
	case OUT_FAILED:
		return "**failed**";
	case OUT_SKIPPED:
		return "skipped";
	case OUT_CANCELLED:
		return j->cj.ej.result.started ? "stopped" : "not started";
	case OUT_UPTODATE:
		return "up to date";
	default:
		return "";
	}
}

/* One row for job j. */
static void
row(struct graphrun *gr, struct gjob *j, struct buf *b)
{
	const struct wspx__result *r = &j->cj.ej.result;
	struct buf why = { NULL, 0, 0 };
	char t[32] = "";

	bufadds(b, "| ");
	bufcell(b, gr->jf->jobs[j->index].name, CELL_MAX);
	bufprintf(b, " | %s | ", result(j));
	if (r->started && (j->outcome == OUT_OK || j->outcome == OUT_FAILED ||
	    j->outcome == OUT_CANCELLED))
		stats_duration(t, sizeof(t), (double)r->runtime_ns / 1e9);
	bufprintf(b, "%s | ", t);
	if (j->outcome == OUT_SKIPPED)
		graphrun_skipreason(gr, j, &why);
	else if (j->failed && r->started && !WIFEXITED(r->status))
		bufhowended(&why, r);
	else if (j->failed && r->started)
		bufprintf(&why, "exit status %d", WEXITSTATUS(r->status));
	if (j->errline != NULL)
		bufprintf(&why, "%s%s", why.len > 0 ? ": " : "", j->errline);
	if (why.len > 0)
		bufcell(b, why.s, CELL_MAX);
	bufadds(b, " |\n");
	free(why.s);
}

/* Whether job j is shown in a table of only some jobs: its turn among
 * the failed ones, or among the rest once those are in. */
static bool
shown(const struct gjob *j, size_t *left, bool failedpass)
{
	bool failed = j->outcome == OUT_FAILED || j->failed;

	if (*left == 0 || failed != failedpass)
		return false;
	(*left)--;
	return true;
}

/* The table's rows: the selected jobs in the file's order; with more
 * than MAXROWS, the failed ones first, then the others while room
 * lasts (each pass in the file's order). */
static void
rows(struct graphrun *gr, struct buf *b)
{
	size_t i, left = MAXROWS, pass;
	bool *in = xcalloc(gr->jf->njobs + 1, sizeof(*in));

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < gr->jf->njobs; i++)
			if ((gr->selected == NULL || gr->selected[i]) &&
			    (gr->nselected <= MAXROWS ? pass == 0 :
			    shown(&gr->jobs[i], &left, pass == 0)))
				in[i] = true;
	for (i = 0; i < gr->jf->njobs; i++)
		if (in[i])
			row(gr, &gr->jobs[i], b);
	if (gr->nselected > MAXROWS)
		bufprintf(b, "\n%zu more jobs are not listed.\n",
		    gr->nselected - MAXROWS);
	free(in);
}

/* With $GITHUB_STEP_SUMMARY set, append the table of the run's jobs and
 * its last line to that file. */
static void
graphend_summary(struct graphrun *gr, const char *last)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	struct buf b = { NULL, 0, 0 };
	int fd, rc;

	if (path == NULL || *path == '\0' || gr->c->dryrun)
		return;
	bufadds(&b, "### " PROGNAME " run ");
	bufcell(&b, gr->file, CELL_MAX);
	bufadds(&b, "\n\n| job | result | time | why |\n|---|---|---|---|\n");
	rows(gr, &b);
	bufaddc(&b, '\n');
	bufcell(&b, last, CELL_MAX * 2);
	bufadds(&b, "\n\n");
	/* (the runner made the file; one write, appended whole) */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	rc = fd < 0 ? -errno : wspx__proc_writeall(fd, b.s, b.len);
	if (fd >= 0 && close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc != 0)
		warn("$GITHUB_STEP_SUMMARY %s: %s", path, strerror(-rc));
	free(b.s);
}

/* ", 3 ok" to b, if n is not 0; *parts counts those written, *last
 * keeps the last's n. */
static void
part(struct buf *b, _Atomic(size_t) *c, const char *what, size_t *parts,
    size_t *last)
{
	/* relaxed: every job is over */
	size_t n = atomic_load_explicit(c, memory_order_relaxed);

	if (n == 0)
		return;
	bufprintf(b, "%s%zu %s", *parts > 0 ? ", " : "", n, what);
	(*parts)++;
	*last = n;
}

/* The run's last line: "wspx: 10 jobs in 3.2s: 7 ok, 1 failed, 2
 * skipped", "wspx: 5 jobs up to date in 0.0s" (one kind: said once),
 * "wspx: 6 jobs in 1.2s, interrupted by SIGINT: 3 ok, 1 stopped, 2 not
 * started"; a dry run's, with no time, "wspx: 7 jobs: 4 would run, 3 up
 * to date". */
void
graphend_line(struct graphrun *gr, const char *stopped, double elapsed)
{
	struct buf p = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	size_t parts = 0, last = 0;
	char t[32];

	part(&p, &gr->nok, gr->c->dryrun ? "would run" : "ok", &parts, &last);
	part(&p, &gr->nfailed, "failed", &parts, &last);
	part(&p, &gr->nskipped, "skipped", &parts, &last);
	part(&p, &gr->uptodate, "up to date", &parts, &last);
	part(&p, &gr->resumed, "done before", &parts, &last);
	part(&p, &gr->nstopped, "stopped", &parts, &last);
	part(&p, &gr->notstarted, "not started", &parts, &last);
	stats_duration(t, sizeof(t), elapsed);
	if (gr->c->dryrun)
		t[0] = '\0';
	bufprintf(&b, "%zu job%s", gr->nselected, gr->nselected == 1 ? "" :
	    "s");
	if (parts == 1 && last == gr->nselected && stopped == NULL)
		bufprintf(&b, " %s%s%s", strchr(p.s, ' ') + 1, *t != '\0' ?
		    " in " : "", t);
	else
		bufprintf(&b, "%s%s%s%s%s%s", *t != '\0' ? " in " : "", t,
		    stopped != NULL ? ", " : "", stopped != NULL ? stopped : "",
		    parts > 0 ? ": " : "", parts > 0 ? p.s : "");
	fprintf(stderr, PROGNAME ": %s\n", b.s);
	graphend_summary(gr, b.s);
	free(p.s);
	free(b.s);
}
