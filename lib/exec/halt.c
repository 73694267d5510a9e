/*
 * The halt policy (see halt.h), following GNU parallel 20221122: a count
 * is met when at least that many jobs ended that way, a percentage when at
 * least that share of all the jobs did; the exit status is then the
 * halting job's own with fail=1 or done=1, 0 with success, and otherwise
 * the number (or the percentage, rounded up) of the jobs that failed.
 */
#include "halt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Read "N" or "N%" (N 1..100 for a percentage, 1.. for a count). */
static int
readcount(const char *s, struct wspx__halt *h)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	h->percent = *end == '%';
	if (errno != 0 || v == 0 || end[h->percent] != '\0' ||
	    (h->percent && v > 100))
		return -EINVAL;
	h->count = v;
	return 0;
}

/* "soon,fail=1" and the like: when, a comma, why, '=', a count. */
static int
readlong(const char *s, struct wspx__halt *h)
{
	static const char *whys[] = { "fail=", "success=", "done=" };
	size_t i, n;

	if (strncmp(s, "soon,", 5) == 0)
		h->when = WSPX_HALT_SOON;
	else if (strncmp(s, "now,", 4) == 0)
		h->when = WSPX_HALT_NOW;
	else
		return -EINVAL;
	s = strchr(s, ',') + 1;
	for (i = 0; i < sizeof(whys) / sizeof(whys[0]); i++) {
		n = strlen(whys[i]);
		if (strncmp(s, whys[i], n) == 0) {
			h->why = (enum wspx__halt_why)i;
			return readcount(s + n, h);
		}
	}
	return -EINVAL;
}

int
wspx__halt_parse(const char *s, struct wspx__halt *out)
{
	static const struct {
		const char *old;
		struct wspx__halt h;
	} olds[] = {
		{ "never", { WSPX_HALT_NEVER, WSPX_HALT_FAIL, 0, false } },
		{ "0", { WSPX_HALT_NEVER, WSPX_HALT_FAIL, 0, false } },
		{ "1", { WSPX_HALT_SOON, WSPX_HALT_FAIL, 1, false } },
		{ "2", { WSPX_HALT_NOW, WSPX_HALT_FAIL, 1, false } },
		{ "-1", { WSPX_HALT_SOON, WSPX_HALT_SUCCESS, 1, false } },
		{ "-2", { WSPX_HALT_NOW, WSPX_HALT_SUCCESS, 1, false } },
	};
	struct wspx__halt h = { WSPX_HALT_SOON, WSPX_HALT_FAIL, 0, false };
	size_t i;
	int rc;

	for (i = 0; i < sizeof(olds) / sizeof(olds[0]); i++) {
		if (strcmp(s, olds[i].old) == 0) {
			*out = olds[i].h;
			return 0;
		}
	}
	/* "5%" is soon,fail=5% */
	if ((rc = (s[0] >= '0' && s[0] <= '9') ? readcount(s, &h) :
	    readlong(s, &h)) != 0 || (s[0] >= '0' && s[0] <= '9' &&
	    !h.percent))
		return -EINVAL;
	*out = h;
	return 0;
}

/* The jobs that count for h. */
static uint64_t
counted(const struct wspx__halt *h, const struct wspx__halt_counts *c)
{
	switch (h->why) {
	case WSPX_HALT_FAIL:	return c->failed;
	case WSPX_HALT_SUCCESS:	return c->succeeded;
	case WSPX_HALT_DONE:	break;
	}
	return c->failed + c->succeeded;
}

bool
wspx__halt_met(const struct wspx__halt *h, const struct wspx__halt_counts *c)
{
	uint64_t n = counted(h, c);

	if (h->when == WSPX_HALT_NEVER)
		return false;
	if (!h->percent)
		return n >= h->count;
	/* n >= total * count / 100, in integers */
	return c->total > 0 && n * 100 >= c->total * h->count;
}

int
wspx__halt_status(const struct wspx__halt *h,
    const struct wspx__halt_counts *c)
{
	uint64_t all = c->total > 0 ? c->total : c->failed + c->succeeded;

	if (h->percent)
		return all == 0 ? 0 : (int)((c->failed * 100 + all - 1) / all);
	return c->failed > 101 ? 101 : (int)c->failed;
}

int
wspx__halt_status_met(const struct wspx__halt *h,
    const struct wspx__halt_counts *c, int jobstatus)
{
	if (h->why == WSPX_HALT_SUCCESS)
		return 0;
	if (!h->percent && h->count == 1)
		return jobstatus;
	return wspx__halt_status(h, c);
}
