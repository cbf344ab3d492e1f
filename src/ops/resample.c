/* resample.c - DML_OPERATOR_RESAMPLE, RESAMPLE1, RESAMPLE2 and UPSAMPLE_2D.
 *
 * Input and Output have the same type and 1 to 8 dimensions (UPSAMPLE_2D: 4 or 5).  Per
 * dimension d, output index o of input size n maps to the input coordinate
 *     x = ((o - OutputPixelOffsets[d]) / Scales[d]) - InputPixelOffsets[d]
 * in double, each operation rounded, in that order.  RESAMPLE is RESAMPLE1 with offsets
 * 0.5 / -0.5; UPSAMPLE_2D is RESAMPLE with Scales (1, ..., Height, Width) and its output
 * sizes fixed to the input's times those factors.
 *
 * NEAREST_NEIGHBOR: i = floor(x + 0.5) for RESAMPLE and RESAMPLE1 (halves round up),
 * floor(x) (RoundingDirection DECREASING) or ceil(x) (INCREASING) for RESAMPLE2, clamped
 * into [0, n); the element is copied bit for bit.  Example: RESAMPLE of {4} to {8} (Scale
 * 2): o = 3 gives x = (3.5 / 2) - 0.5 = 1.25, i = floor(1.75) = 1.
 *
 * LINEAR: x clamped into [0, n - 1], i0 = floor(x), w = x - i0, i1 = min(i0 + 1, n - 1);
 * the value is the sum over the corners of the product of the weights (1 - w for i0, w for
 * i1) times the element.  A corner of weight 0 is not read, so an integral coordinate
 * copies and an infinity beside it does not make NaN.  FLOAT16/32 compute in float32,
 * FLOAT64 in double; INT8/UINT8 in double, rounded to nearest (ties to even).
 * Example: {1, 2} to {4} at Scale 2: x = -0.25, 0.25, 0.75, 1.25 clamp to 0, 0.25, 0.75, 1,
 * giving 1, 1.25, 1.75, 2.
 *
 * Kernel.  The output is walked as rows of its last dimension; each dimension's output
 * index has its input offsets and weight in a table built at creation.  A row reads one
 * input row per combination of its outer dimensions' taps (at most 2^(D-1), fewer where a
 * weight is 0) and gathers along the last dimension.  Nearest rows that read the same input
 * row as the row before (upsampling) copy that output row instead.  Linear upsampling keeps
 * a few input rows interpolated along the last dimension (rs_cache), so an input row that
 * several output rows read (x2: two) is interpolated once and each output row is only their
 * weighted sum; the arithmetic, and so every bit, is that of interpolating per output row.
 * INT8/UINT8 compute in float32 where that is exact (dyadic_bits), else in double.  On x86
 * with AVX2 the float32 interpolations take 8 columns at a time (hrow_avx2_f32), and outputs
 * of 16 MiB or more are written with non-temporal stores (stream.c). */
#include "../kernels/no_contract.h" /* first: w0 * h0 + w1 * h1 rounded twice, on every CPU alike */
#include "../dmlc_internal.h"

#include <math.h>
#include <stdlib.h>

/* floor and ceil by hand, without libm's calls: exact for every double. */
static double rs_floor(double x)
{
    double t;
    if (!(x > -4503599627370496.0 && x < 4503599627370496.0)) return x; /* |x| >= 2^52 is integral; NaN */
    t = (double)(int64_t)x;
    return t > x ? t - 1 : t;
}

static double rs_ceil(double x) { return -rs_floor(-x); }

/* Round to nearest, ties to even, for |v| < 2^51: adding 1.5 * 2^52 leaves no fraction bits,
 * so the addition rounds v as the current (default: nearest-even) mode does. */
static double rs_round_even(double v)
{
    return (v + 6755399441055744.0) - 6755399441055744.0;
}

/* One tap of one output index: the input offset (elements, stride applied) of i0 and i1,
 * and i1's weight w (i0's is 1 - w; w == 0: i1 is not read). */
typedef struct rs_tap {
    int64_t off0, off1;
    double w;
    float wf; /* w in float32, for the kernels computing in float32 */
} rs_tap;

typedef struct rs_state {
    UINT ndim;
    UINT elem_size;
    DML_TENSOR_DATA_TYPE type;
    int linear;
    int avx2;                       /* the CPU has AVX2: the kernels' AVX2 builds */
    int reuse;                      /* output rows share input rows (upsampling the next-to-last dimension) */
    int exact8;                     /* INT8/UINT8 LINEAR computed in float32, exactly (dyadic_bits) */
    uint64_t out_sizes[DMLC_MAX_DIMS];
    int64_t out_strides[DMLC_MAX_DIMS];
    uint64_t rows;                  /* product of out_sizes[0 .. ndim-1) */
    rs_tap* taps[DMLC_MAX_DIMS];    /* out_sizes[d] each, inside the state's allocation */
    /* The last dimension's taps again, as arrays for the AVX2 rows (hrow_avx2_f32):
     * vec_cols, a multiple of 8, is how many leading columns they interpolate. */
    uint64_t vec_cols;
    int vec_narrow;                 /* every block reads within 8 elements: one vector of 8 */
    int32_t* vx0;
    int32_t* vx1;
    float* vw0; /* 1 - wf, in float32 */
    float* vw1; /* wf */
    int stream;                     /* linear rows go out through non-temporal stores */
} rs_state;

typedef struct rs_args {
    DML_INTERPOLATION_MODE mode;
    int rounding;                   /* -1: floor(x + 0.5); 0: INCREASING (ceil); 1: DECREASING (floor) */
    UINT count;                     /* ScaleCount / DimensionCount; 0 for UPSAMPLE_2D */
    const FLOAT* scales;
    const FLOAT* in_offsets;        /* NULL: 0.5 each (RESAMPLE, UPSAMPLE_2D) */
    const FLOAT* out_offsets;       /* NULL: -0.5 each */
    int upsample;
    DML_SIZE_2D scale_size;
} rs_args;

static rs_args read_args(DML_OPERATOR_TYPE type, const void* desc)
{
    rs_args a;
    memset(&a, 0, sizeof(a));
    a.rounding = -1;
    if (type == DML_OPERATOR_UPSAMPLE_2D) {
        const DML_UPSAMPLE_2D_OPERATOR_DESC* d = (const DML_UPSAMPLE_2D_OPERATOR_DESC*)desc;
        a.mode = d->InterpolationMode;
        a.upsample = 1;
        a.scale_size = d->ScaleSize;
    } else if (type == DML_OPERATOR_RESAMPLE) {
        const DML_RESAMPLE_OPERATOR_DESC* d = (const DML_RESAMPLE_OPERATOR_DESC*)desc;
        a.mode = d->InterpolationMode;
        a.count = d->ScaleCount;
        a.scales = d->Scales;
    } else if (type == DML_OPERATOR_RESAMPLE1) {
        const DML_RESAMPLE1_OPERATOR_DESC* d = (const DML_RESAMPLE1_OPERATOR_DESC*)desc;
        a.mode = d->InterpolationMode;
        a.count = d->DimensionCount;
        a.scales = d->Scales;
        a.in_offsets = d->InputPixelOffsets;
        a.out_offsets = d->OutputPixelOffsets;
    } else {
        const DML_RESAMPLE2_OPERATOR_DESC* d = (const DML_RESAMPLE2_OPERATOR_DESC*)desc;
        a.mode = d->InterpolationMode;
        a.rounding = (int)d->RoundingDirection;
        a.count = d->DimensionCount;
        a.scales = d->Scales;
        a.in_offsets = d->InputPixelOffsets;
        a.out_offsets = d->OutputPixelOffsets;
    }
    return a;
}

static const char* count_name(DML_OPERATOR_TYPE type)
{
    return type == DML_OPERATOR_RESAMPLE ? "ScaleCount" : "DimensionCount";
}

/* Scale, input offset and output offset of dimension d. */
static void axis_params(const rs_args* a, UINT ndim, UINT d, double* scale, double* in_off, double* out_off)
{
    if (a->upsample)
        *scale = d == ndim - 1 ? (double)a->scale_size.Width : d == ndim - 2 ? (double)a->scale_size.Height : 1.0;
    else
        *scale = (double)a->scales[d];
    *in_off = a->in_offsets ? (double)a->in_offsets[d] : 0.5;
    *out_off = a->out_offsets ? (double)a->out_offsets[d] : -0.5;
}

static int linear_type(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_FLOAT16 || t == DML_TENSOR_DATA_TYPE_FLOAT32 ||
           t == DML_TENSOR_DATA_TYPE_FLOAT64 || t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_UINT8;
}

/* Everything but the tensors' own validity; the output sizes into sh (out: the desc's
 * output tensor, whose sizes are free for RESAMPLE*; NULL only for UPSAMPLE_2D). */
static HRESULT validate(DML_OPERATOR_TYPE type, const char* opname, const rs_args* a, const dmlc_tensor* in,
                        const dmlc_tensor* out, dmlc_shapes* sh)
{
    char tb[DMLC_TYPE_NAME_SIZE];
    HRESULT hr;
    if ((UINT)a->mode > DML_INTERPOLATION_MODE_LINEAR)
        return dmlc_fail(E_INVALIDARG, opname, "InterpolationMode is %u, expected 0 (NEAREST_NEIGHBOR) or 1 (LINEAR)",
                         (UINT)a->mode);
    if (a->rounding != -1 && (UINT)a->rounding > DML_AXIS_DIRECTION_DECREASING)
        return dmlc_fail(E_INVALIDARG, opname, "RoundingDirection is %u, expected 0 (INCREASING) or 1 (DECREASING)",
                         (UINT)a->rounding);
    if (a->mode == DML_INTERPOLATION_MODE_LINEAR && !linear_type(in->type))
        return dmlc_fail(E_INVALIDARG, opname,
                         "InputTensor.DataType is %s, but LINEAR interpolation takes FLOAT16, FLOAT32, FLOAT64, INT8 or "
                         "UINT8 (NEAREST_NEIGHBOR takes every type)",
                         dmlc_data_type_name(in->type, tb));
    dmlc_shape_rank(sh, 0, in->ndim);
    if (a->upsample) {
        if (in->ndim != 4 && in->ndim != 5)
            return dmlc_fail(E_INVALIDARG, opname, "InputTensor.DimensionCount is %u, expected 4 or 5", in->ndim);
        if (a->scale_size.Width == 0 || a->scale_size.Height == 0)
            return dmlc_fail(E_INVALIDARG, opname, "ScaleSize is {Width %u, Height %u}, expected both at least 1",
                             a->scale_size.Width, a->scale_size.Height);
        for (UINT i = 0; i < in->ndim; ++i) {
            const UINT f = i == in->ndim - 1 ? a->scale_size.Width : i == in->ndim - 2 ? a->scale_size.Height : 1;
            if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", i, (uint64_t)in->sizes[i] * f,
                                              "InputTensor.Sizes[%u] %u * %s %u", i, in->sizes[i],
                                              i == in->ndim - 1 ? "ScaleSize.Width" : i == in->ndim - 2
                                                                                          ? "ScaleSize.Height"
                                                                                          : "1",
                                              f)))
                return hr;
        }
        return S_OK;
    }
    if (a->count != in->ndim)
        return dmlc_fail(E_INVALIDARG, opname, "%s is %u, expected %u (InputTensor.DimensionCount)", count_name(type),
                         a->count, in->ndim);
    for (UINT i = 0; i < a->count; ++i) {
        const double s = (double)a->scales[i];
        if (!(s > 0) || isinf(s))
            return dmlc_fail(E_INVALIDARG, opname, "Scales[%u] is %g, expected a finite value above 0", i, s);
        if (a->in_offsets && !isfinite((double)a->in_offsets[i]))
            return dmlc_fail(E_INVALIDARG, opname, "InputPixelOffsets[%u] is %g, expected a finite value", i,
                             (double)a->in_offsets[i]);
        if (a->out_offsets && !isfinite((double)a->out_offsets[i]))
            return dmlc_fail(E_INVALIDARG, opname, "OutputPixelOffsets[%u] is %g, expected a finite value", i,
                             (double)a->out_offsets[i]);
    }
    if (out && out->ndim != in->ndim)
        return dmlc_fail(E_INVALIDARG, opname, "OutputTensor.DimensionCount is %u, expected %u (InputTensor.DimensionCount)",
                         out->ndim, in->ndim);
    /* The output sizes are the operator's parameter: any size (at least 1; an empty input
     * axis, when inferring, keeps an empty output axis). */
    for (UINT i = 0; out && i < in->ndim; ++i) {
        if (in->sizes[i] == 0 && out->sizes[i] != 0)
            return dmlc_fail(E_INVALIDARG, opname,
                             "OutputTensor.Sizes[%u] is %u, but InputTensor.Sizes[%u] is 0: nothing to resample from", i,
                             out->sizes[i], i);
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", i, out->sizes[i], "OutputTensor.Sizes[%u]", i)))
            return hr;
    }
    return S_OK;
}

/* Output index o's tap along a dimension of input size n, stride s. */
static rs_tap make_tap(const rs_args* a, double scale, double in_off, double out_off, uint64_t o, UINT n, uint64_t s)
{
    rs_tap t;
    double x = (((double)o - out_off) / scale) - in_off;
    const double top = (double)n - 1;
    t.w = 0;
    if (a->mode == DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR) {
        double i = a->rounding == -1 ? rs_floor(x + 0.5) : a->rounding == DML_AXIS_DIRECTION_DECREASING ? rs_floor(x) : rs_ceil(x);
        i = i < 0 ? 0 : i > top ? top : i;
        t.off0 = t.off1 = (int64_t)i * (int64_t)s;
        t.wf = 0;
        return t;
    }
    x = x < 0 ? 0 : x > top ? top : x;
    {
        const double i0 = rs_floor(x);
        const int64_t k0 = (int64_t)i0;
        const int64_t k1 = k0 + 1 < (int64_t)n ? k0 + 1 : (int64_t)n - 1;
        t.w = x - i0;
        t.wf = (float)t.w;
        t.off0 = k0 * (int64_t)s;
        t.off1 = k1 * (int64_t)s;
    }
    return t;
}

/* The fraction bits of a weight w in [0, 1): the least k with w * 2^k whole, or
 * RS_EXACT_BITS + 1 when above RS_EXACT_BITS.  INT8/UINT8 values (8 bits of magnitude) times
 * weights whose bits over all dimensions add up to at most RS_EXACT_BITS, and every partial
 * sum of them (convex combinations, so at most 255 in magnitude), are exact in float32's 24
 * bits, as they are in double: the two compute the same exact value and round it once, to
 * the same integer.  Scales 2 and 1/2 (weights 0.25, 0.75 or 0.5) take 2 and 1 bits. */
#define RS_EXACT_BITS 16
static UINT dyadic_bits(double w)
{
    UINT k = 0;
    for (; k <= RS_EXACT_BITS && w != rs_floor(w); ++k) w *= 2;
    return k;
}

/* ---- Kernels ------------------------------------------------------------------------- */

/* The kernels' helpers are inlined into each build of a kernel (the AVX2 ones too: a call
 * per row into code built for plain x86-64 measured 2x slower there). */
#if defined(__GNUC__) || defined(__clang__)
#  define RS_INLINE static inline __attribute__((always_inline))
#else
#  define RS_INLINE static inline
#endif

typedef struct rs_job {
    const rs_state* st;
    const char* in;
    char* out;
} rs_job;

/* Where output row r starts: its multi-index over the outer dimensions. */
RS_INLINE void row_index(const rs_state* st, uint64_t r, uint64_t* idx)
{
    for (UINT d = st->ndim - 1; d-- > 0;) {
        idx[d] = r % st->out_sizes[d];
        r /= st->out_sizes[d];
    }
}

RS_INLINE void row_next(const rs_state* st, uint64_t* idx)
{
    for (UINT d = st->ndim - 1; d-- > 0;) {
        if (++idx[d] < st->out_sizes[d]) return;
        idx[d] = 0;
    }
}

RS_INLINE int64_t row_out_offset(const rs_state* st, const uint64_t* idx)
{
    int64_t off = 0;
    for (UINT d = 0; d + 1 < st->ndim; ++d) off += (int64_t)idx[d] * st->out_strides[d];
    return off;
}

#define RS_NEAREST(T)                                                                                              \
    static void nearest_row_##T(const rs_state* st, const char* src, char* dst, int64_t ostride)                  \
    {                                                                                                              \
        const rs_tap* tp = st->taps[st->ndim - 1];                                                                 \
        const uint64_t n = st->out_sizes[st->ndim - 1];                                                            \
        const T* s = (const T*)src;                                                                                \
        T* o = (T*)dst;                                                                                            \
        if (ostride == 1)                                                                                          \
            for (uint64_t j = 0; j < n; ++j) o[j] = s[tp[j].off0];                                                 \
        else                                                                                                       \
            for (uint64_t j = 0; j < n; ++j) o[(int64_t)j * ostride] = s[tp[j].off0];                              \
    }
RS_NEAREST(uint8_t)
RS_NEAREST(uint16_t)
RS_NEAREST(uint32_t)
RS_NEAREST(uint64_t)

static void nearest_rows(void* ctx, uint64_t begin, uint64_t end)
{
    const rs_job* job = (const rs_job*)ctx;
    const rs_state* st = job->st;
    const UINT es = st->elem_size;
    const int64_t ostride = st->out_strides[st->ndim - 1];
    const uint64_t n = st->out_sizes[st->ndim - 1];
    uint64_t idx[DMLC_MAX_DIMS];
    int64_t prev_base = -1;
    char* prev_out = NULL;
    row_index(st, begin, idx);
    for (uint64_t r = begin; r < end; ++r, row_next(st, idx)) {
        int64_t base = 0;
        char* dst = job->out + row_out_offset(st, idx) * (int64_t)es;
        for (UINT d = 0; d + 1 < st->ndim; ++d) base += st->taps[d][idx[d]].off0;
        if (base == prev_base && ostride == 1) {
            memcpy(dst, prev_out, (size_t)(n * es)); /* the same input row as the row before */
            continue;
        }
        switch (es) {
        case 1: nearest_row_uint8_t(st, job->in + base, dst, ostride); break;
        case 2: nearest_row_uint16_t(st, job->in + base * 2, dst, ostride); break;
        case 4: nearest_row_uint32_t(st, job->in + base * 4, dst, ostride); break;
        default: nearest_row_uint64_t(st, job->in + base * 8, dst, ostride); break;
        }
        prev_base = base;
        prev_out = dst;
    }
}

/* The input rows an output row reads: their offsets and weights (2^(D-1) at most). */
#define RS_MAX_COMBOS (1u << (DMLC_MAX_DIMS - 1))
RS_INLINE UINT row_combos(const rs_state* st, const uint64_t* idx, int64_t* offs, double* ws)
{
    UINT k = 1;
    offs[0] = 0;
    ws[0] = 1;
    for (UINT d = 0; d + 1 < st->ndim; ++d) {
        const rs_tap* t = &st->taps[d][idx[d]];
        const UINT m = k;
        if (t->w != 0)
            for (UINT c = 0; c < m; ++c) {
                offs[k] = offs[c] + t->off1;
                ws[k++] = ws[c] * t->w;
            }
        for (UINT c = 0; c < m; ++c) {
            offs[c] += t->off0;
            ws[c] *= 1 - t->w;
        }
    }
    return k;
}

/* The row cache: a thread's last few input rows interpolated along the last dimension
 * (one column tile of them), keyed by the input row's offset.  Upsampling reads each input
 * row for several output rows (x2: two), so each is interpolated once, not once per output
 * row; the slot to refill is the one used longest ago, never the one an output row has
 * just taken. */
#define RS_SLOTS 4
#define RS_SLOT_BYTES 8192

typedef struct rs_cache {
    int64_t key[RS_SLOTS];
    uint64_t used[RS_SLOTS];
    uint64_t clock;
} rs_cache;

RS_INLINE void cache_reset(rs_cache* c)
{
    for (UINT i = 0; i < RS_SLOTS; ++i) c->key[i] = -1, c->used[i] = 0;
    c->clock = 0;
}

/* The slot holding input row off: *fresh is 1 when the caller must fill it. */
RS_INLINE UINT cache_slot(rs_cache* c, int64_t off, int* fresh)
{
    UINT old = 0;
    ++c->clock;
    for (UINT i = 0; i < RS_SLOTS; ++i) {
        if (c->key[i] == off) {
            c->used[i] = c->clock;
            *fresh = 0;
            return i;
        }
        if (c->used[i] < c->used[old]) old = i;
    }
    c->key[old] = off;
    c->used[old] = c->clock;
    *fresh = 1;
    return old;
}

/* One input row's interpolation along the last dimension at output column j: i0's value
 * times 1 - w plus, where w is not 0, i1's value times w (selected, not branched on, so the
 * loop has no data-dependent branch; a weight-0 term never reaches the sum).  i1 is in
 * the row even where w is 0 (it is i0 at the row's end). */
#define RS_TAP(T, ACC, LOAD, WF, s, t, j)                                                                          \
    ((1 - (ACC)(t)[j].WF) * LOAD((s)[(t)[j].off0]) +                                                               \
     ((t)[j].WF != 0 ? (ACC)(t)[j].WF * LOAD((s)[(t)[j].off1]) : (ACC)0))

/* The AVX2 interpolation of an input row's columns [j0, j0 + m) into h, for float32 and
 * for INT8/UINT8 in float32, 8 columns at a time where their i0 and i1 lie within 16
 * elements of the block's first i0 (vec_cols: the leading columns whose blocks do, and
 * whose 16 elements are in the row): two vectors of 8 loaded from there, each column's
 * element picked by a permutation.  The same operations as RS_TAP, lane by lane, so the
 * same bits.  They return the columns done; the caller does the rest in C. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#  include <immintrin.h>
/* Columns [j, j + 8) of the row at s (j a multiple of 8 below vec_cols). */
#  define RS_HBLOCK(NAME, T, LOAD8)                                                                                 \
      __attribute__((target("avx2"), always_inline)) static inline __m256 NAME(const rs_state* st, const T* s,      \
                                                                               uint64_t j)                         \
      {                                                                                                            \
          const __m256i seven = _mm256_set1_epi32(7);                                                              \
          const int32_t base = st->vx0[j];                                                                         \
          const __m256i b = _mm256_set1_epi32(base);                                                               \
          const __m256i i0 = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i*)(st->vx0 + j)), b);               \
          const __m256i i1 = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i*)(st->vx1 + j)), b);               \
          const __m256 lo = LOAD8(s + base);                                                                       \
          const __m256 w1 = _mm256_loadu_ps(st->vw1 + j);                                                          \
          __m256 a = _mm256_permutevar8x32_ps(lo, i0), c = _mm256_permutevar8x32_ps(lo, i1);                       \
          if (!st->vec_narrow) {                                                                                   \
              const __m256 hi = LOAD8(s + base + 8);                                                               \
              a = _mm256_blendv_ps(a, _mm256_permutevar8x32_ps(hi, i0), _mm256_castsi256_ps(_mm256_cmpgt_epi32(i0, seven))); \
              c = _mm256_blendv_ps(c, _mm256_permutevar8x32_ps(hi, i1), _mm256_castsi256_ps(_mm256_cmpgt_epi32(i1, seven))); \
          }                                                                                                        \
          return _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(st->vw0 + j), a),                                     \
                               _mm256_and_ps(_mm256_mul_ps(w1, c), _mm256_cmp_ps(w1, _mm256_setzero_ps(), _CMP_NEQ_OQ))); \
      }
#  define RS_HROW(NAME, BLOCK, T)                                                                                   \
      __attribute__((target("avx2"))) static uint64_t NAME(const rs_state* st, const T* s, uint64_t j0,             \
                                                           uint64_t m, float* h)                                   \
      {                                                                                                            \
          const uint64_t top = st->vec_cols > j0 ? st->vec_cols - j0 : 0;                                          \
          uint64_t j = 0;                                                                                          \
          for (; j + 8 <= m && j + 8 <= top; j += 8) _mm256_storeu_ps(h + j, BLOCK(st, s, j0 + j));                \
          return j;                                                                                                \
      }
#  define RS_LOAD8_F32(p) _mm256_loadu_ps(p)
#  define RS_LOAD8_U8(p) _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)(const void*)(p))))
#  define RS_LOAD8_I8(p) _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i*)(const void*)(p))))
RS_HBLOCK(hblock_avx2_f32, float, RS_LOAD8_F32)
RS_HBLOCK(hblock_avx2_u8, uint8_t, RS_LOAD8_U8)
RS_HBLOCK(hblock_avx2_i8, int8_t, RS_LOAD8_I8)
RS_HROW(hrow_avx2_f32, hblock_avx2_f32, float)
RS_HROW(hrow_avx2_u8, hblock_avx2_u8, uint8_t)
RS_HROW(hrow_avx2_i8, hblock_avx2_i8, int8_t)
/* A float32 output row that no other reads the input rows of (downsampling): w0 * h0 + w1 *
 * h1 (k == 2) or h0 straight to dst, 8 columns at a time, nothing kept. */
__attribute__((target("avx2"))) static uint64_t direct_avx2_f32(const rs_state* st, const float* s0, const float* s1,
                                                                 UINT k, float w0, float w1, uint64_t j0, uint64_t m,
                                                                 float* dst)
{
    const uint64_t top = st->vec_cols > j0 ? st->vec_cols - j0 : 0;
    const __m256 v0 = _mm256_set1_ps(w0), v1 = _mm256_set1_ps(w1);
    uint64_t j = 0;
    if (k == 1)
        for (; j + 8 <= m && j + 8 <= top; j += 8) _mm256_storeu_ps(dst + j, hblock_avx2_f32(st, s0, j0 + j));
    else
        for (; j + 8 <= m && j + 8 <= top; j += 8)
            _mm256_storeu_ps(dst + j, _mm256_add_ps(_mm256_mul_ps(v0, hblock_avx2_f32(st, s0, j0 + j)),
                                                    _mm256_mul_ps(v1, hblock_avx2_f32(st, s1, j0 + j))));
    return j;
}
#  define RS_DVEC_f32(st, s0, s1, k, w0, w1, j0, m, dst, os) \
      ((os) == 1 ? direct_avx2_f32((st), (s0), (s1), (k), (w0), (w1), (j0), (m), (dst)) : 0)
#  define RS_DVEC_u8 RS_DVEC_none
#  define RS_DVEC_i8 RS_DVEC_none
#  define RS_HVEC_f32(st, s, j0, m, h) hrow_avx2_f32((st), (s), (j0), (m), (h))
#  define RS_HVEC_u8(st, s, j0, m, h) hrow_avx2_u8((st), (s), (j0), (m), (h))
#  define RS_HVEC_i8(st, s, j0, m, h) hrow_avx2_i8((st), (s), (j0), (m), (h))
#endif
/* The portable builds interpolate every column in C. */
#define RS_HVEC_none(st, s, j0, m, h) ((void)(st), (void)(s), (void)(j0), (void)(m), (void)(h), (uint64_t)0)
#define RS_DVEC_none(st, s0, s1, k, w0, w1, j0, m, dst, os) ((void)(s0), (void)(s1), (void)(w0), (void)(w1), (uint64_t)0)

/* Output row dst gets n values from v: directly, or through non-temporal stores from a
 * tile (rs_state.stream; the caller then fences). */
#define RS_EMIT(T, dst, m, ostride, EXPR)                                                                         \
    do {                                                                                                           \
        if (stream) {                                                                                              \
            for (uint64_t j = 0; j < m; ++j) tile[j] = (T)(EXPR);                                                  \
            dmlc_copy_stream_lines(dst, tile, (size_t)(m * sizeof(T)));                                            \
        } else if (ostride == 1)                                                                                   \
            for (uint64_t j = 0; j < m; ++j) dst[j] = (T)(EXPR);                                                   \
        else                                                                                                       \
            for (uint64_t j = 0; j < m; ++j) dst[(int64_t)j * ostride] = (T)(EXPR);                                \
    } while (0)

/* A linear kernel over output rows [begin, end), in column tiles: WF is the tap's weight
 * field in ACC's type (wf: float, w: double).  Each output row is the sum over the input
 * rows it reads (row_combos) of their weights times those rows' interpolations (from the
 * cache), in the order row_combos gives: one row is its interpolation, two are
 * w0 * h0 + w1 * h1, more accumulate. */
#define RS_LINEAR_DEF(NAME, ATTR, T, ACC, LOAD, STORE, WF, HVEC, DVEC)                                                \
    ATTR static void NAME(void* ctx, uint64_t begin, uint64_t end)                                                 \
    {                                                                                                              \
        enum { COLS = RS_SLOT_BYTES / sizeof(ACC) };                                                               \
        const rs_job* job = (const rs_job*)ctx;                                                                    \
        const rs_state* st = job->st;                                                                              \
        const uint64_t n = st->out_sizes[st->ndim - 1];                                                            \
        const int64_t ostride = st->out_strides[st->ndim - 1];                                                     \
        const T* in = (const T*)job->in;                                                                           \
        uint64_t idx[DMLC_MAX_DIMS];                                                                               \
        int64_t offs[RS_MAX_COMBOS];                                                                               \
        double ws[RS_MAX_COMBOS];                                                                                  \
        ACC rows[RS_SLOTS][COLS];                                                                                  \
        ACC acc[COLS];                                                                                             \
        T tile[COLS];                                                                                              \
        const int stream = st->stream;                                                                             \
        const ACC* h[RS_MAX_COMBOS];                                                                               \
        rs_cache cache;                                                                                            \
        for (uint64_t j0 = 0; j0 < n; j0 += COLS) {                                                                \
            const uint64_t m = n - j0 < COLS ? n - j0 : COLS;                                                      \
            const rs_tap* DMLC_RESTRICT tp = st->taps[st->ndim - 1] + j0;                                          \
            cache_reset(&cache);                                                                                   \
            row_index(st, begin, idx);                                                                             \
            for (uint64_t r = begin; r < end; ++r, row_next(st, idx)) {                                            \
                T* DMLC_RESTRICT dst = (T*)job->out + row_out_offset(st, idx) + (int64_t)j0 * ostride;             \
                const UINT k = row_combos(st, idx, offs, ws);                                                      \
                if (!st->reuse && k <= 2) { /* no other row reads these: interpolate them directly */              \
                    const T* DMLC_RESTRICT s0 = in + offs[0];                                                      \
                    const T* DMLC_RESTRICT s1 = in + offs[k - 1];                                                  \
                    const ACC w0 = (ACC)ws[0], w1 = (ACC)ws[k - 1];                                                \
                    const uint64_t jv = DVEC(st, s0, s1, k, w0, w1, j0, m, dst, ostride);                          \
                    if (k == 1)                                                                                    \
                        for (uint64_t j = jv; j < m; ++j) dst[(int64_t)j * ostride] = STORE(RS_TAP(T, ACC, LOAD, WF, s0, tp, j)); \
                    else                                                                                           \
                        for (uint64_t j = jv; j < m; ++j)                                                          \
                            dst[(int64_t)j * ostride] =                                                            \
                                STORE(w0 * RS_TAP(T, ACC, LOAD, WF, s0, tp, j) + w1 * RS_TAP(T, ACC, LOAD, WF, s1, tp, j)); \
                    continue;                                                                                      \
                }                                                                                                  \
                for (UINT c = 0; c < k; ++c) {                                                                     \
                    int fresh;                                                                                     \
                    ACC* DMLC_RESTRICT row = rows[cache_slot(&cache, offs[c], &fresh)];                            \
                    if (fresh) {                                                                                   \
                        const T* DMLC_RESTRICT s = in + offs[c];                                                   \
                        for (uint64_t j = HVEC(st, s, j0, m, row); j < m; ++j) row[j] = RS_TAP(T, ACC, LOAD, WF, s, tp, j); \
                    }                                                                                              \
                    h[c] = row;                                                                                    \
                    if (k > 2) {                                                                                   \
                        const ACC wc = (ACC)ws[c];                                                                 \
                        if (c == 0)                                                                                \
                            for (uint64_t j = 0; j < m; ++j) acc[j] = wc * row[j];                                 \
                        else                                                                                       \
                            for (uint64_t j = 0; j < m; ++j) acc[j] += wc * row[j];                                \
                    }                                                                                              \
                }                                                                                                  \
                if (k == 1) {                                                                                      \
                    const ACC* DMLC_RESTRICT h0 = h[0];                                                            \
                    RS_EMIT(T, dst, m, ostride, STORE(h0[j]));                                                     \
                } else if (k == 2) {                                                                               \
                    const ACC* DMLC_RESTRICT h0 = h[0];                                                            \
                    const ACC* DMLC_RESTRICT h1 = h[1];                                                            \
                    const ACC w0 = (ACC)ws[0], w1 = (ACC)ws[1];                                                    \
                    RS_EMIT(T, dst, m, ostride, STORE(w0 * h0[j] + w1 * h1[j]));                                   \
                } else {                                                                                           \
                    RS_EMIT(T, dst, m, ostride, STORE(acc[j]));                                                    \
                }                                                                                                  \
            }                                                                                                      \
        }                                                                                                          \
        if (stream) dmlc_stream_fence();                                                                           \
    }

/* Round to nearest, ties to even, for |v| < 2^22 (as rs_round_even, in float32). */
static float rs_round_evenf(float v)
{
    return (v + 12582912.0f) - 12582912.0f;
}

#define RS_ID(v) (v)
#define RS_HALF_LOAD(v) dmlc_half_to_float_inline(v)
#define RS_HALF_STORE(v) dmlc_float_to_half_inline(v)
#define RS_I8_STORE(v) ((int8_t)rs_round_even(v))
#define RS_U8_STORE(v) ((uint8_t)rs_round_even(v))
#define RS_I8_STOREF(v) ((int8_t)rs_round_evenf(v))
#define RS_U8_STOREF(v) ((uint8_t)rs_round_evenf(v))

/* Every kernel for any CPU and, on x86, again for AVX2 (32-byte vectors; the same
 * operations, unfused, so the same bits). */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#  define RS_HAVE_AVX2 1
#  define RS_LINEAR(NAME, T, ACC, LOAD, STORE, WF, VEC)                                                            \
      RS_LINEAR_DEF(NAME, , T, ACC, LOAD, STORE, WF, RS_HVEC_none, RS_DVEC_none)                                   \
      RS_LINEAR_DEF(NAME##_avx2, __attribute__((target("avx2"))), T, ACC, LOAD, STORE, WF, RS_HVEC_##VEC, RS_DVEC_##VEC)
#  define RS_PICK(NAME, avx2) ((avx2) ? NAME##_avx2 : NAME)
#else
#  define RS_HAVE_AVX2 0
#  define RS_LINEAR(NAME, T, ACC, LOAD, STORE, WF, VEC) RS_LINEAR_DEF(NAME, , T, ACC, LOAD, STORE, WF, RS_HVEC_none, RS_DVEC_none)
#  define RS_PICK(NAME, avx2) ((void)(avx2), NAME)
#endif

RS_LINEAR(linear_rows_f32, float, float, RS_ID, RS_ID, wf, f32)
RS_LINEAR(linear_rows_f64, double, double, RS_ID, RS_ID, w, none)
RS_LINEAR(linear_rows_f16, uint16_t, float, RS_HALF_LOAD, RS_HALF_STORE, wf, none)
RS_LINEAR(linear_rows_i8, int8_t, double, RS_ID, RS_I8_STORE, w, none)
RS_LINEAR(linear_rows_u8, uint8_t, double, RS_ID, RS_U8_STORE, w, none)
/* INT8/UINT8 in float32 where that is exact (rs_state.exact8): the same values as in
 * double, rounded once. */
RS_LINEAR(linear_rows_i8f, int8_t, float, RS_ID, RS_I8_STOREF, wf, i8)
RS_LINEAR(linear_rows_u8f, uint8_t, float, RS_ID, RS_U8_STOREF, wf, u8)

static void resample_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const rs_state* st = (const rs_state*)op->state;
    rs_job job;
    dmlc_range_fn fn = nearest_rows;
    uint64_t bytes = op->outputs[0].count * st->elem_size;
    job.st = st;
    job.in = (const char*)in[0];
    job.out = (char*)out[0];
    if (st->linear) {
        bytes *= 8; /* a few reads and multiplies per element */
        switch (st->type) {
        case DML_TENSOR_DATA_TYPE_FLOAT32: fn = RS_PICK(linear_rows_f32, st->avx2); break;
        case DML_TENSOR_DATA_TYPE_FLOAT64: fn = RS_PICK(linear_rows_f64, st->avx2); break;
        case DML_TENSOR_DATA_TYPE_FLOAT16: fn = RS_PICK(linear_rows_f16, st->avx2); break;
        case DML_TENSOR_DATA_TYPE_INT8:
            fn = st->exact8 ? RS_PICK(linear_rows_i8f, st->avx2) : RS_PICK(linear_rows_i8, st->avx2);
            break;
        default: fn = st->exact8 ? RS_PICK(linear_rows_u8f, st->avx2) : RS_PICK(linear_rows_u8, st->avx2); break;
        }
    }
    dmlc_parallel_for(st->rows, bytes, fn, &job);
}

/* ---- Entry points -------------------------------------------------------------------- */

HRESULT dmlc_infer_resample(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const rs_args a = read_args(type, desc);
    dmlc_tensor in, out;
    HRESULT hr;
    const UINT lo = a.upsample ? 4 : 1, hi = a.upsample ? 5 : DMLC_MAX_DIMS;
    if (FAILED(hr = dmlc_shapes_unary_input(sh, &in, *(const DML_TENSOR_DESC* const*)desc, opname, lo, hi)))
        return hr;
    if (!a.upsample) {
        /* The output's sizes are a parameter: read them (its buffer is not needed). */
        const DML_TENSOR_DESC* od = ((const DML_RESAMPLE_OPERATOR_DESC*)desc)->OutputTensor;
        if (FAILED(hr = dmlc_tensor_init(&out, od, opname, "OutputTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT_MAY_BE_EMPTY)) ||
            FAILED(hr = dmlc_tensor_same_type(&in, "InputTensor", &out, "OutputTensor", opname)))
            return hr;
    }
    return validate(type, opname, &a, &in, a.upsample ? NULL : &out, sh);
}

HRESULT dmlc_create_resample(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const rs_args a = read_args(type, desc);
    /* Every desc version starts with InputTensor, OutputTensor. */
    const DML_TENSOR_DESC* const* tensors = (const DML_TENSOR_DESC* const*)desc;
    dmlc_tensor in, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    HRESULT hr;
    DMLC_OPERATOR_T* o;
    rs_state* st;
    uint64_t total = 0, bytes, total_bits = 0;
    const UINT lo = a.upsample ? 4 : 1, hi = a.upsample ? 5 : DMLC_MAX_DIMS;

    if (FAILED(hr = dmlc_tensor_init_in_out(&in, tensors[0], &out, tensors[1], opname, lo, hi)) ||
        FAILED(hr = validate(type, opname, &a, &in, &out, &sh)))
        return hr;
    for (UINT d = 0; d < out.ndim; ++d) total += out.sizes[d]; /* at most 8 * (2^32 - 1) */
    bytes = total * sizeof(rs_tap) + out.sizes[out.ndim - 1] * 16; /* + vx0, vx1, vw0, vw1 */
    if (bytes > (uint64_t)(SIZE_MAX - sizeof(rs_state) - sizeof(rs_tap)))
        return dmlc_fail(E_OUTOFMEMORY, opname, "the output's %llu indices are too many to tabulate",
                         (unsigned long long)total);
    o = dmlc_operator_alloc_unary(type, opname, &in, &out, resample_execute,
                                  sizeof(rs_state) + sizeof(rs_tap) + (size_t)bytes);
    if (!o) return E_OUTOFMEMORY;
    st = (rs_state*)o->state;
    st->ndim = in.ndim;
    st->elem_size = in.elem_size;
    st->type = in.type;
    st->linear = a.mode == DML_INTERPOLATION_MODE_LINEAR;
    st->avx2 = RS_HAVE_AVX2 && dmlc_cpu_has(DMLC_CPU_AVX2);
    st->rows = 1;
    {
        /* The tables follow the state, aligned for rs_tap. */
        char* base = (char*)o->state + sizeof(rs_state);
        rs_tap* next = (rs_tap*)(base + (sizeof(rs_tap) - (uintptr_t)base % sizeof(rs_tap)) % sizeof(rs_tap));
        UINT bits[DMLC_MAX_DIMS] = {0};
        for (UINT d = 0; d < in.ndim; ++d) {
            double scale, in_off, out_off;
            axis_params(&a, in.ndim, d, &scale, &in_off, &out_off);
            st->out_sizes[d] = out.sizes[d];
            st->out_strides[d] = (int64_t)out.strides[d];
            if (d + 1 < in.ndim) st->rows *= out.sizes[d];
            st->taps[d] = next;
            for (uint64_t i = 0; i < out.sizes[d]; ++i) {
                UINT k;
                next[i] = make_tap(&a, scale, in_off, out_off, i, in.sizes[d], in.strides[d]);
                k = dyadic_bits(next[i].w);
                bits[d] = k > bits[d] ? k : bits[d];
            }
            next += out.sizes[d];
            total_bits += bits[d];
        }
        {
            const UINT L = in.ndim - 1;
            const uint64_t n = out.sizes[L], row = (uint64_t)(in.sizes[L] - 1) * in.strides[L] + 1; /* elements */
            const rs_tap* t = st->taps[L];
            st->vx0 = (int32_t*)next;
            st->vx1 = st->vx0 + n;
            st->vw0 = (float*)(st->vx1 + n);
            st->vw1 = st->vw0 + n;
            st->vec_cols = 0;
            for (uint64_t i = 0; st->linear && i < n; ++i) {
                st->vx0[i] = (int32_t)t[i].off0;
                st->vx1[i] = (int32_t)t[i].off1;
                st->vw0[i] = 1 - t[i].wf;
                st->vw1[i] = t[i].wf;
            }
            /* Blocks of 8 columns reading within 8 (narrow: upsampling) or 16 elements of their
             * first i0, all in the row. */
            for (UINT span = 8; span <= 16 && !st->vec_cols; span += 8) {
                while (st->linear && row <= INT32_MAX && st->vec_cols + 8 <= n) {
                    const int64_t b = t[st->vec_cols].off0;
                    int fits = b + span <= (int64_t)row;
                    for (UINT i = 0; i < 8; ++i)
                        fits &= t[st->vec_cols + i].off0 - b < span && t[st->vec_cols + i].off1 - b < span;
                    if (!fits) break;
                    st->vec_cols += 8;
                }
                st->vec_narrow = span == 8;
            }
        }
    }
    st->exact8 = (in.type == DML_TENSOR_DATA_TYPE_INT8 || in.type == DML_TENSOR_DATA_TYPE_UINT8) &&
                 total_bits <= RS_EXACT_BITS;
    /* Rows go through the cache when they share input rows, or when the AVX2 rows
     * interpolate INT8/UINT8 in float32 (float32 rows that share none go straight out). */
    st->reuse = (in.ndim >= 2 && out.sizes[in.ndim - 2] > in.sizes[in.ndim - 2]) || (st->avx2 && st->vec_cols && st->exact8);
    st->stream = st->linear && out.strides[out.ndim - 1] == 1 && dmlc_cpu_has(DMLC_CPU_SSE2) &&
                 o->outputs[0].count * in.elem_size >= DMLC_STREAM_MIN_BYTES;
    *op = o;
    return S_OK;
}
