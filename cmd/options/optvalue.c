/*
 * The values of wspx's options: each is parsed or checked here and stored
 * in struct config.  A bad one is a usage error that names the option as
 * it was typed ("-j", "--jo"), so that the message points at the word the
 * user wrote.  options.c finds the option; this file reads its value.
 */
#include "optvalue.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/duration.h"
#include "os/cpus.h"
#include "base/size.h"
#include "input/perlre.h"
#include "input/template.h"
#include "remote/hosts.h"
#include "util/buf.h"
#include "util/slots.h"
#include "util/util.h"

unsigned long long
parsecount(const char *opt, const char *s, unsigned long long max)
{
	unsigned long long n;
	char *end;
	char why[64];

	errno = 0;
	n = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || n == 0)
		badvalue(opt, s, "is not a positive whole number");
	if (errno == ERANGE || n > max) {
		snprintf(why, sizeof(why), "is more than %llu", max);
		badvalue(opt, s, why);
	}
	return n;
}

unsigned long long
parsecount0(const char *opt, const char *s, unsigned long long max)
{
	if (*s < '0' || *s > '9' || s[strspn(s, "0123456789")] != '\0')
		badvalue(opt, s, "is not a whole number (0 or more)");
	return s[strspn(s, "0")] == '\0' ? 0 : parsecount(opt, s, max);
}

void
setblock(struct config *c, const char *opt, const char *v)
{
	c->blockset = true;
	c->blockparts = 0;
	if (*v == '-') {
		c->blockparts = (unsigned)parsecount(opt, v + 1, 1000000);
		return;
	}
	if (wspx__size_parse(v, &c->block) != 0 || c->block == 0)
		badvalue(opt, v, "is not a size of at least 1 byte (N with k, "
		    "K, M, G: 10M)");
	if (c->block > ((uint64_t)1 << 31) - 1)
		badvalue(opt, v, "is more than 2G-1 (2147483647 bytes)");
}

int
parsenice(const char *opt, const char *s)
{
	long n;
	char *end;

	errno = 0;
	n = strtol(s, &end, 10);
	if (end == s || *end != '\0' || (*s != '-' && *s != '+' &&
	    (*s < '0' || *s > '9')))
		badvalue(opt, s, "is not a whole number (a niceness, -20 to "
		    "19)");
	if (errno == ERANGE || n < -1000 || n > 1000)
		badvalue(opt, s, "is far beyond -20 to 19");
	return (int)n;
}

unsigned
cpucount(char what)
{
	struct wspx__cpus c;

	wspx__cpus_count(&c);
	return what == 't' ? c.threads : what == 's' ? c.sockets : c.cores;
}

unsigned
parsejobs(const char *opt, const char *s)
{
	const char *why;
	unsigned n;

	if ((why = slots_parse(s, wspx__cpus_threads(), &n)) != NULL)
		badvalue(opt, s, why);
	return n;
}

char
parsedelim(const char *opt, const char *s)
{
	static const char *esc = "n\nt\t0\0r\r\\\\";
	size_t i;

	if (s[0] != '\0' && s[1] == '\0')
		return s[0];
	for (i = 0; s[0] == '\\' && s[2] == '\0' && i < 10; i += 2)
		if (s[1] == esc[i])
			return esc[i + 1];
	badvalue(opt, s, "is not one character (or \\n \\t \\0 \\r \\\\)");
	return 0;
}

double
parseduration(const char *opt, const char *s)
{
	const char *why;
	double v;

	if (!wspx__duration_parse(s, &v, &why))
		badvalue(opt, s, why);
	return v;
}

void
addsource(struct config *c, enum srckind kind, const char *path,
    const char *opt)
{
	c->src = xrealloc(c->src, (c->nsrc + 1) * sizeof(*c->src));
	memset(&c->src[c->nsrc], 0, sizeof(c->src[0]));
	c->src[c->nsrc].kind = kind;
	c->src[c->nsrc].path = path;
	c->src[c->nsrc].opt = opt != NULL ? xstrdup(opt) : NULL;
	c->nsrc++;
}

void
setcolsep(struct config *c, const char *opt, const char *re)
{
	char err[256];

	if (*re == '\0')
		badvalue(opt, re, "is empty: the option needs a regular "
		    "expression");
	if (c->hascolsep)	/* given again: the last one counts */
		regfree(&c->colsep);
	c->hascolsep = false;
	strcpy(err, "is not a regular expression: ");
	if (perlre_compile(&c->colsep, re, REG_EXTENDED, err + strlen(err),
	    sizeof(err) - strlen(err)) != 0)
		badvalue(opt, re, err);
	c->hascolsep = true;
}

const char *
nonempty(const char *opt, const char *v)
{
	if (*v == '\0')
		badvalue(opt, v, "is empty: the option needs a file name");
	return v;
}

const char *
tracefile(const char *opt, const char *v)
{
	if (strcmp(v, "-") == 0)
		badvalue(opt, v, "is not a file: the trace is no stream "
		    "(the jobs' output goes to stdout)");
	return nonempty(opt, v);
}

void
settrim(struct config *c, const char *opt, const char *s)
{
	static const struct {
		const char *name;
		int trim;
	} how[] = { { "n", TRIM_NONE }, { "l", TRIM_LEFT },
	    { "r", TRIM_RIGHT }, { "lr", TRIM_BOTH }, { "rl", TRIM_BOTH } };
	size_t i;

	for (i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		if (strcmp(s, how[i].name) == 0) {
			c->trim = how[i].trim;
			c->trimset = true;
			return;
		}
	}
	badvalue(opt, s, "is not n, l, r, lr or rl");
}

void
settmpdir(struct config *c, const char *opt, const char *dir)
{
	struct stat st;
	char why[128];

	if (*dir == '\0')
		badvalue(opt, dir, "is empty: the option needs a directory");
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
		badvalue(opt, dir, "is not a directory");
	if (access(dir, W_OK | X_OK) != 0) {
		snprintf(why, sizeof(why), "cannot be used: %s",
		    strerror(errno));
		badvalue(opt, dir, why);
	}
	if (setenv("TMPDIR", dir, 1) != 0)
		fatal("setenv:");
	c->tmpdir = dir;
}

/* Pass k (0 to 4) of GNU parallel's unquote_printf() at a backslash
 * followed by p[0..n): if the pass replaces what follows, add the
 * replacement to b and return the bytes it took, else return 0.  Passes
 * 0-2 read \t, \n and \r; pass 3 reads \ddd and pass 4 \d, each d a
 * decimal digit, as Perl reads them in a string: the leading octal digits
 * make a byte (over 255: *wide is set) and the other digits stay. */
static size_t
unescape(struct buf *b, int k, const char *p, size_t n, bool *wide)
{
	size_t want = k == 3 ? 3 : 1, i, oct;
	unsigned v = 0;

	if (k < 3) {
		if (n == 0 || p[0] != "tnr"[k])
			return 0;
		bufaddc(b, "\t\n\r"[k]);
		return 1;
	}
	for (i = 0; i < want; i++)
		if (i >= n || p[i] < '0' || p[i] > '9')
			return 0;
	for (oct = 0; oct < want && p[oct] <= '7'; oct++)
		v = v * 8 + (unsigned)(p[oct] - '0');
	if (oct > 0)
		bufaddc(b, (char)v);
	*wide |= v > 255;
	bufadd(b, p + oct, want - oct);
	return want;
}

/* s with the escapes that GNU parallel reads in --tagstring replaced:
 * \t, \n, \r, and octal bytes as \ddd and \d (Perl's way, in its order of
 * passes).  Returns a malloc'd string, or NULL and sets *why (an error's
 * words) if the result would hold a NUL or a character over \377. */
static char *
unprintf(const char *s, const char **why)
{
	struct buf in = { NULL, 0, 0 }, out = { NULL, 0, 0 }, swap;
	bool wide = false;
	size_t i, took;
	int k;

	bufadds(&in, s);
	/* One pass after another, as GNU parallel's substitutions: what one
	 * makes, the next may read. */
	for (k = 0; k < 5; k++) {
		out.len = 0;
		for (i = 0; i < in.len; i++) {
			took = in.s[i] != '\\' ? 0 : unescape(&out, k,
			    in.s + i + 1, in.len - i - 1, &wide);
			if (took == 0)
				bufaddc(&out, in.s[i]);
			i += took;
		}
		swap = in;
		in = out;
		out = swap;
	}
	free(out.s);
	*why = wide ? "has an octal escape over \\377, which is no byte" :
	    in.len > 0 && memchr(in.s, '\0', in.len) != NULL ? "makes a NUL "
	    "byte, which a tag cannot hold" : NULL;
	if (*why != NULL) {
		free(in.s);
		return NULL;
	}
	return buftake(&in);
}

void
settagstring(struct config *c, const char *opt, const char *s)
{
	const char *why;

	free(c->tagstring);
	if ((c->tagstring = unprintf(s, &why)) == NULL)
		badvalue(opt, s, why);
}

void
setreplace(struct config *c, const char *opt, const char *v, bool optional)
{
	if (optional && (v == NULL || *v == '\0'))
		return;
	if (*v == '\0')
		badvalue(opt, v, "is empty");
	c->names.name[RM_WHOLE] = v;
}

void
setrename(struct config *c, const char *opt, const char *v,
    enum replmod m)
{
	if (*v == '\0')
		badvalue(opt, v, "is empty");
	c->names.name[m] = v;
}

void
setparens(struct config *c, const char *opt, const char *v)
{
	/* (an odd length gives the opening half the shorter, as GNU
	 * parallel's substr does) */
	if (strlen(v) < 2)
		badvalue(opt, v, "needs an opening and a closing string, one "
		    "after the other, such as {==}");
	c->names.parens = v;
}

void
setjoblog(struct config *c, const char *opt, const char *v)
{
	c->joblogappend = v[0] == '+';
	c->joblog = nonempty(opt, v + c->joblogappend);
}

/* Whether s ends with suffix. */
static bool
endswith(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

void
setresults(struct config *c, const char *opt, const char *v)
{
	static const char *tables[] = { ".csv", ".tsv", ".json" };
	size_t i;

	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (endswith(v, tables[i]))
			badvalue(opt, v, "names a table file: not supported "
			    "(give a directory)");
	if (strchr(v, '{') != NULL && strchr(v, '}') != NULL)
		badvalue(opt, v, "holds a replacement string: not supported "
		    "(give a directory)");
	c->results = nonempty(opt, v);
}

void
setmemfree(struct config *c, const char *opt, const char *v)
{
	if (wspx__size_parse(v, &c->memfree) != 0)
		badvalue(opt, v, "is not a size (N with k, M, G or T: 500M)");
	c->memfreespec = v;
}

double
loadvalue(const char *v)
{
	long cpus = (long)wspx__cpus_threads();
	const char *num = *v == '+' || *v == '-' ? v + 1 : v;
	char *end;
	double n;

	cpus = cpus > 0 ? cpus : 1;
	n = strtod(num, &end);
	if (*num < '0' || *num > '9' || end == num || (*end != '\0' &&
	    strcmp(end, "%") != 0) || (*end == '%' && num != v) || n > 1e6)
		return LOAD_NONE;
	if (*end == '%')
		n = (double)cpus * n / 100;
	else if (*v == '+')
		n = (double)cpus + n;
	else if (*v == '-')
		n = (double)cpus - n;
	return n <= 0 ? LOAD_ZERO : n;
}

double
loadfile_read(const char *path)
{
	char text[64];
	size_t n, from = 0;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return LOAD_UNREAD;
	n = fread(text, 1, sizeof(text) - 1, f);
	if (ferror(f) || !feof(f))
		n = 0;		/* (an error, or more than a load) */
	fclose(f);
	while (n > 0 && strchr(" \t\r\n", text[n - 1]) != NULL)
		n--;
	text[n] = '\0';
	while (text[from] == ' ' || text[from] == '\t')
		from++;
	return loadvalue(text + from);
}

void
setload(struct config *c, const char *opt, const char *v)
{
	struct stat st;
	double n = loadvalue(v);

	if (n == LOAD_NONE && stat(v, &st) == 0 && S_ISREG(st.st_mode)) {
		c->loadfile = v;
		if ((n = loadfile_read(v)) == LOAD_UNREAD)
			badusage("%s %s: cannot read the file: %s", opt, v,
			    strerror(errno));
		if (n == LOAD_NONE)
			badvalue(opt, v, "holds no load (N, N%, +N, -N)");
	}
	if (n == LOAD_NONE)
		badvalue(opt, v, "is not a load (N, N%, +N, -N) or a file "
		    "that holds one");
	if (n == LOAD_ZERO)
		badvalue(opt, v, "is not more than 0: no job could start");
	c->maxload = n;
	c->loadspec = v;
}

void
settimeout(struct config *c, const char *opt, const char *v)
{
	size_t n = strlen(v);
	char num[32];

	c->timeout = 0;
	c->timeoutpct = 0;
	if (n > 1 && n < sizeof(num) && v[n - 1] == '%') {
		memcpy(num, v, n - 1);
		num[n - 1] = '\0';
		c->timeoutpct = (unsigned)parsecount(opt, num, 100000);
		if (c->timeoutpct == 0)
			badvalue(opt, v, "is not more than 0%");
		return;
	}
	if ((c->timeout = parseduration(opt, v)) <= 0)
		badvalue(opt, v, "is not longer than 0");
}

/* --semaphore-timeout DUR or -DUR (GNU's secs > 0 and secs < 0). */
void
setsemtimeout(struct config *c, const char *opt, const char *v)
{
	bool giveup = v[0] == '-';
	const char *why;

	c->sem.on = true;
	if (!wspx__duration_parse(v + giveup, &c->sem.timeout, &why))
		badvalue(opt, v, why);
	if (giveup)
		c->sem.timeout = -c->sem.timeout;
}

void
sethalt(struct config *c, const char *opt, const char *v)
{
	if (wspx__halt_parse(v, &c->halt) != 0)
		badvalue(opt, v, "is not a halt policy (never, or soon or now, "
		    "then fail, success or done, =N or =N%: now,fail=1)");
	c->haltspec = v;
}

void
addname(const char ***v, size_t *n, const char *name)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = name;
}

const char *
envname(const char *opt, const char *v)
{
	const char *p = v;

	if ((*p < 'A' || *p > 'Z') && (*p < 'a' || *p > 'z') && *p != '_')
		p = NULL;
	while (p != NULL && *p != '\0' && ((*p >= 'A' && *p <= 'Z') ||
	    (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
		p++;
	if (p == NULL || *p != '\0' || strcmp(v, "_") == 0)
		badvalue(opt, v, "is not a variable name (GNU parallel's "
		    "--env _ and patterns are not read)");
	return v;
}

void
addhosts(struct config *c, const char *opt, const char *v)
{
	const char *err = hosts_add(&c->remote.hosts, v);

	if (err != NULL)
		badvalue(opt, v, err);
}
