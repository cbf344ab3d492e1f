/* cpu.c - which instruction-set extensions the kernels may use.
 *
 * Every kernel has a portable C version; a few also have a version for an extension that
 * not every CPU of the architecture has (AVX2 + F16C max pooling) or that only x86 has
 * (non-temporal SSE2 stores for very large copies).  The kernels ask dmlc_cpu_has() when
 * an operator is created, and nothing else in the core looks at the CPU, so the whole
 * answer lives here: what this build can use, what the CPU reports, and the
 * DMLC_CPU_FEATURES environment variable, read once per process:
 *   unset, "" or "native"  every extension the CPU has;
 *   "generic"              none: only the portable kernels run, exactly the code an
 *                          aarch64 build or an x86 CPU without AVX2 runs (CI runs the
 *                          whole test suite this way);
 *   anything else          an error: dmlcCreateOperator and dmlcGetCpuFeatures fail with
 *                          E_INVALIDARG and a message naming the variable, rather than
 *                          silently testing other kernels than the user asked for. */
#include "dmlc_internal.h"

#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#  include <windows.h>
#else
#  include <pthread.h>
#endif

/* The x86 detection follows the kernels' own compile-time conditions: AVX2 + F16C kernels
 * exist only where GCC or Clang compile them (target attributes), non-temporal stores
 * wherever SSE2 is part of the target. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#  define DMLC_DETECT_AVX2 1
#  include <cpuid.h>
#endif
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#  define DMLC_DETECT_SSE2 1
#endif

static const struct {
    unsigned bit;
    const char* name;
} g_names[] = {{DMLC_CPU_SSE2, "sse2"}, {DMLC_CPU_AVX2, "avx2"}, {DMLC_CPU_F16C, "f16c"}};

static unsigned g_features;       /* what the kernels may use */
static char g_list[64];           /* g_features as names: "sse2 avx2 f16c" */
static char g_bad_value[96];      /* a DMLC_CPU_FEATURES value not understood, or "" */

static unsigned detect(void)
{
    unsigned f = 0;
#ifdef DMLC_DETECT_SSE2
    f |= DMLC_CPU_SSE2;
#endif
#ifdef DMLC_DETECT_AVX2
    unsigned a, b, c, d;
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) f |= DMLC_CPU_AVX2;
    /* Clang's __builtin_cpu_supports does not know "f16c" (CPUID leaf 1, ECX bit 29).  Its
     * instructions use YMM registers, so it also needs the OS support that "avx" checks. */
    if (__builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C)) f |= DMLC_CPU_F16C;
#endif
    return f;
}

static void init_features(void)
{
    const char* env = getenv("DMLC_CPU_FEATURES");
    size_t n = 0;
    if (!env || !env[0] || strcmp(env, "native") == 0) {
        g_features = detect();
    } else if (strcmp(env, "generic") == 0) {
        g_features = 0;
    } else {
        /* Kept (shortened) for the message; the portable kernels run meanwhile. */
        size_t len = strlen(env);
        if (len >= sizeof g_bad_value - 4) len = sizeof g_bad_value - 4;
        memcpy(g_bad_value, env, len);
        if (len < strlen(env)) memcpy(g_bad_value + len, "...", 4);
        else g_bad_value[len] = '\0';
        g_features = 0;
    }
    for (size_t i = 0; i < sizeof g_names / sizeof g_names[0]; ++i) {
        const size_t len = strlen(g_names[i].name);
        if (!(g_features & g_names[i].bit) || n + len + 2 > sizeof g_list) continue;
        if (n) g_list[n++] = ' ';
        memcpy(g_list + n, g_names[i].name, len);
        n += len;
    }
    g_list[n] = '\0';
}

#if defined(_WIN32)
static INIT_ONCE g_once = INIT_ONCE_STATIC_INIT;
static BOOL CALLBACK init_once(PINIT_ONCE once, PVOID param, PVOID* context)
{
    (void)once;
    (void)param;
    (void)context;
    init_features();
    return TRUE;
}
static void ensure_init(void) { InitOnceExecuteOnce(&g_once, init_once, NULL, NULL); }
#else
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static void ensure_init(void) { pthread_once(&g_once, init_features); }
#endif

int dmlc_cpu_has(unsigned features)
{
    ensure_init();
    return (g_features & features) == features;
}

HRESULT dmlc_cpu_check(const char* who)
{
    ensure_init();
    if (g_bad_value[0])
        return dmlc_fail(E_INVALIDARG, who, "the environment variable DMLC_CPU_FEATURES is \"%s\", expected "
                         "\"generic\" (only the portable kernels) or \"native\" (every extension the CPU has), "
                         "or unset", g_bad_value);
    return S_OK;
}

HRESULT dmlcGetCpuFeatures(const char** features)
{
    HRESULT hr;
    if (!features) return dmlc_fail(E_POINTER, "dmlcGetCpuFeatures", "features is NULL");
    *features = "";
    if (FAILED(hr = dmlc_cpu_check("dmlcGetCpuFeatures"))) return hr;
    *features = g_list;
    dmlc_clear_error();
    return S_OK;
}
