/*
 * Fuzz target: the state file of `wspx run`, .NAME.wspx-state beside a
 * job file, which says what is up to date.  The input is the file's
 * content, written to a file, since wspx__statefile_open() takes the path
 * that graphstate.c makes: the file is read with the locks, the chunked
 * line reader and the truncation of a cut-off last line that a run
 * uses, so whatever a crash, a second run or an editor left there goes
 * through lib/jobfile/stateread.c, statefile.c and filecache.c's record
 * parser.  Each job's parts are then asked for (the second read that
 * --explain makes), and the state is closed, which rewrites the file as
 * the run's end does when it found duplicate or broken lines.
 *
 * Checks: a file refused is left as it was; a job loaded is found by
 * lookup with its digest; and the rewritten file reads back clean
 * (nothing to drop), with the same jobs, digests and cached files.  The
 * library never exits, so no setjmp(): an exit() would be a finding.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "jobfile/state_int.h"
#include "jobfile/uptodate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the first read found, to compare the rewritten file with. */
struct seen {
	char **names;
	unsigned char (*digests)[32];
	size_t n, nfiles;
};

/* Whether the file at path still holds data[0..size). */
static bool
unchanged(const char *path, const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool same;

	if (buf == NULL || fd < 0)
		fz_fail("cannot read %s back", path);
	n = read(fd, buf, size + 1);
	same = n == (ssize_t)size && memcmp(buf, data, size) == 0;
	close(fd);
	free(buf);
	return same;
}

/* Each job of st: found with its digest, its parts read; kept in s. */
static void
eachjob(struct wspx__state *st, struct seen *s)
{
	unsigned char d[32];
	char *parts;
	bool found;
	size_t i;

	s->n = st->n;
	s->nfiles = st->nfiles;
	s->names = calloc(st->n + 1, sizeof(*s->names));
	s->digests = calloc(st->n + 1, sizeof(*s->digests));
	for (i = 0; i < st->n; i++) {
		if (!wspx__statefile_lookup(st, st->v[i].name, d) ||
		    memcmp(d, st->v[i].digest, 32) != 0)
			fz_fail("job %s loaded but not found", st->v[i].name);
		parts = wspx__statefile_parts(st, st->v[i].name, &found);
		if (!found)
			fz_fail("job %s has no record", st->v[i].name);
		free(parts);
		s->names[i] = strdup(st->v[i].name);
		memcpy(s->digests[i], d, 32);
	}
}

/* The rewritten file at path: clean, with what s saw. */
static void
reread(const char *path, const struct seen *s)
{
	struct wspx__state *st;
	unsigned char d[32];
	size_t i;
	int rc;

	if ((rc = wspx__statefile_open(&st, path)) != 0)
		fz_fail("the rewritten file is refused: %s", strerror(-rc));
	if (st->dirty || st->n != s->n || st->nfiles != s->nfiles)
		fz_fail("the rewritten file reads as dirty %d, %zu jobs and "
		    "%zu files, not %zu and %zu", st->dirty, st->n,
		    st->nfiles, s->n, s->nfiles);
	for (i = 0; i < s->n; i++)
		if (!wspx__statefile_lookup(st, s->names[i], d) ||
		    memcmp(d, s->digests[i], 32) != 0)
			fz_fail("job %s lost or changed by the rewrite",
			    s->names[i]);
	if ((rc = wspx__statefile_close(st)) != 0)
		fz_fail("closing the rewritten file: %s", strerror(-rc));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fz_file(data, size);
	struct seen s = { NULL, NULL, 0, 0 };
	struct wspx__state *st;
	size_t i;
	int rc;

	if ((rc = wspx__statefile_open(&st, path)) != 0) {
		if (!unchanged(path, data, size))
			fz_fail("refused (%s) but changed", strerror(-rc));
		return 0;
	}
	eachjob(st, &s);
	if ((rc = wspx__statefile_close(st)) != 0)
		fz_fail("close: %s", strerror(-rc));
	reread(path, &s);
	for (i = 0; i < s.n; i++)
		free(s.names[i]);
	free(s.names);
	free(s.digests);
	return 0;
}
