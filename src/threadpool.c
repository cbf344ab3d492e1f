/* threadpool.c - dmlc_parallel_for: the caller works first, workers join as they come.
 *
 * A parallel loop must never make a call slower than running it alone.  A fork-join region
 * (OpenMP's) waits at its end for every thread of its team: on a machine whose cores are
 * busy with other work, a worker the OS has not scheduled yet holds the caller for a
 * scheduler slice (milliseconds) although the caller could have done all the work itself.
 * So, as in ONNX Runtime's thread pool and XNNPACK's pthreadpool:
 *
 * - the loop is cut into a few chunks per thread, claimed one at a time from one word that
 *   holds the first and the last unclaimed chunk;
 * - the caller publishes the job, wakes the workers it may use and claims chunks from the
 *   front from the first moment; a worker that wakes claims what is left from the back.
 *   So with two threads each runs about the same half of the loop call after call, and a
 *   program that calls dmlc on the same arrays finds them in the same core's cache, as
 *   with a static schedule, while a late worker still costs the call nothing;
 * - the call returns once every chunk has been *run*: it waits only for chunks a worker has
 *   claimed and is running, never for a worker that has not started;
 * - a worker that wakes late finds the counter exhausted (or belonging to a later job: the
 *   job's number sits beside the chunk index in the same word, so a claim is one
 *   compare-and-swap that fails for any other job) and goes back to sleep.  Before a claim
 *   succeeds it reads only the pool's own memory, never the finished call's.
 *
 * Concurrent callers (Dask tasks, a user's own threads): one call at a time owns the
 * workers; a call made while another owns them runs on its own thread.  The threads
 * working on dmlc calls are counted (callers and workers): a worker leaves its job before
 * its next chunk when that count exceeds the job's thread count, so several callers at
 * once never add workers beyond the thread count (one thread per call when as many calls
 * run as there are threads, as in Dask's threaded scheduler).
 *
 * A worker that has run chunks of a job watches for the next one for a short while (a few
 * tens of microseconds, giving its core away every so often) before it sleeps: a program
 * that calls dmlc in a loop then finds its workers awake, as OpenMP's spinning team did,
 * instead of paying a wake-up per call (waking a sleeping thread takes longer than the
 * whole of a 40-microsecond call).  A worker that left a job because too many threads
 * were working goes straight to sleep.
 *
 * Workers are made on first need (up to the thread count less one, the caller being the
 * other), sleep on a condition variable between jobs and are joined when the library is
 * unloaded.  After fork() the child has none of its parent's threads: it forgets them and
 * makes its own when it next needs them.  Built with DMLC_SINGLE_THREADED, every loop runs
 * on the calling thread. */
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
#  define _GNU_SOURCE /* pthread_sigmask, sched_yield, pthread_setname_np */
#endif
#include "dmlc_internal.h"

#include <stdlib.h>

#ifdef DMLC_SINGLE_THREADED

void dmlc_parallel_for(uint64_t n, uint64_t work_bytes, dmlc_range_fn fn, void* ctx)
{
    (void)work_bytes;
    if (n) fn(ctx, 0, n);
}

#else

#  if defined(_WIN32)
#    include <windows.h>
#    include <process.h>
typedef SRWLOCK pool_mutex;
typedef CONDITION_VARIABLE pool_cond;
typedef HANDLE pool_thread;
#    define POOL_MUTEX_INIT SRWLOCK_INIT
#    define POOL_COND_INIT CONDITION_VARIABLE_INIT
static void mutex_lock(pool_mutex* m) { AcquireSRWLockExclusive(m); }
static void mutex_unlock(pool_mutex* m) { ReleaseSRWLockExclusive(m); }
static int mutex_trylock(pool_mutex* m) { return TryAcquireSRWLockExclusive(m) != 0; }
static void cond_wait(pool_cond* c, pool_mutex* m) { SleepConditionVariableSRW(c, m, INFINITE, 0); }
static void cond_signal(pool_cond* c) { WakeConditionVariable(c); }
static void cond_broadcast(pool_cond* c) { WakeAllConditionVariable(c); }
static void yield_cpu(void) { SwitchToThread(); }
#    include <intrin.h>
#    if defined(_M_X64) || defined(_M_IX86)
static void cpu_pause(void) { _mm_pause(); }
#    else
static void cpu_pause(void) { YieldProcessor(); }
#    endif
#  else
#    include <pthread.h>
#    include <sched.h>
#    include <signal.h>
typedef pthread_mutex_t pool_mutex;
typedef pthread_cond_t pool_cond;
typedef pthread_t pool_thread;
#    define POOL_MUTEX_INIT PTHREAD_MUTEX_INITIALIZER
#    define POOL_COND_INIT PTHREAD_COND_INITIALIZER
static void mutex_lock(pool_mutex* m) { pthread_mutex_lock(m); }
static void mutex_unlock(pool_mutex* m) { pthread_mutex_unlock(m); }
static int mutex_trylock(pool_mutex* m) { return pthread_mutex_trylock(m) == 0; }
static void cond_wait(pool_cond* c, pool_mutex* m) { pthread_cond_wait(c, m); }
static void cond_signal(pool_cond* c) { pthread_cond_signal(c); }
static void cond_broadcast(pool_cond* c) { pthread_cond_broadcast(c); }
static void yield_cpu(void) { sched_yield(); }
/* A hint that this thread is spinning (it frees the core's resources for its sibling). */
static void cpu_pause(void)
{
#    if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#    elif defined(__aarch64__) || (defined(__arm__) && __ARM_ARCH >= 7)
    __asm__ __volatile__("yield");
#    endif
}
#  endif

/* ---- Atomics: C11's, or the Interlocked functions of MSVC's C ---------------------------- */
#  if defined(_MSC_VER) && !defined(__clang__)
typedef volatile LONG64 pool_atomic64;
typedef volatile LONG pool_atomic32;
static uint64_t load64(pool_atomic64* p) { return (uint64_t)InterlockedOr64(p, 0); }
static void store64(pool_atomic64* p, uint64_t v) { InterlockedExchange64(p, (LONG64)v); }
static int cas64(pool_atomic64* p, uint64_t* expected, uint64_t desired)
{
    LONG64 seen = InterlockedCompareExchange64(p, (LONG64)desired, (LONG64)*expected);
    if ((uint64_t)seen == *expected) return 1;
    *expected = (uint64_t)seen;
    return 0;
}
static uint32_t load32(pool_atomic32* p) { return (uint32_t)InterlockedOr(p, 0); }
static void store32(pool_atomic32* p, uint32_t v) { InterlockedExchange(p, (LONG)v); }
static uint32_t add32(pool_atomic32* p, uint32_t v) { return (uint32_t)InterlockedExchangeAdd(p, (LONG)v); }
static int cas32(pool_atomic32* p, uint32_t* expected, uint32_t desired)
{
    LONG seen = InterlockedCompareExchange(p, (LONG)desired, (LONG)*expected);
    if ((uint32_t)seen == *expected) return 1;
    *expected = (uint32_t)seen;
    return 0;
}
#  else
#    include <stdatomic.h>
typedef _Atomic uint64_t pool_atomic64;
typedef _Atomic uint32_t pool_atomic32;
/* Acquire/release: a chunk's writes (by a worker) happen before the caller sees it done;
 * the job's fields (written under the mutex) before a worker's claim. */
static uint64_t load64(pool_atomic64* p) { return atomic_load_explicit(p, memory_order_acquire); }
static void store64(pool_atomic64* p, uint64_t v) { atomic_store_explicit(p, v, memory_order_release); }
static int cas64(pool_atomic64* p, uint64_t* expected, uint64_t desired)
{
    return atomic_compare_exchange_weak_explicit(p, expected, desired, memory_order_acq_rel, memory_order_acquire);
}
static uint32_t load32(pool_atomic32* p) { return atomic_load_explicit(p, memory_order_acquire); }
static void store32(pool_atomic32* p, uint32_t v) { atomic_store_explicit(p, v, memory_order_release); }
static uint32_t add32(pool_atomic32* p, uint32_t v) { return atomic_fetch_add_explicit(p, v, memory_order_acq_rel); }
static int cas32(pool_atomic32* p, uint32_t* expected, uint32_t desired)
{
    return atomic_compare_exchange_weak_explicit(p, expected, desired, memory_order_acq_rel, memory_order_acquire);
}
#  endif

#  define POOL_MAX_WORKERS 1023 /* the thread count's ceiling (1024) less the caller */

/* One loop: [0, n) cut into `chunks` chunks, the first `extra` one item longer. */
typedef struct {
    dmlc_range_fn fn;
    void* ctx;
    uint64_t base, extra;
    uint32_t chunks, threads;
} pool_job;

static struct {
    pool_mutex lock;
    pool_cond wake;
    /* Under lock: */
    uint32_t job_id;   /* the current (or last) job's number, 0 before the first */
    uint32_t seats;    /* workers that may still join the current job */
    uint32_t sleeping; /* workers waiting on wake */
    uint32_t made;     /* worker threads running */
    int closing;       /* the library is being unloaded: workers end */
    pool_job job;
    pool_thread threads[POOL_MAX_WORKERS];
} g_pool = {POOL_MUTEX_INIT, POOL_COND_INIT, 0, 0, 0, 0, 0, {0, 0, 0, 0, 0, 0}, {0}};

static pool_atomic64 g_next;    /* job number << 32 | end << 16 | begin: chunks [begin, end) are unclaimed */
static pool_atomic32 g_done;    /* chunks of the current job run to their end */
static pool_atomic32 g_owned;   /* 1 while a call owns the workers */
static pool_atomic32 g_working; /* threads working on dmlc loops now: callers and workers */

/* Claims the first (or, `from_back`, the last) unclaimed chunk of job `id`; 0 when none is
 * left or the job is no longer current.  A job has at most 4 chunks per thread (4096), so
 * the two 16-bit halves hold them. */
static int claim(uint32_t id, int from_back, uint32_t* k)
{
    uint64_t w = load64(&g_next);
    for (;;) {
        uint32_t begin = (uint32_t)(w & 0xFFFF), end = (uint32_t)(w >> 16 & 0xFFFF);
        if ((uint32_t)(w >> 32) != id || begin >= end) return 0;
        if (cas64(&g_next, &w, from_back ? w - ((uint64_t)1 << 16) : w + 1)) {
            *k = from_back ? end - 1 : begin;
            return 1;
        }
    }
}

static void run_chunk(const pool_job* job, uint32_t k)
{
    uint64_t begin = job->base * k + (k < job->extra ? k : job->extra);
    job->fn(job->ctx, begin, begin + job->base + (k < job->extra));
    add32(&g_done, 1);
}

/* A worker stays while the threads working on dmlc loops are at most its job's thread
 * count; otherwise it leaves (and is no longer counted).  Exactly the excess leaves. */
static int worker_stays(uint32_t threads)
{
    uint32_t w = load32(&g_working);
    while (w > threads)
        if (cas32(&g_working, &w, w - 1)) return 0;
    return 1;
}

/* Takes the lock, trying for a moment before blocking: a worker that has just seen a new
 * job finds the lock held by the caller publishing it for a few instructions, and blocking
 * would cost it a wake-up. */
static void lock_soon(void)
{
    uint32_t tries;
    for (tries = 0; tries < 256; ++tries) {
        if (mutex_trylock(&g_pool.lock)) return;
        cpu_pause();
    }
    mutex_lock(&g_pool.lock);
}

/* How long a worker watches for the next job: POOL_SPINS pauses (a pause takes from about
 * 10 to 150 cycles depending on the CPU), giving the core away every POOL_SPIN_YIELD of them
 * so that on a busy machine another process's thread runs instead. */
#  define POOL_SPINS 4096u
#  define POOL_SPIN_YIELD 256u

/* Returns once job `id` is no longer the newest published, or after POOL_SPINS pauses. */
static void watch_for_next_job(uint32_t id)
{
    uint32_t spins;
    for (spins = 1; spins <= POOL_SPINS; ++spins) {
        if ((uint32_t)(load64(&g_next) >> 32) != id) return;
        if (spins % POOL_SPIN_YIELD == 0) yield_cpu();
        else cpu_pause();
    }
}

static void worker_loop(uint32_t seen)
{
    mutex_lock(&g_pool.lock);
    for (;;) {
        pool_job job;
        uint32_t id, k;
        while (!g_pool.closing && g_pool.job_id == seen) {
            ++g_pool.sleeping;
            cond_wait(&g_pool.wake, &g_pool.lock);
            --g_pool.sleeping;
        }
        if (g_pool.closing) break;
        id = seen = g_pool.job_id;
        if (!g_pool.seats) continue;
        --g_pool.seats;
        job = g_pool.job;
        mutex_unlock(&g_pool.lock);
        add32(&g_working, 1);
        if (worker_stays(job.threads)) {
            while (claim(id, 1, &k)) {
                run_chunk(&job, k);
                if (!worker_stays(job.threads)) goto left;
            }
            add32(&g_working, (uint32_t)-1);
            watch_for_next_job(id);
        }
    left:
        lock_soon();
    }
    mutex_unlock(&g_pool.lock);
}

#  if defined(_WIN32)
static unsigned __stdcall worker_main(void* arg)
{
    worker_loop((uint32_t)(uintptr_t)arg);
    return 0;
}
static int start_worker(pool_thread* t, uint32_t seen)
{
    uintptr_t h = _beginthreadex(NULL, 0, worker_main, (void*)(uintptr_t)seen, 0, NULL);
    *t = (HANDLE)h;
    return h != 0;
}
#  else
static void* worker_main(void* arg)
{
#    if defined(__linux__)
    pthread_setname_np(pthread_self(), "dmlc worker"); /* as ps, top and debuggers show it */
#    endif
    worker_loop((uint32_t)(uintptr_t)arg);
    return NULL;
}
/* Workers block every signal: a process-directed signal goes to a thread of the program's
 * own (Python handles them on its main thread), never to one of dmlc's. */
static int start_worker(pool_thread* t, uint32_t seen)
{
    sigset_t all, old;
    int rc;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(t, NULL, worker_main, (void*)(uintptr_t)seen);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc == 0;
}

/* fork(): the lock is held across it, so the child's copy is consistent; the child has
 * none of the workers, nor any call in flight. */
static void before_fork(void) { mutex_lock(&g_pool.lock); }
static void after_fork_parent(void) { mutex_unlock(&g_pool.lock); }
static void after_fork_child(void)
{
    g_pool.made = g_pool.sleeping = g_pool.seats = 0;
    g_pool.closing = 0;
    pthread_cond_init(&g_pool.wake, NULL);
    store32(&g_owned, 0);
    store32(&g_working, 0);
    mutex_unlock(&g_pool.lock);
}
static pthread_once_t g_atfork_once = PTHREAD_ONCE_INIT;
static void register_atfork(void) { pthread_atfork(before_fork, after_fork_parent, after_fork_child); }

/* Unloading the library (dlclose, or the end of the process) ends and joins the workers:
 * none may be left to run code that is no longer mapped. */
#    if defined(__GNUC__) || defined(__clang__)
__attribute__((destructor)) static void close_pool(void)
{
    uint32_t i, made;
    mutex_lock(&g_pool.lock);
    g_pool.closing = 1;
    made = g_pool.made;
    cond_broadcast(&g_pool.wake);
    mutex_unlock(&g_pool.lock);
    for (i = 0; i < made; ++i) pthread_join(g_pool.threads[i], NULL);
    mutex_lock(&g_pool.lock);
    g_pool.made = 0;
    mutex_unlock(&g_pool.lock);
}
#    endif
#  endif

/* Makes workers up to `want` (under the lock); fewer if the system refuses threads. */
static void grow(uint32_t want)
{
#  if !defined(_WIN32)
    pthread_once(&g_atfork_once, register_atfork);
#  endif
    if (want > POOL_MAX_WORKERS) want = POOL_MAX_WORKERS;
    while (g_pool.made < want && !g_pool.closing && start_worker(&g_pool.threads[g_pool.made], g_pool.job_id))
        ++g_pool.made;
}

void dmlc_parallel_for(uint64_t n, uint64_t work_bytes, dmlc_range_fn fn, void* ctx)
{
    uint64_t threads = dmlc_threads_for(work_bytes);
    uint32_t zero = 0, id, k, wake, spins;
    pool_job job;
    if (threads > n) threads = n;
    if (threads <= 1) { /* small: no threads, nothing shared touched */
        if (n) fn(ctx, 0, n);
        return;
    }
    add32(&g_working, 1);
    if (!cas32(&g_owned, &zero, 1)) { /* another call owns the workers: this one runs alone */
        fn(ctx, 0, n);
        add32(&g_working, (uint32_t)-1);
        return;
    }
    {
        /* A few chunks per thread: a thread that is late or slowed by another process
         * delays one small chunk, not a fixed share of the work. */
        uint64_t chunks = n < threads * 4 ? n : threads * 4;
        job.fn = fn;
        job.ctx = ctx;
        job.base = n / chunks;
        job.extra = n % chunks;
        job.chunks = (uint32_t)chunks;
        job.threads = (uint32_t)threads;
    }
    mutex_lock(&g_pool.lock);
    grow((uint32_t)threads - 1);
    id = ++g_pool.job_id;
    if (!id) id = ++g_pool.job_id; /* 0 is "no job yet", which new workers wait past */
    g_pool.job = job;
    g_pool.seats = (uint32_t)threads - 1;
    store32(&g_done, 0);
    store64(&g_next, (uint64_t)id << 32 | (uint64_t)job.chunks << 16);
    wake = g_pool.sleeping < g_pool.seats ? g_pool.sleeping : g_pool.seats;
    while (wake--) cond_signal(&g_pool.wake);
    mutex_unlock(&g_pool.lock);

    while (claim(id, 0, &k)) run_chunk(&job, k);
    /* What is left is being run by workers that started: wait for them, giving the core
     * away now and then in case one of them is waiting for it. */
    for (spins = 0; load32(&g_done) != job.chunks; ++spins)
        if ((spins & 63) == 63) yield_cpu();
    store32(&g_owned, 0);
    add32(&g_working, (uint32_t)-1);
}

#endif /* DMLC_SINGLE_THREADED */
