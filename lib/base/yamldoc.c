/*
 * A YAML document read into a tree (see yamldoc.h).  libyaml's parser
 * hands out events in document order; a node is built when it ends, from
 * its children, which wait on one stack of finished nodes (vals) above the
 * mark of their open parent (a frame).  Nothing recurses, so the depth of
 * the file costs heap, not stack.  Nodes, their item arrays and strings
 * are bump-allocated from the doc's arena (arena.h), as libyaml's own
 * parse already pays a malloc per event and the tree should not double
 * that; the arena goes in one loop.  The checks libyaml does not make are
 * made here: duplicate keys (a hash set, strtab.h, of the keys of each
 * large open mapping, a scan for the small ones), keys that are not
 * scalars, and the size of the document as its aliases expand it, so
 * that a bomb of nested aliases is refused before anyone walks it.
 */
#include "yamldoc.h"

#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "arena.h"
#include "diag.h"
#include "strtab.h"

/* A mapping's keys are scanned for duplicates up to this many; past it
 * they go into a hash set. */
#define SMALLMAP	8

/* An open sequence or mapping. */
struct frame {
	struct wspx__ynode *node;
	size_t base;			/* its first child in vals */
	size_t xstart;			/* count before it began */
	const char *anchor;		/* its anchor (in the arena), or NULL */
	struct wspx__strtab keys;	/* used past SMALLMAP keys */
};

struct loader {
	yaml_parser_t parser;
	struct wspx__arena *arena;	/* the doc's */
	struct wspx__diag *d;
	const unsigned char *buf;	/* the whole input */
	size_t len;
	size_t breaks;			/* its line breaks */
	unsigned lastcol;		/* the column after its last line's
					 * text */
	size_t curchar, curbyte;	/* a character index libyaml gave,
					 * and its byte offset */
	struct frame *frames;
	size_t nframes, capframes;
	struct wspx__ynode **vals;	/* finished children of open nodes */
	size_t nvals, capvals;
	struct wspx__strtab anchors;	/* val: the node; aux: its size,
					 * aliases expanded */
	size_t count;			/* nodes so far, aliases expanded */
	bool aliased;			/* count includes an alias */
	bool invalid;			/* an error that did not stop reading */
	bool complete;			/* the first document has ended */
	unsigned ndocs;
	struct wspx__ynode *root;
};

/* Room for one more element in v, an array of *cap elements of size, n
 * of them used: returns v, or v grown (and maybe moved), or NULL without
 * memory (v is left as it was).  It returns the array rather than store
 * it through a void **, which would alias an object of another type. */
static void *
reserve(void *v, size_t *cap, size_t n, size_t size)
{
	size_t ncap = *cap != 0 ? *cap * 2 : 64;

	if (n < *cap)
		return v;
	if ((v = realloc(v, ncap * size)) != NULL)
		*cap = ncap;
	return v;
}

/* The length of the line break at b[i..len): \r\n, \n, \r, or UTF-8's
 * NEL, LS or PS, as libyaml takes them; 0 if none is there. */
static size_t
linebreak(const unsigned char *b, size_t len, size_t i)
{
	if (b[i] == '\r')
		return i + 1 < len && b[i + 1] == '\n' ? 2 : 1;
	if (b[i] == '\n')
		return 1;
	if (b[i] == 0xc2 && i + 1 < len && b[i + 1] == 0x85)
		return 2;
	if (b[i] == 0xe2 && i + 2 < len && b[i + 1] == 0x80 &&
	    (b[i + 2] == 0xa8 || b[i + 2] == 0xa9))
		return 3;
	return 0;
}

/* The input's line breaks, and the column after the text of its last
 * line, for markplace(). */
static void
countlines(struct loader *l)
{
	size_t i, k, last = 0;

	for (i = 0; i < l->len; i += k > 0 ? k : 1)
		if ((k = linebreak(l->buf, l->len, i)) > 0) {
			l->breaks++;
			last = i + k;
		}
	for (l->lastcol = 1, i = last; i < l->len; i++)
		l->lastcol += (l->buf[i] & 0xc0) != 0x80;
}

/* The place of libyaml's mark m, 1-based.  At the end of a file whose
 * last line has no line break, libyaml has started a line of its own
 * after it: the place is the end of that last line instead, not a line
 * the file does not have. */
static void
markplace(const struct loader *l, const yaml_mark_t *m, unsigned *line,
    unsigned *col)
{
	*line = (unsigned)m->line + 1;
	*col = (unsigned)m->column + 1;
	if (m->column == 0 && m->line == l->breaks + 1) {
		*line = (unsigned)m->line;
		*col = l->lastcol;
	}
}

/* The byte offset in the input of libyaml's index, which counts
 * characters, not bytes, and leaves out a byte order mark at the start
 * (a mark further on is a character).  Marks come mostly in order, so
 * the walk goes on from the last one's place. */
static size_t
indexbyte(struct loader *l, size_t index)
{
	static const unsigned char bom[] = { 0xef, 0xbb, 0xbf };

	if (index < l->curchar || l->curbyte == 0) {
		l->curchar = 0;
		l->curbyte = l->len >= 3 && memcmp(l->buf, bom, 3) == 0 ?
		    3 : 0;
	}
	while (l->curchar < index && l->curbyte < l->len) {
		l->curbyte++;
		while (l->curbyte < l->len &&
		    (l->buf[l->curbyte] & 0xc0) == 0x80)
			l->curbyte++;
		l->curchar++;
	}
	return l->curbyte;
}

/* Count n more nodes of the expanded document, the last at m. */
static int
expand(struct loader *l, size_t n, const yaml_mark_t *m)
{
	unsigned line, col;

	/* No overflow: count was within the bound, and so was n, the size
	 * of an anchor's node, when that node ended. */
	l->count += n;
	if (l->count <= WSPX__YAML_MAX_EXPANDED)
		return 0;
	markplace(l, m, &line, &col);
	wspx__diag_add(l->d, line, col, l->aliased ?
	    "aliases expand the document past %u nodes (an alias bomb?)" :
	    "the document has more than %u nodes", WSPX__YAML_MAX_EXPANDED);
	return -EINVAL;
}

static void
duplicate(struct loader *l, const struct wspx__ynode *key,
    const struct wspx__ynode *first)
{
	char buf[64];

	wspx__diag_add(l->d, key->line, key->col,
	    "duplicate key '%s' (first at %u:%u)",
	    wspx__diag_quote(buf, sizeof(buf), key->str, key->len), first->line,
	    first->col);
	l->invalid = true;
}

/* Check the key just added to the open mapping f: a small mapping's keys
 * are scanned, a large one's go into its key set (all of them, the first
 * time). */
static int
checkkey(struct loader *l, struct frame *f)
{
	struct wspx__ynode *key = l->vals[l->nvals - 1], *k;
	size_t i = l->nvals - 1;
	struct wspx__strtab_entry *e;

	/* (an error that ends the reading: the tree is walked with every
	 * key a string, and this one has none) */
	if (key->kind != WSPX__YSCALAR) {
		wspx__diag_add(l->d, key->line, key->col,
		    "a key must be a plain string");
		return -EINVAL;
	}
	if (i - f->base < 2 * SMALLMAP) {
		for (k = NULL, i = f->base; i < l->nvals - 1 && k == NULL;
		    i += 2)
			if (l->vals[i]->kind == WSPX__YSCALAR &&
			    l->vals[i]->len == key->len && memcmp(
			    l->vals[i]->str, key->str, key->len) == 0)
				k = l->vals[i];
		if (k != NULL)
			duplicate(l, key, k);
		return 0;
	}
	for (i = f->keys.cap == 0 ? f->base : i; i < l->nvals; i += 2) {
		k = l->vals[i];
		if (k->kind != WSPX__YSCALAR)
			continue;
		if (wspx__strtab_put(&f->keys, k->str, k->len, &e) != 0)
			return -ENOMEM;
		if (e->val == NULL)
			e->val = k;
		else if (k == key)
			duplicate(l, key, e->val);
	}
	return 0;
}

/* node is finished: the root, or the next child of the open node. */
static int
attach(struct loader *l, struct wspx__ynode *node)
{
	struct wspx__ynode **vals;
	struct frame *f;

	if (l->nframes == 0) {
		l->root = node;
		return 0;
	}
	f = &l->frames[l->nframes - 1];
	if ((vals = reserve(l->vals, &l->capvals, l->nvals,
	    sizeof(*vals))) == NULL)
		return -ENOMEM;
	l->vals = vals;
	l->vals[l->nvals++] = node;
	if (f->node->kind == WSPX__YMAP && (l->nvals - f->base) % 2 == 1)
		return checkkey(l, f);
	return 0;
}

/* Let name stand for node, of xsize nodes expanded.  A later anchor of
 * the same name replaces it, as YAML says. */
static int
defanchor(struct loader *l, const char *name, struct wspx__ynode *node,
    size_t xsize)
{
	struct wspx__strtab_entry *e;

	if (wspx__strtab_put(&l->anchors, name, strlen(name), &e) != 0)
		return -ENOMEM;
	/* name may be the event's, which is freed with it: keep a copy. */
	if (e->val == NULL &&
	    (e->s = wspx__arena_strdup(l->arena, name, e->len)) == NULL)
		return -ENOMEM;
	e->val = node;
	e->aux = xsize;
	return 0;
}

/* A tag as the user would write it: libyaml resolves !!str to
 * tag:yaml.org,2002:str, which is written back as !!str. */
static char *
copytag(struct wspx__arena *a, const char *t)
{
	static const char std[] = "tag:yaml.org,2002:";
	size_t len = strlen(t), pre = sizeof(std) - 1;
	char *s;

	if (strncmp(t, std, pre) != 0)
		return wspx__arena_strdup(a, t, len);
	if ((s = wspx__arena_alloc(a, 2 + len - pre + 1, 1)) != NULL) {
		memcpy(s, "!!", 2);
		memcpy(s + 2, t + pre, len - pre + 1);
	}
	return s;
}

/* A new node at m, with an explicit tag or none. */
static struct wspx__ynode *
newnode(struct loader *l, enum wspx__ykind kind, const yaml_mark_t *m,
    const yaml_char_t *tag)
{
	struct wspx__ynode *n;
	char *s = NULL;

	if (tag != NULL && (s = copytag(l->arena, (const char *)tag)) == NULL)
		return NULL;

	n = wspx__arena_alloc(l->arena, sizeof(*n),
	    alignof(struct wspx__ynode));
	if (n == NULL)
		return NULL;
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	markplace(l, m, &n->line, &n->col);
	n->tag = s;
	return n;
}

/* A scalar's style, and a block scalar's indentation: that of its first
 * line of text (the line after the | or >). */
static void
setstyle(struct loader *l, struct wspx__ynode *n,
    const yaml_event_t *ev)
{
	const unsigned char *p, *end = l->buf + l->len;

	switch (ev->data.scalar.style) {
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:
		n->style = '\'';
		return;
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
		n->style = '"';
		return;
	case YAML_LITERAL_SCALAR_STYLE:
	case YAML_FOLDED_SCALAR_STYLE:
		n->style = ev->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ?
		    '|' : '>';
		break;
	default:
		return;
	}
	p = l->buf + indexbyte(l, ev->start_mark.index);
	while (p < end && *p != '\n')
		p++;
	/* (the first line that is not blank gives it) */
	while (p < end && *p == '\n') {
		for (n->indent = 1, p++; p < end && *p == ' '; p++)
			n->indent++;
	}
}

void
wspx__yamldoc_place(const struct wspx__ynode *n, size_t off, unsigned *line,
    unsigned *col)
{
	const char *nl = memchr(n->str, '\n', off < n->len ? off : n->len);
	size_t k, lines = 0, last = 0;

	*line = n->line;
	*col = n->col;
	if (n->style == '|' && n->indent > 0) {
		for (k = 0; k < off && k < n->len; k++)
			if (n->str[k] == '\n') {
				lines++;
				last = k + 1;
			}
		*line = n->line + 1 + (unsigned)lines;
		*col = n->indent + (unsigned)(off - last);
	} else if (n->style != '|' && n->style != '>' && nl == NULL)
		*col = n->col + (n->style != 0) + (unsigned)off;
}

static int
scalar(struct loader *l, const yaml_event_t *ev)
{
	struct wspx__ynode *n;
	int rc;

	if ((rc = expand(l, 1, &ev->start_mark)) != 0)
		return rc;
	n = newnode(l, WSPX__YSCALAR, &ev->start_mark, ev->data.scalar.tag);
	if (n == NULL || (n->str = wspx__arena_strdup(l->arena,
	    ev->data.scalar.value, ev->data.scalar.length)) == NULL)
		return -ENOMEM;
	n->len = ev->data.scalar.length;
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	setstyle(l, n, ev);

	if (ev->data.scalar.anchor != NULL &&
	    defanchor(l, (char *)ev->data.scalar.anchor, n, 1) != 0)
		return -ENOMEM;
	return attach(l, n);
}

/* An alias: a copy of the anchor's node, sharing its items and text, but
 * placed where the alias is.  An unknown one is an error, and a null in
 * its place keeps a mapping's pairs in step. */
static int
alias(struct loader *l, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	size_t len = strlen(name);
	struct wspx__strtab_entry *e = wspx__strtab_get(&l->anchors, name,
	    len);
	struct wspx__ynode *n;
	int rc;

	if (e == NULL || e->val == NULL) {
		wspx__diag_add(l->d, ev->start_mark.line + 1,
		    ev->start_mark.column + 1, "unknown alias '*%s'", name);
		l->invalid = true;
		e = NULL;
	}
	l->aliased = l->aliased || e != NULL;
	if ((rc = expand(l, e != NULL ? e->aux : 1, &ev->start_mark)) != 0)
		return rc;
	if ((n = newnode(l, WSPX__YSCALAR, &ev->start_mark, NULL)) == NULL)
		return -ENOMEM;
	if (e != NULL) {
		*n = *(struct wspx__ynode *)e->val;
		n->line = (unsigned)ev->start_mark.line + 1;
		n->col = (unsigned)ev->start_mark.column + 1;
		n->alias = true;
	} else {
		n->str = "";
		n->plain = true;
	}
	return attach(l, n);
}

static int
opennode(struct loader *l, const yaml_event_t *ev)
{
	bool map = ev->type == YAML_MAPPING_START_EVENT;
	const yaml_char_t *tag = map ? ev->data.mapping_start.tag :
	    ev->data.sequence_start.tag;
	const char *anchor = (const char *)(map ?
	    ev->data.mapping_start.anchor : ev->data.sequence_start.anchor);
	struct frame *f, *frames;

	/* (stopping here also stops libyaml before its scans, which grow
	 * with the depth, take long) */
	if (l->nframes >= WSPX__YAML_MAX_DEPTH) {
		wspx__diag_add(l->d, ev->start_mark.line + 1,
		    ev->start_mark.column + 1, "nested deeper than %u levels",
		    WSPX__YAML_MAX_DEPTH);
		return -EINVAL;
	}
	if ((frames = reserve(l->frames, &l->capframes, l->nframes,
	    sizeof(*frames))) == NULL)
		return -ENOMEM;
	l->frames = frames;
	f = &l->frames[l->nframes];
	f->base = l->nvals;
	f->xstart = l->count;
	memset(&f->keys, 0, sizeof(f->keys));
	f->anchor = NULL;
	f->node = newnode(l, map ? WSPX__YMAP : WSPX__YSEQ, &ev->start_mark,
	    tag);
	if (f->node == NULL || (anchor != NULL && (f->anchor =
	    wspx__arena_strdup(l->arena, anchor, strlen(anchor))) == NULL))
		return -ENOMEM;
	l->nframes++;
	return expand(l, 1, &ev->start_mark);
}

/* The open node has ended: its children move into the arena. */
static int
closenode(struct loader *l)
{
	struct frame *f = &l->frames[--l->nframes];
	struct wspx__ynode *node = f->node;
	size_t n = l->nvals - f->base;

	wspx__strtab_fini(&f->keys);
	if (n != 0) {
		node->items = wspx__arena_alloc(l->arena, n *
		    sizeof(*node->items), alignof(struct wspx__ynode *));
		if (node->items == NULL)
			return -ENOMEM;
		memcpy(node->items, l->vals + f->base, n * sizeof(*l->vals));
	}
	node->n = node->kind == WSPX__YMAP ? n / 2 : n;
	l->nvals = f->base;
	if (f->anchor != NULL &&
	    defanchor(l, f->anchor, node, l->count - f->xstart) != 0)
		return -ENOMEM;
	return attach(l, node);
}

/* A reader error (bad UTF-8, a control character) comes with a byte
 * offset only: its line and column are counted here, in characters, as
 * libyaml counts them. */
static int
readererr(struct loader *l)
{
	const yaml_parser_t *p = &l->parser;
	size_t i, end = p->problem_offset < l->len ? p->problem_offset :
	    l->len;
	unsigned line = 1, col = 1;

	for (i = 0; i < end; i++) {
		if (l->buf[i] == '\n') {
			line++;
			col = 1;
		} else if ((l->buf[i] & 0xc0) != 0x80)
			col++;
	}
	if (p->problem_value == -1)
		wspx__diag_add(l->d, line, col, "%s", p->problem);
	else if (strstr(p->problem, "octet") != NULL)
		wspx__diag_add(l->d, line, col, "%s (byte 0x%02x)",
		    p->problem, (unsigned)p->problem_value);
	else
		wspx__diag_add(l->d, line, col, "%s (U+%04X)", p->problem,
		    (unsigned)p->problem_value);
	return -EINVAL;
}

/* libyaml's error, where it is, in words that read as one message. */
static int
syntaxerr(struct loader *l)
{
	const yaml_parser_t *p = &l->parser;
	const yaml_mark_t *pm = &p->problem_mark, *cm = &p->context_mark;
	const char *problem = p->problem != NULL ? p->problem :
	    "syntax error";
	unsigned line, col;
	size_t at;

	if (p->error == YAML_MEMORY_ERROR)
		return -ENOMEM;
	if (p->error == YAML_READER_ERROR)
		return readererr(l);
	/* (libyaml says a tab "cannot start any token") */
	markplace(l, pm, &line, &col);
	if ((at = indexbyte(l, pm->index)) < l->len && l->buf[at] == '\t') {
		wspx__diag_add(l->d, line, col, "a tab: YAML indents with "
		    "spaces only");
		return -EINVAL;
	}
	if (p->context != NULL &&
	    (cm->line != pm->line || cm->column != pm->column))
		wspx__diag_add(l->d, line, col, "%s (%s that started at "
		    "%u:%u)", problem, p->context, (unsigned)cm->line + 1,
		    (unsigned)cm->column + 1);
	else
		wspx__diag_add(l->d, line, col, "%s", problem);
	return -EINVAL;
}

static int
onevent(struct loader *l, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (l->ndocs++ == 0)
			return 0;
		wspx__diag_add(l->d, ev->start_mark.line + 1,
		    ev->start_mark.column + 1,
		    "a second document (the file must hold only one)");
		return -EINVAL;
	case YAML_DOCUMENT_END_EVENT:
		l->complete = true;
		return 0;
	case YAML_SCALAR_EVENT:
		return scalar(l, ev);
	case YAML_ALIAS_EVENT:
		return alias(l, ev);
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		return opennode(l, ev);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return closenode(l);
	default:
		return 0;
	}
}

static int
parse(struct loader *l)
{
	yaml_event_t ev;
	bool end;
	int rc;

	do {
		if (!yaml_parser_parse(&l->parser, &ev))
			return syntaxerr(l);
		rc = onevent(l, &ev);
		end = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	} while (rc == 0 && !end);
	return rc;
}

/* The whole of f, in memory: libyaml reads a string fastest, and a reader
 * error's offset can then be turned into a line and column.  Returns 0,
 * -ENOMEM, or -EIO with errno's text added to d. */
static int
readall(FILE *f, unsigned char **out, size_t *len, struct wspx__diag *d)
{
	unsigned char *buf = NULL, *nbuf;
	size_t cap = 0, n = 0, got;
	char msg[256];
	int err;

	do {
		if (n == cap) {
			cap = cap != 0 ? cap * 2 : (size_t)64 << 10;
			if ((nbuf = realloc(buf, cap)) == NULL) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
		}
		errno = 0;
		got = fread(buf + n, 1, cap - n, f);
		err = errno;
		n += got;
	} while (got != 0);
	if (ferror(f)) {
		free(buf);
		if (strerror_r(err != 0 ? err : EIO, msg, sizeof(msg)) != 0)
			snprintf(msg, sizeof(msg), "read error %d", err);
		wspx__diag_add(d, 0, 0, "%s", msg);
		return -EIO;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* Free what the reading used, but not the tree. */
static void
cleanup(struct loader *l)
{
	size_t i;

	for (i = 0; i < l->nframes; i++)
		wspx__strtab_fini(&l->frames[i].keys);
	free(l->frames);
	free(l->vals);
	wspx__strtab_fini(&l->anchors);
}

int
wspx__yamldoc_read(struct wspx__yamldoc *doc, FILE *f, struct wspx__diag *d)
{
	unsigned char *buf = NULL;
	struct loader l;
	int rc;

	memset(&l, 0, sizeof(l));
	memset(doc, 0, sizeof(*doc));
	l.d = d;
	l.arena = &doc->arena;
	if ((rc = readall(f, &buf, &l.len, d)) != 0)
		return rc;
	doc->size = l.len;
	if (!yaml_parser_initialize(&l.parser)) {
		free(buf);
		return -ENOMEM;
	}
	l.buf = buf;
	countlines(&l);
	yaml_parser_set_input_string(&l.parser, buf, l.len);
	if ((rc = parse(&l)) == 0 && l.invalid)
		rc = -EINVAL;
	yaml_parser_delete(&l.parser);
	cleanup(&l);
	free(buf);
	/* A tree with errors in it is still the caller's to look at. */
	if (rc == 0 || (rc == -EINVAL && l.complete))
		doc->root = l.root;
	return rc;
}

void
wspx__yamldoc_fini(struct wspx__yamldoc *doc)
{
	wspx__arena_fini(&doc->arena);
	doc->root = NULL;
}

bool
wspx__yamldoc_isnull(const struct wspx__ynode *n)
{
	static const char *const nulls[] = { "", "~", "null", "Null",
	    "NULL" };
	size_t i;

	if (n->kind != WSPX__YSCALAR)
		return false;
	if (n->tag != NULL)
		return strcmp(n->tag, "!!null") == 0;
	for (i = 0; n->plain && i < sizeof(nulls) / sizeof(nulls[0]); i++)
		if (strcmp(n->str, nulls[i]) == 0)
			return true;
	return false;
}

const struct wspx__ynode *
wspx__yamldoc_get(const struct wspx__ynode *m, const char *key)
{
	size_t len = strlen(key), i;
	const struct wspx__ynode *k;

	if (m == NULL || m->kind != WSPX__YMAP)
		return NULL;
	for (i = 0; i < m->n; i++) {
		k = m->items[2 * i];
		if (k->kind == WSPX__YSCALAR && k->len == len &&
		    memcmp(k->str, key, len) == 0)
			return m->items[2 * i + 1];
	}
	return NULL;
}
