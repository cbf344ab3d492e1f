/* copy.c - the strided N-d copy every data-movement operator reduces to.
 *
 * Kernels dispatch on element size (1, 2, 4, 8 bytes), never on data type: moving a value
 * never looks at it.  The loop nest is the caller's order (outermost first) after merging;
 * the innermost one or two dimensions run in a specialised kernel:
 *   - a contiguous run in both tensors: memcpy;
 *   - an interleave (dst rows contiguous, the src columns are `cols` separate streams),
 *     which is depth-to-space's inner (W, block) loop: d[r*cols + c] = s[c*scs + r];
 *   - a deinterleave (the transpose of that), space-to-depth's inner loop;
 *   - anything else, a plain 2-d strided loop.
 * Work is split across threads by outer iterations, or by rows when there are few. */
#include "../dmlc_internal.h"

#include <string.h>

void dmlc_copy_plan_init(dmlc_copy_plan* plan, UINT elem_size, UINT ndim, const uint64_t* sizes,
                         const int64_t* dst_strides, const int64_t* src_strides)
{
    UINT n = 0;
    plan->elem_size = elem_size;
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
}

/* ---- Two-stream interleave and deinterleave, 16 bytes at a time ------------------------------
 * Block size 2 (the common depth/space case) makes the kernels below interleave two
 * source streams into one row, or split one row into two: per element that is a few
 * instructions of scalar moves, against one unpack (or shuffle) per 16 bytes with SSE2,
 * which every x86-64 has.  Moving a value never looks at it: these are bit moves. */
#if defined(__SSE2__) || defined(_M_X64)
#  include <emmintrin.h>
#  define DMLC_COPY_SSE2 1

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
static inline void deinterleave2_sse2(char* DMLC_RESTRICT e, char* DMLC_RESTRICT o, const char* s, uint64_t rows, size_t es)
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
#endif

#ifdef DMLC_COPY_SSE2
#  define DMLC_SSE2_ONLY(...) __VA_ARGS__
#else
#  define DMLC_SSE2_ONLY(...)
#endif

/* ---- 2-d kernels by element size -------------------------------------------------------- */
/* Each kernel copies `planes` 2-d blocks, plane p at d + p*dps and s + p*sps (elements):
 * the loop over the third-innermost dimension runs inside, so a small inner block costs
 * no dispatch per plane. */
#define DEFINE_COPY2D(T, NAME)                                                                       \
    /* d[2r] = s0[r], d[2r+1] = s1[r]: two streams into one row */                                    \
    static inline void NAME##_il2(uint64_t rows, T* DMLC_RESTRICT d, const T* s0, const T* s1)        \
    {                                                                                                 \
        uint64_t r = 0;                                                                               \
        DMLC_SSE2_ONLY(r = rows / (16 / sizeof(T)) * (16 / sizeof(T));                                \
                       interleave2_sse2((char*)d, (const char*)s0, (const char*)s1, r, sizeof(T));)   \
        for (; r < rows; ++r) { d[2 * r] = s0[r]; d[2 * r + 1] = s1[r]; }                              \
    }                                                                                                 \
    /* d0[r] = s[2r], d1[r] = s[2r+1]: one row into two streams */                                    \
    static inline void NAME##_dl2(uint64_t rows, T* DMLC_RESTRICT d0, T* DMLC_RESTRICT d1, const T* s) \
    {                                                                                                 \
        uint64_t r = 0;                                                                               \
        DMLC_SSE2_ONLY(r = rows / (16 / sizeof(T)) * (16 / sizeof(T));                                \
                       deinterleave2_sse2((char*)d0, (char*)d1, (const char*)s, r, sizeof(T));)      \
        for (; r < rows; ++r) { d0[r] = s[2 * r]; d1[r] = s[2 * r + 1]; }                              \
    }                                                                                                 \
    static void NAME##_block(uint64_t rows, uint64_t cols, T* DMLC_RESTRICT d, int64_t drs, int64_t dcs, \
                             const T* DMLC_RESTRICT s, int64_t srs, int64_t scs)                      \
    {                                                                                                 \
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
        for (uint64_t r = 0; r < rows; ++r) {                                                         \
            T* dr = d + (int64_t)r * drs;                                                             \
            const T* sr = s + (int64_t)r * srs;                                                       \
            for (uint64_t c = 0; c < cols; ++c) dr[(int64_t)c * dcs] = sr[(int64_t)c * scs];          \
        }                                                                                             \
    }

#define DEFINE_COPY3D(T, NAME)                                                                       \
    static void NAME(uint64_t planes, int64_t dps, int64_t sps, uint64_t rows, uint64_t cols, void* vd,   \
                     int64_t drs, int64_t dcs, const void* vs, int64_t srs, int64_t scs)               \
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
            NAME##_block(rows, cols, d, drs, dcs, s, srs, scs);                                       \
    }

DEFINE_COPY2D(uint8_t, copy2d_x8)
DEFINE_COPY2D(uint16_t, copy2d_x16)
DEFINE_COPY2D(uint32_t, copy2d_x32)
DEFINE_COPY2D(uint64_t, copy2d_x64)
DEFINE_COPY3D(uint8_t, copy2d_x8)
DEFINE_COPY3D(uint16_t, copy2d_x16)
DEFINE_COPY3D(uint32_t, copy2d_x32)
DEFINE_COPY3D(uint64_t, copy2d_x64)

typedef void (*copy2d_fn)(uint64_t planes, int64_t dps, int64_t sps, uint64_t rows, uint64_t cols, void* d,
                          int64_t drs, int64_t dcs, const void* s, int64_t srs, int64_t scs);

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
} copy_job;

/* Copies rows [r0, r1) of `planes` consecutive kernel blocks (plane strides in elements). */
static inline void copy_items(const copy_job* job, char* d, const char* s, uint64_t r0, uint64_t r1, uint64_t planes,
                              int64_t dps, int64_t sps)
{
    const int64_t es = job->plan->elem_size;
    d += (int64_t)r0 * job->drs * es;
    s += (int64_t)r0 * job->srs * es;
    if (job->run) {
        for (uint64_t p = 0; p < planes; ++p, d += dps * es, s += sps * es)
            memcpy(d, s, (size_t)((r1 - r0) * (uint64_t)es));
    } else {
        job->kernel(planes, dps, sps, r1 - r0, job->cols, d, job->drs, job->dcs, s, job->srs, job->scs);
    }
}

/* Items [begin, end) of outer iterations x pieces.  The innermost outer dimension runs in
 * a tight loop; the multi-index above it advances once per pass. */
static void copy_range(void* vjob, uint64_t begin, uint64_t end)
{
    const copy_job* job = (const copy_job*)vjob;
    const dmlc_copy_plan* p = job->plan;
    const int64_t es = p->elem_size;
    const UINT od = job->outer_ndim;
    uint64_t idx[DMLC_MAX_DIMS];
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
    if (best == outer_ndim - 1 || p->sizes[best] <= p->sizes[outer_ndim - 1]) return p;
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
    for (UINT i = 0; i < p->ndim; ++i) bytes *= p->sizes[i];
    if (bytes < 2 * DMLC_MIN_BYTES_PER_THREAD && copy_job_init(&job, p, dst, src))
        p = most_planes_last(p, job.outer_ndim, &tmp);
    if (!copy_job_init(&job, p, dst, src)) {
        memcpy(dst, src, p->elem_size);
        return;
    }
    for (UINT i = 0; i < job.outer_ndim; ++i) outer *= p->sizes[i];
    /* Few outer iterations (one big memcpy, say): cut each kernel call into pieces so every
     * thread gets a share. */
    threads = dmlc_thread_count();
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
