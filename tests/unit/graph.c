/*
 * Unit tests of lib/runtime/graph.c, the graph run on the work-stealing pool,
 * and of the job file's reading (lib/jobfile/jobfile.c, matrix.c, jobcheck.c)
 * on small files: each job starts once, after all its needs, whether its end
 * comes from a worker or from another thread; a chain 100,000 deep needs no
 * deep stack; the topological order keeps the file's order where it is free;
 * matrices, needs and cycles read as wspx(5) says; a job's end in two
 * steps lets its dependents start at the first and ends the graph at the
 * second.
 *
 *     graph [WORKERS [JOBS]]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jobfile/jobfile.h"
#include "runtime/graph.h"
#include "test.h"
#include "wspx.h"

static unsigned nworkers;
static long njobs;

/* A random DAG: job i needs up to 3 jobs before it. */
struct dag {
	size_t n;
	size_t (*needs)[3];
	size_t *nneeds;
	_Atomic(long) *runs;		/* times each job started */
	_Atomic(long) *over;		/* 1 once each job is over */
	_Atomic(long) early;		/* jobs started before a need was over */
	struct wspx__graph *g;
	bool fromthread;		/* end some jobs on an outside thread */
	pthread_mutex_t lock;		/* the outside thread's queue */
	pthread_cond_t cond;
	size_t *queue, qn;
	bool stop;
};

static size_t
dagneeds(void *ctx, size_t i, const size_t **v)
{
	struct dag *d = ctx;

	*v = d->needs[i];
	return d->nneeds[i];
}

static void
dagready(void *ctx, struct wspx_worker *w, size_t i)
{
	struct dag *d = ctx;
	size_t k;

	atomic_fetch_add(&d->runs[i], 1);
	for (k = 0; k < d->nneeds[i]; k++)
		if (atomic_load(&d->over[d->needs[i][k]]) == 0)
			atomic_fetch_add(&d->early, 1);
	atomic_store(&d->over[i], 1);
	if (d->fromthread && i % 3 == 0) {
		pthread_mutex_lock(&d->lock);
		d->queue[d->qn++] = i;
		pthread_cond_signal(&d->cond);
		pthread_mutex_unlock(&d->lock);
		return;
	}
	wspx__graph_done(d->g, w, i);
}

/* The outside thread: ends the jobs queued to it, as the executor's
 * blocking threads end commands. */
static void *
ender(void *arg)
{
	struct dag *d = arg;
	size_t i;

	pthread_mutex_lock(&d->lock);
	while (!d->stop || d->qn > 0) {
		if (d->qn == 0) {
			pthread_cond_wait(&d->cond, &d->lock);
			continue;
		}
		i = d->queue[--d->qn];
		pthread_mutex_unlock(&d->lock);
		wspx__graph_done(d->g, NULL, i);
		pthread_mutex_lock(&d->lock);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

static void
dagmake(struct dag *d, size_t n, bool chain)
{
	size_t i, k;

	memset(d, 0, sizeof(*d));
	d->n = n;
	d->needs = calloc(n, sizeof(*d->needs));
	d->nneeds = calloc(n, sizeof(*d->nneeds));
	d->runs = calloc(n, sizeof(*d->runs));
	d->over = calloc(n, sizeof(*d->over));
	d->queue = calloc(n, sizeof(*d->queue));
	srand(7);
	for (i = 1; i < n; i++) {
		if (chain) {
			d->needs[i][0] = i - 1;
			d->nneeds[i] = 1;
			continue;
		}
		for (k = 0; k < 3 && (size_t)rand() % 4 != 0; k++)
			d->needs[i][d->nneeds[i]++] = (size_t)rand() % i;
	}
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->cond, NULL);
}

static void
dagfree(struct dag *d)
{
	free(d->needs);
	free(d->nneeds);
	free(d->runs);
	free(d->over);
	free(d->queue);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->cond);
}

static const struct wspx__graph_ops dagops = { dagneeds, dagready };

/* Run d on a pool; check each job started once, after its needs. */
static void
dagrun(struct dag *d)
{
	struct wspx_pool_opts po = { nworkers };
	struct wspx_pool *p;
	pthread_t t;
	long bad = 0;
	size_t i;

	CHECK(wspx_pool_new(&p, &po) == 0);
	CHECK(wspx__graph_new(&d->g, d->n, NULL, p, &dagops, d) == 0);
	pthread_create(&t, NULL, ender, d);
	wspx__graph_start(d->g);
	wspx__graph_wait(d->g);
	pthread_mutex_lock(&d->lock);
	d->stop = true;
	pthread_cond_signal(&d->cond);
	pthread_mutex_unlock(&d->lock);
	pthread_join(t, NULL);
	for (i = 0; i < d->n; i++)
		bad += atomic_load(&d->runs[i]) != 1;
	CHECK(bad == 0);
	CHECK(atomic_load(&d->early) == 0);
	wspx__graph_free(d->g);
	wspx_pool_free(p);
}

static void
test_random(void)
{
	struct dag d;

	dagmake(&d, (size_t)njobs, false);
	d.fromthread = true;
	dagrun(&d);
	dagfree(&d);
}

static void
test_chain(void)
{
	struct dag d;

	dagmake(&d, 100000, true);
	dagrun(&d);
	dagfree(&d);
}

static void
test_selected(void)
{
	struct wspx_pool *p;
	struct dag d;
	bool *sel;
	size_t i;

	/* a chain of 10 of which 0..4 are selected: 5..9 never start */
	dagmake(&d, 10, true);
	sel = calloc(10, sizeof(bool));
	for (i = 0; i < 5; i++)
		sel[i] = true;
	CHECK(wspx_pool_new(&p, NULL) == 0);
	CHECK(wspx__graph_new(&d.g, 10, sel, p, &dagops, &d) == 0);
	wspx__graph_start(d.g);
	wspx__graph_wait(d.g);
	for (i = 0; i < 10; i++)
		CHECK(atomic_load(&d.runs[i]) == (i < 5));
	wspx__graph_free(d.g);
	wspx_pool_free(p);
	free(sel);
	dagfree(&d);
}

/* A chain 0 -> 1 whose job 0 ends in two steps (wspx__graph_needed(),
 * then wspx__graph_over()), with job 1 started and over in between. */
struct split {
	struct wspx__graph *g;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool oneran;			/* lock */
	_Atomic(bool) zeroover;		/* set just before job 0's over */
	_Atomic(bool) oneearly;		/* job 1 started before 0's needed */
	_Atomic(bool) zeroneeded;
};

static size_t
splitneeds(void *ctx, size_t i, const size_t **v)
{
	static const size_t zero = 0;

	(void)ctx;
	*v = &zero;
	return i == 1;
}

static void
splitready(void *ctx, struct wspx_worker *w, size_t i)
{
	struct split *s = ctx;
	struct timespec until;
	int rc = 0;

	if (i == 1) {
		atomic_store(&s->oneearly, !atomic_load(&s->zeroneeded));
		pthread_mutex_lock(&s->lock);
		s->oneran = true;
		pthread_cond_signal(&s->cond);
		pthread_mutex_unlock(&s->lock);
		wspx__graph_done(s->g, w, 1);
		return;
	}
	atomic_store(&s->zeroneeded, true);
	wspx__graph_needed(s->g, w, 0);
	/* Job 1 runs now, on the other worker, though 0 is not over.  (The
	 * limit only keeps a broken build from hanging.) */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 60;
	pthread_mutex_lock(&s->lock);
	while (!s->oneran && rc == 0)
		rc = pthread_cond_timedwait(&s->cond, &s->lock, &until);
	CHECK(s->oneran);
	pthread_mutex_unlock(&s->lock);
	atomic_store(&s->zeroover, true);
	wspx__graph_over(s->g, 0);
}

static const struct wspx__graph_ops splitops = { splitneeds, splitready };

static void
test_split(void)
{
	struct wspx_pool_opts po = { 2 };
	struct wspx_pool *p;
	struct split s;

	memset(&s, 0, sizeof(s));
	pthread_mutex_init(&s.lock, NULL);
	pthread_cond_init(&s.cond, NULL);
	CHECK(wspx_pool_new(&p, &po) == 0);
	CHECK(wspx__graph_new(&s.g, 2, NULL, p, &splitops, &s) == 0);
	wspx__graph_start(s.g);
	wspx__graph_wait(s.g);
	/* (the graph ended after job 0's over, not at job 1's end) */
	CHECK(atomic_load(&s.zeroover));
	CHECK(!atomic_load(&s.oneearly));
	wspx__graph_free(s.g);
	wspx_pool_free(p);
	pthread_mutex_destroy(&s.lock);
	pthread_cond_destroy(&s.cond);
}

static void
test_order(void)
{
	struct dag d;
	size_t order[6], i;

	/* 0 <- 3, 1, 2 <- 0, 4 <- 5, 5: the free jobs go in file order */
	dagmake(&d, 6, true);
	memset(d.nneeds, 0, 6 * sizeof(*d.nneeds));
	d.needs[0][0] = 3;
	d.nneeds[0] = 1;
	d.needs[2][0] = 0;
	d.nneeds[2] = 1;
	d.needs[4][0] = 5;
	d.nneeds[4] = 1;
	CHECK(wspx__graph_order(6, &dagops, &d, order) == 0);
	{
		static const size_t want[6] = { 1, 3, 0, 2, 5, 4 };

		for (i = 0; i < 6; i++)
			CHECK(order[i] == want[i]);
	}
	dagfree(&d);
}

/* Read text as a job file; returns the number of errors. */
static size_t
readtext(const char *text, struct wspx__jobfile *jf, struct wspx__diag *d)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	wspx__diag_init(d, "t.yaml");
	(void)wspx__jobfile_read(jf, f, d);
	fclose(f);
	return d->n;
}

static void
test_jobfile(void)
{
	struct wspx__jobfile jf;
	struct wspx__diag d;

	CHECK(readtext("jobs:\n  t:\n    matrix: {a: [x, y], b: [\"1\", \"2\"],"
	    " exclude: [{a: y, b: \"1\"}]}\n    run: echo\n  u: {run: echo, "
	    "needs: [\"t[b=2]\"], if: \"failure() || cancelled()\"}\n", &jf,
	    &d) == 0);
	CHECK(jf.njobs == 4);
	CHECK(strcmp(jf.jobs[0].name, "t[a=x,b=1]") == 0);
	CHECK(strcmp(jf.jobs[2].name, "t[a=y,b=2]") == 0);
	CHECK(jf.jobs[3].nneeds == 2);
	CHECK(jf.jobs[3].needs[0] == 1 && jf.jobs[3].needs[1] == 2);
	CHECK(WSPX__IF_RUNS(jf.jobs[3].ifmask, 1, 0, 1));
	CHECK(WSPX__IF_RUNS(jf.jobs[3].ifmask, 0, 1, 1));
	CHECK(!WSPX__IF_RUNS(jf.jobs[3].ifmask, 0, 0, 0));
	CHECK(jf.jobs[3].ifalways);
	wspx__jobfile_fini(&jf);
	wspx__diag_fini(&d);
	CHECK(readtext("jobs:\n  a: {run: x, needs: [c]}\n  b: {run: x, "
	    "needs: [a]}\n  c: {run: x, needs: [b]}\n", &jf, &d) == 1);
	CHECK(d.n == 1 && d.v[0].line == 2 && d.v[0].col == 3 &&
	    strcmp(d.v[0].msg, "a cycle of needs: a -> c -> b -> a") == 0);
	wspx__jobfile_fini(&jf);
	wspx__diag_fini(&d);
}

int
main(int argc, char **argv)
{
	nworkers = (unsigned)test_arg(argc, argv, 1, 4);
	njobs = test_arg(argc, argv, 2, 20000);

	TEST(test_random(), "graph: %ld jobs of a random graph, each started "
	    "once after its needs, ends from workers and a thread", njobs);
	TEST(test_chain(), "graph: a chain 100,000 deep");
	TEST(test_selected(), "graph: only the selected jobs start");
	TEST(test_split(), "graph: a job's dependents start at its needed, "
	    "the graph ends at its over");
	TEST(test_order(), "graph: the order is topological, the file's "
	    "where free");
	TEST(test_jobfile(), "jobfile: a matrix with exclude, needs of "
	    "legs, an if, a cycle's path");
	return test_done();
}
