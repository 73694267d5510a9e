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

#include "input/progpath.h"
#include "input/template.h"
#include "report/failures.h"
#include "jobfile/shellctx.h"
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
graphcmd_expand(struct graphrun *gr, const struct gjob *j, const char *s)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	struct wspx__jfexpr e;
	struct buf b = { NULL, 0, 0 };
	size_t pos = 0, last = 0, n = strlen(s);

	/* (the file was checked: every expression is one wspx knows) */
	while (wspx__jobfile_next(s, n, &pos, &e) > 0) {
		bufadd(&b, s + last, e.start - last);
		bufadds(&b, e.matrix ? matrixval(jj, &e) : outputval(gr, jj,
		    &e));
		last = e.end;
	}
	bufadd(&b, s + last, n - last);
	return buftake(&b);
}

/* The values of a command's expressions, each in a variable of the job's
 * environment: one per distinct expression, WSPX_VALUE_1 and on. */
struct values {
	char **ids;		/* the expressions, as "m KEY" or "o JOB KEY" */
	char **env;		/* "WSPX_VALUE_k=value" */
	size_t n;
};

/* The number of the variable that holds e's value. */
static size_t
valueof(struct graphrun *gr, const struct gjob *j,
    const struct wspx__jfexpr *e, struct values *v)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	struct buf id = { NULL, 0, 0 }, env = { NULL, 0, 0 };
	size_t i;

	if (e->matrix)
		bufprintf(&id, "m %.*s", (int)e->keylen, e->key);
	else
		bufprintf(&id, "o %.*s %.*s", (int)e->joblen, e->job,
		    (int)e->keylen, e->key);
	for (i = 0; i < v->n; i++)
		if (strcmp(v->ids[i], id.s) == 0) {
			free(id.s);
			return i + 1;
		}
	bufprintf(&env, "WSPX_VALUE_%zu=%s", v->n + 1, e->matrix ?
	    matrixval(jj, e) : outputval(gr, jj, e));
	v->ids = xrealloc(v->ids, (v->n + 1) * sizeof(char *));
	v->env = xrealloc(v->env, (v->n + 1) * sizeof(char *));
	v->ids[v->n] = buftake(&id);
	v->env[v->n] = buftake(&env);
	return ++v->n;
}

static void
values_free(struct values *v)
{
	while (v->n > 0) {
		v->n--;
		free(v->ids[v->n]);
		free(v->env[v->n]);
	}
	free(v->ids);
	free(v->env);
}

/* A reference to variable k for a place in lang: it expands to the value,
 * as one word where a word stands, and is never read again as syntax. */
static void
reference(struct buf *b, enum wspx__shlang lang, enum wspx__shctx ctx,
    size_t k)
{
	/* by place: word, "...", '...', comment, here-document */
	/* (in a comment as a word: were the comment not one, the value
	 * would still be one word of data) */
	static const char *const pre[3][5] = {
		{ "\"${", "${", "'\"${", "\"${", "${" },
		{ "\"$", "\"$", "'\"$", "\"$", "$" },
		{ "${", "\"${", "'${", "${", "$" } };
	static const char *const post[3][5] = {
		{ "}\"", "}", "}\"'", "}\"", "}" },
		{ "\"", "\"", "\"'", "\"", "" },
		{ ":q}", ":q}\"", ":q}'", ":q}", "" } };

	bufprintf(b, "%sWSPX_VALUE_%zu%s", pre[lang][ctx], k, post[lang][ctx]);
}

/* A here-document's delimiter s[0..n) without its quotes. */
static void
unquoted(struct buf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '\\' && i + 1 < n)
			bufaddc(b, s[++i]);
		else if (s[i] != '\'' && s[i] != '"')
			bufaddc(b, s[i]);
}

/* Text of a here-document made to expand, kept as it was. */
static void
escaped(struct buf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\' || s[i] == '$' || s[i] == '`')
			bufaddc(b, '\\');
		bufaddc(b, s[i]);
	}
}

/* Value k, val, for people where a reference for ctx stands (-v,
 * --dry-run, messages): in place, and as safe as the reference, since a
 * dry run may be piped to a shell: quoted where a word stands; in '...',
 * the quotes closed around a quoted word; in "...", with \ before what
 * the quotes would take (POSIX sh and fish); elsewhere (a comment, a
 * here-document, csh's "...") the reference itself, for which no text
 * of the value is safe. */
static void
showvalue(struct buf *b, enum wspx__shlang lang, enum wspx__shctx ctx,
    size_t k, const char *val)
{
	enum shellkind kind = lang == WSPX__SH_FISH ? SHELL_FISH : lang ==
	    WSPX__SH_CSH ? SHELL_CSH : SHELL_POSIX;

	if (ctx == WSPX__SHCTX_WORD) {
		quote(b, val, kind);
		return;
	}
	if (ctx == WSPX__SHCTX_SQUOTE) {
		bufaddc(b, '\'');
		quote(b, val, kind);
		bufaddc(b, '\'');
		return;
	}
	if (ctx != WSPX__SHCTX_DQUOTE || lang == WSPX__SH_CSH) {
		reference(b, lang, ctx, k);
		return;
	}
	for (; *val != '\0'; val++) {
		if (strchr(lang == WSPX__SH_FISH ? "\\$\"" : "\\$`\"",
		    *val) != NULL)
			bufaddc(b, '\\');
		bufaddc(b, *val);
	}
}

/* One string of j's run: into run, what the shell runs, each value a
 * reference to its variable (values), and into show, for people, each
 * value in place (quoted where it stands as a word). */
static void
runstring(struct graphrun *gr, const struct gjob *j, const char *s,
    enum wspx__shlang lang, struct values *v, struct buf *run,
    struct buf *show)
{
	const struct wspx__shedit *ed;
	struct wspx__shscan sc;
	struct wspx__jfexpr e;
	size_t n = strlen(s), last = 0, i, pos, k;

	/* (the file was checked with the same shell: only memory fails) */
	if (wspx__shellctx_scan(s, n, lang, &sc) != 0)
		fatal("the command of %s: an expression %s",
		    gr->jf->jobs[j->index].name, sc.err);
	for (i = 0; i < sc.n; i++) {
		ed = &sc.edits[i];
		bufadd(run, s + last, ed->start - last);
		bufadd(show, s + last, ed->start - last);
		last = ed->end;
		if (ed->kind != WSPX__SHEDIT_VALUE) {
			(ed->kind == WSPX__SHEDIT_UNQUOTE ? unquoted :
			    escaped)(run, s + ed->start, ed->end - ed->start);
			bufadd(show, s + ed->start, ed->end - ed->start);
			continue;
		}
		pos = ed->start;
		(void)wspx__jobfile_next(s, n, &pos, &e);
		k = valueof(gr, j, &e, v);
		reference(run, lang, ed->ctx, k);
		showvalue(show, lang, ed->ctx, k, strchr(v->env[k - 1], '=') +
		    1);
	}
	bufadd(run, s + last, n - last);
	bufadd(show, s + last, n - last);
	wspx__shellctx_free(&sc);
}

/* The job's script into run and show (see runstring()): a list's
 * strings run in turn, one per line (the shell's -e stops at the first
 * that fails); in fish, which has no -e, each in a begin block after an
 * `and`. */
static void
script(struct graphrun *gr, const struct gjob *j, enum wspx__shlang lang,
    struct values *v, struct buf *run, struct buf *show)
{
	const struct wspx__ynode *r = gr->jf->jobs[j->index].run;
	size_t i;

	/* (an empty list is an empty script, as run: "" is) */
	bufadd(run, "", 0);
	bufadd(show, "", 0);
	if (r->kind == WSPX__YSCALAR) {
		runstring(gr, j, r->str, lang, v, run, show);
		return;
	}
	for (i = 0; i < r->n; i++) {
		if (lang == WSPX__SH_FISH) {
			bufadds(run, i > 0 ? "\nand begin\n" : "begin\n");
			bufadds(show, i > 0 ? "\nand begin\n" : "begin\n");
		} else if (i > 0) {
			bufaddc(run, '\n');
			bufaddc(show, '\n');
		}
		runstring(gr, j, r->items[i]->str, lang, v, run, show);
		if (lang == WSPX__SH_FISH) {
			bufadds(run, "\nend");
			bufadds(show, "\nend");
		}
	}
}

/* Whether entry e (NAME=value, or NAME: unset) names one of the names
 * of over[0..n), each NAME=value or NAME. */
static bool
overridden(const char *e, char **over, size_t n)
{
	size_t i, len = strcspn(e, "=");

	for (i = 0; i < n; i++)
		if (strncmp(over[i], e, len) == 0 && (over[i][len] == '=' ||
		    over[i][len] == '\0'))
			return true;
	return false;
}

/* The settings of the job's own environment into over (each malloc'd):
 * the file's env, the defaults', the job's, the command line's NAME=value
 * (a later one wins), then the values of its command's expressions.
 * Returns how many. */
static size_t
settings(struct graphrun *gr, const struct gjob *j, const struct values *v,
    char **over)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	struct buf b = { NULL, 0, 0 };
	size_t i, n = 0;
	char *val;

	for (i = 0; i < jj->nenv; i++) {
		/* (a null unsets the name: "NAME" alone) */
		if (wspx__yamldoc_isnull(jj->env[i].value)) {
			over[n++] = xstrdup(jj->env[i].name);
			continue;
		}
		val = graphcmd_expand(gr, j, jj->env[i].value->str);
		bufprintf(&b, "%s=%s", jj->env[i].name, val);
		over[n++] = buftake(&b);
		free(val);
	}
	for (i = 0; i < gr->nvars; i++)
		over[n++] = xstrdup(gr->vars[i]);
	for (i = 0; i < v->n; i++)
		over[n++] = xstrdup(v->env[i]);
	return n;
}

/* The job's environment: wspx's, with its settings and wspx's variables
 * of the job over it.  tmpdir: where its $WSPX_OUTPUT goes. */
static char **
environment(struct graphrun *gr, struct gjob *j, const struct values *v,
    const char *tmpdir)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	size_t n = 0, i, k = 0, nover;
	char **over = xcalloc(jj->nenv + gr->nvars + v->n + 4,
	    sizeof(char *)), **env;
	struct buf b = { NULL, 0, 0 };

	nover = settings(gr, j, v, over);
	j->outfile = xmalloc(strlen(tmpdir) + 24);
	sprintf(j->outfile, "%s/%llu", tmpdir,
	    (unsigned long long)j->cj.ej.seq);
	bufprintf(&b, "WSPX_OUTPUT=%s", j->outfile);
	over[nover++] = buftake(&b);
	bufprintf(&b, "WSPX_JOB=%s", jj->name);
	over[nover++] = buftake(&b);
	bufprintf(&b, "WSPX_SEQ=%llu", (unsigned long long)j->cj.ej.seq);
	over[nover++] = buftake(&b);
	while (environ[n] != NULL)
		n++;
	env = xcalloc(n + 2 * nover + 2, sizeof(char *));
	for (i = 0; i < n; i++)
		if (!overridden(environ[i], over, nover))
			env[k++] = environ[i];
	/* (a later setting of a name wins: keep the last one only) */
	for (i = 0; i < nover; i++)
		if (strchr(over[i], '=') != NULL && !overridden(over[i],
		    over + i + 1, nover - i - 1))
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
	v = graphcmd_expand(gr, j, d->str);
	if (v[0] == '/' || strcmp(gr->base, ".") == 0)
		return v;
	path = xmalloc(strlen(gr->base) + strlen(v) + 2);
	sprintf(path, "%s/%s", gr->base, v);
	free(v);
	return path;
}

/* The shell that runs j's command: its shell:, else /bin/sh, never the
 * caller's (a job file is a program: the same for every caller); the
 * names were checked when the file was read. */
static void
jobshell(const struct wspx__jfjob *jj, struct shell *sh,
    enum wspx__shlang *lang)
{
	const char *base;

	*lang = WSPX__SH_POSIX;
	sh->path = jj->shell != NULL ? jj->shell : "/bin/sh";
	sh->applet = NULL;
	if (jj->shell != NULL)
		(void)wspx__shellname_lang(jj->shell, lang);
	sh->kind = *lang == WSPX__SH_FISH ? SHELL_FISH : *lang ==
	    WSPX__SH_CSH ? SHELL_CSH : SHELL_POSIX;
	base = strrchr(sh->path, '/');
	base = base != NULL ? base + 1 : sh->path;
	if (strncmp(base, "busybox", 7) == 0)
		sh->applet = "sh";
}

/* The value of name in envp, or NULL. */
static const char *
getvar(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (; *envp != NULL; envp++)
		if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

char *
graphcmd_findprog(const char *path, const char *dir, const char *prog)
{
	const char *p, *end;
	struct buf b = { NULL, 0, 0 }, at = { NULL, 0, 0 };
	char *found = NULL;

	if (path == NULL || strchr(prog, '/') != NULL)
		return NULL;
	/* (a PATH of whole paths: once per run, not at every start: the
	 * cache's misses and a PATH with relative entries are searched) */
	if ((p = progpath_in(path, prog)) != NULL)
		return xstrdup(p);
	for (p = path; found == NULL; p = end + 1) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		b.len = 0;
		/* (an empty entry is the current directory, as execvp has it) */
		bufprintf(&b, "%.*s/%s", end > p ? (int)(end - p) : 1,
		    end > p ? p : ".", prog);
		/* (a relative entry is looked for from dir, where the job
		 * runs, which then finds the same file) */
		at.len = 0;
		if (*b.s != '/' && dir != NULL)
			bufprintf(&at, "%s/", dir);
		bufadds(&at, b.s);
		if (access(at.s, X_OK) == 0)
			found = buftake(&b);
		if (*end == '\0')
			break;
	}
	free(b.s);
	free(at.s);
	return found;
}

/* argv for the script: its words if it needs no shell (and the job names
 * none), else `shell -e -c script` (-e: stop at the first command that
 * fails, as make, just and GitHub Actions do; fish has no -e). */
static char **
argvfor(const struct wspx__jfjob *jj, const struct shell *sh,
    enum wspx__shlang lang, const char *line, bool *shelled)
{
	struct buf w = { NULL, 0, 0 };
	char **argv;
	size_t n = 0;

	/* (as make runs it: echo and true are then the programs, not the
	 * shell's builtins) */
	*shelled = !(jj->shell == NULL && jj->run->kind == WSPX__YSCALAR &&
	    !line_needs_shell_as(line, false) && line[strspn(line, " \t")] !=
	    '\0');
	if (!*shelled)
		return line_argv(line);
	bufadd(&w, sh->path, strlen(sh->path) + 1);
	n++;
	if (sh->applet != NULL) {
		bufadd(&w, sh->applet, strlen(sh->applet) + 1);
		n++;
	}
	if (lang != WSPX__SH_FISH) {
		bufadd(&w, "-e", 3);
		n++;
	}
	bufadd(&w, "-c", 3);
	bufadd(&w, line, strlen(line) + 1);
	n += 2;
	argv = packwords(&w, n);
	free(w.s);
	return argv;
}

/* What a dry run and -v show of j: "# NAME", then its command (a
 * comment: `--dry-run | sh` still runs the commands, and nothing of the
 * name, whose values are escaped onto the one line). */
static char *
shown(const struct wspx__jfjob *jj, const char *text)
{
	struct buf b = { NULL, 0, 0 };

	bufadds(&b, "# ");
	bufescaped(&b, jj->name, strlen(jj->name), 200);
	bufaddc(&b, '\n');
	bufadds(&b, text);
	return buftake(&b);
}

/* What a dry run and -v show of j's script: shown(), with the values of
 * the variables the file sets for it written in, where a POSIX shell
 * reads them (showvars.c). */
static char *
withvars(struct graphrun *gr, const struct gjob *j, enum wspx__shlang lang)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	struct values none = { NULL, NULL, 0 };
	char **set = xcalloc(jj->nenv + gr->nvars + 1, sizeof(char *)), *t, *s;
	size_t i, n = settings(gr, j, &none, set);

	t = lang == WSPX__SH_POSIX ? showvars(j->cj.cmdtext, set, n) :
	    xstrdup(j->cj.cmdtext);
	s = shown(jj, t);
	free(t);
	for (i = 0; i < n; i++)
		free(set[i]);
	free(set);
	return s;
}

/* j's command into cmd: a builtin's name (a dry run shows it), or its
 * script.  On another host the script runs in the host's sh, in a
 * subshell of wspx's script, with set -e first. */
static void
command(struct graphrun *gr, struct gjob *j, struct wspx__cmd *cmd,
    const char *tmpdir)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	struct buf run = { NULL, 0, 0 }, show = { NULL, 0, 0 };
	struct values v = { NULL, NULL, 0 };
	enum wspx__shlang lang;
	struct shell sh;
	bool shelled;

	cmd->file = NULL;
	cmd->search = true;
	if (jj->builtin != NULL) {
		bufprintf(&show, "builtin %s", jj->builtin);
		cmd->argv = line_argv("true");
		j->cj.cmdtext = buftake(&show);
		cmd->text = shown(jj, j->cj.cmdtext);
		return;
	}
	jobshell(jj, &sh, &lang);
	if (gr->c->remote.hosts.n > 0)
		bufadds(&run, "set -e\n");
	script(gr, j, lang, &v, &run, &show);
	/* (a dry run starts nothing: no environment, no $WSPX_OUTPUT) */
	if (j->envp == NULL && !gr->c->dryrun)
		j->envp = environment(gr, j, &v, tmpdir);
	values_free(&v);
	cmd->argv = argvfor(jj, &sh, lang, run.s + (gr->c->remote.hosts.n >
	    0 ? 7 : 0), &shelled);
	free(j->progpath);
	/* (a dry run starts nothing: no program to look for, along a
	 * PATH of the file's as long as it likes, for each leg) */
	j->progpath = shelled || gr->c->dryrun ? NULL :
	    graphcmd_findprog(getvar(j->envp, "PATH"), j->dir, cmd->argv[0]);
	cmd->file = j->progpath;
	j->cj.cmdtext = buftake(&show);
	if (gr->c->remote.hosts.n > 0) {
		cmd->text = buftake(&run);
		return;
	}
	free(run.s);
	cmd->text = gr->c->dryrun || gr->c->showcmd ? withvars(gr, j, lang) :
	    xstrdup(j->cj.cmdtext);
}

/* No directory for the jobs' $WSPX_OUTPUT files (rc): "cannot run NAME
 * (no directory for $WSPX_OUTPUT in DIR): reason". */
static int
notmpdir(struct graphrun *gr, struct gjob *j, int rc)
{
	const char *name = gr->jf->jobs[j->index].name;

	j->cj.cmdtext = xmalloc(strlen(name) + strlen(gr->c->tmpdir) + 48);
	sprintf(j->cj.cmdtext, "%s (no directory for $WSPX_OUTPUT in %s)",
	    name, gr->c->tmpdir);
	return rc;
}

int
graphcmd_prepare(struct graphrun *gr, struct gjob *j, struct wspx__cmd *cmd)
{
	const char *tmpdir = NULL;
	struct stat st;
	char *text;
	int rc;

	free(j->cj.cmdtext);
	/* (the environment is made once, at the first attempt; a dry run
	 * makes none, nor the directory of the $WSPX_OUTPUT files) */
	if (j->envp == NULL && !gr->c->dryrun &&
	    (rc = graphstate_tmpdir(gr, &tmpdir)) != 0)
		return notmpdir(gr, j, rc);
	/* (once, as the environment; a builtin's dry run comes here too) */
	if (j->dir == NULL)
		j->dir = graphcmd_dir(gr, j);
	command(gr, j, cmd, tmpdir);
	cmd->envp = j->envp;
	cmd->dir = j->dir;
	/* each attempt starts with no outputs (an earlier one's are read
	 * and removed when it ends, but an attempt may end unread) */
	if (j->outfile != NULL && j->outleft)
		(void)unlink(j->outfile);
	j->outleft = j->outfile != NULL;
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
	text = j->cj.cmdtext;
	j->cj.cmdtext = xmalloc(strlen(text) + strlen(j->dir) + 9);
	sprintf(j->cj.cmdtext, "%s in dir %s", text, j->dir);
	free(text);
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
			    v->items[k]->str : v->str);
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
	free(j->progpath);
	j->envp = NULL;
	j->bargs = NULL;
	j->nbargs = 0;
	j->dir = NULL;
	j->progpath = NULL;
}

/* A builtin's identity: its name and with:, expanded. */
static void
builtinid(struct graphrun *gr, const struct gjob *j, struct buf *b)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	const struct wspx__ynode *w;
	char *v;
	size_t i, k;

	bufprintf(b, "builtin %s", jj->builtin);
	for (i = 0; jj->with != NULL && i < jj->with->n; i++) {
		w = jj->with->items[2 * i + 1];
		bufprintf(b, " %s:", jj->with->items[2 * i]->str);
		for (k = 0; k < (w->kind == WSPX__YSEQ ? w->n : 1); k++) {
			v = graphcmd_expand(gr, j, w->kind == WSPX__YSEQ ?
			    w->items[k]->str : w->str);
			bufaddc(b, ' ');
			bufjson(b, v);
			free(v);
		}
	}
}

/* The settings of the job's environment, for its identity. */
static void
settingsid(struct graphrun *gr, const struct gjob *j, const struct values *v,
    struct buf *b)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	char **over = xcalloc(jj->nenv + gr->nvars + v->n + 1, sizeof(char *));
	size_t i, n = settings(gr, j, v, over);

	/* (an expression's value by its name, for --explain: the script
	 * names the variable that holds it) */
	for (i = 0; i < n; i++) {
		if (strncmp(over[i], "WSPX_VALUE_", 11) != 0) {
			bufadds(b, "\nenv ");
			bufjson(b, over[i]);
		}
		free(over[i]);
	}
	for (i = 0; i < v->n; i++) {
		if (v->ids[i][0] == 'm')
			bufprintf(b, "\nvalue matrix.%s ", v->ids[i] + 2);
		else
			bufprintf(b, "\nvalue needs.%.*s.outputs.%s ",
			    (int)strcspn(v->ids[i] + 2, " "), v->ids[i] + 2,
			    strchr(v->ids[i] + 2, ' ') + 1);
		bufjson(b, strchr(v->env[i], '=') + 1);
	}
	free(over);
}

char *
graphcmd_text(struct graphrun *gr, const struct gjob *j)
{
	const struct wspx__jfjob *jj = &gr->jf->jobs[j->index];
	struct buf b = { NULL, 0, 0 }, run = { NULL, 0, 0 },
	    show = { NULL, 0, 0 };
	struct values v = { NULL, NULL, 0 };
	enum wspx__shlang lang;
	struct shell sh;
	char *dir;

	if (jj->builtin != NULL)
		builtinid(gr, j, &b);
	else {
		jobshell(jj, &sh, &lang);
		script(gr, j, lang, &v, &run, &show);
		bufadds(&b, "shell ");
		bufjson(&b, sh.path);
		bufadds(&b, "\nrun ");
		bufjson(&b, run.s);
		free(run.s);
		free(show.s);
	}
	settingsid(gr, j, &v, &b);
	values_free(&v);
	/* (as the job file says it, not where the caller stands: the same
	 * job from another directory is the same job) */
	dir = jj->dir != NULL ? graphcmd_expand(gr, j, jj->dir->str) :
	    xstrdup(".");
	bufadds(&b, "\ndir ");
	bufjson(&b, dir);
	free(dir);
	return buftake(&b);
}
