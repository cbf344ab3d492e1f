/* roi.c - DML_OPERATOR_ROI_POOLING: pooling over regions of interest.
 *
 * ROI_POOLING (Caffe's and ONNX's MaxRoiPool).  Input {N, C, H, W}; ROITensor {1, 1, R, 5},
 * {1, R, 5} or {R, 5} of the input's type, rows [batch, x1, y1, x2, y2]; Output
 * {R, C, PooledSize.Height, PooledSize.Width}.  Per region (docs/operators/roi_pooling.rst):
 * batch is truncated toward zero; each corner is multiplied by SpatialScale in float32
 * (double for FLOAT64) and rounded half away from zero; RH = max(y2 - y1 + 1, 1),
 * RW = max(x2 - x1 + 1, 1).  Bin (ph, pw) covers rows
 *     [floor(ph * RH / PH) + y1, ceil((ph + 1) * RH / PH) + y1)
 * and columns likewise, each end clamped into [0, H] / [0, W]; its value is the bin's
 * maximum (the first NaN wins; of equal values the first in row-major order), copied bit
 * for bit, and an empty bin gives 0.  Example: a region [0, 0, 0, 4, 2] at scale 1 pooled
 * to 2x2 has RH 3, RW 5: bin (0, 1) covers rows [0, 2) and columns [2, 5).
 *
 * What only the data shows (a batch index outside [0, N), a NaN or infinite region value,
 * a scaled corner beyond +-2^30) is refused by roi_check before anything is written.
 *
 * Threads: one item per (region, channel) pair, through dmlc_parallel_for. */
#include "../dmlc_internal.h"

#include <math.h>

/* Corners beyond this after scaling are refused: bins stay exact in 64-bit arithmetic. */
#define ROI_CORNER_LIMIT 1073741824.0 /* 2^30 */

typedef struct roi_args {
    const DML_TENSOR_DESC* in_desc;
    const DML_TENSOR_DESC* roi_desc;
    const DML_TENSOR_DESC* out_desc;
    FLOAT spatial_scale;
    DML_SIZE_2D pooled;
} roi_args;

static roi_args read_args(const void* desc)
{
    const DML_ROI_POOLING_OPERATOR_DESC* d = (const DML_ROI_POOLING_OPERATOR_DESC*)desc;
    roi_args a;
    a.in_desc = d->InputTensor;
    a.roi_desc = d->ROITensor;
    a.out_desc = d->OutputTensor;
    a.spatial_scale = d->SpatialScale;
    a.pooled = d->PooledSize;
    return a;
}

static int float_type(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_FLOAT16 || t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT64;
}

/* A 2-D table of rows held in 2 to 4 dimensions whose leading sizes are 1 ({R, cols},
 * {1, R, cols}, {1, 1, R, cols}): checks it and gives its row count. */
static HRESULT table_rows(const char* opname, const dmlc_tensor* t, const char* field, UINT cols, const char* what,
                          UINT* rows)
{
    for (UINT i = 0; i + 2 < t->ndim; ++i)
        if (t->sizes[i] != 1)
            return dmlc_fail(E_INVALIDARG, opname, "%s.Sizes[%u] is %u, expected 1 (%s is {R, %u}, {1, R, %u} or "
                             "{1, 1, R, %u})", field, i, t->sizes[i], field, cols, cols, cols);
    if (t->sizes[t->ndim - 1] != cols)
        return dmlc_fail(E_INVALIDARG, opname, "%s.Sizes[%u] is %u, expected %u (rows %s)", field, t->ndim - 1,
                         t->sizes[t->ndim - 1], cols, what);
    *rows = t->sizes[t->ndim - 2];
    return S_OK;
}

/* Every field but the tensors' own validity; the output sizes into sh. */
static HRESULT validate(const char* opname, const roi_args* a, const dmlc_tensor* in, const dmlc_tensor* roi,
                        dmlc_shapes* sh)
{
    char tb[DMLC_TYPE_NAME_SIZE];
    HRESULT hr;
    UINT rows = 0;
    if (!float_type(in->type))
        return dmlc_fail(E_INVALIDARG, opname, "InputTensor.DataType is %s, expected FLOAT64, FLOAT32 or FLOAT16",
                         dmlc_data_type_name(in->type, tb));
    if (FAILED(hr = dmlc_tensor_same_type(in, "InputTensor", roi, "ROITensor", opname)) ||
        FAILED(hr = table_rows(opname, roi, "ROITensor", 5, "[batch, x1, y1, x2, y2]", &rows)))
        return hr;
    if (!isfinite((double)a->spatial_scale))
        return dmlc_fail(E_INVALIDARG, opname, "SpatialScale is %g, expected a finite value", (double)a->spatial_scale);
    if (a->pooled.Width == 0 || a->pooled.Height == 0)
        return dmlc_fail(E_INVALIDARG, opname, "PooledSize is {Width %u, Height %u}, expected both at least 1",
                         a->pooled.Width, a->pooled.Height);
    dmlc_shape_rank(sh, 0, 4);
    if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", 0, rows, "one per ROITensor row: %u", rows)) ||
        FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", 1, in->sizes[1], "InputTensor.Sizes[1], the channels")) ||
        FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", 2, a->pooled.Height, "PooledSize.Height")) ||
        FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", 3, a->pooled.Width, "PooledSize.Width")))
        return hr;
    return S_OK;
}

/* ---- Plan and kernels ---------------------------------------------------------------- */

typedef struct roi_state {
    DML_TENSOR_DATA_TYPE type;
    uint64_t n, c, h, w, r, ph, pw;
    int64_t in_strides[4];
    int64_t out_strides[4];
    int64_t roi_row, roi_col; /* the ROI table's strides, elements */
    float scale_f;
    double scale_d;
} roi_state;

/* Region value j of row r, widened to double. */
static double roi_value(const roi_state* st, const void* rois, uint64_t r, UINT j)
{
    const int64_t k = (int64_t)r * st->roi_row + (int64_t)j * st->roi_col;
    switch (st->type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: return (double)dmlc_half_to_float_inline(((const uint16_t*)rois)[k]);
    case DML_TENSOR_DATA_TYPE_FLOAT32: return (double)((const float*)rois)[k];
    default: return ((const double*)rois)[k];
    }
}

/* A corner times SpatialScale, rounded half away from zero: in float32 for FLOAT16/32 (the
 * product rounded to float first), double for FLOAT64. */
static double scaled_corner(const roi_state* st, double v)
{
    if (st->type == DML_TENSOR_DATA_TYPE_FLOAT64) return round(v * st->scale_d);
    return (double)roundf((float)v * st->scale_f);
}

/* One region in input coordinates: its batch and its rounded corners. */
typedef struct roi_box {
    uint64_t batch;
    int64_t x1, y1, x2, y2;
} roi_box;

static roi_box roi_box_of(const roi_state* st, const void* rois, uint64_t r)
{
    roi_box b;
    b.batch = (uint64_t)roi_value(st, rois, r, 0); /* checked: in [0, N), truncated toward zero */
    b.x1 = (int64_t)scaled_corner(st, roi_value(st, rois, r, 1));
    b.y1 = (int64_t)scaled_corner(st, roi_value(st, rois, r, 2));
    b.x2 = (int64_t)scaled_corner(st, roi_value(st, rois, r, 3));
    b.y2 = (int64_t)scaled_corner(st, roi_value(st, rois, r, 4));
    return b;
}

static HRESULT roi_check(const DMLC_OPERATOR_T* op, const void* const* in)
{
    static const char* const names[5] = {"batch", "x1", "y1", "x2", "y2"};
    const roi_state* st = (const roi_state*)op->state;
    for (uint64_t r = 0; r < st->r; ++r) {
        for (UINT j = 0; j < 5; ++j) {
            const double v = roi_value(st, in[1], r, j);
            if (!isfinite(v))
                return dmlc_fail(E_INVALIDARG, op->name, "ROITensor row %llu: %s is %g, expected a finite value",
                                 (unsigned long long)r, names[j], v);
            if (j == 0 && !(v > -1 && v < (double)st->n))
                return dmlc_fail(E_INVALIDARG, op->name, "ROITensor row %llu: batch is %g, expected an index in [0, %llu) "
                                 "(InputTensor.Sizes[0])", (unsigned long long)r, v, (unsigned long long)st->n);
            if (j > 0 && !(fabs(scaled_corner(st, v)) <= ROI_CORNER_LIMIT))
                return dmlc_fail(E_INVALIDARG, op->name, "ROITensor row %llu: %s is %g, which SpatialScale %g takes to %g, "
                                 "beyond +-2^30", (unsigned long long)r, names[j], v, st->scale_d, scaled_corner(st, v));
        }
    }
    return S_OK;
}

/* Bin b of n over a region of `len` >= 1 cells from `start`: [floor(b*len/n), ceil((b+1)*len/n))
 * shifted by start, clamped into [0, limit].  Products stay below 2^64: b < n < 2^32, len <= 2^31 + 1. */
static void bin_range(uint64_t b, uint64_t n, uint64_t len, int64_t start, uint64_t limit, int64_t* lo, int64_t* hi)
{
    const uint64_t p0 = b * len, p1 = (b + 1) * len;
    int64_t s = (int64_t)(p0 / n) + start, e = (int64_t)(p1 / n + (p1 % n != 0)) + start;
    s = s < 0 ? 0 : s > (int64_t)limit ? (int64_t)limit : s;
    e = e < 0 ? 0 : e > (int64_t)limit ? (int64_t)limit : e;
    *lo = s;
    *hi = e;
}

typedef struct roi_job {
    const roi_state* st;
    const void* in;
    const void* rois;
    void* out;
} roi_job;

/* Max pooling of items [begin, end), item = region * C + channel.  LOAD widens an element for
 * the comparison (FLOAT16 to float); the chosen element is stored as it is, bit for bit. */
#define ROI_POOL_KERNEL(NAME, T, F, LOAD)                                                                          \
    static void NAME(void* ctx, uint64_t begin, uint64_t end)                                                      \
    {                                                                                                              \
        const roi_job* job = (const roi_job*)ctx;                                                                  \
        const roi_state* st = job->st;                                                                             \
        const T* in = (const T*)job->in;                                                                           \
        T* out = (T*)job->out;                                                                                     \
        const int64_t sh = st->in_strides[2], sw = st->in_strides[3];                                              \
        for (uint64_t item = begin; item < end; ++item) {                                                          \
            const uint64_t r = item / st->c, c = item % st->c;                                                     \
            const roi_box b = roi_box_of(st, job->rois, r);                                                        \
            const uint64_t rh = b.y2 - b.y1 + 1 > 1 ? (uint64_t)(b.y2 - b.y1 + 1) : 1;                             \
            const uint64_t rw = b.x2 - b.x1 + 1 > 1 ? (uint64_t)(b.x2 - b.x1 + 1) : 1;                             \
            const T* plane = in + (int64_t)b.batch * st->in_strides[0] + (int64_t)c * st->in_strides[1];           \
            T* dst = out + (int64_t)r * st->out_strides[0] + (int64_t)c * st->out_strides[1];                      \
            for (uint64_t ph = 0; ph < st->ph; ++ph) {                                                             \
                int64_t h0, h1;                                                                                    \
                bin_range(ph, st->ph, rh, b.y1, st->h, &h0, &h1);                                                  \
                for (uint64_t pw = 0; pw < st->pw; ++pw) {                                                         \
                    int64_t w0, w1;                                                                                \
                    T best;                                                                                        \
                    F bm;                                                                                          \
                    bin_range(pw, st->pw, rw, b.x1, st->w, &w0, &w1);                                              \
                    if (h0 >= h1 || w0 >= w1) {                                                                    \
                        memset(&best, 0, sizeof best); /* an empty bin: 0 (all zero bits in every float type) */   \
                    } else {                                                                                       \
                        best = plane[h0 * sh + w0 * sw];                                                           \
                        bm = LOAD(best);                                                                           \
                        for (int64_t y = h0; y < h1; ++y) {                                                        \
                            const T* row = plane + y * sh;                                                         \
                            for (int64_t x = w0; x < w1; ++x) {                                                    \
                                const F v = LOAD(row[x * sw]);                                                     \
                                if (v > bm || (v != v && bm == bm)) { /* a NaN wins, the first one */             \
                                    best = row[x * sw];                                                            \
                                    bm = v;                                                                        \
                                }                                                                                  \
                            }                                                                                      \
                        }                                                                                          \
                    }                                                                                              \
                    dst[(int64_t)ph * st->out_strides[2] + (int64_t)pw * st->out_strides[3]] = best;               \
                }                                                                                                  \
            }                                                                                                      \
        }                                                                                                          \
    }

#define ROI_ID(v) (v)
#define ROI_HALF(v) dmlc_half_to_float_inline(v)
ROI_POOL_KERNEL(roi_pool_f16, uint16_t, float, ROI_HALF)
ROI_POOL_KERNEL(roi_pool_f32, float, float, ROI_ID)
ROI_POOL_KERNEL(roi_pool_f64, double, double, ROI_ID)

static void roi_pool_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const roi_state* st = (const roi_state*)op->state;
    roi_job job;
    dmlc_range_fn fn = st->type == DML_TENSOR_DATA_TYPE_FLOAT16   ? roi_pool_f16
                       : st->type == DML_TENSOR_DATA_TYPE_FLOAT32 ? roi_pool_f32
                                                                  : roi_pool_f64;
    job.st = st;
    job.in = in[0];
    job.rois = in[1];
    job.out = out[0];
    /* Each output element reads its bin: about the input plane's share per bin, a few at least. */
    dmlc_parallel_for(st->r * st->c, op->outputs[0].count * op->inputs[0].elem_size * 8, fn, &job);
}

static void plan(roi_state* st, const roi_args* a, const dmlc_tensor* in, const dmlc_tensor* roi,
                 const dmlc_tensor* out)
{
    st->type = in->type;
    st->n = in->sizes[0];
    st->c = in->sizes[1];
    st->h = in->sizes[2];
    st->w = in->sizes[3];
    st->r = out->sizes[0];
    st->ph = out->sizes[2];
    st->pw = out->sizes[3];
    for (UINT d = 0; d < 4; ++d) {
        st->in_strides[d] = (int64_t)in->strides[d];
        st->out_strides[d] = (int64_t)out->strides[d];
    }
    st->roi_row = (int64_t)roi->strides[roi->ndim - 2];
    st->roi_col = (int64_t)roi->strides[roi->ndim - 1];
    st->scale_f = a->spatial_scale;
    st->scale_d = (double)a->spatial_scale;
}

/* ---- Entry points -------------------------------------------------------------------- */

HRESULT dmlc_infer_roi(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const roi_args a = read_args(desc);
    dmlc_tensor in, roi;
    HRESULT hr;
    (void)type;
    if (FAILED(hr = dmlc_shapes_count(sh, 1)) ||
        FAILED(hr = dmlc_tensor_init(&in, a.in_desc, opname, "InputTensor", 4, 4, DMLC_INPUT_MAY_BE_EMPTY)) ||
        FAILED(hr = dmlc_tensor_init(&roi, a.roi_desc, opname, "ROITensor", 2, 4, DMLC_INPUT_MAY_BE_EMPTY)))
        return hr;
    return validate(opname, &a, &in, &roi, sh);
}

HRESULT dmlc_create_roi(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const roi_args a = read_args(desc);
    dmlc_tensor in, roi, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    DMLC_OPERATOR_T* o;
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_init(&in, a.in_desc, opname, "InputTensor", 4, 4, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&roi, a.roi_desc, opname, "ROITensor", 2, 4, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&out, a.out_desc, opname, "OutputTensor", 4, 4, DMLC_OUTPUT)) ||
        FAILED(hr = dmlc_tensor_same_type(&in, "InputTensor", &out, "OutputTensor", opname)) ||
        FAILED(hr = validate(opname, &a, &in, &roi, &sh)))
        return hr;
    o = dmlc_operator_alloc(type, opname, 2, 1, sizeof(roi_state));
    if (!o) return E_OUTOFMEMORY;
    o->inputs[0] = in;
    o->inputs[1] = roi;
    o->outputs[0] = out;
    o->execute = roi_pool_execute;
    o->check = roi_check;
    plan((roi_state*)o->state, &a, &in, &roi, &out);
    *op = o;
    return S_OK;
}
