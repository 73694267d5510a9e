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

/* Compile re, read as perlre_posix() reads it, into rx with regcomp()'s
 * flags.  Returns 0, or regcomp()'s error with its text in err (n bytes;
 * rx is then not to be freed). */
int perlre_compile(regex_t *rx, const char *re, int flags, char *err,
    size_t n);

#endif /* WSPX_PERLRE_H */
