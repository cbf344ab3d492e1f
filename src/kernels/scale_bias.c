/* scale_bias.c - DML_SCALE_BIAS: y = x*Scale + Bias, element by element.
 *
 * DirectML defines the result as two operations, each rounded: the product x*Scale rounded
 * to float32, then that plus Bias rounded to float32 (FLOAT64: double, with Scale and Bias
 * widened), then one conversion to the output type, rounding to nearest even.  A fused
 * multiply-add rounds only once and differs in the last bit for some inputs, so this file
 * must never be compiled into one: GCC contracts a*b + c into an FMA whenever the target
 * has the instruction (its default outside ISO C mode is -ffp-contract=fast, and
 * -march=native, AArch64 or POWER have FMA).  The C standard's FP_CONTRACT pragma turns
 * contraction off for clang and the compilers that follow the standard; GCC ignores that
 * pragma (and warns), but honours its own optimize pragma for the functions below.
 * tests/test_element_wise_identity.py compiles this file for an FMA target and compares
 * the results with NumPy's separately rounded float32 arithmetic. */
#if defined(__clang__)
#  pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#  pragma GCC optimize("fp-contract=off")
#elif defined(_MSC_VER)
#  pragma fp_contract(off)
#else
#  pragma STDC FP_CONTRACT OFF
#endif

#include "../dmlc_internal.h"

#include <string.h>

/* ---- FLOAT16 <-> FLOAT32 ------------------------------------------------------------------ */
/* FLOAT16 bits -> float, exactly (every half is a float); NaN keeps its sign and payload. */
static inline float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, x;
    float f;
    if (exp == 0x1fu) {
        x = sign | 0x7f800000u | (man << 13);
    } else if (exp) {
        x = sign | ((exp + 112u) << 23) | (man << 13); /* rebias 15 -> 127 */
    } else if (!man) {
        x = sign;
    } else {
        /* A subnormal half is man * 2^-24: shift man up to its leading bit (bit 10) k
         * times, and the value is 1.f * 2^(-14-k), a float exponent field of 113 - k. */
        uint32_t e = 113u;
        while (!(man & 0x400u)) {
            man <<= 1;
            --e;
        }
        x = sign | (e << 23) | ((man & 0x3ffu) << 13);
    }
    memcpy(&f, &x, sizeof f);
    return f;
}

/* float -> FLOAT16 bits, rounding to nearest even; overflow gives infinity, NaN keeps its
 * sign and top payload bits (NumPy's float32 -> float16 cast does the same). */
static inline uint16_t float_to_half(float f)
{
    uint32_t x, man, exp, h, rem, halfway;
    uint16_t sign;
    int e;
    memcpy(&x, &f, sizeof x);
    sign = (uint16_t)((x >> 16) & 0x8000u);
    exp = (x >> 23) & 0xffu;
    man = x & 0x7fffffu;
    if (exp == 0xffu) {
        if (!man) return (uint16_t)(sign | 0x7c00u);
        h = 0x7c00u + (man >> 13);
        return (uint16_t)(sign | (h == 0x7c00u ? h + 1 : h)); /* a NaN stays a NaN */
    }
    e = (int)exp - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        /* A half subnormal counts units of 2^-24: 1.man * 2^(exp-127) is (man | 2^23) >>
         * (14 - e) units, rounded. */
        unsigned shift = (unsigned)(14 - e);
        if (e < -10) return sign; /* below 2^-25: rounds to zero */
        man |= 0x800000u;
        h = man >> shift;
        rem = man & ((1u << shift) - 1);
        halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
        return (uint16_t)(sign | h);
    }
    h = ((uint32_t)e << 10) | (man >> 13);
    rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h; /* a carry into the exponent is right: up to inf */
    return (uint16_t)(sign | h);
}

/* ---- The rows ------------------------------------------------------------------------------ */
/* Contiguous rows get a loop of their own (restrict: the compiler vectorises it), as do
 * in-place rows, which read and write through one pointer. */
static void f32_packed(float* DMLC_RESTRICT d, const float* DMLC_RESTRICT s, uint64_t n, float a, float b)
{
    for (uint64_t i = 0; i < n; ++i) d[i] = s[i] * a + b;
}

static void f32_in_place(float* d, uint64_t n, float a, float b)
{
    for (uint64_t i = 0; i < n; ++i) d[i] = d[i] * a + b;
}

void dmlc_scale_bias_f32(const void* ctx, void* dst, int64_t ds, const void* src, int64_t ss, uint64_t n)
{
    const DML_SCALE_BIAS* sb = (const DML_SCALE_BIAS*)ctx;
    const float a = sb->Scale, b = sb->Bias;
    float* d = (float*)dst;
    const float* s = (const float*)src;
    if (ds == 1 && ss == 1) {
        if ((const float*)d == s) f32_in_place(d, n, a, b);
        else f32_packed(d, s, n, a, b);
        return;
    }
    for (uint64_t i = 0; i < n; ++i) d[(int64_t)i * ds] = s[(int64_t)i * ss] * a + b;
}

static void f64_packed(double* DMLC_RESTRICT d, const double* DMLC_RESTRICT s, uint64_t n, double a, double b)
{
    for (uint64_t i = 0; i < n; ++i) d[i] = s[i] * a + b;
}

static void f64_in_place(double* d, uint64_t n, double a, double b)
{
    for (uint64_t i = 0; i < n; ++i) d[i] = d[i] * a + b;
}

void dmlc_scale_bias_f64(const void* ctx, void* dst, int64_t ds, const void* src, int64_t ss, uint64_t n)
{
    const DML_SCALE_BIAS* sb = (const DML_SCALE_BIAS*)ctx;
    const double a = sb->Scale, b = sb->Bias; /* widened exactly */
    double* d = (double*)dst;
    const double* s = (const double*)src;
    if (ds == 1 && ss == 1) {
        if ((const double*)d == s) f64_in_place(d, n, a, b);
        else f64_packed(d, s, n, a, b);
        return;
    }
    for (uint64_t i = 0; i < n; ++i) d[(int64_t)i * ds] = s[(int64_t)i * ss] * a + b;
}

void dmlc_scale_bias_f16(const void* ctx, void* dst, int64_t ds, const void* src, int64_t ss, uint64_t n)
{
    const DML_SCALE_BIAS* sb = (const DML_SCALE_BIAS*)ctx;
    const float a = sb->Scale, b = sb->Bias;
    uint16_t* d = (uint16_t*)dst;
    const uint16_t* s = (const uint16_t*)src;
    /* In place (d == s, ds == ss) is safe too: each element is read before it is written. */
    for (uint64_t i = 0; i < n; ++i) {
        const float x = half_to_float(s[(int64_t)i * ss]);
        d[(int64_t)i * ds] = float_to_half(x * a + b);
    }
}
