/*
 * Options from outside the command line, read as GNU parallel reads them:
 * first its profiles, then $PARALLEL, then the command line, which so has
 * the last word.
 *
 * The profiles.  Without -J, every config file that exists:
 * /etc/parallel/config, config in each config directory, ~/.parallelrc.
 * The config directories are, of $PARALLEL_HOME, $XDG_CONFIG_HOME/parallel,
 * parallel/ in each directory of $XDG_CONFIG_DIRS and ~/.parallel, those
 * that exist.  -J NAME, which may be repeated, reads NAME in each config
 * directory instead, or the file NAME itself when it starts with / or ./;
 * a NAME found nowhere is an error, where GNU parallel says nothing.
 * --plain reads no profile and not $PARALLEL either.
 *
 * A profile's lines, but for those whose first non-blank is #, and
 * $PARALLEL are split into words as a shell would split them, by quotes
 * and backslashes, with no expansion (Perl's Text::ParseWords::shellwords,
 * which GNU parallel uses).  The options of each are parsed on their own;
 * words after them (a command, such as "nice") go before the command
 * line's command, as GNU parallel puts them.
 */
#include "profile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmdline.h"
#include "config.h"
#include "options.h"
#include "util/buf.h"
#include "util/util.h"

/* A growing array of strings, NULL-terminated once done. */
struct words {
	char **v;
	size_t n, cap;
};

static void
push(struct words *w, char *s)
{
	if (w->n + 1 >= w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->v = xrealloc(w->v, w->cap * sizeof(*w->v));
	}
	w->v[w->n++] = s;
	w->v[w->n] = NULL;
}

/* The words read, and the argv made of them, for the run's whole life:
 * the configuration and the command point into them. */
static struct words kept;

/* Keep w's words; free w's array. */
static void
keep(struct words *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		push(&kept, w->v[i]);
	free(w->v);
	w->v = NULL;
	w->n = w->cap = 0;
}

/* One quoted piece of s, from the quote at *p, appended to word; *p moves
 * past the closing quote.  Inside "", a backslash takes the next byte as
 * it is; inside '', a backslash and the next byte stay as they are (so \'
 * does not end it), as shellwords does.  Returns false if none closes. */
static bool
quoted(struct buf *word, const char **p)
{
	const char *s = *p;
	char q = *s++;

	for (; *s != q; s++) {
		if (*s == '\0')
			return false;
		if (*s == '\\' && s[1] != '\0') {
			if (q == '\'')
				bufadd(word, s, 1);
			s++;
		}
		bufadd(word, s, 1);
	}
	*p = s + 1;
	return true;
}

static bool
blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
	    ch == '\f' || ch == '\v';
}

/* Split s into words appended to w.  Returns 0, or the column (from 1) of
 * a quote that none closes. */
static size_t
splitwords(struct words *w, const char *s)
{
	const char *p = s, *open;
	struct buf word = { NULL, 0, 0 };

	for (;;) {
		while (blank(*p))
			p++;
		if (*p == '\0')
			return 0;
		bufadds(&word, "");
		while (*p != '\0' && !blank(*p)) {
			if (*p == '"' || *p == '\'') {
				open = p;
				if (!quoted(&word, &p)) {
					free(buftake(&word));
					return (size_t)(open - s) + 1;
				}
				continue;
			}
			if (*p == '\\' && p[1] != '\0')
				p++;
			bufadd(&word, p++, 1);
		}
		push(w, buftake(&word));
	}
}

/* The options of words [from, w->n), parsed into c with where named in
 * errors; the words after them are appended to lead. */
static void
parsewords(struct config *c, struct words *w, size_t from, const char *where,
    struct words *lead)
{
	char **argv = xcalloc(w->n - from + 2, sizeof(*argv));
	size_t n = w->n - from, i;
	int k;

	argv[0] = (char *)"wspx";
	memcpy(argv + 1, w->v + from, n * sizeof(*argv));
	usagewhere(where);
	k = options_parse(c, (int)n + 1, argv);
	usagewhere(NULL);
	for (i = (size_t)k; i <= n; i++)
		push(lead, argv[i]);
	free(argv);
}

/* Read the profile file path, if it can be opened, into c.  Returns false
 * if it cannot be. */
static bool
readprofile(struct config *c, const char *path, struct words *lead)
{
	FILE *f = fopen(path, "r");
	struct words w = { NULL, 0, 0 };
	char *line = NULL, where[4200];
	size_t cap = 0, lineno = 0, col, from;
	ssize_t len;

	if (f == NULL)
		return false;
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (line[strspn(line, " \t")] == '#')
			continue;
		from = w.n;
		snprintf(where, sizeof(where), "%s:%zu", path, lineno);
		if ((col = splitwords(&w, line)) != 0)
			badusage("%s:%zu:%zu: a quote that is not closed", path,
			    lineno, col);
		if (w.n > from)
			parsewords(c, &w, from, where, lead);
	}
	if (ferror(f))
		fatal("cannot read %s:", path);
	free(line);
	fclose(f);
	keep(&w);
	return true;
}

/* Push path to dirs if it is a directory; else free it. */
static void
pushdir(struct words *dirs, char *path)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		push(dirs, path);
	else
		free(path);
}

/* The config directories that exist, in GNU parallel's order. */
static void
configdirs(struct words *dirs)
{
	const char *v, *e;
	struct buf b = { NULL, 0, 0 };

	if ((v = getenv("PARALLEL_HOME")) != NULL && *v != '\0')
		pushdir(dirs, xstrdup(v));
	if ((v = getenv("XDG_CONFIG_HOME")) != NULL && *v != '\0') {
		bufprintf(&b, "%s/parallel", v);
		pushdir(dirs, buftake(&b));
	}
	for (v = getenv("XDG_CONFIG_DIRS"); v != NULL && *v != '\0'; v = e) {
		e = v + strcspn(v, ":");
		bufprintf(&b, "%.*s/parallel", (int)(e - v), v);
		pushdir(dirs, buftake(&b));
		e += *e == ':';
	}
	if ((v = getenv("HOME")) != NULL && *v != '\0') {
		bufprintf(&b, "%s/.parallel", v);
		pushdir(dirs, buftake(&b));
	}
}

/* The profile NAME of -J: the file itself, or NAME in each directory. */
static void
namedprofile(struct config *c, const char *name, const struct words *dirs,
    struct words *lead)
{
	struct buf b = { NULL, 0, 0 };
	bool found = false;
	size_t i;

	if (name[0] == '/' || strncmp(name, "./", 2) == 0)
		found = readprofile(c, name, lead);
	else
		for (i = 0; i < dirs->n; i++) {
			bufprintf(&b, "%s/%s", dirs->v[i], name);
			found |= readprofile(c, b.s, lead);
			b.len = 0;
		}
	free(b.s);
	if (!found && (name[0] == '/' || strncmp(name, "./", 2) == 0))
		badusage("-J %s: cannot read the profile: %s", name,
		    strerror(errno));
	if (!found)
		badusage("-J %s: no profile %s in $PARALLEL_HOME, "
		    "$XDG_CONFIG_HOME/parallel or ~/.parallel", name, name);
}

/* The profiles of c->profiles, or the config files; then $PARALLEL. */
static void
readall(struct config *c, const char *const *names, size_t nnames,
    struct words *lead)
{
	struct words dirs = { NULL, 0, 0 }, env = { NULL, 0, 0 };
	struct buf b = { NULL, 0, 0 };
	const char *v;
	size_t i, col;

	configdirs(&dirs);
	if (nnames > 0) {
		for (i = 0; i < nnames; i++)
			namedprofile(c, names[i], &dirs, lead);
	} else {
		readprofile(c, "/etc/parallel/config", lead);
		for (i = 0; i < dirs.n; i++) {
			bufprintf(&b, "%s/config", dirs.v[i]);
			readprofile(c, b.s, lead);
			b.len = 0;
		}
		if ((v = getenv("HOME")) != NULL && *v != '\0') {
			bufprintf(&b, "%s/.parallelrc", v);
			readprofile(c, b.s, lead);
		}
	}
	free(b.s);
	if ((v = getenv("PARALLEL")) != NULL && *v != '\0') {
		if ((col = splitwords(&env, v)) != 0)
			badusage("$PARALLEL: a quote that is not closed, at "
			    "column %zu", col);
		if (env.n > 0)
			parsewords(c, &env, 0, "$PARALLEL", lead);
		keep(&env);
	}
	for (i = 0; i < dirs.n; i++)
		free(dirs.v[i]);
	free(dirs.v);
}

char **
profile_options(struct config *c, int *argc, char **argv, int *first)
{
	struct words lead = { NULL, 0, 0 }, out = { NULL, 0, 0 };
	const char **names = c->profiles;
	size_t nnames = c->nprofiles;
	int i;

	if (c->noprofiles)
		return argv;
	c->profiles = NULL;
	config_free(c);
	config_defaults(c);
	readall(c, names, nnames, &lead);
	free(names);
	*first = options_parse(c, *argc, argv);
	if (lead.n == 0)
		return argv;
	for (i = 0; i < *first; i++)
		push(&out, argv[i]);
	for (i = 0; (size_t)i < lead.n; i++)
		push(&out, lead.v[i]);
	for (i = *first; i < *argc; i++)
		push(&out, argv[i]);
	free(lead.v);	/* (its words are kept) */
	*argc = (int)out.n;
	push(&kept, (char *)out.v);
	return out.v;
}
