/* x86_avx2.h - what the x86-64 vector kernels share: whether this compiler can build
 * them, the function attribute that builds one for AVX2 + F16C whatever the build's own
 * target, and the loads of 8 (or 1) FLOAT32 or FLOAT16 elements as float.
 *
 * A kernel built this way runs only where the CPU has the instructions: its family asks
 * dmlc_cpu_has (src/cpu.c; DMLC_CPU_FEATURES=generic keeps every family to its portable
 * kernels, docs/threads.rst) before choosing it.  Elsewhere (other compilers, aarch64)
 * DMLC_X86_AVX2 is undefined and the families build their portable kernels only. */
#ifndef DMLC_KERNELS_X86_AVX2_H
#define DMLC_KERNELS_X86_AVX2_H

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#  define DMLC_X86_AVX2 1
#  include <immintrin.h>
#  include <stdint.h>
#  include <string.h>
#  define DMLC_AVX2_F16C __attribute__((target("avx2,f16c")))
#  define DMLC_ALWAYS_INLINE __attribute__((always_inline)) inline

/* 8 consecutive elements at p as floats: FLOAT16 (half) converted by F16C, or FLOAT32. */
static DMLC_AVX2_F16C DMLC_ALWAYS_INLINE __m256 dmlc_load8_f32(const char* p, int half)
{
    return half ? _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)p)) : _mm256_loadu_ps((const float*)p);
}

/* One element at p as a float, the same way. */
static DMLC_AVX2_F16C DMLC_ALWAYS_INLINE float dmlc_load1_f32(const char* p, int half)
{
    if (half) {
        uint16_t h;
        memcpy(&h, p, 2);
        return _cvtsh_ss(h);
    } else {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
}
#endif

#endif
