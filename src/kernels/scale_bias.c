/* scale_bias.c - DML_SCALE_BIAS: y = x*Scale + Bias, element by element.
 *
 * DirectML defines the result as two operations, each rounded: the product x*Scale rounded
 * to float32, then that plus Bias rounded to float32 (FLOAT64: double, with Scale and Bias
 * widened), then one conversion to the output type, rounding to nearest even.  A fused
 * multiply-add rounds only once and differs in the last bit for some inputs, so this file
 * must never be compiled into one (no_contract.h says how).
 * tests/test_element_wise_identity.py compiles this file for an FMA target and compares
 * the results with NumPy's separately rounded float32 arithmetic. */
#include "no_contract.h"

#include "../dmlc_internal.h"

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
        const float x = dmlc_half_to_float_inline(s[(int64_t)i * ss]);
        d[(int64_t)i * ds] = dmlc_float_to_half_inline(x * a + b);
    }
}
