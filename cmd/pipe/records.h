/*
 * The records of --pipe's input: where a block of them may be cut (after
 * --recend and before --recstart, plain strings or regular expressions),
 * -L's records of lines, and the --header at the start of the input.  The
 * rules are GNU parallel's; blocks.c decides which cut each block takes.
 *
 * The data searched, p[0..n), must be followed by a NUL byte somewhere
 * in the same allocation: glibc's regexec() reads only p[0..n) with
 * REG_STARTEND, but the sanitizers' wrapper of it reads up to a NUL.
 */
#ifndef WSPX_RECORDS_H
#define WSPX_RECORDS_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pipe_opts;

enum hdrkind {
	HDR_NONE,		/* no --header */
	HDR_LINES,		/* the first hlines lines (N, or ':') */
	HDR_REGEX		/* what hre matches at the start */
};

/* How records are told apart; read-only once made, so any thread may use
 * one at a time.  Offsets are bytes from the start of the data searched. */
struct records {
	bool regexp;		/* --regexp: re, not the strings */
	char *end;		/* --recend, its escapes read (\n \t ...) */
	size_t endlen;
	char *sep;		/* --recend then --recstart: a cut is inside
				 * it, after the --recend part */
	size_t seplen;
	regex_t re;		/* --regexp: (RECEND)(RECSTART); the cut is
				 * the end of the first group */
	size_t lines;		/* -L: lines per record, or 0 */
	size_t count;		/* -N (times -L's lines): records a
				 * block, or 0: blocks go by size */
	enum hdrkind hdr;
	const char *htext;	/* --header as given (borrowed) */
	size_t hlines;
	regex_t hre;
};

/* Where a count of records (-N) stands, so that the search goes on from
 * there when more data has come: start it zeroed. */
struct nth {
	size_t pos;		/* where the next search starts */
	size_t found;		/* cuts found so far */
};

/* The most input searched for the --header: past it (a REGEX that does
 * not match), the run goes on without one, rather than hold all the
 * input in memory as GNU parallel does. */
#define RECORDS_HEADERMAX	((size_t)16 << 20)

/* The largest block: GNU parallel's 2 GiB less a byte. */
#define RECORDS_MAXBLOCK	(((uint64_t)1 << 31) - 1)

/* GNU parallel's next size for a block of w bytes that holds no cut: 30%
 * and a byte more, at most RECORDS_MAXBLOCK. */
uint64_t records_grow(uint64_t w);

/* Read the options o into r.  A regular expression that does not
 * compile is a usage error naming its option (the program exits). */
void records_init(struct records *r, const struct pipe_opts *o);

/* Free what records_init() made. */
void records_fini(struct records *r);

/* The last cut in p[0..n) at an offset of at least min, as GNU parallel
 * cuts a block (the --recstart after it wholly inside).  Returns true and
 * sets *cut, or false if there is none.  With no separator at all, n. */
bool records_last(const struct records *r, const char *p, size_t n,
    size_t min, size_t *cut);

/* --pipepart's cut at or after p: the first one (with --regexp, as GNU
 * parallel, the last in p[0..n)).  Returns true and sets *cut. */
bool records_split(const struct records *r, const char *p, size_t n,
    size_t *cut);

/* The cut after r->count records of p[0..n) (-N), counting on from *st;
 * false if p does not hold them yet (then *st is where it stopped).  As
 * GNU parallel's, the search starts at offset 1, so a first record that
 * is empty joins the next. */
bool records_nth(const struct records *r, const char *p, size_t n,
    struct nth *st, size_t *cut);

/* -L: the cut after the last line of p[0..n) that ends a record of
 * r->lines lines, or 0 if no record is whole. */
size_t records_lines(const struct records *r, const char *p, size_t n);

/* The header at the start of p[0..n): true and *len once it is whole
 * there, false if more input is needed (or there is no --header: then
 * true and 0).  A regular expression's match that reaches the end of p
 * may go on in more input, so it is whole only once the input ended.
 * Past RECORDS_HEADERMAX bytes, false and a warning: there will be
 * none. */
bool records_header(const struct records *r, const char *p, size_t n,
    bool ended, size_t *len);

#endif /* WSPX_RECORDS_H */
