/* average_pooling.c - DML_OPERATOR_AVERAGE_POOLING and AVERAGE_POOLING1.
 *
 * Input {N, C, spatial...} with 1 to 3 spatial dimensions, FLOAT16, FLOAT32 or FLOAT64;
 * windows as MAX_POOLING2 (src/pooling.c checks them and the output sizes, floor or
 * ceil): window element t of output o covers input coordinate
 *     x = o*Stride - StartPadding + t*Dilation
 * per spatial dimension.  The output is the sum of the window's elements inside the input
 * divided by
 *   - their count (IncludePadding FALSE), or
 *   - (IncludePadding TRUE) the count of window positions inside the padded input
 *     [-StartPadding, n + EndPadding), which differs from the window size only where a
 *     ceil-mode window runs past the end padding;
 * and a window with nothing to divide by (all padding, or past the padded input) gives
 * NaN.  Example, 3x3 window, stride 2, padding 1, input rows 0..3 and columns 0..3:
 * output (0, 0) covers rows and columns -1..1, of which 2 x 2 = 4 elements are inside:
 * their sum / 4, or with IncludePadding their sum / 9.
 *
 * Sums are float for FLOAT16 and FLOAT32 and double for FLOAT64, always in one order:
 * first each window column, the elements with the same tw summed in (td, th) window order
 * starting from +0, then those column sums in tw order starting from +0, then one
 * division.  Starting from +0 means a partial sum is never -0, so the +0 that stands for
 * a padded column changes nothing, and every path below (vector or portable, any tile,
 * any row width) gives the same bits for the same window; FLOAT16 is rounded once, to
 * nearest even, from the float result.
 *
 * Execution walks output rows (plane, od, oh), like max pooling.  A row is done in tiles
 * of outputs: the column sums of the input columns the tile needs go to a buffer on the
 * stack (zeros for padded columns), then each output sums its window's columns there.
 * On x86-64 with AVX2 and F16C, FLOAT32 and FLOAT16 rows sum columns 8 at a time (F16C
 * converts FLOAT16 in and out) and outputs of stride 1 or 2 without dilation 8 at a time:
 * stride 2 loads 16 column sums and splits them into even and odd columns, as max pooling
 * does; a group at a row's edge divides each output by its own count.  Everything else
 * takes the portable kernel (average_pooling.inc); the vector kernels are
 * src/kernels/average_pooling_avx2.inc.
 *
 * LP_POOLING and LP_POOLING1 (src/ops/lp_pooling.c) walk the same windows in the same order
 * through dmlc_window_sum_operator: each element adds |x|^P instead of x, sums are double
 * for every type, and the output is the sum's P-th root instead of the average (see
 * lp_root).  Their kernels are the portable ones, instantiated per type and per P class
 * (1: |x|, 2: x*x, other: pow), so the column loops stay free of branches and vectorise. */
#include "../dmlc_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AP_SPATIAL 3     /* internal spatial dimensions: D, H, W */
#define AP_COLS 2048     /* column sums a tile holds */
#define AP_SLACK 32      /* beyond them: what the vector loads of a tile's last group may read */
#define AP_BUF (AP_COLS + AP_SLACK)
#define AP_MAX_ROWS 64   /* window rows the vector column sums take at once */
/* How far ahead (bytes) the vector column sums ask for each input row.  Rows of 224
 * floats, read two or three at a time, ran up to 1.5x faster with it on the machine this
 * was measured on (the hardware prefetcher alone kept up with 112- and 1000-float rows, not
 * with these); past a row's end it fetches the next rows, which come next. */
#define AP_PREFETCH 2048

typedef struct ap_dim {
    int64_t n;           /* input size */
    int64_t out;         /* output size */
    int64_t k, s, d, p;  /* window size, stride, dilation, start padding */
    int64_t pe;          /* end padding */
    int64_t is, os;      /* input and output strides, in elements */
} ap_dim;

/* One output row: plane p, output coordinates od and oh, all ow. */
typedef struct ap_row {
    const char* in;        /* the input plane */
    char* out;             /* output (p, od, oh, 0) */
    int64_t td0, td1;      /* window elements along D inside the input: [td0, td1) */
    int64_t th0, th1;      /* ... along H */
    int64_t id0, ih0;      /* input coordinate of window element 0 along D and H */
    double rows_div;       /* the divisor's D and H factor */
} ap_row;

typedef struct ap_state ap_state;
typedef void (*ap_row_fn)(const ap_state* st, const ap_row* r);

struct ap_state {
    UINT elem_size;
    UINT p;                    /* 0: the average; P >= 1: LP pooling's (sum of |x|^P)^(1/P) */
    int include_padding;
    uint64_t channels;         /* C */
    uint64_t planes;           /* N * C */
    int64_t in_n, in_c;        /* strides of N and C */
    int64_t out_n, out_c;
    ap_dim dims[AP_SPATIAL];   /* D, H, W */
    int64_t keff;              /* the dilated window along W */
    int64_t tile;              /* outputs per tile; 0: the window is wider than a tile buffer */
    int64_t full0, full1;      /* outputs along W whose whole window lies inside the input (or,
                                  with IncludePadding, the padded input): their divisor is
                                  the D and H factor times WindowSize */
    uint64_t window_count;     /* elements per window, for the work estimate */
    ap_row_fn row;
};

/* Window elements [t0, t1) whose coordinate start + t*d lies in [lo, hi). */
static inline void ap_range(const ap_dim* m, int64_t start, int64_t lo, int64_t hi, int64_t* t0, int64_t* t1)
{
    int64_t a = 0, b = m->k;
    if (m->d == 1) { /* the common case, without dividing */
        if (start < lo) a = lo - start;
        if (start + b > hi) b = hi - start;
    } else {
        if (start < lo) a = (lo - start + m->d - 1) / m->d;
        if (start + (b - 1) * m->d >= hi) b = start >= hi ? 0 : (hi - 1 - start) / m->d + 1;
    }
    *t0 = a;
    *t1 = b > a ? b : a;
}

/* How many window elements of output o along m the divisor counts: those inside the
 * input, or with IncludePadding those inside the padded input. */
static inline int64_t ap_count(const ap_dim* m, int include_padding, int64_t o)
{
    int64_t t0, t1;
    if (include_padding) ap_range(m, o * m->s - m->p, -m->p, m->n + m->pe, &t0, &t1);
    else ap_range(m, o * m->s - m->p, 0, m->n, &t0, &t1);
    return t1 - t0;
}

static inline int64_t ap_width_count(const ap_state* st, int64_t ow)
{
    return ow >= st->full0 && ow < st->full1 ? st->dims[2].k : ap_count(&st->dims[2], st->include_padding, ow);
}

/* ---- The portable kernels, one per type and reduction -------------------------------------- */

/* The average of output ow of row r: its sum over the count of its window (ap_count), NaN
 * where that count is 0. */
static inline float ap_average_f(const ap_state* st, const ap_row* r, int64_t ow, float sum)
{
    const double cnt = r->rows_div * (double)ap_width_count(st, ow);
    return cnt == 0 ? (float)NAN : sum / (float)cnt;
}

static inline double ap_average_d(const ap_state* st, const ap_row* r, int64_t ow, double sum)
{
    const double cnt = r->rows_div * (double)ap_width_count(st, ow);
    return cnt == 0 ? (double)NAN : sum / cnt;
}

/* LP pooling's terms: |x|^P, by P class. */
static inline double lp_term1(double v) { return fabs(v); }
static inline double lp_term2(double v) { return v * v; }
static inline double lp_termn(double v, UINT p) { return pow(fabs(v), (double)p); }

/* s^(1/P) for a sum s >= 0 (or NaN, or +inf), within about 2 ulp of double.  pow(s, 1.0 / P)
 * alone is not: 1.0 / P is rounded (relative error up to 2^-53), which moves the result by
 * that error times ln(s) / P, up to about 2^-45 relative for s near DBL_MAX and P = 3.  So s
 * is split as m * 2^e (m in [0.5, 1)) and e = q*P + r (0 <= r < P): the root is
 * (m * 2^r)^(1/P) * 2^q, and ln(m * 2^r) / P < ln 2 keeps the exponent's rounding below one
 * ulp.  Example, P 3, s 2^10: m 0.5, e 11 = 3*3 + 2: (0.5 * 4)^(1/3) * 2^3 = 10.079...
 * From P 1024 on, ln(s) / P < 1 and pow alone is as good. */
static inline double lp_root(double s, UINT p)
{
    int e, q, r;
    double m;
    if (p == 1) return s;
    if (p == 2) return sqrt(s);
    if (!(s > 0) || isinf(s)) return s; /* 0, NaN, +inf */
    if (p >= 1024) return pow(s, 1.0 / (double)p);
    m = frexp(s, &e);
    q = e >= 0 ? e / (int)p : -((-e + (int)p - 1) / (int)p); /* floor(e / P) */
    r = e - q * (int)p;
    return ldexp(pow(ldexp(m, r), 1.0 / (double)p), q);
}

#define AP_NAME f32
#define AP_T float
#define AP_ACC float
#define AP_LOAD(p) (*(p))
#define AP_STORE(p, v) (*(p) = (v))
#define AP_TERM(v) (v)
#define AP_FINISH(sum, ow) ap_average_f(st, r, ow, sum)
#include "average_pooling.inc"

#define AP_NAME f64
#define AP_T double
#define AP_ACC double
#define AP_LOAD(p) (*(p))
#define AP_STORE(p, v) (*(p) = (v))
#define AP_TERM(v) (v)
#define AP_FINISH(sum, ow) ap_average_d(st, r, ow, sum)
#include "average_pooling.inc"

#define AP_NAME f16
#define AP_T uint16_t
#define AP_ACC float
#define AP_LOAD(p) dmlc_half_to_float(*(p))
#define AP_STORE(p, v) (*(p) = dmlc_float_to_half(v))
#define AP_TERM(v) (v)
#define AP_FINISH(sum, ow) ap_average_f(st, r, ow, sum)
#include "average_pooling.inc"

#define AP_NAME lp1_f32
#define AP_T float
#define AP_ACC double
#define AP_LOAD(p) ((double)*(p))
#define AP_STORE(p, v) (*(p) = (float)(v))
#define AP_TERM(v) lp_term1(v)
#define AP_FINISH(sum, ow) lp_root(sum, st->p)
#include "average_pooling.inc"

#define AP_NAME lp1_f64
#define AP_T double
#define AP_ACC double
#define AP_LOAD(p) (*(p))
#define AP_STORE(p, v) (*(p) = (v))
#define AP_TERM(v) lp_term1(v)
#define AP_FINISH(sum, ow) lp_root(sum, st->p)
#include "average_pooling.inc"

#define AP_NAME lp1_f16
#define AP_T uint16_t
#define AP_ACC double
#define AP_LOAD(p) ((double)dmlc_half_to_float_inline(*(p)))
#define AP_STORE(p, v) (*(p) = dmlc_double_to_half_inline(v))
#define AP_TERM(v) lp_term1(v)
#define AP_FINISH(sum, ow) lp_root(sum, st->p)
#include "average_pooling.inc"

#define AP_NAME lp2_f32
#define AP_T float
#define AP_ACC double
#define AP_LOAD(p) ((double)*(p))
#define AP_STORE(p, v) (*(p) = (float)(v))
#define AP_TERM(v) lp_term2(v)
#define AP_FINISH(sum, ow) lp_root(sum, st->p)
#include "average_pooling.inc"

#define AP_NAME lp2_f64
#define AP_T double
#define AP_ACC double
#define AP_LOAD(p) (*(p))
#define AP_STORE(p, v) (*(p) = (v))
#define AP_TERM(v) lp_term2(v)
#define AP_FINISH(sum, ow) lp_root(sum, st->p)
#include "average_pooling.inc"

#define AP_NAME lp2_f16
#define AP_T uint16_t
#define AP_ACC double
#define AP_LOAD(p) ((double)dmlc_half_to_float_inline(*(p)))
#define AP_STORE(p, v) (*(p) = dmlc_double_to_half_inline(v))
#define AP_TERM(v) lp_term2(v)
#define AP_FINISH(sum, ow) lp_root(sum, st->p)
#include "average_pooling.inc"

#define AP_NAME lpn_f32
#define AP_T float
#define AP_ACC double
#define AP_LOAD(p) ((double)*(p))
#define AP_STORE(p, v) (*(p) = (float)(v))
#define AP_TERM(v) lp_termn(v, st->p)
#define AP_FINISH(sum, ow) lp_root(sum, st->p)
#include "average_pooling.inc"

#define AP_NAME lpn_f64
#define AP_T double
#define AP_ACC double
#define AP_LOAD(p) (*(p))
#define AP_STORE(p, v) (*(p) = (v))
#define AP_TERM(v) lp_termn(v, st->p)
#define AP_FINISH(sum, ow) lp_root(sum, st->p)
#include "average_pooling.inc"

#define AP_NAME lpn_f16
#define AP_T uint16_t
#define AP_ACC double
#define AP_LOAD(p) ((double)dmlc_half_to_float_inline(*(p)))
#define AP_STORE(p, v) (*(p) = dmlc_double_to_half_inline(v))
#define AP_TERM(v) lp_termn(v, st->p)
#define AP_FINISH(sum, ow) lp_root(sum, st->p)
#include "average_pooling.inc"

/* ---- The vector kernels (x86-64, AVX2 + F16C, chosen at run time): ap_row_vec_f32/f16 --- */
#include "../kernels/average_pooling_avx2.inc"

/* The row kernel of a type and reduction: for the average the vector one where the CPU has
 * it (FLOAT32, FLOAT16); for LP pooling the portable one of P's class. */
static ap_row_fn ap_row_for(DML_TENSOR_DATA_TYPE type, UINT p)
{
    static const ap_row_fn lp[3][3] = {{ap_row_lp1_f16, ap_row_lp1_f32, ap_row_lp1_f64},
                                       {ap_row_lp2_f16, ap_row_lp2_f32, ap_row_lp2_f64},
                                       {ap_row_lpn_f16, ap_row_lpn_f32, ap_row_lpn_f64}};
    const int t = type == DML_TENSOR_DATA_TYPE_FLOAT16 ? 0 : type == DML_TENSOR_DATA_TYPE_FLOAT32 ? 1 : 2;
    if (p) return lp[p < 3 ? p - 1 : 2][t];
#ifdef DMLC_X86_AVX2
    if (type != DML_TENSOR_DATA_TYPE_FLOAT64 && ap_cpu_has_avx2_f16c())
        return type == DML_TENSOR_DATA_TYPE_FLOAT16 ? ap_row_vec_f16 : ap_row_vec_f32;
#endif
    return t == 0 ? ap_row_f16 : t == 1 ? ap_row_f32 : ap_row_f64;
}

/* ---- Rows ------------------------------------------------------------------------------ */
typedef struct ap_job {
    const ap_state* st;
    const char* in;
    char* out;
} ap_job;

/* Output rows [begin, end) of planes x OD x OH. */
static void ap_rows(void* vjob, uint64_t begin, uint64_t end)
{
    const ap_job* job = (const ap_job*)vjob;
    const ap_state* st = job->st;
    const ap_dim *dd = &st->dims[0], *dh = &st->dims[1];
    const int64_t es = st->elem_size;
    dmlc_pool_cursor k = dmlc_pool_cursor_at(begin, st->channels, dd->out, dh->out);
    ap_row r;
    for (uint64_t item = begin; item < end; ++item, dmlc_pool_cursor_next(&k, st->channels, dd->out, dh->out)) {
        r.in = job->in + (k.n * st->in_n + k.c * st->in_c) * es;
        r.out = job->out + (k.n * st->out_n + k.c * st->out_c + k.od * dd->os + k.oh * dh->os) * es;
        r.id0 = k.od * dd->s - dd->p;
        r.ih0 = k.oh * dh->s - dh->p;
        ap_range(dd, r.id0, 0, dd->n, &r.td0, &r.td1);
        ap_range(dh, r.ih0, 0, dh->n, &r.th0, &r.th1);
        r.rows_div = st->include_padding
                         ? (double)ap_count(dd, 1, k.od) * (double)ap_count(dh, 1, k.oh)
                         : (double)(r.td1 - r.td0) * (double)(r.th1 - r.th0);
        st->row(st, &r);
    }
}

static void average_pooling_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const ap_state* st = (const ap_state*)op->state;
    const uint64_t rows = st->planes * (uint64_t)st->dims[0].out * (uint64_t)st->dims[1].out;
    /* Work in dmlc_parallel_for's units (bytes copied): an element summed costs about 4, or
     * with a pow (LP pooling, P above 2) about 32. */
    const uint64_t bytes = op->outputs[0].count * (st->window_count * (st->p > 2 ? 32 : 4) + st->elem_size);
    ap_job job;
    job.st = st;
    job.in = (const char*)in[0];
    job.out = (char*)out[0];
    dmlc_parallel_for(rows, bytes, ap_rows, &job);
}

/* ---- Creation ------------------------------------------------------------------------------ */

/* AVERAGE_POOLING's fields and AVERAGE_POOLING1's: v1 adds Dilations before IncludePadding. */
typedef struct ap_args {
    const DML_TENSOR_DESC* in_desc;
    const DML_TENSOR_DESC* out_desc;
    dmlc_pool_window win;
    BOOL include_padding;
} ap_args;

static ap_args read_args(DML_OPERATOR_TYPE type, const void* desc)
{
    static const UINT ones[AP_SPATIAL] = {1, 1, 1};
    if (type == DML_OPERATOR_AVERAGE_POOLING1) {
        const DML_AVERAGE_POOLING1_OPERATOR_DESC* d = (const DML_AVERAGE_POOLING1_OPERATOR_DESC*)desc;
        const ap_args a = {d->InputTensor, d->OutputTensor, DMLC_POOL_WINDOW_OF(d, d->Dilations), d->IncludePadding};
        return a;
    } else {
        const DML_AVERAGE_POOLING_OPERATOR_DESC* d = (const DML_AVERAGE_POOLING_OPERATOR_DESC*)desc;
        const ap_args a = {d->InputTensor, d->OutputTensor, DMLC_POOL_WINDOW_OF(d, ones), d->IncludePadding};
        return a;
    }
}

/* IncludePadding and the window fields (the schema's check took the input's type: FLOAT16,
 * FLOAT32 and FLOAT64, an average being a floating-point value); the output sizes into sh. */
static HRESULT validate(const char* opname, const ap_args* a, const dmlc_tensor* in, dmlc_shapes* sh)
{
    if (a->include_padding != 0 && a->include_padding != 1)
        return dmlc_fail(E_INVALIDARG, opname, "IncludePadding is %d, expected FALSE (0) or TRUE (1)",
                         (int)a->include_padding);
    return dmlc_pool_window_validate(opname, &a->win, in, sh);
}

/* The kernel's view of the validated tensors into st: windows win, the average (p 0, with
 * IncludePadding include_padding) or LP pooling's norm (p >= 1). */
static void plan(ap_state* st, const dmlc_pool_window* win, int include_padding, UINT p, const dmlc_tensor* in,
                 const dmlc_tensor* out)
{
    const UINT sp = in->ndim - 2, lead = AP_SPATIAL - sp;
    ap_dim* dw = &st->dims[2];
    memset(st, 0, sizeof *st);
    for (UINT i = 0; i < AP_SPATIAL; ++i) st->dims[i].n = st->dims[i].out = st->dims[i].k = st->dims[i].s = st->dims[i].d = 1;
    for (UINT i = 0; i < sp; ++i) {
        ap_dim* m = &st->dims[lead + i];
        m->n = in->sizes[i + 2];
        m->out = out->sizes[i + 2];
        m->k = win->window[i];
        m->s = win->strides[i];
        m->d = win->dilations[i];
        m->p = win->start[i];
        m->pe = win->end[i];
        m->is = (int64_t)in->strides[i + 2];
        m->os = (int64_t)out->strides[i + 2];
    }
    st->elem_size = in->elem_size;
    st->include_padding = include_padding != 0;
    st->p = p;
    st->channels = in->sizes[1];
    st->planes = (uint64_t)in->sizes[0] * in->sizes[1];
    st->in_n = (int64_t)in->strides[0];
    st->in_c = (int64_t)in->strides[1];
    st->out_n = (int64_t)out->strides[0];
    st->out_c = (int64_t)out->strides[1];
    st->window_count = (uint64_t)st->dims[0].k * (uint64_t)st->dims[1].k * (uint64_t)st->dims[2].k;
    st->keff = (dw->k - 1) * dw->d + 1;
    st->tile = st->keff <= AP_COLS ? (AP_COLS - st->keff) / dw->s + 1 : 0;
    /* Outputs whose window [ow*s - p, ow*s - p + keff) lies inside [lo, hi): ow from
     * ceil((lo + p) / s) to floor((hi + p - keff) / s).  Example: W 224, 3x3/2 pad 1, lo 0,
     * hi 224: ow 1 to 111 (output 0 covers columns -1..1; output 111, the last, 221..223).
     * With IncludePadding lo is -1 and hi 225: every output, 0 to 111. */
    {
        const int64_t lo = st->include_padding ? -dw->p : 0, hi = st->include_padding ? dw->n + dw->pe : dw->n;
        const int64_t last = hi + dw->p - st->keff;
        st->full0 = (lo + dw->p + dw->s - 1) / dw->s;
        st->full1 = last < 0 ? 0 : last / dw->s + 1;
        if (st->full1 > dw->out) st->full1 = dw->out;
        if (st->full0 > st->full1) st->full0 = st->full1;
    }
    st->row = ap_row_for(in->type, p);
}

HRESULT dmlc_infer_average_pooling(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const ap_args a = read_args(type, desc);
    dmlc_tensor in;
    HRESULT hr;
    if (FAILED(hr = dmlc_shapes_unary_input(sh, &in, a.in_desc, opname, 3, 5))) return hr;
    return validate(opname, &a, &in, sh);
}

HRESULT dmlc_create_average_pooling(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const ap_args a = read_args(type, desc);
    dmlc_tensor in, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    DMLC_OPERATOR_T* o;
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_init_in_out(&in, a.in_desc, &out, a.out_desc, opname, 3, 5)) ||
        FAILED(hr = validate(opname, &a, &in, &sh)))
        return hr;
    o = dmlc_window_sum_operator(type, opname, &in, &out, &a.win, a.include_padding, 0);
    if (!o) return E_OUTOFMEMORY;
    *op = o;
    return S_OK;
}

DMLC_OPERATOR_T* dmlc_window_sum_operator(DML_OPERATOR_TYPE type, const char* opname, const dmlc_tensor* in,
                                          const dmlc_tensor* out, const dmlc_pool_window* win, int include_padding,
                                          UINT p)
{
    DMLC_OPERATOR_T* o = dmlc_operator_alloc_unary(type, opname, in, out, average_pooling_execute, sizeof(ap_state));
    if (o) plan((ap_state*)o->state, win, include_padding, p, in, out);
    return o;
}
