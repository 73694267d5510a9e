/*
 * The executor's pure parts, against what GNU parallel 20221122 does and
 * what the formats say: the halt policy's forms and exit statuses, the
 * running median of --timeout N%, and the joblog's rows, written and read
 * back.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "halt.h"
#include "joblog.h"
#include "median.h"
#include "test.h"

static bool
parses(const char *s, enum wspx__halt_when when, enum wspx__halt_why why,
    uint64_t count, bool percent)
{
	struct wspx__halt h;

	return wspx__halt_parse(s, &h) == 0 && h.when == when &&
	    (when == WSPX_HALT_NEVER || (h.why == why && h.count == count &&
	    h.percent == percent));
}

static void
test_halt_forms(void)
{
	static const char *bad[] = { "", "sometimes", "now", "now,", "now,fail",
	    "now,fail=", "now,fail=0", "now,fail=x", "now,fail=101%",
	    "now,fail=1x", "now,oops=1", "soon,fail=-1", "3", "-3", "0%",
	    "now,fail=1%%" };
	struct wspx__halt h = { WSPX_HALT_SOON, WSPX_HALT_DONE, 7, false };
	size_t i;

	CHECK(parses("never", WSPX_HALT_NEVER, 0, 0, false));
	CHECK(parses("0", WSPX_HALT_NEVER, 0, 0, false));
	CHECK(parses("1", WSPX_HALT_SOON, WSPX_HALT_FAIL, 1, false));
	CHECK(parses("2", WSPX_HALT_NOW, WSPX_HALT_FAIL, 1, false));
	CHECK(parses("-1", WSPX_HALT_SOON, WSPX_HALT_SUCCESS, 1, false));
	CHECK(parses("-2", WSPX_HALT_NOW, WSPX_HALT_SUCCESS, 1, false));
	CHECK(parses("25%", WSPX_HALT_SOON, WSPX_HALT_FAIL, 25, true));
	CHECK(parses("now,fail=1", WSPX_HALT_NOW, WSPX_HALT_FAIL, 1, false));
	CHECK(parses("soon,success=3", WSPX_HALT_SOON, WSPX_HALT_SUCCESS, 3,
	    false));
	CHECK(parses("now,done=50%", WSPX_HALT_NOW, WSPX_HALT_DONE, 50,
	    true));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(wspx__halt_parse(bad[i], &h) == -EINVAL);
		CHECK(h.when == WSPX_HALT_SOON && h.count == 7);
	}
}

/* The statuses GNU parallel 20221122 exits with, for -j1 and the jobs
 * `exit 0`, `exit 3`, `exit 5`, `exit 0`, `exit 7` (measured). */
static void
test_halt_statuses(void)
{
	static const int codes[] = { 0, 3, 5, 0, 7 };
	static const struct {
		const char *policy;
		int status;
	} want[] = { { "now,fail=1", 3 }, { "soon,fail=2", 2 },
	    { "now,success=1", 0 }, { "soon,done=2", 1 }, { "now,done=1", 0 },
	    { "now,fail=50%", 60 }, { "soon,success=50%", 60 }, { "2", 3 } };
	struct wspx__halt h;
	struct wspx__halt_counts c;
	size_t i, k;
	int status;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		CHECK(wspx__halt_parse(want[i].policy, &h) == 0);
		memset(&c, 0, sizeof(c));
		c.total = 5;
		status = -1;
		for (k = 0; k < 5 && status < 0; k++) {
			if (codes[k] != 0)
				c.failed++;
			else
				c.succeeded++;
			if (wspx__halt_met(&h, &c))
				status = wspx__halt_status_met(&h, &c,
				    codes[k]);
		}
		if (status < 0)
			status = wspx__halt_status(&h, &c);
		if (status != want[i].status)
			fprintf(stderr, "# --halt %s: %d, not %d\n",
			    want[i].policy, status, want[i].status);
		CHECK(status == want[i].status);
	}
	/* a percentage waits for the total */
	CHECK(wspx__halt_parse("now,fail=10%", &h) == 0);
	c = (struct wspx__halt_counts){ 5, 0, 0 };
	CHECK(!wspx__halt_met(&h, &c));
	c.total = 50;
	CHECK(wspx__halt_met(&h, &c));
	c.total = 51;
	CHECK(!wspx__halt_met(&h, &c));
	CHECK(wspx__halt_status(&h, &c) == 10);	/* 5 of 51, rounded up */
}

static void
test_median(void)
{
	static struct wspx__median m;
	uint64_t v, got, i;

	wspx__median_init(&m);
	CHECK(wspx__median_get(&m) == 0);
	wspx__median_add(&m, 7);
	CHECK(wspx__median_get(&m) == 7);
	/* 1000 values 1..1000 ms in a scrambled order: about 500 ms */
	wspx__median_init(&m);
	for (i = 0; i < 1000; i++) {
		v = (i * 7919) % 1000 + 1;
		wspx__median_add(&m, v * 1000000);
	}
	got = wspx__median_get(&m);
	CHECK(got >= 485000000 && got <= 515000000);
	/* skewed: many short, a few long, then the long ones take over */
	wspx__median_init(&m);
	for (i = 0; i < 100; i++)
		wspx__median_add(&m, 1000);
	for (i = 0; i < 10; i++)
		wspx__median_add(&m, 1000000000000ull);
	got = wspx__median_get(&m);
	CHECK(got >= 970 && got <= 1030);
	for (i = 0; i < 200; i++)
		wspx__median_add(&m, 1000000000000ull);
	got = wspx__median_get(&m);
	CHECK(got >= 970000000000ull && got <= 1030000000000ull);
	/* every magnitude, up to the largest value */
	wspx__median_init(&m);
	wspx__median_add(&m, UINT64_MAX);
	CHECK(wspx__median_get(&m) >= UINT64_MAX / 100 * 97);
}

struct rows {
	int n;
	struct wspx__joblog_row r[4];
	char cmd[4][64];
	char host[4][8];
};

static int
keep(void *ctx, const struct wspx__joblog_row *row)
{
	struct rows *rs = ctx;

	if (rs->n == 4)
		return -E2BIG;
	rs->r[rs->n] = *row;
	snprintf(rs->cmd[rs->n], sizeof(rs->cmd[0]), "%s", row->command);
	snprintf(rs->host[rs->n], sizeof(rs->host[0]), "%s", row->host);
	rs->n++;
	return 0;
}

static void
writefile(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f == NULL)
		return;
	fputs(text, f);
	fclose(f);
}

static void
test_joblog(void)
{
	char path[] = "/tmp/wspx-joblog-XXXXXX";
	struct wspx__joblog *jl;
	struct wspx__joblog_row row = { 12, ":", 1795488737.2524, 0.0049, 0,
	    2, -1, 15, "echo 'a\tb'\nnext" };
	struct rows rs;
	char text[512];
	size_t line;
	FILE *f;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	CHECK(wspx__joblog_open(&jl, path, false) == 0);
	CHECK(wspx__joblog_write(jl, &row) == 0);
	CHECK(wspx__joblog_close(jl) == 0);
	/* appending adds rows, not a second header */
	CHECK(wspx__joblog_open(&jl, path, true) == 0);
	row.seq = 13;
	row.exitval = 0;
	row.signal = 0;
	row.command = "true";
	CHECK(wspx__joblog_write(jl, &row) == 0);
	CHECK(wspx__joblog_close(jl) == 0);
	f = fopen(path, "r");
	CHECK(f != NULL && fread(text, 1, sizeof(text), f) > 0);
	if (f != NULL)
		fclose(f);
	CHECK(strstr(text, "Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\t"
	    "Exitval\tSignal\tCommand\n12\t:\t1795488737.252\t     0.005\t0\t2"
	    "\t-1\t15\techo 'a\tb' next\n13\t:\t1795488737.252\t     0.005\t0"
	    "\t2\t0\t0\ttrue\n") == text);
	memset(&rs, 0, sizeof(rs));
	CHECK(wspx__joblog_read(path, keep, &rs, &line) == 0);
	CHECK(rs.n == 2 && line == 3);
	CHECK(rs.r[0].seq == 12 && rs.r[0].exitval == -1 &&
	    rs.r[0].signal == 15 && rs.r[0].receive == 2);
	CHECK(strcmp(rs.cmd[0], "echo 'a\tb' next") == 0);
	CHECK(strcmp(rs.host[0], ":") == 0);
	CHECK(rs.r[1].seq == 13 && strcmp(rs.cmd[1], "true") == 0);
	/* not a joblog: the line is named */
	writefile(path, "Seq\tHost\n");
	CHECK(wspx__joblog_read(path, keep, &rs, &line) == -EINVAL &&
	    line == 1);
	writefile(path, "Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\t"
	    "Exitval\tSignal\tCommand\n1\t:\t1.0\t 1.0\t0\t0\t0\t0\ttrue\n"
	    "2\t:\t1.0\t 1.0\t0\t0\tx\t0\ttrue\n");
	rs.n = 0;
	CHECK(wspx__joblog_read(path, keep, &rs, &line) == -EINVAL &&
	    line == 3 && rs.n == 1);
	/* none, or empty: no rows */
	writefile(path, "");
	CHECK(wspx__joblog_read(path, keep, &rs, &line) == 0 && line == 0);
	unlink(path);
	CHECK(wspx__joblog_read(path, keep, &rs, &line) == 0);
	CHECK(wspx__joblog_open(&jl, "/nonexistent/dir/log", false) ==
	    -ENOENT);
}

int
main(void)
{
	TEST(test_halt_forms(), "halt: GNU parallel's forms, and bad ones");
	TEST(test_halt_statuses(), "halt: exit statuses as GNU parallel's");
	TEST(test_median(), "median: within 3%%, as values come");
	TEST(test_joblog(), "joblog: rows written whole, appended, read back");
	return test_done();
}
