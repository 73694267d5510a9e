/*
 * What every fuzz target shares: a way back from exit() and an account of
 * what the input took.
 *
 * wspx's commands report a bad input and exit(), as a program should; a
 * fuzz target runs millions of inputs in one process, so exit() must come
 * back to the target instead.  The targets are linked with --wrap for
 * exit, the allocation functions and the few libc calls that hold memory
 * or descriptors (fopen, getline, regcomp, opendir): while an input runs,
 * harness.c notes what each one took, so that when exit() jumps back the
 * harness gives back what the jump stranded, and the next input starts
 * clean.  An input that returns normally keeps its account: what it did
 * not free is LeakSanitizer's to report, as it would be in the program.
 *
 *	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
 *	{
 *		fz_begin();
 *		if (setjmp(fz_jump) == 0)
 *			parse(data, size);	// may call exit()
 *		fz_done();
 *		return 0;
 *	}
 *
 * setjmp() is the whole condition of the if, one of the few places C11
 * allows it (7.13.1.1), so it cannot hide in a macro with fz_begin().
 * A local variable that the code under the if changes is not to be read
 * after a jump (its value is then indeterminate): the targets read only
 * what they set before.  Only the thread that called fz_begin() is
 * followed; code that starts threads of its own is not for these
 * targets.
 */
#ifndef WSPX_FUZZ_HARNESS_H
#define WSPX_FUZZ_HARNESS_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

extern jmp_buf fz_jump;

/* Start following an input; then setjmp(fz_jump) returns 0, or not 0
 * when exit() jumped back. */
void fz_begin(void);

/* Stop following: after a jump, free, close and release what the input
 * still held. */
void fz_done(void);

/* Whether the last input ended in exit(), and with which status. */
bool fz_exited(void);
int fz_status(void);

/* The input as a NUL-terminated string (a NUL inside ends it early, as it
 * would end a C string from argv or a file name); malloc'd. */
char *fz_string(const uint8_t *data, size_t size);

/* The input cut at NULs into at most max words, each malloc'd, with a NULL
 * after the last; *n is their count.  fz_freewords() frees them. */
char **fz_words(const uint8_t *data, size_t size, size_t max, size_t *n);
void fz_freewords(char **w);

/* A fuzz input read from its front, for targets that take options from
 * its first bytes: fz_byte() gives the next byte (0 past the end),
 * fz_next() the next string up to a NUL or the end (malloc'd). */
struct fz_reader {
	const uint8_t *p;
	size_t n, at;
};
unsigned fz_byte(struct fz_reader *r);
char *fz_next(struct fz_reader *r);

/* The n bytes at p, 2^e times over (malloc'd; *len their length): a
 * short input made long enough to cross a reader's buffers. */
uint8_t *fz_repeat(const uint8_t *p, size_t n, unsigned e, size_t *len);

/* A command line a target builds: words past FZ_MAXARGV are dropped. */
#define FZ_MAXARGV 64
struct fz_argv {
	char *w[FZ_MAXARGV + 1];
	int n;
};
void fz_arg(struct fz_argv *a, const char *word);
/* opt and its value, if v is not NULL */
void fz_argval(struct fz_argv *a, const char *opt, const char *v);
/* opt and the number n, as fmt writes it ("%u", "-%u") */
void fz_argnum(struct fz_argv *a, const char *opt, const char *fmt,
    unsigned n);
void fz_argfree(struct fz_argv *a);

/* A file in a directory of the target's own holding data; its path is
 * returned (static, the same each call). */
const char *fz_file(const uint8_t *data, size_t size);

/* Stop with a message that libFuzzer reports as a crash, with the input:
 * for the targets' own checks (an invariant that does not hold). */
void fz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* WSPX_FUZZ_HARNESS_H */
