/*
 * A job's command as a dry run and -v show it: with the variables the job
 * file sets for it (env:, NAME=value on the command line) written in as
 * the job will see them, as make -n shows $(CC) $(CFLAGS): `$CC $CFLAGS
 * -c add.c` is shown `cc -O2 -Wall -c add.c`.
 *
 * The shown line must still mean what the script means, piped to sh: a
 * reference is replaced only where sh expands it (not in '...', not
 * after a \, not in a comment) and only by a value that reads the same
 * there: in "..." one without $ ` " \ or a newline; unquoted, one of
 * plain words (letters, digits, and _ . / : = + , @ % ^ -) split by
 * single blanks, which sh splits into the same words.  Anything else
 * stays a reference.  From the first here-document on (whose quoting of
 * its delimiter decides whether it expands), nothing is replaced.
 */
#include "graphrun.h"

#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

bool
showvars_namechar(char c, bool first)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (!first && c >= '0' && c <= '9');
}

/* The value of name[0..n) among the settings (the last one wins), or
 * NULL. */
static const char *
lookup(char *const *set, size_t nset, const char *name, size_t n)
{
	const char *found = NULL;
	size_t i;

	for (i = 0; i < nset; i++)
		if (strncmp(set[i], name, n) == 0 && set[i][n] == '=')
			found = set[i] + n + 1;
	return found;
}

/* Whether v reads the same written in place of the reference. */
static bool
plain(const char *v, bool quoted)
{
	const char *p;

	if (quoted)
		return strpbrk(v, "$`\"\\\n") == NULL;
	if (*v == '\0' || *v == ' ')
		return false;
	for (p = v; *p != '\0'; p++)
		if (!(showvars_namechar(*p, false) || strchr("./:=+,@%^-", *p) != NULL ||
		    (*p == ' ' && p[1] != ' ' && p[1] != '\0')))
			return false;
	return true;
}

/* At p, a reference $NAME or ${NAME}: its name in *name, *n, and its
 * length; 0 if it is none. */
static size_t
reference(const char *p, const char **name, size_t *n)
{
	size_t k = 1;
	bool brace = p[1] == '{';

	k += brace;
	if (!showvars_namechar(p[k], true))
		return 0;
	*name = p + k;
	while (showvars_namechar(p[k], false))
		k++;
	*n = (size_t)(p + k - *name);
	if (brace && p[k] != '}')
		return 0;
	return k + brace;
}

char *
showvars(const char *text, char *const *set, size_t nset)
{
	struct buf b = { NULL, 0, 0 };
	const char *p = text, *name, *v;
	bool dq = false, sq = false, wordstart = true;
	size_t k, n;

	while (*p != '\0') {
		if (!sq && *p == '<' && p[1] == '<') {	/* see the top */
			bufadds(&b, p);
			break;
		}
		if (!sq && *p == '$' && (k = reference(p, &name, &n)) > 0 &&
		    (v = lookup(set, nset, name, n)) != NULL && plain(v, dq)) {
			bufadds(&b, v);
			p += k;
			wordstart = false;
			continue;
		}
		if (!sq && !dq && *p == '#' && wordstart) {	/* a comment */
			k = strcspn(p, "\n");
			bufadd(&b, p, k);
			p += k;
			continue;
		}
		if (!sq && *p == '\\' && p[1] != '\0') {
			bufadd(&b, p, 2);
			p += 2;
			wordstart = false;
			continue;
		}
		if (!dq && *p == '\'')
			sq = !sq;
		else if (!sq && *p == '"')
			dq = !dq;
		wordstart = !sq && !dq && strchr(" \t\n;&|()", *p) != NULL;
		bufaddc(&b, *p++);
	}
	return buftake(&b);
}
