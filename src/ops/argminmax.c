/* argminmax.c - DML_OPERATOR_ARGMIN and DML_OPERATOR_ARGMAX: the index of the least or
 * greatest element over a set of axes (docs/operators/argmax.rst).
 *
 * Output sizes are the input's with 1 on every reduced axis.  For an output position, the
 * reduced set is the inputs that agree with it on every kept axis; an element's index is
 * its row-major position over the reduced axes taken in increasing dimension order (all
 * axes: the flat index).  The order is total: numbers by value (-0.0 equals +0.0), every
 * NaN above +inf and equal to every other NaN.  Of equal elements, AxisDirection
 * INCREASING picks the smallest index, DECREASING the largest.
 *
 * Each value becomes an integer key that orders exactly so (a float's bits made two's
 * complement, every NaN one key above +inf's); ARGMIN takes the greatest of the keys'
 * complements (~ reverses an integer order).  The reduced set is walked as rows (the
 * innermost reduced axis, neighbours merged where memory allows) in blocks: a block's
 * greatest key is a loop the compiler vectorises, and only a block that beats the best so
 * far is searched for its index.  Many outputs are shared out across threads; few outputs
 * over many elements (an argmax of a whole tensor) split each reduced set into parts whose
 * winners are then combined by the same rule. */
#include "../dmlc_internal.h"
#include "../kernels/order.h"

#include <math.h>

#define AM_BLOCK 512 /* elements of a 4-byte type per block: a block is 2 KiB of any type */
#define AM_BLOCK_OF(T) (AM_BLOCK * 4 / sizeof(T))
#define AM_MAX_PARTS 64  /* parts per reduced set when the outputs are few */
#define AM_MAX_ITEMS 256 /* outputs x parts: the partial results live on the stack */

typedef struct am_state am_state;

/* Updates (*best, *idx) with the elements [c0, c1) of one row of n elements (stride in
 * elements), whose indices start at base.  *idx == UINT64_MAX: nothing seen yet. */
typedef void (*am_row_fn)(const am_state* st, const char* row, int64_t stride, uint64_t c0, uint64_t c1, uint64_t base,
                          int64_t* best, uint64_t* idx);

struct am_state {
    UINT elem_size;
    UINT out_size;           /* 4 or 8 */
    int decreasing;          /* AxisDirection DECREASING: the last of equal elements */
    int64_t mask;            /* 0 (ARGMAX) or -1 (ARGMIN): keys are xor'ed with it */
    int avx2;                /* the CPU has AVX2: FLOAT32 blocks (am_fast_f32), the integer kernels */
    am_row_fn row;
    /* Kept axes (outermost first), size-1 axes dropped. */
    UINT kept;
    uint64_t kept_sizes[DMLC_MAX_DIMS];
    int64_t kept_in[DMLC_MAX_DIMS], kept_out[DMLC_MAX_DIMS];
    uint64_t outputs;        /* product of kept_sizes */
    /* Reduced axes, merged; the last is the row. */
    UINT red;
    uint64_t red_sizes[DMLC_MAX_DIMS];
    int64_t red_in[DMLC_MAX_DIMS];
    uint64_t reduced;        /* product of red_sizes */
    uint64_t parts;          /* parts per reduced set (1: one item per output) */
};

/* ---- Keys: src/kernels/order.h (shared with TOP_K) ---------------------------------------- */
#define key_f32 dmlc_key_f32
#define key_f64 dmlc_key_f64
#define key_f16 dmlc_key_f16
#define key_u64 dmlc_key_u64

/* The end of a block whose greatest key is m: it wins (the first block, a greater key, or
 * with DECREASING an equal one) and becomes the one to search, once, when the row is done
 * (a row whose best rises block after block would otherwise search each of them). */
#define AM_TAKE_BLOCK()                                                                                         \
    if ((bi == UINT64_MAX && ws == UINT64_MAX) || (int64_t)m > b || (dec && (int64_t)m == b)) {                  \
        b = (int64_t)m;                                                                                          \
        ws = s;                                                                                                  \
        we = e;                                                                                                  \
    }

/* The index of the winning block's first (last) element with key b. */
#define AM_FIND_INDEX(KEYT, KEY)                                                                                \
    if (ws != UINT64_MAX) {                                                                                      \
        const KEYT want = (KEYT)b;                                                                               \
        uint64_t i;                                                                                              \
        if (dec)                                                                                                 \
            for (i = we - 1; (KEYT)(KEY(x[(int64_t)i * stride]) ^ mask) != want; --i) {}                         \
        else                                                                                                     \
            for (i = ws; (KEYT)(KEY(x[(int64_t)i * stride]) ^ mask) != want; ++i) {}                             \
        bi = base + i;                                                                                           \
    }

/* One row kernel per storage type.  The block maximum is branch-free (vectorised for unit
 * strides); a block is searched only if it holds a key that wins.  An integer type's key
 * is its own type (xor with the mask reverses its order), so a vector holds as many keys
 * as elements: 32 of UINT8 in an AVX2 register.  ATTR: where the CPU has AVX2, the same
 * kernel is compiled a second time for it (AM_ROW_AVX2 below). */
#define AM_ROW_DEF(FN, ATTR, T, KEYT, KEY)                                                                      \
    ATTR static void FN(const am_state* st, const char* row, int64_t stride, uint64_t c0, uint64_t c1,          \
                        uint64_t base, int64_t* best, uint64_t* idx)                                             \
    {                                                                                                            \
        const T* x = (const T*)(const void*)row;                                                                 \
        const KEYT mask = (KEYT)st->mask;                                                                        \
        const int dec = st->decreasing;                                                                          \
        int64_t b = *best;                                                                                       \
        uint64_t bi = *idx, ws = UINT64_MAX, we = 0; /* the winning block of this row: [ws, we) */            \
        for (uint64_t s = c0; s < c1;) {                                                                         \
            const uint64_t e = c1 - s < AM_BLOCK_OF(T) ? c1 : s + AM_BLOCK_OF(T);                                \
            KEYT m = (KEYT)(KEY(x[(int64_t)s * stride]) ^ mask);                                                 \
            if (stride == 1) {                                                                                   \
                for (uint64_t i = s + 1; i < e; ++i) {                                                           \
                    const KEYT k = (KEYT)(KEY(x[i]) ^ mask);                                                     \
                    m = k > m ? k : m;                                                                           \
                }                                                                                                \
            } else {                                                                                             \
                for (uint64_t i = s + 1; i < e; ++i) {                                                           \
                    const KEYT k = (KEYT)(KEY(x[(int64_t)i * stride]) ^ mask);                                   \
                    m = k > m ? k : m;                                                                           \
                }                                                                                                \
            }                                                                                                    \
            AM_TAKE_BLOCK()                                                                                      \
            s = e;                                                                                               \
        }                                                                                                        \
        AM_FIND_INDEX(KEYT, KEY)                                                                                 \
        *best = b;                                                                                               \
        *idx = bi;                                                                                               \
    }
#define AM_ROW(NAME, T, KEYT, KEY) AM_ROW_DEF(am_row_##NAME, , T, KEYT, KEY)

/* FLOAT32 and FLOAT64: the block's extreme by the values themselves (max/min instructions)
 * and, beside it, whether the block holds a NaN (ARGMAX: then a NaN wins) or a number
 * (ARGMIN: else every element is a NaN); the block's key follows from those two.  The
 * search for the index uses the keys, as above. */
#define AM_ROW_FLOAT(NAME, T, KEYT, KEY, FAST)                                                                      \
    static void am_row_##NAME(const am_state* st, const char* row, int64_t stride, uint64_t c0, uint64_t c1,    \
                              uint64_t base, int64_t* best, uint64_t* idx)                                       \
    {                                                                                                            \
        const T* x = (const T*)(const void*)row;                                                                 \
        const KEYT mask = (KEYT)st->mask;                                                                        \
        const int dec = st->decreasing, least = st->mask != 0;                                                   \
        const KEYT nan_key = (KEYT)(KEY((T)NAN) ^ mask);                                                         \
        int64_t b = *best;                                                                                       \
        uint64_t bi = *idx, ws = UINT64_MAX, we = 0; /* the winning block of this row: [ws, we) */            \
        for (uint64_t s = c0; s < c1;) {                                                                         \
            const uint64_t e = c1 - s < AM_BLOCK ? c1 : s + AM_BLOCK;                                            \
            KEYT m;                                                                                              \
            if (stride != 1) {                                                                                   \
                m = (KEYT)(KEY(x[(int64_t)s * stride]) ^ mask);                                                  \
                for (uint64_t i = s + 1; i < e; ++i) {                                                           \
                    const KEYT k = (KEYT)(KEY(x[(int64_t)i * stride]) ^ mask);                                   \
                    m = k > m ? k : m;                                                                           \
                }                                                                                                \
            } else if (FAST(st, x + s, e - s, &m)) {                                                             \
            } else if (least) {                                                                                  \
                T v = (T)INFINITY;                                                                               \
                int number = 0;                                                                                  \
                for (uint64_t i = s; i < e; ++i) {                                                               \
                    v = x[i] < v ? x[i] : v;                                                                     \
                    number |= x[i] == x[i];                                                                      \
                }                                                                                                \
                m = number ? (KEYT)(KEY(v) ^ mask) : nan_key;                                                    \
            } else {                                                                                             \
                T v = (T)-INFINITY;                                                                              \
                int nan = 0;                                                                                     \
                for (uint64_t i = s; i < e; ++i) {                                                               \
                    v = x[i] > v ? x[i] : v;                                                                     \
                    nan |= x[i] != x[i];                                                                         \
                }                                                                                                \
                m = nan ? nan_key : (KEYT)(KEY(v) ^ mask);                                                       \
            }                                                                                                    \
            AM_TAKE_BLOCK()                                                                                      \
            s = e;                                                                                               \
        }                                                                                                        \
        AM_FIND_INDEX(KEYT, KEY)                                                                                 \
        *best = b;                                                                                               \
        *idx = bi;                                                                                               \
    }

/* FLOAT32's and FLOAT64's block extreme with AVX2 where the CPU has it (the compiler does
 * not vectorise a float maximum that must keep NaN's rule): min/max instructions ignore a
 * NaN (they return the accumulator), and an unordered (ordered) compare says whether the
 * block met a NaN (a number).  Returns 0 where it does not apply, and the portable loop
 * runs.  VEC is the 256-bit vector type, SUF the intrinsics' suffix (ps, pd), LANES its
 * element count. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#  include <immintrin.h>
#  define AM_HAVE_AVX2 1
#  define AM_FAST_FLOAT(NAME, T, KEYT, KEY, VEC, SUF, LANES)                                                      \
    __attribute__((target("avx2"))) static int NAME(const am_state* st, const T* x, uint64_t n, KEYT* key)        \
    {                                                                                                            \
        const int least = st->mask != 0;                                                                         \
        VEC v0 = _mm256_set1_##SUF(least ? INFINITY : -INFINITY), v1 = v0;                                       \
        VEC f0 = _mm256_setzero_##SUF(), f1 = f0;                                                                \
        T lanes[LANES], v;                                                                                       \
        int flag;                                                                                                \
        uint64_t i = 0;                                                                                          \
        if (!st->avx2) return 0;                                                                                 \
        if (least) {                                                                                             \
            for (; i + 2 * LANES <= n; i += 2 * LANES) {                                                         \
                const VEC a = _mm256_loadu_##SUF(x + i), b = _mm256_loadu_##SUF(x + i + LANES);                  \
                v0 = _mm256_min_##SUF(a, v0);                                                                    \
                v1 = _mm256_min_##SUF(b, v1);                                                                    \
                f0 = _mm256_or_##SUF(f0, _mm256_cmp_##SUF(a, a, _CMP_ORD_Q));                                    \
                f1 = _mm256_or_##SUF(f1, _mm256_cmp_##SUF(b, b, _CMP_ORD_Q));                                    \
            }                                                                                                    \
            v0 = _mm256_min_##SUF(v0, v1);                                                                       \
        } else {                                                                                                 \
            for (; i + 2 * LANES <= n; i += 2 * LANES) {                                                         \
                const VEC a = _mm256_loadu_##SUF(x + i), b = _mm256_loadu_##SUF(x + i + LANES);                  \
                v0 = _mm256_max_##SUF(a, v0);                                                                    \
                v1 = _mm256_max_##SUF(b, v1);                                                                    \
                f0 = _mm256_or_##SUF(f0, _mm256_cmp_##SUF(a, a, _CMP_UNORD_Q));                                  \
                f1 = _mm256_or_##SUF(f1, _mm256_cmp_##SUF(b, b, _CMP_UNORD_Q));                                  \
            }                                                                                                    \
            v0 = _mm256_max_##SUF(v0, v1);                                                                       \
        }                                                                                                        \
        flag = _mm256_movemask_##SUF(_mm256_or_##SUF(f0, f1)) != 0;                                              \
        _mm256_storeu_##SUF(lanes, v0);                                                                          \
        v = lanes[0];                                                                                            \
        for (int k = 1; k < LANES; ++k) v = least ? (lanes[k] < v ? lanes[k] : v) : (lanes[k] > v ? lanes[k] : v); \
        for (; i < n; ++i) {                                                                                     \
            if (least ? x[i] < v : x[i] > v) v = x[i];                                                           \
            flag |= least ? x[i] == x[i] : x[i] != x[i];                                                         \
        }                                                                                                        \
        if (least)                                                                                               \
            *key = flag ? (KEYT)~KEY(v) : (KEYT)~KEY(NAN);                                                       \
        else                                                                                                     \
            *key = flag ? (KEYT)KEY(NAN) : (KEYT)KEY(v);                                                         \
        return 1;                                                                                                \
    }
AM_FAST_FLOAT(am_fast_f32, float, int32_t, key_f32, __m256, ps, 8)
AM_FAST_FLOAT(am_fast_f64, double, int64_t, key_f64, __m256d, pd, 4)
#else
#  define AM_HAVE_AVX2 0
static int am_fast_f64(const am_state* st, const double* x, uint64_t n, int64_t* key)
{
    (void)st, (void)x, (void)n, (void)key;
    return 0;
}
static int am_fast_f32(const am_state* st, const float* x, uint64_t n, int32_t* key)
{
    (void)st, (void)x, (void)n, (void)key;
    return 0;
}
#endif

AM_ROW_FLOAT(f32, float, int32_t, key_f32, am_fast_f32)
AM_ROW_FLOAT(f64, double, int64_t, key_f64, am_fast_f64)
/* The integer kernels twice: for any CPU, and for AVX2 (which the portable build's
 * baseline lacks: 32-byte vectors and byte/word/dword max instructions). */
#if AM_HAVE_AVX2
#  define AM_ROW_INT(NAME, T, KEYT, KEY)                                                                         \
      AM_ROW(NAME, T, KEYT, KEY)                                                                                 \
      AM_ROW_DEF(am_row_##NAME##_avx2, __attribute__((target("avx2"))), T, KEYT, KEY)
#  define AM_PICK(NAME, avx2) ((avx2) ? am_row_##NAME##_avx2 : am_row_##NAME)
#else
#  define AM_ROW_INT(NAME, T, KEYT, KEY) AM_ROW(NAME, T, KEYT, KEY)
#  define AM_PICK(NAME, avx2) ((void)(avx2), am_row_##NAME)
#endif

AM_ROW(f16, uint16_t, int32_t, key_f16)
/* An integer is its own key, in its own width (no widening for the vectoriser to undo). */
#define key_same(v) (v)
AM_ROW_INT(i8, int8_t, int8_t, key_same)
AM_ROW_INT(i16, int16_t, int16_t, key_same)
AM_ROW_INT(i32, int32_t, int32_t, key_same)
AM_ROW_INT(i64, int64_t, int64_t, key_same)
AM_ROW_INT(u8, uint8_t, uint8_t, key_same)
AM_ROW_INT(u16, uint16_t, uint16_t, key_same)
AM_ROW_INT(u32, uint32_t, uint32_t, key_same)
AM_ROW_INT(u64, uint64_t, int64_t, key_u64)

static am_row_fn row_fn(DML_TENSOR_DATA_TYPE t, int avx2)
{
    switch (t) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: return am_row_f32;
    case DML_TENSOR_DATA_TYPE_FLOAT64: return am_row_f64;
    case DML_TENSOR_DATA_TYPE_FLOAT16: return am_row_f16;
    case DML_TENSOR_DATA_TYPE_INT8: return AM_PICK(i8, avx2);
    case DML_TENSOR_DATA_TYPE_INT16: return AM_PICK(i16, avx2);
    case DML_TENSOR_DATA_TYPE_INT32: return AM_PICK(i32, avx2);
    case DML_TENSOR_DATA_TYPE_INT64: return AM_PICK(i64, avx2);
    case DML_TENSOR_DATA_TYPE_UINT8: return AM_PICK(u8, avx2);
    case DML_TENSOR_DATA_TYPE_UINT16: return AM_PICK(u16, avx2);
    case DML_TENSOR_DATA_TYPE_UINT32: return AM_PICK(u32, avx2);
    default: return AM_PICK(u64, avx2); /* validated: the eleven types */
    }
}

/* ---- Execution ----------------------------------------------------------------------------- */
typedef struct am_job {
    const am_state* st;
    const char* in;
    char* out;
    int64_t* keys; /* parts > 1: one partial result per item */
    uint64_t* idxs;
} am_job;

/* The input offset (elements) of output number o's first reduced element, and the output's. */
static void kept_offsets(const am_state* st, uint64_t o, int64_t* in_off, int64_t* out_off)
{
    int64_t a = 0, b = 0;
    for (UINT d = st->kept; d-- > 0;) {
        const uint64_t c = o % st->kept_sizes[d];
        o /= st->kept_sizes[d];
        a += (int64_t)c * st->kept_in[d];
        b += (int64_t)c * st->kept_out[d];
    }
    *in_off = a;
    *out_off = b;
}

/* Reduced indices [f0, f1) of the set starting at `base` (bytes). */
static void reduce_range(const am_state* st, const char* base, uint64_t f0, uint64_t f1, int64_t* best,
                         uint64_t* idx)
{
    const uint64_t n = st->red_sizes[st->red - 1];
    const int64_t stride = st->red_in[st->red - 1];
    uint64_t r = f0 / n, c = f0 % n;
    while (f0 < f1) {
        int64_t off = 0;
        uint64_t q = r;
        const uint64_t c1 = f1 - f0 < n - c ? c + (f1 - f0) : n;
        for (UINT d = st->red - 1; d-- > 0;) {
            off += (int64_t)(q % st->red_sizes[d]) * st->red_in[d];
            q /= st->red_sizes[d];
        }
        st->row(st, base + off * (int64_t)st->elem_size, stride, c, c1, r * n, best, idx);
        f0 += c1 - c;
        ++r;
        c = 0;
    }
}

static void write_index(const am_state* st, char* out, int64_t out_off, uint64_t idx)
{
    if (st->out_size == 8) {
        memcpy(out + out_off * 8, &idx, 8);
    } else {
        const uint32_t v = (uint32_t)idx;
        memcpy(out + out_off * 4, &v, 4);
    }
}

static void am_items(void* ctx, uint64_t begin, uint64_t end)
{
    const am_job* job = (const am_job*)ctx;
    const am_state* st = job->st;
    for (uint64_t it = begin; it < end; ++it) {
        const uint64_t o = it / st->parts, p = it % st->parts;
        const uint64_t f0 = st->reduced * p / st->parts, f1 = st->reduced * (p + 1) / st->parts;
        int64_t in_off, out_off, best = 0;
        uint64_t idx = UINT64_MAX;
        kept_offsets(st, o, &in_off, &out_off);
        reduce_range(st, job->in + in_off * (int64_t)st->elem_size, f0, f1, &best, &idx);
        if (st->parts == 1) {
            write_index(st, job->out, out_off, idx);
        } else {
            job->keys[it] = best;
            job->idxs[it] = idx;
        }
    }
}

static void am_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const am_state* st = (const am_state*)op->state;
    int64_t keys[AM_MAX_ITEMS];
    uint64_t idxs[AM_MAX_ITEMS];
    am_job job;
    job.st = st;
    job.in = (const char*)in[0];
    job.out = (char*)out[0];
    job.keys = keys;
    job.idxs = idxs;
    dmlc_parallel_for(st->outputs * st->parts, st->outputs * st->reduced * st->elem_size, am_items, &job);
    if (st->parts == 1) return;
    /* Parts in index order: a later part wins only with a greater key (or an equal one,
     * DECREASING).  Every part holds at least one element. */
    for (uint64_t o = 0; o < st->outputs; ++o) {
        int64_t in_off, out_off, best = keys[o * st->parts];
        uint64_t idx = idxs[o * st->parts];
        for (uint64_t p = 1; p < st->parts; ++p) {
            const int64_t k = keys[o * st->parts + p];
            if (k > best || (st->decreasing && k == best)) {
                best = k;
                idx = idxs[o * st->parts + p];
            }
        }
        kept_offsets(st, o, &in_off, &out_off);
        write_index(st, job.out, out_off, idx);
    }
}

/* ---- Validation and planning ------------------------------------------------------------ */
typedef struct am_args {
    UINT count;
    const UINT* axes;
    DML_AXIS_DIRECTION direction;
} am_args;

static am_args read_args(const DML_ARGMAX_OPERATOR_DESC* d)
{
    am_args a;
    a.count = d->AxisCount;
    a.axes = d->Axes;
    a.direction = d->AxisDirection;
    return a;
}

/* Bit d set: axis d is reduced. */
static unsigned reduced_mask(const am_args* a)
{
    unsigned m = 0;
    for (UINT i = 0; i < a->count; ++i) m |= 1u << a->axes[i];
    return m;
}

static HRESULT validate(const char* opname, const am_args* a, const dmlc_tensor* in, dmlc_shapes* sh)
{
    HRESULT hr;
    unsigned mask = 0;
    uint64_t reduced = 1;
    if (a->count < 1 || a->count > in->ndim)
        return dmlc_fail(E_INVALIDARG, opname, "AxisCount is %u, expected 1 to %u (InputTensor.DimensionCount)",
                         a->count, in->ndim);
    for (UINT i = 0; i < a->count; ++i) {
        if (a->axes[i] >= in->ndim)
            return dmlc_fail(E_INVALIDARG, opname, "Axes[%u] is %u, expected less than %u (InputTensor.DimensionCount)",
                             i, a->axes[i], in->ndim);
        if (mask & (1u << a->axes[i]))
            return dmlc_fail(E_INVALIDARG, opname, "Axes[%u] is %u, which an earlier axis already names", i,
                             a->axes[i]);
        mask |= 1u << a->axes[i];
        reduced *= in->sizes[a->axes[i]];
    }
    if (FAILED(hr = dmlc_check_axis_direction(opname, "AxisDirection", a->direction))) return hr;
    dmlc_shape_rank(sh, 0, in->ndim);
    for (UINT d = 0; d < in->ndim; ++d) {
        if (mask & (1u << d))
            hr = dmlc_shape_expect(sh, 0, "OutputTensor", d, 1, "axis %u is reduced", d);
        else
            hr = dmlc_shape_expect(sh, 0, "OutputTensor", d, in->sizes[d], "InputTensor.Sizes[%u]", d);
        if (FAILED(hr)) return hr;
    }
    /* The reduced count is at most the input's element count, which fits 64 bits. */
    if (!dmlc_shapes_infer(sh))
        return dmlc_check_index_type(&sh->outputs[0], opname, "OutputTensor", reduced - 1,
                                     "index %llu (the reduced element count %llu - 1)",
                                     (unsigned long long)(reduced - 1), (unsigned long long)reduced);
    return S_OK;
}

static void plan(am_state* st, DML_OPERATOR_TYPE type, const am_args* a, const dmlc_tensor* in,
                 const dmlc_tensor* out)
{
    const unsigned mask = reduced_mask(a);
    UINT threads;
    st->elem_size = in->elem_size;
    st->out_size = out->elem_size;
    st->decreasing = a->direction == DML_AXIS_DIRECTION_DECREASING;
    st->mask = type == DML_OPERATOR_ARGMIN ? -1 : 0;
    st->avx2 = AM_HAVE_AVX2 && dmlc_cpu_has(DMLC_CPU_AVX2);
    st->row = row_fn(in->type, st->avx2);
    st->outputs = 1;
    st->reduced = 1;
    for (UINT d = 0; d < in->ndim; ++d) {
        if (in->sizes[d] == 1) continue;
        if (mask & (1u << d)) {
            /* Merged with the previous reduced axis when it steps exactly over this one. */
            if (st->red && st->red_in[st->red - 1] == (int64_t)(in->strides[d] * in->sizes[d])) {
                st->red_sizes[st->red - 1] *= in->sizes[d];
                st->red_in[st->red - 1] = (int64_t)in->strides[d];
            } else {
                st->red_sizes[st->red] = in->sizes[d];
                st->red_in[st->red++] = (int64_t)in->strides[d];
            }
            st->reduced *= in->sizes[d];
        } else {
            st->kept_sizes[st->kept] = in->sizes[d];
            st->kept_in[st->kept] = (int64_t)in->strides[d];
            st->kept_out[st->kept++] = (int64_t)out->strides[d];
            st->outputs *= in->sizes[d];
        }
    }
    if (!st->red) { /* every reduced axis has size 1: a set of one element */
        st->red_sizes[0] = 1;
        st->red_in[0] = 0;
        st->red = 1;
    }
    /* Few outputs over many elements: split each reduced set so every thread has work. */
    threads = (UINT)dmlc_threads_for(st->outputs * st->reduced * st->elem_size); /* as am_execute's loop */
    st->parts = 1;
    /* Only when the loop will run on several threads: each part searches its own winning
     * block, work a single thread would do for nothing. */
    if (threads > 1 && st->outputs < threads && st->reduced >= 2 * AM_BLOCK) {
        uint64_t p = AM_MAX_ITEMS / st->outputs;
        if (p > AM_MAX_PARTS) p = AM_MAX_PARTS;
        if (p > st->reduced / AM_BLOCK) p = st->reduced / AM_BLOCK;
        st->parts = p ? p : 1;
    }
}

HRESULT dmlc_infer_argminmax(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const DML_ARGMAX_OPERATOR_DESC* d = (const DML_ARGMAX_OPERATOR_DESC*)desc; /* ARGMIN's has the same layout */
    const am_args a = read_args(d);
    dmlc_tensor in;
    HRESULT hr;
    (void)type;
    if (FAILED(hr = dmlc_shapes_unary_input(sh, &in, d->InputTensor, opname, 1, DMLC_MAX_DIMS))) return hr;
    return validate(opname, &a, &in, sh);
}

HRESULT dmlc_create_argminmax(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const DML_ARGMAX_OPERATOR_DESC* d = (const DML_ARGMAX_OPERATOR_DESC*)desc;
    const am_args a = read_args(d);
    dmlc_tensor in, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    HRESULT hr;
    DMLC_OPERATOR_T* o;

    if (FAILED(hr = dmlc_tensor_init(&in, d->InputTensor, opname, "InputTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&out, d->OutputTensor, opname, "OutputTensor", 1, DMLC_MAX_DIMS, DMLC_OUTPUT)) ||
        FAILED(hr = dmlc_tensor_same_rank(&in, "InputTensor", &out, "OutputTensor", opname)) ||
        FAILED(hr = validate(opname, &a, &in, &sh)))
        return hr;
    o = dmlc_operator_alloc_unary(type, opname, &in, &out, am_execute, sizeof(am_state));
    if (!o) return E_OUTOFMEMORY;
    plan((am_state*)o->state, type, &a, &in, &out);
    *op = o;
    return S_OK;
}
