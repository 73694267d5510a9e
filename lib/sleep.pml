/*
 * Promela model of the work-stealing pool's sleep/wake protocol: sleep.c
 * (the protocol comment at its top, steps 1-6) and the parts of pool.c that
 * drive it.  Checked by tests/model.sh (make check-model).  Whoever changes
 * one of the C functions named in the comments below changes the model to
 * match.
 *
 * Who is modelled.  Two workers (workermain -> wspx__pool_wait_until on the
 * worker's terminate latch, then the drain) and one outside thread that
 * injects a few jobs (wspx__pool_inject_list) and then either leaves the
 * pool running or shuts it down (wspx_pool_shutdown -> stopthreads ->
 * wspx__latch_set).  The main slot that wspx_pool_call() lends is left out:
 * no thread blocks in it here, so wakeany() could find nobody there.
 *
 * What is abstracted.
 *   - The injection stack (stack.c) is a job count: a push adds a batch,
 *     take_all takes the whole count.  A deque (deque.c) is a job count too:
 *     the owner pops, the other worker steals, each one atomic step.  Both
 *     structures are checked on their own by the unit tests.
 *   - Running a job is one step that counts it done (the ghost `pending`).
 *     Jobs do not fork or inject more jobs.
 *   - The 32 yield rounds (WSPX__ROUNDS_UNTIL_SLEEPY) become ROUNDS_SLEEPY.
 *   - The JEC counts modulo JECMOD.  The code keeps it in the upper 32 bits
 *     of the counters word, so it wraps after 2^32 steps; a small even
 *     modulus keeps the parity rule and lets the checker try wrap-around,
 *     where a worker finds the JEC back at the value it kept although jobs
 *     were posted in between.
 *   - Promela interleaves whole statements: it is sequentially consistent.
 *     Every seq_cst operation of the code is one statement, and the two
 *     seq_cst fences (fence 1 in wspx__sleep_new_injected_jobs, fence 2 in
 *     sleepnow) are implicit: the model cannot reorder the push after the
 *     counters read nor the registration after the look at the stack.  So
 *     the model checks the protocol's logic, not whether the memory orders
 *     of the C code give sequential consistency where it needs it.
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
 *     was run and each worker has exited or is blocked on its condvar.
 *   - Liveness, under weak fairness: a queued injected job is taken; every
 *     job is run; shutdown ends; once all jobs are done, both workers block.
 */

#define NW		2	/* workers; a few expressions below name both */
#define NJOBS		3	/* jobs the injector injects, in batches of 1-2 */
#define JECMOD		4	/* the JEC counts modulo this (code: 2^32) */
#define ROUNDS_SLEEPY	1	/* WSPX__ROUNDS_UNTIL_SLEEPY (code: 32) */

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

/* Ghost state, for the properties only: no C code behind it. */
byte injected;		/* jobs injected so far */
byte pending;		/* jobs injected and not yet run */
byte exited;		/* workers that returned from workermain */
bool stopping;		/* shutdown has begun */
bool posted[NW];	/* a poster toggled the JEC since worker i announced */
bool registered[NW];	/* worker i counted in sleeping, not yet woken */

/* Counter invariants, checked after every change of the counters word:
 * sleeping counts exactly the workers that registered and were not woken
 * (nor took their registration back), a sleeping worker is inactive, and
 * nothing underflows (a byte wraps to 255). */
#define COUNTERS_OK	(sleeping == registered[0] + registered[1] && \
			 sleeping <= inactive && inactive <= NW)

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
			posted[1] = true
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

/* wspx__pool_execute: run the job. */
inline execute()
{
	atomic { assert(pending > 0); pending-- }
}

/* takeinjected(w): take the whole injection stack (wspx__stack_take_all);
 * keep one job and push the others on our own deque (wspx__deque_push,
 * was_empty from the first push), then wspx__sleep_new_internal_jobs for
 * them. */
inline takeinjected()
{
	atomic {
		took = queued;
		queued = 0;
		found = (took > 0)
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

/* wspx__sleep_work_found(s, found, injected): no longer inactive; if
 * some slept (the old value), wake up to two of them when work was found,
 * or, leaving without work (the latch was set), when the injection stack
 * holds a job: checked after fence 3, implicit here (the decrement and the
 * look are two statements in sequentially consistent order). */
inline work_found(wfound)
{
	atomic {
		cs = sleeping;
		assert(inactive > 0);
		inactive--;
		assert(COUNTERS_OK)
	};
	if
	:: cs > 0 && (wfound || queued > 0) ->
		atomic { cwake = (cs < 2 -> cs : 2); cs = 0 };
		wakeany(cwake);
		atomic { cwake = 0 }
	:: else -> atomic { cs = 0 }
	fi
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
		:: else ->
			/* 3-4. registersleeping: if the JEC is the one we
			 * kept, sleeping + 1 (one CAS).  If not, a job was
			 * posted since we announced ourselves sleepy (the
			 * assertion: the change is never our own toggle);
			 * unlock, latch back to UNSET and announce again
			 * (rounds = WSPX__ROUNDS_UNTIL_SLEEPY). */
			atomic {
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
				/* 5. Fence 2 (implicit); look at the injection
				 * stack (wspx__stack_has_jobs).  If it is empty,
				 * 6. block(): blocked = true and
				 * pthread_cond_wait, which releases the mutex,
				 * in the same step (only we touch `blocked` while
				 * we hold the mutex, so nobody can tell). */
				atomic {
					if
					:: queued > 0 -> ok = false
					:: else ->
						blocked[me] = true;
						mtx[me] = 0;
						ok = true
					fi
				};
				if
				:: !ok ->
					/* A job is queued: nobody will wake
					 * us, so undo our registration, and
					 * unlock. */
					atomic {
						assert(sleeping > 0);
						sleeping--;
						registered[me] = false;
						assert(COUNTERS_OK);
						mtx[me] = 0
					}
				:: else ->
					/* The wait returns, relocked, once a
					 * waker cleared `blocked`; block()
					 * returns and sleepnow unlocks. */
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

/* lookforwork(w, latch): one idle period.  Sets found if it ran a job,
 * clears it if the latch was set. */
inline lookforwork()
{
	/* wspx__sleep_start_looking */
	atomic {
		inactive++;
		assert(COUNTERS_OK);
		rounds = 0;
		kept = 0
	};
	do
	:: latch[me] == SET ->			/* wspx__latch_probe */
		found = false;
		break
	:: else ->
		findwork();
		if
		:: found ->
			work_found(true);
			execute();
			break
		:: else ->
			no_work_found()
		fi
	od;
	atomic { rounds = 0; kept = 0 };
	if
	:: !found -> work_found(false)
	:: else -> skip
	fi
}

/* workermain: wspx__pool_wait_until(w, &w->terminate), then the drain. */
active [NW] proctype worker()
{
	byte me = _pid;	/* the workers are the first processes: 0 and 1 */
	byte rounds, kept, took;
	bool found, ok, wempty;
	byte cs, ci, cidle, cwake, wi, wn;
	bool codd, woke;

	/* wspx__pool_wait_until */
	do
	:: latch[me] == SET -> break		/* wspx__latch_probe */
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

/* wspx__latch_set(s, &workers[i].terminate, i): exchange SET; if the old
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
		 * injector, and it shuts the pool down only once done. */
		atomic {
			wempty = (queued == 0);
			queued = queued + n;
			injected = injected + n;
			pending = pending + n
		};
		/* wspx__sleep_new_injected_jobs: fence 1 (implicit), then
		 * wspx__sleep_new_jobs. */
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
