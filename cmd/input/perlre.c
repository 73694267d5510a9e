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
 * overflows the stack; so do groups nested 20000 deep.  Such an
 * expression is refused before it is compiled (see cost()).
 */
#include "perlre.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The copies of the atom before it that the repetition at p makes
 * regcomp() build (glibc's parse_dup_op(): {n,m} m, {n,} n + 1, + two,
 * * and ? one), at most PERLRE_MAXCOPIES + 1; *len is its length, and
 * *optional whether some of those copies may match nothing.  0 if there
 * is no repetition at p. */
static size_t
repeats(const char *p, size_t *len, bool *optional)
{
	size_t lo = 0, hi;
	bool bounded = true;
	char *end = (char *)p + 1;

	*len = 1;
	*optional = true;
	if (*p == '*' || *p == '?' || *p == '+')
		return *p == '+' ? 2 : 1;
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
	*len = (size_t)(end + 1 - p);
	*optional = !bounded || hi > lo;
	return !bounded ? lo + 1 : hi > 0 ? hi : 1;
}

/* What an expression, a group or an atom costs regcomp(): its copies,
 * and how many of them may match nothing (each an empty path to the
 * next, which glibc's closure follows, in time and stack, for every
 * node of a chain of them). */
struct cost {
	size_t copies, optional;
	bool alt;		/* a group with '|': any branch may be empty */
};

static void
addcost(struct cost *to, const struct cost *c)
{
	to->copies = capped(to->copies + c->copies);
	to->optional = capped(to->optional + c->optional);
}

/* The atom a, repeated k times by a repetition, optional or not. */
static void
repeatcost(struct cost *a, size_t k, bool optional)
{
	a->optional = capped((uint64_t)(optional ? a->copies :
	    a->optional) * k);
	a->copies = capped((uint64_t)a->copies * k);
}

/* What the POSIX extended expression re costs regcomp(): a group's
 * copies are its atoms' and one, and a repetition multiplies those of
 * the atom before it; a group with '|', or empty, may match nothing.
 * sum[d] is the cost of the group open at depth d, last that of the atom
 * just read; *depth is the deepest nesting of groups. */
static struct cost
cost(const char *re, size_t *depth)
{
	struct cost *sum = calloc(strlen(re) + 1, sizeof(*sum)), last = { 0,
	    0, false }, all = { PERLRE_MAXCOPIES + 1, 0, false };
	size_t d = 0, len, k;
	bool optional;
	const char *p;

	for (*depth = 0, p = re; sum != NULL && *p != '\0'; p += len) {
		len = 1;
		if ((k = repeats(p, &len, &optional)) > 0) {
			sum[d].copies -= last.copies;
			sum[d].optional -= last.optional;
			repeatcost(&last, k, optional);
			addcost(&sum[d], &last);
			continue;
		}
		if (*p == '(' || *p == '|') {
			if (*p == '|')
				sum[d].alt = true;
			else if ((sum[++d] = (struct cost){ 0, 0, false },
			    d > *depth))
				*depth = d;
			last = (struct cost){ 0, 0, false };
			continue;
		}
		last = (struct cost){ 1, 0, false };
		if (*p == ')' && d > 0) {
			last.copies = capped(sum[d].copies + 1);
			last.optional = sum[d].alt || sum[d].copies == 0 ?
			    last.copies : sum[d].optional;
			d--;
		} else if (*p == '[') {
			len = (size_t)(bracketend(p) - p);
		} else if (*p == '\\' && p[1] != '\0') {
			len = 2;
		}
		addcost(&sum[d], &last);
	}
	if (sum != NULL)
		all = sum[0];
	while (sum != NULL && d > 0)	/* (unclosed: regcomp() says so) */
		addcost(&all, &sum[d--]);
	free(sum);
	return all;
}

int
perlre_compile(regex_t *rx, const char *re, int flags, char *err, size_t n)
{
	char *posix = perlre_posix(re);
	size_t depth;
	int rc;

	struct cost c = cost(posix, &depth);

	if (c.copies > PERLRE_MAXCOPIES || c.optional > PERLRE_MAXOPTIONAL ||
	    depth > PERLRE_MAXDEPTH) {
		free(posix);
		if (n > 0)
			snprintf(err, n, "too complex for the C library: %s",
			    depth > PERLRE_MAXDEPTH ? "groups nested over "
			    "1000 deep" : c.copies > PERLRE_MAXCOPIES ? "its "
			    "repetitions would make over 65536 copies of what "
			    "they repeat" : "its repetitions would make over "
			    "1000 copies that may match nothing");
		return REG_ESPACE;
	}
	rc = regcomp(rx, posix, flags);
	free(posix);
	if (rc != 0 && n > 0)
		regerror(rc, rx, err, n);
	return rc;
}
