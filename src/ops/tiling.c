/* tiling.c - DML_OPERATOR_TILE: the input repeated Repeats[i] times along each axis i.
 *
 * out[o] = in[o mod InputTensor.Sizes], output size = input size * repeat.  Each output
 * axis of size r*n is walked as two, {r, n}: the repeat index, which the input ignores
 * (stride 0), and the position inside the copy.  Example: tiling {2, 3} by {1, 2} walks
 * the output {1, 2, 2, 3} with output strides {6, 6, 3, 1} and input strides {0, 3, 0, 1}
 * (the size-1 repeat drops out), so out[1][4] = in[1][4 mod 3] = in[1][1].  The result is
 * one dmlc_copy_plan whose inner runs are whole input rows. */
#include "../dmlc_internal.h"

typedef struct tiling_state {
    dmlc_copy_plan plan;
} tiling_state;

static void tiling_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const tiling_state* st = (const tiling_state*)op->state;
    dmlc_copy_run(&st->plan, out[0], in[0]);
}

typedef struct tiling_args {
    UINT count;         /* RepeatsCount */
    const UINT* repeats;
} tiling_args;

static tiling_args read_args(const DML_TILE_OPERATOR_DESC* d)
{
    tiling_args a;
    a.count = d->RepeatsCount;
    a.repeats = d->Repeats;
    return a;
}

/* RepeatsCount and Repeats; the output sizes into sh. */
static HRESULT validate(const char* opname, const tiling_args* a, const dmlc_tensor* in, dmlc_shapes* sh)
{
    HRESULT hr;
    if (a->count != in->ndim)
        return dmlc_fail(E_INVALIDARG, opname, "RepeatsCount is %u, expected %u (InputTensor.DimensionCount)", a->count,
                         in->ndim);
    dmlc_shape_rank(sh, 0, in->ndim);
    for (UINT i = 0; i < in->ndim; ++i) {
        if (a->repeats[i] == 0) return dmlc_fail(E_INVALIDARG, opname, "Repeats[%u] is 0, expected at least 1", i);
        /* Both factors are below 2^32: the product fits 64 bits. */
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", i, (uint64_t)in->sizes[i] * a->repeats[i],
                                          "InputTensor.Sizes[%u] %u * Repeats[%u] %u", i, in->sizes[i], i,
                                          a->repeats[i])))
            return hr;
    }
    return S_OK;
}

/* Output axis i of size r*n as {r, n}: strides {n * out stride, out stride} in the output,
 * {0, in stride} in the input. */
static void plan(tiling_state* st, const tiling_args* a, const dmlc_tensor* in, const dmlc_tensor* out)
{
    uint64_t sizes[DMLC_MAX_PLAN_DIMS];
    int64_t ds[DMLC_MAX_PLAN_DIMS], ss[DMLC_MAX_PLAN_DIMS];
    for (UINT i = 0; i < in->ndim; ++i) {
        sizes[2 * i] = a->repeats[i];
        sizes[2 * i + 1] = in->sizes[i];
        /* A repeat of 1 is never stepped; a larger one stays within the output's extent. */
        ds[2 * i] = a->repeats[i] > 1 ? (int64_t)(in->sizes[i] * out->strides[i]) : 0;
        ds[2 * i + 1] = (int64_t)out->strides[i];
        ss[2 * i] = 0;
        ss[2 * i + 1] = (int64_t)in->strides[i];
    }
    dmlc_copy_plan_init(&st->plan, in->elem_size, 2 * in->ndim, sizes, ds, ss);
}

HRESULT dmlc_infer_tiling(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const DML_TILE_OPERATOR_DESC* d = (const DML_TILE_OPERATOR_DESC*)desc;
    const tiling_args a = read_args(d);
    dmlc_tensor in;
    HRESULT hr;
    (void)type;
    if (FAILED(hr = dmlc_shapes_unary_input(sh, &in, d->InputTensor, opname, 1, DMLC_MAX_DIMS))) return hr;
    return validate(opname, &a, &in, sh);
}

HRESULT dmlc_create_tiling(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const DML_TILE_OPERATOR_DESC* d = (const DML_TILE_OPERATOR_DESC*)desc;
    const tiling_args a = read_args(d);
    dmlc_tensor in, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    HRESULT hr;
    DMLC_OPERATOR_T* o;

    if (FAILED(hr = dmlc_tensor_init_in_out(&in, d->InputTensor, &out, d->OutputTensor, opname, 1, DMLC_MAX_DIMS)) ||
        FAILED(hr = validate(opname, &a, &in, &sh)))
        return hr;
    o = dmlc_operator_alloc_unary(type, opname, &in, &out, tiling_execute, sizeof(tiling_state));
    if (!o) return E_OUTOFMEMORY;
    plan((tiling_state*)o->state, &a, &in, &out);
    *op = o;
    return S_OK;
}
