/* topk.c - DML_OPERATOR_TOP_K and DML_OPERATOR_TOP_K1: the K greatest or least elements of
 * each sequence along Axis, sorted, and their indices (docs/operators/top_k1.rst).
 *
 * Both outputs have the input's sizes with K on Axis.  Per sequence (the n elements along
 * Axis at one position of the other axes), its indices j are sorted by value, descending
 * for DECREASING (TOP_K always), ascending for INCREASING, equal values by ascending j in
 * both directions; the first K of that order give values[k] = in[j_k] (the element's bits)
 * and indices[k] = j_k.  The order is argmax's total one (src/kernels/order.h): -0.0 equals
 * +0.0, every NaN is above +inf and equal to every other NaN.
 *
 * Each element becomes a pair (key, j) whose unsigned key is greater for a better element
 * (the order key, complemented for INCREASING); a pair is better than another with a
 * greater key, or the same key and a smaller j.  Example, DECREASING over {2, 7, 7, 1}
 * with K 2: pairs (2,0) (7,1) (7,2) (1,3); the best two are (7,1) then (7,2).
 * A row is scanned through a buffer of min(n, 2K) pairs: an element enters only when it
 * beats the bar, the worst of the K best found so far (strictly: an equal key has a
 * greater j, so it is worse); a full buffer keeps its K best by a selection (quickselect,
 * heap selection if it recurses too deep) and raises the bar.  Each flush of K elements
 * costs O(K), so the scan is O(n) whatever the input's order (sorted input included), and
 * most elements of a long row cost one compare per block of them; the K best are then
 * sorted by a heap sort: O(n + K log K) in all.
 * Rows are shared out across threads; with fewer rows than threads and long rows, each
 * row is split into parts whose K best are merged by the same selection.  An operator
 * runs from many threads at once, so scratch memory is the call's: the buffer on the stack
 * for K <= TK_STACK_K, else allocated per call, and without memory a slower stack-only path
 * (row_in_passes) still gives the result: execution never fails.  The test suite reaches
 * those paths with the environment variable DMLC_TEST_NO_SCRATCH=1, read when an operator
 * is created: that operator then allocates nothing, as if no memory were to be had. */
#include "../dmlc_internal.h"
#include "../kernels/order.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TK_STACK_K 64       /* K up to this: the scan's buffer (2K pairs) on the stack */
#define TK_MAX_PARTS 64      /* parts per row when the rows are fewer than the threads */
#define TK_MIN_PART 16384    /* elements per part at least */

typedef struct tk_pair {
    uint64_t key; /* greater: better */
    uint64_t idx; /* index in the sequence */
} tk_pair;

static inline int tk_better(const tk_pair* a, const tk_pair* b)
{
    return a->key > b->key || (a->key == b->key && a->idx < b->idx);
}

/* ---- Heaps of pairs: the worst at the root --------------------------------------------- */
static void heap_down(tk_pair* h, uint64_t n, uint64_t i)
{
    const tk_pair v = h[i];
    for (;;) {
        uint64_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && tk_better(&h[c], &h[c + 1])) ++c; /* the worse child */
        if (!tk_better(&v, &h[c])) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = v;
}

static void heap_make(tk_pair* h, uint64_t n)
{
    for (uint64_t i = n / 2; i-- > 0;) heap_down(h, n, i);
}

/* A heap of n pairs becomes those pairs best first: the worst goes to the end, n times. */
static void heap_sort_best_first(tk_pair* h, uint64_t n)
{
    while (n > 1) {
        const tk_pair t = h[0];
        h[0] = h[--n];
        h[n] = t;
        heap_down(h, n, 0);
    }
}

/* a[0, k) becomes the k best of a[0, n) (in no order) by a heap over a[0, k). */
static void heap_select(tk_pair* a, uint64_t n, uint64_t k)
{
    heap_make(a, k);
    for (uint64_t i = k; i < n; ++i)
        if (tk_better(&a[i], &a[0])) {
            const tk_pair t = a[0];
            a[0] = a[i];
            a[i] = t;
            heap_down(a, k, 0);
        }
}

static inline void swap_pairs(tk_pair* a, tk_pair* b)
{
    const tk_pair t = *a;
    *a = *b;
    *b = t;
}

/* a[0, k) becomes the k best of a[0, n), 0 < k <= n, in no order (nth_element's contract):
 * quickselect with a median-of-three pivot; after 2 log2(n) rounds, heap selection. */
static void select_best(tk_pair* a, uint64_t n, uint64_t k)
{
    uint64_t lo = 0, hi = n, depth = 0;
    for (uint64_t m = n; m > 1; m >>= 1) depth += 2;
    while (hi - lo > 16) {
        uint64_t mid = lo + (hi - lo) / 2, store = lo;
        tk_pair pivot;
        if (depth-- == 0) {
            heap_select(a + lo, hi - lo, k - lo);
            return;
        }
        /* Median of three to the end. */
        if (tk_better(&a[mid], &a[lo])) swap_pairs(&a[mid], &a[lo]);
        if (tk_better(&a[hi - 1], &a[lo])) swap_pairs(&a[hi - 1], &a[lo]);
        if (tk_better(&a[hi - 1], &a[mid])) swap_pairs(&a[hi - 1], &a[mid]);
        swap_pairs(&a[mid], &a[hi - 1]);
        pivot = a[hi - 1];
        for (uint64_t i = lo; i + 1 < hi; ++i)
            if (tk_better(&a[i], &pivot)) swap_pairs(&a[i], &a[store++]);
        swap_pairs(&a[store], &a[hi - 1]);
        /* a[lo, store) are better than the pivot, now at store; the rest worse. */
        if (k <= store)
            hi = store;
        else if (k > store + 1)
            lo = store + 1;
        else
            return;
    }
    /* A short range: insertion sort, best first. */
    for (uint64_t i = lo + 1; i < hi; ++i) {
        const tk_pair v = a[i];
        uint64_t j = i;
        while (j > lo && tk_better(&v, &a[j - 1])) {
            a[j] = a[j - 1];
            --j;
        }
        a[j] = v;
    }
}

/* The k best of a[0, n) (n >= k), best first, in a[0, k). */
static void best_sorted(tk_pair* a, uint64_t n, uint64_t k)
{
    if (n > k) select_best(a, n, k);
    heap_make(a, k);
    heap_sort_best_first(a, k);
}

/* The buffer of a scan is full: its k best move to buf[0, k) and the worst of them, the
 * bar a later element must clear, is returned. */
static tk_pair flush_buffer(tk_pair* buf, uint64_t count, uint64_t k)
{
    tk_pair worst;
    if (count > k) select_best(buf, count, k);
    worst = buf[0];
    for (uint64_t i = 1; i < k; ++i)
        if (tk_better(&worst, &buf[i])) worst = buf[i];
    return worst;
}

/* ---- State ------------------------------------------------------------------------------ */
typedef struct tk_state tk_state;

/* The pairs of elements [c0, c1) of one sequence (stride in elements, indices counted from
 * the sequence's start; c1 - c0 >= k) into buf, which holds cap pairs (cap > k, or cap =
 * c1 - c0): returns count, k <= count <= cap, with the k best pairs among buf[0, count). */
typedef uint64_t (*tk_scan_fn)(const tk_state* st, const char* seq, int64_t stride, uint64_t c0, uint64_t c1,
                               uint64_t k, uint64_t cap, tk_pair* buf);
/* values[i] = seq[pairs[i].idx] for i < k: the element's bits, moved by size. */
typedef void (*tk_gather_fn)(const tk_pair* pairs, uint64_t k, const char* seq, int64_t stride, char* values,
                             int64_t vstride);

struct tk_state {
    UINT elem_size;
    UINT index_size;       /* 4 or 8 */
    uint64_t flip;         /* 0 (DECREASING) or all ones (INCREASING): complements the narrow keys */
    uint64_t n, k;         /* sequence length, K */
    int64_t in_axis, val_axis, idx_axis; /* strides along Axis, elements */
    /* The other axes (size 1 dropped), outermost first. */
    UINT other;
    uint64_t other_sizes[DMLC_MAX_DIMS];
    int64_t other_in[DMLC_MAX_DIMS], other_val[DMLC_MAX_DIMS], other_idx[DMLC_MAX_DIMS];
    uint64_t rows;         /* product of other_sizes */
    uint64_t parts;        /* parts per row (K <= TK_STACK_K only; 1: whole rows) */
    uint64_t blocks;       /* row ranges shared out across threads, each with its scratch */
    uint64_t scratch_pairs; /* pairs of a row's buffer, min(n, 2K), or (parts > 1) candidates in all */
    int no_scratch;         /* DMLC_TEST_NO_SCRATCH=1: allocate nothing (the paths without memory) */
    tk_scan_fn scan;
    tk_gather_fn gather;
};

/* ---- Kernels per type ------------------------------------------------------------------ */
/* Keys.  The order in the element's own width first (NK, signed or unsigned: an integer is
 * its own key, a float its order key, which fits NK), complemented for INCREASING (all
 * ones reverse the order of a signed or an unsigned NK alike); then widened to the pair's
 * unsigned 64-bit key by an order-keeping map (a signed key sign-extended with its top bit
 * flipped, an unsigned one zero-extended).  So narrow keys compare as their pairs do. */
#define TK_SIGN ((uint64_t)1 << 63)
#define tk_wide_s(nk) ((uint64_t)(int64_t)(nk) ^ TK_SIGN)
#define tk_wide_u(nk) ((uint64_t)(nk))
/* FLOAT32's narrow key without branches or selects (SSE2 has every operation it needs, so
 * the block loop vectorises on any x86-64): dmlc_key_f32's value, every NaN one above
 * +inf's.  Example: -1.0f is 0xbf800000: m 0x3f800000, sign mask -1, key -0x3f800000. */
static inline int32_t tk_nk_f32(float v)
{
    int32_t b, m, sign, nan;
    memcpy(&b, &v, 4);
    m = b & 0x7fffffff;
    nan = -(int32_t)(m > 0x7f800000);
    m = (m & ~nan) | (0x7f800001 & nan);
    sign = (b >> 31) & ~nan; /* arithmetic shift: all ones for a negative number */
    return (m ^ sign) - sign;
}
#define tk_nk_f64(v) dmlc_key_f64(v)
#define tk_nk_f16(v) ((int32_t)dmlc_key_f16(v))
#define tk_nk_same(v) (v)

/* Elements enter the buffer only when they beat the bar (the worst of the K best found
 * so far; an equal key comes later, so it is worse); a full buffer keeps its K best
 * (flush_buffer: a selection, O(cap)), so each element costs O(1) amortised whatever the
 * input's order.  The elements come in segments of TK_SEG blocks of TK_BLOCK.  First each
 * block's greatest narrow key (a branch-free loop the compiler vectorises for unit
 * strides); with K blocks or more, the K-th greatest of those maxima, t, is a second bar:
 * K elements have a key >= t, so an element below t is never among the K best (on sorted
 * input this keeps all but about K blocks out of the buffer).  Only the maxima above the
 * bars take part in that selection: with fewer than K of them, t would raise nothing.  Then only a block whose
 * maximum clears both bars is visited: its keys and a byte per element (1: above the bars)
 * in one more branch-free loop, and only the elements whose byte is set (found eight bytes
 * at a time) enter, in index order; each is compared again, since a flush within the
 * block raises the bar.  Until the first flush or t there is no bar (open): the first cap
 * elements enter.  (Flipping with all ones reverses the order of a signed or an unsigned
 * NK alike.)  ATTR: where the CPU has AVX2, the same kernel is compiled a second time for
 * it (TK_SCAN below). */
#define TK_BLOCK 64
#define TK_SEG 256
/* The k-th greatest of a[0, n), 1 <= k <= n (a is reordered): quickselect with a
 * three-way partition, greater keys first. */
#define TK_KTH(NAME, NK)                                                                                          \
    static NK tk_kth_##NAME(NK* a, uint64_t n, uint64_t k)                                                        \
    {                                                                                                             \
        uint64_t lo = 0, hi = n;                                                                                  \
        while (hi - lo > 1) {                                                                                     \
            const NK p = a[lo + (hi - lo) / 2];                                                                   \
            uint64_t gt = lo, i = lo, lt = hi; /* [lo, gt) > p, [gt, i) == p, [lt, hi) < p */                   \
            while (i < lt) {                                                                                      \
                const NK v = a[i];                                                                                \
                if (v > p) {                                                                                      \
                    a[i++] = a[gt];                                                                               \
                    a[gt++] = v;                                                                                  \
                } else if (v < p) {                                                                               \
                    a[i] = a[--lt];                                                                               \
                    a[lt] = v;                                                                                    \
                } else {                                                                                          \
                    ++i;                                                                                          \
                }                                                                                                 \
            }                                                                                                     \
            if (k - 1 < gt)                                                                                       \
                hi = gt;                                                                                          \
            else if (k - 1 >= lt)                                                                                 \
                lo = lt;                                                                                          \
            else                                                                                                  \
                return p;                                                                                         \
        }                                                                                                         \
        return a[lo];                                                                                             \
    }
#define TK_SCAN_DEF(FN, ATTR, NAME, T, NK, NKMIN, NKEY, WIDE)                                                    \
    ATTR static uint64_t FN(const tk_state* st, const char* seq, int64_t stride, uint64_t c0, uint64_t c1,       \
                            uint64_t k, uint64_t cap, tk_pair* buf)                                               \
    {                                                                                                             \
        const T* x = (const T*)(const void*)seq;                                                                  \
        const NK nflip = (NK)st->flip;                                                                            \
        uint64_t count = 0;                                                                                       \
        NK thr = 0, kb[TK_BLOCK], mx[TK_SEG], sel[TK_SEG];                                                        \
        int open = 1; /* no bar yet: every element enters; else those above thr */                               \
        unsigned char hit[TK_BLOCK];                                                                              \
        for (uint64_t s = c0; s < c1;) {                                                                          \
            const uint64_t se = c1 - s < TK_SEG * TK_BLOCK ? c1 : s + TK_SEG * TK_BLOCK;                          \
            const uint64_t nb = (se - s + TK_BLOCK - 1) / TK_BLOCK;                                               \
            uint64_t above = 0; /* sel[0, above): the maxima above the bar (all, while open) */                   \
            for (uint64_t b = 0; b < nb; ++b) {                                                                   \
                const uint64_t i = s + b * TK_BLOCK, len = se - i < TK_BLOCK ? se - i : TK_BLOCK;                 \
                const T* xb = x + (int64_t)i * stride;                                                            \
                NK m = (NK)(NKEY(xb[0]) ^ nflip);                                                                 \
                if (stride == 1) {                                                                                \
                    for (uint64_t j = 1; j < len; ++j) {                                                          \
                        const NK v = (NK)(NKEY(xb[j]) ^ nflip);                                                   \
                        m = v > m ? v : m;                                                                        \
                    }                                                                                             \
                } else {                                                                                          \
                    for (uint64_t j = 1; j < len; ++j) {                                                          \
                        const NK v = (NK)(NKEY(xb[(int64_t)j * stride]) ^ nflip);                                 \
                        m = v > m ? v : m;                                                                        \
                    }                                                                                             \
                }                                                                                                 \
                mx[b] = sel[above] = m;                                                                           \
                above += (uint64_t)(open | (m > thr));                                                            \
            }                                                                                                     \
            if (above >= k) { /* else the K-th greatest maximum is at or below the bar */                        \
                const NK t = tk_kth_##NAME(sel, above, k);                                                        \
                if (t != (NK)(NKMIN) && (open || (NK)(t - 1) > thr)) {                                            \
                    thr = (NK)(t - 1);                                                                            \
                    open = 0;                                                                                     \
                }                                                                                                 \
            }                                                                                                     \
            for (uint64_t b = 0; b < nb; ++b) {                                                                   \
                const uint64_t i = s + b * TK_BLOCK, len = se - i < TK_BLOCK ? se - i : TK_BLOCK;                 \
                const T* xb = x + (int64_t)i * stride;                                                            \
                if (!open && mx[b] <= thr) continue;                                                              \
                if (stride == 1) {                                                                                \
                    for (uint64_t j = 0; j < len; ++j) {                                                          \
                        kb[j] = (NK)(NKEY(xb[j]) ^ nflip);                                                        \
                        hit[j] = (unsigned char)(open | (kb[j] > thr));                                           \
                    }                                                                                             \
                } else {                                                                                          \
                    for (uint64_t j = 0; j < len; ++j) {                                                          \
                        kb[j] = (NK)(NKEY(xb[(int64_t)j * stride]) ^ nflip);                                      \
                        hit[j] = (unsigned char)(open | (kb[j] > thr));                                           \
                    }                                                                                             \
                }                                                                                                 \
                for (uint64_t j = len; j < TK_BLOCK; ++j) hit[j] = 0;                                             \
                for (uint64_t w = 0; w < len; w += 8) {                                                           \
                    uint64_t any;                                                                                 \
                    memcpy(&any, hit + w, 8);                                                                     \
                    if (!any) continue;                                                                           \
                    for (uint64_t j = w; j < w + 8; ++j) {                                                        \
                        if (!hit[j] || (!open && kb[j] <= thr)) continue;                                         \
                        buf[count].key = WIDE(kb[j]);                                                             \
                        buf[count++].idx = i + j;                                                                 \
                        if (count == cap) {                                                                       \
                            const tk_pair bar = flush_buffer(buf, count, k);                                      \
                            const NK nbar = (NK)(NKEY(x[(int64_t)bar.idx * stride]) ^ nflip);                     \
                            count = k;                                                                            \
                            if (open || nbar > thr) thr = nbar;                                                   \
                            open = 0;                                                                             \
                        }                                                                                         \
                    }                                                                                             \
                }                                                                                                 \
            }                                                                                                     \
            s = se;                                                                                               \
        }                                                                                                         \
        return count;                                                                                             \
    }
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#  define TK_HAVE_AVX2 1
#  define TK_SCAN(NAME, T, NK, NKMIN, NKEY, WIDE)                                                                 \
      TK_KTH(NAME, NK)                                                                                            \
      TK_SCAN_DEF(tk_scan_##NAME, , NAME, T, NK, NKMIN, NKEY, WIDE)                                               \
      TK_SCAN_DEF(tk_scan_##NAME##_avx2, __attribute__((target("avx2"))), NAME, T, NK, NKMIN, NKEY, WIDE)
#  define TK_PICK(NAME, avx2) ((avx2) ? tk_scan_##NAME##_avx2 : tk_scan_##NAME)
#else
#  define TK_HAVE_AVX2 0
#  define TK_SCAN(NAME, T, NK, NKMIN, NKEY, WIDE)                                                                 \
      TK_KTH(NAME, NK)                                                                                            \
      TK_SCAN_DEF(tk_scan_##NAME, , NAME, T, NK, NKMIN, NKEY, WIDE)
#  define TK_PICK(NAME, avx2) ((void)(avx2), tk_scan_##NAME)
#endif
TK_SCAN(f32, float, int32_t, INT32_MIN, tk_nk_f32, tk_wide_s)
TK_SCAN(f64, double, int64_t, INT64_MIN, tk_nk_f64, tk_wide_s)
TK_SCAN(f16, uint16_t, int32_t, INT32_MIN, tk_nk_f16, tk_wide_s)
TK_SCAN(i8, int8_t, int8_t, INT8_MIN, tk_nk_same, tk_wide_s)
TK_SCAN(i16, int16_t, int16_t, INT16_MIN, tk_nk_same, tk_wide_s)
TK_SCAN(i32, int32_t, int32_t, INT32_MIN, tk_nk_same, tk_wide_s)
TK_SCAN(i64, int64_t, int64_t, INT64_MIN, tk_nk_same, tk_wide_s)
TK_SCAN(u8, uint8_t, uint8_t, 0, tk_nk_same, tk_wide_u)
TK_SCAN(u16, uint16_t, uint16_t, 0, tk_nk_same, tk_wide_u)
TK_SCAN(u32, uint32_t, uint32_t, 0, tk_nk_same, tk_wide_u)
TK_SCAN(u64, uint64_t, uint64_t, 0, tk_nk_same, tk_wide_u)

/* Values move as unsigned integers of their size: bits kept (NaN payloads, -0.0). */
#define TK_GATHER(BITS)                                                                                           \
    static void tk_gather_##BITS(const tk_pair* pairs, uint64_t k, const char* seq, int64_t stride, char* values, \
                                 int64_t vstride)                                                                 \
    {                                                                                                             \
        const uint##BITS##_t* x = (const uint##BITS##_t*)(const void*)seq;                                        \
        uint##BITS##_t* v = (uint##BITS##_t*)(void*)values;                                                       \
        for (uint64_t i = 0; i < k; ++i) v[(int64_t)i * vstride] = x[(int64_t)pairs[i].idx * stride];           \
    }
TK_GATHER(8)
TK_GATHER(16)
TK_GATHER(32)
TK_GATHER(64)

static tk_scan_fn scan_fn(DML_TENSOR_DATA_TYPE t, int avx2)
{
    switch (t) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: return TK_PICK(f32, avx2);
    case DML_TENSOR_DATA_TYPE_FLOAT64: return TK_PICK(f64, avx2);
    case DML_TENSOR_DATA_TYPE_FLOAT16: return TK_PICK(f16, avx2);
    case DML_TENSOR_DATA_TYPE_INT8: return TK_PICK(i8, avx2);
    case DML_TENSOR_DATA_TYPE_INT16: return TK_PICK(i16, avx2);
    case DML_TENSOR_DATA_TYPE_INT32: return TK_PICK(i32, avx2);
    case DML_TENSOR_DATA_TYPE_INT64: return TK_PICK(i64, avx2);
    case DML_TENSOR_DATA_TYPE_UINT8: return TK_PICK(u8, avx2);
    case DML_TENSOR_DATA_TYPE_UINT16: return TK_PICK(u16, avx2);
    case DML_TENSOR_DATA_TYPE_UINT32: return TK_PICK(u32, avx2);
    default: return TK_PICK(u64, avx2); /* validated: the eleven types */
    }
}

static tk_gather_fn gather_fn(UINT elem_size)
{
    switch (elem_size) {
    case 1: return tk_gather_8;
    case 2: return tk_gather_16;
    case 4: return tk_gather_32;
    default: return tk_gather_64;
    }
}

/* ---- Execution ----------------------------------------------------------------------------- */
typedef struct tk_job {
    const tk_state* st;
    const char* in;
    char* values;
    char* indices;
    tk_pair* candidates; /* parts > 1: rows * parts * K pairs */
} tk_job;

/* Row r's element offsets (in elements) in the input and both outputs. */
static void row_offsets(const tk_state* st, uint64_t r, int64_t* in_off, int64_t* val_off, int64_t* idx_off)
{
    int64_t a = 0, b = 0, c = 0;
    for (UINT d = st->other; d-- > 0;) {
        const int64_t i = (int64_t)(r % st->other_sizes[d]);
        r /= st->other_sizes[d];
        a += i * st->other_in[d];
        b += i * st->other_val[d];
        c += i * st->other_idx[d];
    }
    *in_off = a;
    *val_off = b;
    *idx_off = c;
}

/* count pairs, best first, written to both outputs at positions first, first + 1, ... */
static void write_pairs(const tk_job* job, const tk_pair* best, uint64_t count, uint64_t first, const char* seq,
                        int64_t val_off, int64_t idx_off)
{
    const tk_state* st = job->st;
    st->gather(best, count, seq, st->in_axis,
               job->values + (val_off + (int64_t)first * st->val_axis) * (int64_t)st->elem_size, st->val_axis);
    if (st->index_size == 8) {
        uint64_t* o = (uint64_t*)(void*)job->indices + idx_off + (int64_t)first * st->idx_axis;
        for (uint64_t i = 0; i < count; ++i) o[(int64_t)i * st->idx_axis] = best[i].idx;
    } else {
        uint32_t* o = (uint32_t*)(void*)job->indices + idx_off + (int64_t)first * st->idx_axis;
        for (uint64_t i = 0; i < count; ++i) o[(int64_t)i * st->idx_axis] = (uint32_t)best[i].idx;
    }
}

/* n pairs of scratch memory, or NULL (also when n pairs do not fit a size_t, and always
 * under DMLC_TEST_NO_SCRATCH). */
static tk_pair* alloc_pairs(const tk_state* st, uint64_t n)
{
    return !st->no_scratch && n <= SIZE_MAX / sizeof(tk_pair) ? (tk_pair*)malloc((size_t)n * sizeof(tk_pair)) : NULL;
}

/* One row without scratch memory (K above TK_STACK_K and no memory to be had): passes of
 * up to TK_STACK_K outputs each, a pass taking the best of the elements worse than the
 * last one written, keys made TK_STACK_K at a time on the stack.  O(n K / TK_STACK_K). */
static void row_in_passes(const tk_job* job, const char* seq, int64_t val_off, int64_t idx_off)
{
    const tk_state* st = job->st;
    tk_pair h[TK_STACK_K], keys[TK_STACK_K], last = {0, 0};
    uint64_t done = 0;
    while (done < st->k) {
        const uint64_t m = st->k - done < TK_STACK_K ? st->k - done : TK_STACK_K;
        uint64_t have = 0;
        for (uint64_t c = 0; c < st->n; c += TK_STACK_K) {
            const uint64_t len = st->n - c < TK_STACK_K ? st->n - c : TK_STACK_K;
            st->scan(st, seq, st->in_axis, c, c + len, len, len, keys); /* the len pairs, in order */
            for (uint64_t i = 0; i < len; ++i) {
                if (done && !tk_better(&last, &keys[i])) continue; /* written already */
                if (have < m) {
                    h[have++] = keys[i];
                    if (have == m) heap_make(h, m);
                } else if (tk_better(&keys[i], &h[0])) {
                    h[0] = keys[i];
                    heap_down(h, m, 0);
                }
            }
        }
        /* have == m: n - done >= m elements are worse than the last one written. */
        heap_sort_best_first(h, m);
        write_pairs(job, h, m, done, seq, val_off, idx_off);
        last = h[m - 1];
        done += m;
    }
}

/* The K best of one row, best first, through buf (scratch_pairs pairs), then written. */
static void row_best(const tk_job* job, tk_pair* buf, const char* seq, int64_t val_off, int64_t idx_off)
{
    const tk_state* st = job->st;
    const uint64_t count = st->scan(st, seq, st->in_axis, 0, st->n, st->k, st->scratch_pairs, buf);
    best_sorted(buf, count, st->k);
    write_pairs(job, buf, st->k, 0, seq, val_off, idx_off);
}

/* Block b's rows.  The buffer: on the stack for K <= TK_STACK_K, else allocated per block
 * (an operator runs from many threads at once, so it owns none); without memory,
 * row_in_passes. */
static void tk_blocks(void* ctx, uint64_t begin, uint64_t end)
{
    const tk_job* job = (const tk_job*)ctx;
    const tk_state* st = job->st;
    for (uint64_t b = begin; b < end; ++b) {
        tk_pair local[2 * TK_STACK_K];
        const int on_stack = st->scratch_pairs <= 2 * TK_STACK_K;
        tk_pair* buf = on_stack ? local : alloc_pairs(st, st->scratch_pairs);
        for (uint64_t r = st->rows * b / st->blocks; r < st->rows * (b + 1) / st->blocks; ++r) {
            int64_t in_off, val_off, idx_off;
            const char* seq;
            row_offsets(st, r, &in_off, &val_off, &idx_off);
            seq = job->in + in_off * (int64_t)st->elem_size;
            if (buf)
                row_best(job, buf, seq, val_off, idx_off);
            else
                row_in_passes(job, seq, val_off, idx_off);
        }
        if (!on_stack) free(buf);
    }
}

/* parts > 1 (K <= TK_STACK_K): item = row * parts + part; each leaves its part's K best
 * in the candidates. */
static void tk_parts(void* ctx, uint64_t begin, uint64_t end)
{
    const tk_job* job = (const tk_job*)ctx;
    const tk_state* st = job->st;
    for (uint64_t it = begin; it < end; ++it) {
        const uint64_t r = it / st->parts, p = it % st->parts;
        const uint64_t c0 = st->n * p / st->parts, c1 = st->n * (p + 1) / st->parts;
        const uint64_t cap = c1 - c0 < 2 * st->k ? c1 - c0 : 2 * st->k;
        tk_pair buf[2 * TK_STACK_K];
        int64_t in_off, val_off, idx_off;
        uint64_t count;
        row_offsets(st, r, &in_off, &val_off, &idx_off);
        count = st->scan(st, job->in + in_off * (int64_t)st->elem_size, st->in_axis, c0, c1, st->k, cap, buf);
        flush_buffer(buf, count, st->k);
        memcpy(job->candidates + it * st->k, buf, (size_t)st->k * sizeof(tk_pair));
    }
}

static void tk_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const tk_state* st = (const tk_state*)op->state;
    tk_job job;
    job.st = st;
    job.in = (const char*)in[0];
    job.values = (char*)out[0];
    job.indices = (char*)out[1];
    job.candidates = st->parts > 1 ? alloc_pairs(st, st->rows * st->parts * st->k) : NULL;
    if (!job.candidates) { /* whole rows (also when the candidates' memory is not to be had) */
        dmlc_parallel_for(st->blocks, st->rows * st->n * st->elem_size, tk_blocks, &job);
        return;
    }
    dmlc_parallel_for(st->rows * st->parts, st->rows * st->n * st->elem_size, tk_parts, &job);
    /* Each row's parts * K candidates (contiguous), merged by the same order. */
    for (uint64_t r = 0; r < st->rows; ++r) {
        tk_pair* c = job.candidates + r * st->parts * st->k;
        int64_t in_off, val_off, idx_off;
        row_offsets(st, r, &in_off, &val_off, &idx_off);
        best_sorted(c, st->parts * st->k, st->k);
        write_pairs(&job, c, st->k, 0, job.in + in_off * (int64_t)st->elem_size, val_off, idx_off);
    }
    free(job.candidates);
}

/* ---- Validation and planning ------------------------------------------------------------ */
typedef struct tk_args {
    const DML_TENSOR_DESC* in;
    const DML_TENSOR_DESC* values;
    const DML_TENSOR_DESC* indices;
    UINT axis;
    UINT k;
    DML_AXIS_DIRECTION direction;
} tk_args;

static tk_args read_args(DML_OPERATOR_TYPE type, const void* desc)
{
    tk_args a;
    if (type == DML_OPERATOR_TOP_K) {
        const DML_TOP_K_OPERATOR_DESC* d = (const DML_TOP_K_OPERATOR_DESC*)desc;
        a.in = d->InputTensor;
        a.values = d->OutputValueTensor;
        a.indices = d->OutputIndexTensor;
        a.axis = d->Axis;
        a.k = d->K;
        a.direction = DML_AXIS_DIRECTION_DECREASING; /* TOP_K: the greatest */
    } else {
        const DML_TOP_K1_OPERATOR_DESC* d = (const DML_TOP_K1_OPERATOR_DESC*)desc;
        a.in = d->InputTensor;
        a.values = d->OutputValueTensor;
        a.indices = d->OutputIndexTensor;
        a.axis = d->Axis;
        a.k = d->K;
        a.direction = d->AxisDirection;
    }
    return a;
}

static HRESULT validate(const char* opname, const tk_args* a, const dmlc_tensor* in, dmlc_shapes* sh)
{
    static const char* const fields[2] = {"OutputValueTensor", "OutputIndexTensor"};
    HRESULT hr;
    if (a->axis >= in->ndim)
        return dmlc_fail(E_INVALIDARG, opname, "Axis is %u, expected less than %u (InputTensor.DimensionCount)", a->axis,
                         in->ndim);
    /* K = n is allowed (ONNX TopK allows it; the pages say "less than"). */
    if (a->k < 1 || a->k > in->sizes[a->axis])
        return dmlc_fail(E_INVALIDARG, opname, "K is %u, expected 1 to %u (InputTensor.Sizes[%u])", a->k,
                         in->sizes[a->axis], a->axis);
    if (FAILED(hr = dmlc_check_axis_direction(opname, "AxisDirection", a->direction))) return hr;
    for (UINT s = 0; s < 2; ++s) {
        dmlc_shape_rank(sh, s, in->ndim);
        for (UINT d = 0; d < in->ndim; ++d) {
            if (d == a->axis)
                hr = dmlc_shape_expect(sh, s, fields[s], d, a->k, "K on Axis %u", d);
            else
                hr = dmlc_shape_expect(sh, s, fields[s], d, in->sizes[d], "InputTensor.Sizes[%u]", d);
            if (FAILED(hr)) return hr;
        }
    }
    if (!dmlc_shapes_infer(sh)) {
        if (FAILED(hr = dmlc_tensor_same_type(in, "InputTensor", &sh->outputs[0], fields[0], opname))) return hr;
        return dmlc_check_index_type(&sh->outputs[1], opname, fields[1], (uint64_t)in->sizes[a->axis] - 1,
                                     "index %u (the sequence length InputTensor.Sizes[%u] %u - 1)",
                                     in->sizes[a->axis] - 1, a->axis, in->sizes[a->axis]);
    }
    return S_OK;
}

/* The plan's shape: parts and scratch, before the state is allocated. */
static void plan_sizes(tk_state* st, const tk_args* a, const dmlc_tensor* in)
{
    /* as the execute's loops: a small call is one block on the calling thread */
    const uint64_t threads = dmlc_threads_for(in->count * in->elem_size);
    st->n = in->sizes[a->axis];
    st->k = a->k;
    st->rows = in->count / st->n;
    st->parts = 1;
    /* Fewer rows than threads, long rows, K <= TK_STACK_K: rows split into parts (each
     * holding at least K elements), whose candidates are merged. */
    if (st->k <= TK_STACK_K && threads > 1 && st->rows < threads) {
        uint64_t p = (threads * 4 + st->rows - 1) / st->rows;
        if (p > TK_MAX_PARTS) p = TK_MAX_PARTS;
        if (p > st->n / TK_MIN_PART) p = st->n / TK_MIN_PART;
        if (p > st->n / st->k) p = st->n / st->k;
        st->parts = p > 1 ? p : 1;
    }
    st->blocks = st->rows < threads ? st->rows : threads;
    st->scratch_pairs = st->n < 2 * st->k ? st->n : 2 * st->k;
}

static void plan(tk_state* st, const tk_state* sizes, const tk_args* a, const dmlc_tensor* in,
                 const dmlc_tensor* values, const dmlc_tensor* indices)
{
    *st = *sizes;
    st->elem_size = in->elem_size;
    st->index_size = indices->elem_size;
    st->flip = a->direction == DML_AXIS_DIRECTION_DECREASING ? 0 : ~(uint64_t)0;
    st->in_axis = (int64_t)in->strides[a->axis];
    st->val_axis = (int64_t)values->strides[a->axis];
    st->idx_axis = (int64_t)indices->strides[a->axis];
    for (UINT d = 0; d < in->ndim; ++d) {
        if (d == a->axis || in->sizes[d] == 1) continue;
        st->other_sizes[st->other] = in->sizes[d];
        st->other_in[st->other] = (int64_t)in->strides[d];
        st->other_val[st->other] = (int64_t)values->strides[d];
        st->other_idx[st->other++] = (int64_t)indices->strides[d];
    }
    st->scan = scan_fn(in->type, TK_HAVE_AVX2 && dmlc_cpu_has(DMLC_CPU_AVX2));
    {
        const char* env = getenv("DMLC_TEST_NO_SCRATCH");
        st->no_scratch = env && strcmp(env, "1") == 0;
    }
    st->gather = gather_fn(in->elem_size);
}

HRESULT dmlc_infer_topk(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const tk_args a = read_args(type, desc);
    dmlc_tensor in;
    HRESULT hr;
    if (FAILED(hr = dmlc_shapes_count(sh, 2)) ||
        FAILED(hr = dmlc_tensor_init(&in, a.in, opname, "InputTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT_MAY_BE_EMPTY)))
        return hr;
    return validate(opname, &a, &in, sh);
}

HRESULT dmlc_create_topk(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const tk_args a = read_args(type, desc);
    dmlc_tensor in, outs[2];
    dmlc_shapes sh = {opname, 0, 2, outs, NULL};
    tk_state sizes;
    HRESULT hr;
    DMLC_OPERATOR_T* o;

    if (FAILED(hr = dmlc_tensor_init(&in, a.in, opname, "InputTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&outs[0], a.values, opname, "OutputValueTensor", 1, DMLC_MAX_DIMS, DMLC_OUTPUT)) ||
        FAILED(hr = dmlc_tensor_init(&outs[1], a.indices, opname, "OutputIndexTensor", 1, DMLC_MAX_DIMS, DMLC_OUTPUT)) ||
        FAILED(hr = dmlc_tensor_same_rank(&in, "InputTensor", &outs[0], "OutputValueTensor", opname)) ||
        FAILED(hr = dmlc_tensor_same_rank(&in, "InputTensor", &outs[1], "OutputIndexTensor", opname)) ||
        FAILED(hr = validate(opname, &a, &in, &sh)))
        return hr;
    memset(&sizes, 0, sizeof sizes);
    plan_sizes(&sizes, &a, &in);
    o = dmlc_operator_alloc(type, opname, 1, 2, sizeof(tk_state));
    if (!o) return E_OUTOFMEMORY;
    o->inputs[0] = in;
    o->outputs[0] = outs[0];
    o->outputs[1] = outs[1];
    o->execute = tk_execute;
    plan((tk_state*)o->state, &sizes, &a, &in, &outs[0], &outs[1]);
    *op = o;
    return S_OK;
}
