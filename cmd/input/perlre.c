/*
 * Perl's regular expressions, which GNU parallel's options take, as POSIX
 * extended expressions (see perlre.h): the escapes POSIX lacks are
 * rewritten, inside bracket expressions and out; the rest is read as it
 * is, which covers the separators people write.
 */
#include "perlre.h"

#include <stdbool.h>
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

int
perlre_compile(regex_t *rx, const char *re, int flags, char *err, size_t n)
{
	char *posix = perlre_posix(re);
	int rc = regcomp(rx, posix, flags);

	free(posix);
	if (rc != 0 && n > 0)
		regerror(rc, rx, err, n);
	return rc;
}
