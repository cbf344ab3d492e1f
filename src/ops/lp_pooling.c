/* lp_pooling.c - DML_OPERATOR_LP_POOLING and LP_POOLING1.
 *
 * Input {N, C, spatial...} with 1 to 3 spatial dimensions, FLOAT16, FLOAT32 or FLOAT64;
 * windows, padding, dilations and the floor or ceil output sizes exactly as MAX_POOLING2
 * (src/pooling.c): window element t of output o covers input coordinate
 *     x = o*Stride - StartPadding + t*Dilation
 * per spatial dimension.  The output is (sum of |x_t|^P)^(1/P) over the window's elements
 * inside the input: padding adds nothing, and a window with no element inside gives 0
 * (docs/operators/lp_pooling1.rst).  P = 1 is the sum of |x|, P = 2 the Euclidean norm.
 * Example, P 2, 3x3 window, stride 2, padding 1 on a 4x4 input of ones: output (0, 0)
 * covers rows and columns -1..1, of which 2 x 2 are inside: sqrt(4) = 2.
 *
 * LP pooling is average pooling with another term and another last step, so the window
 * walk, its order of additions and its threads are average pooling's
 * (dmlc_window_sum_operator, src/ops/average_pooling.c); this file reads and checks the
 * desc.  Sums of |x|^P are double for every type (DirectML asks for float32 at least), the
 * root is taken in double and rounded once to the output type. */
#include "../dmlc_internal.h"

/* LP_POOLING's fields and LP_POOLING1's: v1 adds Dilations before P. */
typedef struct lp_args {
    const DML_TENSOR_DESC* in_desc;
    const DML_TENSOR_DESC* out_desc;
    dmlc_pool_window win;
    UINT p;
} lp_args;

static lp_args read_args(DML_OPERATOR_TYPE type, const void* desc)
{
    static const UINT ones[3] = {1, 1, 1};
    if (type == DML_OPERATOR_LP_POOLING1) {
        const DML_LP_POOLING1_OPERATOR_DESC* d = (const DML_LP_POOLING1_OPERATOR_DESC*)desc;
        const lp_args a = {d->InputTensor, d->OutputTensor, DMLC_POOL_WINDOW_OF(d, d->Dilations), d->P};
        return a;
    } else {
        /* LP_POOLING is LP_POOLING1 with Dilations 1 */
        const DML_LP_POOLING_OPERATOR_DESC* d = (const DML_LP_POOLING_OPERATOR_DESC*)desc;
        const lp_args a = {d->InputTensor, d->OutputTensor, DMLC_POOL_WINDOW_OF(d, ones), d->P};
        return a;
    }
}

/* P and the window fields (the schema's check took the input's type: FLOAT16, FLOAT32 and
 * FLOAT64, an LP norm being a floating-point value); the output sizes into sh. */
static HRESULT validate(const char* opname, const lp_args* a, const dmlc_tensor* in, dmlc_shapes* sh)
{
    if (a->p == 0)
        return dmlc_fail(E_INVALIDARG, opname, "P is 0, expected at least 1 (the norm's exponent)");
    return dmlc_pool_window_validate(opname, &a->win, in, sh);
}

HRESULT dmlc_infer_lp_pooling(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const lp_args a = read_args(type, desc);
    dmlc_tensor in;
    HRESULT hr;
    if (FAILED(hr = dmlc_shapes_unary_input(sh, &in, a.in_desc, opname, 3, 5))) return hr;
    return validate(opname, &a, &in, sh);
}

HRESULT dmlc_create_lp_pooling(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const lp_args a = read_args(type, desc);
    dmlc_tensor in, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    DMLC_OPERATOR_T* o;
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_init_in_out(&in, a.in_desc, &out, a.out_desc, opname, 3, 5)) ||
        FAILED(hr = validate(opname, &a, &in, &sh)))
        return hr;
    o = dmlc_window_sum_operator(type, opname, &in, &out, &a.win, 0, a.p);
    if (!o) return E_OUTOFMEMORY;
    *op = o;
    return S_OK;
}
