/*
 * Unit tests for the injection stack: LIFO order and batches on one thread,
 * and conservation with concurrent pushers (single nodes and pre-linked
 * batches) and concurrent take-all consumers: every node is taken exactly
 * once.
 *
 * usage: stack [threads [nodes]]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/stack.h"
#include "test.h"

static void
test_order(void)
{
	struct wspx__stack s;
	struct wspx_stack_link n[4], *l;
	bool empty;

	wspx__stack_init(&s);
	CHECK(!wspx__stack_has_jobs(&s));
	CHECK(wspx__stack_take_all(&s) == NULL);
	wspx__stack_push(&s, &n[0], &n[0], &empty);
	CHECK(empty);
	/* A batch n[1] -> n[2] lands on top as one unit. */
	n[1].next = &n[2];
	wspx__stack_push(&s, &n[1], &n[2], &empty);
	CHECK(!empty);
	wspx__stack_push(&s, &n[3], &n[3], &empty);
	CHECK(wspx__stack_has_jobs(&s));
	l = wspx__stack_take_all(&s);
	CHECK(l == &n[3] && l->next == &n[1] && n[1].next == &n[2] &&
	    n[2].next == &n[0] && n[0].next == NULL);
	CHECK(!wspx__stack_has_jobs(&s));
	CHECK(wspx__stack_take_all(&s) == NULL);
}

struct node {
	struct wspx_stack_link link;
	long id;
};

struct race {
	struct wspx__stack s;
	struct node *nodes;
	_Atomic(unsigned char) *taken;
	long nnodes, per_pusher;
	_Atomic(long) remaining;
};

struct pusher {
	struct race *r;
	long first;
	unsigned seed;
};

/* Push nodes first..first+per_pusher-1, alone or in batches of up to 16. */
static void *
pusher(void *arg)
{
	struct pusher *p = arg;
	struct race *r = p->r;
	long i = p->first, end = p->first + r->per_pusher, k, n;
	bool empty;

	while (i < end) {
		n = 1 + rand_r(&p->seed) % 16;
		if (n > end - i)
			n = end - i;
		for (k = 0; k + 1 < n; k++)
			r->nodes[i + k].link.next = &r->nodes[i + k + 1].link;
		wspx__stack_push(&r->s, &r->nodes[i].link,
		    &r->nodes[i + n - 1].link, &empty);
		i += n;
	}
	return NULL;
}

static void *
consumer(void *arg)
{
	struct race *r = arg;
	struct wspx_stack_link *l;
	struct node *n;

	while (atomic_load_explicit(&r->remaining, memory_order_relaxed) > 0) {
		for (l = wspx__stack_take_all(&r->s); l != NULL; l = l->next) {
			n = wspx_container_of(l, struct node, link);
			atomic_fetch_add_explicit(&r->taken[n->id], 1,
			    memory_order_relaxed);
			atomic_fetch_sub_explicit(&r->remaining, 1,
			    memory_order_relaxed);
		}
	}
	return NULL;
}

static void
test_conservation(int threads, long nnodes)
{
	struct race r;
	int npush = threads / 2 > 0 ? threads / 2 : 1;
	int ncons = threads - npush > 0 ? threads - npush : 1;
	pthread_t *t = calloc((size_t)(npush + ncons), sizeof(*t));
	struct pusher *p = calloc((size_t)npush, sizeof(*p));
	long i, bad = 0;

	r.per_pusher = nnodes / npush;
	r.nnodes = r.per_pusher * npush;
	r.nodes = calloc((size_t)r.nnodes, sizeof(*r.nodes));
	r.taken = calloc((size_t)r.nnodes, sizeof(*r.taken));
	for (i = 0; i < r.nnodes; i++)
		r.nodes[i].id = i;
	wspx__stack_init(&r.s);
	atomic_init(&r.remaining, r.nnodes);
	for (i = 0; i < ncons; i++)
		pthread_create(&t[npush + i], NULL, consumer, &r);
	for (i = 0; i < npush; i++) {
		p[i].r = &r;
		p[i].first = i * r.per_pusher;
		p[i].seed = (unsigned)i + 1;
		pthread_create(&t[i], NULL, pusher, &p[i]);
	}
	for (i = 0; i < npush + ncons; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < r.nnodes; i++)
		bad += atomic_load(&r.taken[i]) != 1;
	CHECK(bad == 0);
	CHECK(wspx__stack_take_all(&r.s) == NULL);
	free(r.nodes);
	free(r.taken);
	free(p);
	free(t);
}

int
main(int argc, char **argv)
{
	int threads = (int)test_arg(argc, argv, 1, 8);
	long nodes = test_arg(argc, argv, 2, 1000000);

	TEST(test_order(), "stack: LIFO, batches stay whole");
	TEST(test_conservation(threads, nodes),
	    "stack: %ld nodes each taken once, %d threads", nodes, threads);
	return test_done();
}
