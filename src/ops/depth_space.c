/* depth_space.c - DML_OPERATOR_SPACE_TO_DEPTH(1) and DML_OPERATOR_DEPTH_TO_SPACE(1).
 *
 * Both are one 6-d permutation, walked in the row-major order of the "space" tensor
 * {N, Co, H*b, W*b} viewed as {N, Co, H, b(i), W, b(j)}, where the "depth" tensor is
 * {N, Co*b*b, H, W}.  With block b and Co = C / (b*b), element (n, c, h, i, w, j) of the
 * space tensor is depth channel
 *     DEPTH_COLUMN_ROW:  (i*b + j)*Co + c      (the v0 operators, ONNX DCR)
 *     COLUMN_ROW_DEPTH:  c*b*b + i*b + j       (ONNX CRD, PyTorch pixel_shuffle)
 * at (n, h, w).  Example, DCR, b = 2, Co = 2: space (c=1, i=1, j=0) reads depth channel
 * (1*2 + 0)*2 + 1 = 5.
 * Depth-to-space copies depth -> space (its inner (w, j) loop is an interleave of b
 * channel streams); space-to-depth copies space -> depth (a deinterleave), so both read or
 * write the space tensor sequentially. */
#include "../dmlc_internal.h"


typedef struct depth_space_state {
    dmlc_copy_plan plan;
} depth_space_state;

static void depth_space_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const depth_space_state* st = (const depth_space_state*)op->state;
    dmlc_copy_run(&st->plan, out[0], in[0]);
}

/* The four desc structs share their leading fields; v1 adds Order. */
typedef struct depth_space_args {
    int to_space;                  /* DEPTH_TO_SPACE(1) */
    uint64_t b;                    /* BlockSize */
    DML_DEPTH_SPACE_ORDER order;
} depth_space_args;

static depth_space_args read_args(DML_OPERATOR_TYPE type, const DML_DEPTH_TO_SPACE1_OPERATOR_DESC* d)
{
    depth_space_args a;
    const int v1 = type == DML_OPERATOR_DEPTH_TO_SPACE1 || type == DML_OPERATOR_SPACE_TO_DEPTH1;
    a.to_space = type == DML_OPERATOR_DEPTH_TO_SPACE || type == DML_OPERATOR_DEPTH_TO_SPACE1;
    a.b = d->BlockSize;
    a.order = v1 ? d->Order : DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
    return a;
}

/* BlockSize, Order and the input's divisibility; the output sizes into sh. */
static HRESULT validate(const char* opname, const depth_space_args* a, const dmlc_tensor* in, dmlc_shapes* sh)
{
    const uint64_t b = a->b, bb = b * b; /* b < 2^32: no overflow */
    HRESULT hr;
    if (b == 0) return dmlc_fail(E_INVALIDARG, opname, "BlockSize is 0, expected at least 1");
    if (a->order != DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW && a->order != DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH)
        return dmlc_fail(E_INVALIDARG, opname, "Order is %d, expected DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW (0) or "
                         "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH (1)", (int)a->order);
    dmlc_shape_rank(sh, 0, 4);
    if (a->to_space) {
        if (in->sizes[1] % bb)
            return dmlc_fail(E_INVALIDARG, opname, "InputTensor.Sizes[1] is %u, not divisible by BlockSize * BlockSize "
                             "(%llu)", in->sizes[1], (unsigned long long)bb);
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", 0, in->sizes[0], "InputTensor.Sizes[0]")) ||
            FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", 1, in->sizes[1] / bb,
                                          "InputTensor.Sizes[1] %u / (BlockSize %llu * BlockSize %llu)", in->sizes[1],
                                          (unsigned long long)b, (unsigned long long)b)))
            return hr;
        for (UINT k = 2; k < 4; ++k)
            if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", k, in->sizes[k] * b,
                                              "InputTensor.Sizes[%u] %u * BlockSize %llu", k, in->sizes[k],
                                              (unsigned long long)b)))
                return hr;
        return S_OK;
    }
    for (UINT k = 2; k < 4; ++k)
        if (in->sizes[k] % b)
            return dmlc_fail(E_INVALIDARG, opname, "InputTensor.Sizes[%u] is %u, not divisible by BlockSize %llu", k,
                             in->sizes[k], (unsigned long long)b);
    if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", 0, in->sizes[0], "InputTensor.Sizes[0]")) ||
        FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", 1, in->sizes[1] * bb,
                                      "InputTensor.Sizes[1] %u * BlockSize %llu * BlockSize %llu", in->sizes[1],
                                      (unsigned long long)b, (unsigned long long)b)))
        return hr;
    for (UINT k = 2; k < 4; ++k)
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", k, in->sizes[k] / b, "InputTensor.Sizes[%u] %u / BlockSize %llu",
                                          k, in->sizes[k], (unsigned long long)b)))
            return hr;
    return S_OK;
}

/* The 6-d walk {N, Co, H, i, W, j}, strides in elements of each tensor, into st->plan. */
static void plan(depth_space_state* st, const depth_space_args* a, const dmlc_tensor* in, const dmlc_tensor* out)
{
    const dmlc_tensor* depth = a->to_space ? in : out;
    const dmlc_tensor* space = a->to_space ? out : in;
    const uint64_t b = a->b, bb = b * b, co = depth->sizes[1] / bb;
    uint64_t sizes[6];
    int64_t sp[6], dp[6];
    sizes[0] = space->sizes[0];
    sizes[1] = co;
    sizes[2] = depth->sizes[2];
    sizes[3] = b;
    sizes[4] = depth->sizes[3];
    sizes[5] = b;
    sp[0] = (int64_t)space->strides[0];
    sp[1] = (int64_t)space->strides[1];
    sp[2] = (int64_t)(b * space->strides[2]);
    sp[3] = (int64_t)space->strides[2];
    sp[4] = (int64_t)(b * space->strides[3]);
    sp[5] = (int64_t)space->strides[3];
    dp[0] = (int64_t)depth->strides[0];
    dp[2] = (int64_t)depth->strides[2];
    dp[4] = (int64_t)depth->strides[3];
    if (a->order == DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW) {
        dp[1] = (int64_t)depth->strides[1];
        dp[3] = (int64_t)(b * co * depth->strides[1]);
        dp[5] = (int64_t)(co * depth->strides[1]);
    } else {
        dp[1] = (int64_t)(bb * depth->strides[1]);
        dp[3] = (int64_t)(b * depth->strides[1]);
        dp[5] = (int64_t)depth->strides[1];
    }
    if (a->to_space)
        dmlc_copy_plan_init(&st->plan, in->elem_size, 6, sizes, sp, dp);
    else
        dmlc_copy_plan_init(&st->plan, in->elem_size, 6, sizes, dp, sp);
}

HRESULT dmlc_infer_depth_space(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const DML_DEPTH_TO_SPACE1_OPERATOR_DESC* d = (const DML_DEPTH_TO_SPACE1_OPERATOR_DESC*)desc;
    const depth_space_args a = read_args(type, d);
    dmlc_tensor in;
    HRESULT hr;
    if (FAILED(hr = dmlc_shapes_count(sh, 1)) ||
        FAILED(hr = dmlc_tensor_init(&in, d->InputTensor, opname, "InputTensor", 4, 4, dmlc_shapes_input_role(sh))))
        return hr;
    return validate(opname, &a, &in, sh);
}

HRESULT dmlc_create_depth_space(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const DML_DEPTH_TO_SPACE1_OPERATOR_DESC* d = (const DML_DEPTH_TO_SPACE1_OPERATOR_DESC*)desc;
    const depth_space_args a = read_args(type, d);
    dmlc_tensor in, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    HRESULT hr;
    DMLC_OPERATOR_T* o;

    if (FAILED(hr = dmlc_tensor_init(&in, d->InputTensor, opname, "InputTensor", 4, 4, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&out, d->OutputTensor, opname, "OutputTensor", 4, 4, DMLC_OUTPUT)) ||
        FAILED(hr = dmlc_tensor_same_type(&in, "InputTensor", &out, "OutputTensor", opname)) ||
        FAILED(hr = validate(opname, &a, &in, &sh)))
        return hr;
    o = dmlc_operator_alloc(type, opname, 1, 1, sizeof(depth_space_state));
    if (!o) return E_OUTOFMEMORY;
    o->inputs[0] = in;
    o->outputs[0] = out;
    o->execute = depth_space_execute;
    plan((depth_space_state*)o->state, &a, &in, &out);
    *op = o;
    return S_OK;
}
