/*
 * Finding the ${{ expressions }} of a job file's strings (see jobfile.h).
 * wspx knows two: matrix.KEY, a value of the job's matrix leg, and
 * needs.JOB.outputs.KEY, an output of a job it needs.  Anything else
 * between ${{ and }} is an error, not text: a misspelt expression left in
 * a command would run as shell code.  And the strings of a job that may
 * hold them, for the checks and the weight (jobcheck.c, jobsize.c).
 */
#include "jobfile_int.h"

#include <string.h>

static bool
keychar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' &&
	    c <= '9') || c == '_' || c == '-';
}

/* The length of the key at s[0..n). */
static size_t
keylen(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && keychar(s[i]))
		i++;
	return i;
}

/* Read the inside of an expression, s[0..n) without blanks around it. */
static bool
inside(const char *s, size_t n, struct wspx__jfexpr *e)
{
	static const char out[] = ".outputs.";
	size_t i;

	if (n > 7 && memcmp(s, "matrix.", 7) == 0) {
		e->matrix = true;
		e->key = s + 7;
		e->keylen = n - 7;
		return e->keylen > 0 && keylen(e->key, e->keylen) == e->keylen;
	}
	if (n <= 6 || memcmp(s, "needs.", 6) != 0)
		return false;
	e->matrix = false;
	e->job = s + 6;
	for (i = 6; i + sizeof(out) - 1 < n && memcmp(s + i, out,
	    sizeof(out) - 1) != 0; i++)
		;
	if (i + sizeof(out) - 1 >= n || i == 6)
		return false;
	e->joblen = i - 6;
	e->key = s + i + sizeof(out) - 1;
	e->keylen = n - i - (sizeof(out) - 1);
	return keylen(e->key, e->keylen) == e->keylen;
}

int
wspx__jobfile_next(const char *s, size_t n, size_t *pos,
    struct wspx__jfexpr *e)
{
	size_t i, a, b;

	for (i = *pos; i + 3 <= n && memcmp(s + i, "${{", 3) != 0; i++)
		;
	if (i + 3 > n) {
		*pos = n;
		return 0;
	}
	e->start = i;
	for (b = i + 3; b + 2 <= n && memcmp(s + b, "}}", 2) != 0; b++)
		;
	e->end = b + 2 <= n ? b + 2 : n;
	*pos = i;
	if (b + 2 > n)
		return -1;
	for (a = i + 3; a < b && (s[a] == ' ' || s[a] == '\t'); a++)
		;
	while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
		b--;
	if (!inside(s + a, b - a, e))
		return -1;
	*pos = e->end;
	return 1;
}

/* fn on each scalar of v: v itself, or the scalars of a list, or of a
 * mapping and of the lists that are its values (with: holds scalars and
 * lists of them; nothing deeper holds expressions). */
static void
eachscalar(const struct wspx__ynode *v, wspx__jfstring_fn *fn, void *arg,
    const struct wspx__jfenv *env)
{
	size_t i;

	if (v == NULL)
		return;
	if (v->kind == WSPX__YSCALAR) {
		fn(arg, v, env);
		return;
	}
	for (i = 0; i < (v->kind == WSPX__YMAP ? 2 * v->n : v->n); i++)
		if (v->items[i]->kind == WSPX__YSCALAR)
			fn(arg, v->items[i], env);
		else if (v->kind == WSPX__YMAP)
			eachscalar(v->items[i], fn, arg, env);
}

void
wspx__jobfile_strings(const struct wspx__jfjob *j, wspx__jfstring_fn *fn,
    void *arg)
{
	size_t k;

	eachscalar(j->run, fn, arg, NULL);
	eachscalar(j->dir, fn, arg, NULL);
	eachscalar(j->with, fn, arg, NULL);
	eachscalar(j->sources, fn, arg, NULL);
	eachscalar(j->generates, fn, arg, NULL);
	for (k = 0; k < j->nenv; k++)
		fn(arg, j->env[k].value, &j->env[k]);
}
