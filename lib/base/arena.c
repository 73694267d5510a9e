/*
 * The arena (see arena.h): a list of chunks, newest first, of which only
 * the head is filled.  When a request does not fit in the head, a new
 * head is made, twice the size of the last up to MAXCHUNK, and what the
 * old head had left is lost: at most the size of one request.  A request
 * larger than a chunk of the current size gets a chunk of exactly its
 * size, put behind the head, so the head goes on being filled and the
 * sizes go on growing as before.
 */
#include "arena.h"

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FIRSTCHUNK	((size_t)8 << 10)
#define MAXCHUNK	((size_t)1 << 20)

struct wspx__arena_chunk {
	struct wspx__arena_chunk *next;	/* the one made before */
	size_t used, cap;		/* bytes of mem */
	max_align_t mem[];		/* aligned as malloc's memory is */
};

/* size bytes aligned to align from c, or NULL if they do not fit. */
static void *
take(struct wspx__arena_chunk *c, size_t size, size_t align)
{
	unsigned char *p = (unsigned char *)c->mem + c->used;
	size_t pad = (size_t)(-(uintptr_t)p & (align - 1));

	if (pad > c->cap - c->used || size > c->cap - c->used - pad)
		return NULL;
	c->used += pad + size;
	return p + pad;
}

void *
wspx__arena_alloc(struct wspx__arena *a, size_t size, size_t align)
{
	struct wspx__arena_chunk *c;
	size_t cap;
	bool own;
	void *p;

	assert(align != 0 && (align & (align - 1)) == 0);
	if (a->head != NULL && (p = take(a->head, size, align)) != NULL)
		return p;
	if (a->chunksize == 0)
		a->chunksize = FIRSTCHUNK;
	/* size + align is room enough whatever the padding. */
	if (size > SIZE_MAX - sizeof(*c) - align)
		return NULL;
	own = size + align > a->chunksize;
	cap = own ? size + align : a->chunksize;
	if ((c = malloc(sizeof(*c) + cap)) == NULL)
		return NULL;
	c->used = 0;
	c->cap = cap;
	if (own && a->head != NULL) {
		c->next = a->head->next;
		a->head->next = c;
	} else {
		c->next = a->head;
		a->head = c;
		if (!own && a->chunksize < MAXCHUNK)
			a->chunksize *= 2;
	}
	return take(c, size, align);
}

char *
wspx__arena_strdup(struct wspx__arena *a, const void *s, size_t len)
{
	char *p;

	if (len == SIZE_MAX || (p = wspx__arena_alloc(a, len + 1, 1)) == NULL)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void
wspx__arena_fini(struct wspx__arena *a)
{
	struct wspx__arena_chunk *c, *next;

	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
	a->chunksize = 0;
}
