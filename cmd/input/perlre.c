/*
 * Perl's regular expressions, which GNU parallel's options take, as POSIX
 * extended expressions (see perlre.h): the escapes POSIX lacks are
 * rewritten, inside bracket expressions and out; the rest is read as it
 * is, which covers the separators people write.
 *
 * The C library compiles a repetition by copying what it repeats ({n,m}
 * m times, + twice), so that stacked and nested repetitions multiply:
 * a+++++++++++++++++++++++ or ((a{1,99}){1,99}){1,99} would take it
 * gigabytes and minutes, where Perl takes none.  Copies that may match
 * nothing cost it more: its closure over them is quadratic in time and
 * recursive, so a{1,32767} takes a minute and 8 GB, and (a?){24000}
 * overflows the stack; so do groups nested 20000 deep.  And a loop over
 * what may match nothing, (a*)* or a**, doubles its time when the
 * expression has an anchor: ^(a*)*(a*)*... with 25 of them takes over a
 * minute.  Such an expression is refused before it is compiled (see
 * cost()).
 */
#include "perlre.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/trial.h"
#include "util/buf.h"

/* What the escape \e of Perl's regular expressions (GNU parallel's) that
 * POSIX lacks stands for, inside a bracket expression or out; NULL: keep
 * \e as it is (glibc knows \s \S \w \W; others are the character). */
static const char *
perlescape(char e, bool inbracket)
{
	switch (e) {
	case 't':	return "\t";
	case 'n':	return "\n";
	case 'r':	return "\r";
	case 'd':	return inbracket ? "0-9" : "[0-9]";
	case 'D':	return inbracket ? NULL : "[^0-9]";
	case 's':	return inbracket ? "[:space:]" : NULL;
	case 'w':	return inbracket ? "[:alnum:]_" : NULL;
	case '\\':	return inbracket ? "\\" : NULL;
	default:	return NULL;
	}
}

char *
perlre_posix(const char *re)
{
	struct buf b = { NULL, 0, 0 };
	const char *p, *with;
	bool in = false;	/* in a bracket expression */

	for (p = re; *p != '\0'; p++) {
		if (!in && *p == '[') {
			in = true;
			bufaddc(&b, *p);
			if (p[1] == '^')
				bufaddc(&b, *++p);
			if (p[1] == ']')	/* a ] first is a member */
				bufaddc(&b, *++p);
			continue;
		}
		if (in && *p == '[' && (p[1] == ':' || p[1] == '.' ||
		    p[1] == '=')) {	/* [:class:] and the like */
			with = strstr(p + 2, (char[]){ p[1], ']', '\0' });
			bufadd(&b, p, with != NULL ? (size_t)(with - p) + 2 :
			    strlen(p));
			p = with != NULL ? with + 1 : p + strlen(p) - 1;
			continue;
		}
		if (in && *p == ']')
			in = false;
		if (*p == '\\' && p[1] != '\0' &&
		    (with = perlescape(p[1], in)) != NULL) {
			bufadds(&b, with);
			p++;
			continue;
		}
		bufaddc(&b, *p);
		if (*p == '\\' && p[1] != '\0')
			bufaddc(&b, *++p);
	}
	return buftake(&b);
}

/* p past the bracket expression that starts at p[0] == '[' (or at its
 * end if it has no ']'), as POSIX reads one: a ']' first is a member, and
 * so is anything in [:class:], [.coll.] and [=equiv=]. */
static const char *
bracketend(const char *p)
{
	const char *with;

	p += p[1] == '^' ? 2 : 1;
	if (*p == ']')
		p++;
	for (; *p != '\0' && *p != ']'; p++)
		if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=') &&
		    (with = strstr(p + 2, (char[]){ p[1], ']', '\0' })) != NULL)
			p = with + 1;
	return *p == ']' ? p + 1 : p;
}

/* n, or PERLRE_MAXCOPIES + 1 if more: the counts below stay small
 * enough to multiply. */
static size_t
capped(uint64_t n)
{
	return n > PERLRE_MAXCOPIES ? PERLRE_MAXCOPIES + 1 : (size_t)n;
}

/* A repetition: the copies of the atom before it that it makes
 * regcomp() build (glibc's parse_dup_op(): {n,m} m, {n,} n + 1, + two,
 * * and ? one), at most PERLRE_MAXCOPIES + 1; whether some of those
 * copies may match nothing, whether it may match nothing however the atom
 * matches (*, ?, {0,m}), and whether it has no bound (*, +, {n,}). */
struct repeat {
	size_t copies;
	bool optional, none, unbounded;
};

/* The repetition at p into *r, and its length; 0 if there is none. */
static size_t
repeats(const char *p, struct repeat *r)
{
	size_t lo = 0, hi;
	bool bounded = true;
	char *end = (char *)p + 1;

	*r = (struct repeat){ *p == '+' ? 2 : 1, true, *p != '+', *p != '?' };
	if (*p == '*' || *p == '?' || *p == '+')
		return 1;
	if (*p != '{' || (!isdigit((unsigned char)p[1]) && p[1] != ','))
		return 0;
	if (isdigit((unsigned char)*end))
		lo = capped(strtoul(end, &end, 10));
	hi = lo;
	if (*end == ',' && (bounded = isdigit((unsigned char)end[1])))
		hi = capped(strtoul(end + 1, &end, 10));
	else if (*end == ',')
		end++;
	if (*end != '}')
		return 0;
	r->optional = !bounded || hi > lo;
	r->none = lo == 0;
	r->unbounded = !bounded;
	r->copies = !bounded ? lo + 1 : hi > 0 ? hi : 1;
	return (size_t)(end + 1 - p);
}

/* What an expression, a group or an atom costs regcomp(): its copies,
 * and how many of them may match nothing (each an empty path to the
 * next, which glibc's closure follows, in time and stack, for every
 * node of a chain of them). */
struct cost {
	size_t copies, optional;
	size_t loops;		/* unbounded repetitions of what may match
				 * nothing */
	size_t nest;		/* the deepest nesting of repetitions that
				 * may match nothing, as ((a?)?)? */
	size_t loopnest;	/* the most such nesting under a loop of
				 * what may match nothing, its copies
				 * counted */
	uint64_t fac;		/* the empty paths through it, if it may
				 * match nothing: its nesting, or its
				 * chain's (below), the larger */
	uint64_t chain;		/* the worst loop over what may match
				 * nothing, its nesting squared, times the
				 * empty paths that lead into it (see
				 * PERLRE_MAXCHAIN) */
	uint64_t run, tail;	/* of a group being read, and of one read:
				 * the empty paths through the atoms after
				 * the last that must match something */
	uint64_t altrun;	/* the most of run in a branch before */
	bool empty;		/* it may match nothing */
	bool anchored;		/* it has an atom that matches a place */
	bool alt;		/* a group with '|' */
	/* Of a group being read: */
	bool restempty;		/* its branch before the last atom may
				 * match nothing */
	bool emptybranch;	/* a branch before this one may */
	size_t restnest, restloopnest;	/* nest and loopnest before the
					 * last atom */
	uint64_t restrun, restchain;	/* run and chain before it */
};

/* a * b, at most PERLRE_MAXCHAIN + 1. */
static uint64_t
chained(uint64_t a, uint64_t b)
{
	return b != 0 && a > (PERLRE_MAXCHAIN + 1) / b ? PERLRE_MAXCHAIN + 1 :
	    a * b;
}

static uint64_t
larger(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* The atom c after to, what has been read of a group's branch. */
static void
addcost(struct cost *to, const struct cost *c)
{
	to->copies = capped(to->copies + c->copies);
	to->optional = capped(to->optional + c->optional);
	to->loops = capped(to->loops + c->loops);
	to->restnest = to->nest;
	to->restloopnest = to->loopnest;
	to->nest = to->nest > c->nest ? to->nest : c->nest;
	to->loopnest = to->loopnest > c->loopnest ? to->loopnest :
	    c->loopnest;
	to->restempty = to->empty;
	to->empty = to->empty && c->empty;
	to->anchored = to->anchored || c->anchored;
	/* the empty paths run so far lead into c's loops */
	to->restrun = to->run;
	to->restchain = to->chain;
	to->chain = larger(to->chain, chained(to->run, c->chain));
	to->run = c->empty ? chained(to->run, c->fac) : c->tail;
}

/* The atom a, repeated by r. */
static void
repeatcost(struct cost *a, const struct repeat *r)
{
	uint64_t inner = a->nest, through = a->fac;
	size_t i;

	/* (copies of what may match nothing, one after another: the empty
	 * paths through each multiply, as in a chain) */
	for (i = 1; a->empty && a->fac > 1 && i < r->copies &&
	    through <= PERLRE_MAXCHAIN; i++)
		through = chained(through, a->fac);
	a->optional = capped((uint64_t)(r->optional ? a->copies :
	    a->optional) * r->copies);
	a->loops = capped((uint64_t)a->loops * r->copies +
	    (r->unbounded && a->empty));
	a->nest = capped((uint64_t)a->nest + r->optional);
	a->loopnest = capped((uint64_t)(r->unbounded && a->empty &&
	    a->nest > a->loopnest ? a->nest : a->loopnest) * r->copies);
	/* (a loop's chain: its nesting squared, each copy) */
	a->chain = chained(a->chain, r->copies);
	if (r->unbounded && a->empty)
		a->chain = larger(a->chain, chained(chained(inner, inner),
		    r->copies));
	a->fac = larger(through, a->nest);
	/* (a loop ends in what may match nothing, a* of aa*: the empty
	 * paths after it are its copies) */
	if (r->unbounded)
		a->tail = chained(a->tail, r->copies);
	a->copies = capped((uint64_t)a->copies * r->copies);
	a->empty = a->empty || r->none;
}

/* A new group's cost, or a new branch's. */
static const struct cost nothing = { .empty = true, .restempty = true,
    .fac = 1, .run = 1, .tail = 1, .restrun = 1 };

/* Whether the atom at p (len bytes) matches nothing but a place: an
 * anchor, or glibc's \b \B \< \> \` \'. */
static bool
zerowidth(const char *p, size_t len)
{
	return (len == 1 && (*p == '^' || *p == '$')) ||
	    (len == 2 && *p == '\\' && strchr("bB<>`'", p[1]) != NULL);
}

/* The atom that the ')' at p ends: the group g, a copy of its branches
 * and one. */
static struct cost
groupcost(const struct cost *g)
{
	struct cost c = nothing;

	c.copies = capped(g->copies + 1);
	c.optional = g->alt || g->copies == 0 ? c.copies : g->optional;
	c.loops = g->loops;
	c.nest = g->nest;
	c.loopnest = g->loopnest;
	c.empty = g->empty || g->emptybranch;
	c.anchored = g->anchored;
	/* (a loop inside is taken as reached from the group's start) */
	c.chain = g->chain;
	c.fac = larger(larger(g->nest, g->run), g->altrun);
	c.tail = g->run;
	return c;
}

/* What the POSIX extended expression re costs regcomp(): a group's
 * copies are its atoms' and one, and a repetition multiplies those of
 * the atom before it; a group with '|', or empty, may match nothing.
 * sum[d] is the cost of the group open at depth d, last that of the atom
 * just read; *depth is the deepest nesting of groups, and *stray tells
 * of a ')' that closes no group. */
static struct cost
cost(const char *re, size_t *depth, bool *stray)
{
	struct cost *sum = calloc(strlen(re) + 1, sizeof(*sum)), last = nothing,
	    all = { .copies = PERLRE_MAXCOPIES + 1 };
	struct repeat r;
	size_t d = 0, len;
	const char *p;

	if (sum != NULL)
		sum[0] = nothing;
	*stray = false;
	for (*depth = 0, p = re; sum != NULL && *p != '\0'; p += len) {
		if ((len = repeats(p, &r)) > 0) {
			sum[d].copies -= last.copies;
			sum[d].optional -= last.optional;
			sum[d].loops -= last.loops;
			sum[d].nest = sum[d].restnest;
			sum[d].loopnest = sum[d].restloopnest;
			sum[d].run = sum[d].restrun;
			sum[d].chain = sum[d].restchain;
			sum[d].empty = sum[d].restempty;
			repeatcost(&last, &r);
			addcost(&sum[d], &last);
			continue;
		}
		len = 1;
		if (*p == '(' || *p == '|') {
			if (*p == '|') {
				sum[d].alt = true;
				sum[d].emptybranch = sum[d].emptybranch ||
				    sum[d].empty;
				sum[d].empty = true;
				sum[d].altrun = larger(sum[d].altrun,
				    sum[d].run);
				sum[d].run = 1;
			} else if ((sum[++d] = nothing, d > *depth))
				*depth = d;
			last = nothing;
			continue;
		}
		if (*p == '[')
			len = (size_t)(bracketend(p) - p);
		else if (*p == '\\' && p[1] != '\0')
			len = 2;
		last = (struct cost){ .copies = 1, .empty = zerowidth(p, len),
		    .anchored = zerowidth(p, len), .fac = 1, .run = 1,
		    .tail = 1, .restrun = 1 };
		if (*p == ')' && d > 0)
			last = groupcost(&sum[d--]);
		else if (*p == ')')
			*stray = true;
		addcost(&sum[d], &last);
	}
	if (sum != NULL)
		all = sum[0];
	while (sum != NULL && d > 0)	/* (unclosed: regcomp() says so) */
		addcost(&all, &sum[d--]);
	free(sum);
	return all;
}

/* Whether the chain of c (see PERLRE_MAXCHAIN) is too long, counted
 * twice for each loop over what may match nothing when c has an anchor
 * (see PERLRE_MAXANCHORCHAIN). */
static bool
chaintoolong(const struct cost *c)
{
	if (c->chain > PERLRE_MAXCHAIN)
		return true;
	/* (at most 20000 << 8: no overflow) */
	return c->anchored && c->loops <= PERLRE_MAXEMPTYLOOPS &&
	    (c->chain << c->loops) > PERLRE_MAXANCHORCHAIN;
}

/* Why an expression of cost c, its groups nested depth deep, is refused
 * (one of the bounds of perlre.h). */
static const char *
toocomplex(const struct cost *c, size_t depth)
{
	if (depth > PERLRE_MAXDEPTH)
		return "groups nested over 1000 deep";
	if (c->copies > PERLRE_MAXCOPIES)
		return "its repetitions would make over 65536 copies of what "
		    "they repeat";
	if (c->optional > PERLRE_MAXOPTIONAL)
		return "its repetitions would make over 1000 copies that may "
		    "match nothing";
	if (c->loopnest > PERLRE_MAXLOOPNEST)
		return "a loop over repetitions nested in each other that may "
		    "match nothing, such as ((a?)?)+, over 64 deep, copies "
		    "counted";
	if (c->chain > PERLRE_MAXCHAIN)
		return "repetitions nested in each other that may match "
		    "nothing, one after another, such as a??a??a??, before "
		    "a loop over such repetitions";
	if (c->loops <= PERLRE_MAXEMPTYLOOPS && chaintoolong(c))
		return "an anchor (^, $, \\b, ...) with repetitions nested "
		    "in each other that may match nothing, one after "
		    "another, such as a??a??a??, before loops over such "
		    "repetitions";
	return "over 8 unbounded repetitions (*, + or {n,}) of what may "
	    "match nothing, such as (a*)* or a**";
}

/* The decimal digits of a number macro n, as a string literal. */
#define DECIMAL(n) DIGITS(n)
#define DIGITS(n) #n

/* What a trial compiles (see trial()). */
struct trialre {
	const char *re;
	int flags;
};

static void
compileonly(void *arg)
{
	const struct trialre *t = arg;
	regex_t rx;

	(void)regcomp(&rx, t->re, t->flags);
}

/* Whether an expression of cost c, its groups nested depth deep, has
 * what may make regcomp() slow in ways no bound of cost() foretells:
 * repetitions nested in each other, a loop over what may match nothing
 * with more than a few copies, many copies, deep groups.  A random search
 * of the shapes the bounds let by found 154 that took regcomp() over 10
 * ms (31 over a second), each of them with one of these; a separator such
 * as \s+, \s*;\s* or (a|b)*c has none. */
static bool
mayslow(const struct cost *c, size_t depth)
{
	return c->nest > 1 || c->loopnest > 1 || c->optional > 64 ||
	    c->copies > 1024 || depth > 64 || (c->loops > 0 && c->copies > 16);
}

/* Why the POSIX expression re, of cost c and its groups nested depth
 * deep, is refused after a trial, or NULL.  One that mayslow() is first
 * compiled in a child process, which may take PERLRE_TRIALCPU seconds of
 * CPU time; the others, and one tried where no trial can be made (no
 * child), go on.  (The child costs a fork: 3 ms on a virtual machine.)
 * Only while wspx has one thread (see wspx__trial()): when the options
 * are read, and when --pipe's records are set up, before any thread. */
static const char *
trial(const struct cost *c, size_t depth, const char *re, int flags)
{
	struct trialre t = { re, flags };
	enum wspx_trial how;

	if (!mayslow(c, depth) ||
	    wspx__trial(compileonly, &t, PERLRE_TRIALCPU, &how) != 0)
		return NULL;
	switch (how) {
	case WSPX_TRIAL_OVERTIME:
		return "compiling it took over " DECIMAL(PERLRE_TRIALCPU)
		    " s of CPU time";
	case WSPX_TRIAL_FAILED:
		return "compiling it crashed, or was killed";
	default:
		return NULL;
	}
}

/* The POSIX expression posix against the bounds of perlre.h: 0, or the
 * error of perlre_compile() with its text in err; its cost in *c and
 * its depth of groups in *depth. */
static int
withinbounds(const char *posix, struct cost *c, size_t *depth, char *err,
    size_t n)
{
	bool stray;

	*c = cost(posix, depth, &stray);
	/* (glibc takes it as the character, Perl refuses it; and put in a
	 * group, as --recend and --recstart are, it would close that) */
	if (stray) {
		if (n > 0)
			snprintf(err, n, "unmatched ) (write \\) for the "
			    "character)");
		return REG_EPAREN;
	}
	if (c->copies > PERLRE_MAXCOPIES || c->optional > PERLRE_MAXOPTIONAL ||
	    c->loops > PERLRE_MAXEMPTYLOOPS || *depth > PERLRE_MAXDEPTH ||
	    c->loopnest > PERLRE_MAXLOOPNEST || chaintoolong(c)) {
		if (n > 0)
			snprintf(err, n, "too complex for the C library: %s",
			    toocomplex(c, *depth));
		return REG_ESPACE;
	}
	return 0;
}

int
perlre_bounds(const char *re, char *err, size_t n)
{
	char *posix = perlre_posix(re);
	struct cost c;
	size_t depth;
	int rc = withinbounds(posix, &c, &depth, err, n);

	free(posix);
	return rc;
}

int
perlre_compile(regex_t *rx, const char *re, int flags, char *err, size_t n)
{
	char *posix = perlre_posix(re);
	const char *why;
	struct cost c;
	size_t depth;
	int rc;

	if ((rc = withinbounds(posix, &c, &depth, err, n)) != 0) {
		free(posix);
		return rc;
	}
	if ((why = trial(&c, depth, posix, flags)) != NULL) {
		free(posix);
		if (n > 0)
			snprintf(err, n, "too complex for the C library: %s",
			    why);
		return REG_ESPACE;
	}
	rc = regcomp(rx, posix, flags);
	free(posix);
	if (rc != 0 && n > 0)
		regerror(rc, rx, err, n);
	return rc;
}
