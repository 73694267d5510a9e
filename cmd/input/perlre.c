/*
 * Perl's regular expressions, which GNU parallel's options take, as POSIX
 * extended expressions (see perlre.h): the escapes POSIX lacks are
 * rewritten, inside bracket expressions and out; the rest is read as it
 * is, which covers the separators people write.
 *
 * The C library compiles a repetition by copying what it repeats ({n,m}
 * m times, + twice), so that stacked and nested repetitions multiply:
 * a+++++++++++++++++++++++ or ((a{1,99}){1,99}){1,99} would take it
 * gigabytes and minutes, where Perl takes none.  Such an expression is
 * refused before it is compiled (see copies()).
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
 * * and ? one), at most PERLRE_MAXCOPIES + 1; *len is its length.  0 if
 * there is no repetition at p. */
static size_t
repeats(const char *p, size_t *len)
{
	size_t lo = 0, hi;
	bool bounded = true;
	char *end = (char *)p + 1;

	*len = 1;
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
	return !bounded ? lo + 1 : hi > 0 ? hi : 1;
}

/* The copies of its atoms (characters, brackets, groups) that the POSIX
 * extended expression re makes regcomp() build, at most
 * PERLRE_MAXCOPIES + 1: a group's are its atoms' and one, and a
 * repetition multiplies the copies of the atom before it.  sum[d] counts
 * those of the group open at depth d, last those of the atom just
 * read. */
static size_t
copies(const char *re)
{
	size_t *sum = calloc(strlen(re) + 1, sizeof(*sum));
	size_t d = 0, last = 0, len, k;
	const char *p;

	for (p = re; sum != NULL && *p != '\0'; p += len) {
		len = 1;
		if ((k = repeats(p, &len)) > 0) {
			k = capped((uint64_t)last * k);
			sum[d] = capped(sum[d] - last + k);
			last = k;
			continue;
		}
		if (*p == '(' || *p == '|') {
			if (*p == '(')
				sum[++d] = 0;
			last = 0;
			continue;
		}
		last = 1;
		if (*p == ')' && d > 0)
			last = capped(sum[d--] + 1);
		else if (*p == '[')
			len = (size_t)(bracketend(p) - p);
		else if (*p == '\\' && p[1] != '\0')
			len = 2;
		sum[d] = capped(sum[d] + last);
	}
	k = sum != NULL ? sum[0] : PERLRE_MAXCOPIES + 1;
	while (d > 0)	/* (unclosed: regcomp() says so) */
		k = capped(k + sum[d--]);
	free(sum);
	return k;
}

int
perlre_compile(regex_t *rx, const char *re, int flags, char *err, size_t n)
{
	char *posix = perlre_posix(re);
	int rc;

	if (copies(posix) > PERLRE_MAXCOPIES) {
		free(posix);
		if (n > 0)
			snprintf(err, n, "too complex: its repetitions would "
			    "make over %d copies of what they repeat",
			    PERLRE_MAXCOPIES);
		return REG_ESPACE;
	}
	rc = regcomp(rx, posix, flags);
	free(posix);
	if (rc != 0 && n > 0)
		regerror(rc, rx, err, n);
	return rc;
}
