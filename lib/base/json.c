/*
 * JSON by recursive descent (see json.h); the depth is bounded, so the
 * recursion is too.
 */
#include "json.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct reader {
	struct wspx__arena *a;
	const char *s;
	size_t len, pos;
	unsigned depth;
	const char *why;
};

static struct wspx__json *value(struct reader *r);

/* NULL, with why; pos stays where the error is. */
static struct wspx__json *
bad(struct reader *r, const char *why)
{
	r->why = why;
	return NULL;
}

void
wspx__json_skipspace(const char *s, size_t len, size_t *pos)
{
	while (*pos < len && (s[*pos] == ' ' || s[*pos] == '\t' ||
	    s[*pos] == '\n' || s[*pos] == '\r'))
		(*pos)++;
}

static struct wspx__json *
node(struct reader *r, enum wspx__json_type type)
{
	struct wspx__json *v = wspx__arena_alloc(r->a, sizeof(*v),
	    _Alignof(struct wspx__json));

	if (v == NULL)
		return bad(r, "out of memory");
	memset(v, 0, sizeof(*v));
	v->type = type;
	return v;
}

/* The word w (true, false, null) at pos. */
static bool
word(struct reader *r, const char *w)
{
	size_t n = strlen(w);

	if (r->len - r->pos < n || memcmp(r->s + r->pos, w, n) != 0)
		return false;
	r->pos += n;
	return true;
}

static bool
isdigitc(char c)
{
	return c >= '0' && c <= '9';
}

/* pos past the digits there; whether there was one. */
static bool
digits(struct reader *r)
{
	size_t at = r->pos;

	while (r->pos < r->len && isdigitc(r->s[r->pos]))
		r->pos++;
	return r->pos > at;
}

/* A number, checked against the grammar, then converted by strtod. */
static struct wspx__json *
number(struct reader *r)
{
	size_t at = r->pos;
	struct wspx__json *v;
	char buf[64], *copy;

	if (r->s[r->pos] == '-')
		r->pos++;
	if (r->pos < r->len && r->s[r->pos] == '0')
		r->pos++;
	else if (!digits(r))
		return bad(r, "a number needs a digit");
	if (r->pos < r->len && r->s[r->pos] == '.' && (r->pos++, !digits(r)))
		return bad(r, "a number needs a digit after its point");
	if (r->pos < r->len && (r->s[r->pos] == 'e' || r->s[r->pos] == 'E')) {
		r->pos++;
		if (r->pos < r->len && (r->s[r->pos] == '+' ||
		    r->s[r->pos] == '-'))
			r->pos++;
		if (!digits(r))
			return bad(r, "a number needs a digit in its exponent");
	}
	if ((v = node(r, WSPX__JSON_NUMBER)) == NULL)
		return NULL;
	/* (strtod wants a terminated string; the buffer may go on) */
	copy = r->pos - at < sizeof(buf) ? buf : malloc(r->pos - at + 1);
	if (copy == NULL)
		return bad(r, "out of memory");
	memcpy(copy, r->s + at, r->pos - at);
	copy[r->pos - at] = '\0';
	v->number = strtod(copy, NULL);
	if (copy != buf)
		free(copy);
	/* (1e400 is JSON, but no time or count: an error, not an inf) */
	if (v->number > DBL_MAX || v->number < -DBL_MAX) {
		r->pos = at;
		return bad(r, "a number too large");
	}
	return v;
}

/* The 4 hex digits at pos, or -1. */
static long
hex4(struct reader *r)
{
	long u = 0;
	int i;

	if (r->len - r->pos < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = r->s[r->pos + (size_t)i];

		u <<= 4;
		if (isdigitc(c))
			u |= c - '0';
		else if (c >= 'a' && c <= 'f')
			u |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			u |= c - 'A' + 10;
		else
			return -1;
	}
	r->pos += 4;
	return u;
}

/* The code point of a \u escape (pos after the u), a surrogate pair
 * taken whole; -1 on an error, with why. */
static long
unicode(struct reader *r)
{
	long hi = hex4(r), lo;

	if (hi < 0)
		return bad(r, "\\u needs four hex digits"), -1;
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return bad(r, "a low surrogate without its high one"), -1;
	if (hi < 0xd800 || hi > 0xdbff)
		return hi;
	if (r->len - r->pos < 2 || r->s[r->pos] != '\\' ||
	    r->s[r->pos + 1] != 'u')
		return bad(r, "a high surrogate without its low one"), -1;
	r->pos += 2;
	if ((lo = hex4(r)) < 0xdc00 || lo > 0xdfff)
		return bad(r, "a high surrogate without its low one"), -1;
	return 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
}

/* u as UTF-8 at out; its length. */
static size_t
utf8(char *out, long u)
{
	if (u < 0x80) {
		out[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		out[0] = (char)(0xc0 | (u >> 6));
		out[1] = (char)(0x80 | (u & 0x3f));
		return 2;
	}
	if (u < 0x10000) {
		out[0] = (char)(0xe0 | (u >> 12));
		out[1] = (char)(0x80 | ((u >> 6) & 0x3f));
		out[2] = (char)(0x80 | (u & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (u >> 18));
	out[1] = (char)(0x80 | ((u >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((u >> 6) & 0x3f));
	out[3] = (char)(0x80 | (u & 0x3f));
	return 4;
}

/* The escape at pos (after its backslash) into out; its length, or 0 on
 * an error. */
static size_t
escape(struct reader *r, char *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;
	long u;

	if (r->pos >= r->len)
		return bad(r, "a string without its closing quote"), 0;
	if (r->s[r->pos] == 'u') {
		r->pos++;
		return (u = unicode(r)) < 0 ? 0 : utf8(out, u);
	}
	if (r->s[r->pos] == '\0' || (k = strchr(from, r->s[r->pos])) == NULL)
		return bad(r, "an unknown escape in a string"), 0;
	r->pos++;
	*out = to[k - from];
	return 1;
}

/* A string's text (pos after its opening quote) into the arena: *len
 * bytes.  Its decoded form is never longer than its source. */
static char *
text(struct reader *r, size_t *len)
{
	size_t end = r->pos, n = 0, k;
	char *out;

	while (end < r->len && r->s[end] != '"')
		end += r->s[end] == '\\' ? 2 : 1;
	if (end >= r->len) {
		r->pos = r->len;	/* (the input ran out: see json.h) */
		return bad(r, "a string without its closing quote"), NULL;
	}
	if ((out = wspx__arena_alloc(r->a, end - r->pos + 1, 1)) == NULL)
		return bad(r, "out of memory"), NULL;
	while (r->s[r->pos] != '"') {
		if ((unsigned char)r->s[r->pos] < 0x20)
			return bad(r, "a control character in a string"), NULL;
		if (r->s[r->pos] != '\\') {
			out[n++] = r->s[r->pos++];
			continue;
		}
		r->pos++;
		if ((k = escape(r, out + n)) == 0)
			return NULL;
		n += k;
	}
	r->pos++;
	out[n] = '\0';
	*len = n;
	return out;
}

static struct wspx__json *
string(struct reader *r)
{
	struct wspx__json *v = node(r, WSPX__JSON_STRING);

	r->pos++;
	if (v == NULL || (v->str = text(r, &v->len)) == NULL)
		return NULL;
	return v;
}

/* The next member of a list (pos at its first character): after
 * *last, or first. */
static void
append(struct wspx__json *list, struct wspx__json **last,
    struct wspx__json *m)
{
	if (*last == NULL)
		list->first = m;
	else
		(*last)->next = m;
	*last = m;
}

/* pos past white space and c; whether c was there. */
static bool
punct(struct reader *r, char c)
{
	wspx__json_skipspace(r->s, r->len, &r->pos);
	if (r->pos < r->len && r->s[r->pos] == c) {
		r->pos++;
		return true;
	}
	return false;
}

/* A member of an object: "key": value. */
static struct wspx__json *
member(struct reader *r)
{
	struct wspx__json *m;
	const char *key;
	size_t len;

	wspx__json_skipspace(r->s, r->len, &r->pos);
	if (r->pos >= r->len || r->s[r->pos] != '"')
		return bad(r, "an object's key must be a string");
	r->pos++;
	if ((key = text(r, &len)) == NULL)
		return NULL;
	if (!punct(r, ':'))
		return bad(r, "a key needs a colon after it");
	if ((m = value(r)) != NULL)
		m->key = key;
	return m;
}

/* An array or object (pos at its opening bracket). */
static struct wspx__json *
list(struct reader *r, bool object)
{
	struct wspx__json *v, *m, *last = NULL;
	char close = object ? '}' : ']';

	if (++r->depth > WSPX__JSON_MAX_DEPTH)
		return bad(r, "nested too deep");
	if ((v = node(r, object ? WSPX__JSON_OBJECT : WSPX__JSON_ARRAY)) ==
	    NULL)
		return NULL;
	r->pos++;
	if (punct(r, close)) {
		r->depth--;
		return v;
	}
	do {
		if ((m = object ? member(r) : value(r)) == NULL)
			return NULL;
		append(v, &last, m);
	} while (punct(r, ','));
	if (!punct(r, close))
		return bad(r, object ? "an object needs , or } here" :
		    "an array needs , or ] here");
	r->depth--;
	return v;
}

static struct wspx__json *
value(struct reader *r)
{
	struct wspx__json *v;
	char c;

	wspx__json_skipspace(r->s, r->len, &r->pos);
	if (r->pos >= r->len)
		return bad(r, "a value is missing");
	c = r->s[r->pos];
	if (c == '{' || c == '[')
		return list(r, c == '{');
	if (c == '"')
		return string(r);
	if (c == '-' || isdigitc(c))
		return number(r);
	if (word(r, "null"))
		return node(r, WSPX__JSON_NULL);
	if (word(r, "true") || word(r, "false")) {
		/* (the word read ends at pos: "true" has its e after a u) */
		if ((v = node(r, WSPX__JSON_BOOL)) != NULL)
			v->boolean = r->s[r->pos - 2] == 'u';
		return v;
	}
	/* ("tr" at the end: the input ran out, see json.h) */
	if (r->len - r->pos < 5 && (strncmp(r->s + r->pos, "true",
	    r->len - r->pos) == 0 || strncmp(r->s + r->pos, "false",
	    r->len - r->pos) == 0 || strncmp(r->s + r->pos, "null",
	    r->len - r->pos) == 0))
		r->pos = r->len;
	return bad(r, "not a JSON value");
}

struct wspx__json *
wspx__json_read(struct wspx__arena *a, const char *s, size_t len,
    size_t *pos, const char **why)
{
	struct reader r = { a, s, len, *pos, 0, NULL };
	struct wspx__json *v = value(&r);

	*pos = r.pos;
	if (v == NULL)
		*why = r.why;
	return v;
}

const struct wspx__json *
wspx__json_get(const struct wspx__json *o, const char *key)
{
	const struct wspx__json *m;

	if (o == NULL || o->type != WSPX__JSON_OBJECT)
		return NULL;
	for (m = o->first; m != NULL; m = m->next)
		if (strcmp(m->key, key) == 0)
			return m;
	return NULL;
}

double
wspx__json_number(const struct wspx__json *o, const char *key, double def)
{
	const struct wspx__json *m = wspx__json_get(o, key);

	return m != NULL && m->type == WSPX__JSON_NUMBER ? m->number : def;
}

const char *
wspx__json_string(const struct wspx__json *o, const char *key)
{
	const struct wspx__json *m = wspx__json_get(o, key);

	return m != NULL && m->type == WSPX__JSON_STRING ? m->str : NULL;
}
