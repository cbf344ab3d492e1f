/* thread_count.c - how many threads a call may use: dmlcSetThreadCount's request, else
 * DMLC_NUM_THREADS, else the CPUs the process may use (cpu_count.c). */
#include "dmlc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#  include <windows.h>
#endif

/* ---- Threads ------------------------------------------------------------------------
 * The requested count, the default and the fork flag are read by every operator, on any
 * thread, while another thread may set them: atomics, so that is defined behaviour (a
 * plain or volatile UINT is a data race in C11).  Relaxed order is enough: each is one
 * value that orders no other memory. */
#if defined(_MSC_VER) && !defined(__clang__)
typedef volatile LONG dmlc_atomic_uint;
static UINT dmlc_atomic_get(dmlc_atomic_uint* v) { return (UINT)InterlockedOr(v, 0); }
static void dmlc_atomic_set(dmlc_atomic_uint* v, UINT x) { InterlockedExchange(v, (LONG)x); }
static int dmlc_atomic_set_if_zero(dmlc_atomic_uint* v, UINT x)
{
    return InterlockedCompareExchange(v, (LONG)x, 0) == 0;
}
#else
#  include <stdatomic.h>
typedef atomic_uint dmlc_atomic_uint;
static UINT dmlc_atomic_get(dmlc_atomic_uint* v) { return atomic_load_explicit(v, memory_order_relaxed); }
static void dmlc_atomic_set(dmlc_atomic_uint* v, UINT x) { atomic_store_explicit(v, x, memory_order_relaxed); }
static int dmlc_atomic_set_if_zero(dmlc_atomic_uint* v, UINT x)
{
    unsigned int expected = 0;
    return atomic_compare_exchange_strong_explicit(v, &expected, x, memory_order_relaxed, memory_order_relaxed);
}
#endif

#define DMLC_MAX_THREADS 1024
static dmlc_atomic_uint g_thread_request; /* 0 = default */
static dmlc_atomic_uint g_default_threads; /* 0 = not computed yet */

static UINT core_count(void) { return dmlc_process_cpu_count(); }

/* DMLC_NUM_THREADS, read strictly: a whole number from 1 to DMLC_MAX_THREADS in decimal
 * digits and nothing else ("4abc", "1e3", " 4", "-1" and "0" are refused, not read as a
 * prefix).  Returns the count, or 0 for a bad value with *too_large set when it was only
 * too large. */
static UINT parse_thread_count(const char* text, int* too_large)
{
    uint64_t v = 0;
    const char* p = text;
    *too_large = 0;
    if (!*p) return 0;
    for (; *p; ++p) {
        if (*p < '0' || *p > '9') return 0;
        if (v <= DMLC_MAX_THREADS) v = v * 10 + (uint64_t)(*p - '0'); /* stops growing once too large */
    }
    if (v > DMLC_MAX_THREADS) {
        *too_large = 1;
        return 0;
    }
    return (UINT)v;
}

/* The default thread count: DMLC_NUM_THREADS, else one thread per core.  A bad value is
 * reported once, on stderr, with what is used instead: no call has failed, so there is no
 * error message to carry it, and a setting that is silently ignored looks like a slow
 * machine.  Unset or empty means "not set", as for OpenMP's variables. */
static UINT default_threads(void)
{
    UINT n = dmlc_atomic_get(&g_default_threads);
    if (!n) {
        const char* env = getenv("DMLC_NUM_THREADS");
        char warning[256] = "";
        int too_large = 0;
        UINT cores = core_count();
        if (!cores) cores = 1;
        n = env && *env ? parse_thread_count(env, &too_large) : cores;
        if (!n) {
            const char* more = strlen(env) > 40 ? "..." : ""; /* the value is shown up to 40 characters */
#ifndef DMLC_SINGLE_THREADED
            const char* why = too_large ? "more than the 1024 threads dmlc can run" : "not a whole number from 1 to 1024";
            n = too_large ? DMLC_MAX_THREADS : cores;
            snprintf(warning, sizeof warning, "dmlc: DMLC_NUM_THREADS is \"%.40s%s\", %s; using %u %s instead\n", env,
                     more, why, n, too_large ? "threads" : (n == 1 ? "thread (one per core)" : "threads (one per core)"));
#else
            n = cores;
            snprintf(warning, sizeof warning, "dmlc: DMLC_NUM_THREADS is \"%.40s%s\", %s; using 1 thread instead "
                     "(this build of dmlc is single-threaded)\n", env, more,
                     too_large ? "more than the 1024 threads dmlc can run" : "not a whole number from 1 to 1024");
#endif
        }
        /* Threads that race here compute the same n; only the one that stores it warns. */
        if (dmlc_atomic_set_if_zero(&g_default_threads, n) && warning[0]) fputs(warning, stderr);
        n = dmlc_atomic_get(&g_default_threads);
    }
    return n;
}

HRESULT dmlcSetThreadCount(UINT count)
{
    if (count > DMLC_MAX_THREADS)
        return dmlc_fail(E_INVALIDARG, "dmlcSetThreadCount", "count is %u, expected 0 to %d", count, DMLC_MAX_THREADS);
    dmlc_atomic_set(&g_thread_request, count);
    dmlc_clear_error();
    return S_OK;
}

UINT dmlcGetThreadCount(void)
{
    UINT n = dmlc_atomic_get(&g_thread_request);
    n = n ? n : default_threads();
#ifdef DMLC_SINGLE_THREADED
    n = 1; /* a single-threaded build: everything runs on the calling thread */
#endif
    return n;
}

UINT dmlc_thread_count(void) { return dmlcGetThreadCount(); }

uint64_t dmlc_threads_for(uint64_t work_bytes)
{
    const uint64_t threads = dmlc_thread_count(), most = work_bytes / DMLC_MIN_BYTES_PER_THREAD;
    const uint64_t n = threads < most ? threads : most;
    return n ? n : 1;
}
