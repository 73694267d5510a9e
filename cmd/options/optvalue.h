/*
 * The values of wspx's options, parsed or checked and stored in struct
 * config.  Each function takes opt, the option as it was typed ("-j",
 * "--jo"), and on a bad value reports a usage error naming it and exits
 * with status 255; none returns after that.
 */
#ifndef WSPX_OPTVALUE_H
#define WSPX_OPTVALUE_H

#include <stdbool.h>

#include "config.h"
#include "input/input.h"

/* A whole number from 1 to max. */
unsigned long long parsecount(const char *opt, const char *s,
    unsigned long long max);

/* The same, 0 allowed too. */
unsigned long long parsecount0(const char *opt, const char *s,
    unsigned long long max);

/* --block SIZE: with GNU parallel's units (k 1000, K 1024, ...); at least
 * 1 byte, less than 2 GiB.  -N (--pipepart): N parts per job slot. */
void setblock(struct config *c, const char *opt, const char *v);

/* -j: N, N%, +N, -N, 0 (one job per CPU); at least 1, at most MAXJOBS. */
unsigned parsejobs(const char *opt, const char *s);

/* The CPUs wspx may run on (its affinity mask): 't' its hardware
 * threads, 'c' their cores, 's' their sockets; at least 1. */
unsigned cpucount(char what);

/* --nice N: a whole number, maybe negative; what the kernel does not
 * take (beyond -20 to 19) it brings to the nearest it does. */
int parsenice(const char *opt, const char *s);

/* -d: one character, or \n \t \0 \r \\. */
char parsedelim(const char *opt, const char *s);

/* A duration in seconds: a decimal number of seconds, or with ms, s, m
 * or h; at most a day. */
double parseduration(const char *opt, const char *s);

/* Add an input source to c.  path is borrowed; opt is how it was given
 * ("-a", "--arg-f", "::::"), for errors, and is copied (NULL: stdin by
 * default). */
void addsource(struct config *c, enum srckind kind, const char *path,
    const char *opt);

/* --colsep: compile re, with the escapes of Perl's regular expressions
 * that POSIX lacks (\t \n \r \d \D, \s \w in brackets) replaced, so that
 * --colsep '\t' splits at TABs as it does with GNU parallel.  Given
 * again, the last one counts. */
void setcolsep(struct config *c, const char *opt, const char *re);

/* Returns v, a file name, once it is known not to be empty. */
const char *nonempty(const char *opt, const char *v);

/* --trace's file: a file name, not "-". */
const char *tracefile(const char *opt, const char *v);

/* --trim: which ends of each field lose their white space (n, l, r, lr,
 * rl). */
void settrim(struct config *c, const char *opt, const char *s);

/* --tmpdir: checked now, since a directory the user named that cannot be
 * used must not silently turn into output held in memory.  The jobs get
 * it as TMPDIR, as with GNU parallel.  dir is borrowed and kept. */
void settmpdir(struct config *c, const char *opt, const char *dir);

/* --tagstring, with the escapes GNU parallel reads in it. */
void settagstring(struct config *c, const char *opt, const char *s);

/* --er, --bnr and their kin: STR instead of m's default name. */
void setrename(struct config *c, const char *opt, const char *v,
    enum replmod m);

/* --parens: the halves of STR bracket a Perl expression. */
void setparens(struct config *c, const char *opt, const char *v);

/* -I STR, or -i (optional) with an optional STR: without one (v NULL or
 * empty) -i changes nothing, as with GNU parallel.  v is borrowed and
 * kept. */
void setreplace(struct config *c, const char *opt, const char *v,
    bool optional);

/* --joblog [+]FILE: '+' appends. */
void setjoblog(struct config *c, const char *opt, const char *v);

/* --results DIR: a directory (GNU parallel's table files and
 * replacement strings are refused). */
void setresults(struct config *c, const char *opt, const char *v);

/* --memfree SIZE, with GNU parallel's units (k 1000, K 1024, ...). */
void setmemfree(struct config *c, const char *opt, const char *v);

/* --load N, N% of the CPUs, +N or -N more or fewer than the CPUs; or a
 * file that holds one of these (GNU parallel's), read again by the run
 * when it changes (run/gates.c). */
void setload(struct config *c, const char *opt, const char *v);

/* What loadvalue() and loadfile_read() return for no load, a load not
 * more than 0, and a file that cannot be read (errno says why). */
#define LOAD_NONE	(-1.0)
#define LOAD_ZERO	(-2.0)
#define LOAD_UNREAD	(-3.0)

/* The load v says in --load's forms, or LOAD_NONE or LOAD_ZERO. */
double loadvalue(const char *v);

/* The load the file path holds, blanks around it left out; or LOAD_NONE,
 * LOAD_ZERO or LOAD_UNREAD. */
double loadfile_read(const char *path);

/* --timeout DUR or N% (of the median runtime of successful jobs). */
void settimeout(struct config *c, const char *opt, const char *v);

/* --semaphore-timeout: a duration, negative with a leading -. */
void setsemtimeout(struct config *c, const char *opt, const char *v);

/* --halt, in GNU parallel's forms. */
void sethalt(struct config *c, const char *opt, const char *v);

/* Append name to the list *v of *n names. */
void addname(const char ***v, size_t *n, const char *name);

/* --env NAME: a variable's name, else a usage error. */
const char *envname(const char *opt, const char *v);

/* -S: the hosts of v (a comma list of [N/]SPEC), else a usage error. */
void addhosts(struct config *c, const char *opt, const char *v);

#endif /* WSPX_OPTVALUE_H */
