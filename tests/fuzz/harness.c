/*
 * The fuzz targets' way back from exit() and their account of what an
 * input took (see harness.h).  The targets link with
 *
 *	-Wl,--wrap=exit,--wrap=malloc,... (FZ_WRAP in the Makefile)
 *
 * so that the code under test calls the __wrap_ functions here, which
 * call the real ones (__real_) and note the result in a table while an
 * input is followed.  Only one thread is followed: the one that called
 * fz_begin(); the table is that thread's alone.
 */
#define _GNU_SOURCE		/* fmemopen, getdelim's kin in stdio.h */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* The real functions, under the names --wrap gives them. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void __real_exit(int status);
FILE *__real_fopen(const char *path, const char *mode);
FILE *__real_fdopen(int fd, const char *mode);
FILE *__real_fmemopen(void *buf, size_t size, const char *mode);
int __real_fclose(FILE *f);
ssize_t __real_getline(char **line, size_t *cap, FILE *f);
ssize_t __real_getdelim(char **line, size_t *cap, int delim, FILE *f);
int __real_regcomp(regex_t *re, const char *pattern, int flags);
void __real_regfree(regex_t *re);
DIR *__real_opendir(const char *path);
int __real_closedir(DIR *d);

/* The wrappers, declared for -Wmissing-prototypes. */
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
void __wrap_exit(int status);
FILE *__wrap_fopen(const char *path, const char *mode);
FILE *__wrap_fdopen(int fd, const char *mode);
FILE *__wrap_fmemopen(void *buf, size_t size, const char *mode);
int __wrap_fclose(FILE *f);
ssize_t __wrap_getline(char **line, size_t *cap, FILE *f);
ssize_t __wrap_getdelim(char **line, size_t *cap, int delim, FILE *f);
int __wrap_regcomp(regex_t *re, const char *pattern, int flags);
void __wrap_regfree(regex_t *re);
DIR *__wrap_opendir(const char *path);
int __wrap_closedir(DIR *d);

jmp_buf fz_jump;

/* What a table entry holds, and so how it is given back. */
enum kind { K_NONE, K_MEM, K_FILE, K_DIR, K_REGEX };

struct entry {
	void *p;
	enum kind kind;
};

/* An open-addressing table of the pointers the input holds, with linear
 * probing and deletion by shifting back (no tombstones). */
static struct {
	struct entry *e;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
} table;

static _Thread_local int following;	/* this thread, between begin/done */
static int jumped, status;

/* The descriptors open before the first input; after a jump, those open
 * at or above the lowest that was free when the input started, and not
 * before, were the input's.  Descriptors are handed out lowest first, so
 * the input's are found in a short scan from there. */
#define FDSPAN	1024
#define FDSCAN	64
static unsigned char fdopen_before[FDSPAN];
static int fdknown, fdlowest;

static size_t
slot(const void *p)
{
	uintptr_t h = (uintptr_t)p;

	h ^= h >> 17;
	h *= (uintptr_t)0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 7) & (table.cap - 1);
}

static void note(void *p, enum kind kind);

static void
grow(void)
{
	struct entry *old = table.e;
	size_t i, oldcap = table.cap;

	table.cap = oldcap == 0 ? 1024 : oldcap * 2;
	table.e = __real_calloc(table.cap, sizeof(*table.e));
	if (table.e == NULL)
		abort();
	table.n = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].kind != K_NONE)
			note(old[i].p, old[i].kind);
	__real_free(old);
}

static void
note(void *p, enum kind kind)
{
	size_t i;

	if (p == NULL)
		return;
	if ((table.n + 1) * 2 > table.cap)
		grow();
	for (i = slot(p); table.e[i].kind != K_NONE;
	    i = (i + 1) & (table.cap - 1))
		if (table.e[i].p == p) {
			table.e[i].kind = kind;
			return;
		}
	table.e[i].p = p;
	table.e[i].kind = kind;
	table.n++;
}

/* Forget p; entries after it in its run move back into the hole when
 * their home slot allows. */
static void
forget(const void *p)
{
	size_t i, j, home;

	if (p == NULL || table.cap == 0)
		return;
	/* (an empty slot may still hold a pointer it once did: the kind
	 * is looked at first) */
	for (i = slot(p); table.e[i].kind == K_NONE || table.e[i].p != p;
	    i = (i + 1) & (table.cap - 1))
		if (table.e[i].kind == K_NONE)
			return;
	table.e[i].kind = K_NONE;
	table.n--;
	for (j = (i + 1) & (table.cap - 1); table.e[j].kind != K_NONE;
	    j = (j + 1) & (table.cap - 1)) {
		home = slot(table.e[j].p);
		/* (can j's entry move to i: is i not in (home, j]?) */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && home <= i && home > j)) {
			table.e[i] = table.e[j];
			table.e[j].kind = K_NONE;
			i = j;
		}
	}
}

/* Give back every entry of one kind. */
static void
release(enum kind kind)
{
	size_t i;

	for (i = 0; i < table.cap; i++) {
		if (table.e[i].kind != kind)
			continue;
		switch (kind) {
		case K_FILE: __real_fclose(table.e[i].p); break;
		case K_DIR: __real_closedir(table.e[i].p); break;
		case K_REGEX: __real_regfree(table.e[i].p); break;
		case K_MEM: __real_free(table.e[i].p); break;
		case K_NONE: break;
		}
		table.e[i].kind = K_NONE;
		table.n--;
	}
}

static void
closenewfds(void)
{
	int fd;

	for (fd = fdlowest; fd < fdlowest + FDSCAN && fd < FDSPAN; fd++)
		if (!fdopen_before[fd] && fcntl(fd, F_GETFD) >= 0)
			close(fd);
}

void
fz_begin(void)
{
	int fd;

	if (!fdknown) {
		for (fd = 0; fd < FDSPAN; fd++)
			fdopen_before[fd] = fcntl(fd, F_GETFD) >= 0;
		fdknown = 1;
	}
	if ((fdlowest = fcntl(0, F_DUPFD_CLOEXEC, 3)) >= 0)
		close(fdlowest);
	else
		fdlowest = 3;
	if (table.cap > 65536) {	/* one input held many: start small */
		__real_free(table.e);
		table.e = NULL;
		table.cap = table.n = 0;
	} else if (table.n > 0) {	/* the last input returned with these */
		memset(table.e, 0, table.cap * sizeof(*table.e));
		table.n = 0;
	}
	jumped = 0;
	status = 0;
	following = 1;
}

void
fz_done(void)
{
	following = 0;
	if (!jumped)
		return;
	/* streams and directories first: their buffers may be the
	 * input's memory (fmemopen) */
	release(K_REGEX);
	release(K_FILE);
	release(K_DIR);
	release(K_MEM);
	closenewfds();
}

bool
fz_exited(void)
{
	return jumped;
}

int
fz_status(void)
{
	return status;
}

void
__wrap_exit(int st)
{
	if (!following)
		__real_exit(st);
	following = 0;
	jumped = 1;
	status = st;
	fflush(NULL);
	longjmp(fz_jump, 1);
}

void *
__wrap_malloc(size_t n)
{
	void *p = __real_malloc(n);

	if (following)
		note(p, K_MEM);
	return p;
}

void *
__wrap_calloc(size_t n, size_t size)
{
	void *p = __real_calloc(n, size);

	if (following)
		note(p, K_MEM);
	return p;
}

void *
__wrap_realloc(void *p, size_t n)
{
	void *q = __real_realloc(p, n);

	if (following && q != NULL) {
		forget(p);
		note(q, K_MEM);
	}
	return q;
}

void
__wrap_free(void *p)
{
	if (following)
		forget(p);
	__real_free(p);
}

char *
__wrap_strdup(const char *s)
{
	char *p = __real_strdup(s);

	if (following)
		note(p, K_MEM);
	return p;
}

char *
__wrap_strndup(const char *s, size_t n)
{
	char *p = __real_strndup(s, n);

	if (following)
		note(p, K_MEM);
	return p;
}

static FILE *
notefile(FILE *f)
{
	if (following)
		note(f, K_FILE);
	return f;
}

FILE *
__wrap_fopen(const char *path, const char *mode)
{
	return notefile(__real_fopen(path, mode));
}

FILE *
__wrap_fdopen(int fd, const char *mode)
{
	return notefile(__real_fdopen(fd, mode));
}

FILE *
__wrap_fmemopen(void *buf, size_t size, const char *mode)
{
	return notefile(__real_fmemopen(buf, size, mode));
}

int
__wrap_fclose(FILE *f)
{
	if (following)
		forget(f);
	return __real_fclose(f);
}

ssize_t
__wrap_getdelim(char **line, size_t *cap, int delim, FILE *f)
{
	char *before = *line;
	ssize_t n = __real_getdelim(line, cap, delim, f);

	if (following && *line != before) {
		forget(before);
		note(*line, K_MEM);
	}
	return n;
}

ssize_t
__wrap_getline(char **line, size_t *cap, FILE *f)
{
	return __wrap_getdelim(line, cap, '\n', f);
}

int
__wrap_regcomp(regex_t *re, const char *pattern, int flags)
{
	int rc = __real_regcomp(re, pattern, flags);

	if (following && rc == 0)
		note(re, K_REGEX);
	return rc;
}

void
__wrap_regfree(regex_t *re)
{
	if (following)
		forget(re);
	__real_regfree(re);
}

DIR *
__wrap_opendir(const char *path)
{
	DIR *d = __real_opendir(path);

	if (following)
		note(d, K_DIR);
	return d;
}

int
__wrap_closedir(DIR *d)
{
	if (following)
		forget(d);
	return __real_closedir(d);
}

char *
fz_string(const uint8_t *data, size_t size)
{
	return __real_strndup((const char *)data, size);
}

char **
fz_words(const uint8_t *data, size_t size, size_t max, size_t *n)
{
	char **w = __real_calloc(max + 1, sizeof(*w));
	size_t i = 0, at = 0, len;

	while (w != NULL && i < max && at < size) {
		len = strnlen((const char *)data + at, size - at);
		w[i++] = __real_strndup((const char *)data + at, len);
		at += len + 1;
	}
	*n = i;
	return w;
}

void
fz_freewords(char **w)
{
	size_t i;

	for (i = 0; w != NULL && w[i] != NULL; i++)
		__real_free(w[i]);
	__real_free(w);
}

unsigned
fz_byte(struct fz_reader *r)
{
	return r->at < r->n ? r->p[r->at++] : 0;
}

char *
fz_next(struct fz_reader *r)
{
	size_t len = strnlen((const char *)r->p + r->at, r->n - r->at);
	char *s = __real_strndup((const char *)r->p + r->at, len);

	r->at += len + (r->at + len < r->n);
	return s;
}

uint8_t *
fz_repeat(const uint8_t *p, size_t n, unsigned e, size_t *len)
{
	uint8_t *r = __real_malloc(n << e ? n << e : 1);
	size_t i;

	if (r == NULL)
		abort();
	for (i = 0; i < ((size_t)1 << e); i++)
		memcpy(r + i * n, p, n);
	*len = n << e;
	return r;
}

void
fz_arg(struct fz_argv *a, const char *word)
{
	if (a->n < FZ_MAXARGV)
		a->w[a->n++] = __real_strdup(word);
	a->w[a->n] = NULL;
}

void
fz_argval(struct fz_argv *a, const char *opt, const char *v)
{
	if (v == NULL)
		return;
	fz_arg(a, opt);
	fz_arg(a, v);
}

void
fz_argnum(struct fz_argv *a, const char *opt, const char *fmt, unsigned n)
{
	char num[16];

	snprintf(num, sizeof(num), fmt, n);
	fz_argval(a, opt, num);
}

void
fz_argfree(struct fz_argv *a)
{
	while (a->n > 0)
		__real_free(a->w[--a->n]);
}

static char dir[4096], path[4200];

static void
removefile(void)
{
	unlink(path);
	rmdir(dir);
}

const char *
fz_file(const uint8_t *data, size_t size)
{
	int fd;

	if (dir[0] == '\0') {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/wspx-fuzz.XXXXXX",
		    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
		if (mkdtemp(dir) == NULL)
			abort();
		snprintf(path, sizeof(path), "%s/in", dir);
		atexit(removefile);
	}
	/* (a new file, not the old one cut short: on a disk, truncating
	 * a file that was just written forces it out, a write per input) */
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || (size > 0 && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
	return path;
}

void
fz_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
