/*
 * A YAML job file read into a tree of nodes with libyaml, each node with
 * its place in the file, for the job-file reader (jobfile/jobfile.c) to walk.
 *
 * The tree is built without recursion, from libyaml's events, so a file
 * nested as deep as libyaml accepts cannot overflow the stack; its nodes
 * live in one arena, freed at once.  Duplicate keys in a mapping, which
 * libyaml lets through, are errors, and so is nesting deeper than
 * WSPX__YAML_MAX_DEPTH.  An alias stands for its anchor's node
 * (shared, not copied); the document as the aliases expand it may hold at
 * most WSPX__YAML_MAX_EXPANDED nodes, so an alias bomb is an error, not an
 * exhausted memory.
 */
#ifndef WSPX_YAMLDOC_H
#define WSPX_YAMLDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "arena.h"
#include "diag.h"

/* Most nodes the document may hold with each alias counted as a copy of
 * what it stands for. */
#define WSPX__YAML_MAX_EXPANDED 10000000u

/* Most levels of nesting: libyaml's scanner takes time in the square of
 * the depth (100,000 levels of [ take it minutes), and no job file needs
 * more than a few. */
#define WSPX__YAML_MAX_DEPTH 1000u

enum wspx__ykind {
	WSPX__YSCALAR,
	WSPX__YSEQ,
	WSPX__YMAP
};

/* A node.  Scalars have str; sequences n items; mappings n pairs, stored
 * as items[2i] (key) and items[2i + 1] (value). */
struct wspx__ynode {
	enum wspx__ykind kind;
	unsigned line, col;		/* 1-based, where the node starts */
	bool plain;			/* a scalar written without quotes
					 * (so 10, true, null are typed) */
	char style;			/* a scalar's: 0 plain, '\'', '"',
					 * '|' or '>' */
	unsigned indent;		/* a block scalar's (| or >) column
					 * of text, 1-based */
	bool alias;			/* reached through an alias: the same
					 * node appears elsewhere too */
	const char *tag;		/* an explicit tag (!!str), or NULL */
	const char *str;		/* a scalar's text, NUL-terminated */
	size_t len;			/* its length (it may hold NULs) */
	size_t n;			/* items, or pairs */
	struct wspx__ynode **items;
};

/* A document: its root (NULL for an empty file) and the arena. */
struct wspx__yamldoc {
	struct wspx__ynode *root;
	size_t size;			/* of the file, in bytes */
	struct wspx__arena arena;	/* the nodes, their items and
					 * strings; freed by _fini */
};

/* Read one YAML document from f (named file in messages).  Returns 0 and
 * fills doc, or -EINVAL with the errors added to d (a syntax error ends
 * the reading: libyaml cannot go on past it; so does a key that is not a
 * string, which the tree never holds; duplicate keys do not), or
 * -ENOMEM, or -EIO (errno's text added to d).  A stream of more than one
 * document is an error.  doc must be finished with _fini either way. */
int wspx__yamldoc_read(struct wspx__yamldoc *doc, FILE *f,
    struct wspx__diag *d);

/* Free the tree. */
void wspx__yamldoc_fini(struct wspx__yamldoc *doc);

/* Where in the file byte off of scalar n's value is: exact for a plain
 * or quoted scalar on one line (escapes before it aside) and for a
 * literal block (|); else the scalar's own place. */
void wspx__yamldoc_place(const struct wspx__ynode *n, size_t off,
    unsigned *line, unsigned *col);

/* Whether n is YAML's null: a plain ~, null, Null, NULL or nothing, or
 * a scalar tagged !!null. */
bool wspx__yamldoc_isnull(const struct wspx__ynode *n);

/* The value of key in mapping m, or NULL. */
const struct wspx__ynode *wspx__yamldoc_get(const struct wspx__ynode *m,
    const char *key);

#endif /* WSPX_YAMLDOC_H */
