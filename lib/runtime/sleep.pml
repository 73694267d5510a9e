/*
 * Promela model of the work-stealing pool's sleep/wake protocol: sleep.c
 * (the protocol comment at its top, steps 1-6) and the parts of pool.c that
 * drive it.  Checked by tests/model.sh (make check-model), together with
 * the known-bad variants listed at the end of this comment.  Whoever
 * changes one of the C functions named in the comments below changes the
 * model to match.  It is one file of over 800 lines because spin checks
 * one file: the protocol, what it abstracts and why, and the known-bad
 * variants, which are switches inside the protocol's own steps.
 *
 * Who is modelled.  Two workers (workermain -> wspx__pool_wait_until on the
 * worker's terminate latch, then the drain) and one outside thread that
 * injects a few jobs (wspx__pool_inject_list) and then either leaves the pool
 * running or shuts it down (wspx_pool_shutdown -> stopthreads ->
 * wspx__sleep_latch_set).  The main slot that wspx_pool_call() lends is left
 * out: no thread blocks in it here, so wakeany() could find nobody there.  Its
 * part in the protocol, an idle worker that leaves the idle set and does not
 * come back for a while, is played by a worker that runs a job which blocks
 * (see execute).
 *
 * What is abstracted.
 *   - The injection stack (stack.c) is a job count: a push adds a batch,
 *     take_all takes the whole count.  A deque (deque.c) is a job count too:
 *     the owner pops, the other worker steals, each one atomic step.  Both
 *     structures are checked on their own by the unit tests.
 *   - Running a job is one step that counts it done (the ghost `pending`),
 *     except that one job at a time may block outside the pool until every
 *     job has been injected and taken off the injection stack.  Jobs do not
 *     fork or inject more jobs.
 *   - The 32 yield rounds (WSPX__ROUNDS_UNTIL_SLEEPY) become ROUNDS_SLEEPY.
 *   - The JEC counts modulo JECMOD.  The code keeps it in the upper 32 bits
 *     of the counters word, so it wraps after 2^32 steps; a small even
 *     modulus keeps the parity rule and lets the checker try wrap-around,
 *     where a worker finds the JEC back at the value it kept although jobs
 *     were posted in between.
 *   - Memory order.  Promela interleaves whole statements, and the order in
 *     which they run stands for the single total order S of the code's
 *     seq_cst operations and fences.  Every access to the counters word is
 *     seq_cst in the code, so it is exact there.  The weak spot of the
 *     protocol is the head of the injection stack: pushes are release CASes
 *     and the looks at it are relaxed loads (the cheap look at the start of
 *     wspx__stack_take_all; wspx__stack_has_jobs at step 5 and in
 *     wspx__sleep_work_found), which C11 lets return an old head.  The
 *     injector's push then read of the counters, and the sleeper's
 *     registration then look at the stack, are the store-buffering pattern:
 *     without fences 1 and 2 both loads may read old values.  The model
 *     tells only an empty head from a non-empty one, and gives a worker's
 *     look these results:
 *       . A look may read any head not older, in the head's modification
 *         order, than the last one the worker read (coherence).  So
 *         stale[i] says that worker i has not read the head since the stack
 *         was last empty: a push on an empty stack makes both workers
 *         stale, and i stops being stale when a look of its own reads a
 *         non-empty head.  A look by a stale worker may read the old NULL
 *         instead of the queued jobs, again and again: coherence allows
 *         reading the same old value twice, and a miss that could happen
 *         only once would hide a mistake that needs two unfenced looks
 *         (mutant LOOK_BEFORE_REGISTER).
 *       . A look that the worker orders by a seq_cst fence after its own
 *         seq_cst read-modify-write of the counters (fence 2 after the
 *         registration, fence 3 after the decrement of inactive) sees
 *         every push whose fence 1 precedes that fence in S (C11 7.17.3,
 *         the rule for two seq_cst fences; C++ [atomics.order]).  So it
 *         may miss a job only while the stack holds one batch, pushed on
 *         an empty stack, whose injector has not yet executed fence 1
 *         (the flag unfenced): had an older batch been there, the one
 *         injector would have executed its fence 1 before pushing again.
 *         Fence 1 is its own statement between the push and the counters
 *         read; each of fences 2 and 3 is one statement with the look
 *         that follows it, as the worker touches nothing shared in
 *         between.  In the other direction, the injector's counters read
 *         comes after fence 1 in S and is seq_cst, so it sees every
 *         registration or decrement before it: plain interleaving.
 *       . The exchange of take_all is a read-modify-write and reads the
 *         newest head.  A cheap look that sees a job and the exchange are
 *         one step.
 *       . Synchronization makes a worker see what happened before it.
 *         The model keeps three paths from the injector's pushes: its JEC
 *         toggle, a release that any later read of the counters acquires
 *         (published); its wake-up of a slot, through the mutex; and the
 *         terminate latch, set after the last push, so that the drain sees
 *         every queued job.  It leaves out the paths through a worker (a
 *         take, then a toggle or a wake-up), which only allows more misses:
 *         more for the protocol to cope with, not less.
 *     Where the model allows less than C11: a look that sees a job reads
 *     the newest head, not an older non-empty one that has been taken
 *     since (a stale sighting costs a search round or a spurious wake-up,
 *     no job); and the deques' lengths, the latches and `blocked` are
 *     sequentially consistent (a deque look that misses a job costs a
 *     round at most, as a deque job has an awake owner: sleep.c, case c).
 *   - A load-and-CAS retry loop on the counters word (togglejec,
 *     registersleeping) is one atomic statement: the loop's effect is that
 *     of its last read-modify-write (or of its last load, if it gives up).
 *   - Mutexes: a critical section that touches at most one variable not
 *     protected by the mutex is one atomic statement, lock and unlock
 *     included (taking a lock later and releasing it earlier hides nothing
 *     from other threads).  That is wspx__sleep_wake_specific; the sleeper,
 *     which holds its mutex across several shared accesses (steps 2-5),
 *     holds mtx[me] for real.
 *   - pthread_cond_wait returns only once `blocked` is false.  A spurious
 *     return goes straight back to waiting in the code (while (z->blocked))
 *     and changes nothing, so it is left out.
 *   - Local variables are reset once dead, so that they do not multiply
 *     the states.
 *
 * What is checked (see the ltl formulas at the end and tests/model.sh).
 *   - Safety: assertions on the counters; that a sleepy worker gives up on
 *     sleeping at step 3 only because a job was posted since it announced
 *     itself; and, once nothing can move any more (timeout), that every job
 *     was run and each worker has exited or is blocked on its condvar.  A
 *     job left on the injection stack while its only awake worker runs a
 *     blocked job and the other sleeps fails here.
 *   - Liveness, under weak fairness: a queued injected job is taken; every
 *     job is run; shutdown ends; once all jobs are done, both workers block.
 *   - That the model can see the mistakes the protocol guards against: each
 *     variant below must make some search report an error.
 *
 * Known-bad variants.  tests/model.sh reads the names from the lines below
 * that start with "mutant", builds the model with each one defined (spin
 * -DNAME) and fails if every search of a variant passes.
 *   mutant NO_LAST_LOOK: step 5 removed; a registered worker blocks without
 *     looking at the injection stack.
 *   mutant LOOK_BEFORE_REGISTER: the look at the stack moved before the
 *     registration (step 4), where no fence orders it after the worker's
 *     writes of the counters.
 *   mutant NO_FENCE1: the injector reads the counters without fence 1.
 *   mutant NO_FENCE2: the sleeper looks at the stack without fence 2.
 *   mutant NO_FENCE3: wspx__sleep_work_found looks without fence 3.
 *   mutant WORK_FOUND_NO_LOOK: a worker leaving the idle set with no jobs
 *     left on the deques wakes nobody, without looking at the stack.
 *   mutant NO_CASCADE: a worker leaving the idle set never wakes anyone.
 */

#define NW		2	/* workers; a few expressions below name both */
#define NJOBS		3	/* jobs the injector injects, in batches of 1-2 */
#define JECMOD		4	/* the JEC counts modulo this (code: 2^32) */
#define ROUNDS_SLEEPY	1	/* WSPX__ROUNDS_UNTIL_SLEEPY (code: 32) */
#define INJECTOR	NW	/* the injector's _pid: it starts after the workers */

/* enum wspx__latch_state */
#define UNSET		0
#define SLEEPY		1
#define SLEEPING	2
#define SET		3

/* struct wspx__sleep: the 64-bit counters word as three fields.  Each
 * statement that changes them stands for one atomic read-modify-write of
 * the word in the code. */
byte sleeping;		/* bits 0-15 */
byte inactive;		/* bits 16-31 */
byte jec;		/* bits 32-63, modulo JECMOD */

/* struct wspx__sleeper, one per worker slot: the mutex (holder's _pid + 1,
 * 0 when free), `blocked`, and the condvar (a wait on it is a wait for
 * blocked == false). */
byte mtx[NW];
bool blocked[NW];

/* Each worker's terminate latch (struct wspx_worker.terminate). */
byte latch[NW];

/* The pool's injection stack and the workers' deques, as job counts. */
byte queued;
byte dq[NW];

/* What a relaxed load of the injection stack's head may still return (see
 * "Memory order" in the header comment).  stale[i]: worker i has not read
 * the head since the stack was last empty, so its load may return that
 * old NULL.  unfenced: the stack holds one batch, pushed on an empty stack,
 * and its injector has not yet executed fence 1.  published: the injector
 * toggled the JEC after its last push on an empty stack, so a worker that
 * reads the counters from now on has synchronized with every queued push.
 * All three are false whenever the stack is empty. */
bool stale[NW];
bool unfenced;
bool published;

/* A worker's seq_cst access to the counters word.  Every change of the
 * word is a read-modify-write, so whatever value it reads is in the
 * release sequence of the injector's last JEC toggle: once that toggle
 * follows the pushes, the worker sees them.  Part of an atomic statement. */
#define READS_COUNTERS	if :: published -> stale[me] = false \
			   :: else -> skip fi

/* Ghost state, for the properties only: no C code behind it. */
byte injected;		/* jobs injected so far */
byte pending;		/* jobs injected and not yet run */
byte exited;		/* workers that returned from workermain */
bool stopping;		/* shutdown has begun */
bool posted[NW];	/* a poster toggled the JEC since worker i announced */
bool registered[NW];	/* worker i counted in sleeping, not yet woken */
byte waiter;		/* worker i + 1 runs a job that waits, or 0 */

/* Counter invariants, checked after every change of the counters word:
 * sleeping counts exactly the workers that registered and were not woken
 * (nor took their registration back), a sleeping worker is inactive, and
 * nothing underflows (a byte wraps to 255). */
#define COUNTERS_OK	(sleeping == registered[0] + registered[1] && \
			 sleeping <= inactive && inactive <= NW)

/* ------------------------------------------------------------------ */
/* Looking at the injection stack.                                    */

/* A relaxed load of the head by worker me that no fence orders after its
 * own writes of the counters: the cheap look at the start of
 * wspx__stack_take_all, and a mutant's look.  Sets res to whether it read a
 * non-empty head.  While me is stale it may read the old NULL, again and
 * again; once it reads a non-empty head, coherence keeps it from reading
 * an older one.  Part of an atomic statement. */
inline look_unfenced(res)
{
	if
	:: queued > 0 -> res = true; stale[me] = false
	:: queued > 0 && stale[me] -> res = false
	:: queued == 0 -> res = false
	fi
}

/* wspx__stack_has_jobs after a seq_cst fence (fence 2 or 3) that follows
 * me's own seq_cst read-modify-write of the counters.  The fence rule of
 * C11 makes the load see every push whose fence 1 precedes our fence in S,
 * so it can miss only a lone batch whose injector has not executed fence 1
 * yet.  The fence and the load are one statement: me touches nothing
 * shared between them.  Part of an atomic statement. */
inline look_fenced(res)
{
	if
	:: queued > 0 -> res = true; stale[me] = false
	:: queued > 0 && stale[me] && unfenced -> res = false
	:: queued == 0 -> res = false
	fi
}

/* ------------------------------------------------------------------ */
/* Waking.                                                            */

/* wspx__sleep_wake_specific(s, i): under slot i's mutex, if the slot is
 * blocked, clear `blocked`, signal, and take the sleeper out of `sleeping`
 * (the waker does this, not the sleeper).  Sets woke. */
inline wake_specific(i)
{
	atomic {
		mtx[i] == 0 ->			/* pthread_mutex_lock */
		if
		:: blocked[i] ->
			blocked[i] = false;	/* + pthread_cond_signal */
			if
			:: _pid == INJECTOR ->
				/* Slot i relocks the mutex after our unlock,
				 * which came after our last push. */
				stale[i] = false
			:: else -> skip
			fi;
			registered[i] = false;
			assert(sleeping > 0);
			sleeping--;
			assert(COUNTERS_OK);
			woke = true
		:: else ->
			woke = false
		fi
	}					/* pthread_mutex_unlock */
}

/* wakeany(s, count): wake up to count blocked workers, lowest slot first. */
inline wakeany(count)
{
	wn = count;
	wi = 0;
	do
	:: wi < NW && wn > 0 ->
		wake_specific(wi);
		atomic {
			if
			:: woke -> wn--
			:: else -> skip
			fi;
			woke = false;
			wi++
		}
	:: else ->
		atomic { wi = 0; wn = 0 };
		break
	od
}

/* ------------------------------------------------------------------ */
/* Posting jobs.                                                      */

/* wspx__sleep_new_jobs(s, nj, wempty): togglejec(s, 1) -- make the JEC
 * odd if it is even and read the counters as they are afterwards, one
 * atomic step -- then, if anyone sleeps, wake min(wake, sleeping), where
 * wake is nj less the awake idle workers (inactive - sleeping) if the
 * queue was empty, and nj if it was not. */
inline new_jobs(nj, wempty)
{
	atomic {
		if
		:: jec % 2 == 0 ->
			jec = (jec + 1) % JECMOD;
			posted[0] = true;
			posted[1] = true;
			if
			:: _pid == INJECTOR -> published = (queued > 0)
			:: else -> skip
			fi
		:: else -> skip
		fi;
		cs = sleeping;
		ci = inactive
	};
	if
	:: cs == 0 ->
		atomic { ci = 0 }
	:: else ->
		atomic {
			cidle = (ci > cs -> ci - cs : 0);
			if
			:: wempty -> cwake = (cidle < nj -> nj - cidle : 0)
			:: else -> cwake = nj
			fi;
			cwake = (cwake < cs -> cwake : cs);
			cs = 0;
			ci = 0;
			cidle = 0
		};
		wakeany(cwake);
		atomic { cwake = 0 }
	fi
}

/* wspx__sleep_new_internal_jobs(s, nj, wempty), inline in sleep.h: one
 * load; done if the JEC is odd and nobody sleeps. */
inline new_internal_jobs(nj, wempty)
{
	atomic {
		READS_COUNTERS;
		cs = sleeping;
		codd = (jec % 2 == 1)
	};
	if
	:: codd && cs == 0 ->
		atomic { codd = false }
	:: else ->
		atomic { codd = false; cs = 0 };
		new_jobs(nj, wempty)
	fi
}

/* ------------------------------------------------------------------ */
/* The worker.                                                        */

/* wspx__pool_execute: run the job.  A job may block outside the pool
 * (wspx.h), and one at a time does so here (the ghost `waiter`): until
 * every job has been injected and taken off the injection stack, which
 * only the other worker can then do.  It waits for jobs to be taken, not
 * run: the rest of a taken batch goes onto the taker's own deque, and a
 * job that waits for work on its worker's deque breaks wspx.h's rule.
 * Two jobs waiting for each other would be the jobs' deadlock, not the
 * pool's. */
inline execute()
{
	if
	:: atomic { assert(pending > 0); pending-- }
	:: atomic { waiter == 0 -> waiter = me + 1 };
		atomic {
			injected == NJOBS && queued == 0 ->
			assert(pending > 0);
			pending--;
			waiter = 0
		}
	fi
}

/* takeinjected(w): take the whole injection stack (wspx__stack_take_all:
 * the cheap relaxed look, and if it saw a job the exchange, which reads
 * the newest head); keep one job and push the others on our own deque
 * (wspx__deque_push, was_empty from the first push), then
 * wspx__sleep_new_internal_jobs for them.  Look and exchange are one step:
 * a look that sees a job whose exchange then finds the stack empty ends
 * as a look that saw nothing. */
inline takeinjected()
{
	atomic {
		look_unfenced(found);
		if
		:: found ->
			took = queued;
			queued = 0;
			stale[0] = false;
			stale[1] = false;
			unfenced = false;
			published = false
		:: else -> skip
		fi
	};
	if
	:: took > 1 ->
		atomic {
			wempty = (dq[me] == 0);
			dq[me] = dq[me] + took - 1;
			took = took - 1
		};
		new_internal_jobs(took, wempty);
		atomic { took = 0; wempty = false }
	:: else ->
		atomic { took = 0 }
	fi
}

/* findwork(w): own deque (wspx__deque_pop), a steal from the other worker
 * (steal: with two workers, the victim is 1 - me), then the injection
 * stack (takeinjected). */
inline findwork()
{
	atomic {
		if
		:: dq[me] > 0 -> dq[me]--; found = true
		:: else -> found = false
		fi
	};
	if
	:: !found ->
		atomic {
			if
			:: dq[1 - me] > 0 -> dq[1 - me]--; found = true
			:: else -> skip
			fi
		}
	:: else -> skip
	fi;
	if
	:: !found -> takeinjected()
	:: else -> skip
	fi
}

/* wspx__sleep_work_found(s, more, injected), with more computed by
 * lookforwork just before: jobs are left on a deque (plain loads of both
 * deques' lengths, one step here).  No longer inactive; if some slept (the
 * old value), wake up to two of them when more jobs wait, or when the
 * injection stack holds a job, looked at after fence 3: an injector may
 * have left that job to us as an awake idle worker (sleep.c, case b). */
inline work_found()
{
	atomic { more = (dq[me] > 0 || dq[1 - me] > 0) };
	atomic {
		READS_COUNTERS;
		cs = sleeping;
		assert(inactive > 0);
		inactive--;
		assert(COUNTERS_OK)
	};
#if defined(NO_CASCADE)
	/* Mutant: leaving the idle set never wakes anyone. */
	atomic { cs = 0; more = false }
#else
	/* From here on, more says whether to wake. */
	if
	:: cs > 0 && !more ->
		/* Fence 3 and wspx__stack_has_jobs. */
		atomic {
#if defined(WORK_FOUND_NO_LOOK)
			more = false	/* mutant: no look */
#elif defined(NO_FENCE3)
			look_unfenced(more)
#else
			look_fenced(more)
#endif
		}
	:: else -> skip
	fi;
	if
	:: cs > 0 && more ->
		atomic { cwake = (cs < 2 -> cs : 2); cs = 0; more = false };
		wakeany(cwake);
		atomic { cwake = 0 }
	:: else -> atomic { cs = 0; more = false }
	fi
#endif
}

/* latchstep(latch, from, to): the waiting worker's CAS; sets ok. */
inline latchstep(from, to)
{
	atomic {
		if
		:: latch[me] == from -> latch[me] = to; ok = true
		:: else -> ok = false
		fi
	}
}

/* Steps 3-6 of sleepnow, once the latch is SLEEPING and mtx[me] held. */
inline registerandblock()
{
	/* 3-4. registersleeping: if the JEC is the one we kept, sleeping + 1
	 * (one CAS).  If not, a job was posted since we announced ourselves
	 * sleepy (the assertion: the change is never our own toggle); unlock,
	 * latch back to UNSET and announce again (rounds =
	 * WSPX__ROUNDS_UNTIL_SLEEPY). */
	atomic {
		READS_COUNTERS;
		if
		:: jec == kept ->
			sleeping++;
			registered[me] = true;
			assert(COUNTERS_OK);
			ok = true
		:: else ->
			assert(posted[me]);
			mtx[me] = 0;
			ok = false
		fi
	};
	if
	:: !ok ->
		latchstep(SLEEPING, UNSET);
		atomic { rounds = ROUNDS_SLEEPY; ok = false }
	:: else ->
		/* 5. Fence 2 and the look at the injection stack
		 * (wspx__stack_has_jobs).  If it is empty, 6. block():
		 * blocked = true and pthread_cond_wait, which releases the
		 * mutex, in the same step (only we touch `blocked` while we
		 * hold the mutex, so nobody can tell). */
		atomic {
#if defined(NO_LAST_LOOK) || defined(LOOK_BEFORE_REGISTER)
			seen = false;	/* mutant: no look after registering */
#elif defined(NO_FENCE2)
			look_unfenced(seen);
#else
			look_fenced(seen);
#endif
			if
			:: seen -> skip
			:: else ->
				blocked[me] = true;
				mtx[me] = 0
			fi
		};
		if
		:: seen ->
			/* A job is queued: nobody will wake us, so undo our
			 * registration, and unlock. */
			atomic {
				assert(sleeping > 0);
				sleeping--;
				registered[me] = false;
				assert(COUNTERS_OK);
				mtx[me] = 0;
				seen = false
			}
		:: else ->
			/* The wait returns, relocked, once a waker cleared
			 * `blocked`; block() returns and sleepnow unlocks. */
end_blocked:
			atomic {
				!blocked[me] && mtx[me] == 0 ->
				ok = false
			}
		fi;
		atomic { rounds = 0; kept = 0 };
		latchstep(SLEEPING, UNSET);
		atomic { ok = false }
	fi
}

/* sleepnow(s, idle, latch, injected): steps 1-6 of the sleep.c comment.
 * mtx[me] is the slot's mutex, held from step 2 to step 5 (or 6, where
 * pthread_cond_wait releases it). */
inline sleepnow()
{
	/* 1. CAS latch UNSET -> SLEEPY; if it fails (SET), stop. */
	latchstep(UNSET, SLEEPY);
	if
	:: !ok -> skip
	:: else ->
		/* 2. Lock the slot; CAS latch SLEEPY -> SLEEPING (fails only
		 * if SET: then unlock, rounds = 0). */
		atomic {
			mtx[me] == 0 -> mtx[me] = _pid + 1;
			if
			:: latch[me] == SLEEPY ->
				latch[me] = SLEEPING;
				ok = true
			:: else ->
				mtx[me] = 0;
				rounds = 0;
				kept = 0;
				ok = false
			fi
		};
		if
		:: !ok -> skip
#if defined(LOOK_BEFORE_REGISTER)
		/* Mutant: the look at the injection stack comes before the
		 * registration, with no fence after our last write of the
		 * counters.  If it sees a job: unlock, latch back to UNSET,
		 * rounds = 0. */
		:: else ->
			atomic {
				look_unfenced(seen);
				if
				:: seen -> mtx[me] = 0
				:: else -> skip
				fi
			};
			if
			:: seen ->
				latchstep(SLEEPING, UNSET);
				atomic { rounds = 0; kept = 0; ok = false;
				    seen = false }
			:: else -> registerandblock()
			fi
#else
		:: else -> registerandblock()
#endif
		fi
	fi
}

/* wspx__sleep_no_work_found(s, idle, latch, injected): yield, announce
 * sleepy, or sleepnow, as rounds says. */
inline no_work_found()
{
	if
	:: rounds < ROUNDS_SLEEPY ->
		rounds++			/* sched_yield */
	:: rounds == ROUNDS_SLEEPY ->
		/* Announce sleepy: togglejec(s, 0) makes the JEC even if it is
		 * odd; we keep its value after the toggle. */
		atomic {
			READS_COUNTERS;
			if
			:: jec % 2 == 1 -> jec = (jec + 1) % JECMOD
			:: else -> skip
			fi;
			kept = jec;
			posted[me] = false;
			rounds++			/* sched_yield */
		}
	:: rounds > ROUNDS_SLEEPY ->
		sleepnow()
	fi
}

/* wspx__sleep_latch_probe that finds the latch set.  The acquire load
 * reads the setter's release exchange; the injector set it after its last push, so
 * from now on this worker's loads see every push: it is no longer stale. */
#define PROBE_SET	atomic { latch[me] == SET -> stale[me] = false }

/* lookforwork(w, latch): one idle period.  Sets found if it ran a job,
 * clears it if the latch was set. */
inline lookforwork()
{
	/* wspx__sleep_start_looking */
	atomic {
		READS_COUNTERS;
		inactive++;
		assert(COUNTERS_OK);
		rounds = 0;
		kept = 0
	};
	do
	:: PROBE_SET ->
		found = false;
		break
	:: else ->
		findwork();
		if
		:: found ->
			work_found();
			execute();
			break
		:: else ->
			no_work_found()
		fi
	od;
	atomic { rounds = 0; kept = 0 };
	if
	:: !found -> work_found()
	:: else -> skip
	fi
}

/* workermain: wspx__pool_wait_until(w, &w->terminate), then the drain. */
active [NW] proctype worker()
{
	byte me = _pid;	/* the workers are the first processes: 0 and 1 */
	byte rounds, kept, took;
	bool found, ok, wempty, more, seen;
	byte cs, ci, cidle, cwake, wi, wn;
	bool codd, woke;

	/* wspx__pool_wait_until */
	do
	:: PROBE_SET -> break
	:: else ->
		/* Own jobs first (wspx__deque_pop). */
		atomic {
			if
			:: dq[me] > 0 -> dq[me]--; found = true
			:: else -> found = false
			fi
		};
		if
		:: found -> execute()
		:: else ->
			lookforwork();
			if
			:: !found -> break
			:: else -> skip
			fi
		fi
	od;
	/* Shutting down: findwork until it finds nothing. */
	do
	:: true ->
		findwork();
		if
		:: found -> execute()
		:: else -> break
		fi
	od;
	exited++
}

/* ------------------------------------------------------------------ */
/* The outside thread: injects, then perhaps shuts the pool down.     */

/* wspx__sleep_latch_set(s, &workers[i].terminate, i): exchange SET; if the old
 * state was SLEEPING, wake that slot. */
inline latch_set(i)
{
	atomic { old = latch[i]; latch[i] = SET };
	if
	:: old == SLEEPING -> wake_specific(i)
	:: else -> skip
	fi;
	atomic { old = 0; woke = false }
}

/* The outside thread (any thread that calls wspx_pool_inject). */
active proctype injector()
{
	byte n, i, old;
	bool wempty;
	byte cs, ci, cidle, cwake, wi, wn;
	bool woke;

	do
	:: injected < NJOBS ->
		/* wspx_pool_inject (1 job) or wspx_pool_inject_n (2). */
		if
		:: n = 1
		:: injected + 2 <= NJOBS -> n = 2
		fi;
		/* wspx__pool_inject_list: wspx__stack_push, one CAS.  The
		 * gate (gateenter, gateleave) is left out: there is one
		 * injector, and it shuts the pool down only once done.  On an
		 * empty stack the push is new to both workers, and nothing
		 * orders it yet before their fenced looks. */
		atomic {
			wempty = (queued == 0);
			queued = queued + n;
			injected = injected + n;
			pending = pending + n;
			if
			:: wempty ->
				stale[0] = true;
				stale[1] = true;
				unfenced = true;
				published = false
			:: else -> skip
			fi
		};
		/* wspx__sleep_new_injected_jobs: fence 1, then
		 * wspx__sleep_new_jobs.  On a stack that was not empty, the
		 * batch below was fenced already and the fence changes
		 * nothing the model tells apart: no step. */
#if !defined(NO_FENCE1)
		if
		:: wempty -> atomic { unfenced = false }
		:: else -> skip
		fi;
#endif
		new_jobs(n, wempty);
		atomic { n = 0; wempty = false }
	:: else -> break
	od;
	if
	:: skip				/* the pool keeps running, idle */
	:: stopping = true;		/* wspx_pool_shutdown */
		/* closegate: this is the only injector and it is done.
		 * stopthreads: set each terminate latch, then join. */
		i = 0;
		do
		:: i < NW -> latch_set(i); i++
		:: else -> break
		od;
		exited == NW			/* pthread_join */
	fi
}

/* Not a thread of the pool: a monitor.  When nothing can move any more,
 * the pool must be at rest: every job run, and each worker exited (after
 * shutdown) or blocked on its condvar and counted as sleeping.  A lost
 * wake-up shows up here as a failed assertion in the safety run, and as a
 * violated ltl formula below in the liveness runs. */
active proctype watchdog()
{
end_watch:
	timeout ->
	assert(pending == 0 && queued == 0);
	assert(!stopping || exited == NW);
	assert(stopping || (blocked[0] && blocked[1] && sleeping == NW))
}

/* Liveness, checked with weak fairness (pan -a -f -N name): a process
 * that can move forever does move.  Idle workers do not loop forever here
 * (they block), and the formulas speak only of jobs and of shutdown. */

/* An injected job does not stay on the injection stack. */
ltl taken { [] (queued > 0 -> <> (queued == 0)) }

/* Every job is run, including those handed on through a deque. */
ltl executed { [] (pending > 0 -> <> (pending == 0)) }

/* Shutdown ends: every worker leaves workermain. */
ltl shutdown { [] (stopping -> <> (exited == NW)) }

/* Once all jobs are injected and run, the workers go to sleep (no
 * livelock of workers that never block). */
ltl sleeps { [] ((injected == NJOBS && pending == 0) ->
	<> (stopping || (blocked[0] && blocked[1]))) }
