/*
 * Unit tests for the up-to-date check: the digest of a job changes with
 * its sources, its command and its generated files, and with nothing else;
 * a missing generated file and a bad source are reported by name; hashing
 * on the pool gives the serial result.  The state file survives a round
 * trip, a cut-off last line, concurrent records, and 100,000 jobs; its
 * stat cache trusts no racy file and misses no edit or rename.
 *
 * usage: uptodate [threads [records per thread]]
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/sha256.h"
#include "jobfile/uptodate.h"
#include "os/fsclock.h"
#include "test.h"
#include "wspx.h"

static int dfd;			/* the test tree */
static char root[] = "/tmp/wspx-uptodate-XXXXXX";
static struct wspx_pool *pool;

/* Write content to path in dfd, making its parent directories. */
static void
put(const char *path, const char *content)
{
	char buf[PATH_MAX], *s;
	int fd;

	snprintf(buf, sizeof(buf), "%s", path);
	for (s = strchr(buf, '/'); s != NULL; s = strchr(s + 1, '/')) {
		*s = '\0';
		CHECK(mkdirat(dfd, buf, 0777) == 0 || errno == EEXIST);
		*s = '/';
	}
	fd = openat(dfd, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	CHECK(fd >= 0);
	CHECK(write(fd, content, strlen(content)) == (ssize_t)strlen(content));
	close(fd);
}

/* A job's digest inputs and outputs. */
struct dig {
	const char *const *src, *const *gen;
	size_t nsrc, ngen;
	const char *cmd;
	unsigned char out[32];
	char *missing;
	int rc;
};

static void
rundigest(struct wspx_worker *w, void *arg)
{
	struct dig *d = arg;

	d->rc = wspx__uptodate_digest(w, dfd, d->src, d->nsrc, d->gen,
	    d->ngen, d->cmd, d->out, &d->missing);
}

/* Compute d on the pool and serially; both must agree.  Returns d->rc. */
static int
digest(struct dig *d)
{
	unsigned char serial[32];
	char *m;
	int rc;

	rundigest(NULL, d);
	memcpy(serial, d->out, 32);
	m = d->missing;
	rc = d->rc;
	CHECK(wspx_pool_call(pool, rundigest, d) == 0);
	CHECK(d->rc == rc);
	CHECK(rc != 0 || memcmp(serial, d->out, 32) == 0);
	CHECK((m == NULL) == (d->missing == NULL));
	CHECK(m == NULL || strcmp(m, d->missing) == 0);
	free(m);
	return d->rc;
}

/* The digest of the job of test_changes() with command cmd. */
static void
jobdigest(const char *cmd, unsigned char out[32])
{
	static const char *const src[] = { "src/**/*.c", "src/a.c" };
	static const char *const gen[] = { "out/prog" };
	struct dig d = { src, gen, 2, 1, cmd, {0}, NULL, 0 };

	CHECK(digest(&d) == 0 && d.missing == NULL);
	memcpy(out, d.out, 32);
	free(d.missing);
}

static void
test_changes(void)
{
	unsigned char d0[32], d[32];

	put("src/a.c", "int a;\n");
	put("src/b.c", "int b;\n");
	put("src/sub/c.c", "int c;\n");
	put("out/prog", "binary\n");
	jobdigest("cc -o out/prog src/*.c", d0);
	jobdigest("cc -o out/prog src/*.c", d);
	CHECK(memcmp(d0, d, 32) == 0);
	put("src/sub/c.c", "int c = 1;\n");
	jobdigest("cc -o out/prog src/*.c", d);
	CHECK(memcmp(d0, d, 32) != 0);
	/* Content counts, not time: restored, it is up to date again. */
	put("src/sub/c.c", "int c;\n");
	jobdigest("cc -o out/prog src/*.c", d);
	CHECK(memcmp(d0, d, 32) == 0);
	jobdigest("cc -O2 -o out/prog src/*.c", d);
	CHECK(memcmp(d0, d, 32) != 0);
	jobdigest("cc -o out/prog src/*.h", d);
	CHECK(memcmp(d0, d, 32) != 0);
	put("out/prog", "other binary\n");
	jobdigest("cc -o out/prog src/*.c", d);
	CHECK(memcmp(d0, d, 32) != 0);
	put("out/prog", "binary\n");
	/* A new source, then the same content under another name. */
	put("src/sub/e.c", "int e;\n");
	jobdigest("cc -o out/prog src/*.c", d);
	CHECK(memcmp(d0, d, 32) != 0);
	CHECK(unlinkat(dfd, "src/sub/e.c", 0) == 0);
	CHECK(renameat(dfd, "src/b.c", dfd, "src/bb.c") == 0);
	jobdigest("cc -o out/prog src/*.c", d);
	CHECK(memcmp(d0, d, 32) != 0);
	CHECK(renameat(dfd, "src/bb.c", dfd, "src/b.c") == 0);
	jobdigest("cc -o out/prog src/*.c", d);
	CHECK(memcmp(d0, d, 32) == 0);
}

static void
test_missing(void)
{
	static const char *const src[] = { "src/a.c" };
	static const char *const gen1[] = { "out/prog", "out/none" };
	static const char *const gen2[] = { "out/*.o" };
	struct dig d = { src, gen1, 1, 2, "make", {0}, NULL, 0 };
	unsigned char before[32];

	CHECK(digest(&d) == 0);
	CHECK(d.missing != NULL && strcmp(d.missing, "out/none") == 0);
	free(d.missing);
	memcpy(before, d.out, 32);
	put("out/none", "");
	CHECK(digest(&d) == 0 && d.missing == NULL);
	/* Missing and empty are different states. */
	CHECK(memcmp(before, d.out, 32) != 0);
	d.gen = gen2;
	d.ngen = 1;
	CHECK(digest(&d) == 0);
	CHECK(d.missing != NULL && strcmp(d.missing, "out/*.o") == 0);
	free(d.missing);
	put("out/x.o", "obj");
	CHECK(digest(&d) == 0 && d.missing == NULL);
}

/* sources => rc, with *missing naming want. */
static int
badsource(const char *pattern, int rc, const char *want)
{
	const char *src[] = { "src/a.c", pattern };
	struct dig d = { src, NULL, 2, 0, "make", {0}, NULL, 0 };
	int ok;

	digest(&d);
	ok = d.rc == rc && (want == NULL ? d.missing == NULL :
	    d.missing != NULL && strcmp(d.missing, want) == 0);
	if (!ok)
		fprintf(stderr, "%s: %d %s\n", pattern, d.rc,
		    d.missing != NULL ? d.missing : "(null)");
	free(d.missing);
	return ok;
}

static void
test_sources(void)
{
	CHECK(badsource("src/*.zz", -ENOENT, "src/*.zz"));
	CHECK(badsource("src/nope.c", -ENOENT, "src/nope.c"));
	CHECK(symlinkat("nowhere", dfd, "src/dangling.c") == 0);
	CHECK(badsource("src/dang*", -ENOENT, "src/dangling.c"));
	CHECK(unlinkat(dfd, "src/dangling.c", 0) == 0);
	/* A directory matched by a pattern counts by its path. */
	CHECK(badsource("src/*", 0, NULL));
	CHECK(badsource("", -EINVAL, ""));
	put("src/secret.c", "x");
	CHECK(fchmodat(dfd, "src/secret.c", 0, 0) == 0);
	if (geteuid() != 0)
		CHECK(badsource("src/*.c", -EACCES, "src/secret.c"));
	CHECK(unlinkat(dfd, "src/secret.c", 0) == 0);
}

/* Hundreds of files of many sizes, hashed by the pool's workers, give the
 * serial digest (checked inside digest()) every time. */
static void
test_parallel(void)
{
	static const char *const src[] = { "many/**" };
	struct dig d = { src, NULL, 1, 0, "make", {0}, NULL, 0 };
	unsigned char first[32];
	char name[64], *body;
	size_t i, len;
	int k;

	body = malloc(200000);
	CHECK(body != NULL);
	if (body == NULL)
		return;
	for (i = 0; i < 300; i++) {
		len = i * i * 2 % 199999;
		memset(body, 'a' + (int)(i % 26), len);
		body[len] = '\0';
		snprintf(name, sizeof(name), "many/d%zu/f%zu", i % 7, i);
		put(name, body);
	}
	free(body);
	CHECK(digest(&d) == 0);
	memcpy(first, d.out, 32);
	for (k = 0; k < 5; k++) {
		CHECK(digest(&d) == 0);
		CHECK(memcmp(first, d.out, 32) == 0);
	}
}

/* A digest that differs for each (i, j). */
static bool cached(const char *path, const char *key);

/* Record digest d for job, with no parts. */
static int
record(struct wspx__state *st, const char *job, const unsigned char d[32])
{
	return wspx__statefile_record(st, job, d, NULL);
}

static void
mkdigest(unsigned char d[32], unsigned i, unsigned j)
{
	int k;

	for (k = 0; k < 32; k++)
		d[k] = (unsigned char)(i * 31 + j * 7 + (unsigned)k * 13);
}

/* Whether st has digest (i, j) for job. */
static int
has(struct wspx__state *st, const char *job, unsigned i, unsigned j)
{
	unsigned char want[32], got[32];

	mkdigest(want, i, j);
	return wspx__statefile_lookup(st, job, got) &&
	    memcmp(want, got, 32) == 0;
}

static void
statepath(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", root, name);
	unlink(buf);
}


/* The number of lines of path. */
static long
lines(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = 0;
	int c;

	if (f == NULL)
		return -1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static void
test_roundtrip(void)
{
	static const char weird[] = "tab\there\nnewline\\back\rcr";
	struct wspx__state *st, *again;
	unsigned char d[32];
	char path[PATH_MAX];

	statepath(path, sizeof(path), "state");
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(!wspx__statefile_lookup(st, "a", d));
	CHECK(record(st, "a", (mkdigest(d, 1, 0), d)) == 0);
	CHECK(record(st, "test[opt=O2,san=none]",
	    (mkdigest(d, 2, 0), d)) == 0);
	CHECK(record(st, weird, (mkdigest(d, 3, 0), d)) == 0);
	CHECK(record(st, "a", (mkdigest(d, 4, 0), d)) == 0);
	CHECK(record(st, "", d) == -EINVAL);
	CHECK(has(st, "a", 4, 0) && has(st, weird, 3, 0));
	CHECK(!wspx__statefile_lookup(st, "tab", d));
	/* Durable before close: another reader sees every record. */
	CHECK(lines(path) == 5);
	CHECK(wspx__statefile_open(&again, path) == 0);
	CHECK(has(again, "a", 4, 0) && has(again, weird, 3, 0) &&
	    has(again, "test[opt=O2,san=none]", 2, 0));
	CHECK(wspx__statefile_close(again) == 0);
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(lines(path) == 4);
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(has(st, "a", 4, 0) && has(st, weird, 3, 0) &&
	    has(st, "test[opt=O2,san=none]", 2, 0));
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(wspx__statefile_close(NULL) == 0);
}

#define HEX64 "0123456789abcdef0123456789abcdef" \
	"0123456789abcdef0123456789abcdef"

static void
test_cutoff(void)
{
	struct wspx__state *st, *again;
	unsigned char d[32];
	char path[PATH_MAX];

	statepath(path, sizeof(path), "cut");
	/* A good record, garbage, a record cut inside the name of "foo". */
	test_putfile(path, "wspx-state 3\n" HEX64 "\tgood\nnot a record\n"
	    HEX64 "\tfo");
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(wspx__statefile_lookup(st, "good", d) && d[0] == 0x01);
	CHECK(!wspx__statefile_lookup(st, "fo", d));
	CHECK(record(st, "next", (mkdigest(d, 5, 0), d)) == 0);
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(has(st, "next", 5, 0) && !wspx__statefile_lookup(st, "fo", d));
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(lines(path) == 3);
	/* Killed after the cut, before close: the next record must still
	 * start a line of its own; the cut line is gone (ended with a
	 * newline, it would read as a record of "fo"). */
	test_putfile(path, "wspx-state 3\n" HEX64 "\tgood\n" HEX64 "\tfo");
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(record(st, "next", (mkdigest(d, 6, 0), d)) == 0);
	CHECK(lines(path) == 3);
	CHECK(wspx__statefile_open(&again, path) == 0);
	CHECK(has(again, "next", 6, 0) && has(again, "good", 0, 0) == 0 &&
	    wspx__statefile_lookup(again, "good", d));
	CHECK(wspx__statefile_close(again) == 0);
	CHECK(wspx__statefile_close(st) == 0);
	test_putfile(path, "wspx-state 3\n" HEX64 "\tgood\n\n" HEX64 "\tfo\n");
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(wspx__statefile_lookup(st, "fo", d));
	CHECK(wspx__statefile_close(st) == 0);
	/* A record glued to a cut-off one (no newline between) is not
	 * read as a record of a job with a tab in its name. */
	test_putfile(path, "wspx-state 3\n" HEX64 "\tfo" HEX64 "\tbar\n");
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(!wspx__statefile_lookup(st, "fo" HEX64 "\tbar", d));
	CHECK(wspx__statefile_close(st) == 0);
	/* Hostile file records: numbers out of range, a bad digest, a
	 * missing path: each dropped, the good one kept. */
	test_putfile(path, "wspx-state 3\n"
	    "@\t1\t-9223372036854775808\t1\t1\t1\t" HEX64 "\ta\n"
	    "@\t1\t99999999999999999999\t1\t1\t1\t" HEX64 "\tb\n"
	    "@\t1\t1\t1\t1\t1\tzz\tc\n"
	    "@\t1\t1\t1\t1\t1\t" HEX64 "\n"
	    "@\t1\t2\t3\t4\t5\t" HEX64 "\tgood.c\n");
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(lines(path) == 2 && cached(path, "good.c") && !cached(path, "a"));
	/* Inode and device numbers are unsigned, as the writer prints them:
	 * up to UINT64_MAX kept, a sign or a number past it dropped. */
	test_putfile(path, "wspx-state 3\n"
	    "@\t1\t2\t3\t18446744073709551615\t9223372036854775808\t"
	    HEX64 "\tbig.c\n"
	    "@\t1\t2\t3\t-1\t5\t" HEX64 "\tneg.c\n"
	    "@\t1\t2\t3\t4\t18446744073709551616\t" HEX64 "\tover.c\n");
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(lines(path) == 2 && cached(path, "big.c") &&
	    !cached(path, "neg.c") && !cached(path, "over.c"));
	/* A header cut off while the file was created. */
	test_putfile(path, "wspx-st");
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(record(st, "x", (mkdigest(d, 7, 0), d)) == 0);
	CHECK(lines(path) == 2);
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(has(st, "x", 7, 0));
	CHECK(wspx__statefile_close(st) == 0);
	/* The header of an older format, cut off: restarted too. */
	test_putfile(path, "wspx-state 2");
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(!wspx__statefile_older(st));
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(lines(path) == 1);
}

/* Job parts src/fNNNNN.h, n of them, each file's digest 0, but the last
 * one's, last. */
static void
manyparts(struct wspx__parts *p, int n, unsigned char last)
{
	unsigned char sum[32] = { 0 };
	char key[32];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "src/f%05d.h", i);
		sum[0] = i == n - 1 ? last : 0;
		CHECK(wspx__uptodate_addpart(p, 's', 'f', key, sum) == 0);
	}
}

/* The parts wspx__uptodate_groups() makes of pats[0..n), through st, and
 * their digest. */
static size_t
groups(struct wspx__state *st, const char *const *pats, size_t n,
    unsigned char d[32], struct wspx__parts *p)
{
	char *missing;

	wspx__uptodate_freeparts(p);
	CHECK(wspx__uptodate_groups(st, NULL, dfd, "", pats, n, false, p,
	    &missing) == 0 && missing == NULL);
	wspx__uptodate_sum(p, d);
	return p->n;
}

/* A pattern is one part of a job's digest, made once per epoch: its
 * files' edits and new files show after a job ends, not before; the
 * patterns' order does not matter, a literal is a part of its own. */
static void
test_groups(void)
{
	const char *pats[] = { "grp/g1.c", "grp/g*.c", "grp/g1.c" };
	const char *rev[] = { "grp/g*.c", "grp/g1.c" };
	struct wspx__parts p = { NULL, 0, 0 };
	unsigned char d0[32], d1[32], d2[32];
	struct wspx__state *st;
	char path[PATH_MAX];

	put("grp/g1.c", "one");
	put("grp/g2.c", "two");
	statepath(path, sizeof(path), "groups");
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(groups(st, pats, 3, d0, &p) == 2);
	CHECK(p.v[0].tag == 'p' && strcmp(p.v[0].key, "grp/g*.c") == 0 &&
	    p.v[1].tag == 'f' && strcmp(p.v[1].key, "grp/g1.c") == 0);
	CHECK(groups(st, rev, 2, d1, &p) == 2 && memcmp(d0, d1, 32) == 0);
	/* In the same epoch the group is the one made: no job ended. */
	put("grp/g2.c", "changed");
	CHECK(groups(st, rev, 2, d1, &p) == 2 && memcmp(d0, d1, 32) == 0);
	wspx__statefile_epoch(st);
	CHECK(groups(st, rev, 2, d1, &p) == 2 && memcmp(d0, d1, 32) != 0);
	put("grp/g3.c", "three");
	CHECK(groups(st, rev, 2, d2, &p) == 2 && memcmp(d1, d2, 32) == 0);
	wspx__statefile_epoch(st);
	CHECK(groups(st, rev, 2, d2, &p) == 2 && memcmp(d1, d2, 32) != 0);
	/* Without the cache, the same digests. */
	wspx__uptodate_freeparts(&p);
	CHECK(wspx__uptodate_groups(NULL, NULL, dfd, "", rev, 2, false, &p,
	    &(char *){ NULL }) == 0);
	wspx__uptodate_sum(&p, d0);
	CHECK(memcmp(d0, d2, 32) == 0);
	wspx__uptodate_freeparts(&p);
	CHECK(wspx__statefile_close(st) == 0);
}

/* Records longer than the buffer the file is read through (64 KB), one
 * of them cut off at the end: each whole one read, the cut one cut away,
 * and a record's parts, not read at the start, read for --explain. */
static void
test_longlines(void)
{
	struct wspx__parts p = { NULL, 0, 0 }, now = { NULL, 0, 0 };
	struct wspx__state *st;
	char path[PATH_MAX], *why;
	unsigned char d[32];
	struct stat sb;
	FILE *f;

	statepath(path, sizeof(path), "long");
	manyparts(&p, 20000, 0);
	manyparts(&now, 20000, 1);
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(record(st, "before", (mkdigest(d, 1, 0), d)) == 0);
	CHECK(wspx__statefile_record(st, "long", (mkdigest(d, 2, 0), d),
	    &p) == 0);
	CHECK(record(st, "after", (mkdigest(d, 3, 0), d)) == 0);
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(stat(path, &sb) == 0 && sb.st_size > 500000);
	/* Killed while appending another long record. */
	CHECK((f = fopen(path, "a")) != NULL);
	if (f == NULL)
		return;
	fputs(HEX64 "\tcut\t", f);
	for (int i = 0; i < 10000; i++)
		fputs("0000000000000000ssrc/cut.h\t", f);
	fclose(f);
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(has(st, "before", 1, 0) && has(st, "long", 2, 0) &&
	    has(st, "after", 3, 0) && !wspx__statefile_lookup(st, "cut", d));
	why = wspx__explain_job(st, "long", &now);
	CHECK(why != NULL && strcmp(why, "src/f19999.h changed") == 0);
	free(why);
	CHECK(wspx__explain_job(st, "long", &p) == NULL);
	why = wspx__explain_job(st, "before", &p);
	CHECK(why != NULL && strcmp(why, "its record has no parts") == 0);
	free(why);
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(lines(path) == 4);
	wspx__uptodate_freeparts(&p);
	wspx__uptodate_freeparts(&now);
}

static void
test_refused(void)
{
	struct wspx__state *st;
	char path[PATH_MAX];

	statepath(path, sizeof(path), "notstate");
	test_putfile(path, "int main;\n");
	CHECK(wspx__statefile_open(&st, path) == -EINVAL);
	CHECK(lines(path) == 1);
	/* Not writable: found out before any job runs. */
	statepath(path, sizeof(path), "nodir/state");
	CHECK(wspx__statefile_open(&st, path) == -ENOENT);
}

struct recorder {
	pthread_t thread;
	struct wspx__state *st;
	unsigned id;
	long n;
	int bad;
};

static void *
recorder(void *arg)
{
	struct recorder *r = arg;
	unsigned char d[32];
	char name[64];
	long i;

	for (i = 0; i < r->n; i++) {
		snprintf(name, sizeof(name), "t%u-%ld", r->id, i);
		mkdigest(d, r->id, (unsigned)i);
		r->bad += record(r->st, name, d) != 0;
		r->bad += !has(r->st, name, r->id, (unsigned)i);
		/* The shared name: the last record wins, whichever. */
		r->bad += record(r->st, "shared", d) != 0;
	}
	return NULL;
}

/* Every record of every thread is there: in st, then in the file. */
static void
test_threads(long nthreads, long n)
{
	struct recorder r[64];
	struct wspx__state *st;
	char path[PATH_MAX], name[64];
	long t, i, bad = 0;

	statepath(path, sizeof(path), "threads");
	CHECK(wspx__statefile_open(&st, path) == 0);
	for (t = 0; t < nthreads; t++) {
		r[t].st = st;
		r[t].id = (unsigned)t;
		r[t].n = n;
		r[t].bad = 0;
		CHECK(pthread_create(&r[t].thread, NULL, recorder, &r[t]) == 0);
	}
	for (t = 0; t < nthreads; t++) {
		CHECK(pthread_join(r[t].thread, NULL) == 0);
		bad += r[t].bad;
	}
	CHECK(bad == 0);
	CHECK(lines(path) == 1 + 2 * nthreads * n);
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(lines(path) == 2 + nthreads * n);
	CHECK(wspx__statefile_open(&st, path) == 0);
	for (t = 0; t < nthreads; t++)
		for (i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "t%ld-%ld", t, i);
			bad += !has(st, name, (unsigned)t, (unsigned)i);
		}
	CHECK(bad == 0);
	CHECK(wspx__statefile_close(st) == 0);
}

/* A graph's worth of jobs: opening and looking up stay fast, and a state
 * that did not change is not rewritten. */
static void
test_big(void)
{
	struct wspx__state *st;
	char path[PATH_MAX], name[64];
	unsigned char d[32];
	struct stat before, after;
	FILE *f;
	double t0;
	long i, bad = 0;

	statepath(path, sizeof(path), "big");
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f == NULL)
		return;
	fputs("wspx-state 3\n", f);
	for (i = 0; i < 100000; i++)
		fprintf(f, "%064lx\tjob%ld[opt=O2,san=none]\n", i, i);
	fclose(f);
	CHECK(stat(path, &before) == 0);
	t0 = test_now();
	CHECK(wspx__statefile_open(&st, path) == 0);
	for (i = 0; i < 100000; i++) {
		snprintf(name, sizeof(name), "job%ld[opt=O2,san=none]", i);
		bad += !wspx__statefile_lookup(st, name, d) ||
		    d[31] != (unsigned char)i || d[30] !=
		    (unsigned char)(i >> 8);
	}
	CHECK(bad == 0);
	CHECK(test_now() - t0 < 5.0);
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(stat(path, &after) == 0 && after.st_ino == before.st_ino);
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(record(st, "job7[opt=O2,san=none]", d) == 0);
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(lines(path) == 100001);
}


/* The digest of source path through st's stat cache (a new epoch each
 * time, as after a job), into sum. */
static void
cachedsum(struct wspx__state *st, const char *path, unsigned char sum[32])
{
	struct wspx__parts p = { NULL, 0, 0 };
	const char *pats[] = { path };
	char *missing;

	wspx__statefile_epoch(st);
	CHECK(wspx__uptodate_files(st, NULL, dfd, "", pats, 1, false, &p,
	    &missing) == 0 && missing == NULL && p.n == 1);
	memcpy(sum, p.v[0].sum, 32);
	wspx__uptodate_freeparts(&p);
}

/* The SHA-256 of the file at path, read. */
static void
readsum(const char *path, unsigned char sum[32])
{
	CHECK(wspx__sha256_file(dfd, path, sum) == 0);
}

/* Edits of the same size right after the file was hashed, so fast that
 * most land in the same tick of the file clock and leave its stat as it
 * was (the racy case): each must be seen.  How many left the stat as it
 * was is printed, so that a run where none did is told. */
static void
test_racy(void)
{
	unsigned char got[32], want[32];
	struct wspx__state *st;
	char path[PATH_MAX];
	struct stat a, b;
	int i, same = 0;

	statepath(path, sizeof(path), "racystate");
	CHECK(wspx__statefile_open(&st, path) == 0);
	for (i = 0; i < 200; i++) {
		put("racy.c", i % 2 == 0 ? "int x = 1;\n" : "int x = 2;\n");
		cachedsum(st, "racy.c", got);
		CHECK(fstatat(dfd, "racy.c", &a, 0) == 0);
		put("racy.c", i % 2 == 0 ? "int x = 2;\n" : "int x = 1;\n");
		CHECK(fstatat(dfd, "racy.c", &b, 0) == 0);
		same += a.st_mtim.tv_sec == b.st_mtim.tv_sec &&
		    a.st_mtim.tv_nsec == b.st_mtim.tv_nsec &&
		    a.st_ctim.tv_nsec == b.st_ctim.tv_nsec && a.st_ino ==
		    b.st_ino;
		cachedsum(st, "racy.c", got);
		readsum("racy.c", want);
		CHECK(memcmp(got, want, 32) == 0);
	}
	printf("# %d of 200 edits left the stat as it was\n", same);
	CHECK(wspx__statefile_close(st) == 0);
}

/* Whether the state file at path has a stat cache record of key. */
static bool
cached(const char *path, const char *key)
{
	char line[4096], *tab;
	bool found = false;
	FILE *f;

	CHECK((f = fopen(path, "r")) != NULL);
	while (fgets(line, sizeof(line), f) != NULL)
		if (line[0] == '@' && (tab = strrchr(line, '\t')) != NULL &&
		    strncmp(tab + 1, key, strlen(key)) == 0 &&
		    tab[1 + strlen(key)] == '\n')
			found = true;
	fclose(f);
	return found;
}

/* Set path's mtime to secs seconds from now, with ns nanoseconds (-1:
 * those of now). */
static void
settime(const char *path, int secs, long ns)
{
	struct timespec t[2];

	CHECK(clock_gettime(CLOCK_REALTIME, &t[0]) == 0);
	t[0].tv_sec += secs;
	if (ns >= 0)
		t[0].tv_nsec = ns;
	t[1] = t[0];
	CHECK(utimensat(dfd, path, t, 0) == 0);
}

/* Set path's mtime to age ns before now, rounded down to a multiple of
 * grain ns (1: none; then never a whole number of 10 ms). */
static void
setage(const char *path, int64_t age, int64_t grain)
{
	struct timespec t[2];
	int64_t when;

	CHECK(clock_gettime(CLOCK_REALTIME, &t[0]) == 0);
	when = (int64_t)t[0].tv_sec * WSPX_NS_PER_S + t[0].tv_nsec - age;
	when -= when % grain;
	if (grain == 1 && when % (WSPX_NS_PER_S / 100) == 0)
		when -= 1;
	t[0].tv_sec = (time_t)(when / WSPX_NS_PER_S);
	t[0].tv_nsec = (long)(when % WSPX_NS_PER_S);
	t[1] = t[0];
	CHECK(utimensat(dfd, path, t, 0) == 0);
}

/* The racy rule, whatever the kernel's clock: a file whose times are not
 * before the file clock when it was hashed by more than the file system's
 * granularity is hashed but not trusted: no record, read again next time.
 * Dated ahead; younger than a second with times that may be of a 1 s,
 * 2 s or 10 ms file system (a whole second, whole hundredths), which must
 * be 2 s old.  Half a second old with finer times is trusted on a local
 * file system (20 ms), not elsewhere (2 s).  60 s old is trusted.  (The
 * ages leave a second or more for the test's own delays.) */
static void
test_racyrule(void)
{
	const int64_t ms = WSPX_NS_PER_S / 1000;
	unsigned char got[32];
	struct wspx__state *st;
	char path[PATH_MAX];
	bool local = wspx__fsclock_local(dfd);

	statepath(path, sizeof(path), "rulestate");
	put("ahead.c", "a\n");
	put("recent.c", "r\n");
	put("whole.c", "w\n");
	put("tenms.c", "t\n");
	put("aged.c", "o\n");
	put("agedwhole.c", "x\n");
	settime("ahead.c", 3600, -1);
	setage("recent.c", 500 * ms, 1);
	setage("whole.c", 0, WSPX_NS_PER_S);
	setage("tenms.c", 300 * ms, 10 * ms);
	settime("aged.c", -60, 123456789);
	settime("agedwhole.c", -60, 0);
	CHECK(wspx__statefile_open(&st, path) == 0);
	cachedsum(st, "ahead.c", got);
	cachedsum(st, "recent.c", got);
	cachedsum(st, "whole.c", got);
	cachedsum(st, "tenms.c", got);
	cachedsum(st, "aged.c", got);
	cachedsum(st, "agedwhole.c", got);
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(!cached(path, "ahead.c"));
	CHECK(cached(path, "recent.c") == local);
	CHECK(!cached(path, "whole.c"));
	CHECK(!cached(path, "tenms.c"));
	CHECK(cached(path, "aged.c"));
	CHECK(cached(path, "agedwhole.c"));
}

/* Set path's mtime to secs seconds ago. */
static void
age(const char *path, int secs)
{
	struct timespec t[2];

	CHECK(clock_gettime(CLOCK_REALTIME, &t[0]) == 0);
	t[0].tv_sec -= secs;
	t[1] = t[0];
	CHECK(utimensat(dfd, path, t, 0) == 0);
}

/* A file hashed long after it was written is not read again while its
 * stat stays (the stat cache, saved in the state file), but is when the
 * stat changes: its content with its mtime put back (ctime), a file of
 * the same size and times moved over it (inode). */
static void
test_statcache(void)
{
	unsigned char got[32], want[32];
	struct wspx__state *st;
	char path[PATH_MAX];
	struct stat sb;
	struct timespec t[2];

	statepath(path, sizeof(path), "cachestate");
	put("old.c", "int old;\n");
	age("old.c", 60);
	CHECK(wspx__statefile_open(&st, path) == 0);
	cachedsum(st, "old.c", got);
	readsum("old.c", want);
	CHECK(memcmp(got, want, 32) == 0);
	CHECK(wspx__statefile_close(st) == 0);
	/* Trusted and saved: reopened, the cache answers without reading
	 * (a file unreadable now still has its sum). */
	CHECK(wspx__statefile_open(&st, path) == 0);
	CHECK(fchmodat(dfd, "old.c", 0, 0) == 0);
	if (geteuid() != 0) {
		cachedsum(st, "old.c", got);
		CHECK(memcmp(got, want, 32) == 0);
	}
	CHECK(fchmodat(dfd, "old.c", 0644, 0) == 0);
	/* The content changed, the mtime put back: ctime tells. */
	CHECK(fstatat(dfd, "old.c", &sb, 0) == 0);
	put("old.c", "int new;\n");
	t[0] = sb.st_atim;
	t[1] = sb.st_mtim;
	CHECK(utimensat(dfd, "old.c", t, 0) == 0);
	cachedsum(st, "old.c", got);
	readsum("old.c", want);
	CHECK(memcmp(got, want, 32) == 0);
	/* Another file, same size and times, moved over it. */
	put("other.c", "int odd;\n");
	CHECK(utimensat(dfd, "other.c", t, 0) == 0);
	CHECK(renameat(dfd, "other.c", dfd, "old.c") == 0);
	cachedsum(st, "old.c", got);
	readsum("old.c", want);
	CHECK(memcmp(got, want, 32) == 0);
	CHECK(wspx__statefile_close(st) == 0);
}

/* A file trusted and not yet saved, then hashed again racy, is not saved
 * with its racy stat by the next record: that would trust it. */
static void
test_racyunsaved(void)
{
	unsigned char got[32], d[32] = { 0 };
	struct wspx__state *st;
	char path[PATH_MAX];

	statepath(path, sizeof(path), "unsavedstate");
	put("flip.c", "one\n");
	settime("flip.c", -60, -1);
	CHECK(wspx__statefile_open(&st, path) == 0);
	cachedsum(st, "flip.c", got);
	put("flip.c", "two\n");
	settime("flip.c", 3600, -1);
	cachedsum(st, "flip.c", got);
	CHECK(record(st, "job", d) == 0);
	CHECK(!cached(path, "flip.c"));
	CHECK(wspx__statefile_close(st) == 0);
	CHECK(!cached(path, "flip.c"));
}

static void
state_tests(int argc, char **argv)
{
	long threads = test_arg(argc, argv, 1, 4);
	long n = test_arg(argc, argv, 2, 2000);

	if (threads > 64)
		threads = 64;
	TEST(test_roundtrip(), "state: record, look up, close, reopen");
	TEST(test_cutoff(), "state: a cut-off line is ignored");
	TEST(test_groups(), "state: a pattern's group is made once per "
	    "epoch, in any order");
	TEST(test_longlines(), "state: records longer than the read buffer, "
	    "one cut off; their parts read for --explain");
	TEST(test_refused(), "state: a file not ours is refused");
	TEST(test_threads(threads, n), "state: %ld threads record %ld "
	    "jobs each", threads, n);
	TEST(test_big(), "state: 100,000 jobs");
	TEST(test_racy(), "state: an edit in the tick after a hash is seen");
	TEST(test_racyrule(), "state: a file hashed less than 2 s after it "
	    "was written is not trusted");
	TEST(test_racyunsaved(), "state: a file trusted, then hashed again "
	    "racy, is not saved as trusted");
	TEST(test_statcache(), "state: the stat cache answers while the "
	    "stat stays, not after an edit or a rename over the file");
}

int
main(int argc, char **argv)
{
	struct wspx_pool_opts o = { 4 };
	char cmd[128];

	CHECK(mkdtemp(root) != NULL);
	dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(dfd >= 0);
	CHECK(wspx_pool_new(&pool, &o) == 0);
	TEST(test_changes(), "uptodate: the digest follows sources, "
	    "command and generated files");
	TEST(test_missing(), "uptodate: a missing generated file is named");
	TEST(test_sources(), "uptodate: a bad source is an error, named");
	TEST(test_parallel(), "uptodate: hashing on the pool is "
	    "deterministic");
	state_tests(argc, argv);
	wspx_pool_free(pool);
	close(dfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return test_done();
}
