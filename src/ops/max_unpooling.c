/* max_unpooling.c - DML_OPERATOR_MAX_UNPOOLING.
 *
 * Input and IndicesTensor {N, C, spatial...} (1 to 3 spatial dimensions) have the same
 * sizes; the output {N, C, spatial'...} keeps N and C and has sizes of its own (they are
 * the operator's parameter).  The output is filled with zeros, then for every input
 * element i in row-major order
 *     out.flat[indices[i]] = in[i]
 * where out.flat is the output's logical row-major order (its Strides do not change it),
 * as MAX_POOLING1/2's OutputIndicesTensor counts.  DirectML leaves two cases open, which
 * docs/operators/max_unpooling.rst fixes: of two elements with the same index the later one wins, and an
 * index past the output (the all-ones index of a pooling window of padding included)
 * writes nothing.  Example: a 4x4 plane pooled 2x2/2 gives values {5, 8, 11, 6} at
 * indices {1, 6, 13, 10}; unpooled into {1, 1, 4, 4} they land at rows 0, 1, 3, 2,
 * columns 1, 2, 1, 2, and the other twelve elements are 0.
 *
 * Threads.  The rule is sequential, so threads must never change which write lands last.
 * Indices that come from max pooling stay in their plane: input plane p = n*C + c points
 * into output plane p, flat indices [p*P, (p+1)*P) with P the output's elements per
 * plane.  Work is cut into items (plane p, part [lo, hi) of its P elements): an item
 * zero-fills its part, then reads the plane's inputs in order and writes those whose index
 * falls in its part.  Each output element belongs to one item, which writes it in input
 * order, so the result is the sequential one.  Planes are cut into parts only when there
 * are too few planes to share out (each part reads its plane's inputs again).  An index
 * that leaves its plane but stays inside the output cannot be placed this way (elements of
 * an earlier plane must land before this plane's, a later plane's after): the item notes
 * it and writes nothing, and the whole output is then redone on one thread in input order.
 *
 * Memory.  Scattered stores into memory that is not cached read each line in first, so
 * zeroing the output and then scattering into it moves the output three times.  Where the
 * output is packed, an item instead zeroes a scratch buffer of its part's size (cached,
 * reused item after item), scatters into it, and copies it out in one sequential pass,
 * with non-temporal stores for large outputs: the output is written once.  The scratch is
 * allocated per call of mu_items; without it (a part too large to stay cached, or no
 * memory) the item writes the output directly, which is only slower. */
#include "../dmlc_internal.h"

#include <stdlib.h>
#include <string.h>

#define MU_SPATIAL 3 /* internal spatial dimensions: D, H, W (missing leading ones have size 1) */
#define MU_SCRATCH_MAX ((uint64_t)1 << 19) /* bytes of scratch per item: half a typical L2 */

#if defined(__GNUC__) || defined(__clang__)
#  define MU_INLINE __attribute__((always_inline)) inline
#elif defined(_MSC_VER)
#  define MU_INLINE __forceinline
#else
#  define MU_INLINE inline
#endif

typedef struct mu_state mu_state;
typedef struct mu_item mu_item;
/* Scans one input plane (see mu_scan_body); returns nonzero if an index left its plane. */
typedef int (*mu_scan_fn)(const mu_state* st, const mu_item* it);

struct mu_state {
    UINT elem_size;
    UINT idx_size;                   /* 4 or 8 */
    uint64_t channels;               /* C */
    uint64_t planes;                 /* N * C */
    uint64_t plane_count;            /* P: output elements per plane */
    uint64_t out_count;              /* N * C * P */
    uint64_t in_plane_count;         /* input elements per plane */
    int64_t in_n, in_c, idx_n, idx_c, out_n, out_c;   /* strides of N and C, in elements */
    uint64_t in_sizes[MU_SPATIAL];   /* D, H, W of the input (and indices) */
    int64_t in_st[MU_SPATIAL], idx_st[MU_SPATIAL];
    uint64_t out_sizes[MU_SPATIAL];  /* D, H, W of the output */
    int64_t out_st[MU_SPATIAL];
    int out_packed;                  /* the output plane is row-major packed: offset = plane-local index */
    int stream;                      /* large output: copy scratch out with non-temporal stores */
    mu_scan_fn scan;                 /* MU_RUN where the output is packed, else MU_STRIDED */
    mu_scan_fn scan_global;          /* MU_FLAT where the whole output is packed, else MU_GLOBAL */
};

/* One work item: input plane p, and the part [lo, lo + len) of output plane p it owns
 * (MU_GLOBAL: the whole output, sequentially, for the redo). */
struct mu_item {
    const char* in;      /* input plane p's first element */
    const char* idx;     /* indices plane p's first element */
    char* out;           /* MU_RUN: where element lo goes (the output or a scratch buffer);
                            MU_STRIDED: output plane p's first element; MU_GLOBAL: the output */
    uint64_t base;       /* p * P: the flat index of output plane p's first element */
    uint64_t lo, len;
};

/* Where the scan writes: MU_RUN, a packed run (element local goes to out + local - lo);
 * MU_STRIDED, a plane with the output's strides; MU_GLOBAL, anywhere in the output;
 * MU_FLAT, anywhere in a packed output (element k goes to out + k). */
enum { MU_RUN = 0, MU_STRIDED = 1, MU_GLOBAL = 2, MU_FLAT = 3 };

/* The offset, in elements, of plane-local output index `local` from its plane's start. */
static MU_INLINE int64_t mu_out_offset(const mu_state* st, uint64_t local)
{
    uint64_t w, h, d;
    if (st->out_packed) return (int64_t)local;
    w = local % st->out_sizes[2];
    h = local / st->out_sizes[2] % st->out_sizes[1];
    d = local / st->out_sizes[2] / st->out_sizes[1];
    return (int64_t)d * st->out_st[0] + (int64_t)h * st->out_st[1] + (int64_t)w * st->out_st[2];
}

/* The offset of output plane q (= n*C + c) from the output's start. */
static int64_t mu_plane_offset(const mu_state* st, uint64_t q)
{
    return (int64_t)(q / st->channels) * st->out_n + (int64_t)(q % st->channels) * st->out_c;
}

/* Reads the input plane in row-major order, with the value size ES, the index size XS and
 * the write mode MODE fixed by the caller so that each instantiation is a plain copy loop.
 * An item writes the elements whose index lies in its part; MU_GLOBAL writes every index
 * inside the output. */
static MU_INLINE int mu_scan_body(const mu_state* st, const mu_item* it, const UINT ES, const UINT XS, const int MODE)
{
    const uint64_t P = st->plane_count, lo = it->lo, len = it->len, count = st->out_count, base = it->base;
    const uint64_t D = st->in_sizes[0], H = st->in_sizes[1], W = st->in_sizes[2];
    const int64_t vs = st->in_st[2] * (int64_t)ES, xs = st->idx_st[2] * (int64_t)XS;
    char* const out = it->out;
    int escaped = 0;
    for (uint64_t d = 0; d < D; ++d)
        for (uint64_t h = 0; h < H; ++h) {
            const char* v = it->in + ((int64_t)d * st->in_st[0] + (int64_t)h * st->in_st[1]) * (int64_t)ES;
            const char* x = it->idx + ((int64_t)d * st->idx_st[0] + (int64_t)h * st->idx_st[1]) * (int64_t)XS;
            for (uint64_t w = 0; w < W; ++w, v += vs, x += xs) {
                uint64_t k, local;
                if (XS == 4) {
                    uint32_t k32;
                    memcpy(&k32, x, 4);
                    k = k32;
                } else {
                    memcpy(&k, x, 8);
                }
                if (MODE == MU_FLAT) {
                    if (k < count) memcpy(out + (int64_t)k * (int64_t)ES, v, ES);
                    continue;
                }
                if (MODE == MU_GLOBAL) {
                    if (k < count)
                        memcpy(out + (mu_plane_offset(st, k / P) + mu_out_offset(st, k % P)) * (int64_t)ES, v, ES);
                    continue;
                }
                local = k - base; /* wraps past P when k lies before the plane */
                if (local - lo < len) {
                    if (MODE == MU_RUN) memcpy(out + (int64_t)(local - lo) * (int64_t)ES, v, ES);
                    else memcpy(out + mu_out_offset(st, local) * (int64_t)ES, v, ES);
                } else if (local >= P && k < count) {
                    escaped = 1;
                }
            }
        }
    return escaped;
}

#define MU_SCAN(ES, XS, MODE)                                                               \
    static int mu_scan_##ES##_##XS##_##MODE(const mu_state* st, const mu_item* it)          \
    {                                                                                       \
        return mu_scan_body(st, it, ES, XS, MODE);                                          \
    }
#define MU_SCANS(MODE)                                                                      \
    MU_SCAN(1, 4, MODE) MU_SCAN(2, 4, MODE) MU_SCAN(4, 4, MODE) MU_SCAN(8, 4, MODE)         \
    MU_SCAN(1, 8, MODE) MU_SCAN(2, 8, MODE) MU_SCAN(4, 8, MODE) MU_SCAN(8, 8, MODE)
MU_SCANS(0) MU_SCANS(1) MU_SCANS(2) MU_SCANS(3)
#undef MU_SCANS
#undef MU_SCAN

static mu_scan_fn mu_scan_for(UINT elem_size, UINT idx_size, int mode)
{
#define MU_ROW(MODE)                                                                        \
    {{mu_scan_1_4_##MODE, mu_scan_2_4_##MODE, mu_scan_4_4_##MODE, mu_scan_8_4_##MODE},      \
     {mu_scan_1_8_##MODE, mu_scan_2_8_##MODE, mu_scan_4_8_##MODE, mu_scan_8_8_##MODE}}
    static const mu_scan_fn table[4][2][4] = {MU_ROW(0), MU_ROW(1), MU_ROW(2), MU_ROW(3)};
#undef MU_ROW
    const int e = elem_size == 1 ? 0 : elem_size == 2 ? 1 : elem_size == 4 ? 2 : 3;
    return table[mode][idx_size == 8][e];
}

/* Zeros output elements [lo, lo + len) of the plane at `plane`. */
static void mu_zero(const mu_state* st, char* plane, uint64_t lo, uint64_t len)
{
    const int64_t es = st->elem_size;
    if (st->out_packed) {
        memset(plane + (int64_t)lo * es, 0, (size_t)(len * (uint64_t)es));
        return;
    }
    for (uint64_t i = lo; i < lo + len; ++i) memset(plane + mu_out_offset(st, i) * es, 0, (size_t)es);
}

typedef struct mu_job {
    const mu_state* st;
    const char* in;
    const char* idx;
    char* out;
    uint64_t split;        /* parts per plane */
    volatile int escaped;  /* an index left its plane: redo sequentially */
} mu_job;

static void mu_items(void* vjob, uint64_t begin, uint64_t end)
{
    mu_job* job = (mu_job*)vjob;
    const mu_state* st = job->st;
    const uint64_t split = job->split, P = st->plane_count, part = P / split, extra = P % split;
    const uint64_t es = st->elem_size, most = part + (extra != 0);
    /* The scratch of packed outputs: a part that stays in a core's cache. */
    char* scratch = st->out_packed && most * es <= MU_SCRATCH_MAX ? (char*)malloc((size_t)(most * es)) : NULL;
    int escaped = 0;
    for (uint64_t item = begin; item < end; ++item) {
        const uint64_t p = item / split, q = item % split;
        const uint64_t n = p / st->channels, c = p % st->channels;
        char* plane = job->out + mu_plane_offset(st, p) * (int64_t)es;
        mu_item it;
        it.in = job->in + ((int64_t)n * st->in_n + (int64_t)c * st->in_c) * (int64_t)es;
        it.idx = job->idx + ((int64_t)n * st->idx_n + (int64_t)c * st->idx_c) * (int64_t)st->idx_size;
        it.base = p * P;
        it.lo = q * part + (q < extra ? q : extra);
        it.len = part + (q < extra);
        if (scratch) {
            it.out = scratch;
            memset(scratch, 0, (size_t)(it.len * es));
            escaped |= st->scan(st, &it);
            if (st->stream) dmlc_copy_stream(plane + it.lo * es, scratch, (size_t)(it.len * es));
            else memcpy(plane + it.lo * es, scratch, (size_t)(it.len * es));
        } else {
            it.out = st->out_packed ? plane + it.lo * es : plane;
            mu_zero(st, plane, it.lo, it.len);
            escaped |= st->scan(st, &it);
        }
    }
    if (scratch && st->stream) dmlc_stream_fence();
    free(scratch);
    if (escaped) job->escaped = 1;
}

/* Zeros whole planes [begin, end): the sequential redo's first step. */
static void mu_zero_planes(void* vjob, uint64_t begin, uint64_t end)
{
    const mu_job* job = (const mu_job*)vjob;
    for (uint64_t p = begin; p < end; ++p)
        mu_zero(job->st, job->out + mu_plane_offset(job->st, p) * (int64_t)job->st->elem_size, 0, job->st->plane_count);
}

static void max_unpooling_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const mu_state* st = (const mu_state*)op->state;
    const uint64_t out_bytes = st->out_count * st->elem_size;
    const uint64_t in_bytes = st->planes * st->in_plane_count * (st->elem_size + st->idx_size);
    const uint64_t threads = dmlc_threads_for(out_bytes + in_bytes);
    mu_job job;
    job.st = st;
    job.in = (const char*)in[0];
    job.idx = (const char*)in[1];
    job.out = (char*)out[0];
    job.escaped = 0;
    /* A few items per thread; a plane is cut only when there are fewer planes than that,
     * and never into parts of fewer than 4096 elements (each part rereads the plane's input). */
    job.split = 1;
    if (threads > 1 && st->planes < 4 * threads) {
        uint64_t want = (4 * threads + st->planes - 1) / st->planes, most = st->plane_count / 4096;
        job.split = want < most ? want : (most ? most : 1);
    }
    dmlc_parallel_for(st->planes * job.split, out_bytes + in_bytes * job.split, mu_items, &job);
    if (job.escaped) {
        mu_item it;
        dmlc_parallel_for(st->planes, out_bytes, mu_zero_planes, &job);
        it.out = job.out;
        it.base = 0;
        it.lo = 0;
        it.len = 0;
        for (uint64_t p = 0; p < st->planes; ++p) {
            const uint64_t n = p / st->channels, c = p % st->channels;
            it.in = job.in + ((int64_t)n * st->in_n + (int64_t)c * st->in_c) * (int64_t)st->elem_size;
            it.idx = job.idx + ((int64_t)n * st->idx_n + (int64_t)c * st->idx_c) * (int64_t)st->idx_size;
            st->scan_global(st, &it);
        }
    }
}

/* ---- Creation ------------------------------------------------------------------------------ */

/* The indices against the input, and the output's N and C; the output's sizes into sh
 * (they are the operator's parameter: sh only repeats them, in infer mode). */
static HRESULT validate(const char* opname, const dmlc_tensor* in, const dmlc_tensor* idx, const dmlc_tensor* out,
                        dmlc_shapes* sh)
{
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_same_rank(in, "InputTensor", idx, "IndicesTensor", opname))) return hr;
    for (UINT d = 0; d < in->ndim; ++d)
        if (FAILED(hr = dmlc_tensor_expect_size(idx, opname, "IndicesTensor", d, in->sizes[d], "InputTensor.Sizes[%u]",
                                                d)))
            return hr;
    if (FAILED(hr = dmlc_tensor_same_type(in, "InputTensor", out, "OutputTensor", opname)) ||
        FAILED(hr = dmlc_tensor_same_rank(in, "InputTensor", out, "OutputTensor", opname)))
        return hr;
    for (UINT d = 0; d < 2; ++d)
        if (FAILED(hr = dmlc_tensor_expect_size(out, opname, "OutputTensor", d, in->sizes[d], "InputTensor.Sizes[%u]", d)))
            return hr;
    dmlc_shape_rank(sh, 0, out->ndim);
    for (UINT d = 0; d < out->ndim; ++d)
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", d, out->sizes[d], "MAX_UNPOOLING's parameter")))
            return hr;
    return S_OK;
}

/* The kernel's view of the validated tensors into st. */
static void plan(mu_state* st, const dmlc_tensor* in, const dmlc_tensor* idx, const dmlc_tensor* out)
{
    const UINT sp = in->ndim - 2, lead = MU_SPATIAL - sp;
    uint64_t packed = 1;
    memset(st, 0, sizeof *st);
    for (UINT i = 0; i < MU_SPATIAL; ++i) st->in_sizes[i] = st->out_sizes[i] = 1;
    for (UINT i = 0; i < sp; ++i) {
        st->in_sizes[lead + i] = in->sizes[i + 2];
        st->in_st[lead + i] = (int64_t)in->strides[i + 2];
        st->idx_st[lead + i] = (int64_t)idx->strides[i + 2];
        st->out_sizes[lead + i] = out->sizes[i + 2];
        st->out_st[lead + i] = (int64_t)out->strides[i + 2];
    }
    /* Packed: each spatial stride steps over the dimensions inside it (a size-1 dimension
     * never steps, whatever its stride). */
    st->out_packed = 1;
    for (UINT i = MU_SPATIAL; i-- > 0;) {
        if (st->out_sizes[i] > 1 && (uint64_t)st->out_st[i] != packed) st->out_packed = 0;
        packed *= st->out_sizes[i];
    }
    st->elem_size = in->elem_size;
    st->idx_size = idx->elem_size;
    st->channels = in->sizes[1];
    st->planes = (uint64_t)in->sizes[0] * in->sizes[1];
    st->plane_count = packed;
    st->out_count = out->count;
    st->in_plane_count = st->in_sizes[0] * st->in_sizes[1] * st->in_sizes[2];
    st->in_n = (int64_t)in->strides[0];
    st->in_c = (int64_t)in->strides[1];
    st->idx_n = (int64_t)idx->strides[0];
    st->idx_c = (int64_t)idx->strides[1];
    st->out_n = (int64_t)out->strides[0];
    st->out_c = (int64_t)out->strides[1];
    st->scan = mu_scan_for(st->elem_size, st->idx_size, st->out_packed ? MU_RUN : MU_STRIDED);
    /* The whole output packed: N and C step over whole planes (or never step). */
    st->scan_global = mu_scan_for(st->elem_size, st->idx_size,
                                  st->out_packed && (st->out_c == (int64_t)packed || in->sizes[1] == 1) &&
                                  (st->out_n == (int64_t)(packed * in->sizes[1]) || in->sizes[0] == 1) ? MU_FLAT : MU_GLOBAL);
    /* Non-temporal copies pay only for large outputs written in long runs. */
    st->stream = out->count * out->elem_size >= DMLC_STREAM_MIN_BYTES && st->plane_count * out->elem_size >= 4096 &&
                 dmlc_cpu_has(DMLC_CPU_SSE2);
}

HRESULT dmlc_infer_max_unpooling(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const DML_MAX_UNPOOLING_OPERATOR_DESC* d = (const DML_MAX_UNPOOLING_OPERATOR_DESC*)desc;
    dmlc_tensor in, idx, out;
    HRESULT hr;
    (void)type;
    if (FAILED(hr = dmlc_shapes_count(sh, 1)) ||
        FAILED(hr = dmlc_tensor_init(&in, d->InputTensor, opname, "InputTensor", 3, 5, dmlc_shapes_input_role(sh))) ||
        FAILED(hr = dmlc_tensor_init(&idx, d->IndicesTensor, opname, "IndicesTensor", 3, 5, dmlc_shapes_input_role(sh))))
        return hr;
    /* The output's sizes cannot be derived (unpooling does not know the pooling window):
     * they are the operator's parameter, read from OutputTensor, whose other fields are
     * not looked at. */
    if (!d->OutputTensor)
        return dmlc_fail(E_POINTER, opname, "OutputTensor is NULL; MAX_UNPOOLING's output sizes are its parameter, "
                         "so dmlcInferOutputSizes reads them from OutputTensor's DimensionCount and Sizes");
    if (FAILED(hr = dmlc_tensor_init(&out, d->OutputTensor, opname, "OutputTensor", 3, 5, DMLC_INPUT_MAY_BE_EMPTY)))
        return hr;
    return validate(opname, &in, &idx, &out, sh);
}

HRESULT dmlc_create_max_unpooling(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const DML_MAX_UNPOOLING_OPERATOR_DESC* d = (const DML_MAX_UNPOOLING_OPERATOR_DESC*)desc;
    dmlc_tensor in, idx, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    DMLC_OPERATOR_T* o;
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_init(&in, d->InputTensor, opname, "InputTensor", 3, 5, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&idx, d->IndicesTensor, opname, "IndicesTensor", 3, 5, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&out, d->OutputTensor, opname, "OutputTensor", 3, 5, DMLC_OUTPUT)) ||
        FAILED(hr = validate(opname, &in, &idx, &out, &sh)))
        return hr;
    o = dmlc_operator_alloc(type, opname, 2, 1, sizeof(mu_state));
    if (!o) return E_OUTOFMEMORY;
    o->inputs[0] = in;
    o->inputs[1] = idx;
    o->outputs[0] = out;
    o->execute = max_unpooling_execute;
    plan((mu_state*)o->state, &in, &idx, &out);
    *op = o;
    return S_OK;
}
