/*
 * The size of a job file's jobs once expanded (see jobfile_int.h).
 *
 * Aliases and matrices let a few hundred bytes name tens of thousands of
 * legs, each with thousands of expressions, environment entries or bytes
 * of script, which a run, a dry run or the fuzz target makes again for
 * each leg: work out of all proportion to the file.  So a file is weighed
 * before anything is made, in units of what making a leg's command costs:
 * a leg LEG_COST; each use of an expression in it USE_COST, and 1 more for
 * each VALUE_BYTES bytes of the longest value its matrix key takes in the
 * job's legs (a dry run shows the value in its place); 1 for each
 * TEXT_BYTES bytes of its run, dir, with, sources and generates (each leg
 * scans its script); each entry of its environment 1, and 1 for each
 * ENV_BYTES bytes of it.  A file may weigh WSPX__SIZE_BASE plus twice its
 * length in bytes: a file that writes its jobs out (a generated build of
 * 100,000 jobs) weighs less than it is long, and only an expansion far
 * larger than the file is refused.  The weights follow the costs measured
 * in the fuzz target under the sanitizers (tests/fuzz/README.md), where a
 * unit is about 10 us.
 *
 * A job's legs share its strings: each job is weighed once, its
 * expressions found once and its matrix values' lengths read once a leg.
 */
#include "jobfile_int.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LEG_COST	10u
#define USE_COST	2u
#define VALUE_BYTES	16u
#define TEXT_BYTES	16u
#define ENV_BYTES	64u

/* The matrix keys of a job's legs, each with its longest value. */
struct keylens {
	const char **keys;
	size_t *max;
	size_t n;
};

/* The longest value of each key of the legs [first, end) into kl.
 * -ENOMEM or 0. */
static int
longest(const struct wspx__jfjob *first, const struct wspx__jfjob *end,
    struct keylens *kl)
{
	const struct wspx__jfjob *l;
	size_t i, k, len, room = 1;

	/* (room for every key of every leg: a key that only some legs
	 * have, from include:, is one more) */
	for (l = first; l < end; l++)
		room += l->nmatrix;
	kl->n = 0;
	kl->keys = calloc(room, sizeof(*kl->keys));
	kl->max = calloc(room, sizeof(*kl->max));
	if (kl->keys == NULL || kl->max == NULL)
		return -ENOMEM;
	for (l = first; l < end; l++)
		for (i = 0; i < l->nmatrix; i++) {
			for (k = 0; k < kl->n && strcmp(kl->keys[k],
			    l->mkeys[i]) != 0; k++)
				;
			if (k == kl->n)
				kl->keys[kl->n++] = l->mkeys[i];
			len = strlen(l->mvals[i]);
			if (len > kl->max[k])
				kl->max[k] = len;
		}
	return 0;
}

/* The weight of the expressions of the scalar v in one leg. */
static uint64_t
scalarweight(const struct wspx__ynode *v, const struct keylens *kl)
{
	struct wspx__jfexpr e;
	uint64_t w = 0;
	size_t pos = 0, k;
	int r;

	/* (one that is malformed, an error already, weighs as any) */
	while ((r = wspx__jobfile_next(v->str, v->len, &pos, &e)) != 0) {
		pos = e.end;
		w += USE_COST;
		if (r < 0 || !e.matrix)
			continue;
		for (k = 0; k < kl->n; k++)
			if (strlen(kl->keys[k]) == e.keylen &&
			    memcmp(kl->keys[k], e.key, e.keylen) == 0)
				w += kl->max[k] / VALUE_BYTES;
	}
	return w;
}

/* A leg's weight so far, and the longest values of its keys. */
struct legctx {
	const struct keylens *kl;
	uint64_t w;
};

/* Add the weight of the string v of a leg (of the env: entry env, or
 * NULL). */
static void
stringweight(void *arg, const struct wspx__ynode *v,
    const struct wspx__jfenv *env)
{
	struct legctx *c = arg;

	if (env != NULL)
		c->w += 1 + (strlen(env->name) + v->len) / ENV_BYTES;
	else
		c->w += v->len / TEXT_BYTES;
	c->w += scalarweight(v, c->kl);
}

/* The weight of one leg of the job whose legs are [first, end). */
static int
legweight(const struct wspx__jfjob *first, const struct wspx__jfjob *end,
    uint64_t *w)
{
	struct keylens kl = { NULL, NULL, 0 };
	struct legctx c = { &kl, LEG_COST };
	int rc;

	if ((rc = longest(first, end, &kl)) == 0) {
		wspx__jobfile_strings(first, stringweight, &c);
		*w = c.w;
	}
	free(kl.keys);
	free(kl.max);
	return rc;
}

int
wspx__jobsize_check(const struct wspx__jobfile *jf, size_t filesize,
    struct wspx__diag *d)
{
	const struct wspx__jfjob *first, *end, *stop;
	uint64_t total = 0, limit = WSPX__SIZE_BASE + 2 * (uint64_t)filesize;
	uint64_t w;
	int rc;

	/* (a file whose jobs were all refused has none, and no array) */
	if (jf->njobs == 0)
		return 0;
	stop = jf->jobs + jf->njobs;
	for (first = jf->jobs; first < stop; first = end) {
		for (end = first + 1; end < stop && end->key == first->key;
		    end++)
			;
		if ((rc = legweight(first, end, &w)) != 0)
			return rc;
		/* (w is below 2^46, weighing every byte of 64 MiB many times
		 * for each use, and legs at most 4096: no overflow) */
		total += w * (uint64_t)(end - first);
		if (total <= limit)
			continue;
		wspx__diag_add(d, first->key->line, first->key->col, "job "
		    "'%s' (%zu legs of weight %llu) brings the file's "
		    "expanded weight to %llu, past the %llu that a file of "
		    "%zu bytes may have: see Limits in wspx(5)",
		    first->key->str, (size_t)(end - first),
		    (unsigned long long)w, (unsigned long long)total,
		    (unsigned long long)limit, filesize);
		return -EINVAL;
	}
	return 0;
}
