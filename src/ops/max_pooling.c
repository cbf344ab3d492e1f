/* max_pooling.c - DML_OPERATOR_MAX_POOLING, MAX_POOLING1 and MAX_POOLING2.
 *
 * Input {N, C, spatial...} with 1 to 3 spatial dimensions; the core treats every case as
 * {N*C planes, D, H, W}, padding missing leading spatial dimensions with size 1.  Per
 * spatial dimension (SPEC 2.1), window element t of output o covers input coordinate
 *     x = o*Stride - StartPadding + t*Dilation,
 * and only coordinates inside [0, n) take part.  The result is the maximum in window
 * order (row-major over (td, th, tw)) under these rules, which follow DirectML's page and
 * ONNX/PyTorch:
 *   - ties keep the first element (a later element must be strictly greater);
 *   - a NaN beats every number, and the first NaN wins;
 *   - a window with no in-bounds element gives the type's lowest value (-inf for floats)
 *     and an index of all ones.
 * The index is the element's flat row-major position in the whole logical input,
 *     ((n*C + c)*D + d)*H*W + h*W + w,
 * whatever the input's strides.  Example, 2x2 window, stride 2, input {1, 1, 4, 4}:
 * output (0, 0, 1, 1) looks at rows 2..3, columns 2..3, flat indices 10, 11, 14, 15.
 *
 * Execution walks output rows (plane, od, oh).  The window rows a row needs are the same
 * for all its outputs, so they are found once per row.  A typed generic kernel (one per
 * data type, generated from dtypes.def) handles every case.  On x86-64 with AVX2 and
 * F16C, float32 and float16 windows of stride 2 and width up to 4 (2x2/2, 3x3/2 pad 1)
 * run 8 outputs at a time: each row's columns are loaded 16 at a time and split into even
 * and odd columns, so window column t of the 8 outputs is one vector.  The vector compare
 * has no NaN rule, so a group that meets a NaN is recomputed by the generic kernel. */
#include "../dmlc_internal.h"

#include <math.h>
#include <string.h>

#define MP_SPATIAL 3     /* internal spatial dimensions: D, H, W */
#define MP_FAST_ROWS 32  /* window rows (kd * kh in bounds) the vector path takes */

typedef struct mp_dim {
    int64_t n;           /* input size */
    int64_t out;         /* output size */
    int64_t k, s, d, p;  /* window size, stride, dilation, start padding */
    int64_t is, os, xs;  /* input, output and index strides, in elements */
} mp_dim;

/* One output row: plane p, output coordinates od and oh, all ow. */
typedef struct mp_row {
    const char* in;        /* the input plane */
    char* out;             /* output (p, od, oh, 0) */
    char* idx;             /* index (p, od, oh, 0), or NULL */
    uint64_t flat;         /* flat index of the plane's first element */
    int64_t td0, td1;      /* in-bounds window elements along D: [td0, td1) */
    int64_t th0, th1;      /* ... along H */
    int64_t id0, ih0;      /* input coordinate of window element 0 along D and H */
    uintptr_t in_lo, in_hi; /* the bound input buffer: [in_lo, in_hi) */
} mp_row;

typedef struct mp_state mp_state;
typedef void (*mp_generic_fn)(const mp_state* st, const mp_row* r, int64_t ow0, int64_t ow1);
/* What the vector kernel needs of one output row (see mp_fast_row). */
typedef struct mp_fast_args {
    const void* const* rows; /* the window rows in bounds, in window order */
    const int32_t* rel;      /* rel[r]: row r's flat index minus row 0's */
    UINT nr;
    int64_t kw, pw, W, OW;   /* window width, start padding, input and output widths */
    int64_t base;            /* flat index of column 0 of window row 0 */
    char* out;               /* output (.., 0) of the row */
    char* idx;               /* index (.., 0) of the row, or NULL */
    int edge_ok;             /* groups that reach past the row may read memory there */
} mp_fast_args;
/* Runs output groups [g0, g1) (8 outputs each, g1 - g0 <= 64) of a row.  Returns a bit
 * per group that the generic kernel must redo: a NaN met (the vector compare has no NaN
 * rule), with indices a lowest-value result in a group that touched padding (a padded
 * lane may have won a tie), or a group past the row's ends when edge_ok is 0. */
typedef uint64_t (*mp_fast_fn)(const mp_fast_args* a, int64_t g0, int64_t g1);

struct mp_state {
    UINT elem_size;
    UINT idx_size;           /* 0 (no indices), 4 or 8 */
    uint64_t channels;       /* C */
    int64_t in_n, in_c;      /* input strides of N and C */
    int64_t out_n, out_c;
    int64_t idx_n, idx_c;
    uint64_t planes;         /* N * C */
    uint64_t plane_count;    /* D * H * W */
    mp_dim dims[MP_SPATIAL]; /* D, H, W */
    mp_generic_fn generic;
    mp_fast_fn fast;         /* NULL: the generic kernel does every row */
    uint64_t window_count;   /* elements per window, for the work estimate */
};

/* Window elements [t0, t1) whose coordinate start + t*d lies in [0, n). */
static inline void mp_window_range(const mp_dim* m, int64_t start, int64_t* t0, int64_t* t1)
{
    int64_t lo = 0, hi = m->k;
    if (m->d == 1) { /* the common case, without dividing */
        if (start < 0) lo = -start;
        if (start + hi > m->n) hi = m->n - start;
    } else {
        if (start < 0) lo = (-start + m->d - 1) / m->d;
        if (start + (hi - 1) * m->d > m->n - 1) hi = start > m->n - 1 ? 0 : (m->n - 1 - start) / m->d + 1;
    }
    *t0 = lo;
    *t1 = hi > lo ? hi : lo;
}

/* ---- Typed comparison: "v beats the best so far" --------------------------------------- */
#define MP_BETTER_FLOAT(v, b) ((b) == (b) && !((v) <= (b))) /* NaN beats numbers; the first NaN stays */
#define MP_BETTER_INT(v, b) ((v) > (b))

/* FLOAT16 without converting: NaN is an exponent of all ones with a non-zero mantissa;
 * otherwise sign-magnitude order, with -0 and +0 equal (both key 0). */
static inline int mp_half_nan(uint16_t h) { return (h & 0x7fffu) > 0x7c00u; }
static inline int32_t mp_half_key(uint16_t h) { return (h & 0x8000u) ? -(int32_t)(h & 0x7fffu) : (int32_t)(h & 0x7fffu); }
#define MP_BETTER_HALF(v, b) (!mp_half_nan(b) && (mp_half_nan(v) || mp_half_key(v) > mp_half_key(b)))

#define MP_BETTER_FLOAT32 MP_BETTER_FLOAT
#define MP_BETTER_FLOAT64 MP_BETTER_FLOAT
#define MP_BETTER_FLOAT16 MP_BETTER_HALF
#define MP_BETTER_INT8 MP_BETTER_INT
#define MP_BETTER_INT16 MP_BETTER_INT
#define MP_BETTER_INT32 MP_BETTER_INT
#define MP_BETTER_INT64 MP_BETTER_INT
#define MP_BETTER_UINT8 MP_BETTER_INT
#define MP_BETTER_UINT16 MP_BETTER_INT
#define MP_BETTER_UINT32 MP_BETTER_INT
#define MP_BETTER_UINT64 MP_BETTER_INT

#define MP_LOWEST_FLOAT32 (-INFINITY)
#define MP_LOWEST_FLOAT64 (-(double)INFINITY)
#define MP_LOWEST_FLOAT16 ((uint16_t)0xfc00u)
#define MP_LOWEST_INT8 INT8_MIN
#define MP_LOWEST_INT16 INT16_MIN
#define MP_LOWEST_INT32 INT32_MIN
#define MP_LOWEST_INT64 INT64_MIN
#define MP_LOWEST_UINT8 0
#define MP_LOWEST_UINT16 0
#define MP_LOWEST_UINT32 0
#define MP_LOWEST_UINT64 0

static inline void mp_store_index(char* idx, UINT idx_size, uint64_t v)
{
    if (idx_size == 4) {
        const uint32_t v32 = (uint32_t)v; /* all ones stays all ones */
        memcpy(idx, &v32, 4);
    } else {
        memcpy(idx, &v, 8);
    }
}

/* The generic kernel: outputs [ow0, ow1) of one row, any window, any strides. */
#define DMLC_DTYPE(NAME, VALUE, SIZE, T)                                                            \
    static void mp_generic_##NAME(const mp_state* st, const mp_row* r, int64_t ow0, int64_t ow1)     \
    {                                                                                               \
        const mp_dim *dd = &st->dims[0], *dh = &st->dims[1], *dw = &st->dims[2];                     \
        const uint64_t hw = (uint64_t)dh->n * (uint64_t)dw->n;                                      \
        for (int64_t ow = ow0; ow < ow1; ++ow) {                                                    \
            const int64_t iw0 = ow * dw->s - dw->p;                                                 \
            int64_t tw0, tw1;                                                                       \
            T best = MP_LOWEST_##NAME;                                                              \
            uint64_t best_index = UINT64_MAX;                                                       \
            int found = 0;                                                                          \
            mp_window_range(dw, iw0, &tw0, &tw1);                                                   \
            for (int64_t td = r->td0; td < r->td1; ++td) {                                          \
                const int64_t id = r->id0 + td * dd->d;                                             \
                for (int64_t th = r->th0; th < r->th1; ++th) {                                      \
                    const int64_t ih = r->ih0 + th * dh->d;                                         \
                    const T* row = (const T*)r->in + id * dd->is + ih * dh->is;                     \
                    const uint64_t row_flat = r->flat + (uint64_t)id * hw + (uint64_t)ih * (uint64_t)dw->n; \
                    for (int64_t tw = tw0; tw < tw1; ++tw) {                                        \
                        const int64_t iw = iw0 + tw * dw->d;                                        \
                        const T v = row[iw * dw->is];                                               \
                        if (!found || MP_BETTER_##NAME(v, best)) {                                  \
                            best = v;                                                               \
                            best_index = row_flat + (uint64_t)iw;                                   \
                            found = 1;                                                              \
                        }                                                                           \
                    }                                                                               \
                }                                                                                   \
            }                                                                                       \
            ((T*)r->out)[ow * dw->os] = best;                                                       \
            if (r->idx) mp_store_index(r->idx + ow * dw->xs * (int64_t)st->idx_size, st->idx_size, best_index); \
        }                                                                                           \
    }
#include "../dtypes.def"
#undef DMLC_DTYPE

static mp_generic_fn mp_generic_for(DML_TENSOR_DATA_TYPE type)
{
    switch ((int)type) {
#define DMLC_DTYPE(NAME, VALUE, SIZE, T) case VALUE: return mp_generic_##NAME;
#include "../dtypes.def"
#undef DMLC_DTYPE
    default: return NULL;
    }
}

/* ---- The vector kernels (x86-64, AVX2 + F16C, chosen at run time) ----------------------- */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#  define MP_HAVE_AVX2 1
#  include <immintrin.h>
#  define MP_TARGET __attribute__((target("avx2,f16c")))
#  define MP_INLINE __attribute__((always_inline)) inline

static MP_TARGET MP_INLINE __m256 mp_load8(const char* p, int half)
{
    return half ? _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)p)) : _mm256_loadu_ps((const float*)p);
}

/* Takes candidate v (code: its offset from column c of window row 0) into the running
 * maximum.  Strictly greater wins, so ties keep the earlier element; _mm256_max_ps(v, acc)
 * returns acc on a tie (and on a NaN, which the caller flags). */
static MP_TARGET MP_INLINE void mp_take(__m256 v, int32_t code, int ik, __m256* acc, __m256i* ri)
{
    if (ik) {
        const __m256 gt = _mm256_cmp_ps(v, *acc, _CMP_GT_OQ);
        *acc = _mm256_blendv_ps(*acc, v, gt);
        *ri = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(*ri), _mm256_castsi256_ps(_mm256_set1_epi32(code)), gt));
    } else {
        *acc = _mm256_max_ps(v, *acc);
    }
}

/* Window row r of one group: columns c+tw .. c+tw+15 for each even tw.  Output l's window
 * column tw is c + 2l + tw, the even columns; column tw+1 is the odd ones.  Lanes come out
 * as outputs {0 1 4 5 | 2 3 6 7}, put right by one permute at the end.  With masks, lanes
 * outside the row (other rows' memory) are replaced by the lowest value, as padding.
 * first: this is row 0, whose column 0 starts the maximum. */
static MP_TARGET MP_INLINE void mp_group_row(const char* p, int32_t rel, int64_t kw, int half, int ik, int first,
                                            const __m256* masks, __m256* acc, __m256i* ri, __m256* nan)
{
    const int64_t es = half ? 2 : 4;
    const __m256 lowest = _mm256_set1_ps(-INFINITY);
    for (int64_t tw = 0; tw < kw; tw += 2) {
        __m256 a = mp_load8(p + tw * es, half), b = mp_load8(p + (tw + 8) * es, half), e, o;
        if (masks) {
            a = _mm256_blendv_ps(lowest, a, masks[tw]);
            b = _mm256_blendv_ps(lowest, b, masks[tw + 1]);
        }
        e = _mm256_shuffle_ps(a, b, 0x88);
        o = _mm256_shuffle_ps(a, b, 0xdd);
        if (first && tw == 0) {
            *acc = e;
            if (ik) *ri = _mm256_set1_epi32(rel);
        } else {
            mp_take(e, rel + (int32_t)tw, ik, acc, ri);
        }
        if (tw + 1 < kw) {
            *nan = _mm256_or_ps(*nan, _mm256_cmp_ps(e, o, _CMP_UNORD_Q));
            mp_take(o, rel + (int32_t)tw + 1, ik, acc, ri);
        } else {
            *nan = _mm256_or_ps(*nan, _mm256_cmp_ps(e, e, _CMP_UNORD_Q));
        }
    }
}

/* One group of 8 outputs starting at output j; returns nonzero if the generic kernel must
 * redo it. */
static MP_TARGET MP_INLINE int mp_group(const mp_fast_args* A, int64_t j, int64_t kw, int half, int ik, int masked)
{
    const int64_t es = half ? 2 : 4, c = 2 * j - A->pw, lanes = A->OW - j < 8 ? A->OW - j : 8;
    const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256 acc = _mm256_setzero_ps(), nan = _mm256_setzero_ps(), masks[4];
    __m256i ri = _mm256_setzero_si256();
    int m;
    if (masked) {
        /* masks[t]: lanes of the load at column c + 8*(t & 1) + (t & ~1) inside [0, W). */
        const __m256i width = _mm256_set1_epi32((int32_t)A->W), minus1 = _mm256_set1_epi32(-1);
        for (int64_t t = 0; t < ((kw + 1) / 2) * 2; ++t) {
            const __m256i col = _mm256_add_epi32(_mm256_set1_epi32((int32_t)(c + (t & ~(int64_t)1) + 8 * (t & 1))), iota);
            masks[t] = _mm256_castsi256_ps(_mm256_and_si256(_mm256_cmpgt_epi32(col, minus1),
                                                            _mm256_cmpgt_epi32(width, col)));
        }
    }
    mp_group_row((const char*)A->rows[0] + c * es, A->rel[0], kw, half, ik, 1, masked ? masks : NULL, &acc, &ri, &nan);
    for (UINT r = 1; r < A->nr; ++r)
        mp_group_row((const char*)A->rows[r] + c * es, A->rel[r], kw, half, ik, 0, masked ? masks : NULL, &acc, &ri,
                     &nan);
    acc = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(acc), 0xd8));
    m = _mm256_movemask_ps(nan);
    if (ik && masked) m |= _mm256_movemask_ps(_mm256_cmp_ps(acc, _mm256_set1_ps(-INFINITY), _CMP_EQ_OQ)) & ((1 << lanes) - 1);
    {
        /* A last, partial group goes through a buffer: only its lanes are written. */
        float vbuf[8];
        uint64_t ibuf[8];
        char* vdst = lanes == 8 ? A->out + j * es : (char*)vbuf;
        char* idst = lanes == 8 && ik ? A->idx + j * ik : (char*)ibuf;
        if (half)
            _mm_storeu_si128((__m128i*)vdst, _mm256_cvtps_ph(acc, _MM_FROUND_TO_NEAREST_INT));
        else
            _mm256_storeu_ps((float*)vdst, acc);
        if (ik) {
            const int64_t b0 = A->base + c; /* flat index of column c of row 0 */
            const __m256i off = _mm256_add_epi32(_mm256_add_epi32(iota, iota), _mm256_permute4x64_epi64(ri, 0xd8));
            if (ik == 4) {
                _mm256_storeu_si256((__m256i*)idst, _mm256_add_epi32(_mm256_set1_epi32((int32_t)(uint32_t)b0), off));
            } else { /* off < 2^31: checked at creation */
                const __m256i bb = _mm256_set1_epi64x(b0);
                _mm256_storeu_si256((__m256i*)idst, _mm256_add_epi64(bb, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(off))));
                _mm256_storeu_si256((__m256i*)(idst + 32),
                                    _mm256_add_epi64(bb, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(off, 1))));
            }
        }
        if (lanes < 8) { /* element by element: fixed-size copies, no library call */
            for (int64_t l = 0; l < lanes; ++l) {
                if (half) memcpy(A->out + (j + l) * 2, (char*)vbuf + l * 2, 2);
                else memcpy(A->out + (j + l) * 4, (char*)vbuf + l * 4, 4);
                if (ik == 4) memcpy(A->idx + (j + l) * 4, (char*)ibuf + l * 4, 4);
                if (ik == 8) memcpy(A->idx + (j + l) * 8, (char*)ibuf + l * 8, 8);
            }
        }
    }
    return m;
}

/* Groups [g0, g1): those whose columns lie inside the row without masks, the others
 * (at the row's ends) with them.  KW: the window width, 0 for A->kw at run time. */
static MP_TARGET MP_INLINE uint64_t mp_s2_body(const mp_fast_args* A, int64_t g0, int64_t g1, int half, int ik,
                                               int64_t KW)
{
    const int64_t kw = KW ? KW : A->kw;
    const int64_t span = ((kw - 1) / 2) * 2 + 16; /* columns a group reads from its first */
    /* Group g reads columns [16g - pw, 16g - pw + span). */
    int64_t i0 = (A->pw + 15) / 16, i1 = A->W - span + A->pw >= 0 ? (A->W - span + A->pw) / 16 + 1 : 0;
    uint64_t flags = 0;
    i0 = i0 < g0 ? g0 : (i0 > g1 ? g1 : i0);
    i1 = i1 < i0 ? i0 : (i1 > g1 ? g1 : i1);
    for (int64_t g = g0; g < i0; ++g)
        if (!A->edge_ok || mp_group(A, 8 * g, kw, half, ik, 1)) flags |= (uint64_t)1 << (g - g0);
    for (int64_t g = i0; g < i1; ++g)
        if (mp_group(A, 8 * g, kw, half, ik, 0)) flags |= (uint64_t)1 << (g - g0);
    for (int64_t g = i1; g < g1; ++g)
        if (!A->edge_ok || mp_group(A, 8 * g, kw, half, ik, 1)) flags |= (uint64_t)1 << (g - g0);
    return flags;
}

#  define MP_FAST(NAME, HALF, IK, KW)                                                                \
    static MP_TARGET uint64_t NAME(const mp_fast_args* a, int64_t g0, int64_t g1)                    \
    {                                                                                                \
        return mp_s2_body(a, g0, g1, HALF, IK, KW);                                                  \
    }
/* Window widths 2 and 3 (2x2/2 and 3x3/2 pad 1) compiled with the width known; 1 and 4 at
 * run time. */
MP_FAST(mp_s2_f32_k2, 0, 0, 2)
MP_FAST(mp_s2_f32_k2_i32, 0, 4, 2)
MP_FAST(mp_s2_f32_k2_i64, 0, 8, 2)
MP_FAST(mp_s2_f16_k2, 1, 0, 2)
MP_FAST(mp_s2_f16_k2_i32, 1, 4, 2)
MP_FAST(mp_s2_f16_k2_i64, 1, 8, 2)
MP_FAST(mp_s2_f32_k3, 0, 0, 3)
MP_FAST(mp_s2_f32_k3_i32, 0, 4, 3)
MP_FAST(mp_s2_f32_k3_i64, 0, 8, 3)
MP_FAST(mp_s2_f16_k3, 1, 0, 3)
MP_FAST(mp_s2_f16_k3_i32, 1, 4, 3)
MP_FAST(mp_s2_f16_k3_i64, 1, 8, 3)
MP_FAST(mp_s2_f32, 0, 0, 0)
MP_FAST(mp_s2_f32_i32, 0, 4, 0)
MP_FAST(mp_s2_f32_i64, 0, 8, 0)
MP_FAST(mp_s2_f16, 1, 0, 0)
MP_FAST(mp_s2_f16_i32, 1, 4, 0)
MP_FAST(mp_s2_f16_i64, 1, 8, 0)
#  undef MP_FAST

static mp_fast_fn mp_fast_for(DML_TENSOR_DATA_TYPE type, UINT idx_size, int64_t kw)
{
    /* [float16][width 2, 3, other][no indices, UINT32, UINT64] */
    static const mp_fast_fn table[2][3][3] = {
        {{mp_s2_f32_k2, mp_s2_f32_k2_i32, mp_s2_f32_k2_i64}, {mp_s2_f32_k3, mp_s2_f32_k3_i32, mp_s2_f32_k3_i64},
         {mp_s2_f32, mp_s2_f32_i32, mp_s2_f32_i64}},
        {{mp_s2_f16_k2, mp_s2_f16_k2_i32, mp_s2_f16_k2_i64}, {mp_s2_f16_k3, mp_s2_f16_k3_i32, mp_s2_f16_k3_i64},
         {mp_s2_f16, mp_s2_f16_i32, mp_s2_f16_i64}}};
    const int i = idx_size == 0 ? 0 : (idx_size == 4 ? 1 : 2), w = kw == 2 ? 0 : (kw == 3 ? 1 : 2);
    if (type != DML_TENSOR_DATA_TYPE_FLOAT32 && type != DML_TENSOR_DATA_TYPE_FLOAT16) return NULL;
    if (!dmlc_cpu_has(DMLC_CPU_AVX2 | DMLC_CPU_F16C)) return NULL;
    return table[type == DML_TENSOR_DATA_TYPE_FLOAT16][w][i];
}
#else
static mp_fast_fn mp_fast_for(DML_TENSOR_DATA_TYPE type, UINT idx_size, int64_t kw)
{
    (void)type;
    (void)idx_size;
    (void)kw;
    return NULL;
}
#endif

/* ---- Rows ------------------------------------------------------------------------------ */


/* One row through the vector kernel, then the generic kernel for the groups it flags. */
static void mp_fast_row(const mp_state* st, const mp_row* r)
{
    const mp_dim *dd = &st->dims[0], *dh = &st->dims[1], *dw = &st->dims[2];
    const int64_t es = st->elem_size, groups = (dw->out + 7) / 8;
    const void* rows[MP_FAST_ROWS];
    int32_t rel[MP_FAST_ROWS];
    uint64_t flat0 = 0;
    mp_fast_args a;
    a.nr = 0;
    for (int64_t td = r->td0; td < r->td1; ++td) {
        const int64_t id = r->id0 + td * dd->d;
        for (int64_t th = r->th0; th < r->th1; ++th) {
            const int64_t ih = r->ih0 + th * dh->d;
            const uint64_t flat = r->flat + ((uint64_t)id * (uint64_t)dh->n + (uint64_t)ih) * (uint64_t)dw->n;
            if (a.nr == 0) flat0 = flat;
            rows[a.nr] = r->in + (id * dd->is + ih * dh->is) * es;
            rel[a.nr] = (int32_t)(flat - flat0); /* < 2^31: checked at creation */
            ++a.nr;
        }
    }
    if (a.nr == 0) { /* every window of the row lies in padding */
        st->generic(st, r, 0, dw->out);
        return;
    }
    a.rows = rows;
    a.rel = rel;
    a.kw = dw->k;
    a.pw = dw->p;
    a.W = dw->n;
    a.OW = dw->out;
    a.base = (int64_t)flat0;
    a.out = r->out;
    a.idx = r->idx;
    /* Groups at the row's ends read (and discard) columns before and after it: allowed
     * when those addresses lie inside the input buffer, which fails only at the very
     * first and last rows of the tensor. */
    {
        const int64_t lo = -dw->p < 0 ? -dw->p : 0;
        const int64_t hi = 16 * (groups - 1) - dw->p + ((dw->k - 1) / 2) * 2 + 16;
        a.edge_ok = 1;
        for (UINT k = 0; k < a.nr && a.edge_ok; ++k) {
            const uintptr_t p = (uintptr_t)rows[k];
            a.edge_ok = p - r->in_lo >= (uintptr_t)(-lo * es) && r->in_hi - p >= (uintptr_t)(hi * es);
        }
    }
    for (int64_t g0 = 0; g0 < groups; g0 += 64) {
        const int64_t g1 = groups - g0 > 64 ? g0 + 64 : groups;
        const uint64_t flags = st->fast(&a, g0, g1);
        for (int64_t k = 0; k < g1 - g0; ++k)
            if ((flags >> k) & 1) {
                const int64_t j = 8 * (g0 + k);
                st->generic(st, r, j, dw->out - j < 8 ? dw->out : j + 8);
            }
    }
}

typedef struct mp_job {
    const mp_state* st;
    const char* in;
    uintptr_t in_end;
    char* out;
    char* idx;
} mp_job;

/* Output rows [begin, end) of planes x OD x OH. */
static void mp_rows(void* vjob, uint64_t begin, uint64_t end)
{
    const mp_job* job = (const mp_job*)vjob;
    const mp_state* st = job->st;
    const mp_dim *dd = &st->dims[0], *dh = &st->dims[1], *dw = &st->dims[2];
    const int64_t es = st->elem_size, xs = st->idx_size;
    /* The row's coordinates are found by division once, then counted up. */
    int64_t oh = (int64_t)(begin % (uint64_t)dh->out);
    int64_t od = (int64_t)(begin / (uint64_t)dh->out % (uint64_t)dd->out);
    uint64_t p = begin / (uint64_t)dh->out / (uint64_t)dd->out;
    int64_t n = (int64_t)(p / st->channels), c = (int64_t)(p % st->channels);
    mp_row r;
    r.in_lo = (uintptr_t)job->in;
    r.in_hi = job->in_end;
    for (uint64_t item = begin; item < end; ++item) {
        r.in = job->in + (n * st->in_n + c * st->in_c) * es;
        r.out = job->out + (n * st->out_n + c * st->out_c + od * dd->os + oh * dh->os) * es;
        r.idx = job->idx ? job->idx + (n * st->idx_n + c * st->idx_c + od * dd->xs + oh * dh->xs) * xs : NULL;
        r.flat = p * st->plane_count;
        r.id0 = od * dd->s - dd->p;
        r.ih0 = oh * dh->s - dh->p;
        mp_window_range(dd, r.id0, &r.td0, &r.td1);
        mp_window_range(dh, r.ih0, &r.th0, &r.th1);
        if (st->fast && (r.td1 - r.td0) * (r.th1 - r.th0) <= MP_FAST_ROWS) mp_fast_row(st, &r);
        else st->generic(st, &r, 0, dw->out);
        if (++oh < dh->out) continue;
        oh = 0;
        if (++od < dd->out) continue;
        od = 0;
        ++p;
        if (++c < (int64_t)st->channels) continue;
        c = 0;
        ++n;
    }
}

static void max_pooling_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const mp_state* st = (const mp_state*)op->state;
    const uint64_t rows = st->planes * (uint64_t)st->dims[0].out * (uint64_t)st->dims[1].out;
    /* Work, in the byte units dmlc_parallel_for weighs (a byte copied): each window element
     * compared costs about as much as 8 (measured: 2x2/2 and 3x3/2, float32 and float16). */
    uint64_t bytes = op->outputs[0].count * st->window_count * 8 + op->outputs[0].count * st->elem_size;
    mp_job job;
    job.st = st;
    job.in = (const char*)in[0];
    job.in_end = (uintptr_t)in[0] + (uintptr_t)op->inputs[0].extent;
    job.out = (char*)out[0];
    job.idx = op->output_count > 1 ? (char*)out[1] : NULL;
    if (job.idx) bytes += op->outputs[1].count * st->idx_size;
    dmlc_parallel_for(rows, bytes, mp_rows, &job);
}

/* ---- Creation ------------------------------------------------------------------------------ */

/* MAX_POOLING's fields and MAX_POOLING1/2's (v1 is v2's prefix; v0 has no indices and v0/v1
 * no dilations). */
typedef struct mp_args {
    const DML_TENSOR_DESC* in_desc;
    const DML_TENSOR_DESC* out_desc;
    const DML_TENSOR_DESC* idx_desc;
    UINT outputs; /* output slots */
    dmlc_pool_window win;
} mp_args;

static mp_args read_args(DML_OPERATOR_TYPE type, const void* desc)
{
    static const UINT ones[MP_SPATIAL] = {1, 1, 1};
    const int v0 = type == DML_OPERATOR_MAX_POOLING, v2 = type == DML_OPERATOR_MAX_POOLING2;
    const DML_MAX_POOLING_OPERATOR_DESC* d0 = (const DML_MAX_POOLING_OPERATOR_DESC*)desc;
    const DML_MAX_POOLING2_OPERATOR_DESC* d2 = (const DML_MAX_POOLING2_OPERATOR_DESC*)desc;
    mp_args a;
    a.in_desc = v0 ? d0->InputTensor : d2->InputTensor;
    a.out_desc = v0 ? d0->OutputTensor : d2->OutputTensor;
    a.idx_desc = v0 ? NULL : d2->OutputIndicesTensor;
    a.outputs = v0 ? 1 : 2;
    a.win.count = v0 ? d0->DimensionCount : d2->DimensionCount;
    a.win.strides = v0 ? d0->Strides : d2->Strides;
    a.win.window = v0 ? d0->WindowSize : d2->WindowSize;
    a.win.start = v0 ? d0->StartPadding : d2->StartPadding;
    a.win.end = v0 ? d0->EndPadding : d2->EndPadding;
    a.win.dilations = v2 ? d2->Dilations : ones;
    return a;
}

/* The window fields against the input and the output sizes into sh (src/pooling.c's rule,
 * shared with average pooling); slot 1 (indices) gets slot 0's sizes. */
static HRESULT validate(const char* opname, const mp_args* a, const dmlc_tensor* in, dmlc_shapes* sh)
{
    HRESULT hr;
    if (FAILED(hr = dmlc_pool_window_validate(opname, &a->win, in, sh))) return hr;
    if (dmlc_shapes_infer(sh)) {
        if (a->outputs > 1) sh->sizes[1] = sh->sizes[0];
        return S_OK;
    }
    /* The indices follow the values. */
    if (a->outputs > 1 && sh->outputs[1].present) {
        const dmlc_tensor* idx = &sh->outputs[1];
        const uint64_t limit = idx->type == DML_TENSOR_DATA_TYPE_UINT32 ? UINT32_MAX : UINT64_MAX;
        for (UINT ax = 0; ax < in->ndim; ++ax)
            if (FAILED(hr = dmlc_tensor_expect_size(idx, opname, "OutputIndicesTensor", ax, sh->outputs[0].sizes[ax],
                                                    "OutputTensor.Sizes[%u]", ax)))
                return hr;
        /* All ones marks a window with no element, so every real index must stay below it. */
        if (in->count > limit)
            return dmlc_fail(E_INVALIDARG, opname, "InputTensor has %llu elements, more than %s indices can address "
                             "(at most %llu)", (unsigned long long)in->count,
                             idx->type == DML_TENSOR_DATA_TYPE_UINT32 ? "UINT32" : "UINT64", (unsigned long long)limit);
    }
    return S_OK;
}

/* The kernel's view of the validated tensors, and its vector path, into st. */
static void plan(mp_state* st, const mp_args* a, const dmlc_tensor* in, const dmlc_tensor* out, const dmlc_tensor* idx)
{
    const UINT sp = in->ndim - 2, lead = MP_SPATIAL - sp;
    uint64_t span;
    memset(st, 0, sizeof *st);
    for (UINT i = 0; i < MP_SPATIAL; ++i) {
        st->dims[i].n = st->dims[i].out = st->dims[i].k = st->dims[i].s = st->dims[i].d = 1;
    }
    for (UINT i = 0; i < sp; ++i) {
        mp_dim* m = &st->dims[lead + i];
        m->n = in->sizes[i + 2];
        m->out = out->sizes[i + 2];
        m->k = a->win.window[i];
        m->s = a->win.strides[i];
        m->d = a->win.dilations[i];
        m->p = a->win.start[i];
        m->is = (int64_t)in->strides[i + 2];
        m->os = (int64_t)out->strides[i + 2];
    }
    if (idx->present) {
        st->idx_size = idx->elem_size;
        st->idx_n = (int64_t)idx->strides[0];
        st->idx_c = (int64_t)idx->strides[1];
        for (UINT i = 0; i < sp; ++i) st->dims[lead + i].xs = (int64_t)idx->strides[i + 2];
    }

    st->elem_size = in->elem_size;
    st->channels = in->sizes[1];
    st->planes = (uint64_t)in->sizes[0] * in->sizes[1];
    st->plane_count = (uint64_t)st->dims[0].n * (uint64_t)st->dims[1].n * (uint64_t)st->dims[2].n;
    st->window_count = (uint64_t)st->dims[0].k * (uint64_t)st->dims[1].k * (uint64_t)st->dims[2].k;
    st->in_n = (int64_t)in->strides[0];
    st->in_c = (int64_t)in->strides[1];
    st->out_n = (int64_t)out->strides[0];
    st->out_c = (int64_t)out->strides[1];
    st->generic = mp_generic_for(in->type);

    /* The vector path: stride 2, width up to 4, no dilation along W, unit column strides
     * (a size-1 dimension never steps), and window rows whose flat offsets fit int32. */
    {
        const mp_dim *dd = &st->dims[0], *dh = &st->dims[1], *dw = &st->dims[2];
        span = (((uint64_t)(dd->k - 1) * (uint64_t)dd->d * (uint64_t)dh->n + (uint64_t)(dh->k - 1) * (uint64_t)dh->d) + 1) *
               (uint64_t)dw->n;
        if (dw->s == 2 && dw->k <= 4 && dw->d == 1 && (dw->is == 1 || dw->n == 1) && (dw->os == 1 || dw->out == 1) &&
            (!idx->present || dw->xs == 1 || dw->out == 1) && span < ((uint64_t)1 << 30) &&
            dw->n < ((int64_t)1 << 30))
            st->fast = mp_fast_for(in->type, st->idx_size, dw->k);
    }
}

HRESULT dmlc_infer_max_pooling(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const mp_args a = read_args(type, desc);
    dmlc_tensor in;
    HRESULT hr;
    if (FAILED(hr = dmlc_shapes_count(sh, a.outputs)) ||
        FAILED(hr = dmlc_tensor_init(&in, a.in_desc, opname, "InputTensor", 3, 5, dmlc_shapes_input_role(sh))))
        return hr;
    return validate(opname, &a, &in, sh);
}

HRESULT dmlc_create_max_pooling(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const mp_args a = read_args(type, desc);
    dmlc_tensor in, outs[2];
    dmlc_shapes sh = {opname, 0, a.outputs, outs, NULL};
    DMLC_OPERATOR_T* o;
    HRESULT hr;

    memset(&outs[1], 0, sizeof outs[1]);
    if (FAILED(hr = dmlc_tensor_init(&in, a.in_desc, opname, "InputTensor", 3, 5, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&outs[0], a.out_desc, opname, "OutputTensor", 3, 5, DMLC_OUTPUT)) ||
        FAILED(hr = dmlc_tensor_same_type(&in, "InputTensor", &outs[0], "OutputTensor", opname)) ||
        FAILED(hr = dmlc_tensor_same_rank(&in, "InputTensor", &outs[0], "OutputTensor", opname)))
        return hr;
    if (a.idx_desc) {
        char name[DMLC_TYPE_NAME_SIZE];
        if (FAILED(hr = dmlc_tensor_init(&outs[1], a.idx_desc, opname, "OutputIndicesTensor", 3, 5, DMLC_OUTPUT)) ||
            FAILED(hr = dmlc_tensor_same_rank(&in, "InputTensor", &outs[1], "OutputIndicesTensor", opname)))
            return hr;
        if (outs[1].type != DML_TENSOR_DATA_TYPE_UINT32 && outs[1].type != DML_TENSOR_DATA_TYPE_UINT64)
            return dmlc_fail(E_INVALIDARG, opname, "OutputIndicesTensor.DataType is %s, expected UINT32 or UINT64",
                             dmlc_data_type_name(outs[1].type, name));
    }
    if (FAILED(hr = validate(opname, &a, &in, &sh))) return hr;
    o = dmlc_operator_alloc(type, opname, 1, a.outputs, sizeof(mp_state));
    if (!o) return E_OUTOFMEMORY;
    o->inputs[0] = in;
    o->outputs[0] = outs[0];
    if (a.outputs > 1) o->outputs[1] = outs[1]; /* present == 0 when the desc has no indices tensor */
    o->execute = max_pooling_execute;
    plan((mp_state*)o->state, &a, &in, &outs[0], &outs[1]);
    *op = o;
    return S_OK;
}
