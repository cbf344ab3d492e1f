/* cumulative.c - DML_OPERATOR_CUMULATIVE_SUMMATION and DML_OPERATOR_CUMULATIVE_PRODUCT:
 * running sums and products along one axis (docs/operators/cumulative_summation.rst).
 *
 * The output has the input's sizes and type.  Each sequence along Axis is traversed
 * t_0, t_1, ... = 0, 1, ..., n-1 (INCREASING) or n-1, ..., 0 (DECREASING); the accumulator
 * starts as in[t_0] itself (so -0.0 stays -0.0) and each step is one rounded + or x in the
 * accumulation type: FLOAT32 in float, FLOAT64 in double, FLOAT16 in float with each output
 * rounded once to FLOAT16, integers in their own width, wrapping modulo 2^bits.  Inclusive:
 * out[t_i] = acc_i.  Exclusive: out[t_0] = 0 (sum) or 1 (product), out[t_i] = acc_{i-1}.
 * E.g. the sums of {2, 1, 3, 5}: inclusive {2, 3, 6, 11}, exclusive {0, 2, 3, 6},
 * DECREASING {11, 9, 8, 5}.
 *
 * Integer + and x modulo 2^bits do not depend on the sign, so the integer kernels are
 * chosen by element size and compute in unsigned types (no signed overflow).
 *
 * The order of operations is fixed, so the scan is sequential along the axis; the
 * sequences are independent.  The kernel scans a block of sequences side by side, one
 * element of each per step: when another axis has a smaller stride than Axis, a block is
 * up to CU_BLOCK neighbours in memory, so the innermost loop is contiguous and vectorises
 * (a scan along axis 0 of {1000, 4096} walks rows of 2048); when Axis has the smallest
 * stride (a scan along the last axis), CU_INTERLEAVE contiguous sequences go in step, so
 * their independent additions overlap.  Blocks are shared out across threads. */
#include "../dmlc_internal.h"

#define CU_BLOCK 2048    /* sequences scanned side by side: their accumulators live on the stack (16 KiB) */
#define CU_INTERLEAVE 8  /* sequences walked in step when each is contiguous (hides the add's latency) */
#define CU_MIN_BLOCK 64  /* the narrowest block a split for threads makes */

typedef struct cu_state cu_state;

/* Scans m sequences of n elements: sequence j starts at in + j * in_inner (elements), its
 * element i (in traversal order) is at + i * in_axis; the same for out.  m <= CU_BLOCK. */
typedef void (*cu_scan_fn)(const cu_state* st, const char* in, char* out, uint64_t m);

struct cu_state {
    UINT elem_size;
    int exclusive;
    cu_scan_fn scan;
    uint64_t n;                  /* the axis length */
    int64_t in_axis, out_axis;   /* traversal steps (elements): negative for DECREASING */
    int64_t in_first, out_first; /* offset of t_0 within a sequence (elements) */
    uint64_t m;                  /* sequences side by side (the inner axis, 1 if none) */
    int64_t in_inner, out_inner;
    UINT outer;                  /* the other axes, merged, outermost first */
    uint64_t outer_sizes[DMLC_MAX_DIMS];
    int64_t outer_in[DMLC_MAX_DIMS], outer_out[DMLC_MAX_DIMS];
    uint64_t width;              /* sequences per block (at most CU_BLOCK) */
    uint64_t blocks;             /* per outer position: ceil(m / width) */
    uint64_t tasks;              /* outer positions x blocks */
};

/* ---- Kernels ------------------------------------------------------------------------------
 * One per accumulation kind: T the storage type, A the accumulation type, LOAD/STORE
 * convert between them, OP the step, ONE the exclusive first output (in A). */
#define CU_ADD(a, b) ((a) + (b))
#define CU_MUL(a, b) ((a) * (b))
#define CU_LOAD_SAME(v) (v)
#define CU_LOAD_HALF(v) dmlc_half_to_float_inline(v)
#define CU_STORE_HALF(v) dmlc_float_to_half_inline(v)

/* The CU_INTERLEAVE lanes written out, so that r[] has constant indices and stays in
 * registers: S(lane, A, F, G) for each. */
#if CU_INTERLEAVE != 8
#  error "CU_LANES writes out CU_INTERLEAVE lanes"
#endif
#define CU_LANES(S, A, F, G) S(0, A, F, G) S(1, A, F, G) S(2, A, F, G) S(3, A, F, G) \
                             S(4, A, F, G) S(5, A, F, G) S(6, A, F, G) S(7, A, F, G)
#define CU_LANE_ONE(J, A, STORE, ONE) y[(J) * oi] = STORE((A)(ONE));
#define CU_LANE_FIRST(J, A, LOAD, G) r[J] = LOAD(in[(J) * ii]);
#define CU_LANE_STORE(J, A, STORE, G) y[(J) * oi] = STORE(r[J]);
#define CU_LANE_STEP(J, A, LOAD, OP) r[J] = (A)OP(r[J], LOAD(x[(J) * ii]));

#define CU_SCAN(NAME, T, A, LOAD, STORE, OP, ONE, DIRECT)                                                             \
    static void cu_scan_##NAME(const cu_state* st, const char* in_bytes, char* out_bytes, uint64_t m)           \
    {                                                                                                            \
        const T* in = (const T*)(const void*)in_bytes + st->in_first;                                            \
        T* out = (T*)(void*)out_bytes + st->out_first;                                                           \
        const int64_t ia = st->in_axis, oa = st->out_axis, ii = st->in_inner, oi = st->out_inner;               \
        const uint64_t n = st->n;                                                                                \
        if (m == 1) { /* one sequence: a plain running loop */                                                  \
            A acc = LOAD(in[0]);                                                                                 \
            if (st->exclusive) {                                                                                 \
                out[0] = STORE((A)(ONE));                                                                        \
                for (uint64_t i = 1; i < n; ++i) {                                                               \
                    const A x = LOAD(in[(int64_t)i * ia]);                                                       \
                    out[(int64_t)i * oa] = STORE(acc);                                                           \
                    acc = (A)OP(acc, x);                                                                         \
                }                                                                                                \
            } else {                                                                                             \
                out[0] = STORE(acc);                                                                             \
                for (uint64_t i = 1; i < n; ++i) {                                                               \
                    acc = (A)OP(acc, LOAD(in[(int64_t)i * ia]));                                                 \
                    out[(int64_t)i * oa] = STORE(acc);                                                           \
                }                                                                                                \
            }                                                                                                    \
            return;                                                                                              \
        }                                                                                                        \
        if (m == CU_INTERLEAVE && (ii != 1 || oi != 1)) {                                                      \
            /* CU_INTERLEAVE contiguous sequences in step, their accumulators in registers: r    \
             * holds acc_k, written to row k (inclusive) or k + 1 (exclusive, row 0 is ONE) */     \
            const uint64_t e = st->exclusive ? 1 : 0;                                                            \
            A r[CU_INTERLEAVE];                                                                                  \
            T* y = out;                                                                                          \
            const T* x;                                                                                          \
            if (e) { CU_LANES(CU_LANE_ONE, A, STORE, ONE) }                                                      \
            CU_LANES(CU_LANE_FIRST, A, LOAD, _)                                                                  \
            for (uint64_t k = 0; k + e < n;) {                                                                   \
                y = out + (int64_t)(k + e) * oa;                                                                 \
                CU_LANES(CU_LANE_STORE, A, STORE, _)                                                             \
                if (++k + e >= n) break;                                                                         \
                x = in + (int64_t)k * ia;                                                                        \
                CU_LANES(CU_LANE_STEP, A, LOAD, OP)                                                              \
            }                                                                                                    \
            return;                                                                                              \
        }                                                                                                        \
        {   /* m sequences side by side, one row per step: the j loops vectorise */                             \
            A acc[CU_BLOCK];                                                                                     \
            for (uint64_t j = 0; j < m; ++j) {                                                                   \
                acc[j] = LOAD(in[(int64_t)j * ii]);                                                              \
                out[(int64_t)j * oi] = st->exclusive ? STORE((A)(ONE)) : STORE(acc[j]);                          \
            }                                                                                                    \
            for (uint64_t i = 1; i < n; ++i) {                                                                   \
                const T* x = in + (int64_t)i * ia;                                                               \
                T* y = out + (int64_t)i * oa;                                                                    \
                if (st->exclusive) {                                                                             \
                    for (uint64_t j = 0; j < m; ++j) {                                                           \
                        const A v = LOAD(x[(int64_t)j * ii]);                                                    \
                        y[(int64_t)j * oi] = STORE(acc[j]);                                                      \
                        acc[j] = (A)OP(acc[j], v);                                                               \
                    }                                                                                            \
                } else if (ii == 1 && oi == 1 && DIRECT) {                                                       \
                    /* the previous output row is the accumulator: one stream less */                           \
                    const T* p = y - oa;                                                                         \
                    for (uint64_t j = 0; j < m; ++j) y[j] = STORE((A)OP((A)p[j], LOAD(x[j])));                   \
                } else if (ii == 1 && oi == 1) {                                                                 \
                    for (uint64_t j = 0; j < m; ++j) {                                                           \
                        acc[j] = (A)OP(acc[j], LOAD(x[j]));                                                      \
                        y[j] = STORE(acc[j]);                                                                    \
                    }                                                                                            \
                } else {                                                                                         \
                    for (uint64_t j = 0; j < m; ++j) {                                                           \
                        acc[j] = (A)OP(acc[j], LOAD(x[(int64_t)j * ii]));                                        \
                        y[(int64_t)j * oi] = STORE(acc[j]);                                                      \
                    }                                                                                            \
                }                                                                                                \
            }                                                                                                    \
        }                                                                                                        \
    }

/* Integers: unsigned arithmetic of at least 32 bits (uint16 x uint16 would promote to a
 * signed int and overflow), truncated to the storage width on every store, which is the
 * result modulo 2^bits whatever the sign (two's complement). */
#define CU_STORE_U8(v) ((uint8_t)(v))
#define CU_STORE_U16(v) ((uint16_t)(v))
#define CU_STORE_U32(v) ((uint32_t)(v))
#define CU_STORE_U64(v) ((uint64_t)(v))
#define CU_STORE_SAME(v) (v)

CU_SCAN(sum_f32, float, float, CU_LOAD_SAME, CU_STORE_SAME, CU_ADD, 0.0f, 1)
CU_SCAN(prod_f32, float, float, CU_LOAD_SAME, CU_STORE_SAME, CU_MUL, 1.0f, 1)
CU_SCAN(sum_f64, double, double, CU_LOAD_SAME, CU_STORE_SAME, CU_ADD, 0.0, 1)
CU_SCAN(prod_f64, double, double, CU_LOAD_SAME, CU_STORE_SAME, CU_MUL, 1.0, 1)
CU_SCAN(sum_f16, uint16_t, float, CU_LOAD_HALF, CU_STORE_HALF, CU_ADD, 0.0f, 0)
CU_SCAN(prod_f16, uint16_t, float, CU_LOAD_HALF, CU_STORE_HALF, CU_MUL, 1.0f, 0)
CU_SCAN(sum_b8, uint8_t, uint32_t, CU_LOAD_SAME, CU_STORE_U8, CU_ADD, 0u, 1)
CU_SCAN(prod_b8, uint8_t, uint32_t, CU_LOAD_SAME, CU_STORE_U8, CU_MUL, 1u, 1)
CU_SCAN(sum_b16, uint16_t, uint32_t, CU_LOAD_SAME, CU_STORE_U16, CU_ADD, 0u, 1)
CU_SCAN(prod_b16, uint16_t, uint32_t, CU_LOAD_SAME, CU_STORE_U16, CU_MUL, 1u, 1)
CU_SCAN(sum_b32, uint32_t, uint32_t, CU_LOAD_SAME, CU_STORE_U32, CU_ADD, 0u, 1)
CU_SCAN(prod_b32, uint32_t, uint32_t, CU_LOAD_SAME, CU_STORE_U32, CU_MUL, 1u, 1)
CU_SCAN(sum_b64, uint64_t, uint64_t, CU_LOAD_SAME, CU_STORE_U64, CU_ADD, 0u, 1)
CU_SCAN(prod_b64, uint64_t, uint64_t, CU_LOAD_SAME, CU_STORE_U64, CU_MUL, 1u, 1)

static cu_scan_fn scan_fn(DML_TENSOR_DATA_TYPE t, UINT elem_size, int product)
{
    switch ((int)t) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: return product ? cu_scan_prod_f32 : cu_scan_sum_f32;
    case DML_TENSOR_DATA_TYPE_FLOAT64: return product ? cu_scan_prod_f64 : cu_scan_sum_f64;
    case DML_TENSOR_DATA_TYPE_FLOAT16: return product ? cu_scan_prod_f16 : cu_scan_sum_f16;
    default: break; /* an integer type: by its size */
    }
    switch (elem_size) {
    case 1: return product ? cu_scan_prod_b8 : cu_scan_sum_b8;
    case 2: return product ? cu_scan_prod_b16 : cu_scan_sum_b16;
    case 4: return product ? cu_scan_prod_b32 : cu_scan_sum_b32;
    default: return product ? cu_scan_prod_b64 : cu_scan_sum_b64;
    }
}

/* ---- Execution ----------------------------------------------------------------------------- */
typedef struct cu_job {
    const cu_state* st;
    const char* in;
    char* out;
} cu_job;

static void cu_tasks(void* ctx, uint64_t begin, uint64_t end)
{
    const cu_job* job = (const cu_job*)ctx;
    const cu_state* st = job->st;
    for (uint64_t t = begin; t < end; ++t) {
        uint64_t o = t / st->blocks;
        const uint64_t j0 = t % st->blocks * st->width;
        const uint64_t m = st->m - j0 < st->width ? st->m - j0 : st->width;
        int64_t a = (int64_t)j0 * st->in_inner, b = (int64_t)j0 * st->out_inner;
        for (UINT d = st->outer; d-- > 0;) {
            const uint64_t c = o % st->outer_sizes[d];
            o /= st->outer_sizes[d];
            a += (int64_t)c * st->outer_in[d];
            b += (int64_t)c * st->outer_out[d];
        }
        st->scan(st, job->in + a * (int64_t)st->elem_size, job->out + b * (int64_t)st->elem_size, m);
    }
}

static void cu_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const cu_state* st = (const cu_state*)op->state;
    cu_job job;
    job.st = st;
    job.in = (const char*)in[0];
    job.out = (char*)out[0];
    dmlc_parallel_for(st->tasks, 2 * op->inputs[0].count * st->elem_size, cu_tasks, &job);
}

/* ---- Validation and planning ------------------------------------------------------------ */
typedef struct cu_args {
    UINT axis;
    DML_AXIS_DIRECTION direction;
    BOOL exclusive;
} cu_args;

/* The two descs have one layout (src/schema.c proves each against the header). */
static cu_args read_args(DML_OPERATOR_TYPE type, const void* desc)
{
    cu_args a;
    if (type == DML_OPERATOR_CUMULATIVE_PRODUCT) {
        const DML_CUMULATIVE_PRODUCT_OPERATOR_DESC* d = (const DML_CUMULATIVE_PRODUCT_OPERATOR_DESC*)desc;
        a.axis = d->Axis;
        a.direction = d->AxisDirection;
        a.exclusive = d->HasExclusiveProduct;
    } else {
        const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC* d = (const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC*)desc;
        a.axis = d->Axis;
        a.direction = d->AxisDirection;
        a.exclusive = d->HasExclusiveSum;
    }
    return a;
}

static HRESULT validate(const char* opname, const cu_args* a, const dmlc_tensor* in, dmlc_shapes* sh)
{
    HRESULT hr;
    if (a->axis >= in->ndim)
        return dmlc_fail(E_INVALIDARG, opname, "Axis is %u, expected less than %u (InputTensor.DimensionCount)", a->axis,
                         in->ndim);
    if (FAILED(hr = dmlc_check_axis_direction(opname, "AxisDirection", a->direction))) return hr;
    dmlc_shape_rank(sh, 0, in->ndim);
    for (UINT d = 0; d < in->ndim; ++d)
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", d, in->sizes[d], "InputTensor.Sizes[%u]", d)))
            return hr;
    return S_OK;
}

/* Returns whether the two tensors place every element alike (then in place is allowed). */
static int plan(cu_state* st, DML_OPERATOR_TYPE type, const cu_args* a, const dmlc_tensor* in, const dmlc_tensor* out)
{
    const UINT ax = a->axis;
    uint64_t sizes[DMLC_MAX_DIMS];
    int64_t is[DMLC_MAX_DIMS], os[DMLC_MAX_DIMS];
    UINT k = 0, inner = DMLC_MAX_DIMS, threads;
    uint64_t outer_count;
    int same_layout = 1;
    st->elem_size = in->elem_size;
    st->exclusive = a->exclusive != 0;
    st->scan = scan_fn(in->type, in->elem_size, type == DML_OPERATOR_CUMULATIVE_PRODUCT);
    st->n = in->sizes[ax];
    for (UINT d = 0; d < in->ndim; ++d)
        if (in->sizes[d] > 1 && in->strides[d] != out->strides[d]) same_layout = 0;
    /* DECREASING walks from the last element backwards. */
    if (a->direction == DML_AXIS_DIRECTION_DECREASING) {
        st->in_axis = -(int64_t)in->strides[ax];
        st->out_axis = -(int64_t)out->strides[ax];
        st->in_first = (int64_t)((st->n ? st->n - 1 : 0) * in->strides[ax]);
        st->out_first = (int64_t)((st->n ? st->n - 1 : 0) * out->strides[ax]);
    } else {
        st->in_axis = (int64_t)in->strides[ax];
        st->out_axis = (int64_t)out->strides[ax];
        st->in_first = st->out_first = 0;
    }
    /* The other axes of size > 1, a neighbour merged into the previous one where both
     * tensors step over it exactly (sizes {4, 5} with strides {5, 1}: one axis of 20). */
    for (UINT d = 0; d < in->ndim; ++d) {
        if (d == ax || in->sizes[d] == 1) continue;
        if (k && is[k - 1] == (int64_t)(in->strides[d] * in->sizes[d]) &&
            os[k - 1] == (int64_t)(out->strides[d] * out->sizes[d])) {
            sizes[k - 1] *= in->sizes[d];
            is[k - 1] = (int64_t)in->strides[d];
            os[k - 1] = (int64_t)out->strides[d];
        } else {
            sizes[k] = in->sizes[d];
            is[k] = (int64_t)in->strides[d];
            os[k++] = (int64_t)out->strides[d];
        }
    }
    /* The inner axis: the other axis with the smallest input stride.  If that stride is
     * smaller than Axis's, a block is a run of up to CU_BLOCK neighbours in memory, one row
     * of them per step (vectorised).  Otherwise each sequence is contiguous (a scan along
     * the last axis) and CU_INTERLEAVE of them are walked in step: their additions are
     * independent, so the CPU overlaps them instead of waiting on one chain. */
    for (UINT d = 0; d < k; ++d)
        if (inner == DMLC_MAX_DIMS || is[d] < is[inner]) inner = d;
    st->m = 1;
    st->in_inner = st->out_inner = 0;
    st->outer = 0;
    for (UINT d = 0; d < k; ++d) {
        if (d == inner) {
            st->m = sizes[d];
            st->in_inner = is[d];
            st->out_inner = os[d];
        } else {
            st->outer_sizes[st->outer] = sizes[d];
            st->outer_in[st->outer] = is[d];
            st->outer_out[st->outer++] = os[d];
        }
    }
    outer_count = 1;
    for (UINT d = 0; d < st->outer; ++d) outer_count *= st->outer_sizes[d];
    st->width = inner != DMLC_MAX_DIMS && st->in_inner < (int64_t)in->strides[ax] ? CU_BLOCK : CU_INTERLEAVE;
    /* Fewer outer positions than threads: narrower blocks, so that every thread has one. */
    threads = (UINT)dmlc_threads_for(2 * in->count * st->elem_size); /* as cu_execute's loop */
    if (outer_count < threads && st->width > CU_MIN_BLOCK) {
        const uint64_t parts = (threads + outer_count - 1) / outer_count;
        uint64_t w = (st->m + parts - 1) / parts;
        w = (w + CU_MIN_BLOCK - 1) / CU_MIN_BLOCK * CU_MIN_BLOCK;
        if (w < st->width) st->width = w;
    }
    st->blocks = (st->m + st->width - 1) / st->width;
    st->tasks = st->blocks * outer_count;
    return same_layout;
}

HRESULT dmlc_infer_cumulative(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC* d = (const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC*)desc;
    const cu_args a = read_args(type, desc);
    dmlc_tensor in;
    HRESULT hr;
    if (FAILED(hr = dmlc_shapes_unary_input(sh, &in, d->InputTensor, opname, 1, DMLC_MAX_DIMS))) return hr;
    return validate(opname, &a, &in, sh);
}

HRESULT dmlc_create_cumulative(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC* d = (const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC*)desc;
    const cu_args a = read_args(type, desc);
    dmlc_tensor in, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    HRESULT hr;
    DMLC_OPERATOR_T* o;

    if (FAILED(hr = dmlc_tensor_init_in_out(&in, d->InputTensor, &out, d->OutputTensor, opname, 1, DMLC_MAX_DIMS)) ||
        FAILED(hr = validate(opname, &a, &in, &sh)))
        return hr;
    o = dmlc_operator_alloc_unary(type, opname, &in, &out, cu_execute, sizeof(cu_state));
    if (!o) return E_OUTOFMEMORY;
    /* In place (the pages allow OutputTensor to alias InputTensor) needs one layout: the
     * kernels read each element before writing it and never read it again. */
    o->in_place = plan((cu_state*)o->state, type, &a, &in, &out) ? DMLC_IN_PLACE_SAME_LAYOUT
                                                                  : DMLC_IN_PLACE_LAYOUTS_DIFFER;
    *op = o;
    return S_OK;
}
