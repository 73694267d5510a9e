/*
 * Perl's regular expressions, as --colsep and --pipe's --regexp options
 * take them from GNU parallel, turned into POSIX extended ones (perlre.c).
 */
#ifndef WSPX_PERLRE_H
#define WSPX_PERLRE_H

#include <regex.h>
#include <stddef.h>

/* re with the escapes of Perl's regular expressions that POSIX lacks
 * (\t \n \r \d \D, \s \w in brackets) replaced, so that --colsep '\t'
 * splits at TABs as it does with GNU parallel.  Returns a new string. */
char *perlre_posix(const char *re);

/* The most copies of what its repetitions repeat that an expression may
 * make regcomp() build (see perlre.c): one repetition at the C library's
 * bound (RE_DUP_MAX, 32767) and the rest of the expression fit. */
#define PERLRE_MAXCOPIES 65536
/* ... of which may match nothing (a{1,1000}, (a?){1000}): regcomp()'s
 * time grows with their square. */
#define PERLRE_MAXOPTIONAL 1000
/* The deepest nesting of groups: regcomp() recurses on each. */
#define PERLRE_MAXDEPTH 1000
/* The most unbounded repetitions (*, +, {n,}) of what may itself match
 * nothing, copies counted: (a*)*, a**, (a|)+.  With an anchor beside them
 * regcomp()'s time doubles with each: 25 of them took it over a minute. */
#define PERLRE_MAXEMPTYLOOPS 8
/* The deepest nesting of repetitions that may match nothing (a???,
 * ((a?)?)?) under a loop over what may match nothing, times the copies
 * that loop and those around it make: regcomp()'s time grows with its
 * fourth power or so, ((a?)?...)+ 100 deep took it 4 s, a?...?+++ with 43
 * '?' 1.5 s (found by tests/fuzz/pipe). */
#define PERLRE_MAXLOOPNEST 64
/* A loop over what may match nothing, with a nesting n of such
 * repetitions under it, costs regcomp() time in n squared times the
 * empty paths that lead into it: those through the repetitions that
 * may match nothing just before it, the product of their nestings, and
 * the copies of a loop before those, which ends in what may match
 * nothing (b+a??a??a??(a???)+: 2 * 2 * 2 * 2 * 9, times the loop's
 * copies).  a?? twelve times before (a?...?)+ 31 deep took 0.6 s, and
 * 20 s under ASan; x+++ before nests 13 and 25 deep and a loop took 0.1
 * s, 10 s under ASan (both found by tests/fuzz/pipe). */
#define PERLRE_MAXCHAIN 20000
/* That product, twice as much for each loop over what may match nothing,
 * when the expression has an anchor (^ $ \b ...): glibc takes the
 * closure again for the anchor's condition, around each loop.  en?????
 * x(30 '?')^>??+++ took 0.1 s and 14 s under ASan (found by
 * tests/fuzz/pipe): 150 * 36 * 2^7; 1 * 1080 * 2^7 takes 0.02 s, the
 * most this lets by. */
#define PERLRE_MAXANCHORCHAIN 160000

/* An expression of a shape that may be slow to compile, which no bound
 * above refused, is compiled first in a child process that may take this
 * many seconds of CPU time; past them it is refused (see perlre.c).  One
 * second: an input of the fuzz target cuts with three expressions, each
 * compiled twice, within libFuzzer's 10 s under the sanitizers. */
#define PERLRE_TRIALCPU 1

/* Compile re, read as perlre_posix() reads it, into rx with regcomp()'s
 * flags.  Returns 0, or regcomp()'s error with its text in err (n bytes;
 * rx is then not to be freed): REG_ESPACE, not compiled, if it would make
 * more than PERLRE_MAXCOPIES copies or PERLRE_MAXOPTIONAL optional ones,
 * repeats what may match nothing more than PERLRE_MAXEMPTYLOOPS times
 * without bound or over repetitions nested past PERLRE_MAXLOOPNEST, or
 * nests groups deeper than PERLRE_MAXDEPTH, or took a trial compile
 * over PERLRE_TRIALCPU seconds or crashed in it; REG_EPAREN
 * for a ')' that closes no group, which Perl refuses.  Only while the
 * process has one thread: the trial forks (see os/trial.h). */
int perlre_compile(regex_t *rx, const char *re, int flags, char *err,
    size_t n);

/* re against the bounds above alone, with neither a trial nor
 * regcomp(): 0, or REG_ESPACE or REG_EPAREN as perlre_compile() would
 * return them, with the same text in err.  Any thread. */
int perlre_bounds(const char *re, char *err, size_t n);

#endif /* WSPX_PERLRE_H */
