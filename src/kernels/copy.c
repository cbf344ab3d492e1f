/* copy.c - the strided N-d copy every data-movement operator reduces to.
 *
 * Kernels dispatch on element size (1, 2, 4, 8 bytes), never on data type: moving a value
 * never looks at it.  The loop nest is the caller's order (outermost first) after merging,
 * except that a transpose brings its two contiguous dimensions innermost (see
 * dmlc_copy_plan_init); the innermost one or two dimensions run in a specialised kernel:
 *   - a contiguous run in both tensors: memcpy;
 *   - an interleave (dst rows contiguous, the src columns are `cols` separate streams),
 *     which is depth-to-space's inner (W, block) loop: d[r*cols + c] = s[c*scs + r];
 *   - a deinterleave (the transpose of that), space-to-depth's inner loop;
 *   - a transpose of two long dimensions (NCHW <-> NHWC, any permutation that moves the
 *     innermost dimension): the cache-blocked kernel of transpose.inc;
 *   - every other element or a reversed row (slices with step 2 or -1): loops the
 *     compiler vectorises;
 *   - anything else, a plain 2-d strided loop.
 * Work is split across threads by outer iterations, or by rows when there are few. */
#include "../dmlc_internal.h"

#include <string.h>

#if defined(__SSE2__) || defined(_M_X64)
#  include <emmintrin.h>
#  define COPY_HAVE_SSE2 1
#endif
#if defined(__GNUC__) || defined(__clang__)
#  define DMLC_ALIGNED(n) __attribute__((aligned(n)))
#elif defined(_MSC_VER)
#  define DMLC_ALIGNED(n) __declspec(align(n))
#else
#  define DMLC_ALIGNED(n)
#endif

void dmlc_copy_plan_init(dmlc_copy_plan* plan, UINT elem_size, UINT ndim, const uint64_t* sizes,
                         const int64_t* dst_strides, const int64_t* src_strides)
{
    UINT n = 0;
    plan->elem_size = elem_size;
    plan->src_elem_size = elem_size;
    for (UINT i = 0; i < ndim; ++i) {
        if (sizes[i] == 1) continue;
        /* Merge into the previous dimension when it steps exactly over this one in both
         * tensors: {.., 4, 5} with strides {5, 1} is one dimension of 20. */
        if (n > 0 && plan->dst_strides[n - 1] == dst_strides[i] * (int64_t)sizes[i] &&
            plan->src_strides[n - 1] == src_strides[i] * (int64_t)sizes[i]) {
            plan->sizes[n - 1] *= sizes[i];
            plan->dst_strides[n - 1] = dst_strides[i];
            plan->src_strides[n - 1] = src_strides[i];
            continue;
        }
        plan->sizes[n] = sizes[i];
        plan->dst_strides[n] = dst_strides[i];
        plan->src_strides[n] = src_strides[i];
        ++n;
    }
    plan->ndim = n;
    /* A transpose: the innermost dimension is contiguous in one tensor only, and another
     * dimension is contiguous in the other.  The loop order of a copy is free, so that
     * dimension moves next to the innermost one, where the blocked transpose kernel takes
     * the pair.  Example: NCHW -> NHWC of {N, C, H, W} in the output's order {N, H, W, C}
     * merges to {N, H*W, C} with source strides {C*H*W, 1, H*W}: already in place.  The
     * output order {C, N, H*W} of a source {N, H*W, C} has source strides {1, H*W*C, C}:
     * C moves after N, giving {N, C, H*W} with the pair (C, H*W) innermost. */
    if (n >= 3 && plan->sizes[n - 1] >= 8) {
        const UINT last = n - 1;
        /* Which tensor is contiguous innermost; the other must be along the partner. */
        const int64_t* other = plan->dst_strides[last] == 1 && plan->src_strides[last] != 1 ? plan->src_strides
                             : plan->src_strides[last] == 1 && plan->dst_strides[last] != 1 ? plan->dst_strides : NULL;
        for (UINT t = 0; other && other[n - 2] != 1 && t + 2 < n; ++t) {
            if (other[t] != 1 || plan->sizes[t] < 8) continue;
            /* Move t to n - 2, the dimensions between it and n - 2 one place outward. */
            const uint64_t size = plan->sizes[t];
            const int64_t ds = plan->dst_strides[t], ss = plan->src_strides[t];
            for (UINT k = t; k + 2 < n; ++k) {
                plan->sizes[k] = plan->sizes[k + 1];
                plan->dst_strides[k] = plan->dst_strides[k + 1];
                plan->src_strides[k] = plan->src_strides[k + 1];
            }
            plan->sizes[last - 1] = size;
            plan->dst_strides[last - 1] = ds;
            plan->src_strides[last - 1] = ss;
            break;
        }
    }
}

/* ---- Transposes: register micro-blocks, then transpose.inc's cache blocks --------------- */
/* Each MICRO transposes an MB x MB block: d[i*dsi + j] = s[j*ssj + i].  The vector forms
 * only move bits (shuffles and unpacks), so NaN payloads and signalling NaNs pass as they
 * are, and work for every type of the element size. */
#ifdef COPY_HAVE_SSE2
static inline void micro_x32(uint32_t* d, int64_t dsi, const uint32_t* s, int64_t ssj)
{
    __m128i a = _mm_loadu_si128((const __m128i*)s), b = _mm_loadu_si128((const __m128i*)(s + ssj));
    __m128i c = _mm_loadu_si128((const __m128i*)(s + 2 * ssj)), e = _mm_loadu_si128((const __m128i*)(s + 3 * ssj));
    /* a = a0 a1 a2 a3 ...: ab01 = a0 b0 a1 b1, ce01 = c0 e0 c1 e1, rows i = 0, 1 = ab01|ce01 halves. */
    __m128i ab01 = _mm_unpacklo_epi32(a, b), ab23 = _mm_unpackhi_epi32(a, b);
    __m128i ce01 = _mm_unpacklo_epi32(c, e), ce23 = _mm_unpackhi_epi32(c, e);
    _mm_storeu_si128((__m128i*)d, _mm_unpacklo_epi64(ab01, ce01));
    _mm_storeu_si128((__m128i*)(d + dsi), _mm_unpackhi_epi64(ab01, ce01));
    _mm_storeu_si128((__m128i*)(d + 2 * dsi), _mm_unpacklo_epi64(ab23, ce23));
    _mm_storeu_si128((__m128i*)(d + 3 * dsi), _mm_unpackhi_epi64(ab23, ce23));
}
static inline void micro_x64(uint64_t* d, int64_t dsi, const uint64_t* s, int64_t ssj)
{
    __m128i a = _mm_loadu_si128((const __m128i*)s), b = _mm_loadu_si128((const __m128i*)(s + ssj));
    _mm_storeu_si128((__m128i*)d, _mm_unpacklo_epi64(a, b));
    _mm_storeu_si128((__m128i*)(d + dsi), _mm_unpackhi_epi64(a, b));
}
static inline void micro_x16(uint16_t* d, int64_t dsi, const uint16_t* s, int64_t ssj)
{
    __m128i r[8], t[8];
    for (int k = 0; k < 8; ++k) r[k] = _mm_loadu_si128((const __m128i*)(s + k * ssj));
    for (int k = 0; k < 4; ++k) {
        t[2 * k] = _mm_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
    }
    /* t[0] = rows 0,1 interleaved for i 0..3, t[1] for i 4..7, t[2], t[3] rows 2,3, ... */
    for (int k = 0; k < 2; ++k) {
        r[4 * k + 0] = _mm_unpacklo_epi32(t[k], t[k + 2]);
        r[4 * k + 1] = _mm_unpackhi_epi32(t[k], t[k + 2]);
        r[4 * k + 2] = _mm_unpacklo_epi32(t[k + 4], t[k + 6]);
        r[4 * k + 3] = _mm_unpackhi_epi32(t[k + 4], t[k + 6]);
    }
    /* r[0]: i 0,1 of rows 0..3; r[1]: i 2,3 of rows 0..3; r[2], r[3]: the same of rows 4..7;
     * r[4..7]: i 4..7. */
    for (int k = 0; k < 2; ++k) {
        _mm_storeu_si128((__m128i*)(d + (4 * k + 0) * dsi), _mm_unpacklo_epi64(r[4 * k], r[4 * k + 2]));
        _mm_storeu_si128((__m128i*)(d + (4 * k + 1) * dsi), _mm_unpackhi_epi64(r[4 * k], r[4 * k + 2]));
        _mm_storeu_si128((__m128i*)(d + (4 * k + 2) * dsi), _mm_unpacklo_epi64(r[4 * k + 1], r[4 * k + 3]));
        _mm_storeu_si128((__m128i*)(d + (4 * k + 3) * dsi), _mm_unpackhi_epi64(r[4 * k + 1], r[4 * k + 3]));
    }
}
#  define MB_X16 8
#  define MB_X32 4
#  define MB_X64 2
#else
#  define MB_X16 4
#  define MB_X32 4
#  define MB_X64 4
#endif
/* Portable micro-blocks: a fixed-size loop the compiler unrolls. */
#define DEFINE_MICRO_SCALAR(T, NAME, MBS)                                                             \
    static inline void NAME(T* d, int64_t dsi, const T* s, int64_t ssj)                            \
    {                                                                                                 \
        for (int j = 0; j < (MBS); ++j)                                                               \
            for (int i = 0; i < (MBS); ++i) d[i * dsi + j] = s[j * ssj + i];                          \
    }
DEFINE_MICRO_SCALAR(uint8_t, micro_x8, 8)
#ifndef COPY_HAVE_SSE2
DEFINE_MICRO_SCALAR(uint16_t, micro_x16, 4)
DEFINE_MICRO_SCALAR(uint32_t, micro_x32, 4)
DEFINE_MICRO_SCALAR(uint64_t, micro_x64, 4)
#endif

/* Elements from p to the next cache line, when rows `stride` elements apart all have p's
 * alignment (else 0: no start aligns them all). */
static uint64_t transpose_head(const void* p, int64_t stride, size_t elem_size)
{
    const uint64_t off = (uint64_t)(uintptr_t)p % 64;
    if (off == 0 || off % elem_size || ((uint64_t)stride * elem_size) % 64) return 0;
    return (64 - off) / elem_size;
}

/* n bytes from a block buffer to the destination; with `stream`, the whole cache lines of
 * the run take non-temporal stores and a partial line at either end ordinary ones (a
 * partial line written non-temporally costs a read of the line at the memory controller). */
static inline void transpose_write(void* dst, const void* src, uint64_t n, int stream)
{
    char* d = (char*)dst;
    const char* s = (const char*)src;
    uint64_t head = (64 - (uint64_t)(uintptr_t)d % 64) % 64, lines;
    if (!stream || n < head + 64) {
        memcpy(d, s, (size_t)n);
        return;
    }
    lines = (n - head) / 64 * 64;
    memcpy(d, s, (size_t)head);
    dmlc_copy_stream(d + head, s + head, (size_t)lines);
    memcpy(d + head + lines, s + head + lines, (size_t)(n - head - lines));
}

/* Cache blocks of 128-byte rows (128 x 128 bytes, 64 x 64 halves, 32 x 32 floats, 16 x 16
 * doubles): every source and destination run is two whole cache lines, and the block
 * buffer (at most 16 KiB) stays in L1.  Measured on a 2-core AMD EPYC (Zen 4) guest, in
 * CPU time: blocks of 256-byte rows were 20-40% slower on NCHW <-> NHWC and on H/W
 * transposes; 64-byte rows no faster than 128. */
#define T uint8_t
#define NAME transpose_x8
#define TILE_I 64
#define TILE_J 64
#define MB 8
#define MICRO micro_x8
#include "transpose.inc"
#undef T
#undef NAME
#undef TILE_I
#undef TILE_J
#undef MB
#undef MICRO
#define T uint16_t
#define NAME transpose_x16
#define TILE_I 32
#define TILE_J 32
#define MB MB_X16
#define MICRO micro_x16
#include "transpose.inc"
#undef T
#undef NAME
#undef TILE_I
#undef TILE_J
#undef MB
#undef MICRO
#define T uint32_t
#define NAME transpose_x32
#define TILE_I 32
#define TILE_J 32
#define MB MB_X32
#define MICRO micro_x32
#include "transpose.inc"
#undef T
#undef NAME
#undef TILE_I
#undef TILE_J
#undef MB
#undef MICRO
#define T uint64_t
#define NAME transpose_x64
#define TILE_I 16
#define TILE_J 16
#define MB MB_X64
#define MICRO micro_x64
#include "transpose.inc"
#undef T
#undef NAME
#undef TILE_I
#undef TILE_J
#undef MB
#undef MICRO

/* ---- Two-stream interleave and deinterleave, 16 bytes at a time ------------------------------
 * Block size 2 (the common depth/space case) makes the kernels below interleave two
 * source streams into one row, or split one row into two: per element that is a few
 * instructions of scalar moves, against one unpack (or shuffle) per 16 bytes with SSE2,
 * which every x86-64 has.  Moving a value never looks at it: these are bit moves. */
#ifdef COPY_HAVE_SSE2
/* d[2r] = a[r], d[2r+1] = b[r] for r < rows (a whole number of 16-byte vectors of a). */
static inline void interleave2_sse2(char* DMLC_RESTRICT d, const char* a, const char* b, uint64_t rows, size_t es)
{
    for (uint64_t i = 0; i + 16 <= rows * es; i += 16) {
        const __m128i x = _mm_loadu_si128((const __m128i*)(a + i)), y = _mm_loadu_si128((const __m128i*)(b + i));
        __m128i lo, hi;
        switch (es) {
        case 1: lo = _mm_unpacklo_epi8(x, y); hi = _mm_unpackhi_epi8(x, y); break;
        case 2: lo = _mm_unpacklo_epi16(x, y); hi = _mm_unpackhi_epi16(x, y); break;
        case 4: lo = _mm_unpacklo_epi32(x, y); hi = _mm_unpackhi_epi32(x, y); break;
        default: lo = _mm_unpacklo_epi64(x, y); hi = _mm_unpackhi_epi64(x, y); break;
        }
        _mm_storeu_si128((__m128i*)(d + 2 * i), lo);
        _mm_storeu_si128((__m128i*)(d + 2 * i + 16), hi);
    }
}

/* e[r] = s[2r], o[r] = s[2r+1] for r < rows (a whole number of 16-byte vectors of e). */
static inline void deinterleave2_sse2(char* DMLC_RESTRICT e, char* DMLC_RESTRICT o, const char* s, uint64_t rows,
                                      size_t es)
{
    for (uint64_t i = 0; i + 16 <= rows * es; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i*)(s + 2 * i)), y = _mm_loadu_si128((const __m128i*)(s + 2 * i + 16));
        __m128i ev, od;
        switch (es) {
        case 1: {
            const __m128i m = _mm_set1_epi16(0xff);
            ev = _mm_packus_epi16(_mm_and_si128(x, m), _mm_and_si128(y, m));
            od = _mm_packus_epi16(_mm_srli_epi16(x, 8), _mm_srli_epi16(y, 8));
            break;
        }
        case 2: /* each vector to {evens | odds} in 64-bit halves, then halves paired */
            x = _mm_shuffle_epi32(_mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xd8), 0xd8), 0xd8);
            y = _mm_shuffle_epi32(_mm_shufflehi_epi16(_mm_shufflelo_epi16(y, 0xd8), 0xd8), 0xd8);
            ev = _mm_unpacklo_epi64(x, y);
            od = _mm_unpackhi_epi64(x, y);
            break;
        case 4:
            ev = _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(x), _mm_castsi128_ps(y), 0x88));
            od = _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(x), _mm_castsi128_ps(y), 0xdd));
            break;
        default: ev = _mm_unpacklo_epi64(x, y); od = _mm_unpackhi_epi64(x, y); break;
        }
        _mm_storeu_si128((__m128i*)(e + i), ev);
        _mm_storeu_si128((__m128i*)(o + i), od);
    }
}
#  define COPY_SSE2_ONLY(...) __VA_ARGS__
#else
#  define COPY_SSE2_ONLY(...)
#endif

/* A transpose is worth its blocking when both sides are longer than a micro-block. */
#define TRANSPOSE_MIN 8

/* ---- 2-d kernels by element size -------------------------------------------------------- */
/* Each kernel copies `planes` 2-d blocks, plane p at d + p*dps and s + p*sps (elements):
 * the loop over the third-innermost dimension runs inside, so a small inner block costs
 * no dispatch per plane. */
#define DEFINE_COPY2D(T, NAME, TRANSPOSE)                                                            \
    /* d[2r] = s0[r], d[2r+1] = s1[r]: two streams into one row */                                    \
    static inline void NAME##_il2(uint64_t rows, T* DMLC_RESTRICT d, const T* s0, const T* s1)        \
    {                                                                                                 \
        uint64_t r = 0;                                                                               \
        COPY_SSE2_ONLY(r = rows / (16 / sizeof(T)) * (16 / sizeof(T));                                \
                       interleave2_sse2((char*)d, (const char*)s0, (const char*)s1, r, sizeof(T));)   \
        for (; r < rows; ++r) { d[2 * r] = s0[r]; d[2 * r + 1] = s1[r]; }                              \
    }                                                                                                 \
    /* d0[r] = s[2r], d1[r] = s[2r+1]: one row into two streams */                                    \
    static inline void NAME##_dl2(uint64_t rows, T* DMLC_RESTRICT d0, T* DMLC_RESTRICT d1, const T* s) \
    {                                                                                                 \
        uint64_t r = 0;                                                                               \
        COPY_SSE2_ONLY(r = rows / (16 / sizeof(T)) * (16 / sizeof(T));                                \
                       deinterleave2_sse2((char*)d0, (char*)d1, (const char*)s, r, sizeof(T));)      \
        for (; r < rows; ++r) { d0[r] = s[2 * r]; d1[r] = s[2 * r + 1]; }                              \
    }                                                                                                 \
    static void NAME##_block(uint64_t rows, uint64_t cols, T* DMLC_RESTRICT d, int64_t drs, int64_t dcs, \
                             const T* DMLC_RESTRICT s, int64_t srs, int64_t scs, int stream)          \
    {                                                                                                 \
        if (rows >= TRANSPOSE_MIN && cols >= TRANSPOSE_MIN) {                                         \
            if (dcs == 1 && srs == 1 && scs != 0) { /* d[r*drs + c] = s[c*scs + r] */                \
                TRANSPOSE(rows, cols, d, drs, s, scs, stream);                                        \
                return;                                                                               \
            }                                                                                         \
            if (scs == 1 && drs == 1) { /* d[c*dcs + r] = s[r*srs + c] */                            \
                TRANSPOSE(cols, rows, d, dcs, s, srs, stream);                                        \
                return;                                                                               \
            }                                                                                         \
        }                                                                                             \
        if (dcs == 1 && drs == (int64_t)cols && srs == 1) { /* interleave */                          \
            switch (cols) {                                                                           \
            case 2: NAME##_il2(rows, d, s, s + scs); return;                                          \
            case 3: {                                                                                 \
                const T *s1 = s + scs, *s2 = s + 2 * scs;                                             \
                for (uint64_t r = 0; r < rows; ++r) {                                                 \
                    d[3 * r] = s[r]; d[3 * r + 1] = s1[r]; d[3 * r + 2] = s2[r];                      \
                }                                                                                     \
                return;                                                                               \
            }                                                                                         \
            case 4: {                                                                                 \
                const T *s1 = s + scs, *s2 = s + 2 * scs, *s3 = s + 3 * scs;                          \
                for (uint64_t r = 0; r < rows; ++r) {                                                 \
                    d[4 * r] = s[r]; d[4 * r + 1] = s1[r]; d[4 * r + 2] = s2[r]; d[4 * r + 3] = s3[r]; \
                }                                                                                     \
                return;                                                                               \
            }                                                                                         \
            default:                                                                                  \
                for (uint64_t r = 0; r < rows; ++r)                                                   \
                    for (uint64_t c = 0; c < cols; ++c) d[r * cols + c] = s[(int64_t)c * scs + (int64_t)r]; \
                return;                                                                               \
            }                                                                                         \
        }                                                                                             \
        if (scs == 1 && srs == (int64_t)cols && drs == 1) { /* deinterleave */                        \
            switch (cols) {                                                                           \
            case 2: NAME##_dl2(rows, d, d + dcs, s); return;                                         \
            case 3: {                                                                                 \
                T *d1 = d + dcs, *d2 = d + 2 * dcs;                                                   \
                for (uint64_t r = 0; r < rows; ++r) {                                                 \
                    d[r] = s[3 * r]; d1[r] = s[3 * r + 1]; d2[r] = s[3 * r + 2];                      \
                }                                                                                     \
                return;                                                                               \
            }                                                                                         \
            case 4: {                                                                                 \
                T *d1 = d + dcs, *d2 = d + 2 * dcs, *d3 = d + 3 * dcs;                                \
                for (uint64_t r = 0; r < rows; ++r) {                                                 \
                    d[r] = s[4 * r]; d1[r] = s[4 * r + 1]; d2[r] = s[4 * r + 2]; d3[r] = s[4 * r + 3]; \
                }                                                                                     \
                return;                                                                               \
            }                                                                                         \
            default:                                                                                  \
                for (uint64_t r = 0; r < rows; ++r)                                                   \
                    for (uint64_t c = 0; c < cols; ++c) d[(int64_t)c * dcs + (int64_t)r] = s[r * cols + c]; \
                return;                                                                               \
            }                                                                                         \
        }                                                                                             \
        if (dcs == 1 && scs == 1) {                                                                   \
            for (uint64_t r = 0; r < rows; ++r)                                                       \
                memcpy(d + (int64_t)r * drs, s + (int64_t)r * srs, cols * sizeof(T));                 \
            return;                                                                                   \
        }                                                                                             \
        if (dcs == 1 && scs == -1) { /* reversed rows: a slice with step -1 */                        \
            for (uint64_t r = 0; r < rows; ++r) {                                                     \
                T* DMLC_RESTRICT dr = d + (int64_t)r * drs;                                           \
                const T* DMLC_RESTRICT sr = s + (int64_t)r * srs;                                     \
                for (uint64_t c = 0; c < cols; ++c) dr[c] = sr[-(int64_t)c];                          \
            }                                                                                         \
            return;                                                                                   \
        }                                                                                             \
        if (dcs == 1 && scs == 2) { /* every other element: a slice with step 2 */                    \
            for (uint64_t r = 0; r < rows; ++r) {                                                     \
                T* DMLC_RESTRICT dr = d + (int64_t)r * drs;                                           \
                const T* DMLC_RESTRICT sr = s + (int64_t)r * srs;                                     \
                for (uint64_t c = 0; c < cols; ++c) dr[c] = sr[2 * c];                                \
            }                                                                                         \
            return;                                                                                   \
        }                                                                                             \
        for (uint64_t r = 0; r < rows; ++r) {                                                         \
            T* dr = d + (int64_t)r * drs;                                                             \
            const T* sr = s + (int64_t)r * srs;                                                       \
            for (uint64_t c = 0; c < cols; ++c) dr[(int64_t)c * dcs] = sr[(int64_t)c * scs];          \
        }                                                                                             \
        (void)stream;                                                                                 \
    }

#define DEFINE_COPY3D(T, NAME)                                                                       \
    static void NAME(uint64_t planes, int64_t dps, int64_t sps, uint64_t rows, uint64_t cols, void* vd,   \
                     int64_t drs, int64_t dcs, const void* vs, int64_t srs, int64_t scs, int stream)   \
    {                                                                                                 \
        T* d = (T*)vd;                                                                                \
        const T* s = (const T*)vs;                                                                    \
        /* Block size 2, chosen once rather than per plane: planes of a small call are few rows. */  \
        if (cols == 2 && dcs == 1 && drs == 2 && srs == 1) {                                          \
            for (uint64_t p = 0; p < planes; ++p, d += dps, s += sps) NAME##_il2(rows, d, s, s + scs); \
            return;                                                                                   \
        }                                                                                             \
        if (cols == 2 && scs == 1 && srs == 2 && drs == 1) {                                          \
            for (uint64_t p = 0; p < planes; ++p, d += dps, s += sps) NAME##_dl2(rows, d, d + dcs, s); \
            return;                                                                                   \
        }                                                                                             \
        for (uint64_t p = 0; p < planes; ++p, d += dps, s += sps)                                     \
            NAME##_block(rows, cols, d, drs, dcs, s, srs, scs, stream);                               \
    }

DEFINE_COPY2D(uint8_t, copy2d_x8, transpose_x8)
DEFINE_COPY2D(uint16_t, copy2d_x16, transpose_x16)
DEFINE_COPY2D(uint32_t, copy2d_x32, transpose_x32)
DEFINE_COPY2D(uint64_t, copy2d_x64, transpose_x64)
DEFINE_COPY3D(uint8_t, copy2d_x8)
DEFINE_COPY3D(uint16_t, copy2d_x16)
DEFINE_COPY3D(uint32_t, copy2d_x32)
DEFINE_COPY3D(uint64_t, copy2d_x64)

typedef void (*copy2d_fn)(uint64_t planes, int64_t dps, int64_t sps, uint64_t rows, uint64_t cols, void* d,
                          int64_t drs, int64_t dcs, const void* s, int64_t srs, int64_t scs, int stream);

static copy2d_fn copy2d_for(UINT elem_size)
{
    switch (elem_size) {
    case 1: return copy2d_x8;
    case 2: return copy2d_x16;
    case 4: return copy2d_x32;
    default: return copy2d_x64;
    }
}

/* ---- The N-d driver ------------------------------------------------------------------ */
typedef struct copy_job {
    const dmlc_copy_plan* plan;
    char* dst;
    const char* src;
    copy2d_fn kernel;
    int run;          /* the innermost dimension is one contiguous run in both tensors */
    UINT outer_ndim;  /* dimensions looped outside the kernel */
    uint64_t rows;    /* the kernel's outer extent (split into pieces) */
    uint64_t cols;
    int64_t drs, dcs, srs, scs;
    uint64_t pieces;  /* pieces each kernel call is cut into, for threads */
    int stream;       /* large: kernels may write with non-temporal stores */
} copy_job;

/* Copies rows [r0, r1) of `planes` consecutive kernel blocks (plane strides in elements). */
static inline void copy_items(const copy_job* job, char* d, const char* s, uint64_t r0, uint64_t r1, uint64_t planes,
                              int64_t dps, int64_t sps)
{
    const int64_t es = job->plan->elem_size;
    d += (int64_t)r0 * job->drs * es;
    s += (int64_t)r0 * job->srs * es;
    if (job->run) {
        const uint64_t n = (r1 - r0) * (uint64_t)es;
        if (job->stream && n >= 4096) {
            /* A large output written in long runs (a packed copy, TILE's repeats of whole
             * planes): its whole lines skip the cache.  Measured here, runs of a few hundred
             * bytes (TILE along W, a slice's rows) lose by it: memcpy for those. */
            for (uint64_t p = 0; p < planes; ++p, d += dps * es, s += sps * es) transpose_write(d, s, n, 1);
        } else {
            for (uint64_t p = 0; p < planes; ++p, d += dps * es, s += sps * es) memcpy(d, s, (size_t)n);
        }
    } else {
        job->kernel(planes, dps, sps, r1 - r0, job->cols, d, job->drs, job->dcs, s, job->srs, job->scs, job->stream);
    }
}

/* Items [begin, end) of outer iterations x pieces.  The innermost outer dimension runs in
 * a tight loop; the multi-index above it advances once per pass. */
static void copy_range_body(void* vjob, uint64_t begin, uint64_t end)
{
    const copy_job* job = (const copy_job*)vjob;
    const dmlc_copy_plan* p = job->plan;
    const int64_t es = p->elem_size;
    const UINT od = job->outer_ndim;
    uint64_t idx[DMLC_MAX_PLAN_DIMS];
    uint64_t outer = begin / job->pieces, piece = begin % job->pieces, item = begin;
    int64_t doff = 0, soff = 0;
    for (UINT i = od; i-- > 0;) {
        idx[i] = outer % p->sizes[i];
        outer /= p->sizes[i];
        doff += (int64_t)idx[i] * p->dst_strides[i];
        soff += (int64_t)idx[i] * p->src_strides[i];
    }
    if (job->pieces > 1) {
        for (; item < end; ++item) {
            copy_items(job, job->dst + doff * es, job->src + soff * es, job->rows * piece / job->pieces,
                       job->rows * (piece + 1) / job->pieces, 1, 0, 0);
            if (++piece < job->pieces) continue;
            piece = 0;
            for (UINT i = od; i-- > 0;) {
                doff += p->dst_strides[i];
                soff += p->src_strides[i];
                if (++idx[i] < p->sizes[i]) break;
                doff -= (int64_t)p->sizes[i] * p->dst_strides[i];
                soff -= (int64_t)p->sizes[i] * p->src_strides[i];
                idx[i] = 0;
            }
        }
        return;
    }
    if (od == 0) {
        copy_items(job, job->dst, job->src, 0, job->rows, 1, 0, 0);
        return;
    }
    while (item < end) {
        const UINT last = od - 1;
        uint64_t count = p->sizes[last] - idx[last];
        if (count > end - item) count = end - item;
        copy_items(job, job->dst + doff * es, job->src + soff * es, 0, job->rows, count, p->dst_strides[last],
                   p->src_strides[last]);
        item += count;
        /* Carry into the dimensions above the tight loop. */
        doff += (int64_t)count * p->dst_strides[last];
        soff += (int64_t)count * p->src_strides[last];
        idx[last] += count;
        for (UINT i = od; i-- > 0 && idx[i] == p->sizes[i];) {
            doff -= (int64_t)p->sizes[i] * p->dst_strides[i];
            soff -= (int64_t)p->sizes[i] * p->src_strides[i];
            idx[i] = 0;
            if (i == 0) break;
            doff += p->dst_strides[i - 1];
            soff += p->src_strides[i - 1];
            ++idx[i - 1];
        }
    }
}

static void copy_range(void* vjob, uint64_t begin, uint64_t end)
{
    copy_range_body(vjob, begin, end);
    if (((const copy_job*)vjob)->stream) dmlc_stream_fence(); /* this thread's non-temporal stores */
}

/* Fills job for plan p (one piece per kernel call); returns 0 when the plan is a single
 * element, which the caller copies itself. */
static int copy_job_init(copy_job* job, const dmlc_copy_plan* p, void* dst, const void* src)
{
    memset(job, 0, sizeof *job);
    job->plan = p;
    job->dst = (char*)dst;
    job->src = (const char*)src;
    job->kernel = copy2d_for(p->elem_size);
    job->cols = 1;
    job->pieces = 1;
    if (p->ndim == 0) return 0;
    if (p->dst_strides[p->ndim - 1] == 1 && p->src_strides[p->ndim - 1] == 1) {
        job->run = 1;
        job->outer_ndim = p->ndim - 1;
        job->rows = p->sizes[p->ndim - 1];
        job->drs = job->srs = 1;
    } else if (p->ndim >= 2) {
        job->outer_ndim = p->ndim - 2;
        job->rows = p->sizes[p->ndim - 2];
        job->cols = p->sizes[p->ndim - 1];
        job->drs = p->dst_strides[p->ndim - 2];
        job->srs = p->src_strides[p->ndim - 2];
        job->dcs = p->dst_strides[p->ndim - 1];
        job->scs = p->src_strides[p->ndim - 1];
    } else {
        job->rows = p->sizes[0];
        job->drs = p->dst_strides[0];
        job->srs = p->src_strides[0];
    }
    return 1;
}

/* For a copy small enough for one thread: the outer dimension with the most iterations
 * moved innermost of the outer ones, where the kernel loops over it as planes in one call
 * (depth-to-space of (1,16,8,8): 8 calls of 8 planes instead of 32 calls of 2).  The order
 * of outer loops only changes the order of writes, which matters for large copies alone. */
static const dmlc_copy_plan* most_planes_last(const dmlc_copy_plan* p, UINT outer_ndim, dmlc_copy_plan* tmp)
{
    UINT best = 0;
    if (outer_ndim < 2) return p;
    for (UINT i = 1; i < outer_ndim; ++i)
        if (p->sizes[i] > p->sizes[best]) best = i;
    if (p->sizes[best] <= p->sizes[outer_ndim - 1]) return p;
    *tmp = *p;
    for (UINT i = best; i + 1 < outer_ndim; ++i) {
        tmp->sizes[i] = p->sizes[i + 1];
        tmp->dst_strides[i] = p->dst_strides[i + 1];
        tmp->src_strides[i] = p->src_strides[i + 1];
    }
    tmp->sizes[outer_ndim - 1] = p->sizes[best];
    tmp->dst_strides[outer_ndim - 1] = p->dst_strides[best];
    tmp->src_strides[outer_ndim - 1] = p->src_strides[best];
    return tmp;
}

void dmlc_copy_run(const dmlc_copy_plan* p, void* dst, const void* src)
{
    copy_job job;
    dmlc_copy_plan tmp;
    uint64_t outer = 1, bytes = 2 * (uint64_t)p->elem_size, threads;
    if (!copy_job_init(&job, p, dst, src)) {
        memcpy(dst, src, p->elem_size);
        return;
    }
    for (UINT i = 0; i < p->ndim; ++i) bytes *= p->sizes[i];
    if (bytes < 2 * DMLC_MIN_BYTES_PER_THREAD) {
        p = most_planes_last(p, job.outer_ndim, &tmp);
        job.plan = p;
    }
    for (UINT i = 0; i < job.outer_ndim; ++i) outer *= p->sizes[i];
    /* Few outer iterations (one big memcpy, say): cut each kernel call into pieces so every
     * thread gets a share. */
    job.stream = bytes / 2 >= DMLC_STREAM_MIN_BYTES && dmlc_cpu_has(DMLC_CPU_SSE2);
    threads = dmlc_threads_for(bytes);
    if (threads > 1 && outer < 8 * threads) {
        job.pieces = 8 * threads / outer + 1;
        if (job.pieces > job.rows) job.pieces = job.rows;
        if (job.pieces == 0) job.pieces = 1;
    }
    dmlc_parallel_for(outer * job.pieces, bytes, copy_range, &job);
}

void dmlc_copy_run_serial(const dmlc_copy_plan* p, void* dst, const void* src)
{
    copy_job job;
    uint64_t outer = 1;
    if (!copy_job_init(&job, p, dst, src)) {
        memcpy(dst, src, p->elem_size);
        return;
    }
    for (UINT i = 0; i < job.outer_ndim; ++i) outer *= p->sizes[i];
    copy_range(&job, 0, outer);
}

/* ---- Element-wise maps ------------------------------------------------------------------- */
typedef struct map_job {
    const dmlc_copy_plan* plan;
    char* dst;
    const char* src;
    dmlc_row_fn fn;
    const void* ctx;
    UINT outer_ndim;  /* all but the innermost dimension */
    uint64_t n;       /* the innermost dimension: one call of fn, cut into pieces */
    int64_t ds, ss;
    uint64_t pieces;
} map_job;

/* Items [begin, end) of outer rows x pieces. */
static void map_range(void* vjob, uint64_t begin, uint64_t end)
{
    const map_job* job = (const map_job*)vjob;
    const dmlc_copy_plan* p = job->plan;
    const int64_t es = p->elem_size, ses = p->src_elem_size;
    const UINT od = job->outer_ndim;
    uint64_t idx[DMLC_MAX_PLAN_DIMS];
    uint64_t outer = begin / job->pieces, piece = begin % job->pieces;
    int64_t doff = 0, soff = 0;
    for (UINT i = od; i-- > 0;) {
        idx[i] = outer % p->sizes[i];
        outer /= p->sizes[i];
        doff += (int64_t)idx[i] * p->dst_strides[i];
        soff += (int64_t)idx[i] * p->src_strides[i];
    }
    for (uint64_t item = begin; item < end; ++item) {
        const uint64_t c0 = job->n * piece / job->pieces, c1 = job->n * (piece + 1) / job->pieces;
        job->fn(job->ctx, job->dst + (doff + (int64_t)c0 * job->ds) * es, job->ds,
                job->src + (soff + (int64_t)c0 * job->ss) * ses, job->ss, c1 - c0);
        if (++piece < job->pieces) continue;
        piece = 0;
        for (UINT i = od; i-- > 0;) {
            doff += p->dst_strides[i];
            soff += p->src_strides[i];
            if (++idx[i] < p->sizes[i]) break;
            doff -= (int64_t)p->sizes[i] * p->dst_strides[i];
            soff -= (int64_t)p->sizes[i] * p->src_strides[i];
            idx[i] = 0;
        }
    }
}

void dmlc_map_run(const dmlc_copy_plan* p, void* dst, const void* src, dmlc_row_fn fn, const void* ctx)
{
    map_job job;
    uint64_t outer = 1, bytes = (uint64_t)p->elem_size + p->src_elem_size, threads;
    if (p->ndim == 0) { /* a single element */
        fn(ctx, dst, 1, src, 1, 1);
        return;
    }
    job.plan = p;
    job.dst = (char*)dst;
    job.src = (const char*)src;
    job.fn = fn;
    job.ctx = ctx;
    job.outer_ndim = p->ndim - 1;
    job.n = p->sizes[p->ndim - 1];
    job.ds = p->dst_strides[p->ndim - 1];
    job.ss = p->src_strides[p->ndim - 1];
    job.pieces = 1;
    for (UINT i = 0; i < p->ndim; ++i) bytes *= p->sizes[i];
    for (UINT i = 0; i < job.outer_ndim; ++i) outer *= p->sizes[i];
    threads = dmlc_threads_for(bytes);
    if (threads > 1 && outer < 8 * threads) { /* few long rows: cut them so every thread gets a share */
        job.pieces = 8 * threads / outer + 1;
        if (job.pieces > job.n) job.pieces = job.n;
    }
    dmlc_parallel_for(outer * job.pieces, bytes, map_range, &job);
}
