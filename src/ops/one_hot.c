/* one_hot.c - DML_OPERATOR_ONE_HOT: each index becomes a sequence of `depth` values, OnValue
 * at the index's position and OffValue elsewhere (docs/operators/one_hot.rst states the rule).
 *
 * D dimensions everywhere (1 to 8); Axis < D; IndicesTensor.Sizes[Axis] = 1 and its other
 * sizes equal OutputTensor's; depth = OutputTensor.Sizes[Axis] (the operator's parameter,
 * which dmlcInferOutputSizes returns as it reads it).  ValuesTensor holds at least two
 * elements: OffValue is its element 0, OnValue its element 1 along its innermost dimension of
 * size > 1 (DirectML's page: {1,1,3,1} takes element [0,0,1,0]), read through its Strides.
 *     out[c] = On   if c[Axis] = i,   i = Indices[c with c[Axis] = 0] adjusted
 *     out[c] = Off  otherwise
 * A negative value of a signed index counts from the end (i + depth); a value still outside
 * [0, depth) leaves its whole sequence at OffValue (the page).  Example: Axis 1, depth 4,
 * Indices {3, 1} = [[0], [-1], [7]]: out = [[On, Off, Off, Off], [Off, Off, Off, On],
 * [Off, Off, Off, Off]].
 *
 * The kernel fills the output with OffValue (src/kernels/fill.c: plain stores across threads
 * when packed), then walks the index positions and stores OnValue where an index is in
 * range.  The stores copy bits (element size fixed per instantiation) and the index type is
 * fixed per instantiation too, so the loops switch on nothing. */
#include "../dmlc_internal.h"
#include "../kernels/index.h"

#include <string.h>

typedef struct one_hot_args {
    const DML_TENSOR_DESC* indices;
    const DML_TENSOR_DESC* values;
    const DML_TENSOR_DESC* output;
    UINT axis;
} one_hot_args;

static one_hot_args read_args(const void* desc)
{
    const DML_ONE_HOT_OPERATOR_DESC* d = (const DML_ONE_HOT_OPERATOR_DESC*)desc;
    one_hot_args a;
    a.indices = d->IndicesTensor;
    a.values = d->ValuesTensor;
    a.output = d->OutputTensor;
    a.axis = d->Axis;
    return a;
}

/* One dimension count, Values and Output of one type, Axis, the sizes of Indices and
 * Values (the index type is the schema's check); Output's sizes into sh (out is
 * OutputTensor in both modes: when inferring, its sizes are the parameter that gives the
 * depth). */
static HRESULT validate(const char* opname, const one_hot_args* a, const dmlc_tensor* idx, const dmlc_tensor* val,
                        const dmlc_tensor* out, dmlc_shapes* sh)
{
    const UINT D = out->ndim;
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_same_rank(out, "OutputTensor", idx, "IndicesTensor", opname)) ||
        FAILED(hr = dmlc_tensor_same_rank(out, "OutputTensor", val, "ValuesTensor", opname)) ||
        FAILED(hr = dmlc_tensor_same_type(out, "OutputTensor", val, "ValuesTensor", opname)))
        return hr;
    if (a->axis >= D)
        return dmlc_fail(E_INVALIDARG, opname, "Axis is %u, expected less than %u (IndicesTensor.DimensionCount)",
                         a->axis, D);
    if (FAILED(hr = dmlc_tensor_expect_size(idx, opname, "IndicesTensor", a->axis, 1,
                                            "one index per sequence along Axis %u", a->axis)))
        return hr;
    if (val->count < 2)
        return dmlc_fail(E_INVALIDARG, opname,
                         "ValuesTensor has %llu element, expected at least 2 (OffValue, then OnValue)",
                         (unsigned long long)val->count);
    dmlc_shape_rank(sh, 0, D);
    for (UINT d = 0; d < D; ++d) {
        hr = d == a->axis ? dmlc_shape_expect(sh, 0, "OutputTensor", d, out->sizes[d], "its own Sizes[%u], the depth", d)
                          : dmlc_shape_expect(sh, 0, "OutputTensor", d, idx->sizes[d], "IndicesTensor.Sizes[%u]", d);
        if (FAILED(hr)) return hr;
    }
    return S_OK;
}

/* ---- The kernel ------------------------------------------------------------------------------ */
typedef struct oh_state oh_state;
typedef void (*oh_fn)(const oh_state* st, char* out, const char* idx, const void* on, uint64_t begin, uint64_t end);

struct oh_state {
    dmlc_fill_plan fill;        /* every output element: OffValue */
    UINT es;                    /* element size */
    uint64_t depth;             /* Output.Sizes[Axis] */
    int64_t axis_step;          /* Output.Strides[Axis], in bytes */
    int64_t on_offset;          /* OnValue's offset in ValuesTensor, in bytes */
    UINT nd;                    /* the index positions: the dimensions but Axis, merged */
    uint64_t sizes[DMLC_MAX_DIMS];
    int64_t idx_step[DMLC_MAX_DIMS], out_step[DMLC_MAX_DIMS]; /* in bytes */
    uint64_t count;             /* index positions */
    oh_fn fn;
};

#if defined(__GNUC__) || defined(__clang__)
#  define OH_INLINE __attribute__((always_inline)) inline
#else
#  define OH_INLINE inline
#endif

/* Index positions [begin, end) in row-major order: the coordinates of begin by division,
 * then rows of the innermost merged dimension with the outer coordinates as an odometer. */
static OH_INLINE void oh_body(const oh_state* st, char* out, const char* idx, const void* on, uint64_t begin,
                              uint64_t end, const UINT ES, const int KIND)
{
    const uint64_t depth = st->depth;
    const int64_t axis_step = st->axis_step;
    const UINT L = st->nd ? st->nd - 1 : 0;
    const int64_t xs = st->nd ? st->idx_step[L] : 0, os = st->nd ? st->out_step[L] : 0;
    const uint64_t row = st->nd ? st->sizes[L] : 1;
    uint64_t c[DMLC_MAX_DIMS], rest = begin;
    int64_t xo = 0, oo = 0;
    for (UINT i = st->nd; i-- > 0;) {
        c[i] = rest % st->sizes[i];
        rest /= st->sizes[i];
        xo += (int64_t)c[i] * st->idx_step[i];
        oo += (int64_t)c[i] * st->out_step[i];
    }
    if (!st->nd) c[0] = 0;
    for (uint64_t k = begin; k < end;) {
        uint64_t n = row - c[L];
        if (n > end - k) n = end - k;
        for (uint64_t j = 0; j < n; ++j) {
            const uint64_t i = index_value(idx + xo + (int64_t)j * xs, KIND, depth, 0);
            if (i < depth) memcpy(out + oo + (int64_t)j * os + (int64_t)i * axis_step, on, ES);
        }
        k += n;
        xo += (int64_t)n * xs;
        oo += (int64_t)n * os;
        c[L] += n;
        for (UINT i = L; i > 0 && c[i] == st->sizes[i]; --i) { /* carry into the outer coordinates */
            xo += st->idx_step[i - 1] - (int64_t)st->sizes[i] * st->idx_step[i];
            oo += st->out_step[i - 1] - (int64_t)st->sizes[i] * st->out_step[i];
            c[i] = 0;
            ++c[i - 1];
        }
    }
}

#define OH_FN(ES, KIND)                                                                                    \
    static void oh_##ES##_##KIND(const oh_state* st, char* out, const char* idx, const void* on,           \
                                 uint64_t begin, uint64_t end)                                             \
    {                                                                                                      \
        oh_body(st, out, idx, on, begin, end, ES, KIND);                                                   \
    }
#define OH_FNS(KIND) OH_FN(1, KIND) OH_FN(2, KIND) OH_FN(4, KIND) OH_FN(8, KIND)
OH_FNS(0) OH_FNS(1) OH_FNS(2) OH_FNS(3)
#undef OH_FNS
#undef OH_FN

static oh_fn oh_fn_for(UINT es, int kind)
{
#define OH_ROW(KIND) {oh_1_##KIND, oh_2_##KIND, oh_4_##KIND, oh_8_##KIND}
    static const oh_fn table[4][4] = {OH_ROW(0), OH_ROW(1), OH_ROW(2), OH_ROW(3)};
#undef OH_ROW
    return table[kind][es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3];
}

typedef struct oh_job {
    const oh_state* st;
    char* out;
    const char* idx;
    uint64_t on; /* OnValue's bits, in the low element-size bytes */
} oh_job;

static void oh_range(void* vjob, uint64_t begin, uint64_t end)
{
    const oh_job* job = (const oh_job*)vjob;
    job->st->fn(job->st, job->out, job->idx, &job->on, begin, end);
}

static void one_hot_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const oh_state* st = (const oh_state*)op->state;
    const char* values = (const char*)in[1];
    uint64_t off = 0;
    oh_job job;
    memcpy(&off, values, st->es);
    job.st = st;
    job.out = (char*)out[0];
    job.idx = (const char*)in[0];
    job.on = 0;
    memcpy(&job.on, values + st->on_offset, st->es);
    dmlc_fill_run(&st->fill, out[0], &off);
    /* Each OnValue store lands on its own cache line, most likely one the fill has evicted:
     * a line per index is the work, so many indices share out across threads. */
    dmlc_parallel_for(st->count, st->count * 64, oh_range, &job);
}

static void plan(oh_state* st, const one_hot_args* a, const dmlc_tensor* idx, const dmlc_tensor* val,
                 const dmlc_tensor* out)
{
    const UINT D = out->ndim;
    memset(st, 0, sizeof *st);
    dmlc_fill_plan_init(&st->fill, out);
    st->es = out->elem_size;
    st->depth = out->sizes[a->axis];
    st->axis_step = (int64_t)out->strides[a->axis] * (int64_t)st->es;
    for (UINT d = D; d-- > 0;) /* OnValue: element 1 along the innermost dimension of size > 1 */
        if (val->sizes[d] > 1) {
            st->on_offset = (int64_t)val->strides[d] * (int64_t)val->elem_size;
            break;
        }
    /* The index positions: every dimension but Axis, sizes of 1 dropped and neighbours
     * contiguous in both tensors merged (a packed {N, 1} of indices into {N, depth} is one
     * dimension of N with steps idx 1, out depth). */
    st->count = 1;
    for (UINT d = 0; d < D; ++d) {
        const int64_t xs = (int64_t)idx->strides[d] * (int64_t)idx->elem_size;
        const int64_t os = (int64_t)out->strides[d] * (int64_t)st->es;
        const uint64_t n = idx->sizes[d];
        st->count *= n;
        if (d == a->axis || n == 1) continue;
        if (st->nd > 0 && st->idx_step[st->nd - 1] == xs * (int64_t)n && st->out_step[st->nd - 1] == os * (int64_t)n) {
            st->sizes[st->nd - 1] *= n;
            st->idx_step[st->nd - 1] = xs;
            st->out_step[st->nd - 1] = os;
            continue;
        }
        st->sizes[st->nd] = n;
        st->idx_step[st->nd] = xs;
        st->out_step[st->nd] = os;
        ++st->nd;
    }
    st->fn = oh_fn_for(st->es, index_kind(idx->type));
}

/* ---- Entry points ---------------------------------------------------------------------------- */
HRESULT dmlc_infer_one_hot(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const one_hot_args a = read_args(desc);
    dmlc_tensor idx, val, out;
    HRESULT hr;
    (void)type;
    if (FAILED(hr = dmlc_shapes_count(sh, 1)) ||
        FAILED(hr = dmlc_tensor_init(&idx, a.indices, opname, "IndicesTensor", 1, DMLC_MAX_DIMS,
                                     DMLC_INPUT_MAY_BE_EMPTY)) ||
        FAILED(hr = dmlc_tensor_init(&val, a.values, opname, "ValuesTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT_MAY_BE_EMPTY)))
        return hr;
    /* The depth cannot be derived from the inputs: it is the operator's parameter, read from
     * OutputTensor's DimensionCount and Sizes[Axis]; its other sizes are IndicesTensor's (a
     * created operator checks them). */
    if (!a.output)
        return dmlc_fail(E_POINTER, opname, "OutputTensor is NULL; ONE_HOT's depth is OutputTensor.Sizes[Axis], so "
                         "dmlcInferOutputSizes reads OutputTensor's DimensionCount and Sizes");
    if (FAILED(hr = dmlc_tensor_init(&out, a.output, opname, "OutputTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT_MAY_BE_EMPTY)))
        return hr;
    return validate(opname, &a, &idx, &val, &out, sh);
}

HRESULT dmlc_create_one_hot(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const one_hot_args a = read_args(desc);
    dmlc_tensor idx, val, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    DMLC_OPERATOR_T* o;
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_init(&idx, a.indices, opname, "IndicesTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&val, a.values, opname, "ValuesTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&out, a.output, opname, "OutputTensor", 1, DMLC_MAX_DIMS, DMLC_OUTPUT)) ||
        FAILED(hr = validate(opname, &a, &idx, &val, &out, &sh)))
        return hr;
    o = dmlc_operator_alloc(type, opname, 2, 1, sizeof(oh_state));
    if (!o) return E_OUTOFMEMORY;
    o->inputs[0] = idx;
    o->inputs[1] = val;
    o->outputs[0] = out;
    o->execute = one_hot_execute;
    plan((oh_state*)o->state, &a, &idx, &val, &out);
    *op = o;
    return S_OK;
}
