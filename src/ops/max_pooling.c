/* max_pooling.c - DML_OPERATOR_MAX_POOLING, MAX_POOLING1 and MAX_POOLING2.
 *
 * Input {N, C, spatial...} with 1 to 3 spatial dimensions; the core treats every case as
 * {N*C planes, D, H, W}, padding missing leading spatial dimensions with size 1.  Per
 * spatial dimension (docs/operators/max_pooling2.rst), window element t of output o covers input coordinate
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
 * F16C, float32 and float16 windows of stride 2 and width up to 4 along W (2x2/2, 3x3/2
 * pad 1) reduce each input row across the window's columns first, 8 outputs at a time
 * from 16 columns split into even and odd ones (an "H row"), then take each output as the
 * best of its window's H rows.  Row-major window order is rows in order and, within a
 * row, columns in order, so keeping the first of equal values within each row and then
 * the first best row keeps the tie rule exactly (reducing columns first, MLAS's order,
 * would not: it would rank (1, 0) before (0, 1)).  Consecutive output rows share input
 * rows (3x3/2: output row oh reads rows 2oh-1 .. 2oh+1, the next one 2oh+1 .. 2oh+3), and
 * a shared row is reduced once.  The vector compare has no NaN rule, so an output row
 * that meets a NaN is recomputed by the generic kernel.  That vector path is
 * src/kernels/max_pooling_avx2.inc; the generic kernel is written once below for all
 * eleven types, which src/dtypes.def lists with their lowest value and comparison. */
#include "../dmlc_internal.h"

#include <math.h>
#include <string.h>

#define MP_SPATIAL 3     /* internal spatial dimensions: D, H, W */
#define MP_WROWS 32      /* window rows (kd * kh) the vector path takes */
#define MP_TILE 256      /* outputs per column tile of the vector path, at most */
#define MP_HBUF 4096     /* H row elements a vector worker keeps (on its stack) */

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
} mp_row;

typedef struct mp_state mp_state;
typedef void (*mp_generic_fn)(const mp_state* st, const mp_row* r, int64_t ow0, int64_t ow1);
/* The vector path's kernels (see its section).  A run of output rows for the vertical
 * kernel: output row i, column j < n is the best of hv[i*hstep + off[r] + j] over window
 * rows r < nr in order, and its index base + i*bstep + rel[r] + hx[same place]. */
typedef struct mp_vjob {
    const float* hv;
    const int32_t* hx;
    const int64_t* off;
    const int32_t* rel;
    UINT nr;
    int64_t n, rows, hstep;
    char* out;
    char* idx;               /* NULL: no indices */
    int64_t ostep, xstep;    /* bytes from one output row to the next */
    int64_t base, bstep;
} mp_vjob;
typedef int (*mp_hrows_fn)(const mp_state* st, const char* row, int64_t rstep, int64_t rows, int64_t t0, int64_t t1,
                           float* hv, int32_t* hx, int64_t hs, unsigned char* nanf);
typedef void (*mp_vert_fn)(const mp_vjob* v);
/* 2x2/2 without indices, both window rows at once: output rows [0, rows) from input rows
 * 2i and 2i + 1 (row 2i at in + i*istep bytes, 2i + 1 rstep bytes after it), ow >= 8
 * outputs each; nan[i] set if output row i met a NaN. */
typedef void (*mp_fused_fn)(const char* in, int64_t istep, int64_t rstep, char* out, int64_t ostep, int64_t ow,
                            int64_t rows, unsigned char* nan);
typedef struct mp_vector {
    mp_hrows_fn hrows;
    mp_vert_fn vert[3];      /* 2, 3, any number of window rows */
    mp_fused_fn fused2;      /* NULL with indices */
} mp_vector;

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
    const mp_vector* vec;    /* NULL: the generic kernel does every row */
    int64_t hc0, hc1;        /* vector path: outputs whose windows hold a column of the row */
    int64_t hv0, hv1;        /* ... and the outputs vector groups may cover */
    int64_t ri1;             /* ... an output row whose window holds all kh rows lies below ri1 */
    int fused2;              /* ... 2x2/2, no padding before, no indices, OW >= 8: vec->fused2 */
    int64_t tile;            /* ... outputs per column tile */
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

static inline void mp_store_index(char* idx, UINT idx_size, uint64_t v)
{
    if (idx_size == 4) {
        const uint32_t v32 = (uint32_t)v; /* all ones stays all ones */
        memcpy(idx, &v32, 4);
    } else {
        memcpy(idx, &v, 8);
    }
}

/* The generic kernel: outputs [ow0, ow1) of one row, any window, any strides; each type's
 * lowest value and comparison are dtypes.def's. */
#define DMLC_DTYPE(NAME, VALUE, SIZE, T, KIND, LOWEST, COMPARE)                                     \
    static void mp_generic_##NAME(const mp_state* st, const mp_row* r, int64_t ow0, int64_t ow1)     \
    {                                                                                               \
        const mp_dim *dd = &st->dims[0], *dh = &st->dims[1], *dw = &st->dims[2];                     \
        const uint64_t hw = (uint64_t)dh->n * (uint64_t)dw->n;                                      \
        for (int64_t ow = ow0; ow < ow1; ++ow) {                                                    \
            const int64_t iw0 = ow * dw->s - dw->p;                                                 \
            int64_t tw0, tw1;                                                                       \
            T best = LOWEST;                                                                        \
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
                        if (!found || MP_BETTER_##COMPARE(v, best)) {                               \
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
#define DMLC_DTYPE(NAME, VALUE, SIZE, T, KIND, LOWEST, COMPARE) case VALUE: return mp_generic_##NAME;
#include "../dtypes.def"
#undef DMLC_DTYPE
    default: return NULL;
    }
}

/* ---- The vector path (x86-64, AVX2 + F16C, chosen at run time): mp_vector_for ----------- */
#include "../kernels/max_pooling_avx2.inc"

/* ---- Rows ------------------------------------------------------------------------------ */

typedef struct mp_job {
    const mp_state* st;
    const char* in;
    char* out;
    char* idx;
} mp_job;

/* A worker's H rows: a band's, for one column tile (see mp_band). */
typedef struct mp_hbuf {
    float v[MP_HBUF];
    int32_t x[MP_HBUF];
    unsigned char nan[MP_HBUF];
} mp_hbuf;

/* Output rows [b0, b1) of plane p at depth od, for outputs [t0, t1) of the row: the H rows
 * of every input row they read (one row set per window depth in bounds), then the output
 * rows whose windows hold all kh rows in one call, the others (at the plane's top and
 * bottom) one by one, then the generic kernel where needed. */
static void mp_band(const mp_job* job, mp_row* r, int64_t b0, int64_t b1, int64_t t0, int64_t t1, mp_hbuf* hb)
{
    const mp_state* st = job->st;
    const mp_dim *dd = &st->dims[0], *dh = &st->dims[1], *dw = &st->dims[2];
    const int64_t es = st->elem_size, xs = st->idx_size, hs = t1 - t0;
    const int64_t a = t0 > st->hc0 ? t0 : st->hc0, b = t1 < st->hc1 ? t1 : st->hc1;
    const int64_t nd = r->td1 - r->td0;
    int64_t lo = b0 * dh->s - dh->p, hi = (b1 - 1) * dh->s - dh->p + (dh->k - 1) * dh->d + 1, rows;
    char* const out = r->out;
    char* const idx = r->idx;
    int any = 0, empty = 0;
    int64_t off[MP_WROWS];
    int32_t rel[MP_WROWS];
    mp_vjob v;
    if (st->fused2 && nd == 1 && t0 == 0 && t1 == dw->out && b0 < st->ri1) {
        /* The rows whose windows hold both input rows, fused; a row that met a NaN again
         * by the generic kernel; the rest (a last row half in the padding) below. */
        const int64_t f1 = b1 < st->ri1 ? b1 : st->ri1, id = r->id0 + r->td0 * dd->d;
        unsigned char* nanf = hb->nan;
        for (int64_t f0 = b0; f0 < f1; f0 += MP_HBUF) {
            const int64_t n = f1 - f0 < MP_HBUF ? f1 - f0 : MP_HBUF;
            st->vec->fused2(r->in + (id * dd->is + 2 * f0 * dh->is) * es, 2 * dh->is * es, dh->is * es,
                            out + f0 * dh->os * es, dh->os * es, dw->out, n, nanf);
            for (int64_t i = 0; i < n; ++i) {
                if (!nanf[i]) continue;
                r->out = out + (f0 + i) * dh->os * es;
                r->ih0 = 2 * (f0 + i);
                r->th0 = 0;
                r->th1 = 2;
                st->generic(st, r, 0, dw->out);
            }
        }
        r->out = out;
        if (f1 == b1) return;
        b0 = f1;
        lo = b0 * dh->s - dh->p;
    }
    if (lo < 0) lo = 0;
    if (hi > dh->n) hi = dh->n;
    rows = hi - lo;
    if (a >= b || nd == 0 || rows <= 0) { /* no H row: all padding, or no column in bounds */
        for (int64_t oh = b0; oh < b1; ++oh) {
            r->out = out + oh * dh->os * es;
            r->idx = idx ? idx + oh * dh->xs * xs : NULL;
            r->ih0 = oh * dh->s - dh->p;
            mp_window_range(dh, r->ih0, &r->th0, &r->th1);
            st->generic(st, r, t0, t1);
        }
        r->out = out;
        r->idx = idx;
        return;
    }
    for (int64_t k = 0; k < nd; ++k) {
        const int64_t id = r->id0 + (r->td0 + k) * dd->d;
        any |= st->vec->hrows(st, r->in + (id * dd->is + lo * dh->is) * es, dh->is * es, rows, t0, t1,
                              hb->v + k * rows * hs, hb->x + k * rows * hs, hs, hb->nan + k * rows);
    }
    v.hv = hb->v + (a - t0);
    v.hx = hb->x + (a - t0);
    v.off = off;
    v.rel = rel;
    v.n = b - a;
    v.hstep = dh->s * hs;
    v.ostep = dh->os * es;
    v.xstep = dh->xs * xs;
    v.bstep = dh->s * dw->n;
    for (int64_t oh = b0; oh < b1;) {
        /* Rows [oh, oh1) with the same window rows relative to their first: all kh rows
         * (the interior), or one row at an edge. */
        int64_t th0, th1, oh1 = oh + 1, id0;
        const int64_t ih0 = oh * dh->s - dh->p;
        mp_window_range(dh, ih0, &th0, &th1);
        if (th0 == th1) { /* no row in bounds: the generic kernel's, below */
            empty = 1;
            ++oh;
            continue;
        }
        if (th0 == 0 && th1 == dh->k) {
            oh1 = st->ri1 < b1 ? st->ri1 : b1;
            if (oh1 <= oh) oh1 = oh + 1;
        }
        v.nr = 0;
        id0 = r->id0 + r->td0 * dd->d;
        for (int64_t k = 0; k < nd; ++k)
            for (int64_t th = th0; th < th1; ++th) {
                off[v.nr] = (k * rows + ih0 + th * dh->d - lo) * hs;
                rel[v.nr] = (int32_t)((k * dd->d * dh->n + (th - th0) * dh->d) * dw->n); /* < 2^31: checked */
                ++v.nr;
            }
        v.rows = oh1 - oh;
        v.out = out + (oh * dh->os + a) * es;
        v.idx = idx ? idx + (oh * dh->xs + a) * xs : NULL;
        v.base = (int64_t)r->flat + (id0 * dh->n + ih0 + th0 * dh->d) * dw->n;
        st->vec->vert[v.nr == 2 ? 0 : (v.nr == 3 ? 1 : 2)](&v);
        oh = oh1;
    }
    for (int64_t oh = b0; oh < b1 && (any || empty || t0 < a || b < t1); ++oh) {
        int nan = 0;
        r->out = out + oh * dh->os * es;
        r->idx = idx ? idx + oh * dh->xs * xs : NULL;
        r->ih0 = oh * dh->s - dh->p;
        mp_window_range(dh, r->ih0, &r->th0, &r->th1);
        if (any)
            for (int64_t k = 0; k < nd && !nan; ++k)
                for (int64_t th = r->th0; th < r->th1; ++th) nan |= hb->nan[k * rows + r->ih0 + th * dh->d - lo];
        if (nan || r->th0 == r->th1) st->generic(st, r, a, b);
        if (t0 < a) st->generic(st, r, t0, a);
        if (b < t1) st->generic(st, r, b, t1);
    }
    r->out = out;
    r->idx = idx;
}

/* Output rows [oh0, oh1) of plane p at depth od through the vector path: column tiles,
 * then bands of rows whose H rows fit the buffer. */
static void mp_vector_rows(const mp_job* job, uint64_t p, int64_t od, int64_t oh0, int64_t oh1, mp_hbuf* hb)
{
    const mp_state* st = job->st;
    const mp_dim *dd = &st->dims[0], *dh = &st->dims[1], *dw = &st->dims[2];
    const int64_t es = st->elem_size, xs = st->idx_size;
    const int64_t n = (int64_t)(p / st->channels), c = (int64_t)(p % st->channels);
    mp_row r;
    int64_t nd, band;
    r.in = job->in + (n * st->in_n + c * st->in_c) * es;
    r.flat = p * st->plane_count;
    r.id0 = od * dd->s - dd->p;
    mp_window_range(dd, r.id0, &r.td0, &r.td1);
    nd = r.td1 - r.td0 > 0 ? r.td1 - r.td0 : 1;
    for (int64_t t0 = 0; t0 < dw->out; t0 += st->tile) {
        const int64_t t1 = dw->out - t0 > st->tile ? t0 + st->tile : dw->out;
        /* B output rows read at most (B - 1)*sh + (kh - 1)*dh + 1 input rows per depth */
        band = ((MP_HBUF / (t1 - t0)) / nd - (dh->k - 1) * dh->d - 1) / dh->s + 1; /* >= 1: checked at creation */
        for (int64_t b0 = oh0; b0 < oh1; b0 += band) {
            r.out = job->out + (n * st->out_n + c * st->out_c + od * dd->os) * es;
            r.idx = job->idx ? job->idx + (n * st->idx_n + c * st->idx_c + od * dd->xs) * xs : NULL;
            mp_band(job, &r, b0, oh1 - b0 > band ? b0 + band : oh1, t0, t1, hb);
        }
    }
}

/* Output rows [begin, end) of planes x OD x OH. */
static void mp_rows(void* vjob, uint64_t begin, uint64_t end)
{
    const mp_job* job = (const mp_job*)vjob;
    const mp_state* st = job->st;
    const mp_dim *dd = &st->dims[0], *dh = &st->dims[1], *dw = &st->dims[2];
    const int64_t es = st->elem_size, xs = st->idx_size;
    dmlc_pool_cursor k = dmlc_pool_cursor_at(begin, st->channels, dd->out, dh->out);
    mp_row r;
    if (st->vec) { /* runs of rows that share a plane and depth */
        mp_hbuf hb;
        for (uint64_t item = begin; item < end;) {
            const int64_t oh1 = end - item < (uint64_t)(dh->out - k.oh) ? k.oh + (int64_t)(end - item) : dh->out;
            mp_vector_rows(job, k.p, k.od, k.oh, oh1, &hb);
            item += (uint64_t)(oh1 - k.oh);
            k.oh = 0;
            if (++k.od < dd->out) continue;
            k.od = 0;
            ++k.p;
        }
        return;
    }
    for (uint64_t item = begin; item < end; ++item, dmlc_pool_cursor_next(&k, st->channels, dd->out, dh->out)) {
        r.in = job->in + (k.n * st->in_n + k.c * st->in_c) * es;
        r.out = job->out + (k.n * st->out_n + k.c * st->out_c + k.od * dd->os + k.oh * dh->os) * es;
        r.idx = job->idx ? job->idx + (k.n * st->idx_n + k.c * st->idx_c + k.od * dd->xs + k.oh * dh->xs) * xs : NULL;
        r.flat = k.p * st->plane_count;
        r.id0 = k.od * dd->s - dd->p;
        r.ih0 = k.oh * dh->s - dh->p;
        mp_window_range(dd, r.id0, &r.td0, &r.td1);
        mp_window_range(dh, r.ih0, &r.th0, &r.th1);
        st->generic(st, &r, 0, dw->out);
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

/* The vector path's column ranges, interior rows and tile; 0 if its H rows cannot fit.
 * Output j's window columns are 2j - pw + t, t < kw; a vector group at j reads columns
 * [2j - pw, 2j - pw + span) (span 16 for widths 1 and 2, kw + 14 above). */
static int mp_plan_vector(mp_state* st)
{
    const mp_dim *dd = &st->dims[0], *dh = &st->dims[1], *dw = &st->dims[2];
    const int64_t span = dw->k <= 2 ? 16 : dw->k + 14, lo = dw->p - dw->k + 1;
    const int64_t rows = dd->k * ((dh->k - 1) * dh->d + 1), last = dh->n - 1 + dh->p - (dh->k - 1) * dh->d;
    /* some window column in [0, W): 2j - pw + kw - 1 >= 0 and 2j - pw <= W - 1 */
    st->hc0 = lo > 0 ? (lo + 1) / 2 : 0;
    st->hc1 = (dw->n - 1 + dw->p) / 2 + 1;
    if (st->hc1 > dw->out) st->hc1 = dw->out;
    if (st->hc1 < st->hc0) st->hc1 = st->hc0;
    /* group starts g with 2g - pw >= 0 and 2g - pw + span <= W cover [hv0, hv1) */
    st->hv0 = (dw->p + 1) / 2;
    st->hv1 = dw->n - span + dw->p >= 0 ? (dw->n - span + dw->p) / 2 + 8 : 0;
    /* all kh rows in bounds: oh*sh - ph >= 0 and oh*sh - ph + (kh - 1)*dh <= H - 1 */
    st->ri1 = last >= 0 ? last / dh->s + 1 : 0;
    if (st->ri1 > dh->out) st->ri1 = dh->out;
    /* A band of one output row needs `rows` H rows per tile. */
    st->tile = dw->out < MP_TILE ? dw->out : MP_TILE;
    while (st->tile > 8 && MP_HBUF / st->tile < rows) st->tile /= 2;
    return dd->k * dh->k <= MP_WROWS && MP_HBUF / st->tile >= rows;
}

/* The one row stride r that puts plane p (n*C + c) of a tensor at p*h*r: its H stride, or
 * for planes of one row the plane stride; 0 if the planes are not laid out that way. */
static uint64_t mp_plane_rows(uint64_t N, uint64_t C, uint64_t h, uint64_t hs, uint64_t sn, uint64_t sc)
{
    const uint64_t r = h > 1 ? hs : (C > 1 ? sc : sn), hr = h * r; /* strides and sizes < 2^32: no overflow */
    if (C > 1 && sc != hr) return 0;
    if (N > 1 && sn != (C > 1 ? C * sc : hr)) return 0;
    return r;
}

/* Planes stacked into one: when every window lies inside its plane and the planes follow
 * each other at a row stride in the input, the output and the indices, N*C planes of H
 * rows are one plane of N*C*H rows.  Output row p*OH + o then reads rows p*H + o*s + t*d
 * (OH*s = H, no padding before), and the flat index ((p*H + h)*W + w) is the same.  Small
 * planes (a (1, 8, 16, 16) call) then cost one band instead of eight, and the vector path
 * runs down the rows of all planes at once. */
static void mp_stack_planes(mp_state* st, const dmlc_tensor* in, const dmlc_tensor* idx)
{
    mp_dim *dd = &st->dims[0], *dh = &st->dims[1];
    const uint64_t N = in->sizes[0], C = in->sizes[1];
    uint64_t ri, ro, rx = 0;
    if (st->planes < 2 || dd->n != 1 || dd->out != 1 || dd->k != 1 || dd->p != 0 || dh->p != 0 || dh->out * dh->s != dh->n ||
        (dh->out - 1) * dh->s + (dh->k - 1) * dh->d + 1 > dh->n)
        return;
    ri = mp_plane_rows(N, C, (uint64_t)dh->n, (uint64_t)dh->is, (uint64_t)st->in_n, (uint64_t)st->in_c);
    ro = mp_plane_rows(N, C, (uint64_t)dh->out, (uint64_t)dh->os, (uint64_t)st->out_n, (uint64_t)st->out_c);
    if (idx->present)
        rx = mp_plane_rows(N, C, (uint64_t)dh->out, (uint64_t)dh->xs, (uint64_t)st->idx_n, (uint64_t)st->idx_c);
    if (!ri || !ro || (idx->present && !rx)) return;
    dh->n *= (int64_t)st->planes;
    dh->out *= (int64_t)st->planes;
    dh->is = (int64_t)ri;
    dh->os = (int64_t)ro;
    dh->xs = (int64_t)rx;
    st->plane_count *= st->planes;
    st->planes = st->channels = 1;
    st->in_n = st->in_c = st->out_n = st->out_c = st->idx_n = st->idx_c = 0;
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
    mp_stack_planes(st, in, idx);

    /* The vector path: stride 2, width up to 4, no dilation along W, unit column strides
     * (a size-1 dimension never steps), and window rows whose flat offsets fit int32. */
    {
        const mp_dim *dd = &st->dims[0], *dh = &st->dims[1], *dw = &st->dims[2];
        span = (((uint64_t)(dd->k - 1) * (uint64_t)dd->d * (uint64_t)dh->n + (uint64_t)(dh->k - 1) * (uint64_t)dh->d) + 1) *
               (uint64_t)dw->n;
        if (dw->s == 2 && dw->k <= 4 && dw->d == 1 && (dw->is == 1 || dw->n == 1) && (dw->os == 1 || dw->out == 1) &&
            (!idx->present || dw->xs == 1 || dw->out == 1) && span < ((uint64_t)1 << 30) &&
            dw->n < ((int64_t)1 << 30))
            st->vec = mp_vector_for(in->type, st->idx_size, dw->k);
        if (st->vec && !mp_plan_vector(st)) st->vec = NULL;
        /* (every window's columns in bounds: 2*OW <= W; its rows: below ri1) */
        st->fused2 = st->vec && st->vec->fused2 && dw->k == 2 && dw->p == 0 && dw->out >= 8 && 2 * dw->out <= dw->n &&
                     dh->k == 2 && dh->s == 2 && dh->d == 1 && dh->p == 0 && dd->k == 1;
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
    if (a.idx_desc) /* UINT32 or UINT64: the schema's check took its type */
        if (FAILED(hr = dmlc_tensor_init(&outs[1], a.idx_desc, opname, "OutputIndicesTensor", 3, 5, DMLC_OUTPUT)) ||
            FAILED(hr = dmlc_tensor_same_rank(&in, "InputTensor", &outs[1], "OutputIndicesTensor", opname)))
            return hr;
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
