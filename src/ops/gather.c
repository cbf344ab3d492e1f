/* gather.c - the gathers and scatters: GATHER (slices of the input picked by indices along
 * one axis), GATHER_ELEMENTS (one element per index), SCATTER_ELEMENTS (its inverse: the
 * input with elements replaced), GATHER_ND(1) (blocks picked by index tuples) and
 * SCATTER_ND (its inverse), sharing the index reading (index_value),
 * the merged-dimension walk (ga_dims) and the common validation (validate_indexing).
 * docs/operators/gather.rst, gather_elements.rst, scatter_elements.rst, gather_nd.rst,
 * gather_nd1.rst and scatter_nd.rst state the rules.
 *
 * GATHER:
 * D dimensions everywhere; Axis < D; K = IndexDimensions <= D, of which only the last K
 * dimensions of IndicesTensor count (its first D - K sizes are 1).  The gathered shape is
 *     C = Input.Sizes[0..Axis) ++ Indices.Sizes[D-K..D) ++ Input.Sizes[Axis+1..D)
 * (D + K - 1 entries), fitted to D: K = 0 prepends a 1, K > 1 drops the first K - 1
 * entries, which must be 1.  Output.Sizes = the fitted C, and
 *     out[c] = in[c[0..Axis), i, c[Axis+K..)]   with i = Indices[0..0, c[Axis..Axis+K)]
 * (c indexes C).  A negative value of a signed index counts from the end (i + n, n =
 * Input.Sizes[Axis]); a value still outside [0, n) is clamped into it, as WebNN's gather
 * and JAX's indexing do, so execution never fails on index values.
 * Example: in {2, 3} = [[1, 2, 3], [4, 5, 6]], Axis 1, K 2, indices {1, 2} = [[2, -1]]
 * (only the last two dimensions count): C = {2} ++ {1, 2} ++ {} = {2, 1, 2}, fitted to
 * {2, 2} by dropping the leading 1: out = [[3, 3], [6, 6]] (-1 + 3 = 2).
 *
 * The kernel walks units (o, j): o over the outer dimensions C[0..Axis), j over the index
 * dimensions C[Axis..Axis+K).  Each unit reads one index and copies one block of the
 * inner dimensions C[Axis+K..): a single element (typed copy, element size fixed per
 * instantiation), a contiguous run (memcpy: an embedding row), or a strided block (a copy
 * plan).  The index type is fixed per instantiation too, so the loops switch on nothing. */
#include "../dmlc_internal.h"
#include "../kernels/index.h"

#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#  define GA_INLINE __attribute__((always_inline)) inline
#elif defined(_MSC_VER)
#  define GA_INLINE __forceinline
#else
#  define GA_INLINE inline
#endif

/* ---- Index values: index_kind and index_value (src/kernels/index.h) -------------------------- */
/* The gathers' index: adjusted and clamped into [0, n - 1]. */
static GA_INLINE uint64_t index_at(const char* p, const int KIND, uint64_t n)
{
    return index_value(p, KIND, n, 1);
}

/* ---- Walking merged dimensions -------------------------------------------------------------- */
/* A group of dimensions walked by a flat number k, with the strides of two tensors: sizes
 * of 1 dropped and neighbours contiguous in both merged, so a packed group is one
 * dimension and k's offsets are k times a stride. */
typedef struct ga_dims {
    UINT nd;
    uint64_t count;
    uint64_t sizes[DMLC_MAX_DIMS];
    int64_t a[DMLC_MAX_DIMS], b[DMLC_MAX_DIMS], c[DMLC_MAX_DIMS]; /* c: a third tensor's (0 when c was NULL) */
} ga_dims;

static void dims_init(ga_dims* g, UINT nd, const uint64_t* sizes, const int64_t* a, const int64_t* b, const int64_t* c)
{
    g->nd = 0;
    g->count = 1;
    for (UINT i = 0; i < nd; ++i) {
        const int64_t ci = c ? c[i] : 0;
        g->count *= sizes[i];
        if (sizes[i] == 1) continue;
        if (g->nd > 0 && g->a[g->nd - 1] == a[i] * (int64_t)sizes[i] && g->b[g->nd - 1] == b[i] * (int64_t)sizes[i] &&
            g->c[g->nd - 1] == ci * (int64_t)sizes[i]) {
            g->sizes[g->nd - 1] *= sizes[i];
            g->a[g->nd - 1] = a[i];
            g->b[g->nd - 1] = b[i];
            g->c[g->nd - 1] = ci;
            continue;
        }
        g->sizes[g->nd] = sizes[i];
        g->a[g->nd] = a[i];
        g->b[g->nd] = b[i];
        g->c[g->nd] = ci;
        ++g->nd;
    }
}

/* The offsets (in elements) of flat number k in the group's two tensors. */
static GA_INLINE void dims_at(const ga_dims* g, uint64_t k, int64_t* a, int64_t* b)
{
    int64_t oa = 0, ob = 0;
    if (g->nd == 1) {
        oa = (int64_t)k * g->a[0];
        ob = (int64_t)k * g->b[0];
    } else {
        for (UINT i = g->nd; i-- > 0;) {
            const uint64_t q = k % g->sizes[i];
            k /= g->sizes[i];
            oa += (int64_t)q * g->a[i];
            ob += (int64_t)q * g->b[i];
        }
    }
    *a = oa;
    *b = ob;
}

/* The offsets (in elements) of flat number k in the group's three tensors. */
static GA_INLINE void dims_at3(const ga_dims* g, uint64_t k, int64_t* a, int64_t* b, int64_t* c)
{
    int64_t oa = 0, ob = 0, oc = 0;
    if (g->nd == 1) { /* one merged dimension (a packed group): no division */
        *a = (int64_t)k * g->a[0];
        *b = (int64_t)k * g->b[0];
        *c = (int64_t)k * g->c[0];
        return;
    }
    for (UINT i = g->nd; i-- > 0;) {
        const uint64_t q = k % g->sizes[i];
        k /= g->sizes[i];
        oa += (int64_t)q * g->a[i];
        ob += (int64_t)q * g->b[i];
        oc += (int64_t)q * g->c[i];
    }
    *a = oa;
    *b = ob;
    *c = oc;
}

/* ---- GATHER's kernel ------------------------------------------------------------------------ */
typedef struct ga_state ga_state;
typedef void (*ga_fn)(const ga_state* st, char* out, const char* in, const char* idx, uint64_t begin, uint64_t end);

struct ga_state {
    UINT es;                 /* element size */
    UINT xs;                 /* index size */
    uint64_t n;              /* Input.Sizes[Axis] */
    int64_t axis_stride;     /* Input.Strides[Axis], in elements */
    ga_dims outer;           /* C[0..Axis): a = input strides, b = output strides */
    ga_dims idx;             /* C[Axis..Axis+K): a = indices strides, b = output strides */
    dmlc_copy_plan inner;    /* C[Axis+K..): dst = output, src = input */
    uint64_t inner_count;
    int inner_run;           /* the inner block is one contiguous run in both tensors */
    int rows;                /* single elements by one index dimension, offsets of 32 bits: ga_rows */
    uint64_t row_lines;      /* ga_rows: the cache lines of a contiguous row to prefetch (0: none) */
    ga_fn fn;
};

/* ---- GATHER's single-element rows ------------------------------------------------------------
 * A gather of single elements along an inner axis (out[o][j] = in[o][i[j]], np.take along
 * axis 1) reads each index once per range: GA_BLOCK indices at a time are read, adjusted and
 * clamped into a table of element offsets (32-bit: plan uses these rows only where every
 * offset fits), and the table serves every outer row of the range, one row after another,
 * so the inner loop is out[j] = row[off[j]] with no index type and no clamp in it.
 *
 * The reads within a row are random, and on a row of a few KiB they touch nearly every
 * cache line of it: the time goes in waiting for those lines.  So while a row is gathered,
 * the lines of the next one are prefetched in order (ga_prefetch), spread over the row's
 * elements, where plan found the row contiguous and short enough to be read whole
 * (row_lines); the random reads then find their lines in cache.  (AVX2's gather
 * instructions were slower here than these plain loads, on AMD Zen 3.) */
#define GA_BLOCK 4096
#define GA_LINE 64

/* The next row's prefetch: every group of elements issues *per lines, up to end. */
typedef struct ga_pf {
    const char* p;
    const char* end;
    uint64_t per;
} ga_pf;

static GA_INLINE ga_pf ga_pf_init(const char* next, uint64_t lines, uint64_t groups)
{
    ga_pf pf;
    pf.p = next;
    pf.end = next ? next + lines * GA_LINE : NULL;
    pf.per = groups ? (lines + groups - 1) / groups : lines;
    return pf;
}

static GA_INLINE void ga_prefetch(ga_pf* pf)
{
#if defined(__GNUC__) || defined(__clang__)
    if (pf->p < pf->end) {
        for (uint64_t q = 0; q < pf->per; ++q) __builtin_prefetch(pf->p + q * GA_LINE, 0, 3);
        pf->p += pf->per * GA_LINE;
    }
#else
    (void)pf;
#endif
}

/* The cache lines to prefetch of a row of n elements of es bytes, stride elements apart,
 * from which `picks` elements are read: the row must be contiguous, of at most 64 KiB, and
 * have no more lines than picks (a sparser gather would read lines it never uses); 0:
 * no prefetch. */
static uint64_t row_lines(uint64_t n, UINT es, int64_t stride, uint64_t picks)
{
    const uint64_t lines = (n * es + GA_LINE - 1) / GA_LINE + 1; /* + 1: a row may straddle a line */
    return stride == 1 && n * es <= 65536 && lines <= picks ? lines : 0;
}

/* One row: count elements of ES bytes, dst[k * out_st] = src[off[k] * ES], prefetching the
 * row at next (NULL: none). */
static GA_INLINE void ga_row(const ga_state* st, char* dst, const char* src, const int32_t* off, uint64_t count,
                             int64_t out_st, const char* next, const UINT ES)
{
    ga_pf pf = ga_pf_init(next, st->row_lines, count / 8);
    uint64_t k = 0;
    if (out_st == (int64_t)ES) { /* a packed output: constant steps */
        for (; k + 8 <= count; k += 8) {
            ga_prefetch(&pf);
            for (uint64_t q = k; q < k + 8; ++q) memcpy(dst + q * ES, src + (int64_t)off[q] * ES, ES);
        }
    } else {
        for (; k + 8 <= count; k += 8) {
            ga_prefetch(&pf);
            for (uint64_t q = k; q < k + 8; ++q) memcpy(dst + (int64_t)q * out_st, src + (int64_t)off[q] * ES, ES);
        }
    }
    for (; k < count; ++k) memcpy(dst + (int64_t)k * out_st, src + (int64_t)off[k] * ES, ES);
}

/* Units [begin, end) of outer x idx, the index dimensions one (J = idx.count). */
static GA_INLINE void ga_rows(const ga_state* st, char* out, const char* in, const char* idx, uint64_t begin,
                              uint64_t end, const UINT ES, const int KIND)
{
    const uint64_t J = st->idx.count, n = st->n;
    const int64_t es = st->es, as = st->axis_stride;
    const int64_t ix_st = st->idx.nd ? st->idx.a[0] * (int64_t)st->xs : 0, out_st = st->idx.nd ? st->idx.b[0] * es : 0;
    const uint64_t o0 = begin / J, o1 = (end - 1) / J;
    int32_t offs[GA_BLOCK];
    /* Row o0 starts at unit begin, row o1 ends at unit end: their index ranges. */
    const uint64_t head = begin - o0 * J, tail = end - o1 * J;
    for (uint64_t jb = 0; jb < J; jb += GA_BLOCK) {
        const uint64_t jn = J - jb < GA_BLOCK ? J - jb : GA_BLOCK;
        int64_t oin, oout, nin = 0, nout = 0;
        if (o0 == o1 && (jb + jn <= head || jb >= tail)) continue; /* one row, outside this block */
        for (uint64_t k = 0; k < jn; ++k)
            offs[k] = (int32_t)((int64_t)index_at(idx + (int64_t)(jb + k) * ix_st, KIND, n) * as);
        dims_at(&st->outer, o0, &oin, &oout);
        for (uint64_t o = o0; o <= o1; ++o, oin = nin, oout = nout) {
            const uint64_t lo = o == o0 && head > jb ? head : jb;
            const uint64_t hi = o == o1 && tail < jb + jn ? tail : jb + jn;
            if (o < o1) dims_at(&st->outer, o + 1, &nin, &nout);
            if (lo >= hi) continue;
            ga_row(st, out + oout * es + (int64_t)lo * out_st, in + oin * es, offs + (lo - jb), hi - lo, out_st,
                   o < o1 && st->row_lines ? in + nin * es : NULL, ES);
        }
    }
}

/* Units [begin, end) of outer x idx: ES is the element size of a single-element block, or
 * 0 for a block (a run or a plan); KIND the index type. */
static GA_INLINE void ga_body(const ga_state* st, char* out, const char* in, const char* idx, uint64_t begin,
                              uint64_t end, const UINT ES, const int KIND)
{
    const uint64_t J = st->idx.count, n = st->n;
    const int64_t es = st->es, xs = st->xs, as = st->axis_stride * es;
    const size_t run = (size_t)(st->inner_count * (uint64_t)es);
    uint64_t o = begin / J, j = begin % J;
    int64_t oin, oout;
    if (ES && st->rows) {
        ga_rows(st, out, in, idx, begin, end, ES, KIND);
        return;
    }
    dims_at(&st->outer, o, &oin, &oout);
    for (uint64_t u = begin; u < end;) {
        /* One outer position: its units j .. min(J, j + end - u). */
        const uint64_t stop = J - j < end - u ? J : j + (end - u);
        const char* src0 = in + oin * es;
        char* dst0 = out + oout * es;
        if (st->idx.nd <= 1) {
            const int64_t ix_st = st->idx.nd ? st->idx.a[0] * xs : 0, out_st = st->idx.nd ? st->idx.b[0] * es : 0;
            const char* x = idx + (int64_t)j * ix_st;
            char* dst = dst0 + (int64_t)j * out_st;
            for (uint64_t k = j; k < stop; ++k, x += ix_st, dst += out_st) {
                const char* src = src0 + (int64_t)index_at(x, KIND, n) * as;
                if (ES) memcpy(dst, src, ES);
                else if (st->inner_run) memcpy(dst, src, run);
                else dmlc_copy_run_serial(&st->inner, dst, src);
            }
        } else {
            for (uint64_t k = j; k < stop; ++k) {
                int64_t xi, xo;
                const char* src;
                dims_at(&st->idx, k, &xi, &xo);
                src = src0 + (int64_t)index_at(idx + xi * xs, KIND, n) * as;
                if (ES) memcpy(dst0 + xo * es, src, ES);
                else if (st->inner_run) memcpy(dst0 + xo * es, src, run);
                else dmlc_copy_run_serial(&st->inner, dst0 + xo * es, src);
            }
        }
        u += stop - j;
        j = 0;
        if (u < end) dims_at(&st->outer, ++o, &oin, &oout);
    }
}

#define GA_FN(ES, KIND)                                                                                         \
    static void ga_##ES##_##KIND(const ga_state* st, char* out, const char* in, const char* idx, uint64_t begin, \
                                 uint64_t end)                                                                  \
    {                                                                                                           \
        ga_body(st, out, in, idx, begin, end, ES, KIND);                                                        \
    }
#define GA_FNS(KIND) GA_FN(0, KIND) GA_FN(1, KIND) GA_FN(2, KIND) GA_FN(4, KIND) GA_FN(8, KIND)
GA_FNS(0) GA_FNS(1) GA_FNS(2) GA_FNS(3)
#undef GA_FNS
#undef GA_FN

static ga_fn ga_fn_for(UINT es, int kind)
{
#define GA_ROW(KIND) {ga_0_##KIND, ga_1_##KIND, ga_2_##KIND, ga_4_##KIND, ga_8_##KIND}
    static const ga_fn table[4][5] = {GA_ROW(0), GA_ROW(1), GA_ROW(2), GA_ROW(3)};
#undef GA_ROW
    const int e = es == 0 ? 0 : es == 1 ? 1 : es == 2 ? 2 : es == 4 ? 3 : 4;
    return table[kind][e];
}

typedef struct ga_job {
    const ga_state* st;
    char* out;
    const char* in;
    const char* idx;
} ga_job;

static void ga_range(void* vjob, uint64_t begin, uint64_t end)
{
    const ga_job* job = (const ga_job*)vjob;
    job->st->fn(job->st, job->out, job->in, job->idx, begin, end);
}

static void gather_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const ga_state* st = (const ga_state*)op->state;
    const uint64_t units = st->outer.count * st->idx.count;
    ga_job job;
    job.st = st;
    job.out = (char*)out[0];
    job.in = (const char*)in[0];
    job.idx = (const char*)in[1];
    dmlc_parallel_for(units, op->outputs[0].count * st->es * 2 + units * st->xs, ga_range, &job);
}

/* ---- Creation ------------------------------------------------------------------------------- */
typedef struct gather_args {
    UINT axis;
    UINT k; /* IndexDimensions */
} gather_args;

static gather_args read_args(const DML_GATHER_OPERATOR_DESC* d)
{
    gather_args a;
    a.axis = d->Axis;
    a.k = d->IndexDimensions;
    return a;
}

/* Entry e of the gathered shape C (D + K - 1 entries), and the field it comes from. */
static UINT gathered(const gather_args* a, const dmlc_tensor* in, const dmlc_tensor* idx, UINT e, const char** field,
                     UINT* dim)
{
    const UINT D = in->ndim;
    if (e < a->axis) {
        *field = "InputTensor";
        *dim = e;
        return in->sizes[e];
    }
    if (e < a->axis + a->k) {
        *field = "IndicesTensor";
        *dim = D - a->k + (e - a->axis);
        return idx->sizes[*dim];
    }
    *field = "InputTensor";
    *dim = e - a->k + 1;
    return in->sizes[*dim];
}

/* What the gathers and scatters share: one dimension count, the output of the input's type
 * (out NULL when inferring).  The index type (INT32, INT64, UINT32 or UINT64) is the
 * schema's check. */
static HRESULT validate_tensors(const char* opname, const dmlc_tensor* in, const dmlc_tensor* idx,
                                const dmlc_tensor* out)
{
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_same_rank(in, "InputTensor", idx, "IndicesTensor", opname))) return hr;
    if (out && (FAILED(hr = dmlc_tensor_same_type(in, "InputTensor", out, "OutputTensor", opname)) ||
                FAILED(hr = dmlc_tensor_same_rank(in, "InputTensor", out, "OutputTensor", opname))))
        return hr;
    return S_OK;
}

/* ... and Axis < D (GATHER, GATHER_ELEMENTS, SCATTER_ELEMENTS). */
static HRESULT validate_indexing(const char* opname, UINT axis, const dmlc_tensor* in, const dmlc_tensor* idx,
                                 const dmlc_tensor* out)
{
    HRESULT hr;
    if (FAILED(hr = validate_tensors(opname, in, idx, out))) return hr;
    if (axis >= in->ndim)
        return dmlc_fail(E_INVALIDARG, opname, "Axis is %u, expected less than %u (InputTensor.DimensionCount)", axis,
                         in->ndim);
    return S_OK;
}

/* Axis, IndexDimensions and the tensors' types and ranks; the output sizes into sh. */
static HRESULT validate(const char* opname, const gather_args* a, const dmlc_tensor* in, const dmlc_tensor* idx,
                        const dmlc_tensor* out, dmlc_shapes* sh)
{
    const UINT D = in->ndim;
    HRESULT hr;
    if (FAILED(hr = validate_indexing(opname, a->axis, in, idx, out))) return hr;
    if (a->k > D)
        return dmlc_fail(E_INVALIDARG, opname, "IndexDimensions is %u, expected at most %u (InputTensor.DimensionCount)",
                         a->k, D);
    for (UINT d = 0; d + a->k < D; ++d)
        if (FAILED(hr = dmlc_tensor_expect_size(idx, opname, "IndicesTensor", d, 1,
                                                "only the last IndexDimensions %u dimensions hold indices", a->k)))
            return hr;
    /* K > 1: the gathered shape has D + K - 1 entries; its first K - 1 must be 1. */
    for (UINT e = 0; e + 1 < a->k; ++e) {
        const char* field;
        UINT dim;
        const UINT size = gathered(a, in, idx, e, &field, &dim);
        if (size != 1)
            return dmlc_fail(E_INVALIDARG, opname,
                             "%s.Sizes[%u] is %u, expected 1 (IndexDimensions %u gives %u gathered dimensions; the "
                             "first %u must be 1 to leave InputTensor.DimensionCount %u)",
                             field, dim, size, a->k, D + a->k - 1, a->k - 1, D);
    }
    dmlc_shape_rank(sh, 0, D);
    for (UINT d = 0; d < D; ++d) {
        const char* field;
        UINT dim;
        if (a->k == 0 && d == 0) {
            if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", 0, 1, "IndexDimensions 0 prepends a 1"))) return hr;
            continue;
        }
        {
            const UINT e = a->k == 0 ? d - 1 : d + a->k - 1;
            const UINT size = gathered(a, in, idx, e, &field, &dim);
            if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", d, size, "%s.Sizes[%u]", field, dim))) return hr;
        }
    }
    return S_OK;
}

static void plan(ga_state* st, const gather_args* a, const dmlc_tensor* in, const dmlc_tensor* idx,
                 const dmlc_tensor* out)
{
    const UINT D = in->ndim, A = a->axis, K = a->k;
    uint64_t sizes[DMLC_MAX_DIMS];
    int64_t sa[DMLC_MAX_DIMS], sb[DMLC_MAX_DIMS];
    /* Output dimension of gathered entry e: e - (K - 1), or e + 1 for K = 0; the dropped
     * entries (below 0) have size 1 and are never stepped. */
#define OUT_STRIDE(e) (K == 0 ? (int64_t)out->strides[(e) + 1] \
                       : (e) + 1 >= K ? (int64_t)out->strides[(e) + 1 - K] : 0)
    memset(st, 0, sizeof *st);
    st->es = in->elem_size;
    st->xs = idx->elem_size;
    st->n = in->sizes[A];
    st->axis_stride = (int64_t)in->strides[A];
    for (UINT e = 0; e < A; ++e) {
        sizes[e] = in->sizes[e];
        sa[e] = (int64_t)in->strides[e];
        sb[e] = OUT_STRIDE(e);
    }
    dims_init(&st->outer, A, sizes, sa, sb, NULL);
    for (UINT t = 0; t < K; ++t) {
        sizes[t] = idx->sizes[D - K + t];
        sa[t] = (int64_t)idx->strides[D - K + t];
        sb[t] = OUT_STRIDE(A + t);
    }
    dims_init(&st->idx, K, sizes, sa, sb, NULL);
    st->inner_count = 1;
    for (UINT t = 0; A + 1 + t < D; ++t) {
        sizes[t] = in->sizes[A + 1 + t];
        sa[t] = OUT_STRIDE(A + K + t);
        sb[t] = (int64_t)in->strides[A + 1 + t];
        st->inner_count *= sizes[t];
    }
#undef OUT_STRIDE
    dmlc_copy_plan_init(&st->inner, st->es, D - A - 1, sizes, sa, sb);
    st->inner_run = st->inner.ndim == 0 || (st->inner.ndim == 1 && st->inner.dst_strides[0] == 1 &&
                                            st->inner.src_strides[0] == 1);
    /* ga_rows: single elements, one index dimension, every offset (n - 1) * stride in 32
     * bits. */
    st->rows = st->inner_count == 1 && st->idx.nd <= 1 && (st->n - 1) * (uint64_t)st->axis_stride <= INT32_MAX;
    if (st->rows) st->row_lines = row_lines(st->n, st->es, st->axis_stride, st->idx.count);
    st->fn = ga_fn_for(st->inner_count == 1 ? st->es : 0, index_kind(idx->type));
}

/* The scatters run in place only when Output places every element as Input does: then the
 * copy of Input to Output is skipped. */
static int same_layout(const dmlc_tensor* in, const dmlc_tensor* out)
{
    for (UINT d = 0; d < in->ndim; ++d)
        if (in->sizes[d] > 1 && in->strides[d] != out->strides[d]) return 0;
    return 1;
}

/* The tensors of GATHER_ELEMENTS, SCATTER_ELEMENTS, GATHER_ND(1) and SCATTER_ND: Input,
 * Indices, Updates (the scatters: upd non-NULL) and Output (out NULL: inferring, where the
 * inputs may be empty). */
static HRESULT init_tensors(const char* opname, const DML_TENSOR_DESC* in_d, const DML_TENSOR_DESC* idx_d,
                            const DML_TENSOR_DESC* upd_d, const DML_TENSOR_DESC* out_d, dmlc_tensor* in,
                            dmlc_tensor* idx, dmlc_tensor* upd, dmlc_tensor* out)
{
    const dmlc_tensor_role role = out ? DMLC_INPUT : DMLC_INPUT_MAY_BE_EMPTY;
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_init(in, in_d, opname, "InputTensor", 1, DMLC_MAX_DIMS, role)) ||
        FAILED(hr = dmlc_tensor_init(idx, idx_d, opname, "IndicesTensor", 1, DMLC_MAX_DIMS, role)) ||
        (upd && FAILED(hr = dmlc_tensor_init(upd, upd_d, opname, "UpdatesTensor", 1, DMLC_MAX_DIMS, role))) ||
        (out && FAILED(hr = dmlc_tensor_init(out, out_d, opname, "OutputTensor", 1, DMLC_MAX_DIMS, DMLC_OUTPUT))))
        return hr;
    return S_OK;
}

/* The operator of validated tensors (upd NULL for a gather), with state_size bytes of state
 * for its plan; a scatter may run in place when Output places every element as Input. */
static DMLC_OPERATOR_T* alloc_indexing(DML_OPERATOR_TYPE type, const char* opname, const dmlc_tensor* in,
                                       const dmlc_tensor* idx, const dmlc_tensor* upd, const dmlc_tensor* out,
                                       size_t state_size)
{
    DMLC_OPERATOR_T* o = dmlc_operator_alloc(type, opname, upd ? 3 : 2, 1, state_size);
    if (!o) return NULL;
    o->inputs[0] = *in;
    o->inputs[1] = *idx;
    o->outputs[0] = *out;
    if (upd) {
        o->inputs[2] = *upd;
        o->in_place = same_layout(in, out) ? DMLC_IN_PLACE_SAME_LAYOUT : DMLC_IN_PLACE_LAYOUTS_DIFFER;
    }
    return o;
}

/* ---- GATHER_ELEMENTS and SCATTER_ELEMENTS ---------------------------------------------------
 * Both walk the positions p of IndicesTensor (D dimensions, Axis < D; its sizes equal
 * InputTensor's off Axis).  W is the tensor walked alongside it (GATHER_ELEMENTS' output,
 * SCATTER_ELEMENTS' updates, both of Indices' sizes) and T the one indexed on Axis
 * (GATHER_ELEMENTS' input, SCATTER_ELEMENTS' output, of Input's sizes):
 *     GATHER_ELEMENTS:   W[p] = T[p with p[Axis] = i]   i = Indices[p] adjusted and clamped
 *     SCATTER_ELEMENTS:  T = Input, then T[p with p[Axis] = i] = W[p] for every p in
 *                        row-major order; an i still outside [0, n) writes nothing.
 * Example (scatter, Axis 0): Input [0, 1, 2, 3, 4], Indices [3, 1, 3, 0], Updates
 * [5, 6, 7, 8]: element 3 gets 5, then 7 (the later wins): [8, 6, 2, 7, 4].
 *
 * The dimensions other than Axis are merged into `rest`, whose positions are the units
 * shared out across threads; a range of units runs row by row along rest's innermost
 * dimension, with Axis's loop around each row (or inside it, for each position of the row,
 * when Axis is the walked tensor's dimension of smaller stride).  Updates that land on one element share
 * every coordinate but Axis's, so they belong to one unit and are applied in increasing
 * Axis order, their row-major order, whatever the split across threads. */
typedef struct ge_state ge_state;
/* The kernels of GATHER_ELEMENTS, SCATTER_ELEMENTS, GATHER_ND(1) and SCATTER_ND: units
 * [begin, end) of the operator's state st (a ge_state or an nd_state), W walked alongside
 * the indices and T indexed by them (see each family's comment). */
typedef void (*ix_fn)(const void* st, char* w, char* t, const char* idx, uint64_t begin, uint64_t end);

struct ge_state {
    UINT es;                 /* element size */
    UINT xs;                 /* index size */
    uint64_t n;              /* T.Sizes[Axis] */
    uint64_t m;              /* Indices.Sizes[Axis] */
    int64_t w_axis, x_axis, t_axis; /* the strides on Axis, in elements */
    ga_dims rest;            /* the other dimensions: a = W strides, b = Indices strides, c = T strides */
    int axis_inner;          /* Axis has W's smaller stride: walk it innermost (contiguous runs) */
    uint64_t row_lines;      /* T's cache lines along a contiguous Axis, to prefetch (0: none) */
    dmlc_copy_plan copy;     /* SCATTER_ELEMENTS: Input -> Output */
    ix_fn fn;
};

/* One element: W[p] = T[i] (gather, i clamped) or T[i] = W[p] (scatter, i in range). */
static GA_INLINE void ge_one(char* wp, const char* xp, char* tp, int64_t ta, uint64_t n, const UINT ES, const int KIND,
                             const int SCATTER)
{
    const uint64_t i = index_value(xp, KIND, n, !SCATTER);
    if (!SCATTER) memcpy(wp, tp + (int64_t)i * ta, ES);
    else if (i < n) memcpy(tp + (int64_t)i * ta, wp, ES);
}

static GA_INLINE void ge_body(const ge_state* st, char* w, char* t, const char* idx, uint64_t begin, uint64_t end,
                              const UINT ES, const int KIND, const int SCATTER)
{
    const ga_dims* g = &st->rest;
    const uint64_t L = g->nd ? g->sizes[g->nd - 1] : 1, m = st->m, n = st->n;
    const int64_t es = ES, xs = st->xs;
    const int64_t wl = g->nd ? g->a[g->nd - 1] * es : 0, xl = g->nd ? g->b[g->nd - 1] * xs : 0;
    const int64_t tl = g->nd ? g->c[g->nd - 1] * es : 0;
    const int64_t wa = st->w_axis * es, xa = st->x_axis * xs, ta = st->t_axis * es;
    const int64_t XS = KIND == IX_INT64 || KIND == IX_UINT64 ? 8 : 4;
    for (uint64_t u = begin; u < end;) {
        const uint64_t row = u / L, k0 = u % L, k1 = end - u < L - k0 ? k0 + (end - u) : L;
        /* Two loops, k over the row [k0, k1) and j over Axis, in the order plan chose:
         * (count, W step, Indices step, T step) of the outer and the inner one. */
        const uint64_t no = st->axis_inner ? k1 - k0 : m, ni = st->axis_inner ? m : k1 - k0;
        const int64_t wo = st->axis_inner ? wl : wa, xo = st->axis_inner ? xl : xa, to = st->axis_inner ? tl : 0;
        const int64_t wi = st->axis_inner ? wa : wl, xi = st->axis_inner ? xa : xl, ti = st->axis_inner ? 0 : tl;
        int64_t ow, ox, ot;
        dims_at3(g, row * L, &ow, &ox, &ot);
        for (uint64_t o = 0; o < no; ++o) {
            char* wp = w + ow * es + (int64_t)k0 * wl + (int64_t)o * wo;
            const char* xp = idx + ox * xs + (int64_t)k0 * xl + (int64_t)o * xo;
            char* tp = t + ot * es + (int64_t)k0 * tl + (int64_t)o * to;
            if (wi == (int64_t)ES && xi == XS && ti == 0) {
                /* Packed W and Indices along the inner loop (a gather or scatter along the
                 * last axis): constant steps the compiler can unroll, and T's next row
                 * prefetched as GATHER's rows do (ga_prefetch). */
                ga_pf pf = ga_pf_init(st->row_lines && o + 1 < no ? tp + to : NULL, st->row_lines, ni / 8);
                uint64_t q = 0;
                for (; q + 8 <= ni; q += 8) {
                    ga_prefetch(&pf);
                    for (uint64_t r = q; r < q + 8; ++r)
                        ge_one(wp + (int64_t)r * ES, xp + (int64_t)r * XS, tp, ta, n, ES, KIND, SCATTER);
                }
                for (; q < ni; ++q) ge_one(wp + (int64_t)q * ES, xp + (int64_t)q * XS, tp, ta, n, ES, KIND, SCATTER);
            } else {
                for (uint64_t q = 0; q < ni; ++q, wp += wi, xp += xi, tp += ti)
                    ge_one(wp, xp, tp, ta, n, ES, KIND, SCATTER);
            }
        }
        u += k1 - k0;
    }
}

#define GE_FN(ES, KIND, SC)                                                                                     \
    static void ge_##ES##_##KIND##_##SC(const void* st, char* w, char* t, const char* idx, uint64_t begin,     \
                                        uint64_t end)                                                        \
    {                                                                                                        \
        ge_body((const ge_state*)st, w, t, idx, begin, end, ES, KIND, SC);                                   \
    }
#define GE_FNS(KIND, SC) GE_FN(1, KIND, SC) GE_FN(2, KIND, SC) GE_FN(4, KIND, SC) GE_FN(8, KIND, SC)
GE_FNS(0, 0) GE_FNS(1, 0) GE_FNS(2, 0) GE_FNS(3, 0)
GE_FNS(0, 1) GE_FNS(1, 1) GE_FNS(2, 1) GE_FNS(3, 1)
#undef GE_FNS
#undef GE_FN

static ix_fn ge_fn_for(UINT es, int kind, int scatter)
{
#define GE_ROW(KIND, SC) {ge_1_##KIND##_##SC, ge_2_##KIND##_##SC, ge_4_##KIND##_##SC, ge_8_##KIND##_##SC}
    static const ix_fn table[2][4][4] = {{GE_ROW(0, 0), GE_ROW(1, 0), GE_ROW(2, 0), GE_ROW(3, 0)},
                                         {GE_ROW(0, 1), GE_ROW(1, 1), GE_ROW(2, 1), GE_ROW(3, 1)}};
#undef GE_ROW
    const int e = es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3;
    return table[scatter][kind][e];
}

/* One call of an ix_fn, its units shared out across threads (work_bytes: as
 * dmlc_parallel_for). */
typedef struct ix_job {
    ix_fn fn;
    const void* st;
    char* w;
    char* t;
    const char* idx;
} ix_job;

static void ix_range(void* vjob, uint64_t begin, uint64_t end)
{
    const ix_job* job = (const ix_job*)vjob;
    job->fn(job->st, job->w, job->t, job->idx, begin, end);
}

static void ix_run(ix_fn fn, const void* st, char* w, char* t, const char* idx, uint64_t units, uint64_t work_bytes)
{
    ix_job job;
    job.fn = fn;
    job.st = st;
    job.w = w;
    job.t = t;
    job.idx = idx;
    dmlc_parallel_for(units, work_bytes, ix_range, &job);
}

static void elements_run(const DMLC_OPERATOR_T* op, char* w, char* t, const char* idx)
{
    const ge_state* st = (const ge_state*)op->state;
    ix_run(st->fn, st, w, t, idx, st->rest.count, op->inputs[1].count * (st->es * 2 + st->xs));
}

static void gather_elements_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    elements_run(op, (char*)out[0], (char*)in[0], (const char*)in[1]);
}

static void scatter_elements_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const ge_state* st = (const ge_state*)op->state;
    /* Bound in place (output at exactly the input's memory, one layout): nothing to copy. */
    if (out[0] != in[0]) dmlc_copy_run(&st->copy, out[0], in[0]);
    elements_run(op, (char*)in[2], (char*)out[0], (const char*)in[1]);
}

/* The fields of the elements' and ND descs: the tensors (the gathers have no upd: NULL),
 * then Axis (GATHER_ELEMENTS, SCATTER_ELEMENTS) or r, q and b (InputDimensionCount,
 * IndicesDimensionCount and BatchDimensionCount: GATHER_ND(1), SCATTER_ND; b 0 but for
 * GATHER_ND1); the fields a desc lacks are 0. */
typedef struct ix_args {
    const DML_TENSOR_DESC *in, *idx, *upd, *out;
    UINT axis;
    UINT r, q, b;
} ix_args;

static ix_args read_elements_args(DML_OPERATOR_TYPE type, const void* desc)
{
    ix_args a;
    a.r = a.q = a.b = 0;
    if (type == DML_OPERATOR_GATHER_ELEMENTS) {
        const DML_GATHER_ELEMENTS_OPERATOR_DESC* d = (const DML_GATHER_ELEMENTS_OPERATOR_DESC*)desc;
        a.in = d->InputTensor;
        a.idx = d->IndicesTensor;
        a.upd = NULL;
        a.out = d->OutputTensor;
        a.axis = d->Axis;
    } else {
        const DML_SCATTER_ELEMENTS_OPERATOR_DESC* d = (const DML_SCATTER_ELEMENTS_OPERATOR_DESC*)desc;
        a.in = d->InputTensor;
        a.idx = d->IndicesTensor;
        a.upd = d->UpdatesTensor;
        a.out = d->OutputTensor;
        a.axis = d->Axis;
    }
    return a;
}

/* Axis, the tensors' types, ranks and sizes (upd: SCATTER_ELEMENTS' UpdatesTensor, NULL for
 * GATHER_ELEMENTS); the output's sizes into sh: Indices' (gather) or Input's (scatter). */
static HRESULT validate_elements(const char* opname, const ix_args* a, const dmlc_tensor* in,
                                 const dmlc_tensor* idx, const dmlc_tensor* upd, const dmlc_tensor* out,
                                 dmlc_shapes* sh)
{
    const UINT D = in->ndim;
    HRESULT hr;
    if (upd && (FAILED(hr = dmlc_tensor_same_type(in, "InputTensor", upd, "UpdatesTensor", opname)) ||
                FAILED(hr = dmlc_tensor_same_rank(in, "InputTensor", upd, "UpdatesTensor", opname))))
        return hr;
    if (FAILED(hr = validate_indexing(opname, a->axis, in, idx, out))) return hr;
    for (UINT d = 0; d < D; ++d)
        if (d != a->axis &&
            FAILED(hr = dmlc_tensor_expect_size(idx, opname, "IndicesTensor", d, in->sizes[d],
                                                "InputTensor.Sizes[%u]; only Axis %u may differ", d, a->axis)))
            return hr;
    for (UINT d = 0; upd && d < D; ++d)
        if (FAILED(hr = dmlc_tensor_expect_size(upd, opname, "UpdatesTensor", d, idx->sizes[d], "IndicesTensor.Sizes[%u]",
                                                d)))
            return hr;
    dmlc_shape_rank(sh, 0, D);
    for (UINT d = 0; d < D; ++d) {
        hr = upd ? dmlc_shape_expect(sh, 0, "OutputTensor", d, in->sizes[d], "InputTensor.Sizes[%u]", d)
                 : dmlc_shape_expect(sh, 0, "OutputTensor", d, idx->sizes[d], "IndicesTensor.Sizes[%u]", d);
        if (FAILED(hr)) return hr;
    }
    return S_OK;
}

/* w: the walked tensor (gather's output, scatter's updates), t: the indexed one (gather's
 * input, scatter's output). */
static void plan_elements(ge_state* st, const ix_args* a, const dmlc_tensor* in, const dmlc_tensor* idx,
                          const dmlc_tensor* w, const dmlc_tensor* t, int scatter)
{
    const UINT D = idx->ndim, A = a->axis;
    uint64_t sizes[DMLC_MAX_DIMS] = {0};
    int64_t sw[DMLC_MAX_DIMS] = {0}, sx[DMLC_MAX_DIMS] = {0}, sst[DMLC_MAX_DIMS] = {0};
    UINT r = 0;
    memset(st, 0, sizeof *st);
    st->es = in->elem_size;
    st->xs = idx->elem_size;
    st->n = t->sizes[A];
    st->m = idx->sizes[A];
    st->w_axis = (int64_t)w->strides[A];
    st->x_axis = (int64_t)idx->strides[A];
    st->t_axis = (int64_t)t->strides[A];
    for (UINT d = 0; d < D; ++d) {
        if (d == A) continue;
        sizes[r] = idx->sizes[d];
        sw[r] = (int64_t)w->strides[d];
        sx[r] = (int64_t)idx->strides[d];
        sst[r] = (int64_t)t->strides[d];
        ++r;
    }
    dims_init(&st->rest, r, sizes, sw, sx, sst);
    /* Either loop order keeps a scatter's updates to one element in increasing Axis order;
     * the inner loop takes the dimension W steps through with the smaller stride. */
    st->axis_inner = st->rest.nd == 0 ||
                     (st->m > 1 && st->w_axis < st->rest.a[st->rest.nd - 1]); /* strides are never negative */
    st->row_lines = row_lines(st->n, st->es, st->t_axis, st->m);
    if (scatter) {
        for (UINT d = 0; d < D; ++d) {
            sizes[d] = in->sizes[d];
            sw[d] = (int64_t)t->strides[d];
            sx[d] = (int64_t)in->strides[d];
        }
        dmlc_copy_plan_init(&st->copy, st->es, D, sizes, sw, sx);
    }
    st->fn = ge_fn_for(st->es, index_kind(idx->type), scatter);
}

/* ---- GATHER_ND, GATHER_ND1 and SCATTER_ND ---------------------------------------------------
 * r = InputDimensionCount, q = IndicesDimensionCount, each 1 to D; only the last r sizes of
 * InputTensor (data) and the last q of IndicesTensor (idx) count, the leading ones are 1.
 * k = idx[q-1] is the length of an index tuple, b = BatchDimensionCount (GATHER_ND and
 * SCATTER_ND: 0): b < q, 1 <= k <= r - b, data[0..b) = idx[0..b).  With j over the tuples
 * idx[0..q-1) and s over data[b+k..r):
 *     GATHER_ND(1):  out[j, s] = data[j[0..b), t, s]        t = Indices[j, 0..k)
 *     SCATTER_ND:    out = in, then out[t_j, s] = Updates[j, s] per j in row-major order
 * GATHER_ND(1)'s Output.Sizes and SCATTER_ND's Updates.Sizes are idx[0..q-1) ++
 * data[b+k..r) fitted to D by prepending 1s (no more than D entries).  Each coordinate t[a]
 * is adjusted on its own axis (n = data[b+a]): the gathers clamp it into [0, n-1], the
 * scatter skips a tuple with a coordinate outside [0, n).  (DirectML's pages take the sizes
 * after the tuple from Input's last dimensions; their example and ONNX take data[b+k..r).)
 * Example: data {2, 2} = [[0, 1], [2, 3]], idx {2, 1} = [[1], [-2]] (k 1): out {2, 2} =
 * [[2, 3], [0, 1]].
 *
 * Each tuple addresses one block of data[b+k..r): a single element (typed copy), a
 * contiguous run (memcpy) or a strided block (a copy plan), as GATHER's inner block.  The
 * gathers share tuples out across threads.  The scatter shares out destinations instead:
 * each range of them walks every tuple in order and writes those landing in it, so a
 * later duplicate wins whatever the split. */
typedef struct nd_state nd_state;

struct nd_state {
    UINT es;                       /* element size */
    UINT xs;                       /* index size */
    UINT k;                        /* the tuple's length */
    uint64_t n[DMLC_MAX_DIMS];     /* data[b+a]: the size coordinate a indexes */
    int64_t t_st[DMLC_MAX_DIMS];   /* T's stride on coordinate a's axis, in elements */
    uint64_t dest_st[DMLC_MAX_DIMS]; /* SCATTER_ND: coordinate a's row-major weight in data[0..k) */
    uint64_t dest_count;           /* SCATTER_ND: the destinations, data[0..k) */
    int64_t x_comp;                /* Indices' stride along the tuple, in elements */
    ga_dims tuples;                /* idx[0..q-1): a = Indices, b = W, c = T strides (batch axes; 0 elsewhere) */
    dmlc_copy_plan inner;          /* data[b+k..r): gathers W <- T, the scatter T <- W */
    uint64_t inner_count;
    int inner_run;                 /* the block is one contiguous run in both tensors */
    dmlc_copy_plan copy;           /* SCATTER_ND: Input -> Output */
    ix_fn fn;
};

/* Tuple j's offsets: in W (elements) and in T (elements, *dest its destination number for
 * the scatter).  Returns 0 when the scatter must skip it (a coordinate out of range). */
static GA_INLINE int nd_tuple(const nd_state* st, const char* idx, uint64_t j, int64_t* ow, int64_t* ot, uint64_t* dest,
                              const int KIND, const int SCATTER)
{
    int64_t ox, o;
    uint64_t f = 0;
    dims_at3(&st->tuples, j, &ox, ow, &o);
    for (UINT a = 0; a < st->k; ++a) {
        const uint64_t i = index_value(idx + (ox + (int64_t)a * st->x_comp) * (int64_t)st->xs, KIND, st->n[a], !SCATTER);
        if (SCATTER && i >= st->n[a]) return 0;
        o += (int64_t)i * st->t_st[a];
        f += i * st->dest_st[a];
    }
    *ot = o;
    *dest = f;
    return 1;
}

static GA_INLINE void nd_block(const nd_state* st, char* dst, const char* src, const UINT ES)
{
    if (ES) memcpy(dst, src, ES);
    else if (st->inner_run) memcpy(dst, src, (size_t)(st->inner_count * st->es));
    else dmlc_copy_run_serial(&st->inner, dst, src);
}

/* Gathers: tuples [begin, end).  Scatter: destinations [begin, end) of dest_count. */
static GA_INLINE void nd_body(const nd_state* st, char* w, char* t, const char* idx, uint64_t begin, uint64_t end,
                              const UINT ES, const int KIND, const int SCATTER)
{
    const int64_t es = st->es;
    int64_t ow, ot;
    uint64_t f;
    if (!SCATTER) {
        for (uint64_t j = begin; j < end; ++j) {
            nd_tuple(st, idx, j, &ow, &ot, &f, KIND, 0);
            nd_block(st, w + ow * es, t + ot * es, ES);
        }
        return;
    }
    for (uint64_t j = 0; j < st->tuples.count; ++j)
        if (nd_tuple(st, idx, j, &ow, &ot, &f, KIND, 1) && f >= begin && f < end)
            nd_block(st, t + ot * es, w + ow * es, ES);
}

#define ND_FN(ES, KIND, SC)                                                                                     \
    static void nd_##ES##_##KIND##_##SC(const void* st, char* w, char* t, const char* idx, uint64_t begin,     \
                                        uint64_t end)                                                        \
    {                                                                                                        \
        nd_body((const nd_state*)st, w, t, idx, begin, end, ES, KIND, SC);                                   \
    }
#define ND_FNS(KIND, SC) ND_FN(0, KIND, SC) ND_FN(1, KIND, SC) ND_FN(2, KIND, SC) ND_FN(4, KIND, SC) ND_FN(8, KIND, SC)
ND_FNS(0, 0) ND_FNS(1, 0) ND_FNS(2, 0) ND_FNS(3, 0)
ND_FNS(0, 1) ND_FNS(1, 1) ND_FNS(2, 1) ND_FNS(3, 1)
#undef ND_FNS
#undef ND_FN

/* The gathers' single elements (data[b+k..r) empty: one element per tuple) of 4 or 8 bytes
 * with tuples of K = 2 or 3 coordinates in one merged tuple dimension (a packed index
 * tensor, or a single tuple): a gather of pixels or of a matrix's entries, where each
 * tuple is one random read and the per-tuple work is the cost.  The sizes and strides are
 * hoisted into locals, the K coordinates unrolled, and the element moved as one load and
 * one store: no loop over coordinates, no division, no call per tuple. */
static GA_INLINE void nd_elements_body(const nd_state* st, char* w, const char* t, const char* idx, uint64_t begin,
                                       uint64_t end, const UINT ES, const int KIND, const UINT K)
{
    const ga_dims* g = &st->tuples;
    const int64_t xs = st->xs, xj = g->nd ? g->a[0] * xs : 0, wj = g->nd ? g->b[0] * (int64_t)ES : 0;
    const int64_t tj = g->nd ? g->c[0] : 0, xc = st->x_comp * xs;
    const uint64_t n0 = st->n[0], n1 = st->n[1], n2 = K == 3 ? st->n[2] : 1;
    const int64_t s0 = st->t_st[0], s1 = st->t_st[1], s2 = K == 3 ? st->t_st[2] : 0;
    const char* xp = idx + (int64_t)begin * xj;
    char* wp = w + (int64_t)begin * wj;
    for (uint64_t j = begin; j < end; ++j, xp += xj, wp += wj) {
        int64_t o = (int64_t)j * tj + (int64_t)index_at(xp, KIND, n0) * s0 + (int64_t)index_at(xp + xc, KIND, n1) * s1;
        if (K == 3) o += (int64_t)index_at(xp + 2 * xc, KIND, n2) * s2;
        memcpy(wp, t + o * (int64_t)ES, ES);
    }
}

#define NE_FN(ES, KIND, K)                                                                                      \
    static void ne_##ES##_##KIND##_##K(const void* st, char* w, char* t, const char* idx, uint64_t begin,      \
                                       uint64_t end)                                                         \
    {                                                                                                        \
        nd_elements_body((const nd_state*)st, w, t, idx, begin, end, ES, KIND, K);                           \
    }
#define NE_FNS(KIND) NE_FN(4, KIND, 2) NE_FN(4, KIND, 3) NE_FN(8, KIND, 2) NE_FN(8, KIND, 3)
NE_FNS(0) NE_FNS(1) NE_FNS(2) NE_FNS(3)
#undef NE_FNS
#undef NE_FN

static ix_fn nd_body_fn_for(UINT es, int kind, int scatter)
{
#define ND_ROW(KIND, SC) {nd_0_##KIND##_##SC, nd_1_##KIND##_##SC, nd_2_##KIND##_##SC, nd_4_##KIND##_##SC, nd_8_##KIND##_##SC}
    static const ix_fn table[2][4][5] = {{ND_ROW(0, 0), ND_ROW(1, 0), ND_ROW(2, 0), ND_ROW(3, 0)},
                                         {ND_ROW(0, 1), ND_ROW(1, 1), ND_ROW(2, 1), ND_ROW(3, 1)}};
#undef ND_ROW
    const int e = es == 0 ? 0 : es == 1 ? 1 : es == 2 ? 2 : es == 4 ? 3 : 4;
    return table[scatter][kind][e];
}

/* The kernel: nd_elements_body's where it applies, else nd_body's by element size (0: a
 * block of several elements), index kind and direction. */
static ix_fn nd_fn_for(const nd_state* st, int kind, int scatter)
{
#define NE_ROW(KIND) {ne_4_##KIND##_2, ne_4_##KIND##_3, ne_8_##KIND##_2, ne_8_##KIND##_3}
    static const ix_fn elements[4][4] = {NE_ROW(0), NE_ROW(1), NE_ROW(2), NE_ROW(3)};
#undef NE_ROW
    if (!scatter && st->inner_count == 1 && (st->es == 4 || st->es == 8) && (st->k == 2 || st->k == 3) &&
        st->tuples.nd <= 1)
        return elements[kind][(st->es == 8) * 2 + (st->k == 3)];
    return nd_body_fn_for(st->inner_count == 1 ? st->es : 0, kind, scatter);
}

static void gather_nd_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const nd_state* st = (const nd_state*)op->state;
    ix_run(st->fn, st, (char*)out[0], (char*)in[0], (const char*)in[1], st->tuples.count,
           op->outputs[0].count * st->es * 2 + op->inputs[1].count * st->xs);
}

static void scatter_nd_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const nd_state* st = (const nd_state*)op->state;
    /* Bound in place (output at exactly the input's memory, one layout): nothing to copy. */
    if (out[0] != in[0]) dmlc_copy_run(&st->copy, out[0], in[0]);
    /* Every range reads every index: one range per thread, and only for enough updates. */
    ix_run(st->fn, st, (char*)in[2], (char*)out[0], (const char*)in[1], st->dest_count,
           op->inputs[2].count * st->es * 2);
}

static ix_args read_nd_args(DML_OPERATOR_TYPE type, const void* desc)
{
    ix_args a;
    a.axis = 0;
    if (type == DML_OPERATOR_SCATTER_ND) {
        const DML_SCATTER_ND_OPERATOR_DESC* d = (const DML_SCATTER_ND_OPERATOR_DESC*)desc;
        a.in = d->InputTensor;
        a.idx = d->IndicesTensor;
        a.upd = d->UpdatesTensor;
        a.out = d->OutputTensor;
        a.r = d->InputDimensionCount;
        a.q = d->IndicesDimensionCount;
        a.b = 0;
    } else if (type == DML_OPERATOR_GATHER_ND1) {
        const DML_GATHER_ND1_OPERATOR_DESC* d = (const DML_GATHER_ND1_OPERATOR_DESC*)desc;
        a.in = d->InputTensor;
        a.idx = d->IndicesTensor;
        a.upd = NULL;
        a.out = d->OutputTensor;
        a.r = d->InputDimensionCount;
        a.q = d->IndicesDimensionCount;
        a.b = d->BatchDimensionCount;
    } else {
        const DML_GATHER_ND_OPERATOR_DESC* d = (const DML_GATHER_ND_OPERATOR_DESC*)desc;
        a.in = d->InputTensor;
        a.idx = d->IndicesTensor;
        a.upd = NULL;
        a.out = d->OutputTensor;
        a.r = d->InputDimensionCount;
        a.q = d->IndicesDimensionCount;
        a.b = 0;
    }
    return a;
}

/* Entry e of idx[0..q-1) ++ data[b+k..r) (m entries), and the field and dimension it comes from. */
static UINT nd_result(const ix_args* a, const dmlc_tensor* in, const dmlc_tensor* idx, UINT e, const char** field,
                      UINT* dim)
{
    const UINT D = in->ndim, k = (UINT)idx->sizes[D - 1];
    if (e + 1 < a->q) {
        *field = "IndicesTensor";
        *dim = D - a->q + e;
        return idx->sizes[*dim];
    }
    *field = "InputTensor";
    *dim = D - a->r + a->b + k + (e - (a->q - 1));
    return in->sizes[*dim];
}

/* The counts, the tensors' types, ranks and sizes (upd: SCATTER_ND's UpdatesTensor, NULL for
 * the gathers); the output's sizes into sh: the result's (gathers) or Input's (scatter). */
static HRESULT validate_nd(const char* opname, const ix_args* a, const dmlc_tensor* in, const dmlc_tensor* idx,
                           const dmlc_tensor* upd, const dmlc_tensor* out, dmlc_shapes* sh)
{
    const UINT D = in->ndim;
    UINT k, m;
    HRESULT hr;
    if (upd && (FAILED(hr = dmlc_tensor_same_type(in, "InputTensor", upd, "UpdatesTensor", opname)) ||
                FAILED(hr = dmlc_tensor_same_rank(in, "InputTensor", upd, "UpdatesTensor", opname))))
        return hr;
    if (FAILED(hr = validate_tensors(opname, in, idx, out))) return hr;
    if (a->r < 1 || a->r > D)
        return dmlc_fail(E_INVALIDARG, opname, "InputDimensionCount is %u, expected 1 to %u (InputTensor.DimensionCount)",
                         a->r, D);
    if (a->q < 1 || a->q > D)
        return dmlc_fail(E_INVALIDARG, opname,
                         "IndicesDimensionCount is %u, expected 1 to %u (IndicesTensor.DimensionCount)", a->q, D);
    if (a->b >= a->q || a->b >= a->r)
        return dmlc_fail(E_INVALIDARG, opname,
                         "BatchDimensionCount is %u, expected less than %u (IndicesDimensionCount %u and "
                         "InputDimensionCount %u)",
                         a->b, a->q < a->r ? a->q : a->r, a->q, a->r);
    for (UINT d = 0; d + a->r < D; ++d)
        if (FAILED(hr = dmlc_tensor_expect_size(in, opname, "InputTensor", d, 1,
                                                "only the last InputDimensionCount %u dimensions hold data", a->r)))
            return hr;
    for (UINT d = 0; d + a->q < D; ++d)
        if (FAILED(hr = dmlc_tensor_expect_size(idx, opname, "IndicesTensor", d, 1,
                                                "only the last IndicesDimensionCount %u dimensions hold indices", a->q)))
            return hr;
    k = (UINT)idx->sizes[D - 1];
    if (k < 1 || k > a->r - a->b)
        return dmlc_fail(E_INVALIDARG, opname,
                         "IndicesTensor.Sizes[%u] is %u (the index tuple's length), expected 1 to %u "
                         "(InputDimensionCount %u - BatchDimensionCount %u)",
                         D - 1, k, a->r - a->b, a->r, a->b);
    for (UINT e = 0; e < a->b; ++e)
        if (FAILED(hr = dmlc_tensor_expect_size(idx, opname, "IndicesTensor", D - a->q + e, in->sizes[D - a->r + e],
                                                "InputTensor.Sizes[%u], batch dimension %u of BatchDimensionCount %u",
                                                D - a->r + e, e, a->b)))
            return hr;
    m = a->q - 1 + a->r - a->b - k;
    if (m > D)
        return dmlc_fail(E_INVALIDARG, opname,
                         "%s has %u dimensions (IndicesDimensionCount %u - 1 + InputDimensionCount %u - "
                         "BatchDimensionCount %u - the tuple's length %u), more than InputTensor.DimensionCount %u",
                         upd ? "UpdatesTensor's gathered shape" : "the gathered result", m, a->q, a->r, a->b, k, D);
    for (UINT d = 0; d < D; ++d) {
        const char* field = NULL;
        UINT dim = 0;
        const uint64_t size = d + m < D ? 1 : nd_result(a, in, idx, d + m - D, &field, &dim);
        if (upd) {
            hr = d + m < D ? dmlc_tensor_expect_size(upd, opname, "UpdatesTensor", d, 1, "leading dimensions are 1")
                           : dmlc_tensor_expect_size(upd, opname, "UpdatesTensor", d, size, "%s.Sizes[%u]", field, dim);
            if (FAILED(hr)) return hr;
        }
    }
    dmlc_shape_rank(sh, 0, D);
    for (UINT d = 0; d < D; ++d) {
        const char* field = NULL;
        UINT dim = 0;
        if (upd)
            hr = dmlc_shape_expect(sh, 0, "OutputTensor", d, in->sizes[d], "InputTensor.Sizes[%u]", d);
        else if (d + m < D)
            hr = dmlc_shape_expect(sh, 0, "OutputTensor", d, 1, "leading dimensions are 1");
        else {
            const UINT size = nd_result(a, in, idx, d + m - D, &field, &dim);
            hr = dmlc_shape_expect(sh, 0, "OutputTensor", d, size, "%s.Sizes[%u]", field, dim);
        }
        if (FAILED(hr)) return hr;
    }
    return S_OK;
}

/* w: the walked tensor (the gathers' output, the scatter's updates), t: the indexed one (the
 * gathers' input, the scatter's output). */
static void plan_nd(nd_state* st, const ix_args* a, const dmlc_tensor* in, const dmlc_tensor* idx,
                    const dmlc_tensor* w, const dmlc_tensor* t, int scatter)
{
    const UINT D = in->ndim, k = (UINT)idx->sizes[D - 1], b = a->b;
    const UINT data0 = D - a->r, idx0 = D - a->q, m = a->q - 1 + a->r - b - k, w0 = D - m;
    uint64_t sizes[DMLC_MAX_DIMS];
    int64_t sa[DMLC_MAX_DIMS], sb[DMLC_MAX_DIMS], sc[DMLC_MAX_DIMS];
    UINT s = 0;
    memset(st, 0, sizeof *st);
    st->es = in->elem_size;
    st->xs = idx->elem_size;
    st->k = k;
    st->x_comp = (int64_t)idx->strides[D - 1];
    st->dest_count = 1;
    for (UINT c = k; c-- > 0;) {
        st->n[c] = t->sizes[data0 + b + c];
        st->t_st[c] = (int64_t)t->strides[data0 + b + c];
        st->dest_st[c] = st->dest_count;
        st->dest_count *= st->n[c];
    }
    /* The tuples: W's dimensions w0 .. w0 + q - 1; the batch ones step T too. */
    for (UINT e = 0; e + 1 < a->q; ++e) {
        sizes[e] = idx->sizes[idx0 + e];
        sa[e] = (int64_t)idx->strides[idx0 + e];
        sb[e] = (int64_t)w->strides[w0 + e];
        sc[e] = e < b ? (int64_t)t->strides[data0 + e] : 0;
    }
    dims_init(&st->tuples, a->q - 1, sizes, sa, sb, sc);
    st->inner_count = 1;
    for (UINT d = data0 + b + k; d < D; ++d, ++s) {
        sizes[s] = t->sizes[d];
        sa[s] = (int64_t)(scatter ? t->strides[d] : w->strides[w0 + a->q - 1 + s]);
        sb[s] = (int64_t)(scatter ? w->strides[w0 + a->q - 1 + s] : t->strides[d]);
        st->inner_count *= sizes[s];
    }
    dmlc_copy_plan_init(&st->inner, st->es, s, sizes, sa, sb);
    st->inner_run = st->inner.ndim == 0 || (st->inner.ndim == 1 && st->inner.dst_strides[0] == 1 &&
                                            st->inner.src_strides[0] == 1);
    if (scatter) {
        for (UINT d = 0; d < D; ++d) {
            sizes[d] = in->sizes[d];
            sa[d] = (int64_t)t->strides[d];
            sb[d] = (int64_t)in->strides[d];
        }
        dmlc_copy_plan_init(&st->copy, st->es, D, sizes, sa, sb);
    }
    st->fn = nd_fn_for(st, index_kind(idx->type), scatter);
}

static int is_nd(DML_OPERATOR_TYPE type)
{
    return type == DML_OPERATOR_GATHER_ND || type == DML_OPERATOR_GATHER_ND1 || type == DML_OPERATOR_SCATTER_ND;
}

/* GATHER_ELEMENTS, SCATTER_ELEMENTS, GATHER_ND(1) and SCATTER_ND: their desc's fields, and
 * the validation of the elements' or ND rules (upd NULL for a gather, out NULL when inferring). */
static ix_args read_indexing(DML_OPERATOR_TYPE type, const void* desc)
{
    return is_nd(type) ? read_nd_args(type, desc) : read_elements_args(type, desc);
}

static HRESULT validate_indexing_op(DML_OPERATOR_TYPE type, const char* opname, const ix_args* a, const dmlc_tensor* in,
                                    const dmlc_tensor* idx, const dmlc_tensor* upd, const dmlc_tensor* out,
                                    dmlc_shapes* sh)
{
    return is_nd(type) ? validate_nd(opname, a, in, idx, upd, out, sh)
                       : validate_elements(opname, a, in, idx, upd, out, sh);
}

static HRESULT infer_indexing(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const ix_args a = read_indexing(type, desc);
    dmlc_tensor in, idx, upd;
    dmlc_tensor* u = type == DML_OPERATOR_SCATTER_ELEMENTS || type == DML_OPERATOR_SCATTER_ND ? &upd : NULL;
    HRESULT hr;
    if (FAILED(hr = dmlc_shapes_count(sh, 1)) ||
        FAILED(hr = init_tensors(opname, a.in, a.idx, a.upd, NULL, &in, &idx, u, NULL)))
        return hr;
    return validate_indexing_op(type, opname, &a, &in, &idx, u, NULL, sh);
}

static HRESULT create_indexing(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const ix_args a = read_indexing(type, desc);
    const int scatter = type == DML_OPERATOR_SCATTER_ELEMENTS || type == DML_OPERATOR_SCATTER_ND;
    dmlc_tensor in, idx, upd, out;
    dmlc_tensor* u = scatter ? &upd : NULL;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    DMLC_OPERATOR_T* o;
    HRESULT hr;
    if (FAILED(hr = init_tensors(opname, a.in, a.idx, a.upd, a.out, &in, &idx, u, &out)) ||
        FAILED(hr = validate_indexing_op(type, opname, &a, &in, &idx, u, &out, &sh)))
        return hr;
    o = alloc_indexing(type, opname, &in, &idx, u, &out, is_nd(type) ? sizeof(nd_state) : sizeof(ge_state));
    if (!o) return E_OUTOFMEMORY;
    /* w: the walked tensor (a gather's output, a scatter's updates), t: the indexed one (a
     * gather's input, a scatter's output). */
    if (is_nd(type)) {
        o->execute = scatter ? scatter_nd_execute : gather_nd_execute;
        plan_nd((nd_state*)o->state, &a, &in, &idx, scatter ? &upd : &out, scatter ? &out : &in, scatter);
    } else {
        o->execute = scatter ? scatter_elements_execute : gather_elements_execute;
        plan_elements((ge_state*)o->state, &a, &in, &idx, scatter ? &upd : &out, scatter ? &out : &in, scatter);
    }
    *op = o;
    return S_OK;
}

HRESULT dmlc_infer_gather(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const DML_GATHER_OPERATOR_DESC* d = (const DML_GATHER_OPERATOR_DESC*)desc;
    gather_args a;
    dmlc_tensor in, idx;
    HRESULT hr;
    if (type != DML_OPERATOR_GATHER) return infer_indexing(type, opname, desc, sh);
    a = read_args(d);
    if (FAILED(hr = dmlc_shapes_count(sh, 1)) ||
        FAILED(hr = dmlc_tensor_init(&in, d->InputTensor, opname, "InputTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT_MAY_BE_EMPTY)) ||
        FAILED(hr = dmlc_tensor_init(&idx, d->IndicesTensor, opname, "IndicesTensor", 1, DMLC_MAX_DIMS,
                                     DMLC_INPUT_MAY_BE_EMPTY)))
        return hr;
    return validate(opname, &a, &in, &idx, NULL, sh);
}

HRESULT dmlc_create_gather(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const DML_GATHER_OPERATOR_DESC* d = (const DML_GATHER_OPERATOR_DESC*)desc;
    gather_args a;
    dmlc_tensor in, idx, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    DMLC_OPERATOR_T* o;
    HRESULT hr;
    if (type != DML_OPERATOR_GATHER) return create_indexing(type, opname, desc, op);
    a = read_args(d);
    if (FAILED(hr = dmlc_tensor_init(&in, d->InputTensor, opname, "InputTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&idx, d->IndicesTensor, opname, "IndicesTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&out, d->OutputTensor, opname, "OutputTensor", 1, DMLC_MAX_DIMS, DMLC_OUTPUT)) ||
        FAILED(hr = validate(opname, &a, &in, &idx, &out, &sh)))
        return hr;
    o = dmlc_operator_alloc(type, opname, 2, 1, sizeof(ga_state));
    if (!o) return E_OUTOFMEMORY;
    o->inputs[0] = in;
    o->inputs[1] = idx;
    o->outputs[0] = out;
    o->execute = gather_execute;
    plan((ga_state*)o->state, &a, &in, &idx, &out);
    *op = o;
    return S_OK;
}
