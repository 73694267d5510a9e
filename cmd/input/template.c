/*
 * Command templates (see template.h).  One file past 600 lines because
 * the parser and the three ways of filling a template (a shell line, an
 * argv, the length -s counts) read the one list of tokens, whose meaning
 * is written here once.  What needs a shell, and how a value is quoted
 * for one, is shellquote.c's.
 *
 * COMMAND's words are joined with spaces into one command line, as GNU
 * parallel does, and parsed into tokens: literal text, runs of blanks
 * between words, and replacement strings:
 *
 *     {}  {.}  {/}  {//}  {/.}      the argument, its modified forms
 *     {n} {n.} {n/} {n//} {n/.}     the n-th field of the argument
 *     {-n} {-n.} ...                the n-th field from the end
 *     {#}  {%}                      the job's sequence and slot numbers
 *
 * A job runs directly (spawned, no shell) when the template's own
 * text has nothing a shell would interpret; the values then go in as they
 * are, and a replacement string with several values splits its word into
 * several, exactly as the shell would split the quoted words.  Otherwise
 * the line runs in a shell (shell.c), and each value is quoted for that
 * shell (shellquote.c), so an input line can never inject shell syntax.
 */
#include "template.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replstr.h"
#include "util/buf.h"
#include "util/util.h"

enum kind {
	TEXT,		/* literal text, no blanks */
	BLANK,		/* blanks between words */
	REPL		/* a replacement string */
};

/* What a job's command is filled with besides its arguments. */
struct fill {
	uint64_t seq;
	unsigned slot;
	bool quote;		/* quote values for the shell kind */
	enum shellkind kind;
	uint64_t total;		/* {##} */
	unsigned slots;		/* -j */
};

struct token {
	enum kind kind;
	char *text;	/* TEXT, BLANK */
	size_t field;	/* REPL: 1-based field, or 0 for all of them */
	enum replmod mod;	/* REPL */
	bool fromend;	/* REPL: field counts from the last one */
};

struct template {
	struct token *tok;
	size_t n;
	bool shell;	/* the text needs a shell */
	bool quoted;	/* -q: each of COMMAND's words is one argument */
	bool context;	/* -X: words with {} repeat per record */
	bool programs;	/* a builtin that is also a program runs as the
			 * program (echo, true, ...) */
	uint64_t total;	/* {##}, once known (template_set_total) */
	unsigned slots;	/* -j, for {0%} */
};

static bool
blank(char c)
{
	return c == ' ' || c == '\t';
}

static void
push(struct template *t, struct token tok)
{
	t->tok = xrealloc(t->tok, (t->n + 1) * sizeof(*t->tok));
	t->tok[t->n++] = tok;
}

/* Push literal text s[0..n) as TEXT and BLANK tokens; with whole, as one
 * TEXT token, blanks and all (a BLANK would end -q's word there). */
static void
pushtext(struct template *t, const char *s, size_t n, bool whole)
{
	struct token tok = { TEXT, NULL, 0, RM_WHOLE, false };
	size_t k;

	while (n > 0) {
		for (k = 0; k < n && (whole || blank(s[k]) == blank(s[0])); k++)
			;
		tok.kind = blank(s[0]) && !whole ? BLANK : TEXT;
		tok.text = xmalloc(k + 1);
		memcpy(tok.text, s, k);
		tok.text[k] = '\0';
		push(t, tok);
		s += k;
		n -= k;
	}
}

/* Whether the template's literal text needs a shell: checked word by
 * word, the first word also for builtins and assignments. */
static bool
needsshell(const struct template *t)
{
	size_t i, word = 0;

	for (i = 0; i < t->n; i++) {
		if (t->tok[i].kind == BLANK)
			word++;
		else if (t->tok[i].kind == TEXT &&
		    text_needs_shell(t->tok[i].text, strlen(t->tok[i].text),
		    word == 0, !t->programs))
			return true;
	}
	return false;
}

/* Parse text into tokens (as one word, blanks and all, with whole),
 * finding the replacement strings of k.  Returns whether it had one. */
static bool
parse(struct template *t, const char *text, const struct replkeys *k,
    bool whole)
{
	struct token tok = { REPL, NULL, 0, RM_WHOLE, false };
	struct replmatch m;
	const char *p, *lit;
	size_t len;
	bool repl = false;

	for (p = lit = text; *p != '\0';) {
		if ((len = replkeys_perl(k, p)) > 0)
			fatal("%s: %.*s is Perl code, which GNU parallel runs "
			    "and wspx does not (use the shell, or --plus "
			    "strings)", text, (int)len, p);
		if ((len = replkeys_match(k, p, &m)) == 0) {
			p++;
			continue;
		}
		tok.mod = m.mod;
		tok.field = m.field;
		tok.fromend = m.fromend;
		pushtext(t, lit, (size_t)(p - lit), whole);
		push(t, tok);
		repl = true;
		p += len;
		lit = p;
	}
	pushtext(t, lit, (size_t)(p - lit), whole);
	return repl;
}

/* Parse COMMAND's words into t's tokens, with the --plus strings if plus;
 * returns whether they had a replacement string. */
static bool
parsewords(struct template *t, char *const *words, size_t n,
    const struct replnames *names, bool quoted, bool plus)
{
	struct replkeys *k = replkeys_new(names, plus);
	struct buf line = { NULL, 0, 0 };
	bool repl = false;
	size_t i;

	for (i = 0; i < n && quoted; i++) {
		if (i > 0)
			pushtext(t, " ", 1, false);
		repl |= parse(t, words[i], k, true);
	}
	for (i = 0; i < n && !quoted; i++) {
		if (i > 0)
			bufaddc(&line, ' ');
		bufadds(&line, words[i]);
	}
	if (!quoted && line.s != NULL)
		repl = parse(t, line.s, k, false);
	free(line.s);
	replkeys_free(k);
	return repl;
}

struct template *
template_new(char *const *words, size_t n, const struct replnames *names,
    int flags)
{
	struct template *t = xcalloc(1, sizeof(*t));
	struct token tok = { REPL, NULL, 0, RM_WHOLE, false };
	bool repl, quoted = flags & TMPL_QUOTED;

	t->programs = flags & TMPL_PROGRAMS;
	t->context = flags & TMPL_CONTEXT;
	repl = parsewords(t, words, n, names, quoted, flags & TMPL_PLUS);
	if (t->n == 0 && !(quoted && n > 0)) {
		template_free(t);
		return NULL;
	}
	if (!repl && (flags & TMPL_APPEND)) {
		pushtext(t, " ", 1, false);
		push(t, tok);
	}
	t->shell = !quoted && needsshell(t);
	t->quoted = quoted;
	return t;
}

void
template_free(struct template *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		if (t->tok[i].kind != REPL)
			free(t->tok[i].text);
	free(t->tok);
	free(t);
}

void
template_set_total(struct template *t, uint64_t total, unsigned slots)
{
	t->total = total;
	t->slots = slots;
}

bool
template_needs_total(const struct template *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->tok[i].kind == REPL && (t->tok[i].mod == RM_TOTAL ||
		    t->tok[i].mod == RM_SEQ0))
			return true;
	return false;
}

bool
template_needs_shell(const struct template *t)
{
	return t->shell;
}

/* Where the last k extensions of v[0..n) begin (at their '.'), each
 * of one character or more and no '/' or '.'; NULL if v has fewer. */
static const char *
lastexts(const char *v, size_t n, int k)
{
	const char *p = v + n, *end = p;

	while (k-- > 0) {
		for (end = p; p > v && p[-1] != '.' && p[-1] != '/'; p--)
			;
		if (p == v || p[-1] != '.' || p == end)
			return NULL;
		p--;
	}
	return p;
}

/* A --plus string's value of v into b (GNU parallel's definitions: {+/}
 * is what {//} leaves out, {+.} what {.} leaves out, {..} and {...} drop
 * two and three extensions, {+..} and {+...} are them). */
static void
plusmodify(struct buf *b, const char *v, enum replmod mod)
{
	const char *slash = strrchr(v, '/'), *dot, *base = v;
	int k = mod == RM_PEXT2 || mod == RM_NOEXT2 ||
	    mod == RM_BASENOEXT2 ? 2 : 3;

	switch (mod) {
	case RM_PDIR:
		if (slash != NULL)
			bufadd(b, v, (size_t)(slash - v));
		return;
	case RM_PEXT:
		if ((dot = strrchr(v, '.')) != NULL)
			bufadds(b, dot + 1);
		return;
	case RM_PEXT2:
	case RM_PEXT3:
		if ((dot = lastexts(v, strlen(v), k)) != NULL)
			bufadds(b, dot + 1);
		return;
	case RM_BASENOEXT2:
	case RM_BASENOEXT3:
		base = slash != NULL ? slash + 1 : v;
		/* FALLTHROUGH */
	default:	/* RM_NOEXT2, RM_NOEXT3 */
		dot = lastexts(base, strlen(base), k);
		bufadd(b, base, dot != NULL ? (size_t)(dot - base) :
		    strlen(base));
	}
}

/* The value v with mod applied, added to b. */
static void
modify(struct buf *b, const char *v, enum replmod mod)
{
	const char *slash, *base, *dot, *end;
	size_t n = strlen(v);

	if (mod == RM_WHOLE) {
		bufadd(b, v, n + 1);	/* with its NUL */
		b->len--;
		return;
	}
	slash = strrchr(v, '/');
	if (mod == RM_DIR) {
		while (n > 1 && v[n - 1] == '/')
			n--;		/* trailing slashes */
		while (n > 0 && v[n - 1] != '/')
			n--;		/* the last component */
		while (n > 1 && v[n - 1] == '/')
			n--;
		if (n == 0)
			bufaddc(b, '.');
		else
			bufadd(b, v, n);
		return;
	}
	if (mod >= RM_PDIR) {
		plusmodify(b, v, mod);
		return;
	}
	base = mod == RM_BASE || mod == RM_BASENOEXT ? (slash ? slash + 1 : v) : v;
	end = v + n;
	if (mod == RM_NOEXT || mod == RM_BASENOEXT) {
		/* drop a final ".ext" with no '/' or '.' in ext */
		dot = strrchr(base, '.');
		if (dot != NULL && dot[1] != '\0' && (slash == NULL ||
		    dot > slash))
			end = dot;
	}
	bufadd(b, base, (size_t)(end - base));
}

/* Whether mod is a number of the job's, not of its arguments. */
static bool
numbered(enum replmod mod)
{
	return mod == RM_SEQ || mod == RM_SLOT || mod == RM_TOTAL ||
	    mod == RM_SEQ0 || mod == RM_SLOT0;
}

/* The digits of n. */
static int
digits(uint64_t n)
{
	int d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

/* {#} {%} {##} {0#} {0%} into vals, with its NUL. */
static void
number(struct buf *vals, enum replmod mod, const struct fill *f)
{
	unsigned long long n = mod == RM_SEQ || mod == RM_SEQ0 ? f->seq : mod ==
	    RM_TOTAL ? f->total : f->slot;
	int width = mod == RM_SEQ0 ? digits(f->total) : mod == RM_SLOT0 ?
	    digits(f->slots) : 0;
	char num[48];

	snprintf(num, sizeof(num), "%0*llu", width, n);
	bufadd(vals, num, strlen(num) + 1);
}

/* The values of replacement tok for the job of arguments a, of which a
 * string of them all takes each's (all of a, or with -X the one argument
 * its word is repeated for): NUL-separated in vals.  Returns how many:
 * none for a field the job does not have, or for {} in a job of no
 * arguments, which GNU parallel replaces with nothing, so that it is no
 * argument. */
static size_t
values(const struct token *tok, const struct args *a,
    const struct args *each, const struct fill *f, struct buf *vals)
{
	size_t i;

	vals->len = 0;
	if (numbered(tok->mod)) {
		number(vals, tok->mod, f);
		return 1;
	}
	if (tok->field > a->n)
		return 0;
	if (tok->field > 0) {
		modify(vals, tok->fromend ? a->v[a->n - tok->field] :
		    a->v[tok->field - 1], tok->mod);
		bufaddc(vals, '\0');
		return 1;
	}
	/* (a job of no arguments, as with -N0, has none either) */
	for (i = 0; i < each->n; i++) {
		modify(vals, each->v[i], tok->mod);
		bufaddc(vals, '\0');
	}
	return each->n;
}

/* The end of the word that starts at token i: the next BLANK, or t->n. */
static size_t
wordend(const struct template *t, size_t i)
{
	while (i < t->n && t->tok[i].kind != BLANK)
		i++;
	return i;
}

/* Whether tokens [i, end) hold a replacement string of all the arguments
 * ({}, {.}, ...: not {n}, nor the job's numbers {#} {%} {##} ...), which
 * -X repeats per argument. */
static bool
contextword(const struct template *t, size_t i, size_t end)
{
	for (; i < end; i++)
		if (t->tok[i].kind == REPL && t->tok[i].field == 0 &&
		    !numbered(t->tok[i].mod))
			return true;
	return false;
}

/* How many times the word [i, end) is written for a: once, or with -X
 * (context) once per argument, of every field of every record, as GNU
 * parallel repeats it; *each is then the first. */
static size_t
repeats(const struct template *t, size_t i, size_t end, const struct args *a,
    struct args *each)
{
	*each = *a;
	if (!t->context || a->nrec == 0 || a->n == 0 ||
	    !contextword(t, i, end))
		return 1;
	each->n = 1;
	each->nrec = 0;
	each->rec = NULL;
	return a->n;
}

/* Argument r of a, as args of their own. */
static void
oneargument(const struct args *a, size_t r, struct args *each)
{
	each->v = a->v + r;
	each->n = 1;
	each->nrec = 0;
	each->rec = NULL;
}

/* Tokens [i, end) of one word into b, filled from a and each (see
 * values()). */
static void
lineword(const struct template *t, size_t i, size_t end, const struct args *a,
    const struct args *each, const struct fill *f, struct buf *b,
    struct buf *vals)
{
	const char *v;
	size_t k, n;

	for (; i < end; i++) {
		if (t->tok[i].kind != REPL) {
			bufadds(b, t->tok[i].text);
			continue;
		}
		n = values(&t->tok[i], a, each, f, vals);
		for (k = 0, v = vals->s; k < n; k++, v += strlen(v) + 1) {
			if (k > 0)
				bufaddc(b, ' ');
			if (f->quote)
				quote(b, v, f->kind);
			else
				bufadds(b, v);
		}
	}
}

char *
template_line(const struct template *t, const struct args *a, uint64_t seq,
    unsigned slot, bool doquote, enum shellkind kind)
{
	struct buf b = { NULL, 0, 0 }, vals = { NULL, 0, 0 };
	struct fill f = { seq, slot, doquote, kind, t->total, t->slots };
	struct args each;
	size_t i, end, r, times;

	for (i = 0; i < t->n; i = end) {
		if (t->tok[i].kind == BLANK) {
			bufadds(&b, t->tok[i].text);
			end = i + 1;
			continue;
		}
		end = wordend(t, i);
		times = repeats(t, i, end, a, &each);
		for (r = 0; r < times; r++) {
			if (r > 0)
				bufaddc(&b, ' ');
			if (times > 1)
				oneargument(a, r, &each);
			lineword(t, i, end, a, &each, &f, &b, &vals);
		}
	}
	free(vals.s);
	return buftake(&b);
}

/* The length tokens [i, end) take for the record rec, as lineword() would
 * write them (scratch holds a modified value). */
static size_t
wordlen(const struct template *t, size_t i, size_t end,
    const struct args *rec, bool doquote, enum shellkind kind,
    struct buf *scratch)
{
	const struct token *tok;
	const char *v;
	size_t k, len = 0;

	for (; i < end; i++) {
		tok = &t->tok[i];
		if (tok->kind != REPL || numbered(tok->mod) || tok->field > 0) {
			len += tok->kind == REPL ? 1 : strlen(tok->text);
			continue;
		}
		for (k = 0; k < rec->n; k++) {
			v = rec->v[k];
			if (tok->mod != RM_WHOLE) {
				scratch->len = 0;
				modify(scratch, v, tok->mod);
				bufaddc(scratch, '\0');
				v = scratch->s;
			}
			len += (k > 0) + (doquote ? quote_len(v, kind) :
			    strlen(v));
		}
	}
	return len;
}

/* -X: the length of the word [i, end), repeated for each argument of
 * rec, with a space between two. */
static size_t
contextlen(const struct template *t, size_t i, size_t end,
    const struct args *rec, bool doquote, enum shellkind kind,
    struct buf *scratch)
{
	struct args each;
	size_t k, len = 0;

	for (k = 0; k < rec->n; k++) {
		oneargument(rec, k, &each);
		len += (k > 0) + wordlen(t, i, end, &each, doquote, kind,
		    scratch);
	}
	return len;
}

size_t
template_reclen(const struct template *t, const struct args *rec,
    bool doquote, enum shellkind kind, size_t *units, struct buf *scratch)
{
	size_t i, end, k, len = 0;

	*units = 0;
	for (i = 0; i < t->n; i = end) {
		end = t->tok[i].kind == BLANK ? i + 1 : wordend(t, i);
		if (!contextword(t, i, end))
			continue;
		if (t->context) {
			len += contextlen(t, i, end, rec, doquote, kind,
			    scratch);
			++*units;
			continue;
		}
		for (k = i; k < end; k++) {
			if (!contextword(t, k, k + 1))
				continue;
			len += wordlen(t, k, k + 1, rec, doquote, kind,
			    scratch);
			++*units;
		}
	}
	return len;
}

size_t
template_baselen(const struct template *t)
{
	size_t i, end, k, len = 0;

	for (i = 0; i < t->n; i = end) {
		end = t->tok[i].kind == BLANK ? i + 1 : wordend(t, i);
		if (t->context && contextword(t, i, end))
			continue;
		for (k = i; k < end; k++)
			if (t->tok[k].kind != REPL)
				len += strlen(t->tok[k].text);
			else if (!contextword(t, k, k + 1))
				len++;	/* {#}, {n}: a character at least */
	}
	return len;
}

/* argv words under construction. */
struct words {
	struct buf b;
	size_t n;
	bool inword;	/* a word has begun (-q: even an empty one) */
};

static void
endword(struct words *w)
{
	if (w->inword) {
		bufaddc(&w->b, '\0');
		w->n++;
	}
	w->inword = false;
}

/* Tokens [i, end) of one word into w, filled from a and each (see
 * values()): the values go in as they are, several values of one string
 * splitting the word. */
static void
argvword(const struct template *t, size_t i, size_t end, const struct args *a,
    const struct args *each, const struct fill *f, struct words *w,
    struct buf *vals)
{
	const char *v;
	size_t k, n, len;

	/* (-q: an empty word of COMMAND is an argument, and so is one of
	 * fields the job does not have, quoted as ''; in a job of no
	 * arguments, -N0, one of replacement strings is none, as GNU
	 * parallel has it) */
	w->inword |= t->quoted && (i == end || a->n > 0);
	for (; i < end; i++) {
		if (t->tok[i].kind == TEXT) {
			bufadds(&w->b, t->tok[i].text);
			w->inword = true;
			continue;
		}
		n = values(&t->tok[i], a, each, f, vals);
		for (k = 0, v = vals->s; k < n; k++, v += len + 1) {
			if (k > 0)
				endword(w);
			len = strlen(v);
			bufadd(&w->b, v, len);
			w->inword = true;
		}
	}
	endword(w);
}

/* -q: COMMAND ends with an empty word, or is one. */
static void
emptywords(const struct template *t, struct words *w)
{
	struct buf none = { NULL, 0, 0 };
	struct fill f = { 0, 0, false, SHELL_POSIX, 0, 0 };
	struct args a = { NULL, 0, 0, NULL };

	if (t->quoted && (t->n == 0 || t->tok[t->n - 1].kind == BLANK))
		argvword(t, t->n, t->n, &a, &a, &f, w, &none);
}

char **
template_argv(const struct template *t, const struct args *a, uint64_t seq,
    unsigned slot)
{
	struct words w = { { NULL, 0, 0 }, 0, t->quoted };
	struct buf vals = { NULL, 0, 0 };
	struct fill f = { seq, slot, false, SHELL_POSIX, t->total, t->slots };
	struct args each;
	size_t i, end, r, times;
	char **argv;

	for (i = 0; i < t->n; i = end) {
		if (t->tok[i].kind == BLANK) {
			/* -q: an empty word of COMMAND is an argument */
			if (t->quoted && (i == 0 || t->tok[i - 1].kind ==
			    BLANK))
				argvword(t, i, i, a, a, &f, &w, &vals);
			end = i + 1;
			continue;
		}
		end = wordend(t, i);
		times = repeats(t, i, end, a, &each);
		for (r = 0; r < times; r++) {
			if (times > 1)
				oneargument(a, r, &each);
			argvword(t, i, end, a, &each, &f, &w, &vals);
		}
	}
	emptywords(t, &w);
	argv = packwords(&w.b, w.n);
	free(w.b.s);
	free(vals.s);
	return argv;
}
