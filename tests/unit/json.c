/*
 * The JSON reader (lib/base/json.c): every kind of value, the escapes and
 * surrogate pairs, where each error is found, the depth limit, and one
 * value at a time from a buffer that goes on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "test.h"

/* s read whole: the value, or NULL with *why and *at set. */
static struct wspx__json *
readall(struct wspx__arena *a, const char *s, const char **why, size_t *at)
{
	size_t pos = 0;
	struct wspx__json *v = wspx__json_read(a, s, strlen(s), &pos, why);

	*at = pos;
	return v;
}

static void
test_values(void)
{
	struct wspx__arena a = { NULL, 0 };
	const struct wspx__json *v, *m;
	const char *why = NULL;
	size_t at;

	v = readall(&a, " {\"n\": -1.5e2, \"t\": true, \"f\": false, "
	    "\"z\": null, \"s\": \"a\\\"b\\\\c\\n\", \"l\": [1, [], {}]} ",
	    &why, &at);
	CHECK(v != NULL && v->type == WSPX__JSON_OBJECT);
	CHECK(wspx__json_number(v, "n", 0) == -150);
	m = wspx__json_get(v, "t");
	CHECK(m != NULL && m->type == WSPX__JSON_BOOL && m->boolean);
	m = wspx__json_get(v, "f");
	CHECK(m != NULL && m->type == WSPX__JSON_BOOL && !m->boolean);
	m = wspx__json_get(v, "z");
	CHECK(m != NULL && m->type == WSPX__JSON_NULL);
	CHECK(strcmp(wspx__json_string(v, "s"), "a\"b\\c\n") == 0);
	m = wspx__json_get(v, "l");
	CHECK(m != NULL && m->type == WSPX__JSON_ARRAY && m->first != NULL &&
	    m->first->number == 1 && m->first->next->type ==
	    WSPX__JSON_ARRAY && m->first->next->next->type ==
	    WSPX__JSON_OBJECT && m->first->next->next->next == NULL);
	CHECK(wspx__json_get(v, "missing") == NULL);
	CHECK(wspx__json_number(v, "s", 7) == 7);	/* not a number */
	CHECK(wspx__json_string(v, "n") == NULL);	/* not a string */
	wspx__arena_fini(&a);
}

static void
test_unicode(void)
{
	struct wspx__arena a = { NULL, 0 };
	const struct wspx__json *v;
	const char *why = NULL;
	size_t at;

	/* é, €, U+1F600 (a surrogate pair), and a NUL kept in len */
	v = readall(&a, "\"\\u00e9\\u20ac\\ud83d\\ude00\\u0000x\"", &why,
	    &at);
	CHECK(v != NULL && v->len == 2 + 3 + 4 + 2);
	CHECK(v != NULL && memcmp(v->str, "\xc3\xa9\xe2\x82\xac"
	    "\xf0\x9f\x98\x80\0x", 11) == 0);
	/* raw UTF-8 passes as it is */
	v = readall(&a, "\"\xc3\xa9\"", &why, &at);
	CHECK(v != NULL && strcmp(v->str, "\xc3\xa9") == 0);
	wspx__arena_fini(&a);
}

/* s is refused, at byte at, for why. */
static void
refused(const char *s, size_t at, const char *why)
{
	struct wspx__arena a = { NULL, 0 };
	const char *got = NULL;
	size_t pos;

	CHECK(readall(&a, s, &got, &pos) == NULL);
	CHECK(pos == at);
	CHECK(got != NULL && strcmp(got, why) == 0);
	if (pos != at || got == NULL || strcmp(got, why) != 0)
		fprintf(stderr, "  %s: at %zu, %s\n", s, pos, got);
	wspx__arena_fini(&a);
}

static void
test_errors(void)
{
	refused("", 0, "a value is missing");
	refused("[1, 2", 5, "an array needs , or ] here");
	refused("{\"a\" 1}", 5, "a key needs a colon after it");
	refused("{1: 2}", 1, "an object's key must be a string");
	refused("\"abc", 4, "a string without its closing quote");
	refused("[1, tr", 6, "not a JSON value");
	refused("\"a\\qb\"", 3, "an unknown escape in a string");
	refused("\"a\tb\"", 2, "a control character in a string");
	refused("\"\\ud83d\"", 7, "a high surrogate without its low one");
	refused("\"\\ude00\"", 7, "a low surrogate without its high one");
	refused("\"\\u12g4\"", 3, "\\u needs four hex digits");
	refused("-", 1, "a number needs a digit");
	refused("1.", 2, "a number needs a digit after its point");
	refused("1e+", 3, "a number needs a digit in its exponent");
	refused("tru", 3, "not a JSON value");
	refused("trux", 0, "not a JSON value");
	refused("[1e400]", 1, "a number too large");
	refused("-1e400", 0, "a number too large");
	refused("[1,]", 3, "not a JSON value");
}

static void
test_depth(void)
{
	struct wspx__arena a = { NULL, 0 };
	size_t n = WSPX__JSON_MAX_DEPTH, i, at;
	char *s = malloc(2 * n + 3);
	const char *why = NULL;

	/* as deep as allowed: read; one deeper: refused, not a crash */
	for (i = 0; i < n; i++) {
		s[i] = '[';
		s[n + i] = ']';
	}
	s[2 * n] = '\0';
	CHECK(readall(&a, s, &why, &at) != NULL);
	memmove(s + 1, s, 2 * n + 1);
	s[0] = '[';
	strcat(s, "]");
	CHECK(readall(&a, s, &why, &at) == NULL);
	CHECK(why != NULL && strcmp(why, "nested too deep") == 0);
	wspx__arena_fini(&a);
	free(s);
}

static void
test_stream(void)
{
	static const char s[] = "{\"a\": 1}\n{\"a\": 2}  ,3";
	struct wspx__arena a = { NULL, 0 };
	const char *why = NULL;
	size_t pos = 0;
	struct wspx__json *v;

	v = wspx__json_read(&a, s, sizeof(s) - 1, &pos, &why);
	CHECK(v != NULL && wspx__json_number(v, "a", 0) == 1 && pos == 8);
	v = wspx__json_read(&a, s, sizeof(s) - 1, &pos, &why);
	CHECK(v != NULL && wspx__json_number(v, "a", 0) == 2 && pos == 17);
	wspx__json_skipspace(s, sizeof(s) - 1, &pos);
	CHECK(pos == 19 && s[pos] == ',');
	/* a buffer that ends inside a value: the error is at its end */
	pos = 0;
	CHECK(wspx__json_read(&a, s, 5, &pos, &why) == NULL && pos == 5);
	wspx__arena_fini(&a);
}

int
main(void)
{
	TEST(test_values(), "json: objects, arrays, numbers, words, strings");
	TEST(test_unicode(), "json: \\u escapes and surrogate pairs to UTF-8");
	TEST(test_errors(), "json: each error found at its byte");
	TEST(test_depth(), "json: nesting bounded");
	TEST(test_stream(), "json: a value at a time from a longer buffer");
	return test_done();
}
