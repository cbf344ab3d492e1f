/* padding.c - DML_OPERATOR_PADDING and DML_OPERATOR_PADDING1.
 *
 * Per dimension, with input size n and start padding s, output coordinate o reads input
 * coordinate t = o - s when 0 <= t < n; outside, by mode (docs/operators/padding.rst):
 *   CONSTANT    the padding value;
 *   EDGE        clamp(t, 0, n-1);
 *   REFLECTION  mirror without repeating the edge, period 2(n-1):
 *               n = 4: t = -3 -2 -1 | 0 1 2 3 | 4 5 6 7  ->  3 2 1 | 0 1 2 3 | 2 1 0 1
 *   SYMMETRIC   mirror repeating the edge, period 2n:
 *               n = 4: t = -3 -2 -1 | 0 1 2 3 | 4 5 6 7  ->  2 1 0 | 0 1 2 3 | 3 2 1 0
 *   WRAP        t mod n (ONNX Pad "wrap");
 * and n = 1 gives the single value in every mode but CONSTANT.
 *
 * Execution walks output rows of the innermost dimension.  The outer coordinates of a row
 * pick its source row (or make it all padding value, in CONSTANT mode); the row itself is
 * the left border, the interior (one memcpy when both rows are contiguous) and the right
 * border.  A border in a mirror mode is a few runs of consecutive source elements, forward
 * or backward, so nothing is computed per element: REFLECTION with n = 4 and a right
 * border of 7 is the runs {2 1 0} {1 2 3} {2}.  Row kernels are chosen by element size
 * once, at creation; the padding value is a bit pattern of that size. */
#include "../dmlc_internal.h"

#include <string.h>

typedef struct pad_dim {
    uint64_t n;  /* input size */
    uint64_t s;  /* start padding */
    uint64_t m;  /* output size: s + n + end padding */
    int64_t is;  /* input stride, elements */
    int64_t os;  /* output stride, elements */
} pad_dim;

/* Where a border walk stands: source coordinate x, moving by dir (+1, -1, or 0 for a
 * repeated edge value). */
typedef struct pad_walk {
    uint64_t x;
    int dir;
} pad_walk;

/* Borders up to this long (the common 1 to 3) are a gather through a per-row table built at
 * creation rather than a walk: a few nanoseconds less per row. */
#define PAD_GATHER_MAX 16

typedef struct padding_state padding_state;
/* Writes output columns [c0, c1) of one row; src is the source row, or NULL for a row
 * that lies in a CONSTANT border of an outer dimension. */
typedef void (*pad_row_fn)(const padding_state* st, char* dst, const char* src, uint64_t c0, uint64_t c1);
/* Writes whole rows [begin, end), numbered as pad_range numbers them (see padding_row.inc's
 * NAME_rows for when it may). */
typedef void (*pad_rows_fn)(const padding_state* st, char* dst, const char* src, uint64_t begin, uint64_t end);

struct padding_state {
    DML_PADDING_MODE mode;
    UINT elem_size;
    UINT ndim;                     /* after merging dimensions; at least 1 */
    pad_dim dims[DMLC_MAX_DIMS];   /* outermost first; the last one is the row */
    uint64_t rows;                 /* product of the outer output sizes */
    unsigned char value[8];        /* the padding value's bit pattern (elem_size bytes) */
    pad_walk left, right;          /* the row's border walks from t = -s and from t = n */
    UINT gather_left, gather_right; /* short borders: their length, read through the tables */
    int64_t left_src[PAD_GATHER_MAX], right_src[PAD_GATHER_MAX]; /* source offsets, elements */
    int stream;                    /* write long contiguous runs with non-temporal stores */
    pad_row_fn row;
    pad_rows_fn whole_rows;        /* NULL where only row can */
};

/* ---- Coordinate mapping ----------------------------------------------------------------- */

/* The walk that starts at input coordinate t (any integer in [-s, n + end)), for every mode
 * but CONSTANT. */
static pad_walk walk_start(DML_PADDING_MODE mode, uint64_t n, int64_t t)
{
    pad_walk w;
    const int64_t nn = (int64_t)n;
    int64_t p, u;
    if (n == 1 || mode == DML_PADDING_MODE_EDGE) {
        w.x = t < 0 ? 0 : (t >= nn ? n - 1 : (uint64_t)t);
        w.dir = 0;
        return w;
    }
    switch (mode) {
    case DML_PADDING_MODE_WRAP:
        u = t % nn;
        w.x = (uint64_t)(u < 0 ? u + nn : u);
        w.dir = 1;
        break;
    case DML_PADDING_MODE_REFLECTION:
        /* u in [0, n) walks forward from u, u in [n, 2(n-1)) backward from 2(n-1) - u. */
        p = 2 * (nn - 1);
        u = t % p;
        if (u < 0) u += p;
        if (u < nn) { w.x = (uint64_t)u; w.dir = 1; }
        else { w.x = (uint64_t)(p - u); w.dir = -1; }
        break;
    default: /* SYMMETRIC: u in [n, 2n) walks backward from 2n - 1 - u. */
        p = 2 * nn;
        u = t % p;
        if (u < 0) u += p;
        if (u < nn) { w.x = (uint64_t)u; w.dir = 1; }
        else { w.x = (uint64_t)(p - 1 - u); w.dir = -1; }
        break;
    }
    return w;
}

/* The source coordinate of output coordinate o of dimension d, or -1 in a CONSTANT border. */
static inline int64_t map_coord(const padding_state* st, const pad_dim* d, uint64_t o)
{
    int64_t t = (int64_t)o - (int64_t)d->s;
    if (DMLC_LIKELY(t >= 0 && (uint64_t)t < d->n)) return t;
    if (st->mode == DML_PADDING_MODE_CONSTANT) return -1;
    return (int64_t)walk_start(st->mode, d->n, t).x;
}

/* The run a walk makes next (at most `count` elements) and the walk after it. */
static inline uint64_t walk_run(const padding_state* st, const pad_dim* d, pad_walk* w, uint64_t count,
                                uint64_t* x, int* dir)
{
    uint64_t run = w->dir > 0 ? d->n - w->x : (w->dir < 0 ? w->x + 1 : count);
    if (run > count) run = count;
    *x = w->x;
    *dir = w->dir;
    if (w->dir > 0) {
        w->x += run;
        if (w->x == d->n) { /* bounce off the end */
            if (st->mode == DML_PADDING_MODE_WRAP) w->x = 0;
            else { w->x = st->mode == DML_PADDING_MODE_REFLECTION ? d->n - 2 : d->n - 1; w->dir = -1; }
        }
    } else if (w->dir < 0) {
        if (run == w->x + 1) { /* bounce off the start */
            w->x = st->mode == DML_PADDING_MODE_REFLECTION ? 1 : 0;
            w->dir = 1;
        } else {
            w->x -= run;
        }
    }
    return run;
}

/* ---- Row kernels by element size -----------------------------------------------------------
 * An output far larger than the caches is written with non-temporal stores where it is
 * contiguous (dmlc_copy_stream_lines, dmlc_fill_stream_lines): they skip reading every
 * destination line into the cache before writing it, a third of the memory traffic of a
 * copy.  Only whole 64-byte lines are streamed, since a row's first and last lines are
 * shared with the borders, which take ordinary stores.  Used from 32 MiB of output, for
 * runs of 256 bytes or more. */
#define PAD_STREAM_MIN_BYTES ((uint64_t)32 << 20)
#define PAD_STREAM_MIN_RUN 256

#define T uint8_t
#define NAME pad_row8
#include "padding_row.inc"
#define T uint16_t
#define NAME pad_row16
#include "padding_row.inc"
#define T uint32_t
#define NAME pad_row32
#include "padding_row.inc"
#define T uint64_t
#define NAME pad_row64
#include "padding_row.inc"

static pad_row_fn pad_row_for(UINT elem_size)
{
    switch (elem_size) {
    case 1: return pad_row8;
    case 2: return pad_row16;
    case 4: return pad_row32;
    default: return pad_row64;
    }
}

static pad_rows_fn pad_rows_for(UINT elem_size)
{
    switch (elem_size) {
    case 1: return pad_row8_rows;
    case 2: return pad_row16_rows;
    case 4: return pad_row32_rows;
    default: return pad_row64_rows;
    }
}

/* ---- Execution ------------------------------------------------------------------------------ */
typedef struct pad_job {
    const padding_state* st;
    char* dst;
    const char* src;
    uint64_t pieces; /* column ranges per row, > 1 only when there are few rows */
} pad_job;

/* Items [begin, end) of rows x pieces.  The outer multi-index, its source coordinates and
 * the offsets of both rows advance once per row; a mapping is recomputed only for the
 * dimensions whose index changed. */
static void pad_range(void* vjob, uint64_t begin, uint64_t end)
{
    const pad_job* job = (const pad_job*)vjob;
    const padding_state* st = job->st;
    const UINT od = st->ndim - 1;
    const int64_t es = st->elem_size;
    const uint64_t m = st->dims[od].m, pieces = job->pieces;
    uint64_t idx[DMLC_MAX_DIMS], row = begin / pieces, piece = begin % pieces;
    int64_t xs[DMLC_MAX_DIMS], doff = 0, soff = 0;
    UINT in_border = 0; /* outer dimensions whose coordinate lies in a CONSTANT border */
    if (pieces == 1 && st->whole_rows) {
        st->whole_rows(st, job->dst, job->src, begin, end);
        return;
    }
    for (UINT i = od; i-- > 0;) {
        const pad_dim* d = &st->dims[i];
        idx[i] = row % d->m;
        row /= d->m;
        xs[i] = map_coord(st, d, idx[i]);
        doff += (int64_t)idx[i] * d->os;
        if (xs[i] < 0) ++in_border;
        else soff += xs[i] * d->is;
    }
    for (uint64_t item = begin; item < end;) {
        char* drow = job->dst + doff * es;
        const char* srow = in_border ? NULL : job->src + soff * es;
        if (pieces == 1) {
            st->row(st, drow, srow, 0, m);
            ++item;
        } else {
            st->row(st, drow, srow, m * piece / pieces, m * (piece + 1) / pieces);
            ++item;
            if (++piece < pieces) continue;
            piece = 0;
        }
        /* Next row: carry through the outer dimensions. */
        for (UINT i = od; i-- > 0;) {
            const pad_dim* d = &st->dims[i];
            int64_t x;
            doff += d->os;
            if (++idx[i] == d->m) {
                idx[i] = 0;
                doff -= (int64_t)d->m * d->os;
            }
            x = map_coord(st, d, idx[i]);
            if (xs[i] < 0) --in_border;
            else soff -= xs[i] * d->is;
            if (x < 0) ++in_border;
            else soff += x * d->is;
            xs[i] = x;
            if (idx[i] != 0) break;
        }
    }
    if (st->stream) dmlc_stream_fence(); /* streamed stores are visible before the call returns */
}

static void padding_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const padding_state* st = (const padding_state*)op->state;
    const uint64_t m = st->dims[st->ndim - 1].m;
    const uint64_t bytes = op->outputs[0].count * st->elem_size + op->inputs[0].extent;
    const uint64_t threads = dmlc_threads_for(bytes);
    pad_job job;
    job.st = st;
    job.dst = (char*)out[0];
    job.src = (const char*)in[0];
    job.pieces = 1;
    /* Few long rows (a 1-d tensor, say): cut rows into column ranges so every thread gets
     * a share. */
    if (threads > 1 && st->rows < 8 * threads) {
        job.pieces = 8 * threads / st->rows + 1;
        if (job.pieces > m) job.pieces = m;
    }
    dmlc_parallel_for(st->rows * job.pieces, bytes, pad_range, &job);
}

/* ---- The padding value ----------------------------------------------------------------------- */

/* PADDING's FLOAT as the tensor's type (DIAGONAL_MATRIX's Value too): integers truncate toward
 * zero and saturate, NaN is 0; floats round to nearest even.  Writes elem_size bytes of out. */
void dmlc_float_value_bits(float f, DML_TENSOR_DATA_TYPE type, unsigned char out[8])
{
    const double v = f;
    memset(out, 0, 8);
#define SIGNED_VALUE(T, MIN, MAX, HI) /* HI: 2^(bits-1), exact as a double */          \
    do {                                                                                 \
        T r;                                                                             \
        if (v != v) r = 0;                                                               \
        else if (v >= (HI)) r = (MAX);                                                   \
        else if (v < -(HI)) r = (MIN);                                                   \
        else r = (T)(int64_t)v; /* truncates toward zero */                             \
        memcpy(out, &r, sizeof r);                                                       \
    } while (0)
#define UNSIGNED_VALUE(T, MAX, HI)                                                        \
    do {                                                                                 \
        T r;                                                                             \
        if (!(v >= 1.0)) r = 0; /* NaN, negatives and fractions below 1 */              \
        else if (v >= (HI)) r = (MAX);                                                   \
        else r = (T)(uint64_t)v;                                                         \
        memcpy(out, &r, sizeof r);                                                       \
    } while (0)
    switch ((int)type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: memcpy(out, &f, sizeof f); break;
    case DML_TENSOR_DATA_TYPE_FLOAT64: memcpy(out, &v, sizeof v); break;
    case DML_TENSOR_DATA_TYPE_FLOAT16: {
        uint16_t h = dmlc_float_to_half(f);
        memcpy(out, &h, sizeof h);
        break;
    }
    case DML_TENSOR_DATA_TYPE_INT8: SIGNED_VALUE(int8_t, INT8_MIN, INT8_MAX, 128.0); break;
    case DML_TENSOR_DATA_TYPE_INT16: SIGNED_VALUE(int16_t, INT16_MIN, INT16_MAX, 32768.0); break;
    case DML_TENSOR_DATA_TYPE_INT32: SIGNED_VALUE(int32_t, INT32_MIN, INT32_MAX, 2147483648.0); break;
    case DML_TENSOR_DATA_TYPE_INT64: SIGNED_VALUE(int64_t, INT64_MIN, INT64_MAX, 9223372036854775808.0); break;
    case DML_TENSOR_DATA_TYPE_UINT8: UNSIGNED_VALUE(uint8_t, UINT8_MAX, 256.0); break;
    case DML_TENSOR_DATA_TYPE_UINT16: UNSIGNED_VALUE(uint16_t, UINT16_MAX, 65536.0); break;
    case DML_TENSOR_DATA_TYPE_UINT32: UNSIGNED_VALUE(uint32_t, UINT32_MAX, 4294967296.0); break;
    default: UNSIGNED_VALUE(uint64_t, UINT64_MAX, 18446744073709551616.0); break;
    }
#undef SIGNED_VALUE
#undef UNSIGNED_VALUE
}

/* ---- Creation ------------------------------------------------------------------------------ */
/* PADDING and PADDING1 differ only in the padding value's form. */
typedef struct padding_args {
    int v1;
    DML_PADDING_MODE mode;
    UINT count;
    const UINT* start;
    const UINT* end;
    const DML_PADDING1_OPERATOR_DESC* d1; /* PaddingValueDataType / PaddingValue */
    float value;                          /* PADDING's PaddingValue */
} padding_args;

static padding_args read_args(DML_OPERATOR_TYPE type, const void* desc, const DML_TENSOR_DESC** in_desc,
                              const DML_TENSOR_DESC** out_desc)
{
    const DML_PADDING_OPERATOR_DESC* d0 = (const DML_PADDING_OPERATOR_DESC*)desc;
    const DML_PADDING1_OPERATOR_DESC* d1 = (const DML_PADDING1_OPERATOR_DESC*)desc;
    padding_args a;
    a.v1 = type == DML_OPERATOR_PADDING1;
    a.mode = a.v1 ? d1->PaddingMode : d0->PaddingMode;
    a.count = a.v1 ? d1->DimensionCount : d0->DimensionCount;
    a.start = a.v1 ? d1->StartPadding : d0->StartPadding;
    a.end = a.v1 ? d1->EndPadding : d0->EndPadding;
    a.d1 = d1;
    a.value = a.v1 ? 0.0f : d0->PaddingValue;
    *in_desc = a.v1 ? d1->InputTensor : d0->InputTensor;
    *out_desc = a.v1 ? d1->OutputTensor : d0->OutputTensor;
    return a;
}

/* Every field but the tensors; the output sizes into sh. */
static HRESULT validate(const char* opname, const padding_args* a, const dmlc_tensor* in, dmlc_shapes* sh)
{
    HRESULT hr;
    if (a->count != in->ndim)
        return dmlc_fail(E_INVALIDARG, opname, "DimensionCount is %u, expected %u (InputTensor.DimensionCount)",
                         a->count, in->ndim);
    if ((unsigned)a->mode > (unsigned)DML_PADDING_MODE_WRAP)
        return dmlc_fail(E_INVALIDARG, opname, "PaddingMode is %d, expected DML_PADDING_MODE_CONSTANT (0), "
                         "DML_PADDING_MODE_EDGE (1), DML_PADDING_MODE_REFLECTION (2), DML_PADDING_MODE_SYMMETRIC (3) "
                         "or DML_PADDING_MODE_WRAP (4)", (int)a->mode);
    if (a->v1 && a->d1->PaddingValueDataType != in->type) {
        char n1[DMLC_TYPE_NAME_SIZE], n2[DMLC_TYPE_NAME_SIZE];
        return dmlc_fail(E_INVALIDARG, opname, "PaddingValueDataType is %s, expected %s (InputTensor.DataType)",
                         dmlc_data_type_name(a->d1->PaddingValueDataType, n1), dmlc_data_type_name(in->type, n2));
    }
    dmlc_shape_rank(sh, 0, in->ndim);
    for (UINT i = 0; i < in->ndim; ++i) {
        const uint64_t want = (uint64_t)in->sizes[i] + a->start[i] + a->end[i];
        if (want > UINT32_MAX)
            return dmlc_fail(E_INVALIDARG, opname, "InputTensor.Sizes[%u] %u + StartPadding[%u] %u + EndPadding[%u] %u "
                             "is %llu, more than a tensor size can hold (4294967295)", i, in->sizes[i], i, a->start[i],
                             i, a->end[i], (unsigned long long)want);
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", i, want,
                                          "InputTensor.Sizes[%u] %u + StartPadding[%u] %u + EndPadding[%u] %u", i,
                                          in->sizes[i], i, a->start[i], i, a->end[i])))
            return hr;
    }
    return S_OK;
}

/* The padding value, the normalised dimensions, border tables and row kernel into st. */
static void plan(padding_state* st, const padding_args* a, const dmlc_tensor* in, const dmlc_tensor* out)
{
    const DML_PADDING_MODE mode = a->mode;
    UINT k = 0;
    memset(st, 0, sizeof *st);
    if (a->v1)
        memcpy(st->value, a->d1->PaddingValue.Bytes, in->elem_size); /* every member starts at byte 0: the bits */
    else
        dmlc_float_value_bits(a->value, in->type, st->value);

    /* Normalise the dimensions: drop those of size 1 without padding, and merge a dimension
     * without padding into the one outside it when both tensors step over it contiguously
     * and the outer one has no padding, or the mode is CONSTANT (a constant border row of
     * the outer dimension is just as constant as n inner elements).  NCHW padded on H and
     * W becomes {N*C, H, W}; padded on C only in CONSTANT mode, {N, C*H*W}. */
    st->mode = mode;
    st->elem_size = in->elem_size;
    for (UINT i = 0; i < in->ndim; ++i) {
        const uint64_t n = in->sizes[i], m = out->sizes[i];
        const int64_t is = n == 1 ? 0 : (int64_t)in->strides[i], os = (int64_t)out->strides[i];
        if (n == 1 && m == 1) continue;
        if (k > 0 && m == n) {
            pad_dim* p = &st->dims[k - 1];
            const int p_plain = p->m == p->n;
            uint64_t isn, osn;
            if ((p_plain || mode == DML_PADDING_MODE_CONSTANT) && dmlc_mul_u64((uint64_t)is, n, &isn) &&
                dmlc_mul_u64((uint64_t)os, n, &osn) && (p->n == 1 || (uint64_t)p->is == isn) &&
                (uint64_t)p->os == osn) {
                p->n *= n;
                p->s *= n;
                p->m *= n;
                p->is = is;
                p->os = os;
                continue;
            }
        }
        st->dims[k].n = n;
        st->dims[k].s = a->start[i];
        st->dims[k].m = m;
        st->dims[k].is = is;
        st->dims[k].os = os;
        ++k;
    }
    if (k == 0) { /* a single element */
        st->dims[0].n = st->dims[0].m = 1;
        k = 1;
    }
    st->ndim = k;
    st->rows = 1;
    for (UINT i = 0; i + 1 < k; ++i) st->rows *= st->dims[i].m; /* <= the output's element count */
    if (mode != DML_PADDING_MODE_CONSTANT) {
        const pad_dim* r = &st->dims[k - 1];
        const uint64_t e = r->m - r->s - r->n;
        st->left = walk_start(mode, r->n, -(int64_t)r->s);
        st->right = walk_start(mode, r->n, (int64_t)r->n);
        if (r->s <= PAD_GATHER_MAX) {
            st->gather_left = (UINT)r->s;
            for (uint64_t i = 0; i < r->s; ++i) st->left_src[i] = map_coord(st, r, i) * r->is;
        }
        if (e <= PAD_GATHER_MAX) {
            st->gather_right = (UINT)e;
            for (uint64_t i = 0; i < e; ++i) st->right_src[i] = map_coord(st, r, r->s + r->n + i) * r->is;
        }
    }
    st->row = pad_row_for(st->elem_size);
    st->stream = DMLC_HAVE_STREAM && dmlc_cpu_has(DMLC_CPU_SSE2) && out->count * out->elem_size >= PAD_STREAM_MIN_BYTES;
    {
        const pad_dim* r = &st->dims[k - 1];
        const uint64_t e = r->m - r->s - r->n;
        st->whole_rows = k >= 2 && !st->stream && r->os == 1 && r->is == 1 &&
                         (mode == DML_PADDING_MODE_CONSTANT || (st->gather_left == r->s && st->gather_right == e))
                             ? pad_rows_for(st->elem_size) : NULL;
    }
}

HRESULT dmlc_infer_padding(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const DML_TENSOR_DESC *in_desc, *out_desc;
    const padding_args a = read_args(type, desc, &in_desc, &out_desc);
    dmlc_tensor in;
    HRESULT hr;
    if (FAILED(hr = dmlc_shapes_count(sh, 1)) ||
        FAILED(hr = dmlc_tensor_init(&in, in_desc, opname, "InputTensor", 1, DMLC_MAX_DIMS, dmlc_shapes_input_role(sh))))
        return hr;
    return validate(opname, &a, &in, sh);
}

HRESULT dmlc_create_padding(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const DML_TENSOR_DESC *in_desc, *out_desc;
    const padding_args a = read_args(type, desc, &in_desc, &out_desc);
    dmlc_tensor in, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    DMLC_OPERATOR_T* o;
    HRESULT hr;

    if (FAILED(hr = dmlc_tensor_init(&in, in_desc, opname, "InputTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&out, out_desc, opname, "OutputTensor", 1, DMLC_MAX_DIMS, DMLC_OUTPUT)) ||
        FAILED(hr = dmlc_tensor_same_type(&in, "InputTensor", &out, "OutputTensor", opname)) ||
        FAILED(hr = dmlc_tensor_same_rank(&in, "InputTensor", &out, "OutputTensor", opname)) ||
        FAILED(hr = validate(opname, &a, &in, &sh)))
        return hr;
    o = dmlc_operator_alloc(type, opname, 1, 1, sizeof(padding_state));
    if (!o) return E_OUTOFMEMORY;
    o->inputs[0] = in;
    o->outputs[0] = out;
    o->execute = padding_execute;
    plan((padding_state*)o->state, &a, &in, &out);
    *op = o;
    return S_OK;
}
