/*
 * Input: the arguments of each job, read lazily from stdin, from -a and
 * :::: files and from ::: lists, several sources combined as their cross
 * product.
 */
#ifndef WSPX_INPUT_H
#define WSPX_INPUT_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "template.h"

enum srckind {
	SRC_LIST,		/* ::: a b c */
	SRC_FILE		/* :::: FILE, -a FILE, stdin ("-") */
};

/* One input source as given on the command line. */
struct srcspec {
	enum srckind kind;
	char **items;		/* SRC_LIST: the arguments */
	size_t n;
	const char *path;	/* SRC_FILE: "-" for stdin */
	char *opt;		/* "-a", "::::", ... as typed, or NULL, for
				 * errors; the owner frees it */
	bool linked;		/* read in step with the source before it
				 * (:::+, ::::+, --link) */
};

/* Which ends of each field lose their white space (--trim). */
enum {
	TRIM_NONE = 0,
	TRIM_LEFT = 1,
	TRIM_RIGHT = 2,
	TRIM_BOTH = TRIM_LEFT | TRIM_RIGHT
};

struct inputopts {
	char delim;		/* record separator: '\n', '\0', or -d */
	regex_t *colsep;	/* split records into fields, or NULL */
	bool skipblank;		/* skip records that are empty or blank */
	bool continued;		/* -L: a line ending in a blank goes on
				 * into the next */
	const char *eofstr;	/* -E: a source ends at this record, or
				 * NULL */
	bool wrap;		/* --link: linked sources are as long as the
				 * longest (else the shortest) */
	int wakefd;		/* readable when reading should stop, or -1 */
	int trim;		/* TRIM_LEFT | TRIM_RIGHT, or TRIM_NONE */
	bool header;		/* --header without --pipe: the first
				 * record of each source names its fields
				 * (input_header()) and is no record */
};

struct input;

/* Open the sources; files other than the first are read whole now (they
 * are iterated once per record of the first), and so is the first if
 * another is linked to it (:::+, --link: the longest decides); with the
 * header option, the first record of each is read now.  Exits with a
 * message naming the file if one cannot be opened. */
struct input *input_open(const struct srcspec *src, size_t nsrc,
    const struct inputopts *o);

void input_close(struct input *in);

/* With the header option: the names of the fields, the fields of each
 * source's first record in the order of the sources, as input_next()
 * numbers them, untrimmed; *n of them (0 if no source had a record).
 * They are the input's until input_close(). */
char *const *input_header(struct input *in, size_t *n);

/* From now on, stop reading when wakefd becomes readable (for an input
 * opened before there was one). */
void input_wakefd(struct input *in, int wakefd);

/* The fields of the next record (one combination of the sources'
 * records), in one malloc'd block that free(a->v) frees; a->nrec is 0.
 * Returns 1, or 0 at the end of the input (or when wakefd became
 * readable).  Reads only as much as it needs. */
int input_next(struct input *in, struct args *a);

/* Whether reading an input failed (the error was reported): the input
 * then ended early. */
bool input_failed(const struct input *in);

/* Whether the next input_next() can return without waiting for input. */
bool input_ready(struct input *in);

#endif /* WSPX_INPUT_H */
