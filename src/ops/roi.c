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
 * ROI_POOLING's scaled corner beyond +-2^30) is refused by roi_check / align_check before
 * anything is written.
 *
 * ROI_ALIGN, ROI_ALIGN1 (ONNX's RoiAlign).  Input {N, C, H, W}; ROITensor {R, 4}, {1, R, 4}
 * or {1, 1, R, 4}, rows [x1, y1, x2, y2]; BatchIndicesTensor R UINT32/UINT64 values ({R},
 * {1, R}, ...); Output {R, C, OH, OW} (OH, OW free).  ROI_ALIGN is ROI_ALIGN1 with
 * InputPixelOffset 0.5, OutputPixelOffset -0.5 and no corner alignment.  Per region, in
 * double (docs/operators/roi_align1.rst): X1 = x1 * SpatialScaleX, size = X2 - X1 (Y alike);
 * sx = clamp(ceil(|size| / OW), Minimum, Maximum) samples per output along x, NX = OW * sx,
 * step = size / NX (size / (NX - 1) with AlignRegionsToCorners and NX > 1); sample j sits
 * at X = ((j - OutputPixelOffset) * step + X1) - InputPixelOffset, and output ox owns
 * samples [ox * sx, ox * sx + sx).  A sample with X < -1, X > W, Y < -1 or Y > H is
 * OutOfBoundsInputValue; else X, Y are clamped into [0, W - 1] / [0, H - 1] and read
 * bilinearly (corners of weight 0 not read) or at floor(Y + 0.5), floor(X + 0.5).  The
 * output is the samples' average or maximum (a NaN wins).  Example: ROI_ALIGN, a region
 * [0, 0, 4, 4] to 2x2 outputs: sx = sy = 2, step 1, samples at X = j + 0.5 - 0.5 = 0, 1, 2, 3.
 *
 * Threads: one item per (region, channel) pair, through dmlc_parallel_for.  What depends only
 * on the region (ROI_POOLING's corners and bins, ROI_ALIGN's sample taps: the two corners and
 * weight of every sample along each axis, in double) is computed once, for the region's first
 * item in a run, and applied to each of its channels (ROI_ALIGN: 8 channels per pass over
 * the samples, ROI_POOLING: the next channel's window prefetched); every output is still the
 * same sequence of floating-point operations as computed sample by sample. */
#include "../dmlc_internal.h"
#include "../kernels/order.h"

#include <math.h>
#include <stdlib.h>

/* Corners beyond this after scaling are refused: bins stay exact in 64-bit arithmetic. */
#define ROI_CORNER_LIMIT 1073741824.0 /* 2^30 */

/* The fields of ROI_POOLING, ROI_ALIGN and ROI_ALIGN1 (align: 0 for ROI_POOLING). */
typedef struct roi_args {
    int align;
    const DML_TENSOR_DESC* in_desc;
    const DML_TENSOR_DESC* roi_desc;
    const DML_TENSOR_DESC* idx_desc;
    const DML_TENSOR_DESC* out_desc;
    FLOAT spatial_scale; /* ROI_POOLING */
    DML_SIZE_2D pooled;
    DML_REDUCE_FUNCTION reduction; /* ROI_ALIGN(1) */
    DML_INTERPOLATION_MODE mode;
    FLOAT scale_x, scale_y, in_offset, out_offset, oob;
    UINT min_samples, max_samples;
    BOOL corners;
} roi_args;

static roi_args read_args(DML_OPERATOR_TYPE type, const void* desc)
{
    roi_args a;
    memset(&a, 0, sizeof a);
    if (type == DML_OPERATOR_ROI_POOLING) {
        const DML_ROI_POOLING_OPERATOR_DESC* d = (const DML_ROI_POOLING_OPERATOR_DESC*)desc;
        a.in_desc = d->InputTensor;
        a.roi_desc = d->ROITensor;
        a.out_desc = d->OutputTensor;
        a.spatial_scale = d->SpatialScale;
        a.pooled = d->PooledSize;
    } else if (type == DML_OPERATOR_ROI_ALIGN) {
        /* ROI_ALIGN is ROI_ALIGN1 with offsets 0.5 / -0.5 and no corner alignment */
        const DML_ROI_ALIGN_OPERATOR_DESC* d = (const DML_ROI_ALIGN_OPERATOR_DESC*)desc;
        const roi_args v = {1, d->InputTensor, d->ROITensor, d->BatchIndicesTensor, d->OutputTensor, 0, {0, 0},
                            d->ReductionFunction, d->InterpolationMode, d->SpatialScaleX, d->SpatialScaleY, 0.5f,
                            -0.5f, d->OutOfBoundsInputValue, d->MinimumSamplesPerOutput, d->MaximumSamplesPerOutput, 0};
        a = v;
    } else {
        const DML_ROI_ALIGN1_OPERATOR_DESC* d = (const DML_ROI_ALIGN1_OPERATOR_DESC*)desc;
        const roi_args v = {1, d->InputTensor, d->ROITensor, d->BatchIndicesTensor, d->OutputTensor, 0, {0, 0},
                            d->ReductionFunction, d->InterpolationMode, d->SpatialScaleX, d->SpatialScaleY,
                            d->InputPixelOffset, d->OutputPixelOffset, d->OutOfBoundsInputValue,
                            d->MinimumSamplesPerOutput, d->MaximumSamplesPerOutput, d->AlignRegionsToCorners};
        a = v;
    }
    return a;
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

/* ROI_ALIGN(1)'s fields but the tensors, and its BatchIndicesTensor: R values. */
static HRESULT validate_align(const char* opname, const roi_args* a, const dmlc_tensor* idx, UINT rows)
{
    if (a->reduction != DML_REDUCE_FUNCTION_AVERAGE && a->reduction != DML_REDUCE_FUNCTION_MAX)
        return dmlc_fail(E_INVALIDARG, opname, "ReductionFunction is %u, expected 2 (AVERAGE) or 7 (MAX)",
                         (UINT)a->reduction);
    if ((UINT)a->mode > DML_INTERPOLATION_MODE_LINEAR)
        return dmlc_fail(E_INVALIDARG, opname, "InterpolationMode is %u, expected 0 (NEAREST_NEIGHBOR) or 1 (LINEAR)",
                         (UINT)a->mode);
    if (!isfinite((double)a->scale_x) || !isfinite((double)a->scale_y))
        return dmlc_fail(E_INVALIDARG, opname, "SpatialScale%s is %g, expected a finite value",
                         isfinite((double)a->scale_x) ? "Y" : "X",
                         isfinite((double)a->scale_x) ? (double)a->scale_y : (double)a->scale_x);
    if (!isfinite((double)a->in_offset))
        return dmlc_fail(E_INVALIDARG, opname, "InputPixelOffset is %g, expected a finite value", (double)a->in_offset);
    if (!isfinite((double)a->out_offset))
        return dmlc_fail(E_INVALIDARG, opname, "OutputPixelOffset is %g, expected a finite value", (double)a->out_offset);
    if (a->min_samples == 0 || a->min_samples > a->max_samples)
        return dmlc_fail(E_INVALIDARG, opname, "MinimumSamplesPerOutput is %u and MaximumSamplesPerOutput %u, expected "
                         "1 <= Minimum <= Maximum", a->min_samples, a->max_samples);
    for (UINT i = 0; i + 1 < idx->ndim; ++i)
        if (idx->sizes[i] != 1)
            return dmlc_fail(E_INVALIDARG, opname, "BatchIndicesTensor.Sizes[%u] is %u, expected 1 (BatchIndicesTensor "
                             "is {R}, {1, R}, {1, 1, R} or {1, 1, 1, R})", i, idx->sizes[i]);
    if (idx->sizes[idx->ndim - 1] != rows)
        return dmlc_fail(E_INVALIDARG, opname, "BatchIndicesTensor.Sizes[%u] is %u, expected %u (one per ROITensor row)",
                         idx->ndim - 1, idx->sizes[idx->ndim - 1], rows);
    return S_OK;
}

/* Every field but the tensors' own validity and their data types (floating-point data,
 * UINT32 or UINT64 batch indices: the schema's check); the output sizes into sh (out: the
 * desc's output, whose last two sizes are ROI_ALIGN(1)'s parameter; idx: NULL for
 * ROI_POOLING). */
static HRESULT validate(const char* opname, const roi_args* a, const dmlc_tensor* in, const dmlc_tensor* roi,
                        const dmlc_tensor* idx, const dmlc_tensor* out, dmlc_shapes* sh)
{
    HRESULT hr;
    UINT rows = 0;
    if (FAILED(hr = dmlc_tensor_same_type(in, "InputTensor", roi, "ROITensor", opname)) ||
        FAILED(hr = a->align ? table_rows(opname, roi, "ROITensor", 4, "[x1, y1, x2, y2]", &rows)
                             : table_rows(opname, roi, "ROITensor", 5, "[batch, x1, y1, x2, y2]", &rows)))
        return hr;
    if (a->align) {
        if (FAILED(hr = validate_align(opname, a, idx, rows))) return hr;
        dmlc_shape_rank(sh, 0, 4);
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", 0, rows, "one per ROITensor row: %u", rows)) ||
            FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", 1, in->sizes[1], "InputTensor.Sizes[1], the channels")) ||
            FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", 2, out->sizes[2], "OutputTensor.Sizes[2]")) ||
            FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", 3, out->sizes[3], "OutputTensor.Sizes[3]")))
            return hr;
        return S_OK;
    }
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
    int f16c;                 /* the CPU has F16C (and AVX2): FLOAT16 ROI_ALIGN converts with it */
    uint64_t n, c, h, w, r, ph, pw;
    int64_t in_strides[4];
    int64_t out_strides[4];
    int64_t roi_row, roi_col; /* the ROI table's strides, elements */
    float scale_f;
    double scale_d;
    /* ROI_ALIGN(1) */
    DML_TENSOR_DATA_TYPE idx_type;
    int64_t idx_stride;
    double scale_x, scale_y, in_offset, out_offset, oob;
    double min_samples, max_samples;
    int corners, max_reduce, nearest;
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

static uint64_t batch_index(const roi_state* st, const void* idx, uint64_t r)
{
    const int64_t k = (int64_t)r * st->idx_stride;
    return st->idx_type == DML_TENSOR_DATA_TYPE_UINT32 ? ((const uint32_t*)idx)[k] : ((const uint64_t*)idx)[k];
}

/* ROI_ALIGN(1) at execution: finite region values, batch indices below N. */
static HRESULT align_check(const DMLC_OPERATOR_T* op, const void* const* in)
{
    static const char* const names[4] = {"x1", "y1", "x2", "y2"};
    const roi_state* st = (const roi_state*)op->state;
    for (uint64_t r = 0; r < st->r; ++r) {
        const uint64_t b = batch_index(st, in[2], r);
        for (UINT j = 0; j < 4; ++j) {
            const double v = roi_value(st, in[1], r, j);
            if (!isfinite(v))
                return dmlc_fail(E_INVALIDARG, op->name, "ROITensor row %llu: %s is %g, expected a finite value",
                                 (unsigned long long)r, names[j], v);
        }
        if (b >= st->n)
            return dmlc_fail(E_INVALIDARG, op->name, "BatchIndicesTensor[%llu] is %llu, expected an index below %llu "
                             "(InputTensor.Sizes[0])", (unsigned long long)r, (unsigned long long)b,
                             (unsigned long long)st->n);
    }
    return S_OK;
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
    const void* idx; /* ROI_ALIGN(1)'s batch indices */
    void* out;
} roi_job;

/* Tables a kernel computes once per region and applies to each of its C channels (ROI_POOLING's
 * bins, ROI_ALIGN's sample taps), in one buffer per run of items, grown as regions need.  NULL
 * when that would take more than ROI_TABLE_MAX bytes or memory runs out: the kernel then
 * computes them per channel, as it would per region, with the same arithmetic. */
#define ROI_TABLE_MAX ((uint64_t)1 << 24)

static void* roi_table(void** buf, uint64_t* cap, uint64_t bytes)
{
    if (bytes <= *cap) return *buf;
    free(*buf);
    *buf = bytes <= ROI_TABLE_MAX ? malloc((size_t)bytes) : NULL;
    *cap = *buf ? bytes : 0;
    return *buf;
}

/* Asks for the rows [y0, y1) x columns [x0, x1) of a plane (strides sh, sw elements of es
 * bytes) to be brought into the cache while the previous channel is pooled: the next
 * channel's window is 16 KiB or more away, where the hardware prefetcher does not look.
 * Windows of more than ROI_PREFETCH_MAX lines are left to it (their long rows it follows). */
#define ROI_PREFETCH_MAX 256
static void roi_prefetch_window(const void* plane, size_t es, int64_t sh, int64_t sw, int64_t y0, int64_t y1,
                                int64_t x0, int64_t x1)
{
#if defined(__GNUC__) || defined(__clang__)
    const int64_t step = sw == 1 ? (int64_t)(64 / es) : 1; /* one request per 64-byte line */
    const char* base = (const char*)plane;
    if (y1 <= y0 || x1 <= x0 || (y1 - y0) * ((x1 - x0 + step - 1) / step) > ROI_PREFETCH_MAX) return;
    for (int64_t y = y0; y < y1; ++y) {
        for (int64_t x = x0; x < x1; x += step) __builtin_prefetch(base + (y * sh + x * sw) * (int64_t)es);
        __builtin_prefetch(base + (y * sh + (x1 - 1) * sw) * (int64_t)es);
    }
#else
    (void)plane, (void)es, (void)sh, (void)sw, (void)y0, (void)y1, (void)x0, (void)x1;
#endif
}

/* The locals every kernel below starts with: its job and state, the typed input and
 * output, and the input's H and W strides in elements. */
#define ROI_KERNEL_LOCALS(T)                                                                                       \
    const roi_job* job = (const roi_job*)ctx;                                                                      \
    const roi_state* st = job->st;                                                                                 \
    const T* in = (const T*)job->in;                                                                               \
    T* out = (T*)job->out;                                                                                         \
    const int64_t sh = st->in_strides[2], sw = st->in_strides[3]

/* Max pooling of items [begin, end), item = region * C + channel: each region's corners and bins
 * are computed once, for its first item.  KEY maps an element to an integer of type F that
 * compares as the element does (src/kernels/order.h: +-0 alike, every NaN above +inf, so the
 * strict > keeps the first of equals and the first NaN), compared without branches; the
 * chosen element is stored as it is, bit for bit. */
#define ROI_POOL_KERNEL(NAME, T, F, KEY)                                                                           \
    static void NAME(void* ctx, uint64_t begin, uint64_t end)                                                      \
    {                                                                                                              \
        ROI_KERNEL_LOCALS(T);                                                                                      \
        void* buf = NULL;                                                                                          \
        uint64_t cap = 0, cur = UINT64_MAX, rh = 1, rw = 1;                                                        \
        int64_t* bins = NULL; /* rows [lo, hi) of each ph, then columns of each pw */                              \
        roi_box b;                                                                                                 \
        memset(&b, 0, sizeof b);                                                                                   \
        for (uint64_t item = begin, next; item < end; item = next) {                                               \
            const uint64_t r = item / st->c, c = item % st->c;                                                     \
            next = item + 1;                                                                                       \
            if (r != cur) {                                                                                        \
                cur = r;                                                                                           \
                b = roi_box_of(st, job->rois, r);                                                                  \
                rh = b.y2 - b.y1 + 1 > 1 ? (uint64_t)(b.y2 - b.y1 + 1) : 1;                                        \
                rw = b.x2 - b.x1 + 1 > 1 ? (uint64_t)(b.x2 - b.x1 + 1) : 1;                                        \
                bins = (int64_t*)roi_table(&buf, &cap, 2 * (st->ph + st->pw) * sizeof(int64_t));                   \
                for (uint64_t i = 0; bins && i < st->ph; ++i)                                                      \
                    bin_range(i, st->ph, rh, b.y1, st->h, &bins[2 * i], &bins[2 * i + 1]);                         \
                for (uint64_t i = 0; bins && i < st->pw; ++i)                                                      \
                    bin_range(i, st->pw, rw, b.x1, st->w, &bins[2 * (st->ph + i)], &bins[2 * (st->ph + i) + 1]);   \
            }                                                                                                      \
            const T* plane = in + (int64_t)b.batch * st->in_strides[0] + (int64_t)c * st->in_strides[1];           \
            T* dst = out + (int64_t)r * st->out_strides[0] + (int64_t)c * st->out_strides[1];                      \
            if (bins && c + 1 < st->c && item + 1 < end)                                                           \
                roi_prefetch_window(plane + st->in_strides[1], sizeof(T), sh, sw, bins[0], bins[2 * st->ph - 1],   \
                                    bins[2 * st->ph], bins[2 * (st->ph + st->pw) - 1]);                            \
            for (uint64_t ph = 0; ph < st->ph; ++ph) {                                                             \
                int64_t h0, h1;                                                                                    \
                if (bins) h0 = bins[2 * ph], h1 = bins[2 * ph + 1];                                                \
                else bin_range(ph, st->ph, rh, b.y1, st->h, &h0, &h1);                                             \
                for (uint64_t pw = 0; pw < st->pw; ++pw) {                                                         \
                    int64_t w0, w1;                                                                                \
                    T best;                                                                                        \
                    if (bins) w0 = bins[2 * (st->ph + pw)], w1 = bins[2 * (st->ph + pw) + 1];                      \
                    else bin_range(pw, st->pw, rw, b.x1, st->w, &w0, &w1);                                         \
                    if (h0 >= h1 || w0 >= w1) {                                                                    \
                        memset(&best, 0, sizeof best); /* an empty bin: 0 (all zero bits in every float type) */   \
                    } else {                                                                                       \
                        const T* at = plane + h0 * sh + w0 * sw;                                                   \
                        F bm = KEY(*at);                                                                           \
                        for (int64_t y = h0; y < h1; ++y) {                                                        \
                            const T* row = plane + y * sh;                                                         \
                            for (int64_t x = w0; x < w1; ++x) {                                                    \
                                const F v = KEY(row[x * sw]);                                                      \
                                const int take = v > bm; /* the first of equals, the first NaN */                  \
                                at = take ? row + x * sw : at;                                                     \
                                bm = take ? v : bm;                                                                \
                            }                                                                                      \
                        }                                                                                          \
                        best = *at;                                                                                \
                    }                                                                                              \
                    dst[(int64_t)ph * st->out_strides[2] + (int64_t)pw * st->out_strides[3]] = best;               \
                }                                                                                                  \
            }                                                                                                      \
        }                                                                                                          \
        free(buf);                                                                                                 \
    }

#define ROI_ID(v) (v)
#define ROI_HALF(v) dmlc_half_to_float_inline(v)
ROI_POOL_KERNEL(roi_pool_f16, uint16_t, int64_t, dmlc_key_f16)
ROI_POOL_KERNEL(roi_pool_f32, float, int64_t, dmlc_key_f32)
ROI_POOL_KERNEL(roi_pool_f64, double, int64_t, dmlc_key_f64)


/* ---- ROI_ALIGN(1) --------------------------------------------------------------------- */

/* One axis of a region: where its samples lie.  Sample j (0 <= j < n * per) is at
 * ((j - OutputPixelOffset) * step + start) - InputPixelOffset. */
typedef struct align_axis {
    double start, step;
    uint64_t per; /* samples per output */
} align_axis;

static align_axis align_axis_of(const roi_state* st, double lo, double hi, double scale, uint64_t outputs)
{
    align_axis ax;
    const double a = lo * scale, size = hi * scale - a;
    double per = ceil(fabs(size) / (double)outputs), count;
    if (!(per <= st->max_samples)) per = st->max_samples; /* an infinite or NaN size (overflowed scaling) too */
    if (per < st->min_samples) per = st->min_samples;
    count = per * (double)outputs;
    ax.start = a;
    ax.per = (uint64_t)per;
    ax.step = st->corners && count > 1 ? size / (count - 1) : size / count;
    return ax;
}

/* A sample's place along one axis of n elements: its two taps and i1's weight, or out of
 * bounds (beyond [-1, n]). */
typedef struct align_tap {
    int64_t i0, i1;
    double w;
    int oob;
} align_tap;

static align_tap align_tap_of(const roi_state* st, const align_axis* ax, double j, uint64_t n)
{
    align_tap t;
    double x = ((j - st->out_offset) * ax->step + ax->start) - st->in_offset;
    const double top = (double)n - 1;
    t.oob = !(x >= -1 && x <= (double)n); /* NaN (an overflowed region) too */
    x = x < 0 ? 0 : x > top ? top : x;
    if (st->nearest) {
        t.i0 = t.i1 = (int64_t)floor(x + 0.5);
        t.w = 0;
    } else {
        t.i0 = (int64_t)floor(x);
        t.i1 = t.i0 + 1 < (int64_t)n ? t.i0 + 1 : (int64_t)n - 1;
        t.w = x - (double)t.i0;
    }
    return t;
}

/* Regions of more than ROI_ALIGN_SKIP samples per output (a huge region, or huge scales)
 * read only the samples inside [-1, n] on each axis and count the others: each output then
 * costs at most about (H + 2) x (W + 2) reads, whatever the sample count.  Their sum or
 * maximum is the same but for where the out-of-bounds samples fall in the order of
 * additions (all at the end, added as count x OutOfBoundsInputValue): a rounding
 * difference only, within the documented bound, and none when that value is 0. */
#define ROI_ALIGN_SKIP 4096.0

/* The samples of output o along one axis (offsets [0, per) from o * per) that lie inside
 * [-1, n], as [*lo, *hi); an empty range if none.  A sample's position is monotone in its
 * index (every step of align_tap_of rounds monotonically), so they are one run: one of them
 * is found next to where the position is the axis's middle, then both ends by bisection. */
static void align_inside(const roi_state* st, const align_axis* ax, uint64_t o, uint64_t n, uint64_t* lo,
                         uint64_t* hi)
{
    const uint64_t base = o * ax->per, last = ax->per - 1;
    const double jc = (((double)n - 1) / 2 + st->in_offset - ax->start) / ax->step + st->out_offset - (double)base;
    uint64_t cand[4] = {0, 0, 0, 0}, in = 0, a, b;
    int found = 0;
    if (jc == jc && !isinf(jc)) {
        const double f = floor(jc);
        for (int k = 0; k < 4; ++k) {
            const double c = f - 1 + k;
            cand[k] = c <= 0 ? 0 : c >= (double)last ? last : (uint64_t)c;
        }
    }
    for (int k = 0; k < 4 && !found; ++k)
        if (!align_tap_of(st, ax, (double)(base + cand[k]), n).oob) in = cand[k], found = 1;
    if (!found) {
        *lo = *hi = 0;
        return;
    }
    for (a = 0, b = in; a < b;) { /* the first inside: samples before it are outside */
        const uint64_t m = a + (b - a) / 2;
        if (align_tap_of(st, ax, (double)(base + m), n).oob) a = m + 1; else b = m;
    }
    *lo = a;
    for (a = in, b = last; a < b;) { /* the last inside */
        const uint64_t m = a + (b - a + 1) / 2;
        if (align_tap_of(st, ax, (double)(base + m), n).oob) b = m - 1; else a = m;
    }
    *hi = a + 1;
}

/* A sample's taps along one axis as the kernel of accumulator type ACC uses them: i0 and i1
 * times the axis's stride, i1's weight w and i0's 1 - w, both rounded to ACC as the sum uses
 * them (NAME##_tap_of). */
#define ROI_ALIGN_TAP(NAME, ACC)                                                                                   \
    typedef struct NAME##_tap {                                                                                    \
        int64_t o0, o1;                                                                                            \
        ACC w, w1;                                                                                                 \
        int oob;                                                                                                   \
    } NAME##_tap;                                                                                                  \
    static NAME##_tap NAME##_tap_of(const roi_state* st, const align_axis* ax, uint64_t j, uint64_t n,            \
                                    int64_t stride)                                                                \
    {                                                                                                              \
        const align_tap t = align_tap_of(st, ax, (double)j, n);                                                    \
        NAME##_tap r;                                                                                              \
        r.o0 = t.i0 * stride;                                                                                      \
        r.o1 = t.i1 * stride;                                                                                      \
        r.w = (ACC)t.w;                                                                                            \
        r.w1 = 1 - r.w;                                                                                            \
        r.oob = t.oob;                                                                                             \
        return r;                                                                                                  \
    }

/* Channels read at once by ROI_ALIGN's table path: a sample's taps and weights are loaded
 * once for them, and their rows stay in the first-level cache.  Planes a power of two apart
 * (4 KiB, 16 KiB) put the same sample of every channel in one cache set: 16 channels
 * overflowed its 8 ways (about 500 against 300 ms at (2,256,64,64), 1000 regions, 7x7). */
#define ROI_ALIGN_BLOCK 8u

/* A sample's value in channel plane p (the sum of its corners, as the sample-by-sample loop
 * forms it: weights w00 = (1 - wy)(1 - wx), ..., corners of weight 0 not read), reduced into
 * acc[i]: for each of the k channels, planes cs apart. */
#define ROI_ALIGN_CHANNELS(T, ACC, MAXR, EXPR)                                                                     \
    for (UINT i = 0; i < k; ++i) {                                                                                 \
        const T* p = plane + (int64_t)i * cs;                                                                      \
        const ACC v = EXPR;                                                                                        \
        (void)p; /* unread when every sample is out of bounds */                                                   \
        if (!(MAXR))                                                                                               \
            acc[i] += v;                                                                                           \
        else if (first || v > acc[i] || (v != v && acc[i] == acc[i]))                                              \
            acc[i] = v; /* a NaN wins */                                                                           \
    }

/* The outputs of k <= ROI_ALIGN_BLOCK consecutive channels of one region (plane: the first's
 * input plane, dst its output plane) from the region's tap tables: for each output, the same
 * samples in the same order, and each sample's corners summed as the per-channel loop does,
 * so every result is bit for bit the same. */
#define ROI_ALIGN_BLOCK_FN(NAME, ATTR, TAP, T, ACC, LOAD, STORE, MAXR)                                            \
    ATTR static void NAME##_block(const roi_state* st, const T* plane, T* dst, UINT k, const TAP##_tap* ytaps,         \
                             const TAP##_tap* xtaps, const align_axis* ax, const align_axis* ay, ACC oob,          \
                             ACC count)                                                                            \
    {                                                                                                              \
        const int64_t cs = st->in_strides[1];                                                                      \
        ACC acc[ROI_ALIGN_BLOCK];                                                                                  \
        for (uint64_t oy = 0; oy < st->ph; ++oy) {                                                                 \
            for (uint64_t ox = 0; ox < st->pw; ++ox) {                                                             \
                int first = 1;                                                                                     \
                for (UINT i = 0; i < k; ++i) acc[i] = 0;                                                           \
                for (uint64_t jy = 0; jy < ay->per; ++jy) {                                                        \
                    const TAP##_tap* ty = &ytaps[oy * ay->per + jy];                                               \
                    for (uint64_t jx = 0; jx < ax->per; ++jx) {                                                    \
                        const TAP##_tap* tx = &xtaps[ox * ax->per + jx];                                           \
                        const int64_t o00 = ty->o0 + tx->o0, o01 = ty->o0 + tx->o1;                                \
                        const int64_t o10 = ty->o1 + tx->o0, o11 = ty->o1 + tx->o1;                                \
                        const ACC w00 = ty->w1 * tx->w1, w01 = ty->w1 * tx->w;                                     \
                        const ACC w10 = ty->w * tx->w1, w11 = ty->w * tx->w;                                       \
                        if (ty->oob || tx->oob) {                                                                  \
                            ROI_ALIGN_CHANNELS(T, ACC, MAXR, oob)                                                  \
                        } else if (tx->w != 0 && ty->w != 0) {                                                     \
                            ROI_ALIGN_CHANNELS(T, ACC, MAXR,                                                       \
                                               w00 * LOAD(p[o00]) + w01 * LOAD(p[o01]) + w10 * LOAD(p[o10]) +      \
                                                   w11 * LOAD(p[o11]))                                             \
                        } else if (tx->w != 0) {                                                                   \
                            ROI_ALIGN_CHANNELS(T, ACC, MAXR, w00 * LOAD(p[o00]) + w01 * LOAD(p[o01]))              \
                        } else if (ty->w != 0) {                                                                   \
                            ROI_ALIGN_CHANNELS(T, ACC, MAXR, w00 * LOAD(p[o00]) + w10 * LOAD(p[o10]))              \
                        } else {                                                                                   \
                            ROI_ALIGN_CHANNELS(T, ACC, MAXR, w00 * LOAD(p[o00]))                                   \
                        }                                                                                          \
                        first = 0;                                                                                 \
                    }                                                                                              \
                }                                                                                                  \
                for (UINT i = 0; i < k; ++i)                                                                       \
                    dst[(int64_t)i * st->out_strides[1] + (int64_t)oy * st->out_strides[2] +                      \
                        (int64_t)ox * st->out_strides[3]] = STORE((MAXR) ? acc[i] : acc[i] / count);              \
            }                                                                                                      \
        }                                                                                                          \
    }

/* Items [begin, end), item = region * C + channel: every output of the item's plane, its
 * sy x sx samples reduced (MAXR: 1 for MAX, 0 for AVERAGE).  ACC is float for FLOAT16/32,
 * double for FLOAT64; corners of weight 0 are not read.  A region's taps along each axis are
 * computed for its first item (unless it skips: align_inside) and serve all its channels. */
#define ROI_ALIGN_KERNEL_DEF(NAME, ATTR, TAP, T, ACC, LOAD, STORE, MAXR)                                          \
    ROI_ALIGN_BLOCK_FN(NAME, ATTR, TAP, T, ACC, LOAD, STORE, MAXR)                                                 \
    ATTR static void NAME(void* ctx, uint64_t begin, uint64_t end)                                                 \
    {                                                                                                              \
        ROI_KERNEL_LOCALS(T);                                                                                      \
        const ACC oob = (ACC)st->oob;                                                                              \
        void* buf = NULL;                                                                                          \
        uint64_t cap = 0, cur = UINT64_MAX, b = 0;                                                                 \
        align_axis ax, ay;                                                                                         \
        TAP##_tap *ytaps = NULL, *xtaps = NULL; /* sample j's taps at [j]: outputs' samples in order */           \
        int skip = 0;                                                                                              \
        ACC count = 1;                                                                                             \
        memset(&ax, 0, sizeof ax);                                                                                 \
        memset(&ay, 0, sizeof ay);                                                                                 \
        for (uint64_t item = begin, next; item < end; item = next) {                                               \
            const uint64_t r = item / st->c, c = item % st->c;                                                     \
            next = item + 1;                                                                                       \
            if (r != cur) {                                                                                        \
                cur = r;                                                                                           \
                b = batch_index(st, job->idx, r);                                                                  \
                ax = align_axis_of(st, roi_value(st, job->rois, r, 0), roi_value(st, job->rois, r, 2), st->scale_x, \
                                   st->pw);                                                                        \
                ay = align_axis_of(st, roi_value(st, job->rois, r, 1), roi_value(st, job->rois, r, 3), st->scale_y, \
                                   st->ph);                                                                        \
                count = (ACC)((double)ax.per * (double)ay.per);                                                    \
                skip = (double)ax.per * (double)ay.per > ROI_ALIGN_SKIP;                                           \
                /* per <= 4096 here: the products stay far below 2^64 */                                          \
                ytaps = skip ? NULL : (TAP##_tap*)roi_table(&buf, &cap, (st->ph * ay.per + st->pw * ax.per) *     \
                                                                                sizeof(TAP##_tap));                \
                xtaps = ytaps ? ytaps + st->ph * ay.per : NULL;                                                    \
                for (uint64_t j = 0; ytaps && j < st->ph * ay.per; ++j)                                            \
                    ytaps[j] = TAP##_tap_of(st, &ay, j, st->h, sh);                                                \
                for (uint64_t j = 0; xtaps && j < st->pw * ax.per; ++j)                                            \
                    xtaps[j] = TAP##_tap_of(st, &ax, j, st->w, sw);                                                \
            }                                                                                                      \
            const T* plane = in + (int64_t)b * st->in_strides[0] + (int64_t)c * st->in_strides[1];                 \
            T* dst = out + (int64_t)r * st->out_strides[0] + (int64_t)c * st->out_strides[1];                      \
            if (ytaps) {                                                                                           \
                const uint64_t left = st->c - c < end - item ? st->c - c : end - item;                            \
                const UINT k = left < ROI_ALIGN_BLOCK ? (UINT)left : ROI_ALIGN_BLOCK;                              \
                NAME##_block(st, plane, dst, k, ytaps, xtaps, &ax, &ay, oob, count);                               \
                next = item + k;                                                                                   \
                continue;                                                                                          \
            }                                                                                                      \
            for (uint64_t oy = 0; oy < st->ph; ++oy) {                                                             \
                for (uint64_t ox = 0; ox < st->pw; ++ox) {                                                         \
                    ACC acc = 0;                                                                                   \
                    int first = 1;                                                                                 \
                    uint64_t y0 = 0, y1 = ay.per, x0 = 0, x1 = ax.per, outside = 0;                                \
                    if (skip) {                                                                                    \
                        align_inside(st, &ay, oy, st->h, &y0, &y1);                                                \
                        align_inside(st, &ax, ox, st->w, &x0, &x1);                                                \
                        outside = ax.per * ay.per - (y1 - y0) * (x1 - x0);                                         \
                    }                                                                                              \
                    for (uint64_t jy = y0; jy < y1; ++jy) {                                                        \
                        const TAP##_tap ty = ytaps ? ytaps[oy * ay.per + jy]                                       \
                                                   : TAP##_tap_of(st, &ay, oy * ay.per + jy, st->h, sh);           \
                        const T* row0 = plane + ty.o0;                                                             \
                        const T* row1 = plane + ty.o1;                                                             \
                        for (uint64_t jx = x0; jx < x1; ++jx) {                                                    \
                            const TAP##_tap tx = xtaps ? xtaps[ox * ax.per + jx]                                   \
                                                       : TAP##_tap_of(st, &ax, ox * ax.per + jx, st->w, sw);       \
                            ACC v;                                                                                 \
                            if (ty.oob || tx.oob) {                                                                \
                                v = oob;                                                                           \
                            } else {                                                                               \
                                /* i0's weight 1 - w is never 0; i1's w may be, and is then not read */           \
                                v = ty.w1 * tx.w1 * LOAD(row0[tx.o0]);                                             \
                                if (tx.w != 0) v += ty.w1 * tx.w * LOAD(row0[tx.o1]);                              \
                                if (ty.w != 0) {                                                                   \
                                    v += ty.w * tx.w1 * LOAD(row1[tx.o0]);                                         \
                                    if (tx.w != 0) v += ty.w * tx.w * LOAD(row1[tx.o1]);                           \
                                }                                                                                  \
                            }                                                                                      \
                            if (!(MAXR))                                                                           \
                                acc += v;                                                                          \
                            else if (first || v > acc || (v != v && acc == acc))                                   \
                                acc = v; /* a NaN wins */                                                          \
                            first = 0;                                                                             \
                        }                                                                                          \
                    }                                                                                              \
                    if (outside && !(MAXR))                                                                        \
                        acc += (ACC)outside * oob;                                                                 \
                    else if (outside && (first || oob > acc || (oob != oob && acc == acc)))                        \
                        acc = oob;                                                                                 \
                    dst[(int64_t)oy * st->out_strides[2] + (int64_t)ox * st->out_strides[3]] =                     \
                        STORE((MAXR) ? acc : acc / count);                                                         \
                }                                                                                                  \
            }                                                                                                      \
        }                                                                                                          \
        free(buf);                                                                                                 \
    }

#define ROI_ALIGN_KERNEL(NAME, TAP, T, ACC, LOAD, STORE, MAXR) ROI_ALIGN_KERNEL_DEF(NAME, , TAP, T, ACC, LOAD, STORE, MAXR)
#define ROI_HALF_STORE(v) dmlc_float_to_half_inline(v)
ROI_ALIGN_TAP(roi_acc_f32, float)
ROI_ALIGN_TAP(roi_acc_f64, double)
ROI_ALIGN_KERNEL(roi_align_avg_f16, roi_acc_f32, uint16_t, float, ROI_HALF, ROI_HALF_STORE, 0)
ROI_ALIGN_KERNEL(roi_align_avg_f32, roi_acc_f32, float, float, ROI_ID, ROI_ID, 0)
ROI_ALIGN_KERNEL(roi_align_avg_f64, roi_acc_f64, double, double, ROI_ID, ROI_ID, 0)
ROI_ALIGN_KERNEL(roi_align_max_f16, roi_acc_f32, uint16_t, float, ROI_HALF, ROI_HALF_STORE, 1)
ROI_ALIGN_KERNEL(roi_align_max_f32, roi_acc_f32, float, float, ROI_ID, ROI_ID, 1)
ROI_ALIGN_KERNEL(roi_align_max_f64, roi_acc_f64, double, double, ROI_ID, ROI_ID, 1)

/* FLOAT16 ROI_ALIGN again for x86 with F16C: the conversions by the CPU's instructions
 * (exact to float; to nearest even back, as dmlc_float_to_half_inline), the arithmetic the
 * same, so the same bits, where the portable conversions took most of the time (about 5x
 * FLOAT32's at (2,256,64,64), 1000 regions, 7x7). */
#include "../kernels/x86_avx2.h"
#ifdef DMLC_X86_AVX2
#  define ROI_HAVE_F16C 1
#  define ROI_F16C DMLC_AVX2_F16C
#  define ROI_HALF_F16C(v) _cvtsh_ss(v)
#  define ROI_HALF_STORE_F16C(v) ((uint16_t)_cvtss_sh((v), _MM_FROUND_TO_NEAREST_INT))
ROI_ALIGN_KERNEL_DEF(roi_align_avg_f16c, ROI_F16C, roi_acc_f32, uint16_t, float, ROI_HALF_F16C, ROI_HALF_STORE_F16C, 0)
ROI_ALIGN_KERNEL_DEF(roi_align_max_f16c, ROI_F16C, roi_acc_f32, uint16_t, float, ROI_HALF_F16C, ROI_HALF_STORE_F16C, 1)
#else
#  define ROI_HAVE_F16C 0
#  define roi_align_avg_f16c roi_align_avg_f16
#  define roi_align_max_f16c roi_align_max_f16
#endif

/* Both operators: one item per (region, channel), the kernel of the operator and type. */
static void roi_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    static const dmlc_range_fn kernels[2][3][3] = {{{roi_pool_f16, roi_pool_f32, roi_pool_f64},
                                                    {roi_align_avg_f16, roi_align_avg_f32, roi_align_avg_f64},
                                                    {roi_align_max_f16, roi_align_max_f32, roi_align_max_f64}},
                                                   {{roi_pool_f16, roi_pool_f32, roi_pool_f64},
                                                    {roi_align_avg_f16c, roi_align_avg_f32, roi_align_avg_f64},
                                                    {roi_align_max_f16c, roi_align_max_f32, roi_align_max_f64}}};
    const roi_state* st = (const roi_state*)op->state;
    const int align = op->input_count == 3;
    roi_job job;
    job.st = st;
    job.in = in[0];
    job.rois = in[1];
    job.idx = align ? in[2] : NULL;
    job.out = out[0];
    /* Each output reads its bin or a few samples of four elements: a few elements at least. */
    dmlc_parallel_for(st->r * st->c, op->outputs[0].count * op->inputs[0].elem_size * (align ? 16 : 8),
                      kernels[st->f16c][align + (align && st->max_reduce)][st->type == DML_TENSOR_DATA_TYPE_FLOAT16   ? 0
                                     : st->type == DML_TENSOR_DATA_TYPE_FLOAT32 ? 1
                                                                                : 2],
                      &job);
}

static void plan(roi_state* st, const roi_args* a, const dmlc_tensor* in, const dmlc_tensor* roi,
                 const dmlc_tensor* idx, const dmlc_tensor* out)
{
    st->type = in->type;
    st->f16c = ROI_HAVE_F16C && dmlc_cpu_has(DMLC_CPU_AVX2 | DMLC_CPU_F16C);
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
    if (idx) {
        st->idx_type = idx->type;
        st->idx_stride = (int64_t)idx->strides[idx->ndim - 1];
        st->scale_x = (double)a->scale_x;
        st->scale_y = (double)a->scale_y;
        st->in_offset = (double)a->in_offset;
        st->out_offset = (double)a->out_offset;
        st->oob = (double)a->oob;
        st->min_samples = (double)a->min_samples;
        st->max_samples = (double)a->max_samples;
        st->corners = a->corners != 0;
        st->max_reduce = a->reduction == DML_REDUCE_FUNCTION_MAX;
        st->nearest = a->mode == DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR;
    }
}

/* ---- Entry points -------------------------------------------------------------------- */

/* Every desc version starts with InputTensor and ROITensor; ROI_ALIGN(1) then has
 * BatchIndicesTensor.  dims: ROITensor's and BatchIndicesTensor's allowed ranks. */
static HRESULT init_inputs(const roi_args* a, const char* opname, dmlc_tensor* in, dmlc_tensor* roi, dmlc_tensor* idx,
                           dmlc_tensor_role role)
{
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_init(in, a->in_desc, opname, "InputTensor", 4, 4, role)) ||
        FAILED(hr = dmlc_tensor_init(roi, a->roi_desc, opname, "ROITensor", 2, 4, role)))
        return hr;
    if (a->align &&
        FAILED(hr = dmlc_tensor_init(idx, a->idx_desc, opname, "BatchIndicesTensor", 1, 4, role)))
        return hr;
    return S_OK;
}

HRESULT dmlc_infer_roi(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const roi_args a = read_args(type, desc);
    dmlc_tensor in, roi, idx, out;
    HRESULT hr;
    if (FAILED(hr = dmlc_shapes_count(sh, 1)) ||
        FAILED(hr = init_inputs(&a, opname, &in, &roi, &idx, DMLC_INPUT_MAY_BE_EMPTY)))
        return hr;
    /* ROI_ALIGN(1)'s output height and width are a parameter: read them (not its buffer). */
    if (a.align &&
        FAILED(hr = dmlc_tensor_init(&out, a.out_desc, opname, "OutputTensor", 4, 4, DMLC_INPUT_MAY_BE_EMPTY)))
        return hr;
    return validate(opname, &a, &in, &roi, a.align ? &idx : NULL, a.align ? &out : NULL, sh);
}

HRESULT dmlc_create_roi(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const roi_args a = read_args(type, desc);
    dmlc_tensor in, roi, idx, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    DMLC_OPERATOR_T* o;
    HRESULT hr;
    if (FAILED(hr = init_inputs(&a, opname, &in, &roi, &idx, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&out, a.out_desc, opname, "OutputTensor", 4, 4, DMLC_OUTPUT)) ||
        FAILED(hr = dmlc_tensor_same_type(&in, "InputTensor", &out, "OutputTensor", opname)) ||
        FAILED(hr = validate(opname, &a, &in, &roi, a.align ? &idx : NULL, &out, &sh)))
        return hr;
    o = dmlc_operator_alloc(type, opname, a.align ? 3 : 2, 1, sizeof(roi_state));
    if (!o) return E_OUTOFMEMORY;
    o->inputs[0] = in;
    o->inputs[1] = roi;
    if (a.align) o->inputs[2] = idx;
    o->outputs[0] = out;
    o->execute = roi_execute;
    o->check = a.align ? align_check : roi_check;
    plan((roi_state*)o->state, &a, &in, &roi, a.align ? &idx : NULL, &out);
    *op = o;
    return S_OK;
}
