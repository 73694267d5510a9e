/*
 * Unit tests for the YAML document reader and the diagnostics list: the
 * places, styles and tags of nodes; duplicate keys, small and in a mapping
 * of 100,000 keys; keys that are not scalars; aliases shared, placed where
 * they are, unknown, or a bomb of nested aliases refused quickly in
 * bounded memory; libyaml's syntax and reader errors with their places; a
 * second document; an empty file; a file that cannot be read; nesting
 * 100,000 deep read and freed without recursion; the sort and the
 * did-you-mean search of the diagnostics.
 *
 * usage: yamldoc
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "base/diag.h"
#include "base/yamldoc.h"
#include "test.h"

/* Read text[0..len) as a file; the caller finishes doc and d. */
static int
readlen(struct wspx__yamldoc *doc, struct wspx__diag *d, const char *text,
    size_t len)
{
	FILE *f = tmpfile();
	int rc;

	if (f == NULL || fwrite(text, 1, len, f) != len || fseek(f, 0,
	    SEEK_SET) != 0) {
		perror("tmpfile");
		exit(2);
	}
	wspx__diag_init(d, "test.yaml");
	rc = wspx__yamldoc_read(doc, f, d);
	fclose(f);
	return rc;
}

static int
readstr(struct wspx__yamldoc *doc, struct wspx__diag *d, const char *text)
{
	return readlen(doc, d, text, strlen(text));
}

/* d holds exactly one error, msg at line:col. */
static bool
onediag(const struct wspx__diag *d, unsigned line, unsigned col,
    const char *msg)
{
	if (d->n == 1 && d->v[0].line == line && d->v[0].col == col &&
	    strcmp(d->v[0].msg, msg) == 0)
		return true;
	fprintf(stderr, "want %u:%u: %s\n", line, col, msg);
	for (size_t i = 0; i < d->n; i++)
		fprintf(stderr, "got  %u:%u: %s\n", d->v[i].line,
		    d->v[i].col, d->v[i].msg);
	return false;
}

static bool
isstr(const struct wspx__ynode *n, const char *s)
{
	return n != NULL && n->kind == WSPX__YSCALAR &&
	    n->len == strlen(s) && memcmp(n->str, s, n->len) == 0;
}

static bool
at(const struct wspx__ynode *n, unsigned line, unsigned col)
{
	return n != NULL && n->line == line && n->col == col;
}

static void
test_places(void)
{
	static const char text[] =
	    "jobs:\n"
	    "  a: {run: \"true\"}\n"
	    "  b:\n"
	    "    run: echo hi\n"
	    "    needs: [a, 'c']\n"
	    "    n: !!str 10\n"
	    "    m: !mine |\n"
	    "      x\n";
	const struct wspx__ynode *jobs, *a, *b, *needs;
	struct wspx__yamldoc doc;
	struct wspx__diag d;

	CHECK(readstr(&doc, &d, text) == 0 && d.n == 0);
	CHECK(doc.root != NULL && doc.root->kind == WSPX__YMAP &&
	    doc.root->n == 1 && at(doc.root, 1, 1));
	jobs = wspx__yamldoc_get(doc.root, "jobs");
	CHECK(jobs != NULL && jobs->kind == WSPX__YMAP && jobs->n == 2 &&
	    at(jobs, 2, 3) && isstr(jobs->items[0], "a") &&
	    at(jobs->items[0], 2, 3) && jobs->items[0]->plain);
	a = wspx__yamldoc_get(jobs, "a");
	CHECK(a != NULL && a->kind == WSPX__YMAP && at(a, 2, 6));
	CHECK(isstr(wspx__yamldoc_get(a, "run"), "true") &&
	    at(wspx__yamldoc_get(a, "run"), 2, 12) &&
	    !wspx__yamldoc_get(a, "run")->plain);
	b = wspx__yamldoc_get(jobs, "b");
	CHECK(b != NULL && at(b, 4, 5) && b->n == 4 && b->tag == NULL);
	CHECK(isstr(wspx__yamldoc_get(b, "run"), "echo hi") &&
	    at(wspx__yamldoc_get(b, "run"), 4, 10) &&
	    wspx__yamldoc_get(b, "run")->plain &&
	    wspx__yamldoc_get(b, "run")->tag == NULL);
	needs = wspx__yamldoc_get(b, "needs");
	CHECK(needs != NULL && needs->kind == WSPX__YSEQ && needs->n == 2 &&
	    at(needs, 5, 12) && isstr(needs->items[0], "a") &&
	    at(needs->items[0], 5, 13) && needs->items[0]->plain &&
	    isstr(needs->items[1], "c") && !needs->items[1]->plain);
	CHECK(isstr(wspx__yamldoc_get(b, "n"), "10") &&
	    wspx__yamldoc_get(b, "n")->plain &&
	    strcmp(wspx__yamldoc_get(b, "n")->tag, "!!str") == 0);
	CHECK(isstr(wspx__yamldoc_get(b, "m"), "x\n") &&
	    strcmp(wspx__yamldoc_get(b, "m")->tag, "!mine") == 0);
	CHECK(wspx__yamldoc_get(b, "nope") == NULL);
	CHECK(wspx__yamldoc_get(needs, "a") == NULL);
	CHECK(wspx__yamldoc_get(NULL, "a") == NULL);
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
}

static void
test_scalars(void)
{
	struct wspx__yamldoc doc;
	struct wspx__diag d;
	const struct wspx__ynode *n;

	/* A NUL in a scalar's text (written as an escape) is kept. */
	CHECK(readstr(&doc, &d, "a: \"x\\0y\"\nb:\n\"\": e\n") == 0);
	n = wspx__yamldoc_get(doc.root, "a");
	CHECK(n != NULL && n->len == 3 && memcmp(n->str, "x\0y", 4) == 0);
	n = wspx__yamldoc_get(doc.root, "b");
	CHECK(isstr(n, "") && n->plain && at(n, 2, 3));
	CHECK(isstr(wspx__yamldoc_get(doc.root, ""), "e"));
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	/* A scalar document. */
	CHECK(readstr(&doc, &d, "--- hello\n...\n") == 0 &&
	    isstr(doc.root, "hello") && at(doc.root, 1, 5));
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
}

static void
test_duplicates(void)
{
	struct wspx__yamldoc doc;
	struct wspx__diag d;

	CHECK(readstr(&doc, &d, "a: 1\nb: 2\n\"a\": 3\n") == -EINVAL);
	CHECK(onediag(&d, 3, 1, "duplicate key 'a' (first at 1:1)"));
	/* The tree is still there, both pairs in it. */
	CHECK(doc.root != NULL && doc.root->n == 3);
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	/* All of them are found, in nested mappings too. */
	CHECK(readstr(&doc, &d, "x: {k: 1, k: 2}\ny:\n  z: 1\n  z: 2\n"
	    "  z: 3\n") == -EINVAL);
	CHECK(d.n == 3 && d.v[0].line == 1 && d.v[0].col == 11 &&
	    d.v[1].line == 4 && d.v[2].line == 5 &&
	    strcmp(d.v[2].msg, "duplicate key 'z' (first at 3:3)") == 0);
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	/* An alias as a key is its text, placed where the alias is. */
	CHECK(readstr(&doc, &d, "- &k a\n- {*k : 1, a: 2}\n") == -EINVAL);
	CHECK(onediag(&d, 2, 12, "duplicate key 'a' (first at 2:4)"));
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	/* Same bytes, not same prefix; a long key is cut short. */
	CHECK(readstr(&doc, &d, "ab: 1\na: 2\nabc: 3\n\"a\\tb\": 1\n"
	    "\"a\\tb\": 2\n") == -EINVAL);
	CHECK(onediag(&d, 5, 1, "duplicate key 'a\\x09b' (first at 4:1)"));
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
}

/* 100,000 keys, the last a duplicate of the sixth: found, and fast. */
static void
test_bigmap(void)
{
	const size_t nkeys = 100000;
	char *text = malloc(nkeys * 24), *p = text;
	struct wspx__yamldoc doc;
	struct wspx__diag d;
	double t;
	size_t i;

	CHECK(text != NULL);
	if (text == NULL)
		return;
	for (i = 0; i < nkeys; i++)
		p += sprintf(p, "k%zu: %zu\n", i, i);
	p += sprintf(p, "k5: x\n");
	t = test_now();
	CHECK(readlen(&doc, &d, text, (size_t)(p - text)) == -EINVAL);
	t = test_now() - t;
	CHECK(onediag(&d, 100001, 1, "duplicate key 'k5' (first at 6:1)"));
	CHECK(doc.root != NULL && doc.root->n == nkeys + 1 &&
	    isstr(doc.root->items[2 * nkeys - 1], "99999"));
	printf("# 100,000 keys read and checked in %.3f s\n", t);
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	free(text);
}

static void
test_badkeys(void)
{
	struct wspx__yamldoc doc;
	struct wspx__diag d;

	CHECK(readstr(&doc, &d, "? [a]\n: 1\nb: 2\n") == -EINVAL);
	CHECK(onediag(&d, 1, 3, "a key must be a plain string"));
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	CHECK(readstr(&doc, &d, "{a: 1}: 2\n") == -EINVAL);
	CHECK(onediag(&d, 1, 1, "a key must be a plain string"));
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
}

static void
test_aliases(void)
{
	static const char text[] =
	    "base: &b {run: x, needs: [a]}\n"
	    "j1: *b\n"
	    "j2: *b\n"
	    "s: &s hello\n"
	    "t: *s\n"
	    "b2: &b [1]\n"
	    "j3: *b\n";
	const struct wspx__ynode *base, *j1, *j2, *j3;
	struct wspx__yamldoc doc;
	struct wspx__diag d;

	CHECK(readstr(&doc, &d, text) == 0 && d.n == 0);
	base = wspx__yamldoc_get(doc.root, "base");
	j1 = wspx__yamldoc_get(doc.root, "j1");
	j2 = wspx__yamldoc_get(doc.root, "j2");
	CHECK(base != NULL && !base->alias && at(base, 1, 7));
	CHECK(j1 != NULL && j1->alias && j1->kind == WSPX__YMAP &&
	    j1->n == 2 && j1->items == base->items && at(j1, 2, 5));
	CHECK(j2 != NULL && j2->alias && j2->items == base->items &&
	    at(j2, 3, 5));
	CHECK(wspx__yamldoc_get(j2, "needs") ==
	    wspx__yamldoc_get(base, "needs"));
	CHECK(wspx__yamldoc_get(doc.root, "t")->alias &&
	    wspx__yamldoc_get(doc.root, "t")->str ==
	    wspx__yamldoc_get(doc.root, "s")->str &&
	    !wspx__yamldoc_get(doc.root, "s")->alias);
	/* A redefined anchor stands for its latest node. */
	j3 = wspx__yamldoc_get(doc.root, "j3");
	CHECK(j3 != NULL && j3->kind == WSPX__YSEQ && j3->n == 1);
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
}

static void
test_unknown_alias(void)
{
	struct wspx__yamldoc doc;
	struct wspx__diag d;

	/* The anchor is defined when its node ends: no cycle. */
	CHECK(readstr(&doc, &d, "&a [*a]\n") == -EINVAL);
	CHECK(onediag(&d, 1, 5, "unknown alias '*a'"));
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	CHECK(readstr(&doc, &d, "a: *nope\nb: &x {c: *x}\n") == -EINVAL);
	CHECK(d.n == 2 && d.v[0].line == 1 && d.v[0].col == 4 &&
	    strcmp(d.v[1].msg, "unknown alias '*x'") == 0);
	/* The mapping keeps its pairs: a null stands in. */
	CHECK(doc.root != NULL && doc.root->n == 2 &&
	    isstr(wspx__yamldoc_get(doc.root, "a"), ""));
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
}

static long
maxrss(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* Billion laughs: 9 levels of 9 aliases, 10^9 nodes expanded. */
static void
test_bomb(void)
{
	char text[4096], *p = text;
	struct wspx__yamldoc doc;
	struct wspx__diag d;
	long rss = maxrss();
	double t;
	int i, j;

	p += sprintf(p, "a: &a [lol");
	for (j = 1; j < 9; j++)
		p += sprintf(p, ", lol");
	p += sprintf(p, "]\n");
	for (i = 1; i <= 9; i++) {
		p += sprintf(p, "%c: &%c [*%c", 'a' + i, 'a' + i, 'a' + i - 1);
		for (j = 1; j < 9; j++)
			p += sprintf(p, ", *%c", 'a' + i - 1);
		p += sprintf(p, "]\n");
	}
	t = test_now();
	CHECK(readstr(&doc, &d, text) == -EINVAL);
	t = test_now() - t;
	/* g expands to 5,380,840 nodes: h's first alias crosses 10^7. */
	CHECK(onediag(&d, 8, 8, "aliases expand the document past "
	    "10000000 nodes (an alias bomb?)"));
	CHECK(doc.root == NULL);
	CHECK(t < 2.0);
	CHECK(maxrss() - rss < 16 * 1024);
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
}

static void
test_syntax(void)
{
	struct wspx__yamldoc doc;
	struct wspx__diag d;

	CHECK(readstr(&doc, &d, "jobs:\n  a:\n    run: x\n   needs: y\n") ==
	    -EINVAL);
	CHECK(onediag(&d, 4, 4, "did not find expected key (while parsing "
	    "a block mapping that started at 2:3)"));
	CHECK(doc.root == NULL);
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	CHECK(readstr(&doc, &d, "a: @x\n") == -EINVAL);
	CHECK(onediag(&d, 1, 4, "found character that cannot start any "
	    "token"));
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	/* Reader errors come with an offset; the place is counted. */
	CHECK(readlen(&doc, &d, "a: 1\nb: \xc3\xa9x\0y\n", 13) == -EINVAL);
	CHECK(onediag(&d, 2, 6, "control characters are not allowed "
	    "(U+0000)"));
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	CHECK(readstr(&doc, &d, "a: 1\nb: x\xffy\n") == -EINVAL);
	CHECK(onediag(&d, 2, 5, "invalid leading UTF-8 octet (byte 0xff)"));
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
}

static void
test_documents(void)
{
	struct wspx__yamldoc doc;
	struct wspx__diag d;

	CHECK(readstr(&doc, &d, "a: 1\n---\nb: 2\n") == -EINVAL);
	CHECK(onediag(&d, 2, 1, "a second document (the file must hold "
	    "only one)"));
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	CHECK(readstr(&doc, &d, "") == 0 && doc.root == NULL && d.n == 0);
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	CHECK(readstr(&doc, &d, "# nothing\n\n") == 0 && doc.root == NULL);
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	/* An empty document is a null. */
	CHECK(readstr(&doc, &d, "---\n") == 0 && isstr(doc.root, ""));
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
}

static void
test_readerror(void)
{
	struct wspx__yamldoc doc;
	struct wspx__diag d;
	FILE *f = fopen("/", "r");

	/* Reading a directory fails with EISDIR. */
	CHECK(f != NULL);
	if (f == NULL)
		return;
	wspx__diag_init(&d, "/");
	CHECK(wspx__yamldoc_read(&doc, f, &d) == -EIO);
	CHECK(onediag(&d, 0, 0, strerror(EISDIR)));
	CHECK(doc.root == NULL);
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	fclose(f);
}

/* 100,000 [ deep: libyaml takes it or refuses it; no crash either way,
 * and the tree is walked and freed without recursion. */
static void
test_deep(void)
{
	const size_t depth = 100000;
	char *text = malloc(2 * depth + 2);
	const struct wspx__ynode *n;
	struct wspx__yamldoc doc;
	struct wspx__diag d;
	size_t i;
	int rc;

	CHECK(text != NULL);
	if (text == NULL)
		return;
	memset(text, '[', depth);
	memset(text + depth, ']', depth);
	text[2 * depth] = '\n';
	/* refused at the first level past the limit, before libyaml's
	 * scans of the whole depth (minutes at this depth) */
	rc = readlen(&doc, &d, text, 2 * depth + 1);
	CHECK(rc == -EINVAL && d.n == 1 && d.v[0].line == 1 &&
	    d.v[0].col == WSPX__YAML_MAX_DEPTH + 1 &&
	    strstr(d.v[0].msg, "nested deeper than") != NULL);
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	/* as deep as allowed: read */
	memset(text, '[', WSPX__YAML_MAX_DEPTH);
	memset(text + WSPX__YAML_MAX_DEPTH, ']', WSPX__YAML_MAX_DEPTH);
	CHECK(readlen(&doc, &d, text, 2 * WSPX__YAML_MAX_DEPTH) == 0);
	for (i = 0, n = doc.root; n != NULL && n->kind == WSPX__YSEQ; i++)
		n = n->n != 0 ? n->items[0] : NULL;
	CHECK(i == WSPX__YAML_MAX_DEPTH);
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	memset(text, '[', depth);
	/* Never closed. */
	CHECK(readlen(&doc, &d, text, depth) == -EINVAL && d.n == 1 &&
	    doc.root == NULL);
	wspx__yamldoc_fini(&doc);
	wspx__diag_fini(&d);
	free(text);
}

static void
test_diag(void)
{
	static const unsigned places[][2] = { { 3, 1 }, { 1, 5 }, { 1, 2 },
	    { 0, 0 }, { 1, 2 }, { 3, 1 }, { 2, 9 } };
	static const char *order[] = { "3", "1", "2", "0", "4", "5", "6" };
	static const char *want[] = { "0", "2", "4", "1", "6", "3", "5" };
	struct wspx__diag d;
	unsigned line, col;
	size_t i, n = sizeof(places) / sizeof(places[0]);

	wspx__diag_init(&d, "x.yaml");
	for (i = 0; i < n; i++)
		wspx__diag_add(&d, places[i][0], places[i][1], "%s", order[i]);
	wspx__diag_sort(&d);
	CHECK(d.n == n && !d.nomem);
	for (i = 0; i < d.n && i < n; i++)
		CHECK(strcmp(d.v[i].msg, want[i]) == 0);
	wspx__diag_fini(&d);
	/* Stable over many, in a pseudo-random order. */
	wspx__diag_init(&d, "x.yaml");
	for (i = 0; i < 1000; i++)
		wspx__diag_add(&d, (unsigned)(i * 7919 % 13),
		    (unsigned)(i * 104729 % 5), "%05zu", i);
	wspx__diag_sort(&d);
	for (i = 1; i < d.n; i++) {
		line = d.v[i - 1].line;
		col = d.v[i - 1].col;
		CHECK(line < d.v[i].line || (line == d.v[i].line &&
		    (col < d.v[i].col || (col == d.v[i].col &&
		    strcmp(d.v[i - 1].msg, d.v[i].msg) < 0))));
	}
	wspx__diag_fini(&d);
}

static void
test_nearest(void)
{
	static const char *const keys[] = { "run", "needs", "retries",
	    "timeout", "env", "cwd", "rum" };
	const size_t n = sizeof(keys) / sizeof(keys[0]);

	CHECK(strcmp(wspx__diag_nearest("nedes", keys, n), "needs") == 0);
	CHECK(wspx__diag_nearest("xyz", keys, n) == NULL);
	CHECK(strcmp(wspx__diag_nearest("needs", keys, n), "needs") == 0);
	/* Ties: the first listed. */
	CHECK(strcmp(wspx__diag_nearest("ru", keys, n), "run") == 0);
	CHECK(strcmp(wspx__diag_nearest("rnu", keys, n), "run") == 0);
	CHECK(strcmp(wspx__diag_nearest("timeuot", keys, n), "timeout") == 0);
	/* At most a third of the word's length: 2 edits of 7, not 3. */
	CHECK(strcmp(wspx__diag_nearest("tmieuot", keys, n), "timeout") == 0);
	CHECK(wspx__diag_nearest("xmieuot", keys, n) == NULL);
	CHECK(strcmp(wspx__diag_nearest("retires", keys, n), "retries") == 0);
	CHECK(wspx__diag_nearest("", keys, n) == NULL);
	CHECK(wspx__diag_nearest("run", keys, 0) == NULL);
}

static void
test_quote(void)
{
	char buf[16], big[64];

	CHECK(strcmp(wspx__diag_quote(buf, sizeof(buf), "a\nb", 3),
	    "a\\x0ab") == 0);
	CHECK(strcmp(wspx__diag_quote(buf, sizeof(buf), "abcdefghijklmno",
	    15), "abcdefgh...") == 0);
	/* Not inside a character: é is 2 bytes. */
	CHECK(strcmp(wspx__diag_quote(buf, sizeof(buf), "abcdef\xc3\xa9xyz",
	    11), "abcdef\xc3\xa9...") == 0);
	CHECK(strcmp(wspx__diag_quote(buf, sizeof(buf), "abcdefg\xc3\xa9xyz",
	    12), "abcdefg...") == 0);
	CHECK(strcmp(wspx__diag_quote(big, sizeof(big), "k5", 2), "k5") == 0);
	CHECK(strcmp(wspx__diag_quote(big, sizeof(big), "", 0), "") == 0);
}

int
main(void)
{
	TEST(test_places(), "places, styles and tags of nodes");
	TEST(test_scalars(), "scalars with NULs, nulls, a scalar document");
	TEST(test_duplicates(), "duplicate keys: place, first place, all");
	TEST(test_bigmap(), "a duplicate at the end of 100,000 keys");
	TEST(test_badkeys(), "a mapping or a sequence as a key");
	TEST(test_aliases(), "aliases share the anchor's node");
	TEST(test_unknown_alias(), "unknown aliases, &a [*a] included");
	TEST(test_bomb(), "an alias bomb refused quickly, in little memory");
	TEST(test_syntax(), "syntax and reader errors, with their places");
	TEST(test_documents(), "two documents refused, empty files");
	TEST(test_readerror(), "a read error is -EIO with errno's text");
	TEST(test_deep(), "100,000 [ deep is refused at the depth limit, "
	    "closed and not; as deep as the limit is read");
	TEST(test_diag(), "diagnostics sorted by place, stable");
	TEST(test_nearest(), "the nearest known word");
	TEST(test_quote(), "user text quoted for messages");
	return test_done();
}
