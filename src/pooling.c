/* pooling.c - the window rule that MAX_POOLING* and AVERAGE_POOLING* share.
 *
 * Both families take an input {N, C, spatial...} and per spatial dimension i a window
 * WindowSize[i], a stride, start and end padding and (in their later versions) a dilation.
 * The effective window is k = (WindowSize - 1) * Dilation + 1 and must fit the padded input
 * n + StartPadding + EndPadding; the output keeps N and C and has, per spatial dimension,
 *     floor((n + start + end - k) / stride) + 1     (DirectML's pages), or
 *     ceil((n + start + end - k) / stride) + 1      (the plain ceil size, which ONNX Runtime's
 *                                                    DirectML backend passes this way), or
 *     the ceil size less one where its last window would start in the end padding,
 *     ((ceil - 1) * stride >= n + start)             (PyTorch's and ONNX's ceil_mode, which
 *                                                    dmlcInferOutputSizes gives with
 *                                                    DMLC_INFER_FLAG_CEIL_MODE).
 * Example: n 7, window 3, stride 2, no padding: floor (7 - 3) / 2 + 1 = 3, ceil 3 too;
 * n 8: floor 3, ceil 4 (the last window starts at column 6 and covers 6, 7 and padding).
 * n 17, window 2, stride 3, padding 1 and 1: floor (19 - 2) / 3 + 1 = 6, plain ceil 7, but
 * window 6 would start at 6 * 3 - 1 = 17, in the end padding: PyTorch's size is 6.  The
 * PyTorch size falls below the floor size when the end padding reaches a stride: n 4,
 * window 1, stride 1, end padding 2: floor 6, PyTorch 5.
 * The messages name the fields exactly as the max-pooling tests expect them. */
#include "dmlc_internal.h"

/* One of the per-dimension arrays (present: src/schema.c checked it): no element is 0. */
static HRESULT check_nonzero(const char* opname, const char* field, const UINT* a, UINT count)
{
    for (UINT i = 0; i < count; ++i)
        if (a[i] == 0) return dmlc_fail(E_INVALIDARG, opname, "%s[%u] is 0, expected at least 1", field, i);
    return S_OK;
}

/* One spatial dimension's output sizes: floor, plain ceil and PyTorch/ONNX ceil. */
typedef struct pool_sizes {
    uint64_t floor, ceil, torch;
} pool_sizes;

/* One spatial dimension: its output sizes, or the failure that explains why the window
 * does not fit. */
static HRESULT dimension_sizes(const char* opname, const dmlc_pool_window* w, const dmlc_tensor* in, UINT i,
                               uint64_t* k_out, pool_sizes* sz)
{
    const UINT ax = i + 2;
    const uint64_t padded = (uint64_t)in->sizes[ax] + w->start[i] + w->end[i];
    const uint64_t k = ((uint64_t)w->window[i] - 1) * w->dilations[i] + 1;
    if (padded > UINT32_MAX)
        return dmlc_fail(E_INVALIDARG, opname, "InputTensor.Sizes[%u] %u + StartPadding[%u] %u + EndPadding[%u] %u is "
                         "%llu, more than a tensor size can hold (4294967295)", ax, in->sizes[ax], i, w->start[i], i,
                         w->end[i], (unsigned long long)padded);
    if (k > UINT32_MAX)
        return dmlc_fail(E_INVALIDARG, opname, "the dilated window (WindowSize[%u] %u - 1) * Dilations[%u] %u + 1 is "
                         "%llu, more than a tensor size can hold (4294967295)", i, w->window[i], i, w->dilations[i],
                         (unsigned long long)k);
    if (k > padded)
        return dmlc_fail(E_INVALIDARG, opname, "the dilated window (WindowSize[%u] %u - 1) * Dilations[%u] %u + 1 = %llu "
                         "is larger than the padded input InputTensor.Sizes[%u] %u + StartPadding[%u] %u + "
                         "EndPadding[%u] %u = %llu", i, w->window[i], i, w->dilations[i], (unsigned long long)k, ax,
                         in->sizes[ax], i, w->start[i], i, w->end[i], (unsigned long long)padded);
    *k_out = k;
    sz->floor = (padded - k) / w->strides[i] + 1;
    sz->ceil = (padded - k + w->strides[i] - 1) / w->strides[i] + 1;
    /* A last window that would start in the end padding is dropped (ONNX Runtime:
     * if ((out - 1) * stride >= in + pad_begin) --out; PyTorch's pooling_output_shape). */
    sz->torch = sz->ceil - ((sz->ceil - 1) * w->strides[i] >= (uint64_t)in->sizes[ax] + w->start[i]);
    return S_OK;
}

HRESULT dmlc_pool_window_validate(const char* opname, const dmlc_pool_window* w, const dmlc_tensor* in,
                                  dmlc_shapes* sh)
{
    const UINT sp = in->ndim - 2;
    HRESULT hr;
    if (w->count != sp)
        return dmlc_fail(E_INVALIDARG, opname, "DimensionCount is %u, expected %u (InputTensor.DimensionCount %u - 2)",
                         w->count, sp, in->ndim);
    if (FAILED(hr = check_nonzero(opname, "Strides", w->strides, sp)) ||
        FAILED(hr = check_nonzero(opname, "WindowSize", w->window, sp)) ||
        FAILED(hr = check_nonzero(opname, "Dilations", w->dilations, sp)))
        return hr;
    dmlc_shape_rank(sh, 0, in->ndim);
    for (UINT k = 0; k < 2; ++k)
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", k, in->sizes[k], "InputTensor.Sizes[%u]", k)))
            return hr;
    for (UINT i = 0; i < sp; ++i) {
        const UINT ax = i + 2;
        uint64_t k = 0;
        pool_sizes sz = {0, 0, 0};
        const dmlc_tensor* out;
        if (FAILED(hr = dimension_sizes(opname, w, in, i, &k, &sz))) return hr;
        if (dmlc_shapes_infer(sh)) {
            sh->sizes[0].Sizes[ax] = (UINT)(sh->flags & DMLC_INFER_FLAG_CEIL_MODE ? sz.torch : sz.floor);
            continue;
        }
        out = &sh->outputs[0];
        if (out->sizes[ax] == sz.floor || out->sizes[ax] == sz.ceil || out->sizes[ax] == sz.torch) continue;
        if (sz.torch != sz.floor && sz.torch != sz.ceil)
            return dmlc_fail(E_INVALIDARG, opname, "OutputTensor.Sizes[%u] is %u, expected %llu (floor), %llu (ceil) "
                             "or %llu (ceil without a last window starting in the end padding) "
                             "((InputTensor.Sizes[%u] %u + StartPadding[%u] %u + EndPadding[%u] %u - window %llu) / "
                             "Strides[%u] %u + 1)", ax, out->sizes[ax], (unsigned long long)sz.floor,
                             (unsigned long long)sz.ceil, (unsigned long long)sz.torch, ax, in->sizes[ax], i,
                             w->start[i], i, w->end[i], (unsigned long long)k, i, w->strides[i]);
        if (sz.floor == sz.ceil)
            return dmlc_fail(E_INVALIDARG, opname, "OutputTensor.Sizes[%u] is %u, expected %llu ((InputTensor.Sizes[%u] "
                             "%u + StartPadding[%u] %u + EndPadding[%u] %u - window %llu) / Strides[%u] %u + 1)", ax,
                             out->sizes[ax], (unsigned long long)sz.floor, ax, in->sizes[ax], i, w->start[i], i,
                             w->end[i], (unsigned long long)k, i, w->strides[i]);
        return dmlc_fail(E_INVALIDARG, opname, "OutputTensor.Sizes[%u] is %u, expected %llu (floor) or %llu (ceil) "
                         "((InputTensor.Sizes[%u] %u + StartPadding[%u] %u + EndPadding[%u] %u - window %llu) / "
                         "Strides[%u] %u + 1)", ax, out->sizes[ax], (unsigned long long)sz.floor,
                         (unsigned long long)sz.ceil, ax, in->sizes[ax], i, w->start[i], i, w->end[i],
                         (unsigned long long)k, i, w->strides[i]);
    }
    return S_OK;
}
