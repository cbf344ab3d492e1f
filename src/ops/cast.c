/* cast.c - DML_OPERATOR_CAST: every element converted to the output's data type.
 *
 * Any of the eleven types to any of the eleven (docs: the CAST operator page).  The rules:
 *   same type          the bits;
 *   float -> float     round to nearest even, overflow to +-inf, subnormals and -0.0 kept,
 *   int -> float       NaN stays NaN (payload free); an integer rounds once from its exact
 *                      value (int64 2^53 + 2^29 + 1 -> float32 2^53 + 2^30, never via double);
 *   float -> int       truncate toward zero, then saturate to the type's range (+-inf too);
 *                      NaN -> 0;
 *   int -> int         the low bits, two's complement (int32 200 -> int8 -56).
 * The walk is one copy plan over the logical index space (any strides, broadcasting
 * inputs), whose innermost rows go to one row function per (source, destination) pair:
 * the type switch happens once, at creation.  FLOAT16 <-> FLOAT32 rows use x86's F16C
 * where the CPU has it (the same rounding as the portable src/kernels/half.h).  An output of
 * DMLC_STREAM_MIN_BYTES or more, no narrower than the input, has its contiguous rows
 * converted piece by piece and written with non-temporal stores (dmlc_stream_generated):
 * float16 -> float32 of (8, 64, 224, 224) on two shared cores in 11.6 ms instead of 24.7. */
#include "../dmlc_internal.h"

/* ---- Conversions to each destination, from the four source kinds ----------------------
 * A source element is loaded as int64_t (signed integers), uint64_t (unsigned), float
 * (FLOAT16, FLOAT32) or double (FLOAT64): every value exactly. */

/* Float to integer: truncate, saturate, NaN -> 0.  lo is the type's minimum and hi 2^bits
 * (2^(bits-1) signed), both exact doubles: v <= lo gives the minimum (values in (lo-1, lo]
 * truncate to it anyway), v >= hi the maximum. */
#define CAST_SATURATE(NAME, T, MIN, MAX, HI)                                                               \
    static inline T cast_sat_##NAME(double v)                                                              \
    {                                                                                                      \
        if (v != v) return 0;                                                                              \
        if (v <= (double)(MIN)) return (MIN);                                                              \
        if (v >= (HI)) return (MAX);                                                                       \
        return (T)v;                                                                                       \
    }
CAST_SATURATE(i8, int8_t, INT8_MIN, INT8_MAX, 128.0)
CAST_SATURATE(i16, int16_t, INT16_MIN, INT16_MAX, 32768.0)
CAST_SATURATE(i32, int32_t, INT32_MIN, INT32_MAX, 2147483648.0)
CAST_SATURATE(i64, int64_t, INT64_MIN, INT64_MAX, 9223372036854775808.0)
CAST_SATURATE(u8, uint8_t, 0, UINT8_MAX, 256.0)
CAST_SATURATE(u16, uint16_t, 0, UINT16_MAX, 65536.0)
CAST_SATURATE(u32, uint32_t, 0, UINT32_MAX, 4294967296.0)
CAST_SATURATE(u64, uint64_t, 0, UINT64_MAX, 18446744073709551616.0)
#undef CAST_SATURATE

/* to_<dst>_<kind>(v): i int64_t, u uint64_t, f float, d double.  Integers keep their low
 * bits (the conversion to a narrower unsigned type is modulo 2^bits in C; to a narrower
 * signed type every compiler dmlc supports does the same).  Integer -> FLOAT16 goes
 * through float: exact below 2^24, and anything at or above 2^24 is past FLOAT16's
 * largest finite 65504 either way, so it rounds once. */
#define CAST_TO_INT(NAME, T)                                                                               \
    static inline T to_##NAME##_i(int64_t v) { return (T)v; }                                              \
    static inline T to_##NAME##_u(uint64_t v) { return (T)v; }                                             \
    static inline T to_##NAME##_f(float v) { return cast_sat_##NAME((double)v); }                          \
    static inline T to_##NAME##_d(double v) { return cast_sat_##NAME(v); }
CAST_TO_INT(i8, int8_t)
CAST_TO_INT(i16, int16_t)
CAST_TO_INT(i32, int32_t)
CAST_TO_INT(i64, int64_t)
CAST_TO_INT(u8, uint8_t)
CAST_TO_INT(u16, uint16_t)
CAST_TO_INT(u32, uint32_t)
CAST_TO_INT(u64, uint64_t)
#undef CAST_TO_INT
static inline float to_f32_i(int64_t v) { return (float)v; }
static inline float to_f32_u(uint64_t v) { return (float)v; }
static inline float to_f32_f(float v) { return v; }
static inline float to_f32_d(double v) { return (float)v; }
static inline double to_f64_i(int64_t v) { return (double)v; }
static inline double to_f64_u(uint64_t v) { return (double)v; }
static inline double to_f64_f(float v) { return (double)v; }
static inline double to_f64_d(double v) { return v; }
static inline uint16_t to_f16_i(int64_t v) { return dmlc_float_to_half_inline((float)v); }
static inline uint16_t to_f16_u(uint64_t v) { return dmlc_float_to_half_inline((float)v); }
static inline uint16_t to_f16_f(float v) { return dmlc_float_to_half_inline(v); }
static inline uint16_t to_f16_d(double v) { return dmlc_double_to_half_inline(v); }

/* ---- Row functions: one per (source, destination) pair ---------------------------------
 * CAST_ROW(S, ST, KIND, LOAD, D, DT): rows of ST elements into DT elements; LOAD(x) turns
 * a source element into its kind's value.  The contiguous case is its own loop, which the
 * compiler vectorises. */
#define LOAD_PLAIN(x) (x)
#define LOAD_HALF(x) dmlc_half_to_float_inline(x)
#define CAST_ROW(S, ST, KIND, LOAD, D, DT)                                                                 \
    static void cast_##S##_##D(const void* ctx, void* dst, int64_t ds, const void* src, int64_t ss,        \
                               uint64_t n)                                                                 \
    {                                                                                                      \
        DT* d = (DT*)dst;                                                                                  \
        const ST* s = (const ST*)src;                                                                      \
        (void)ctx;                                                                                         \
        if (ds == 1 && ss == 1) {                                                                          \
            for (uint64_t i = 0; i < n; ++i) d[i] = to_##D##_##KIND(LOAD(s[i]));                           \
            return;                                                                                        \
        }                                                                                                  \
        for (uint64_t i = 0; i < n; ++i) d[(int64_t)i * ds] = to_##D##_##KIND(LOAD(s[(int64_t)i * ss]));   \
    }
/* Every destination, for one source. */
#define CAST_ROWS(S, ST, KIND, LOAD)                                                                       \
    CAST_ROW(S, ST, KIND, LOAD, f64, double)                                                               \
    CAST_ROW(S, ST, KIND, LOAD, f32, float)                                                                \
    CAST_ROW(S, ST, KIND, LOAD, f16, uint16_t)                                                             \
    CAST_ROW(S, ST, KIND, LOAD, i64, int64_t)                                                              \
    CAST_ROW(S, ST, KIND, LOAD, i32, int32_t)                                                              \
    CAST_ROW(S, ST, KIND, LOAD, i16, int16_t)                                                              \
    CAST_ROW(S, ST, KIND, LOAD, i8, int8_t)                                                                \
    CAST_ROW(S, ST, KIND, LOAD, u64, uint64_t)                                                             \
    CAST_ROW(S, ST, KIND, LOAD, u32, uint32_t)                                                             \
    CAST_ROW(S, ST, KIND, LOAD, u16, uint16_t)                                                             \
    CAST_ROW(S, ST, KIND, LOAD, u8, uint8_t)
CAST_ROWS(f64, double, d, LOAD_PLAIN)
CAST_ROWS(f32, float, f, LOAD_PLAIN)
CAST_ROWS(f16, uint16_t, f, LOAD_HALF)
CAST_ROWS(i64, int64_t, i, LOAD_PLAIN)
CAST_ROWS(i32, int32_t, i, LOAD_PLAIN)
CAST_ROWS(i16, int16_t, i, LOAD_PLAIN)
CAST_ROWS(i8, int8_t, i, LOAD_PLAIN)
CAST_ROWS(u64, uint64_t, u, LOAD_PLAIN)
CAST_ROWS(u32, uint32_t, u, LOAD_PLAIN)
CAST_ROWS(u16, uint16_t, u, LOAD_PLAIN)
CAST_ROWS(u8, uint8_t, u, LOAD_PLAIN)
#undef CAST_ROWS
#undef CAST_ROW
#undef LOAD_PLAIN
#undef LOAD_HALF

/* The table's index of a data type: FLOAT64, FLOAT32, FLOAT16, INT64 ... UINT8, the order
 * of the rows above; -1 for a type dmlc lacks. */
static int cast_index(DML_TENSOR_DATA_TYPE t)
{
    switch ((int)t) {
    case DML_TENSOR_DATA_TYPE_FLOAT64: return 0;
    case DML_TENSOR_DATA_TYPE_FLOAT32: return 1;
    case DML_TENSOR_DATA_TYPE_FLOAT16: return 2;
    case DML_TENSOR_DATA_TYPE_INT64: return 3;
    case DML_TENSOR_DATA_TYPE_INT32: return 4;
    case DML_TENSOR_DATA_TYPE_INT16: return 5;
    case DML_TENSOR_DATA_TYPE_INT8: return 6;
    case DML_TENSOR_DATA_TYPE_UINT64: return 7;
    case DML_TENSOR_DATA_TYPE_UINT32: return 8;
    case DML_TENSOR_DATA_TYPE_UINT16: return 9;
    case DML_TENSOR_DATA_TYPE_UINT8: return 10;
    default: return -1;
    }
}

#define CAST_TABLE_ROW(S)                                                                                  \
    {cast_##S##_f64, cast_##S##_f32, cast_##S##_f16, cast_##S##_i64, cast_##S##_i32, cast_##S##_i16,      \
     cast_##S##_i8, cast_##S##_u64, cast_##S##_u32, cast_##S##_u16, cast_##S##_u8}
static const dmlc_row_fn cast_table[11][11] = {
    CAST_TABLE_ROW(f64), CAST_TABLE_ROW(f32), CAST_TABLE_ROW(f16), CAST_TABLE_ROW(i64),
    CAST_TABLE_ROW(i32), CAST_TABLE_ROW(i16), CAST_TABLE_ROW(i8),  CAST_TABLE_ROW(u64),
    CAST_TABLE_ROW(u32), CAST_TABLE_ROW(u16), CAST_TABLE_ROW(u8)};
#undef CAST_TABLE_ROW

/* ---- FLOAT16 <-> FLOAT32 with F16C (x86, chosen at run time) ----------------------------
 * Eight elements per instruction; the same rounding as the portable rows (to nearest even,
 * overflow to infinity), NaN staying NaN.  Strided rows and the tails take the portable
 * code. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#  define CAST_HAVE_F16C 1
#  include <immintrin.h>
#  define CAST_TARGET __attribute__((target("avx,f16c")))

static CAST_TARGET void cast_f32_f16_f16c(const void* ctx, void* dst, int64_t ds, const void* src, int64_t ss,
                                          uint64_t n)
{
    uint16_t* d = (uint16_t*)dst;
    const float* s = (const float*)src;
    uint64_t i = 0;
    if (ds != 1 || ss != 1) {
        cast_f32_f16(ctx, dst, ds, src, ss, n);
        return;
    }
    for (; i + 16 <= n; i += 16) {
        const __m128i a = _mm256_cvtps_ph(_mm256_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT);
        const __m128i b = _mm256_cvtps_ph(_mm256_loadu_ps(s + i + 8), _MM_FROUND_TO_NEAREST_INT);
        _mm_storeu_si128((__m128i*)(d + i), a);
        _mm_storeu_si128((__m128i*)(d + i + 8), b);
    }
    cast_f32_f16(ctx, d + i, 1, s + i, 1, n - i);
}

static CAST_TARGET void cast_f16_f32_f16c(const void* ctx, void* dst, int64_t ds, const void* src, int64_t ss,
                                          uint64_t n)
{
    float* d = (float*)dst;
    const uint16_t* s = (const uint16_t*)src;
    uint64_t i = 0;
    if (ds != 1 || ss != 1) {
        cast_f16_f32(ctx, dst, ds, src, ss, n);
        return;
    }
    for (; i + 16 <= n; i += 16) {
        _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(s + i))));
        _mm256_storeu_ps(d + i + 8, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(s + i + 8))));
    }
    cast_f16_f32(ctx, d + i, 1, s + i, 1, n - i);
}
#else
#  define CAST_HAVE_F16C 0
#endif

static dmlc_row_fn cast_row_for(DML_TENSOR_DATA_TYPE from, DML_TENSOR_DATA_TYPE to)
{
#if CAST_HAVE_F16C
    if (dmlc_cpu_has(DMLC_CPU_F16C)) {
        if (from == DML_TENSOR_DATA_TYPE_FLOAT32 && to == DML_TENSOR_DATA_TYPE_FLOAT16) return cast_f32_f16_f16c;
        if (from == DML_TENSOR_DATA_TYPE_FLOAT16 && to == DML_TENSOR_DATA_TYPE_FLOAT32) return cast_f16_f32_f16c;
    }
#endif
    return cast_table[cast_index(from)][cast_index(to)];
}

/* ---- The operator ------------------------------------------------------------------------ */
typedef struct cast_state {
    dmlc_copy_plan plan;
    dmlc_row_fn row; /* NULL: same type, the bits are copied */
    int stream;      /* a large output, no narrower than the input: contiguous rows streamed */
} cast_state;

/* A contiguous row converted piece by piece into a buffer, then streamed (the output is
 * written to memory without being read first: a third less memory traffic). */
typedef struct cast_piece {
    const cast_state* st;
    const char* src;
} cast_piece;

static void cast_pieces(const void* ctx, void* out, uint64_t i0, uint64_t m)
{
    const cast_piece* p = (const cast_piece*)ctx;
    p->st->row(NULL, out, 1, p->src + i0 * p->st->plan.src_elem_size, 1, m);
}

static void cast_row_streamed(const void* ctx, void* dst, int64_t ds, const void* src, int64_t ss, uint64_t n)
{
    cast_piece p;
    p.st = (const cast_state*)ctx;
    p.src = (const char*)src;
    if (ds != 1 || ss != 1) {
        p.st->row(NULL, dst, ds, src, ss, n);
        return;
    }
    dmlc_stream_generated(dst, n, p.st->plan.elem_size, cast_pieces, &p, 1);
}

static void cast_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const cast_state* st = (const cast_state*)op->state;
    if (st->row && st->stream)
        dmlc_map_run(&st->plan, out[0], in[0], cast_row_streamed, st);
    else if (st->row)
        dmlc_map_run(&st->plan, out[0], in[0], st->row, NULL);
    else
        dmlc_copy_run(&st->plan, out[0], in[0]);
}

/* CAST has no fields but its tensors: nothing to read. */

/* The output has the input's sizes; its data type is free. */
static HRESULT validate(const dmlc_tensor* in, dmlc_shapes* sh)
{
    HRESULT hr;
    dmlc_shape_rank(sh, 0, in->ndim);
    for (UINT k = 0; k < in->ndim; ++k)
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", k, in->sizes[k], "InputTensor.Sizes[%u]", k)))
            return hr;
    return S_OK;
}

static void plan(cast_state* st, const dmlc_tensor* in, const dmlc_tensor* out)
{
    uint64_t sizes[DMLC_MAX_DIMS];
    int64_t ds[DMLC_MAX_DIMS], ss[DMLC_MAX_DIMS];
    for (UINT k = 0; k < in->ndim; ++k) {
        sizes[k] = in->sizes[k];
        ds[k] = (int64_t)out->strides[k];
        ss[k] = (int64_t)in->strides[k];
    }
    dmlc_copy_plan_init(&st->plan, out->elem_size, in->ndim, sizes, ds, ss);
    st->plan.src_elem_size = in->elem_size;
    st->row = in->type == out->type ? NULL : cast_row_for(in->type, out->type);
    /* Only where the output is at least as wide as the input, so its writes are half the
     * traffic or more: a narrowing cast measured slower streamed (float32 -> float16 and
     * int64 -> int32 on one thread) and no faster on two. */
    st->stream = DMLC_HAVE_STREAM && dmlc_cpu_has(DMLC_CPU_SSE2) && out->elem_size >= in->elem_size &&
                 out->count * out->elem_size >= DMLC_STREAM_MIN_BYTES;
}

HRESULT dmlc_infer_cast(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const DML_CAST_OPERATOR_DESC* d = (const DML_CAST_OPERATOR_DESC*)desc;
    dmlc_tensor in;
    HRESULT hr;
    (void)type;
    if (FAILED(hr = dmlc_shapes_unary_input(sh, &in, d->InputTensor, opname, 1, DMLC_MAX_DIMS))) return hr;
    return validate(&in, sh);
}

HRESULT dmlc_create_cast(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const DML_CAST_OPERATOR_DESC* d = (const DML_CAST_OPERATOR_DESC*)desc;
    dmlc_tensor in, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    HRESULT hr;
    DMLC_OPERATOR_T* o;

    if (FAILED(hr = dmlc_tensor_init(&in, d->InputTensor, opname, "InputTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&out, d->OutputTensor, opname, "OutputTensor", 1, DMLC_MAX_DIMS, DMLC_OUTPUT)) ||
        FAILED(hr = dmlc_tensor_same_rank(&in, "InputTensor", &out, "OutputTensor", opname)) ||
        FAILED(hr = validate(&in, &sh)))
        return hr;
    o = dmlc_operator_alloc_unary(type, opname, &in, &out, cast_execute, sizeof(cast_state));
    if (!o) return E_OUTOFMEMORY;
    plan((cast_state*)o->state, &in, &out);
    *op = o;
    return S_OK;
}
