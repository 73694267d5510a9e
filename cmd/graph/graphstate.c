/*
 * What a job file's jobs leave for later (see graphrun.h): the
 * up-to-date state, kept beside the job file in .NAME.wspx-state, which
 * lets a job whose sources, generated files and command are unchanged
 * since it last succeeded be skipped; and the outputs a job writes to
 * $WSPX_OUTPUT for the jobs that need it.  Digests are computed on the
 * work-stealing pool, the files hashed in parallel (lib/jobfile/uptodate.c).
 */
#include "graphrun.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobfile/uptodate.h"
#include "os/thread.h"
#include "os/tmp.h"
#include "util/buf.h"
#include "util/owndirs.h"
#include "util/util.h"

/* Whether any job to run has sources or generates. */
static bool
anystate(const struct graphrun *gr)
{
	size_t i;

	for (i = 0; i < gr->jf->njobs; i++)
		if ((gr->selected == NULL || gr->selected[i]) &&
		    (gr->jf->jobs[i].sources != NULL ||
		    gr->jf->jobs[i].generates != NULL))
			return true;
	return false;
}

/* The state file of the job file: .NAME.wspx-state beside it. */
static char *
statepath(const struct graphrun *gr)
{
	const char *slash = strrchr(gr->file, '/');
	const char *name = slash != NULL ? slash + 1 : gr->file;
	char *path = xmalloc(strlen(gr->base) + strlen(name) + 16);

	sprintf(path, "%s/.%s.wspx-state", gr->base, name);
	return path;
}

int
graphstate_tmpdir(struct graphrun *gr, const char **dir)
{
	int rc = 0;

	WSPX_MUST(pthread_mutex_lock(&gr->tmplock));
	if (gr->tmpdir == NULL && (rc = wspx__tmp_dir(gr->c->tmpdir, "wspx.",
	    &gr->tmpdir)) == 0)
		owndir(gr->tmpdir);
	*dir = gr->tmpdir;
	WSPX_MUST(pthread_mutex_unlock(&gr->tmplock));
	return rc;
}

void
graphstate_open(struct graphrun *gr)
{
	struct stat st;
	char *path;
	int rc;

	/* (the directory of the jobs' $WSPX_OUTPUT files is made when the
	 * first job is prepared: a no-op run makes and removes none; the
	 * usual reasons it could not be made are told now) */
	if (stat(gr->c->tmpdir, &st) != 0 || (!S_ISDIR(st.st_mode) &&
	    (errno = ENOTDIR) != 0) || access(gr->c->tmpdir, W_OK | X_OK) != 0)
		fatal("cannot make a directory in %s:", gr->c->tmpdir);
	WSPX_MUST(pthread_mutex_init(&gr->tmplock, NULL));
	if (!anystate(gr))
		return;
	if (!gr->regular) {
		if (strcmp(gr->file, "-") != 0)
			warn("%s is not a regular file: its jobs run in the "
			    "current directory, with no up-to-date state",
			    gr->file);
		return;
	}
	path = statepath(gr);
	if ((rc = wspx__statefile_open(&gr->state, path)) == 0 &&
	    wspx__statefile_older(gr->state))
		warn("%s: of an older wspx: emptied; every job runs once",
		    path);
	if (rc != 0) {
		warn("%s: %s: every job runs", path, rc == -EINVAL ? "not a "
		    "state file of wspx (left as it is)" : rc == -ELOOP ?
		    "a symbolic link (not followed)" : rc == -ENXIO ? "not a "
		    "regular file" : rc == -EFBIG ? "larger than 256 MiB" :
		    strerror(-rc));
		gr->state = NULL;
	}
	free(path);
}

void
graphstate_close(struct graphrun *gr)
{
	size_t i;
	int rc;

	if (gr->state != NULL && (rc = wspx__statefile_close(gr->state)) != 0)
		warn("the up-to-date state beside %s: %s", gr->file,
		    strerror(-rc));
	gr->state = NULL;
	for (i = 0; i < gr->jf->njobs; i++)
		free(gr->jobs[i].outfile);
	/* (with the files of the jobs that failed or were stopped; the
	 * others were read and removed) */
	if (gr->tmpdir != NULL)
		owndir_remove(gr->tmpdir);
	free(gr->tmpdir);
	WSPX_MUST(pthread_mutex_destroy(&gr->tmplock));
}

/* The patterns of v (a scalar or a list), expanded, into a NULL-ended
 * array (*n of them). */
static char **
patterns(struct graphrun *gr, const struct gjob *j,
    const struct wspx__ynode *v, size_t *n)
{
	size_t i, count = v == NULL ? 0 : v->kind == WSPX__YSEQ ? v->n : 1;
	char **p = xcalloc(count + 1, sizeof(char *));

	for (i = 0; i < count; i++)
		p[i] = graphcmd_expand(gr, j, v->kind == WSPX__YSEQ ?
		    v->items[i]->str : v->str);
	*n = count;
	return p;
}

static void
freepatterns(char **p, size_t n)
{
	while (n > 0)
		free(p[--n]);
	free(p);
}

/* j's directory, open, or -1 (errno set); *dir its path, or NULL where
 * the job file is (most jobs run there: its directory is open). */
static int
opendir_of(struct graphrun *gr, const struct gjob *j, char **dir)
{
	*dir = gr->jf->jobs[j->index].dir != NULL ? graphcmd_dir(gr, j) :
	    NULL;
	if (*dir == NULL)
		return gr->basefd;
	return open(*dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* j's directory as a prefix of the stat cache's keys: its dir: and '/',
 * or "" (the job file's directory).  malloc'd. */
static char *
keyprefix(struct graphrun *gr, const struct gjob *j)
{
	const struct wspx__ynode *d = gr->jf->jobs[j->index].dir;
	char *v, *p;

	if (d == NULL)
		return xstrdup("");
	v = graphcmd_expand(gr, j, d->str);
	p = xmalloc(strlen(v) + 2);
	strcat(strcpy(p, v), "/");
	free(v);
	return p;
}

/* Why a file of a job could not be hashed, into err: culprit is the path
 * or pattern at fault, rc the error. */
static void
unreadable(struct buf *err, const char *culprit, int rc)
{
	bufprintf(err, "%s %s", culprit != NULL ? culprit : "a file",
	    rc == -ENOENT ? "does not exist or matches nothing" :
	    rc == -EINVAL ? "is not a regular file" : "cannot be read: ");
	if (rc != -ENOENT && rc != -EINVAL)
		bufadds(err, strerror(-rc));
}

/* Add the parts of j's sources or generates to parts: a part for each
 * pattern if grouped (for its digest), else for each file (for its
 * record and --explain).  Returns whether they could be made (and, for
 * generates, every generated file is there); if they could not be, why
 * into err (NULL: not wanted), unless it is a missing generated file,
 * which its part says. */
static bool
files(struct graphrun *gr, struct wspx_worker *w, struct gjob *j,
    bool sources, bool grouped, struct wspx__parts *parts, struct buf *err)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	char **p, *dir, *prefix, *missing = NULL;
	size_t n;
	int fd, rc;
	bool ok;

	p = patterns(gr, j, sources ? jj->sources : jj->generates, &n);
	prefix = keyprefix(gr, j);
	fd = opendir_of(gr, j, &dir);
	rc = fd < 0 ? -errno : (grouped ? wspx__uptodate_groups :
	    wspx__uptodate_files)(gr->state, w, fd, prefix,
	    (const char *const *)p, n, !sources, parts, &missing);
	if (rc == -ENOMEM)
		fatal("out of memory");
	if (rc != 0 && err != NULL)
		unreadable(err, missing, rc);
	if (fd >= 0 && dir != NULL)
		close(fd);
	ok = rc == 0 && missing == NULL;
	free(missing);
	free(prefix);
	free(dir);
	freepatterns(p, n);
	return ok;
}

/* Generated files up to this size in all are hashed by the thread that
 * reaped their job (graphstate_endhere). */
#define ENDHERE_BYTES ((off_t)1 << 20)

bool
graphstate_endhere(struct graphrun *gr, struct gjob *j)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	char **p, *dir;
	struct stat st;
	off_t total = 0;
	size_t n, i;
	int fd;

	/* (its pool's next job may be a builtin, which needs a worker; a
	 * dry run's job ends on a worker, as it was before) */
	if (jj->pool >= 0 || gr->c->dryrun)
		return false;
	/* (a job that failed or was stopped records nothing) */
	if (gr->state == NULL || jj->generates == NULL ||
	    j->outcome != OUT_OK || j->failed)
		return true;
	p = patterns(gr, j, jj->generates, &n);
	fd = opendir_of(gr, j, &dir);
	/* (a wildcard's files are known once it is expanded, which is the
	 * hashing's work) */
	for (i = 0; i < n && fd >= 0 && total <= ENDHERE_BYTES; i++)
		if (p[i][strcspn(p[i], "*?[\\")] != '\0')
			total = ENDHERE_BYTES + 1;
		else if (fstatat(fd, p[i], &st, 0) == 0)
			total += st.st_size;
	if (fd >= 0 && dir != NULL)
		close(fd);
	free(dir);
	freepatterns(p, n);
	return fd >= 0 && total <= ENDHERE_BYTES;
}

/* The parts of j's identity: a line of graphcmd_text() each, keyed by
 * its first word ("run", "shell", "dir", ...), an env line by its
 * variable's name ("env CC"), a value by its expression ("value
 * matrix.os"). */
static void
identity(struct graphrun *gr, const struct gjob *j, struct wspx__parts *p)
{
	char *text = graphcmd_text(gr, j), *line, *next, *key;
	size_t n;

	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		n = strcspn(line, " ");
		/* (an env line: env "NAME=value", NAME with no '=' nor '"';
		 * a value line: value NAME "value", NAME with no ' ') */
		if (strncmp(line, "env \"", 5) == 0)
			n = 5 + strcspn(line + 5, "=\"");
		else if (strncmp(line, "value ", 6) == 0)
			n = 6 + strcspn(line + 6, " ");
		key = xmalloc(n + 1);
		memcpy(key, line, n);
		key[n] = '\0';
		if (strncmp(key, "env \"", 5) == 0)
			memmove(key + 4, key + 5, n - 4);
		if (wspx__uptodate_identity(p, key, line) != 0)
			fatal("out of memory");
		free(key);
	}
	free(text);
}

/* Take the parts from n0 on off p. */
static void
keepfirst(struct wspx__parts *p, size_t n0)
{
	while (p->n > n0)
		free(p->v[--p->n].key);
}

/* j's digest into out: its identity and sources' groups as they were
 * before it ran (j->groups), and its generates' groups as they are now;
 * why a generated file could not be read into err (NULL: not wanted). */
static bool
digest(struct graphrun *gr, struct wspx_worker *w, struct gjob *j,
    unsigned char out[32], struct buf *err)
{
	size_t n0 = j->groups.n;
	bool made;

	made = j->srcknown && files(gr, w, j, false, true, &j->groups, err);
	if (made)
		wspx__uptodate_sum(&j->groups, out);
	keepfirst(&j->groups, n0);
	return made;
}

/* j's parts for its record and --explain: its identity and each source
 * file as they are now, before it runs, into j->parts.  Its groups
 * looked at each file in this epoch: unless a job ended since, nothing
 * is looked at again.  A source that cannot be read leaves them partial:
 * j->partsok is then false, and its record keeps no parts. */
static void
detail(struct graphrun *gr, struct wspx_worker *w, struct gjob *j)
{
	wspx__uptodate_freeparts(&j->parts);
	identity(gr, j, &j->parts);
	j->partsok = files(gr, w, j, true, false, &j->parts, NULL);
}

/* Why j is not up to date, for --explain: its parts now (the generates'
 * as they are) against its record's. */
static void
explain(struct graphrun *gr, struct wspx_worker *w, struct gjob *j,
    struct buf *why)
{
	size_t n0 = j->parts.n;
	char *r;

	(void)files(gr, w, j, false, false, &j->parts, NULL);
	r = wspx__explain_job(gr->state, gr->jf->jobs[j->index].name,
	    &j->parts);
	/* (no part differs, yet the digest does: it takes each pattern as
	 * a part, the record each file) */
	bufadds(why, r != NULL ? r : "its sources: or generates: patterns "
	    "changed");
	free(r);
	keepfirst(&j->parts, n0);
}

/* Whether j, its groups made, is up to date; why not into why (with
 * --explain), srcerr saying why a source could not be read, if one
 * could not. */
static bool
compare(struct graphrun *gr, struct wspx_worker *w, struct gjob *j,
    struct buf *why, const struct buf *srcerr)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	struct buf err = { NULL, 0, 0 };
	unsigned char d[32], then[32];
	bool made, same;

	made = digest(gr, w, j, d, gr->c->explain ? &err : NULL);
	same = made && wspx__statefile_lookup(gr->state, jj->name, then) &&
	    memcmp(d, then, sizeof(d)) == 0;
	if (!same)
		detail(gr, w, j);
	/* (the parts of a job whose source could not be read are partial:
	 * that source is the reason) */
	if (!same && gr->c->explain && !j->srcknown)
		bufadds(why, srcerr->len > 0 ? srcerr->s : "a source cannot be "
		    "read");
	else if (!same && gr->c->explain && err.len > 0)
		bufadds(why, err.s);
	else if (!same && gr->c->explain)
		explain(gr, w, j, why);
	free(err.s);
	return same;
}

bool
graphstate_uptodate(struct graphrun *gr, struct wspx_worker *w,
    struct gjob *j, struct buf *why)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	struct buf srcerr = { NULL, 0, 0 };
	bool same;

	if (gr->state == NULL || (jj->sources == NULL && jj->generates ==
	    NULL)) {
		if (gr->c->explain)
			bufadds(why, gr->state != NULL ? "no sources: nor "
			    "generates:" : "no up-to-date state");
		return false;
	}
	/* The sources are hashed before the job starts, as make and ninja
	 * look at them before: one edited while the job runs is then
	 * changed for the next run, not recorded as built. */
	wspx__uptodate_freeparts(&j->groups);
	wspx__uptodate_freeparts(&j->parts);
	identity(gr, j, &j->groups);
	j->srcknown = files(gr, w, j, true, true, &j->groups,
	    gr->c->explain ? &srcerr : NULL);
	/* (a job whose outputs others read runs to make them: they are not
	 * kept with its state) */
	if (gr->c->force || jj->outputs_used) {
		if (gr->c->explain)
			bufadds(why, gr->c->force ? "--force" : "other jobs "
			    "read its outputs, which are not kept");
		detail(gr, w, j);
		free(srcerr.s);
		return false;
	}
	same = compare(gr, w, j, why, &srcerr);
	free(srcerr.s);
	return same;
}

static void
addoutput(struct gjob *j, const char *key, size_t kn, const char *val,
    size_t vn)
{
	struct output *o;

	j->outputs = xrealloc(j->outputs, (j->noutputs + 1) *
	    sizeof(*j->outputs));
	o = &j->outputs[j->noutputs++];
	o->key = memcpy(xcalloc(1, kn + 1), key, kn);
	o->value = memcpy(xcalloc(1, vn + 1), val, vn);
}

/* The most a job's $WSPX_OUTPUT may hold, as GitHub's. */
#define OUTPUT_MAX ((size_t)1 << 20)

static void
freeoutputs(struct gjob *j)
{
	while (j->noutputs > 0) {
		j->noutputs--;
		free(j->outputs[j->noutputs].key);
		free(j->outputs[j->noutputs].value);
	}
	free(j->outputs);
	j->outputs = NULL;
}

/* Read j's $WSPX_OUTPUT whole into b: a regular file (not a link, not a
 * FIFO, which would wait) of at most OUTPUT_MAX bytes.  Returns NULL, or
 * what is wrong with it. */
static const char *
slurp(struct gjob *j, struct buf *b)
{
	char chunk[8192];
	struct stat sb;
	ssize_t r;
	int fd;

	fd = open(j->outfile, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	/* (none written: nothing to remove) */
	if (fd < 0 && errno == ENOENT)
		j->outleft = false;
	if (fd < 0)
		return errno == ENOENT ? NULL : errno == ELOOP ? "is a "
		    "symbolic link" : strerror(errno);
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return "is not a regular file";
	}
	while ((r = read(fd, chunk, sizeof(chunk))) > 0 && b->len <=
	    OUTPUT_MAX)
		bufadd(b, chunk, (size_t)r);
	close(fd);
	if (r < 0)
		return strerror(errno);
	return b->len > OUTPUT_MAX ? "holds more than 1 MiB" : NULL;
}

/* Parse the outputs of text (its lines NUL-free) into j: NAME=VALUE
 * lines, and NAME<<DELIMITER, the value's lines, DELIMITER alone, as
 * GitHub Actions' $GITHUB_OUTPUT; empty lines are skipped.  Returns
 * NULL, or an error into err: the line at fault and why. */
static bool
parseoutputs(struct gjob *j, char *text, size_t len, struct buf *err)
{
	char *p = text, *end = text + len, *nl, *eq, *hd;
	const char *key = NULL, *delim = NULL;
	size_t line = 0, keyline = 0, kn = 0;
	struct buf v = { NULL, 0, 0 };

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		*nl = '\0';
		line++;
		if (delim != NULL) {
			if (strcmp(p, delim) != 0) {
				bufprintf(&v, "%s%s", v.len > 0 || line >
				    keyline + 1 ? "\n" : "", p);
				continue;
			}
			addoutput(j, key, kn, v.s != NULL ? v.s : "", v.len);
			delim = NULL;
			v.len = 0;
			continue;
		}
		if (*p == '\0')
			continue;
		eq = strchr(p, '=');
		hd = strstr(p, "<<");
		if (hd != NULL && (eq == NULL || hd < eq) && hd > p &&
		    hd[2] != '\0') {
			key = p;
			kn = (size_t)(hd - p);
			delim = hd + 2;
			keyline = line;
		} else if (eq != NULL && eq > p)
			addoutput(j, p, (size_t)(eq - p), eq + 1, strlen(eq + 1));
		else {
			bufprintf(err, "line %zu: '%.40s%s' is not NAME=VALUE "
			    "nor NAME<<DELIMITER", line, p, strlen(p) > 40 ?
			    "..." : "");
			break;
		}
	}
	if (err->len == 0 && delim != NULL)
		bufprintf(err, "line %zu: no line '%.40s' ends the value of "
		    "%.*s", keyline, delim, (int)(kn > 40 ? 40 : kn), key);
	free(v.s);
	return err->len == 0;
}

/* Read j's $WSPX_OUTPUT into j->outputs (an earlier attempt's dropped);
 * returns NULL, or why it cannot be read (malloc'd). */
static char *
readoutputs(struct gjob *j)
{
	struct buf b = { NULL, 0, 0 }, err = { NULL, 0, 0 };
	const char *why;

	freeoutputs(j);
	if (j->outfile == NULL)
		return NULL;
	if ((why = slurp(j, &b)) != NULL)
		bufprintf(&err, "%s", why);
	else if (b.len > 0 && memchr(b.s, '\0', b.len) != NULL)
		bufprintf(&err, "holds a NUL byte");
	else if (b.len > 0)
		(void)parseoutputs(j, b.s, b.len, &err);
	free(b.s);
	if (j->outleft)
		(void)unlink(j->outfile);
	j->outleft = false;
	if (err.len == 0)
		return NULL;
	freeoutputs(j);
	return buftake(&err);
}

bool
graphstate_outputs(struct graphrun *gr, struct gjob *j,
    struct wspx__outjob *oj)
{
	struct buf b = { NULL, 0, 0 };
	char *why = readoutputs(j);

	if (why == NULL)
		return true;
	bufmsg(&b, "%s: its $WSPX_OUTPUT %s\n", gr->jf->jobs[j->index].name,
	    why);
	(void)wspx__output_write(gr->src->out, oj, 2, b.s, b.len);
	free(b.s);
	free(why);
	/* (a job that failed already fails as it did) */
	return false;
}

void
graphstate_sources(struct graphrun *gr, const struct jobwords *w)
{
	const struct wspx__jfjob *jj;
	char **p, *dir;
	size_t i, k, n;

	for (i = 0; i < gr->jf->njobs; i++) {
		jj = &gr->jf->jobs[i];
		if ((gr->selected != NULL && !gr->selected[i]) ||
		    jj->sources == NULL)
			continue;
		p = patterns(gr, &gr->jobs[i], jj->sources, &n);
		dir = graphcmd_dir(gr, &gr->jobs[i]);
		for (k = 0; k < n; k++)
			w->source(w->sourcectx, dir, p[k]);
		free(dir);
		freepatterns(p, n);
	}
}

void
graphstate_wrote(struct graphrun *gr)
{
	/* (a dry run wrote nothing) */
	if (gr->state != NULL && !gr->c->dryrun)
		wspx__statefile_epoch(gr->state);
}

void
graphstate_ended(struct graphrun *gr, struct wspx_worker *w, struct gjob *j,
    bool ok)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	unsigned char d[32];
	int rc;

	if (gr->state == NULL)
		return;
	/* (the generates' groups for the digest, then their files for the
	 * record: each file looked at once in this epoch) */
	if (ok && (jj->sources != NULL || jj->generates != NULL) &&
	    digest(gr, w, j, d, NULL)) {
		(void)files(gr, w, j, false, false, &j->parts, NULL);
		if ((rc = wspx__statefile_record(gr->state, jj->name, d,
		    j->partsok ? &j->parts : NULL)) != 0)
			warn("the up-to-date state beside %s: %s", gr->file,
			    strerror(-rc));
	}
	wspx__uptodate_freeparts(&j->groups);
	wspx__uptodate_freeparts(&j->parts);
}
