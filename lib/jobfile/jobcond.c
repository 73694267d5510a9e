/*
 * A job's `if` (see jobfile.h): success(), failure(), cancelled(),
 * always(), true and false, with !, && , || and parentheses, read into a
 * truth table of its two inputs (an ancestor failed; the run was
 * cancelled) by recursive descent, its nesting bounded so that a long
 * string of parentheses cannot overflow the stack.
 */
#include "jobfile_int.h"

#include <string.h>

#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

/* An `if` expression, read into its truth table (see jobfile.h). */
struct cond {
	const char *s;
	size_t i, n;
	bool status;		/* it calls a status function */
	int depth;
	bool deep;		/* nested deeper than 64 */
};

static void
skipblank(struct cond *c)
{
	while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' ||
	    c->s[c->i] == '\n'))
		c->i++;
}

static bool
eat(struct cond *c, const char *tok)
{
	size_t n = strlen(tok);

	skipblank(c);
	if (c->n - c->i < n || memcmp(c->s + c->i, tok, n) != 0)
		return false;
	c->i += n;
	return true;
}

static int condor(struct cond *c);

/* A primary: a status function, true, false, or ( expression ). */
static int
condprimary(struct cond *c)
{
	static const struct {
		const char *name;
		unsigned mask;
	} fn[] = { { "success()", WSPX__IF_SUCCESS }, { "failure()",
	    WSPX__IF_FAILURE }, { "cancelled()", WSPX__IF_CANCELLED },
	    { "always()", WSPX__IF_ALWAYS } };
	size_t i;
	int m;

	for (i = 0; i < NKEYS(fn); i++)
		if (eat(c, fn[i].name)) {
			c->status = true;
			return (int)fn[i].mask;
		}
	if (eat(c, "true"))
		return 0xff;
	if (eat(c, "false"))
		return 0;
	if (!eat(c, "("))
		return -1;
	if (++c->depth > 64) {
		c->deep = true;
		return -1;
	}
	m = condor(c);
	c->depth--;
	return m >= 0 && eat(c, ")") ? m : -1;
}

static int
condnot(struct cond *c)
{
	int m;

	if (!eat(c, "!"))
		return condprimary(c);
	if (++c->depth > 64) {
		c->deep = true;
		return -1;
	}
	m = condnot(c);
	c->depth--;
	return m < 0 ? -1 : ~m & 0xff;
}

static int
condand(struct cond *c)
{
	int a = condnot(c), b;

	while (a >= 0 && eat(c, "&&"))
		a = (b = condnot(c)) < 0 ? -1 : a & b;
	return a;
}

static int
condor(struct cond *c)
{
	int a = condand(c), b;

	while (a >= 0 && eat(c, "||"))
		a = (b = condand(c)) < 0 ? -1 : a | b;
	return a;
}

/* As in GitHub Actions, ${{ }} around it may be left out, and an
 * expression that calls no status function runs only on success. */
bool
wspx__jobfile_cond(const struct wspx__ynode *v, unsigned *mask, struct wspx__diag *d)
{
	struct cond c = { v->str, 0, v->len, false, 0, false };
	int m;

	if (v->kind != WSPX__YSCALAR)
		m = -1;
	else {
		skipblank(&c);
		if (eat(&c, "${{") && c.n >= 2 && memcmp(c.s + c.n - 2, "}}",
		    2) == 0)
			c.n -= 2;
		m = condor(&c);
		skipblank(&c);
	}
	if (c.deep) {
		wspx__diag_add(d, v->line, v->col, "if: parentheses and ! nest "
		    "deeper than 64");
		return false;
	}
	if (m < 0 || c.i != c.n) {
		wspx__diag_add(d, v->line, v->col, "if: '%.60s%s' is not a "
		    "condition wspx knows: success(), failure(), always(), "
		    "cancelled(), true and false, with !, && and ||", v->kind ==
		    WSPX__YSCALAR ? v->str : "...", v->kind == WSPX__YSCALAR &&
		    strlen(v->str) > 60 ? "..." : "");
		return false;
	}
	*mask = (unsigned)m & (c.status ? 0xffu : WSPX__IF_SUCCESS);
	return true;
}

