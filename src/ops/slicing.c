/* slicing.c - DML_OPERATOR_SLICE and DML_OPERATOR_SLICE1: one strided window of the input.
 *
 * SLICE:  out[o] = in[Offsets + Strides * o], Strides >= 1, and Sizes are the output's.
 * SLICE1: a window [InputWindowOffsets, InputWindowOffsets + InputWindowSizes) walked with
 *         signed InputWindowStrides; a negative stride starts at the window's end:
 *             start[i] = InputWindowOffsets[i] + (stride[i] < 0 ? InputWindowSizes[i] - 1 : 0)
 *             out[o]   = in[start + stride * o]
 *         and each output size may be anything from 1 to 1 + (size - 1) / |stride|.
 * Example (the SLICE1 page's second example): a {1, 1, 4, 4} input, offsets {0, 0, 0, 1},
 * sizes {1, 1, 4, 3}, strides {1, 1, -2, 2}: axis 2 starts at 0 + 4 - 1 = 3 and reads rows
 * 3, 1; axis 3 starts at 1 and reads columns 1, 3, so out[0][0][1][1] = in[0][0][1][3].
 *
 * Either is a copy whose source starts at the element `start` and steps stride * the
 * input's stride along each axis: one dmlc_copy_plan with signed source strides. */
#include "../dmlc_internal.h"

typedef struct slicing_state {
    int64_t base; /* elements from the bound input to in[start] */
    dmlc_copy_plan plan;
} slicing_state;

static void slicing_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const slicing_state* st = (const slicing_state*)op->state;
    dmlc_copy_run(&st->plan, out[0], (const char*)in[0] + st->base * (int64_t)op->inputs[0].elem_size);
}

/* The two descs share their layout; SLICE1's strides are signed, and its sizes describe
 * the window rather than the output. */
typedef struct slicing_args {
    int v1;
    UINT ndim;
    const UINT* offsets;
    const UINT* sizes;
    const UINT* ustrides; /* SLICE */
    const INT* istrides;  /* SLICE1 */
} slicing_args;

static slicing_args read_args(DML_OPERATOR_TYPE type, const void* desc)
{
    slicing_args a;
    a.v1 = type == DML_OPERATOR_SLICE1;
    if (a.v1) {
        const DML_SLICE1_OPERATOR_DESC* d = (const DML_SLICE1_OPERATOR_DESC*)desc;
        a.ndim = d->DimensionCount;
        a.offsets = d->InputWindowOffsets;
        a.sizes = d->InputWindowSizes;
        a.ustrides = NULL;
        a.istrides = d->InputWindowStrides;
    } else {
        const DML_SLICE_OPERATOR_DESC* d = (const DML_SLICE_OPERATOR_DESC*)desc;
        a.ndim = d->DimensionCount;
        a.offsets = d->Offsets;
        a.sizes = d->Sizes;
        a.ustrides = d->Strides;
        a.istrides = NULL;
    }
    return a;
}

/* Stride of axis i, signed. */
static int64_t stride_of(const slicing_args* a, UINT i)
{
    return a->v1 ? (int64_t)a->istrides[i] : (int64_t)a->ustrides[i];
}

static HRESULT validate_axis_v0(const char* opname, const slicing_args* a, const dmlc_tensor* in, UINT i, dmlc_shapes* sh)
{
    const uint64_t off = a->offsets[i], n = a->sizes[i], step = a->ustrides[i];
    if (step == 0) return dmlc_fail(E_INVALIDARG, opname, "Strides[%u] is 0, expected at least 1", i);
    if (n == 0 && !dmlc_shapes_infer(sh))
        return dmlc_fail(E_INVALIDARG, opname, "Sizes[%u] is 0, expected at least 1", i);
    if (n > 0) {
        const uint64_t last = off + step * (n - 1); /* at most (2^32 - 1)^2 + 2^32 - 1: no overflow */
        if (last >= in->sizes[i])
            return dmlc_fail(E_INVALIDARG, opname, "Offsets[%u] %llu + Strides[%u] %llu * (Sizes[%u] %llu - 1) is %llu, "
                             "past the end of InputTensor.Sizes[%u] %u; every element read must lie inside the input", i,
                             (unsigned long long)off, i, (unsigned long long)step, i, (unsigned long long)n,
                             (unsigned long long)last, i, in->sizes[i]);
    } else if (off > in->sizes[i]) {
        return dmlc_fail(E_INVALIDARG, opname, "Offsets[%u] is %llu, more than InputTensor.Sizes[%u] %u", i,
                         (unsigned long long)off, i, in->sizes[i]);
    }
    return dmlc_shape_expect(sh, 0, "OutputTensor", i, n, "Sizes[%u]", i);
}

static HRESULT validate_axis_v1(const char* opname, const slicing_args* a, const dmlc_tensor* in, UINT i, dmlc_shapes* sh)
{
    const uint64_t off = a->offsets[i], n = a->sizes[i];
    const int64_t step = a->istrides[i];
    const uint64_t mag = step < 0 ? (uint64_t)(-step) : (uint64_t)step; /* -2^31 is fine in 64 bits */
    uint64_t most;
    if (step == 0) return dmlc_fail(E_INVALIDARG, opname, "InputWindowStrides[%u] is 0; a stride must not be 0", i);
    /* An empty window is refused, except when sizes are inferred for an empty array. */
    if (n == 0 && !dmlc_shapes_infer(sh))
        return dmlc_fail(E_INVALIDARG, opname, "InputWindowSizes[%u] is 0; the window must not be empty", i);
    if (off + n > in->sizes[i]) /* < 2^33: no overflow */
        return dmlc_fail(E_INVALIDARG, opname, "InputWindowOffsets[%u] %llu + InputWindowSizes[%u] %llu is %llu, more than "
                         "InputTensor.Sizes[%u] %u; the window must lie inside the input", i, (unsigned long long)off, i,
                         (unsigned long long)n, (unsigned long long)(off + n), i, in->sizes[i]);
    most = n == 0 ? 0 : 1 + (n - 1) / mag;
    if (dmlc_shapes_infer(sh))
        return dmlc_shape_expect(sh, 0, "OutputTensor", i, most, "1 + (InputWindowSizes[%u] %llu - 1) / "
                                 "|InputWindowStrides[%u]| %llu", i, (unsigned long long)n, i, (unsigned long long)mag);
    if (sh->outputs[0].sizes[i] > most)
        return dmlc_fail(E_INVALIDARG, opname, "OutputTensor.Sizes[%u] is %u, expected 1 to %llu (at most 1 + "
                         "(InputWindowSizes[%u] %llu - 1) / |InputWindowStrides[%u]| %llu elements fit in the window)", i,
                         sh->outputs[0].sizes[i], (unsigned long long)most, i, (unsigned long long)n, i,
                         (unsigned long long)mag);
    return S_OK;
}

/* DimensionCount, the three arrays and the window rules; the output sizes into sh. */
static HRESULT validate(const char* opname, const slicing_args* a, const dmlc_tensor* in, dmlc_shapes* sh)
{
    HRESULT hr;
    if (a->ndim != in->ndim)
        return dmlc_fail(E_INVALIDARG, opname, "DimensionCount is %u, expected %u (InputTensor.DimensionCount)", a->ndim,
                         in->ndim);
    dmlc_shape_rank(sh, 0, in->ndim);
    for (UINT i = 0; i < a->ndim; ++i)
        if (FAILED(hr = a->v1 ? validate_axis_v1(opname, a, in, i, sh) : validate_axis_v0(opname, a, in, i, sh)))
            return hr;
    return S_OK;
}

/* The copy from in[start], source steps stride * the input's strides, into st. */
static void plan(slicing_state* st, const slicing_args* a, const dmlc_tensor* in, const dmlc_tensor* out)
{
    uint64_t sizes[DMLC_MAX_DIMS];
    int64_t ds[DMLC_MAX_DIMS], ss[DMLC_MAX_DIMS];
    st->base = 0;
    for (UINT i = 0; i < in->ndim; ++i) {
        const int64_t step = stride_of(a, i);
        const uint64_t start = a->offsets[i] + (step < 0 ? a->sizes[i] - 1 : 0);
        /* Validation bounds every element read by the input's extent (< 2^63 bytes), so
         * these products fit; an axis read once never steps (its stride may be huge). */
        st->base += (int64_t)(start * in->strides[i]);
        sizes[i] = out->sizes[i];
        ds[i] = (int64_t)out->strides[i];
        ss[i] = out->sizes[i] > 1 ? step * (int64_t)in->strides[i] : 0;
    }
    dmlc_copy_plan_init(&st->plan, in->elem_size, in->ndim, sizes, ds, ss);
}

HRESULT dmlc_infer_slicing(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const slicing_args a = read_args(type, desc);
    dmlc_tensor in;
    HRESULT hr;
    if (FAILED(hr = dmlc_shapes_unary_input(sh, &in, a.v1 ? ((const DML_SLICE1_OPERATOR_DESC*)desc)->InputTensor
                                                    : ((const DML_SLICE_OPERATOR_DESC*)desc)->InputTensor,
                                            opname, 1, DMLC_MAX_DIMS)))
        return hr;
    return validate(opname, &a, &in, sh);
}

HRESULT dmlc_create_slicing(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const slicing_args a = read_args(type, desc);
    /* Both descs start with the same two tensor fields. */
    const DML_SLICE_OPERATOR_DESC* d = (const DML_SLICE_OPERATOR_DESC*)desc;
    dmlc_tensor in, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    HRESULT hr;
    DMLC_OPERATOR_T* o;

    if (FAILED(hr = dmlc_tensor_init_in_out(&in, d->InputTensor, &out, d->OutputTensor, opname, 1, DMLC_MAX_DIMS)) ||
        FAILED(hr = validate(opname, &a, &in, &sh)))
        return hr;
    o = dmlc_operator_alloc_unary(type, opname, &in, &out, slicing_execute, sizeof(slicing_state));
    if (!o) return E_OUTOFMEMORY;
    plan((slicing_state*)o->state, &a, &in, &out);
    *op = o;
    return S_OK;
}
