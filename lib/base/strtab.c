/*
 * The string table (see strtab.h).  It is kept at most half full, so a
 * probe ends soon at a free slot; it doubles when an add would pass half,
 * and never shrinks, as the reader's tables live only while it reads.
 */
#include "strtab.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a: keys are short, and the file is the user's own. */
static size_t
hashstr(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return (size_t)(h ^ h >> 29);
}

/* The entry holding s, or the free slot where it would go. */
static struct wspx__strtab_entry *
find(struct wspx__strtab_entry *v, size_t cap, const char *s, size_t len,
    size_t h)
{
	size_t i;

	for (i = h & (cap - 1); v[i].s != NULL; i = (i + 1) & (cap - 1))
		if (v[i].hash == h && v[i].len == len &&
		    memcmp(v[i].s, s, len) == 0)
			break;
	return &v[i];
}

/* Room for one more entry in t.  Returns 0 or -ENOMEM. */
static int
reserve(struct wspx__strtab *t)
{
	size_t cap = t->cap != 0 ? t->cap * 2 : 16, i;
	struct wspx__strtab_entry *v;

	if ((t->n + 1) * 2 <= t->cap)
		return 0;
	if ((v = calloc(cap, sizeof(*v))) == NULL)
		return -ENOMEM;
	for (i = 0; i < t->cap; i++)
		if (t->v[i].s != NULL)
			*find(v, cap, t->v[i].s, t->v[i].len, t->v[i].hash) =
			    t->v[i];
	free(t->v);
	t->v = v;
	t->cap = cap;
	return 0;
}

int
wspx__strtab_put(struct wspx__strtab *t, const char *s, size_t len,
    struct wspx__strtab_entry **out)
{
	size_t h = hashstr(s, len);
	struct wspx__strtab_entry *e;

	if (reserve(t) != 0)
		return -ENOMEM;
	e = find(t->v, t->cap, s, len, h);
	if (e->s == NULL) {
		*e = (struct wspx__strtab_entry){ .s = s, .len = len,
		    .hash = h };
		t->n++;
	}
	*out = e;
	return 0;
}

struct wspx__strtab_entry *
wspx__strtab_get(const struct wspx__strtab *t, const char *s, size_t len)
{
	struct wspx__strtab_entry *e;

	if (t->cap == 0)
		return NULL;
	e = find(t->v, t->cap, s, len, hashstr(s, len));
	return e->s != NULL ? e : NULL;
}

void
wspx__strtab_fini(struct wspx__strtab *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
	t->cap = 0;
}
