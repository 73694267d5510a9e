/*
 * Replacement strings by name (see replstr.h), read as GNU parallel
 * reads them: every name is a key; a key that starts with '{' has
 * positional forms, '{', a field number (negative counts from the end),
 * optional blanks, then the rest of the key ("{2}", "{-1/.}", "{1 .}");
 * renaming a string moves its key, positional forms and all, so with
 * "-I X" neither "{}" nor "{1}" is special any more.  Keys are tried
 * longest first, so that one that holds another wins ("ZZ" over "Z").
 *
 * A Perl expression, "{=" code "=}" or --parens' brackets, is found
 * before any key, as GNU parallel does.  One whose code is a position
 * alone ("{=2=}") is GNU parallel's positional form of an expression
 * that changes nothing: the argument itself, read here as {2}.
 */
#include "replstr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/util.h"

struct key {
	const char *s;
	size_t len;
	enum replmod mod;
};

struct replkeys {
	struct key key[RM_TOTAL + 1];
	size_t n;
	const char *left, *right;	/* a Perl expression's brackets */
	size_t nleft;
};

static const struct key defaults[] = {
	{ "{}", 2, RM_WHOLE }, { "{.}", 3, RM_NOEXT }, { "{/}", 3, RM_BASE },
	{ "{//}", 4, RM_DIR }, { "{/.}", 4, RM_BASENOEXT },
	{ "{#}", 3, RM_SEQ }, { "{%}", 3, RM_SLOT },
	/* (GNU parallel 20221122 reads {0#} and {0%} without --plus too) */
	{ "{0#}", 4, RM_SEQ0 }, { "{0%}", 4, RM_SLOT0 },
	{ "{+/}", 4, RM_PDIR }, { "{+.}", 4, RM_PEXT },
	{ "{+..}", 5, RM_PEXT2 }, { "{+...}", 6, RM_PEXT3 },
	{ "{..}", 4, RM_NOEXT2 }, { "{...}", 5, RM_NOEXT3 },
	{ "{/..}", 5, RM_BASENOEXT2 }, { "{/...}", 6, RM_BASENOEXT3 },
	{ "{##}", 4, RM_TOTAL }
};

/* Whether m, as a key starting with '{', has positional forms. */
static bool
positional(enum replmod m)
{
	return m != RM_SEQ && m != RM_SLOT && m != RM_SEQ0 &&
	    m != RM_SLOT0 && m != RM_TOTAL;
}

static int
longerfirst(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	return (x->len < y->len) - (x->len > y->len);
}

/* Give mod the key s, taking s from any other key that has it. */
static void
rename_key(struct replkeys *k, enum replmod mod, const char *s)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (k->key[i].mod != mod && strcmp(k->key[i].s, s) == 0)
			k->key[i].s = "";
	for (i = 0; i < k->n; i++)
		if (k->key[i].mod == mod)
			k->key[i].s = s;
}

static void
setparens(struct replkeys *k, const char *parens)
{
	size_t n = strlen(parens != NULL ? parens : "{==}");

	k->left = parens != NULL ? parens : "{==}";
	k->nleft = n / 2;
	k->right = k->left + k->nleft;
}

struct replkeys *
replkeys_new(const struct replnames *names, bool plus)
{
	/* (GNU parallel renames in this order: the later takes a name) */
	static const enum replmod order[] = { RM_WHOLE, RM_NOEXT, RM_BASE,
	    RM_DIR, RM_SEQ, RM_SLOT, RM_BASENOEXT };
	struct replkeys *k = xcalloc(1, sizeof(*k));
	size_t i, n = 0;

	for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
		if (plus || defaults[i].mod < RM_PDIR)
			k->key[n++] = defaults[i];
	k->n = n;
	for (i = 0; names != NULL && i < RM_RENAMED; i++)
		if (names->name[order[i]] != NULL)
			rename_key(k, order[i], names->name[order[i]]);
	for (i = n = 0; i < k->n; i++)
		if ((k->key[i].len = strlen(k->key[i].s)) > 0)
			k->key[n++] = k->key[i];
	k->n = n;
	qsort(k->key, k->n, sizeof(k->key[0]), longerfirst);
	setparens(k, names != NULL ? names->parens : NULL);
	return k;
}

void
replkeys_free(struct replkeys *k)
{
	free(k);
}

static bool
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Read a field number at *p ("2", "-1", "01"; none, or 0, is 0; more
 * digits than fit in 100000 are left unread) and the blanks after it,
 * moving *p past them. */
static size_t
fieldnumber(const char **p, bool *fromend)
{
	const char *q = *p;
	size_t field = 0;

	if ((*fromend = q[0] == '-' && q[1] >= '1' && q[1] <= '9'))
		q++;
	for (; *q >= '0' && *q <= '9' && field < 100000; q++)
		field = field * 10 + (size_t)(*q - '0');
	if (field == 0)
		return 0;
	while (blank(*q))
		q++;
	*p = q;
	return field;
}

/* The length of the Perl brackets around a position alone at p
 * ("{=2=}"), or 0. */
static size_t
perlposition(const struct replkeys *k, const char *p, struct replmatch *m)
{
	const char *q = p + k->nleft;

	if (strncmp(p, k->left, k->nleft) != 0 ||
	    (m->field = fieldnumber(&q, &m->fromend)) == 0 ||
	    strncmp(q, k->right, strlen(k->right)) != 0)
		return 0;
	m->mod = RM_WHOLE;
	return (size_t)(q - p) + strlen(k->right);
}

/* The length of key's match at p, positional or not, or 0. */
static size_t
matchkey(const struct key *key, const char *p, struct replmatch *m)
{
	const char *q = p + 1;

	m->field = 0;
	m->fromend = false;
	if (strncmp(p, key->s, key->len) == 0)
		return key->len;
	if (key->s[0] != '{' || p[0] != '{' || !positional(key->mod) ||
	    (m->field = fieldnumber(&q, &m->fromend)) == 0 ||
	    strncmp(q, key->s + 1, key->len - 1) != 0)
		return 0;
	return (size_t)(q - p) + key->len - 1;
}

size_t
replkeys_match(const struct replkeys *k, const char *p,
    struct replmatch *m)
{
	size_t i, len;

	if ((len = perlposition(k, p, m)) > 0)
		return len;
	for (i = 0; i < k->n; i++)
		if ((len = matchkey(&k->key[i], p, m)) > 0) {
			m->mod = k->key[i].mod;
			return len;
		}
	return 0;
}

size_t
replkeys_perl(const struct replkeys *k, const char *p)
{
	struct replmatch m;
	const char *end;

	if (strncmp(p, k->left, k->nleft) != 0 || perlposition(k, p, &m) > 0 ||
	    (end = strstr(p + k->nleft, k->right)) == NULL)
		return 0;
	return (size_t)(end - p) + strlen(k->right);
}

bool
replnames_maybe_in(const struct replnames *names, const char *s)
{
	size_t i, nleft;

	if (strchr(s, '{') != NULL)
		return true;
	for (i = 0; names != NULL && i < RM_RENAMED; i++)
		if (names->name[i] != NULL && strstr(s, names->name[i]) != NULL)
			return true;
	if (names == NULL || names->parens == NULL)
		return false;
	for (nleft = strlen(names->parens) / 2; *s != '\0'; s++)
		if (strncmp(s, names->parens, nleft) == 0)
			return true;
	return false;
}

/* If "{" name, one of the forms GNU parallel gives a named field, and
 * "}" start at p, return its length and point *form at the form. */
static size_t
namedfield(const char *p, const char *name, const char **form)
{
	static const char *const forms[] = { "", ".", "/", "//", "/." };
	size_t len = strlen(name), i, k;

	if (p[0] != '{' || len == 0 || strncmp(p + 1, name, len) != 0)
		return 0;
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		k = strlen(forms[i]);
		if (strncmp(p + 1 + len, forms[i], k) == 0 &&
		    p[1 + len + k] == '}') {
			*form = forms[i];
			return len + k + 2;
		}
	}
	return 0;
}

char *
replstr_colnames(const char *text, char *const *names, size_t n)
{
	struct buf b = { NULL, 0, 0 };
	char num[32];
	const char *form;
	size_t i, len;
	bool named = false;

	while (*text != '\0') {
		for (i = 0, len = 0; i < n && len == 0; i++)
			len = namedfield(text, names[i], &form);
		if (len == 0) {
			bufaddc(&b, *text++);
			continue;
		}
		/* (i went one past the name: the field's number) */
		snprintf(num, sizeof(num), "{%zu%s}", i, form);
		bufadds(&b, num);
		text += len;
		named = true;
	}
	if (!named) {
		free(b.s);
		return NULL;
	}
	bufaddc(&b, '\0');
	return b.s;
}
