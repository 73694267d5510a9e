/*
 * The commands of a job file's jobs (see graphrun.h): the ${{ }}
 * expressions expanded (quoted for the shell in a command, as a value
 * from the input is in the stdin mode; as they are in env, dir and a
 * builtin's with:), a list of commands run in turn in one shell, the
 * shell itself or none for a command with no shell syntax, and the
 * job's environment and directory.
 */
#include "graphrun.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/template.h"
#include "util/buf.h"
#include "util/util.h"

extern char **environ;

/* The value of matrix key e in j's leg, or "". */
static const char *
matrixval(const struct wspx__jfjob *jj, const struct wspx__jfexpr *e)
{
	size_t i;

	for (i = 0; i < jj->nmatrix; i++)
		if (strlen(jj->mkeys[i]) == e->keylen && memcmp(jj->mkeys[i],
		    e->key, e->keylen) == 0)
			return jj->mvals[i];
	return "";
}

/* The output e of a job j needs (of its first leg that has it), or "". */
static const char *
outputval(struct graphrun *gr, const struct wspx__jfjob *jj,
    const struct wspx__jfexpr *e)
{
	const struct gjob *n;
	const struct wspx__ynode *k;
	size_t i, o;

	for (i = 0; i < jj->nneeds; i++) {
		k = gr->jf->jobs[jj->needs[i]].key;
		if (k->len != e->joblen || memcmp(k->str, e->job, e->joblen) !=
		    0)
			continue;
		n = &gr->jobs[jj->needs[i]];
		/* (the last one written wins, as in GitHub Actions) */
		for (o = n->noutputs; o-- > 0;)
			if (strlen(n->outputs[o].key) == e->keylen &&
			    memcmp(n->outputs[o].key, e->key, e->keylen) == 0)
				return n->outputs[o].value;
	}
	return "";
}

char *
graphcmd_expand(struct graphrun *gr, const struct gjob *j, const char *s,
    bool quoted, enum shellkind kind)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	struct wspx__jfexpr e;
	struct buf b = { NULL, 0, 0 };
	size_t pos = 0, last = 0, n = strlen(s);
	const char *v;

	/* (the file was checked: every expression is one wspx knows) */
	while (wspx__jobfile_next(s, n, &pos, &e) > 0) {
		bufadd(&b, s + last, e.start - last);
		v = e.matrix ? matrixval(jj, &e) : outputval(gr, jj, &e);
		if (quoted)
			quote(&b, v, kind);
		else
			bufadds(&b, v);
		last = e.end;
	}
	bufadd(&b, s + last, n - last);
	return buftake(&b);
}

/* The job's command line: a list's commands run in turn, each in braces
 * so that any of them may span lines, stopping at the first failure. */
static char *
script(struct graphrun *gr, const struct gjob *j, enum shellkind kind)
{
	const struct wspx__ynode *run = gr->jf->jobs[j->index].run;
	struct buf b = { NULL, 0, 0 };
	char *one;
	size_t i;

	if (run->kind == WSPX__YSCALAR)
		return graphcmd_expand(gr, j, run->str, true, kind);
	for (i = 0; i < run->n; i++) {
		one = graphcmd_expand(gr, j, run->items[i]->str, true, kind);
		bufprintf(&b, "%s{ %s\n}", i > 0 ? " && " : "", one);
		free(one);
	}
	return buftake(&b);
}

/* Whether entry e (NAME=value) sets one of the names of over[0..n). */
static bool
overridden(const char *e, char **over, size_t n)
{
	size_t i, len = strcspn(e, "=");

	for (i = 0; i < n; i++)
		if (strncmp(over[i], e, len) == 0 && over[i][len] == '=')
			return true;
	return false;
}

/* The job's environment: wspx's, with the file's env and the job's own
 * variables over it. */
static char **
environment(struct graphrun *gr, struct gjob *j)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	size_t n = 0, i, k = 0, nover = 0;
	char **over = xcalloc(jj->nenv + 4, sizeof(char *)), **env, *v;

	for (i = 0; i < jj->nenv; i++) {
		v = graphcmd_expand(gr, j, jj->env[i].value->str, false,
		    SHELL_POSIX);
		over[nover] = xmalloc(strlen(jj->env[i].name) + strlen(v) + 2);
		sprintf(over[nover++], "%s=%s", jj->env[i].name, v);
		free(v);
	}
	j->outfile = xmalloc(strlen(gr->tmpdir) + 24);
	sprintf(j->outfile, "%s/%llu", gr->tmpdir,
	    (unsigned long long)j->cj.ej.seq);
	over[nover] = xmalloc(strlen(j->outfile) + 13);
	sprintf(over[nover++], "WSPX_OUTPUT=%s", j->outfile);
	over[nover] = xmalloc(strlen(jj->name) + 10);
	sprintf(over[nover++], "WSPX_JOB=%s", jj->name);
	over[nover] = xmalloc(32);
	snprintf(over[nover++], 32, "WSPX_SEQ=%llu",
	    (unsigned long long)j->cj.ej.seq);
	while (environ[n] != NULL)
		n++;
	env = xcalloc(n + 2 * nover + 2, sizeof(char *));
	for (i = 0; i < n; i++)
		if (!overridden(environ[i], over, nover))
			env[k++] = environ[i];
	/* (a later setting of a name wins: keep the last one only) */
	for (i = 0; i < nover; i++)
		if (!overridden(over[i], over + i + 1, nover - i - 1))
			env[k++] = over[i];
	/* the strings of over live after the NULL, to be freed */
	memcpy(env + k + 1, over, nover * sizeof(char *));
	env[k + 1 + nover] = NULL;
	free(over);
	return env;
}

/* The job's directory: its dir: (or the defaults'), relative to the job
 * file's, or the job file's. */
char *
graphcmd_dir(struct graphrun *gr, const struct gjob *j)
{
	const struct wspx__ynode *d = gr->jf->jobs[j->index].dir;
	char *v, *path;

	if (d == NULL)
		return xstrdup(gr->base);
	v = graphcmd_expand(gr, j, d->str, false, SHELL_POSIX);
	if (v[0] == '/' || strcmp(gr->base, ".") == 0)
		return v;
	path = xmalloc(strlen(gr->base) + strlen(v) + 2);
	sprintf(path, "%s/%s", gr->base, v);
	free(v);
	return path;
}

/* The shell that runs j's command: its own, or the run's. */
static void
jobshell(struct graphrun *gr, const struct wspx__jfjob *jj, struct shell *sh)
{
	if (jj->shell == NULL) {
		*sh = gr->shell;
		return;
	}
	sh->path = jj->shell;
	sh->applet = NULL;
	sh->kind = shell_kind(jj->shell);
}

/* argv for the line: its words if it needs no shell (and the job names
 * none), else the shell's -c. */
static char **
argvfor(const struct wspx__jfjob *jj, const struct shell *sh,
    const char *line)
{
	struct buf w = { NULL, 0, 0 };
	char **argv;
	size_t n = 0;

	/* (as make runs it: echo and true are then the programs, not the
	 * shell's builtins) */
	if (jj->shell == NULL && jj->run->kind == WSPX__YSCALAR &&
	    !line_needs_shell_as(line, false) && line[strspn(line, " \t")] !=
	    '\0')
		return line_argv(line);
	bufadd(&w, sh->path, strlen(sh->path) + 1);
	n++;
	if (sh->applet != NULL) {
		bufadd(&w, sh->applet, strlen(sh->applet) + 1);
		n++;
	}
	bufadd(&w, "-c", 3);
	bufadd(&w, line, strlen(line) + 1);
	n += 2;
	argv = packwords(&w, n);
	free(w.s);
	return argv;
}

int
graphcmd_prepare(struct graphrun *gr, struct gjob *j, struct wspx__cmd *cmd)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	struct shell sh;
	struct stat st;
	char *line;
	int rc;

	jobshell(gr, jj, &sh);
	if (jj->builtin != NULL) {	/* a dry run shows it */
		line = xmalloc(strlen(jj->builtin) + 9);
		sprintf(line, "builtin %s", jj->builtin);
		cmd->argv = line_argv("true");
	} else {
		line = script(gr, j, sh.kind);
		cmd->argv = argvfor(jj, &sh, line);
	}
	cmd->file = NULL;
	cmd->search = true;
	cmd->text = line;
	free(j->cj.cmdtext);
	j->cj.cmdtext = xstrdup(line);
	if (j->envp == NULL) {
		j->dir = graphcmd_dir(gr, j);
		j->envp = environment(gr, j);
	}
	cmd->envp = j->envp;
	cmd->dir = j->dir;
	/* each attempt starts with no outputs */
	if (j->outfile != NULL)
		(void)unlink(j->outfile);
	/* (the spawn's own error would blame the program) */
	/* (on another host, the script makes it) */
	if (gr->c->dryrun || gr->c->remote.hosts.n > 0)
		return 0;
	if (stat(j->dir, &st) != 0)
		rc = -errno;
	else if (!S_ISDIR(st.st_mode))
		rc = -ENOTDIR;
	else
		return 0;
	/* "cannot run CMD in dir DIR: reason": the directory is at fault */
	free(j->cj.cmdtext);
	j->cj.cmdtext = xmalloc(strlen(line) + strlen(j->dir) + 9);
	sprintf(j->cj.cmdtext, "%s in dir %s", line, j->dir);
	return rc;
}

void
graphcmd_bargs(struct graphrun *gr, struct gjob *j)
{
	const struct wspx__ynode *with = gr->jf->jobs[j->index].with, *v;
	struct wspx__barg *a;
	size_t i, k, n;

	/* (a builtin without a dir: of its own uses the open base) */
	j->dir = gr->jf->jobs[j->index].dir != NULL ? graphcmd_dir(gr, j) :
	    NULL;
	j->nbargs = with != NULL ? with->n : 0;
	j->bargs = j->nbargs > 0 ? xcalloc(j->nbargs, sizeof(*j->bargs)) :
	    NULL;
	for (i = 0; i < j->nbargs; i++) {
		a = &j->bargs[i];
		v = with->items[2 * i + 1];
		a->key = with->items[2 * i]->str;
		a->list = v->kind == WSPX__YSEQ;
		n = a->list ? v->n : 1;
		a->v = xcalloc(n + 1, sizeof(char *));
		for (k = 0; k < n; k++)
			a->v[a->n++] = graphcmd_expand(gr, j, a->list ?
			    v->items[k]->str : v->str, false, SHELL_POSIX);
	}
}

void
graphcmd_free(struct gjob *j)
{
	size_t i;
	char **p;

	if (j->envp != NULL) {
		for (p = j->envp; *p != NULL; p++)
			;
		for (p++; *p != NULL; p++)
			free(*p);
		free(j->envp);
	}
	for (i = 0; i < j->nbargs; i++) {
		while (j->bargs[i].n > 0)
			free(j->bargs[i].v[--j->bargs[i].n]);
		free(j->bargs[i].v);
	}
	free(j->bargs);
	free(j->dir);
	j->envp = NULL;
	j->bargs = NULL;
	j->nbargs = 0;
	j->dir = NULL;
}

char *
graphcmd_text(struct graphrun *gr, const struct gjob *j)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	struct shell sh;
	struct buf b = { NULL, 0, 0 };
	char *v;
	size_t i, k;

	if (jj->builtin == NULL) {
		jobshell(gr, jj, &sh);
		return script(gr, j, sh.kind);
	}
	bufprintf(&b, "builtin %s", jj->builtin);
	for (i = 0; jj->with != NULL && i < jj->with->n; i++) {
		bufprintf(&b, " %s:", jj->with->items[2 * i]->str);
		for (k = 0; k < (jj->with->items[2 * i + 1]->kind ==
		    WSPX__YSEQ ? jj->with->items[2 * i + 1]->n : 1); k++) {
			v = graphcmd_expand(gr, j, jj->with->items[2 * i +
			    1]->kind == WSPX__YSEQ ? jj->with->items[2 * i +
			    1]->items[k]->str : jj->with->items[2 * i + 1]->str,
			    false, SHELL_POSIX);
			bufaddc(&b, ' ');
			bufjson(&b, v);
			free(v);
		}
	}
	return buftake(&b);
}
