/*
 * Fuzz target: the joblog that --resume, --resume-failed and
 * --retry-failed read before any job runs.  The input is the file's
 * content, written to a file, since resume_load() takes the path of
 * --joblog as main() hands it: a joblog is whatever was left there, by
 * wspx, by GNU parallel, by a run killed midway or by hand, and every
 * byte of it goes through lib/exec/joblog.c's reader into
 * cmd/report/resume.c's map of the jobs done.  Each input is loaded in
 * each of the three modes; a file that is not a joblog exits, which the
 * harness brings back.
 *
 * What a load leaves is checked against the rows, read again by the
 * same reader: a job with a row is done for --resume, and with a row of
 * success for the others; --retry-failed hands back, in the order of
 * the sequence numbers, each logged job that is not done, once, with a
 * command.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exec/joblog.h"
#include "harness.h"
#include "report/resume.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct check {
	const struct resume *r;
	enum resumemode mode;
};

/* A row the load took: its job must be done where the mode says so. */
static int
checkrow(void *ctx, const struct wspx__joblog_row *row)
{
	const struct check *c = ctx;
	bool ok = row->exitval == 0 && row->signal == 0;

	if ((c->mode == RESUME || ok) && !resume_done(c->r, row->seq))
		fz_fail("%s: job %llu has a row%s but is not done",
		    resume_option(c->mode), (unsigned long long)row->seq,
		    ok ? " of success" : "");
	return 0;
}

/* What --retry-failed would run: increasing, none done, each with its
 * command. */
static void
checknext(struct resume *r)
{
	const char *command;
	uint64_t seq, last = 0;

	while (resume_next(r, &seq, &command)) {
		if (seq <= last || resume_done(r, seq) || command == NULL)
			fz_fail("--retry-failed: job %llu after %llu, done "
			    "%d, command %s", (unsigned long long)seq,
			    (unsigned long long)last, resume_done(r, seq),
			    command != NULL ? command : "(none)");
		last = seq;
	}
}

/* Load path in mode and check what the load says; exits if the file is
 * not a joblog (then r is freed by the harness). */
static void
load(const char *path, enum resumemode mode)
{
	struct check c = { NULL, mode };
	struct resume *r;
	size_t line;

	r = resume_load(path, mode, resume_option(mode));
	c.r = r;
	if (wspx__joblog_read(path, checkrow, &c, &line) != 0)
		fz_fail("%s: loaded, but not read again (line %zu)",
		    resume_option(mode), line);
	if (mode == RETRY_FAILED)
		checknext(r);
	resume_free(r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum resumemode modes[] = { RESUME, RESUME_FAILED,
	    RETRY_FAILED };
	const char *path = fz_file(data, size);
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(*modes); i++) {
		fz_begin();
		if (setjmp(fz_jump) == 0)
			load(path, modes[i]);
		fz_done();
	}
	return 0;
}
