/*
 * What a job file's jobs leave for later (see graphrun.h): the
 * up-to-date state, kept beside the job file in .NAME.wspx-state, which
 * lets a job whose sources, generated files and command are unchanged
 * since it last succeeded be skipped; and the outputs a job writes to
 * $WSPX_OUTPUT for the jobs that need it.  Digests are computed on the
 * work-stealing pool, the files hashed in parallel (lib/jobfile/uptodate.c).
 */
#include "graphrun.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sha256.h"
#include "jobfile/uptodate.h"
#include "os/tmp.h"
#include "util/buf.h"
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

/* The directory of the jobs' $WSPX_OUTPUT files (each job's file is
 * named when its command is built). */
static void
tempdir(struct graphrun *gr)
{
	if ((errno = -wspx__tmp_dir(gr->c->tmpdir, "wspx.", &gr->tmpdir)) != 0)
		fatal("cannot make a directory in %s:", gr->c->tmpdir);
}

/* Remove the outputs' directory with what jobs left in it (the files of
 * the jobs that failed or were stopped; the others were read and
 * removed). */
static void
removetemp(const char *path)
{
	struct dirent *e;
	DIR *d;
	int fd;

	if ((d = opendir(path)) != NULL) {
		fd = dirfd(d);
		while ((e = readdir(d)) != NULL)
			if (strcmp(e->d_name, ".") != 0 &&
			    strcmp(e->d_name, "..") != 0)
				(void)unlinkat(fd, e->d_name, 0);
		closedir(d);
	}
	(void)rmdir(path);
}

void
graphstate_open(struct graphrun *gr)
{
	char *path;
	int rc;

	tempdir(gr);
	if (strcmp(gr->file, "-") == 0 || !anystate(gr))
		return;
	path = statepath(gr);
	if ((rc = wspx__uptodate_open(&gr->state, path)) != 0) {
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

	if (gr->state != NULL && (rc = wspx__uptodate_close(gr->state)) != 0)
		warn("the up-to-date state beside %s: %s", gr->file,
		    strerror(-rc));
	gr->state = NULL;
	for (i = 0; i < gr->jf->njobs; i++)
		free(gr->jobs[i].outfile);
	if (gr->tmpdir != NULL)
		removetemp(gr->tmpdir);
	free(gr->tmpdir);
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

/* A digest of j's files: its sources (with its identity, text) or its
 * generates, into out.  Returns whether it could be made (and, for
 * generates, every generated file is there). */
static bool
files(struct graphrun *gr, struct wspx_worker *w, struct gjob *j,
    bool sources, const char *text, unsigned char out[32])
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	char **p, *dir, *missing = NULL;
	size_t n;
	int fd, rc;

	p = patterns(gr, j, sources ? jj->sources : jj->generates, &n);
	dir = graphcmd_dir(gr, j);
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		rc = -errno;
	else
		rc = wspx__uptodate_digest(w, fd, sources ?
		    (const char *const *)p : NULL, sources ? n : 0, sources ?
		    NULL : (const char *const *)p, sources ? 0 : n, text, out,
		    &missing);
	if (fd >= 0)
		close(fd);
	free(missing);
	free(dir);
	freepatterns(p, n);
	return rc == 0 && missing == NULL;
}

/* j's digest: of its identity and sources as they were before it ran
 * (j->srcdigest), and of its generates as they are now. */
static bool
digest(struct graphrun *gr, struct wspx_worker *w, struct gjob *j,
    unsigned char out[32])
{
	unsigned char gen[32];
	struct wspx__sha256 c;

	if (!j->srcknown || !files(gr, w, j, false, "", gen))
		return false;
	wspx__sha256_init(&c);
	wspx__sha256_update(&c, j->srcdigest, sizeof(j->srcdigest));
	wspx__sha256_update(&c, gen, sizeof(gen));
	wspx__sha256_final(&c, out);
	return true;
}

bool
graphstate_uptodate(struct graphrun *gr, struct wspx_worker *w,
    struct gjob *j)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	unsigned char now[32], then[32];
	char *text;

	if (gr->state == NULL || (jj->sources == NULL && jj->generates ==
	    NULL))
		return false;
	/* The sources are hashed before the job starts, as make and ninja
	 * look at them before: one edited while the job runs is then
	 * changed for the next run, not recorded as built. */
	text = graphcmd_text(gr, j);
	j->srcknown = files(gr, w, j, true, text, j->srcdigest);
	free(text);
	/* (a job whose outputs others read runs to make them: they are not
	 * kept with its state) */
	if (gr->c->force || jj->outputs_used)
		return false;
	return digest(gr, w, j, now) && wspx__uptodate_lookup(gr->state,
	    jj->name, then) && memcmp(now, then, sizeof(now)) == 0;
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

/* Read j's $WSPX_OUTPUT: key=value lines, and key<<END ... END for a
 * value of several lines, as in GitHub Actions' $GITHUB_OUTPUT. */
static void
readoutputs(struct gjob *j)
{
	FILE *f = j->outfile != NULL ? fopen(j->outfile, "re") : NULL;
	char *line = NULL, *eq, *end = NULL, *key = NULL;
	struct buf v = { NULL, 0, 0 };
	size_t cap = 0;
	ssize_t n;

	if (f == NULL)
		return;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (end != NULL && strcmp(line, end) != 0) {
			bufprintf(&v, "%s%s", v.len > 0 ? "\n" : "", line);
			continue;
		}
		if (end != NULL) {
			addoutput(j, key, strlen(key), v.s ? v.s : "", v.len);
			free(end);
			free(key);
			free(v.s);
			end = key = NULL;
			v.s = NULL;
			v.len = v.cap = 0;
		} else if ((eq = strstr(line, "<<")) != NULL && (strchr(line,
		    '=') == NULL || strchr(line, '=') > eq)) {
			key = memcpy(xcalloc(1, (size_t)(eq - line) + 1), line,
			    (size_t)(eq - line));
			end = xstrdup(eq + 2);
		} else if ((eq = strchr(line, '=')) != NULL)
			addoutput(j, line, (size_t)(eq - line), eq + 1,
			    strlen(eq + 1));
	}
	free(end);
	free(key);
	free(v.s);
	free(line);
	fclose(f);
	(void)unlink(j->outfile);
}

void
graphstate_record(struct graphrun *gr, struct wspx_worker *w,
    struct gjob *j)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	unsigned char now[32];
	int rc;

	readoutputs(j);
	if (gr->state == NULL || (jj->sources == NULL && jj->generates ==
	    NULL) || !digest(gr, w, j, now))
		return;
	if ((rc = wspx__uptodate_record(gr->state, jj->name, now)) != 0)
		warn("the up-to-date state beside %s: %s", gr->file,
		    strerror(-rc));
}
