/*
 * The joblog's rows, as GNU parallel 20221122 writes them: written whole,
 * appended, and read back.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/joblog.h"
#include "test.h"

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
	test_putfile(path, "Seq\tHost\n");
	CHECK(wspx__joblog_read(path, keep, &rs, &line) == -EINVAL &&
	    line == 1);
	test_putfile(path, "Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\t"
	    "Exitval\tSignal\tCommand\n1\t:\t1.0\t 1.0\t0\t0\t0\t0\ttrue\n"
	    "2\t:\t1.0\t 1.0\t0\t0\tx\t0\ttrue\n");
	rs.n = 0;
	CHECK(wspx__joblog_read(path, keep, &rs, &line) == -EINVAL &&
	    line == 3 && rs.n == 1);
	/* none, or empty: no rows */
	test_putfile(path, "");
	CHECK(wspx__joblog_read(path, keep, &rs, &line) == 0 && line == 0);
	unlink(path);
	CHECK(wspx__joblog_read(path, keep, &rs, &line) == 0);
	CHECK(wspx__joblog_open(&jl, "/nonexistent/dir/log", false) ==
	    -ENOENT);
}

int
main(void)
{
	TEST(test_joblog(), "joblog: rows written whole, appended, read back");
	return test_done();
}
