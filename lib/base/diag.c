/*
 * The errors of a job file (see diag.h).  Adding an error never fails, so
 * the readers that find them need no error path for their own reports: a
 * message that cannot be stored is counted as lost (nomem) and the caller
 * says so once.  The nearest-word search gives "did you mean" hints for
 * misspelt keys; it is Damerau-Levenshtein distance in its optimal string
 * alignment form (a transposition is one edit, and no substring is edited
 * twice), which is what typing mistakes need.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
wspx__diag_init(struct wspx__diag *d, const char *file)
{
	d->file = file;
	d->v = NULL;
	d->n = d->cap = 0;
	d->nomem = false;
}

void
wspx__diag_fini(struct wspx__diag *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->v[i].msg);
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}

/* A message that quotes a long value (a name of 10,000 bytes) cut to
 * its head and tail, which say what is wrong, with the middle counted. */
static void
cut(char *msg, size_t len)
{
	enum { HEAD = 300, TAIL = 200 };
	size_t head = HEAD, tail = len - TAIL;
	char mid[48];
	int n;

	if (len <= HEAD + TAIL + sizeof(mid))
		return;
	/* (at the starts of UTF-8 characters) */
	while (head > 0 && ((unsigned char)msg[head] & 0xc0) == 0x80)
		head--;
	while (((unsigned char)msg[tail] & 0xc0) == 0x80)
		tail++;
	n = snprintf(mid, sizeof(mid), " ...(%zu bytes)... ", tail - head);
	memcpy(msg + head, mid, (size_t)n);
	memmove(msg + head + n, msg + tail, len - tail + 1);
}

void
wspx__diag_add(struct wspx__diag *d, unsigned line, unsigned col,
    const char *fmt, ...)
{
	struct wspx__diagmsg *v;
	va_list ap;
	size_t cap;
	char *msg;
	int len;

	if (d->n == d->cap) {
		cap = d->cap != 0 ? d->cap * 2 : 8;
		if ((v = realloc(d->v, cap * sizeof(*v))) == NULL)
			goto fail;
		d->v = v;
		d->cap = cap;
	}
	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0 || (msg = malloc((size_t)len + 1)) == NULL)
		goto fail;
	va_start(ap, fmt);
	(void)vsnprintf(msg, (size_t)len + 1, fmt, ap);
	va_end(ap);
	cut(msg, (size_t)len);
	d->v[d->n].line = line;
	d->v[d->n].col = col;
	d->v[d->n].msg = msg;
	d->n++;
	return;
fail:
	d->nomem = true;
}

const char *
wspx__diag_quote(char *buf, size_t size, const char *s, size_t len)
{
	size_t i, o = 0;
	unsigned char c;

	for (i = 0; i < len && o + 8 < size; i++) {
		c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f)
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	if (i < len) {
		/* Cut at a character's start, not inside its UTF-8. */
		while (o > 0 && ((unsigned char)s[i] & 0xc0) == 0x80) {
			o--;
			i--;
		}
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

static bool
before(const struct wspx__diagmsg *a, const struct wspx__diagmsg *b)
{
	return a->line < b->line || (a->line == b->line && a->col < b->col);
}

/* Stable and in place, with no memory: the fallback of wspx__diag_sort.
 * Errors come mostly in file order, so it is near linear in practice. */
static void
insertionsort(struct wspx__diagmsg *v, size_t n)
{
	struct wspx__diagmsg t;
	size_t i, j;

	for (i = 1; i < n; i++) {
		t = v[i];
		for (j = i; j > 0 && before(&t, &v[j - 1]); j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

/* Merge the sorted runs a[lo..mid) and a[mid..hi) into b[lo..hi); ties
 * take the left run first, which keeps the sort stable. */
static void
merge(const struct wspx__diagmsg *a, struct wspx__diagmsg *b, size_t lo,
    size_t mid, size_t hi)
{
	size_t i = lo, j = mid, k = lo;

	while (i < mid && j < hi)
		b[k++] = before(&a[j], &a[i]) ? a[j++] : a[i++];
	while (i < mid)
		b[k++] = a[i++];
	while (j < hi)
		b[k++] = a[j++];
}

void
wspx__diag_sort(struct wspx__diag *d)
{
	struct wspx__diagmsg *a = d->v, *b, *t;
	size_t w, lo, mid, hi;

	if (d->n < 2)
		return;
	if ((b = malloc(d->n * sizeof(*b))) == NULL) {
		insertionsort(d->v, d->n);
		return;
	}
	/* Bottom-up merge sort, runs of w doubling, a and b swapping. */
	for (w = 1; w < d->n; w *= 2) {
		for (lo = 0; lo < d->n; lo += 2 * w) {
			mid = lo + w < d->n ? lo + w : d->n;
			hi = mid + w < d->n ? mid + w : d->n;
			merge(a, b, lo, mid, hi);
		}
		t = a;
		a = b;
		b = t;
	}
	if (a != d->v)
		memcpy(d->v, a, d->n * sizeof(*a));
	free(a != d->v ? a : b);
}

static size_t
min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

/* The optimal string alignment distance of a[0..m) and b[0..n), with the
 * rows r0 (two back), r1 (previous) and r2 (current) of n + 1 each. */
static size_t
distance(const char *a, size_t m, const char *b, size_t n, size_t *r0,
    size_t *r1, size_t *r2)
{
	size_t i, j, cost, *t;

	for (j = 0; j <= n; j++)
		r1[j] = j;
	for (i = 1; i <= m; i++) {
		r2[0] = i;
		for (j = 1; j <= n; j++) {
			cost = a[i - 1] != b[j - 1];
			r2[j] = min3(r1[j] + 1, r2[j - 1] + 1,
			    r1[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && r0[j - 2] + 1 < r2[j])
				r2[j] = r0[j - 2] + 1;
		}
		t = r0;
		r0 = r1;
		r1 = r2;
		r2 = t;
	}
	return r1[n];
}

const char *
wspx__diag_nearest(const char *word, const char *const *words, size_t n)
{
	size_t m = strlen(word), limit = m / 3 > 1 ? m / 3 : 1;
	size_t best = limit + 1, i, len, dist, *rows = NULL, cap = 0;
	const char *found = NULL;

	for (i = 0; i < n; i++) {
		len = strlen(words[i]);
		/* The lengths alone already bound the distance from below. */
		if ((len > m ? len - m : m - len) >= best)
			continue;
		if (len + 1 > cap) {
			free(rows);
			cap = len + 1;
			/* No memory: no hint, which is not an error. */
			if ((rows = malloc(3 * cap * sizeof(*rows))) == NULL)
				return NULL;
		}
		dist = distance(word, m, words[i], len, rows, rows + cap,
		    rows + 2 * cap);
		if (dist < best) {
			best = dist;
			found = words[i];
		}
	}
	free(rows);
	return found;
}
