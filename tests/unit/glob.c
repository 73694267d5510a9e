/*
 * Unit tests for pattern expansion: wildcards in a segment, `**` at the
 * start, middle and end, dotfiles and dot-directories, a symbolic-link
 * loop, literals found and missing, no match, sorting and deduplication,
 * absolute patterns, and a tree deeper than any recursion should go.
 *
 * usage: glob
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobfile/glob.h"
#include "test.h"

static int dfd;			/* the test tree */
static char root[] = "/tmp/wspx-glob-XXXXXX";

/* Create path in dfd with its parent directories; a final '/' makes a
 * directory. */
static void
mk(const char *path)
{
	char buf[PATH_MAX], *s;
	int fd;

	snprintf(buf, sizeof(buf), "%s", path);
	for (s = strchr(buf, '/'); s != NULL; s = strchr(s + 1, '/')) {
		*s = '\0';
		CHECK(mkdirat(dfd, buf, 0777) == 0 || errno == EEXIST);
		*s = '/';
	}
	if (buf[strlen(buf) - 1] == '/')
		return;
	fd = openat(dfd, buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	CHECK(fd >= 0 && write(fd, path, strlen(path)) > 0);
	close(fd);
}

/* Whether pattern expands to exactly the space-separated paths of want
 * ("" for none), with status rc. */
static int
globs(const char *pattern, int rc, const char *want)
{
	char **v, got[8192] = "";
	size_t n, i;
	int r, ok;

	r = wspx__glob(dfd, pattern, &v, &n);
	for (i = 0; i < n; i++) {
		strcat(got, i > 0 ? " " : "");
		strcat(got, v[i]);
	}
	ok = r == rc && strcmp(got, want) == 0 && (n > 0) == (v != NULL);
	if (!ok)
		fprintf(stderr, "%s: %d [%s], want %d [%s]\n", pattern, r,
		    got, rc, want);
	free(v);
	return ok;
}

static void
build(void)
{
	CHECK(mkdtemp(root) != NULL);
	dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(dfd >= 0);
	mk("top.c");
	mk(".top.c");
	mk("src/a.c");
	mk("src/b.h");
	mk("src/.hidden.c");
	mk("src/.git/x.c");
	mk("src/sub/c.c");
	mk("src/sub/deep/d.c");
	mk("src/empty/");
	mk("docs/readme.md");
	/* A loop that `**` must not follow. */
	CHECK(symlinkat("..", dfd, "src/loop") == 0);
	CHECK(symlinkat("nowhere", dfd, "src/dangling.c") == 0);
}

static void
test_segment(void)
{
	CHECK(globs("src/*.c", 0, "src/a.c src/dangling.c"));
	CHECK(globs("src/[ab].?", 0, "src/a.c src/b.h"));
	CHECK(globs("*/sub/*.c", 0, "src/sub/c.c"));
	CHECK(globs("*/*/*/*.c", 0, "src/loop/src/a.c src/loop/src/dangling.c "
	    "src/sub/deep/d.c"));
	CHECK(globs("src//*.h", 0, "src/b.h"));
	CHECK(globs("s\\rc/a.c", 0, "src/a.c"));
	CHECK(globs("*", 0, "docs src top.c"));
}

static void
test_dotfiles(void)
{
	CHECK(globs("*.c", 0, "top.c"));
	CHECK(globs(".*.c", 0, ".top.c"));
	CHECK(globs("src/.*", 0, "src/.git src/.hidden.c"));
	CHECK(globs("src/?hidden.c", 0, ""));
	/* `**` does not enter .git, but a segment naming it does. */
	CHECK(globs("**/x.c", 0, ""));
	CHECK(globs("**/.git/*.c", 0, "src/.git/x.c"));
	CHECK(globs("src/.git/**", 0, "src/.git src/.git/x.c"));
}

static void
test_globstar(void)
{
	CHECK(globs("**/*.c", 0, "src/a.c src/dangling.c src/sub/c.c "
	    "src/sub/deep/d.c top.c"));
	CHECK(globs("src/**/*.c", 0, "src/a.c src/dangling.c src/sub/c.c "
	    "src/sub/deep/d.c"));
	CHECK(globs("src/**/d.c", 0, "src/sub/deep/d.c"));
	CHECK(globs("src/**/sub/**/d.c", 0, "src/sub/deep/d.c"));
	CHECK(globs("src/**", 0, "src src/a.c src/b.h src/dangling.c "
	    "src/empty src/loop src/sub src/sub/c.c src/sub/deep "
	    "src/sub/deep/d.c"));
	CHECK(globs("**", 0, "docs docs/readme.md src src/a.c src/b.h "
	    "src/dangling.c src/empty src/loop src/sub src/sub/c.c "
	    "src/sub/deep src/sub/deep/d.c top.c"));
	CHECK(globs("src/a.c/**", 0, ""));
	CHECK(globs("nowhere/**", 0, ""));
}

static void
test_dedup(void)
{
	/* Each path is reachable many ways; each comes back once. */
	CHECK(globs("**/**/*.c", 0, "src/a.c src/dangling.c src/sub/c.c "
	    "src/sub/deep/d.c top.c"));
	CHECK(globs("**/**/**/d.c", 0, "src/sub/deep/d.c"));
}

static void
test_literal(void)
{
	char abs[PATH_MAX], want[PATH_MAX];

	CHECK(globs("src/a.c", 0, "src/a.c"));
	CHECK(globs("src//a.c", 0, "src//a.c"));
	CHECK(globs("src/sub", 0, "src/sub"));
	CHECK(globs("src/zz.c", -ENOENT, "src/zz.c"));
	CHECK(globs("src/a.c/x", -ENOENT, "src/a.c/x"));
	CHECK(globs("src/dangling.c", -ENOENT, "src/dangling.c"));
	CHECK(globs("src/*.zz", 0, ""));
	CHECK(globs("nowhere/*.c", 0, ""));
	CHECK(globs("", -EINVAL, ""));
	snprintf(abs, sizeof(abs), "%s/src/*.h", root);
	snprintf(want, sizeof(want), "%s/src/b.h", root);
	CHECK(globs(abs, 0, want));
}

/* A chain of 1500 directories: a recursive walk would still cope, but
 * the point is that the walk's depth costs heap, not stack. */
static void
test_deep(void)
{
	char path[PATH_MAX], **v;
	size_t n, i, len = 0;

	len = (size_t)snprintf(path, sizeof(path), "deep");
	for (i = 0; i < 1500; i++)
		len += (size_t)snprintf(path + len, sizeof(path) - len, "/d");
	snprintf(path + len, sizeof(path) - len, "/leaf.c");
	mk(path);
	CHECK(wspx__glob(dfd, "deep/**/*.c", &v, &n) == 0);
	CHECK(n == 1 && v != NULL && strcmp(v[0], path) == 0);
	free(v);
	CHECK(wspx__glob(dfd, "deep/**", &v, &n) == 0);
	CHECK(n == 1502);
	free(v);
}

/* 1000 files made in a scrambled order come back sorted. */
static void
test_sorted(void)
{
	char name[64], **v;
	size_t n, i;
	int bad = 0;

	for (i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "wide/f%03zu", i * 7 % 1000);
		mk(name);
	}
	CHECK(wspx__glob(dfd, "wide/*", &v, &n) == 0);
	CHECK(n == 1000);
	for (i = 1; i < n; i++)
		bad += strcmp(v[i - 1], v[i]) >= 0;
	CHECK(bad == 0);
	free(v);
}

/* Without read permission a directory is an error, not a gap; root
 * reads it regardless, so the test then checks nothing. */
static void
test_unreadable(void)
{
	char **v;
	size_t n;

	mk("locked/f.c");
	CHECK(fchmodat(dfd, "locked", 0, 0) == 0);
	if (geteuid() != 0) {
		CHECK(wspx__glob(dfd, "locked/*.c", &v, &n) == -EACCES);
		CHECK(v == NULL && n == 0);
		CHECK(wspx__glob(dfd, "**/f.c", &v, &n) == -EACCES);
	}
	CHECK(fchmodat(dfd, "locked", 0755, 0) == 0);
}

int
main(void)
{
	char cmd[128];

	build();
	TEST(test_segment(), "glob: wildcards within a segment");
	TEST(test_dotfiles(), "glob: dotfiles match only a written '.'");
	TEST(test_globstar(), "glob: ** at the start, middle and end");
	TEST(test_dedup(), "glob: a path found many ways comes back once");
	TEST(test_literal(), "glob: literals found and missing, no match");
	TEST(test_deep(), "glob: a tree 1500 directories deep");
	TEST(test_sorted(), "glob: results sorted");
	TEST(test_unreadable(), "glob: an unreadable directory is an error");
	close(dfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return test_done();
}
