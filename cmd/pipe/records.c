/*
 * Record boundaries for --pipe and --pipepart (see records.h), found as
 * GNU parallel finds them, so that the same input gives the same blocks.
 *
 * Strings.  --recend and --recstart without --regexp are strings in which
 * \n \t \r \0 \' \" and \\ are read as GNU parallel reads them; a cut lies
 * in each occurrence of the one followed by the other, after the
 * --recend part.  Without either option a record ends with a newline;
 * with only --recstart it ends anywhere before one.
 *
 * Regular expressions.  With --regexp the two become one POSIX extended
 * expression (RECEND)(RECSTART), with Perl's escapes that POSIX lacks
 * rewritten (input/perlre.c); GNU parallel's /m applies, so '.'
 * does not match a newline and ^ and $ match at every line.  POSIX takes
 * the longest match where Perl takes the first alternative: the two
 * agree for the usual separators.  Searches go by REG_STARTEND where the
 * C library has it, so that data may hold NUL bytes and ^ sees the byte
 * before the search's start.
 */
#include "records.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/perlre.h"
#include "pipeopts.h"
#include "util/buf.h"
#include "util/util.h"

/* Where a regular expression's search for the last cut starts, before the
 * end of the data; it widens by four each time it finds none. */
#define LASTSPAN 4096

/* s with GNU parallel's escapes read (its "qq" of \0 \r \n \t \' \" \\);
 * *n is its length, which may count NUL bytes. */
static char *
unescape(const char *s, size_t *n)
{
	struct buf b = { NULL, 0, 0 };
	const char *from = "0rnt'\"\\", *to = "\0\r\n\t'\"\\", *e;

	for (; *s != '\0'; s++) {
		if (*s == '\\' && s[1] != '\0' &&
		    (e = strchr(from, s[1])) != NULL) {
			bufaddc(&b, to[e - from]);
			s++;
		} else {
			bufaddc(&b, *s);
		}
	}
	*n = b.len;
	return b.s != NULL ? buftake(&b) : xstrdup("");
}

/* Compile re for opt (--recstart, --recend, --header); a usage error
 * names the option if it does not compile. */
static void
compile(regex_t *rx, const char *re, const char *opt, const char *typed)
{
	char err[256];

	strcpy(err, "is not a regular expression (--regexp): ");
	if (strcmp(opt, "--header") == 0)
		strcpy(err, "is neither a number of lines nor a regular "
		    "expression: ");
	if (perlre_compile(rx, re, REG_EXTENDED | REG_NEWLINE, err +
	    strlen(err), sizeof(err) - strlen(err)) != 0)
		badvalue(opt, typed, err);
}

/* Check re for opt against the bounds of perlre.h alone; a usage error
 * names the option if it is not within them. */
static void
bounds(const char *re, const char *opt)
{
	char err[256] = "is not a regular expression (--regexp): ";

	if (perlre_bounds(re, err + strlen(err), sizeof(err) - strlen(err)) !=
	    0)
		badvalue(opt, re, err);
}

/* --regexp: each expression checked alone against the bounds (a ')'
 * that closes no group would join the two), then the two compiled as
 * one; only if that fails is each compiled alone, for an error naming
 * its option, else the error names both (each may pass the bounds of
 * perlre.h, and the two not).  (Compiling each alone every time would
 * double the compiles, and their trials.) */
static void
compilesep(struct records *r, const char *start, const char *end)
{
	struct buf b = { NULL, 0, 0 };
	char err[8];
	regex_t alone;

	if (*start != '\0')
		bounds(start, "--recstart");
	if (*end != '\0')
		bounds(end, "--recend");
	bufprintf(&b, "(%s)(%s)", end, start);
	if (perlre_compile(&r->re, b.s, REG_EXTENDED | REG_NEWLINE, err,
	    sizeof(err)) != 0) {
		if (*start != '\0') {
			compile(&alone, start, "--recstart", start);
			regfree(&alone);
		}
		if (*end != '\0') {
			compile(&alone, end, "--recend", end);
			regfree(&alone);
		}
		compile(&r->re, b.s, "--recend with --recstart", b.s);
	}
	free(b.s);
}

/* --header N (lines), ':' (one line) or a regular expression. */
static void
header(struct records *r, const char *h)
{
	size_t n;

	if (h == NULL || strcmp(h, "0") == 0)
		return;
	r->htext = h;
	n = strspn(h, "0123456789");
	if (strcmp(h, ":") == 0 || (n > 0 && h[n] == '\0')) {
		r->hdr = HDR_LINES;
		r->hlines = *h == ':' ? 1 : (size_t)strtoull(h, NULL, 10);
		if (r->hlines == 0)
			r->hdr = HDR_NONE;
		return;
	}
	compile(&r->hre, h, "--header", h);
	r->hdr = HDR_REGEX;
}

void
records_init(struct records *r, const struct pipe_opts *o)
{
	const char *start = o->recstart, *end = o->recend;
	char *s;
	size_t n;

	memset(r, 0, sizeof(*r));
	/* GNU parallel's defaults: a newline ends a record unless either
	 * option is given; --regexp --recend '' alone is any character */
	if (start == NULL && end == NULL)
		end = "\n";
	if (o->regexp && start == NULL && end != NULL && *end == '\0')
		end = ".|\n";
	start = start != NULL ? start : "";
	end = end != NULL ? end : "";
	r->regexp = o->regexp;
	if (r->regexp) {
		compilesep(r, start, end);
	} else {
		r->end = unescape(end, &r->endlen);
		s = unescape(start, &n);
		r->seplen = r->endlen + n;
		r->sep = xmalloc(r->seplen + 1);
		memcpy(r->sep, r->end, r->endlen);
		memcpy(r->sep + r->endlen, s, n);
		free(s);
	}
	r->lines = o->lines;
	if (o->count > 0)
		r->count = o->count * (r->lines > 0 ? r->lines : 1);
	header(r, o->header);
}

uint64_t
records_grow(uint64_t w)
{
	uint64_t g = (13 * w + 9) / 10 + 1;	/* ceil(w * 1.3 + 1) */

	return g < RECORDS_MAXBLOCK ? g : RECORDS_MAXBLOCK;
}

void
records_fini(struct records *r)
{
	if (r->regexp)
		regfree(&r->re);
	if (r->hdr == HDR_REGEX)
		regfree(&r->hre);
	free(r->end);
	free(r->sep);
}

/* The leftmost match of rx in p[from..n), with offsets from p. */
static bool
search(const regex_t *rx, const char *p, size_t from, size_t n,
    regmatch_t *m, size_t nm)
{
#ifdef REG_STARTEND
	m[0].rm_so = (regoff_t)from;
	m[0].rm_eo = (regoff_t)n;
	return regexec(rx, p, nm, m, REG_STARTEND) == 0;
#else
	/* (the data stops at a NUL byte here) */
	char *s = xmalloc(n - from + 1);
	size_t i;
	bool ok;

	memcpy(s, p + from, n - from);
	s[n - from] = '\0';
	ok = regexec(rx, s, nm, m, from > 0 && p[from - 1] != '\n' ?
	    REG_NOTBOL : 0) == 0;
	free(s);
	for (i = 0; ok && i < nm; i++)
		if (m[i].rm_so >= 0) {
			m[i].rm_so += (regoff_t)from;
			m[i].rm_eo += (regoff_t)from;
		}
	return ok;
#endif
}

/* The first occurrence of s (n > 0 bytes) in p[from..len), or SIZE_MAX. */
static size_t
findfwd(const char *p, size_t len, size_t from, const char *s, size_t n)
{
	const char *q;

	while (from + n <= len) {
		q = memchr(p + from, s[0], len - n + 1 - from);
		if (q == NULL)
			break;
		from = (size_t)(q - p);
		if (memcmp(q, s, n) == 0)
			return from;
		from++;
	}
	return SIZE_MAX;
}

/* The last occurrence of s (n > 0 bytes) in p[0..len), or SIZE_MAX. */
static size_t
findback(const char *p, size_t len, const char *s, size_t n)
{
	size_t i;

	if (len < n)
		return SIZE_MAX;
	for (i = len - n + 1; i-- > 0;)
		if (p[i] == s[0] && memcmp(p + i, s, n) == 0)
			return i;
	return SIZE_MAX;
}

/* The cut of each match in p[from..n), left to right: the last of at
 * least min in *cut.  Returns whether there was one. */
static bool
everycut(const struct records *r, const char *p, size_t from, size_t n,
    size_t min, size_t *cut)
{
	regmatch_t m[2];
	bool found = false;

	while (from <= n && search(&r->re, p, from, n, m, 2)) {
		if ((size_t)m[1].rm_eo >= min) {
			*cut = (size_t)m[1].rm_eo;
			found = true;
		}
		from = (size_t)m[0].rm_so + 1;
	}
	return found;
}

/* --regexp: the last cut of at least min in p[0..n).  Matches are found
 * left to right, so the search starts near the end and widens until it
 * finds one: a whole block is not scanned to find its last line.  The
 * matches are first walked whole, without the group that is the cut:
 * glibc then needs no log of its states, which it allocates and clears
 * for each call, over the whole buffer; that costs a block where every
 * byte starts a match (a long --recstart over its own letter) a hundred
 * calls of it.  The last match's cut is taken with its group; only when
 * that one is short of min are they all walked again with it. */
static bool
lastmatch(const struct records *r, const char *p, size_t n, size_t min,
    size_t *cut)
{
	regmatch_t m[2];
	size_t span = LASTSPAN, from, last = 0;
	bool found = false;

	for (;;) {
		from = n > span ? n - span : 0;
		while (from <= n && search(&r->re, p, from, n, m, 1)) {
			last = (size_t)m[0].rm_so;
			found = true;
			from = last + 1;
		}
		if (found && search(&r->re, p, last, n, m, 2) &&
		    (size_t)m[1].rm_eo >= min) {
			*cut = (size_t)m[1].rm_eo;
			return true;
		}
		if (found)
			return everycut(r, p, n > span ? n - span : 0, n, min,
			    cut);
		if (n <= span)
			return false;
		span *= 4;
	}
}

bool
records_last(const struct records *r, const char *p, size_t n, size_t min,
    size_t *cut)
{
	size_t i;

	if (r->regexp)
		return lastmatch(r, p, n, min, cut);
	if (r->seplen == 0) {
		*cut = n;
		return n >= min;
	}
	if ((i = findback(p, n, r->sep, r->seplen)) == SIZE_MAX)
		return false;
	*cut = i + r->endlen;
	return *cut >= min;
}

bool
records_split(const struct records *r, const char *p, size_t n,
    size_t *cut)
{
	size_t i;

	if (r->regexp)
		return lastmatch(r, p, n, 0, cut);
	if (r->seplen == 0) {
		*cut = 0;
		return true;
	}
	if ((i = findfwd(p, n, 0, r->sep, r->seplen)) == SIZE_MAX)
		return false;
	*cut = i + r->endlen;
	return true;
}

/* records_nth() with --regexp.  A match that reaches the end of the data
 * might grow with more data, so it waits for more. */
static bool
nthmatch(const struct records *r, const char *p, size_t n, struct nth *st,
    size_t *cut)
{
	regmatch_t m[2];

	while (st->pos < n && search(&r->re, p, st->pos, n, m, 2) &&
	    (size_t)m[0].rm_eo < n) {
		st->pos = (size_t)m[0].rm_so + 1;
		if (m[1].rm_eo == 0)
			continue;
		if (++st->found == r->count) {
			*cut = (size_t)m[1].rm_eo;
			return true;
		}
	}
	return false;
}

bool
records_nth(const struct records *r, const char *p, size_t n,
    struct nth *st, size_t *cut)
{
	size_t i;

	if (st->pos == 0)
		st->pos = 1;	/* GNU parallel's nindex() starts at 1 */
	if (r->regexp)
		return nthmatch(r, p, n, st, cut);
	if (r->seplen == 0) {
		*cut = r->count;
		return n >= r->count;
	}
	while ((i = findfwd(p, n, st->pos, r->sep, r->seplen)) != SIZE_MAX) {
		st->pos = i + 1;
		if (++st->found == r->count) {
			*cut = i + r->endlen;
			return true;
		}
	}
	/* (an occurrence cut short by the end of the data is searched again
	 * when more has come) */
	if (n >= r->seplen && n - r->seplen + 1 > st->pos)
		st->pos = n - r->seplen + 1;
	return false;
}

size_t
records_lines(const struct records *r, const char *p, size_t n)
{
	const char *q = p, *nl;
	size_t lines = 0, cut = 0;

	while ((nl = memchr(q, '\n', n - (size_t)(q - p))) != NULL) {
		q = nl + 1;
		if (++lines % r->lines == 0)
			cut = (size_t)(q - p);
	}
	return cut;
}

/* records_header() once there is a --header.  (A regex that may match
 * nothing, as '(%.*\n)*', would match the empty start of the input before
 * any of it is read.) */
static bool
findheader(const struct records *r, const char *p, size_t n, bool ended,
    size_t *len)
{
	regmatch_t m[1];
	const char *q = p, *nl;
	size_t lines = 0;

	if (r->hdr == HDR_REGEX) {
		if (!search(&r->hre, p, 0, n, m, 1) || m[0].rm_so != 0 ||
		    (!ended && (size_t)m[0].rm_eo == n))
			return false;
		*len = (size_t)m[0].rm_eo;
		return true;
	}
	while (lines < r->hlines &&
	    (nl = memchr(q, '\n', n - (size_t)(q - p))) != NULL) {
		q = nl + 1;
		lines++;
	}
	*len = (size_t)(q - p);
	return lines == r->hlines;
}

bool
records_header(const struct records *r, const char *p, size_t n,
    bool ended, size_t *len)
{
	*len = 0;
	if (r->hdr == HDR_NONE)
		return true;
	if (findheader(r, p, n, ended, len))
		return true;
	*len = 0;
	if (n > RECORDS_HEADERMAX)
		warn("--header %s: not found in the first %zu MiB of the "
		    "input: no header", r->htext, RECORDS_HEADERMAX >> 20);
	return false;
}
