/* element_wise_identity.c - DML_OPERATOR_ELEMENT_WISE_IDENTITY: y = x, or x*Scale + Bias.
 *
 * The strided copy: out[i] = in[i] for every logical index i, the tensors' strides saying
 * where each element lives.  A transpose is an identity with permuted input strides: NCHW
 * data {N, C, H, W} read as {N, H, W, C} with strides {C*H*W, W, 1, H*W} and written
 * packed is NHWC; a zero input stride broadcasts; the output's strides scatter into any
 * layout.  The copy is one dmlc_copy_plan (whose blocked transpose takes the permutations);
 * with a ScaleBias the same plan walks rows of the scale_bias.c kernels, which never fuse
 * the multiply and the add.  As DirectML allows, the output may be bound to exactly the
 * input's memory when both tensors have the same layout: the operation runs in place. */
#include "../dmlc_internal.h"

typedef struct identity_state {
    dmlc_copy_plan plan;
    dmlc_row_fn scale_bias; /* NULL: the bits are copied */
    DML_SCALE_BIAS sb;
} identity_state;

static void identity_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const identity_state* st = (const identity_state*)op->state;
    if (st->scale_bias)
        dmlc_map_run(&st->plan, out[0], in[0], st->scale_bias, &st->sb);
    else if (out[0] != in[0]) /* in place without ScaleBias: every element already is itself */
        dmlc_copy_run(&st->plan, out[0], in[0]);
}

typedef struct identity_args {
    int has_scale_bias;
    DML_SCALE_BIAS sb; /* copied: the desc's memory is the caller's */
} identity_args;

static identity_args read_args(const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC* d)
{
    identity_args a;
    a.has_scale_bias = d->ScaleBias != NULL;
    a.sb.Scale = a.has_scale_bias ? d->ScaleBias->Scale : 1.0f;
    a.sb.Bias = a.has_scale_bias ? d->ScaleBias->Bias : 0.0f;
    return a;
}

static int is_float(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_FLOAT16 || t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT64;
}

/* ScaleBias against the type; the output has the input's sizes. */
static HRESULT validate(const char* opname, const identity_args* a, const dmlc_tensor* in, dmlc_shapes* sh)
{
    char name[DMLC_TYPE_NAME_SIZE];
    HRESULT hr;
    if (a->has_scale_bias && !is_float(in->type))
        return dmlc_fail(E_INVALIDARG, opname, "ScaleBias is set, but InputTensor.DataType is %s; a scale and bias "
                         "apply only to FLOAT16, FLOAT32 and FLOAT64", dmlc_data_type_name(in->type, name));
    dmlc_shape_rank(sh, 0, in->ndim);
    for (UINT k = 0; k < in->ndim; ++k)
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", k, in->sizes[k], "InputTensor.Sizes[%u]", k)))
            return hr;
    return S_OK;
}

/* One walk of the logical index space; true if both tensors place every element alike. */
static int plan(identity_state* st, const identity_args* a, const dmlc_tensor* in, const dmlc_tensor* out)
{
    uint64_t sizes[DMLC_MAX_DIMS];
    int64_t ds[DMLC_MAX_DIMS], ss[DMLC_MAX_DIMS];
    int same_layout = 1;
    for (UINT k = 0; k < in->ndim; ++k) {
        sizes[k] = in->sizes[k];
        ds[k] = (int64_t)out->strides[k];
        ss[k] = (int64_t)in->strides[k];
        if (sizes[k] > 1 && ds[k] != ss[k]) same_layout = 0;
    }
    dmlc_copy_plan_init(&st->plan, in->elem_size, in->ndim, sizes, ds, ss);
    st->sb = a->sb;
    st->scale_bias = NULL;
    if (a->has_scale_bias) {
        switch ((int)in->type) {
        case DML_TENSOR_DATA_TYPE_FLOAT16: st->scale_bias = dmlc_scale_bias_f16; break;
        case DML_TENSOR_DATA_TYPE_FLOAT32: st->scale_bias = dmlc_scale_bias_f32; break;
        default: st->scale_bias = dmlc_scale_bias_f64; break; /* FLOAT64: validate allowed no other */
        }
    }
    return same_layout;
}

HRESULT dmlc_infer_element_wise_identity(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC* d = (const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC*)desc;
    const identity_args a = read_args(d);
    dmlc_tensor in;
    HRESULT hr;
    (void)type;
    if (FAILED(hr = dmlc_shapes_count(sh, 1)) ||
        FAILED(hr = dmlc_tensor_init(&in, d->InputTensor, opname, "InputTensor", 1, DMLC_MAX_DIMS,
                                     dmlc_shapes_input_role(sh))))
        return hr;
    return validate(opname, &a, &in, sh);
}

HRESULT dmlc_create_element_wise_identity(DML_OPERATOR_TYPE type, const char* opname, const void* desc,
                                          DMLC_OPERATOR_T** op)
{
    const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC* d = (const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC*)desc;
    const identity_args a = read_args(d);
    dmlc_tensor in, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    HRESULT hr;
    DMLC_OPERATOR_T* o;

    if (FAILED(hr = dmlc_tensor_init(&in, d->InputTensor, opname, "InputTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&out, d->OutputTensor, opname, "OutputTensor", 1, DMLC_MAX_DIMS, DMLC_OUTPUT)) ||
        FAILED(hr = dmlc_tensor_same_type(&in, "InputTensor", &out, "OutputTensor", opname)) ||
        FAILED(hr = dmlc_tensor_same_rank(&in, "InputTensor", &out, "OutputTensor", opname)) ||
        FAILED(hr = validate(opname, &a, &in, &sh)))
        return hr;
    o = dmlc_operator_alloc(type, opname, 1, 1, sizeof(identity_state));
    if (!o) return E_OUTOFMEMORY;
    o->inputs[0] = in;
    o->outputs[0] = out;
    o->execute = identity_execute;
    /* In place needs the two layouts to coincide; a transposing identity must not alias. */
    o->in_place = plan((identity_state*)o->state, &a, &in, &out) ? DMLC_IN_PLACE_SAME_LAYOUT : DMLC_IN_PLACE_LAYOUTS_DIFFER;
    *op = o;
    return S_OK;
}
