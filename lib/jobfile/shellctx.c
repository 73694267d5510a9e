/*
 * The places of a command's ${{ }} expressions in its shell's syntax (see
 * shellctx.h).  One pass over the command with a stack of what it is in:
 * quotes, $(...), `...`, ${...}, arithmetic, a comment, a here-document's
 * text; the here-documents of a line are read at its newline, as the
 * shells read them.  Each language steps through its own syntax; the
 * rest (expressions, edits, here-documents) is shared.
 */
#include "shellctx.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile.h"

#define MAXDEPTH 64
#define MAXPENDING 16

enum state {
	ST_CMD,			/* where commands are */
	ST_CMDSUB,		/* $(...), or fish's (...) */
	ST_BQ,			/* `...` */
	ST_DQ,			/* "..." */
	ST_SQ,			/* '...' */
	ST_ANSIC,		/* bash's $'...' */
	ST_PARAM,		/* ${...} */
	ST_ARITH,		/* $((...)), ((...)) */
	ST_SUBSCRIPT,		/* a[...], ${a[...]}, $[...] */
	ST_COMMENT,		/* # to the end of the line */
	ST_HEREDOC		/* a here-document's text that expands */
};

/* In ${...}: still the name, past an operator (a word follows), or past
 * a colon that starts an offset (arithmetic). */
enum param { P_NAME, P_WORD, P_OFFSET };

struct frame {
	enum state st;
	unsigned depth;		/* parentheses or brackets inside */
	enum param param;
};

struct heredoc {
	size_t wstart, wend;	/* the delimiter as written */
	char *delim;		/* and without its quotes */
	size_t dlen;
	bool quoted, dash;
};

struct scanner {
	const char *s;
	size_t n;
	enum wspx__shlang lang;
	struct frame f[MAXDEPTH];
	size_t sp;
	struct heredoc pend[MAXPENDING];
	size_t npend;
	size_t xstart, xend;	/* the next expression, xstart == n if none */
	struct wspx__shscan *out;
	size_t cap;
	size_t lim;		/* where the text being scanned ends: the
				 * command's, or that of the here-document
				 * whose text holds it (a here-document
				 * opened in $(...) there ends with it, as
				 * the shell reads it when it expands) */
};

#define FAIL ((size_t)-1)

static size_t
fail(struct scanner *sc, size_t at, const char *why)
{
	if (sc->out->err == NULL) {
		sc->out->err = why;
		sc->out->erroff = at;
	}
	return FAIL;
}

/* Find the first expression at or after from. */
static void
nextexpr(struct scanner *sc, size_t from)
{
	struct wspx__jfexpr e;
	size_t pos = from;

	/* (a malformed one is the checks' to report; here it is a span) */
	if (from >= sc->n || wspx__jobfile_next(sc->s, sc->n, &pos, &e) == 0) {
		sc->xstart = sc->xend = sc->n;
		return;
	}
	sc->xstart = e.start;
	sc->xend = e.end;
}

static bool
edit(struct scanner *sc, enum wspx__shedit_kind kind, enum wspx__shctx ctx,
    size_t start, size_t end)
{
	struct wspx__shscan *o = sc->out;
	struct wspx__shedit *p;

	if (o->n == sc->cap) {
		sc->cap = sc->cap > 0 ? 2 * sc->cap : 8;
		if ((p = realloc(o->edits, sc->cap * sizeof(*p))) == NULL) {
			(void)fail(sc, start, "out of memory");
			return false;
		}
		o->edits = p;
	}
	p = &o->edits[o->n++];
	p->kind = kind;
	p->ctx = ctx;
	p->start = start;
	p->end = end;
	return true;
}

static struct frame *
top(struct scanner *sc)
{
	return &sc->f[sc->sp - 1];
}

static size_t
push(struct scanner *sc, enum state st, size_t next)
{
	/* (deeper than any command needs: refused only with an
	 * expression still to come) */
	if (sc->sp == MAXDEPTH)
		return sc->xstart == sc->n ? sc->n : fail(sc, sc->xstart,
		    "is nested deeper than 64 quotes and substitutions");
	sc->f[sc->sp].st = st;
	sc->f[sc->sp].depth = 0;
	sc->f[sc->sp].param = P_NAME;
	sc->sp++;
	return next;
}

static size_t
pop(struct scanner *sc, size_t next)
{
	if (sc->sp > 1)
		sc->sp--;
	return next;
}

/* Whether a frame below the top one is st. */
static bool
within(const struct scanner *sc, enum state st)
{
	size_t i;

	for (i = 0; i + 1 < sc->sp; i++)
		if (sc->f[i].st == st)
			return true;
	return false;
}

/* A backslash at i quotes the next character; an expression there
 * would lose its first character to it. */
static size_t
escape(struct scanner *sc, size_t i)
{
	if (i + 1 == sc->xstart)
		return fail(sc, i + 1, "stands right after a backslash");
	return i + 2;
}

/* The place of the expression that starts at i, from the stack. */
static size_t
expression(struct scanner *sc, size_t i)
{
	size_t k = sc->sp;
	enum wspx__shctx ctx = WSPX__SHCTX_WORD;

	/* ($"${V}" is bash's locale string, $${V} the shell's pid) */
	if (i > 0 && sc->s[i - 1] == '$')
		return fail(sc, i, "stands right after a $");

	while (k > 0 && sc->f[k - 1].st == ST_PARAM) {
		if (sc->f[k - 1].param != P_WORD)
			return fail(sc, i, "stands inside ${...}, where it "
			    "would be a name or an offset");
		k--;
	}
	switch (sc->f[k - 1].st) {
	case ST_ARITH:
	case ST_SUBSCRIPT:
		return fail(sc, i, "stands in arithmetic, where bash "
		    "would evaluate its value as an expression");
	case ST_ANSIC:
		return fail(sc, i, "stands inside $'...', which sh and "
		    "bash read differently");
	case ST_BQ:
		if (within(sc, ST_DQ))
			return fail(sc, i, "stands inside `...` inside "
			    "\"...\" (write $(...) there)");
		break;
	case ST_DQ:
		ctx = WSPX__SHCTX_DQUOTE;
		break;
	case ST_SQ:
		ctx = WSPX__SHCTX_SQUOTE;
		break;
	case ST_COMMENT:
		ctx = WSPX__SHCTX_COMMENT;
		break;
	case ST_HEREDOC:
		ctx = WSPX__SHCTX_HEREDOC;
		break;
	default:
		break;
	}
	if (!edit(sc, WSPX__SHEDIT_VALUE, ctx, i, sc->xend))
		return FAIL;
	i = sc->xend;
	nextexpr(sc, i);
	return i;
}

/* Whether a word starts at i. */
static bool
wordstart(const struct scanner *sc, size_t i)
{
	/* (not after ( ) { }: ${x}#y and $(c)#y are one word) */
	return i == 0 || strchr(" \t\n;&|", sc->s[i - 1]) != NULL;
}

static bool
namechar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

/* The delimiter word of a here-document, from i (after << or <<-):
 * pending until the end of the line. */
static size_t
heredoc(struct scanner *sc, size_t i)
{
	struct heredoc *h;
	const char *s = sc->s;
	char q, *d;
	size_t k = 0;
	bool dash = false, quoted = false;

	if (sc->lang == WSPX__SH_POSIX && i < sc->n && s[i] == '-') {
		dash = true;
		i++;
	}
	while (i < sc->n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (sc->npend == MAXPENDING)
		return sc->xstart == sc->n ? sc->n : fail(sc, sc->xstart,
		    "follows more than 16 here-documents on a line");
	h = &sc->pend[sc->npend];
	if ((d = malloc(sc->n - i + 1)) == NULL)
		return fail(sc, i, "out of memory");
	h->wstart = i;
	while (i < sc->n && strchr(" \t\n;&|()<>", s[i]) == NULL) {
		if (i >= sc->xstart && i < sc->xend) {
			free(d);
			return fail(sc, sc->xstart, "stands in a here-document's "
			    "delimiter");
		}
		if (s[i] == '\\' && i + 1 < sc->n) {
			quoted = true;
			d[k++] = s[i + 1];
			i += 2;
		} else if (s[i] == '\'' || s[i] == '"') {
			quoted = true;
			for (q = s[i++]; i < sc->n && s[i] != q; i++)
				d[k++] = s[i];
			i += i < sc->n;
		} else
			d[k++] = s[i++];
	}
	if (i == h->wstart) {
		free(d);
		return i;
	}
	/* (skipping to the end of the word skipped an expression in it) */
	if (sc->xstart < i) {
		free(d);
		return fail(sc, sc->xstart, "stands in a here-document's "
		    "delimiter");
	}
	h->wend = i;
	h->delim = d;
	h->dlen = k;
	h->quoted = quoted;
	h->dash = dash;
	sc->npend++;
	return i;
}

/* The end of the here-document h whose text starts at *b: the start of
 * its delimiter line, with *b past that line (or both at the end of the
 * text being scanned, sc->lim). */
static size_t
bodyend(const struct scanner *sc, const struct heredoc *h, size_t *b)
{
	const char *s = sc->s, *nl;
	size_t ls = *b, le, t;

	while (ls < sc->lim) {
		nl = memchr(s + ls, '\n', sc->lim - ls);
		le = nl != NULL ? (size_t)(nl - s) : sc->lim;
		t = ls;
		while (h->dash && t < le && s[t] == '\t')
			t++;
		if (le - t == h->dlen && memcmp(s + t, h->delim, h->dlen) ==
		    0) {
			*b = le < sc->lim ? le + 1 : sc->lim;
			return ls;
		}
		ls = le < sc->lim ? le + 1 : sc->lim;
	}
	*b = sc->lim;
	return sc->lim;
}

static size_t scan(struct scanner *sc, size_t i, size_t end);

/* Whether h's delimiter, unquoted, is a plain word (letters, digits, _),
 * which the conversion of its here-document may write unquoted. */
static bool
plainword(const struct heredoc *h)
{
	size_t i;

	for (i = 0; i < h->dlen; i++)
		if (!namechar(h->delim[i]))
			return false;
	return h->dlen > 0;
}

/* The text [bs, be) of a here-document whose delimiter is quoted: taken
 * as it is, so an expression there needs the delimiter unquoted and the
 * rest of the text escaped. */
static bool
quotedbody(struct scanner *sc, const struct heredoc *h, size_t bs,
    size_t be)
{
	struct wspx__jfexpr e;
	size_t pos = bs, last = bs;
	bool any = false;

	while (pos < be && wspx__jobfile_next(sc->s, be, &pos, &e) != 0) {
		if (sc->lang != WSPX__SH_POSIX)
			return fail(sc, e.start, "stands in a csh "
			    "here-document, where tcsh would run the "
			    "backquotes of its value") != FAIL;
		if (!any && !plainword(h))
			return fail(sc, e.start, "stands in a here-document "
			    "whose quoted delimiter is not a plain word") !=
			    FAIL;
		if (!any && !edit(sc, WSPX__SHEDIT_UNQUOTE, WSPX__SHCTX_WORD,
		    h->wstart, h->wend))
			return false;
		any = true;
		if ((e.start > last && !edit(sc, WSPX__SHEDIT_ESCAPE,
		    WSPX__SHCTX_HEREDOC, last, e.start)) || !edit(sc,
		    WSPX__SHEDIT_VALUE, WSPX__SHCTX_HEREDOC, e.start, e.end))
			return false;
		pos = last = e.end;
	}
	return !any || last == be || edit(sc, WSPX__SHEDIT_ESCAPE,
	    WSPX__SHCTX_HEREDOC, last, be);
}

/* The here-documents of the line that ends at the newline before b: their
 * texts, one after another.  Returns the index after the last. */
static size_t
bodies(struct scanner *sc, size_t b)
{
	struct heredoc pend[MAXPENDING];
	size_t np = sc->npend, k, bs, be, sp, lim;
	bool ok = true;

	memcpy(pend, sc->pend, np * sizeof(*pend));
	sc->npend = 0;
	for (k = 0; k < np; k++) {
		bs = b;
		be = bodyend(sc, &pend[k], &b);
		if (!ok)
			continue;
		if (pend[k].quoted) {
			ok = quotedbody(sc, &pend[k], bs, be);
			continue;
		}
		nextexpr(sc, bs);
		if (sc->lang != WSPX__SH_POSIX) {
			if (sc->xstart < be)
				ok = fail(sc, sc->xstart, "stands in a "
				    "csh here-document, where tcsh would "
				    "run the backquotes of its value") != FAIL;
			continue;
		}
		sp = sc->sp;
		lim = sc->lim;
		sc->lim = be;
		ok = push(sc, ST_HEREDOC, bs) != FAIL && scan(sc, bs, be) !=
		    FAIL;
		sc->sp = sp;
		sc->lim = lim;
	}
	for (k = 0; k < np; k++)
		free(pend[k].delim);
	if (!ok)
		return FAIL;
	nextexpr(sc, b);
	return b;
}

/* A $ at i, in POSIX sh: what it starts. */
static size_t
dollar(struct scanner *sc, size_t i, bool ansic)
{
	const char *s = sc->s;
	char c = i + 1 < sc->n ? s[i + 1] : '\0';

	if (c == '\'' && ansic)
		return push(sc, ST_ANSIC, i + 2);
	if (c == '(' && i + 2 < sc->n && s[i + 2] == '(')
		return push(sc, ST_ARITH, i + 3);
	if (c == '(')
		return push(sc, ST_CMDSUB, i + 2);
	if (c == '{')
		return push(sc, ST_PARAM, i + 2);
	if (c == '[')
		return push(sc, ST_SUBSCRIPT, i + 2);
	return i + 1;
}

/* Inside ${...} and arithmetic, at i: quotes and what a $ starts (in
 * POSIX sh; where commands are, the quotes of every language). */
static size_t
inner(struct scanner *sc, size_t i)
{
	switch (sc->s[i]) {
	case '\\':
		return escape(sc, i);
	case '\'':
		return push(sc, ST_SQ, i + 1);
	case '"':
		return push(sc, ST_DQ, i + 1);
	case '`':
		return push(sc, ST_BQ, i + 1);
	case '$':
		return dollar(sc, i, false);
	default:
		return i + 1;
	}
}

/* What every language does where commands are, at i: a backslash,
 * quotes, a comment.  Returns 0 for any other character. */
static size_t
cmdquote(struct scanner *sc, size_t i)
{
	char c = sc->s[i];

	if (c == '#')
		return wordstart(sc, i) ? push(sc, ST_COMMENT, i + 1) : i + 1;
	return c == '\\' || c == '\'' || c == '"' ? inner(sc, i) : 0;
}

/* POSIX sh, where commands are: at top level, in $(...) and `...`. */
static size_t
posixcmd(struct scanner *sc, size_t i)
{
	struct frame *f = top(sc);
	const char *s = sc->s;
	size_t j;

	if ((j = cmdquote(sc, i)) != 0)
		return j;
	switch (s[i]) {
	case '`':
		return f->st == ST_BQ ? pop(sc, i + 1) : push(sc, ST_BQ, i + 1);
	case '$':
		return dollar(sc, i, true);
	case '(':
		if (wordstart(sc, i) && i + 1 < sc->n && s[i + 1] == '(')
			return push(sc, ST_ARITH, i + 2);
		f->depth += f->st == ST_CMDSUB;
		return i + 1;
	case ')':
		if (f->st == ST_CMDSUB && f->depth-- == 0)
			return pop(sc, i + 1);
		return i + 1;
	case '<':
		if (i + 2 < sc->n && s[i + 1] == '<' && s[i + 2] == '<')
			return i + 3;	/* a here-string: a word */
		if (i + 1 < sc->n && s[i + 1] == '<')
			return heredoc(sc, i + 2);
		return i + 1;
	case '\n':
		return sc->npend > 0 ? bodies(sc, i + 1) : i + 1;
	default:
		break;
	}
	/* name[...]=: an array's subscript, arithmetic in bash */
	if (!wordstart(sc, i) || !namechar(s[i]) || (s[i] >= '0' && s[i] <=
	    '9'))
		return i + 1;
	for (j = i; j < sc->n && namechar(s[j]) && j != sc->xstart; j++)
		;
	if (j < sc->n && s[j] == '[')
		return push(sc, ST_SUBSCRIPT, j + 1);
	return j;
}

/* Whether the ${...} on top of the stack is inside "..." or a
 * here-document's text. */
static bool
quotedparam(const struct scanner *sc)
{
	size_t k = sc->sp - 1;

	while (k > 0 && sc->f[k - 1].st == ST_PARAM)
		k--;
	return k > 0 && (sc->f[k - 1].st == ST_DQ || sc->f[k - 1].st ==
	    ST_HEREDOC);
}

/* POSIX sh inside ${...}. */
static size_t
posixparam(struct scanner *sc, size_t i)
{
	struct frame *f = top(sc);
	const char *s = sc->s;
	char c = s[i];

	if (c == '}' && f->depth == 0)
		return pop(sc, i + 1);
	f->depth += c == '{';
	f->depth -= c == '}';
	if (f->param == P_NAME && c == ':') {
		c = i + 1 < sc->n ? s[i + 1] : '\0';
		f->param = c != '\0' && strchr("-=?+", c) != NULL ? P_WORD :
		    P_OFFSET;
		return i + 1 + (f->param == P_WORD);
	}
	if (f->param == P_NAME && strchr("-=?+#%/^,@", c) != NULL)
		f->param = P_WORD;
	/* (inside "${...}", POSIX takes a ' as it is) */
	if (c == '\'' && quotedparam(sc))
		return i + 1;
	if (c == '[')
		return push(sc, ST_SUBSCRIPT, i + 1);
	return inner(sc, i);
}

/* POSIX sh in arithmetic and subscripts. */
static size_t
posixarith(struct scanner *sc, size_t i)
{
	struct frame *f = top(sc);
	const char *s = sc->s;

	switch (s[i]) {
	case '(':
	case '[':
		f->depth++;
		return i + 1;
	case ')':
		if (f->st == ST_ARITH && f->depth == 0)
			return pop(sc, i + (i + 1 < sc->n && s[i + 1] == ')' ?
			    2 : 1));
		f->depth -= f->depth > 0;
		return i + 1;
	case ']':
		if (f->st == ST_SUBSCRIPT && f->depth == 0)
			return pop(sc, i + 1);
		f->depth -= f->depth > 0;
		return i + 1;
	default:
		return inner(sc, i);
	}
}

/* POSIX sh: one step from i. */
static size_t
posix(struct scanner *sc, size_t i)
{
	const char *s = sc->s;
	enum state st = top(sc)->st;

	switch (st) {
	case ST_SQ:
		return s[i] == '\'' ? pop(sc, i + 1) : i + 1;
	case ST_ANSIC:
		if (s[i] == '\\')
			return escape(sc, i);
		return s[i] == '\'' ? pop(sc, i + 1) : i + 1;
	case ST_COMMENT:
		return s[i] == '\n' ? pop(sc, i) : i + 1;
	case ST_DQ:
	case ST_HEREDOC:
		if (s[i] == '\\')
			return escape(sc, i);
		if (s[i] == '"' && st == ST_DQ)
			return pop(sc, i + 1);
		if (s[i] == '`')
			return push(sc, ST_BQ, i + 1);
		return s[i] == '$' ? dollar(sc, i, false) : i + 1;
	case ST_PARAM:
		return posixparam(sc, i);
	case ST_ARITH:
	case ST_SUBSCRIPT:
		return posixarith(sc, i);
	default:
		return posixcmd(sc, i);
	}
}

/* fish: quotes, (...) and $(...), comments; no here-documents. */
static size_t
fish(struct scanner *sc, size_t i)
{
	const char *s = sc->s;
	char c = s[i], d = i + 1 < sc->n ? s[i + 1] : '\0';
	size_t j;

	switch (top(sc)->st) {
	case ST_SQ:
		if (c == '\\' && (d == '\'' || d == '\\'))
			return i + 2;
		return c == '\'' ? pop(sc, i + 1) : i + 1;
	case ST_COMMENT:
		return c == '\n' ? pop(sc, i) : i + 1;
	case ST_DQ:
		if (c == '\\')
			return escape(sc, i);
		if (c == '$' && d == '(')
			return push(sc, ST_CMDSUB, i + 2);
		return c == '"' ? pop(sc, i + 1) : i + 1;
	default:
		break;
	}
	if ((j = cmdquote(sc, i)) != 0)
		return j;
	if (c == '(')
		return push(sc, ST_CMDSUB, i + 1);
	return c == ')' && top(sc)->st == ST_CMDSUB ? pop(sc, i + 1) : i + 1;
}

/* csh and tcsh: quotes, `...`, comments, here-documents. */
static size_t
csh(struct scanner *sc, size_t i)
{
	const char *s = sc->s;
	char c = s[i];
	size_t j;

	switch (top(sc)->st) {
	case ST_SQ:
		return c == '\'' ? pop(sc, i + 1) : i + 1;
	case ST_COMMENT:
		return c == '\n' ? pop(sc, i) : i + 1;
	case ST_DQ:
		/* (in csh, \ inside "..." escapes nothing) */
		if (c == '`')
			return push(sc, ST_BQ, i + 1);
		return c == '"' ? pop(sc, i + 1) : i + 1;
	default:
		break;
	}
	/* (tcsh -c starts a comment at a # inside a word too) */
	if (c == '#')
		return push(sc, ST_COMMENT, i + 1);
	if ((j = cmdquote(sc, i)) != 0)
		return j;
	switch (c) {
	case '`':
		return top(sc)->st == ST_BQ ? pop(sc, i + 1) : push(sc, ST_BQ,
		    i + 1);
	case '<':
		if (i + 1 < sc->n && s[i + 1] == '<')
			return heredoc(sc, i + 2);
		return i + 1;
	case '\n':
		return sc->npend > 0 ? bodies(sc, i + 1) : i + 1;
	default:
		return i + 1;
	}
}

/* Scan [i, end). */
static size_t
scan(struct scanner *sc, size_t i, size_t end)
{
	while (i < end && i != FAIL) {
		if (i == sc->xstart) {
			i = expression(sc, i);
			continue;
		}
		/* (no step goes over an expression: one would be left in the
		 * command as it is) */
		if (i > sc->xstart)
			return fail(sc, sc->xstart, "stands where wspx "
			    "cannot follow the shell's syntax");
		switch (sc->lang) {
		case WSPX__SH_FISH:
			i = fish(sc, i);
			break;
		case WSPX__SH_CSH:
			i = csh(sc, i);
			break;
		default:
			i = posix(sc, i);
			break;
		}
	}
	return i;
}

static int
bystart(const void *a, const void *b)
{
	const struct wspx__shedit *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

int
wspx__shellctx_scan(const char *s, size_t n, enum wspx__shlang lang,
    struct wspx__shscan *out)
{
	struct scanner sc;
	size_t i, k;

	memset(out, 0, sizeof(*out));
	if (wspx__shellguard_check(s, n, lang, &out->erroff, &out->err) != 0)
		return -1;
	memset(&sc, 0, sizeof(sc));
	sc.s = s;
	sc.n = n;
	sc.lang = lang;
	sc.out = out;
	sc.lim = n;
	(void)push(&sc, ST_CMD, 0);
	nextexpr(&sc, 0);
	i = scan(&sc, 0, n);
	/* a command that ends on its here-document's line */
	if (i != FAIL && sc.npend > 0)
		i = bodies(&sc, n);
	for (k = 0; k < sc.npend; k++)
		free(sc.pend[k].delim);
	if (i == FAIL)
		return -1;
	/* (no edits: edits is NULL, which qsort() may not be given) */
	if (out->n > 1)
		qsort(out->edits, out->n, sizeof(*out->edits), bystart);
	/* Edits that overlap are a place read twice, in two ways: refused,
	 * whatever the reading that made them (the command's maker relies
	 * on their order). */
	for (k = 1; k < out->n; k++)
		if (out->edits[k].start < out->edits[k - 1].end) {
			(void)fail(&sc, out->edits[k].start, "stands where "
			    "wspx cannot follow the shell's syntax");
			return -1;
		}
	return 0;
}

void
wspx__shellctx_free(struct wspx__shscan *out)
{
	free(out->edits);
	out->edits = NULL;
	out->n = 0;
}
