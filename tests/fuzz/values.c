/*
 * Fuzz target: the small value parsers, each a few lines and shared by
 * options and job files, so one target takes them all: the first byte
 * picks which, the rest is the value as typed.
 *
 *	0  durations (--timeout, --delay, a job file's timeout:)
 *	1  sizes (--block, --memfree), and their text read back
 *	2  --halt policies, and the statuses they give
 *
 * Besides the sanitizers, each checks what its header promises of a value
 * it accepts: a duration is a number of seconds from 0 to a day; a size's
 * text reads back to within a twentieth of its unit; a policy's count is
 * a percent from 1 to 100 when it is a percentage.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/duration.h"
#include "base/size.h"
#include "exec/halt.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
duration(const char *s)
{
	const char *why = NULL;
	double secs = -1;

	if (!wspx__duration_parse(s, &secs, &why)) {
		if (why == NULL)
			fz_fail("duration '%s' refused without a reason", s);
		return;
	}
	if (!(secs >= 0 && secs <= 86400))
		fz_fail("duration '%s' read as %g s", s, secs);
}

static void
sizes(const char *s)
{
	uint64_t bytes = 0, back = 0, unit = 1;
	char text[16];

	if (wspx__size_parse(s, &bytes) != 0)
		return;
	wspx__size_format(bytes, text, sizeof(text));
	if (wspx__size_parse(text, &back) != 0)
		fz_fail("size '%s' (%ju) written as '%s', which does not "
		    "read back", s, (uintmax_t)bytes, text);
	while (bytes / unit >= 1024 && unit <= UINT64_MAX / 1024)
		unit *= 1024;
	/* (+1: the fraction of a byte the reading drops) */
	if ((back > bytes ? back - bytes : bytes - back) > unit / 20 + 1)
		fz_fail("size '%s' (%ju) written as '%s', read back as %ju",
		    s, (uintmax_t)bytes, text, (uintmax_t)back);
}

static void
halt(const char *s, const uint8_t *counts, size_t n)
{
	struct wspx__halt h;
	struct wspx__halt_counts c = { 0, 0, 0 };
	int st;

	if (wspx__halt_parse(s, &h) != 0)
		return;
	if (h.percent && (h.count < 1 || h.count > 100))
		fz_fail("--halt '%s' read as %ju%%", s, (uintmax_t)h.count);
	/* the statuses, with counts from the input's last bytes */
	if (n >= 3) {
		c.failed = counts[0];
		c.succeeded = counts[1];
		c.total = counts[2];
	}
	/* (the run's counts: what has ended is part of all, once known) */
	if (c.total > 0 && c.total < c.failed + c.succeeded)
		c.total = c.failed + c.succeeded;
	if (h.when == WSPX_HALT_NEVER)
		return;
	st = wspx__halt_met(&h, &c) ? wspx__halt_status_met(&h, &c, 1) :
	    wspx__halt_status(&h, &c);
	if (st < 0 || st > 255)
		fz_fail("--halt '%s' gives exit status %d", s, st);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size < 1)
		return 0;
	s = fz_string(data + 1, size - 1);
	switch (data[0] % 3) {
	case 0: duration(s); break;
	case 1: sizes(s); break;
	case 2: halt(s, data + size - (size >= 4 ? 3 : 0), size - 1); break;
	}
	free(s);
	return 0;
}
