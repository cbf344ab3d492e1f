/* reverse.c - DML_OPERATOR_REVERSE_SUBSEQUENCES: the first L elements of every sequence along
 * Axis reversed, the rest copied (docs/operators/reverse_subsequences.rst).
 *
 * D dimensions everywhere (1 to 8), Axis < D; SequenceLengthsTensor (UINT32 or UINT64) has
 * InputTensor's sizes with 1 on Axis, OutputTensor InputTensor's sizes and type.  With n =
 * Input.Sizes[Axis] and, for each output position c, L = min(SequenceLengths[c with c[Axis]
 * = 0], n) (a length past n is clamped, as the page says):
 *     out[c] = in[c with c[Axis] = L - 1 - c[Axis]]   where c[Axis] < L,
 *     out[c] = in[c]                                  elsewhere (so lengths 0 and 1 copy).
 * Example: Axis 1, in [[1, 2, 3, 4], [5, 6, 7, 8]], lengths [[2], [9]]: L 2 and 4,
 * out [[2, 1, 3, 4], [8, 7, 6, 5]].
 *
 * Moving an element never looks at it, so the kernels are chosen by element size (1, 2, 4,
 * 8 bytes) and the lengths' type, once, at creation.  The work is cut into rows:
 *   - Axis is the last dimension of size > 1: a row is one sequence, its L read once; the
 *     reversed part is a backwards loop, the rest a copy (memcpy when contiguous);
 *   - otherwise a row is the run of the last dimension at one position of every other
 *     dimension, Axis included (position i): each element reads row r = L - 1 - i if i < L,
 *     else i, of its own sequence.  Where the lengths do not change along the run (a
 *     broadcast lengths tensor, stride 0: one length per batch, as ONNX ReverseSequence
 *     has) the whole row comes from one source row: a memcpy.
 * Rows are shared across threads; a few long rows are cut into pieces so every thread has
 * work. */
#include "../dmlc_internal.h"

#include <string.h>

#define RS_MIN_PIECE_BYTES ((uint64_t)1 << 16) /* the shortest piece a long row is cut into */
#define RS_STREAM_MIN_RUN 512                   /* the shortest row streamed (bytes) */
#define RS_PREFETCH_MAX_RUN 4096                /* the longest source run prefetched (bytes) */
#ifndef RS_PREFETCH_AHEAD
#  define RS_PREFETCH_AHEAD 4                   /* rows ahead of the one copied (3 to 6 measured alike) */
#endif

#if defined(__GNUC__) || defined(__clang__)
#  define RS_PREFETCH(p) __builtin_prefetch((p), 0, 0)
#else
#  define RS_PREFETCH(p) ((void)(p))
#endif

typedef struct rs_state rs_state;
/* One row piece [j0, j1): out, in and len at the row's start (in without Axis's offset when
 * Axis is not the run); i the row's position on Axis (not the run). */
typedef void (*rs_row_fn)(const rs_state* st, char* out, const char* in, const char* len, uint64_t i, uint64_t j0,
                          uint64_t j1);

struct rs_state {
    rs_row_fn row;
    UINT es;
    uint64_t n;                 /* Input.Sizes[Axis] */
    int64_t in_ax;              /* InputTensor's stride on Axis (elements) */
    int64_t out_ax_bytes;       /* OutputTensor's stride on Axis (bytes; the block kernel) */
    uint64_t m;                 /* elements per row: n (Axis is the run) or the run's size */
    int64_t in_run, out_run, len_run; /* strides along the run (elements) */
    UINT nd;                    /* the dimensions rows are numbered over, outermost first */
    int axis_dim;               /* which of them is Axis (-1: Axis is the run) */
    uint64_t sizes[DMLC_MAX_DIMS];
    int64_t in_s[DMLC_MAX_DIMS], out_s[DMLC_MAX_DIMS], len_s[DMLC_MAX_DIMS];
    uint64_t rows, pieces;      /* tasks = rows x pieces */
    int stream;                 /* copy contiguous runs with non-temporal stores */
    int prefetch;               /* prefetch the next row's source run (see rs_range) */
    int len64;                  /* the lengths are UINT64 */
};

/* ---- Kernels ------------------------------------------------------------------------------ */
/* n bytes of a contiguous run: streamed past the cache for large outputs (src/kernels/stream.c;
 * whole lines only, since a run's end lines may be shared with the next row's). */
static inline void rs_copy(const rs_state* st, void* d, const void* s, size_t n)
{
    if (st->stream)
        dmlc_copy_stream_lines(d, s, n);
    else
        memcpy(d, s, n);
}

static inline uint64_t rs_length(const char* p, const int LEN64, uint64_t n)
{
    uint64_t v;
    if (LEN64) {
        memcpy(&v, p, 8);
    } else {
        uint32_t v32;
        memcpy(&v32, p, 4);
        v = v32;
    }
    return v < n ? v : n;
}

/* T the element's bits, LEN64 the lengths' width. */
#define RS_KERNELS(T, NAME, LEN64)                                                                              \
    /* Axis is the run: positions [j0, j1) of one sequence. */                                                   \
    static void rs_axis_##NAME(const rs_state* st, char* out, const char* in, const char* len, uint64_t i,      \
                               uint64_t j0, uint64_t j1)                                                         \
    {                                                                                                            \
        const uint64_t L = rs_length(len, LEN64, st->n);                                                         \
        const uint64_t rev_end = j1 < L ? j1 : L, copy_begin = j0 > L ? j0 : L;                                 \
        const int64_t oa = st->out_run, ia = st->in_run;                                                         \
        T* DMLC_RESTRICT d = (T*)(void*)out;                                                                     \
        const T* DMLC_RESTRICT s = (const T*)(const void*)in;                                                    \
        (void)i;                                                                                                 \
        if (oa == 1 && ia == 1) {                                                                                \
            const T* DMLC_RESTRICT last = s + (L ? L - 1 : 0); /* d[c] = s[L - 1 - c] */                        \
            for (uint64_t c = j0; c < rev_end; ++c) d[c] = *(last - c);                                         \
            if (copy_begin < j1) rs_copy(st, d + copy_begin, s + copy_begin, (size_t)(j1 - copy_begin) * sizeof(T)); \
            return;                                                                                              \
        }                                                                                                        \
        for (uint64_t c = j0; c < rev_end; ++c) d[(int64_t)c * oa] = s[(int64_t)(L - 1 - c) * ia];               \
        for (uint64_t c = copy_begin; c < j1; ++c) d[(int64_t)c * oa] = s[(int64_t)c * ia];                      \
    }                                                                                                            \
    /* Axis is not the run: elements [j0, j1) of the run at Axis position i. */                                  \
    static void rs_run_##NAME(const rs_state* st, char* out, const char* in, const char* len, uint64_t i,       \
                              uint64_t j0, uint64_t j1)                                                          \
    {                                                                                                            \
        const uint64_t n = st->n;                                                                                \
        const int64_t os = st->out_run, is = st->in_run, ls = st->len_run, ia = st->in_ax;                      \
        T* DMLC_RESTRICT d = (T*)(void*)out;                                                                     \
        const T* DMLC_RESTRICT s = (const T*)(const void*)in;                                                    \
        if (ls == 0) { /* one length for the whole row: one source row */                                        \
            const uint64_t L = rs_length(len, LEN64, n);                                                         \
            const T* src = s + (int64_t)(i < L ? L - 1 - i : i) * ia;                                            \
            if (os == 1 && is == 1) {                                                                            \
                rs_copy(st, d + j0, src + j0, (size_t)(j1 - j0) * sizeof(T));                                    \
            } else {                                                                                             \
                for (uint64_t j = j0; j < j1; ++j) d[(int64_t)j * os] = src[(int64_t)j * is];                    \
            }                                                                                                    \
            return;                                                                                              \
        }                                                                                                        \
        for (uint64_t j = j0; j < j1; ++j) {                                                                     \
            const uint64_t L = rs_length(len + (int64_t)j * ls * (LEN64 ? 8 : 4), LEN64, n);                     \
            d[(int64_t)j * os] = s[(int64_t)(i < L ? L - 1 - i : i) * ia + (int64_t)j * is];                    \
        }                                                                                                        \
    }

/* A whole sequence of blocks: Axis is followed by the run alone (a contiguous block of m
 * elements per position on Axis) and the lengths do not change along it.  The reversed part
 * is copied block by block reading the input forwards (reading it backwards, a block at a
 * time, defeats the prefetchers: measured 2x slower along axis 1 of {512, 64, 256}), the
 * rest in one piece where the blocks are packed. */
#define RS_BLOCKS(NAME, LEN64)                                                                                   \
    static void rs_blocks_##NAME(const rs_state* st, char* out, const char* in, const char* len, uint64_t i,    \
                                 uint64_t j0, uint64_t j1)                                                       \
    {                                                                                                            \
        const uint64_t L = rs_length(len, LEN64, st->n);                                                         \
        const int64_t oa = st->out_ax_bytes, ia = st->in_ax * (int64_t)st->es;                                   \
        const size_t block = (size_t)(st->m * st->es);                                                           \
        (void)i;                                                                                                 \
        (void)j0;                                                                                                \
        (void)j1;                                                                                                \
        for (uint64_t r = 0; r < L; ++r) rs_copy(st, out + (int64_t)(L - 1 - r) * oa, in + (int64_t)r * ia, block); \
        if (oa == (int64_t)block && ia == (int64_t)block) {                                                      \
            if (L < st->n) rs_copy(st, out + (int64_t)L * oa, in + (int64_t)L * ia, (size_t)(st->n - L) * block); \
        } else {                                                                                                 \
            for (uint64_t r = L; r < st->n; ++r) rs_copy(st, out + (int64_t)r * oa, in + (int64_t)r * ia, block);  \
        }                                                                                                        \
    }
RS_BLOCKS(u32, 0)
RS_BLOCKS(u64, 1)

RS_KERNELS(uint8_t, x8_u32, 0)
RS_KERNELS(uint16_t, x16_u32, 0)
RS_KERNELS(uint32_t, x32_u32, 0)
RS_KERNELS(uint64_t, x64_u32, 0)
RS_KERNELS(uint8_t, x8_u64, 1)
RS_KERNELS(uint16_t, x16_u64, 1)
RS_KERNELS(uint32_t, x32_u64, 1)
RS_KERNELS(uint64_t, x64_u64, 1)

static rs_row_fn rs_row_for(UINT es, int len64, int axis_run)
{
    static const rs_row_fn axis_fns[2][4] = {{rs_axis_x8_u32, rs_axis_x16_u32, rs_axis_x32_u32, rs_axis_x64_u32},
                                             {rs_axis_x8_u64, rs_axis_x16_u64, rs_axis_x32_u64, rs_axis_x64_u64}};
    static const rs_row_fn run_fns[2][4] = {{rs_run_x8_u32, rs_run_x16_u32, rs_run_x32_u32, rs_run_x64_u32},
                                            {rs_run_x8_u64, rs_run_x16_u64, rs_run_x32_u64, rs_run_x64_u64}};
    const int e = es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3;
    return axis_run ? axis_fns[len64][e] : run_fns[len64][e];
}

/* ---- Execution ---------------------------------------------------------------------------- */
typedef struct rs_job {
    const rs_state* st;
    char* out;
    const char* in;
    const char* len;
} rs_job;

/* Tasks [begin, end) of rows x pieces: the row's position is found by division once, then
 * counted up row by row. */
static void rs_range(void* vjob, uint64_t begin, uint64_t end)
{
    const rs_job* job = (const rs_job*)vjob;
    const rs_state* st = job->st;
    const int64_t es = st->es;
    uint64_t idx[DMLC_MAX_DIMS];
    uint64_t row = begin / st->pieces, piece = begin % st->pieces, r = row;
    int64_t io = 0, oo = 0, lo = 0; /* elements, elements, bytes */
    for (UINT k = st->nd; k-- > 0;) {
        idx[k] = r % st->sizes[k];
        r /= st->sizes[k];
        io += (int64_t)idx[k] * st->in_s[k];
        oo += (int64_t)idx[k] * st->out_s[k];
        lo += (int64_t)idx[k] * st->len_s[k];
    }
    for (uint64_t t = begin; t < end; ++t) {
        const uint64_t i = st->axis_dim >= 0 ? idx[st->axis_dim] : 0;
        if (st->prefetch && idx[st->nd - 1] + RS_PREFETCH_AHEAD < st->sizes[st->nd - 1]) {
            /* A row RS_PREFETCH_AHEAD rows on along the innermost row dimension reads one
             * source run whose row depends on its length: ask for its lines now, so they
             * arrive by the time it copies (a run per source row, each from another page,
             * defeats the hardware's prefetchers). */
            const int64_t ahead = RS_PREFETCH_AHEAD;
            const uint64_t L = rs_length(job->len + lo + ahead * st->len_s[st->nd - 1], st->len64, st->n);
            const char* p = job->in + (io + ahead * st->in_s[st->nd - 1] + (int64_t)(i < L ? L - 1 - i : i) * st->in_ax) * es;
            for (uint64_t b = 0; b < st->m * st->es; b += 64) RS_PREFETCH(p + b);
        }
        st->row(st, job->out + oo * es, job->in + io * es, job->len + lo, i, st->m * piece / st->pieces,
                st->m * (piece + 1) / st->pieces);
        if (++piece < st->pieces) continue;
        piece = 0;
        for (UINT k = st->nd; k-- > 0;) {
            io += st->in_s[k];
            oo += st->out_s[k];
            lo += st->len_s[k];
            if (++idx[k] < st->sizes[k]) break;
            io -= (int64_t)st->sizes[k] * st->in_s[k];
            oo -= (int64_t)st->sizes[k] * st->out_s[k];
            lo -= (int64_t)st->sizes[k] * st->len_s[k];
            idx[k] = 0;
        }
    }
    if (st->stream) dmlc_stream_fence();
}

static void rs_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const rs_state* st = (const rs_state*)op->state;
    rs_job job;
    job.st = st;
    job.out = (char*)out[0];
    job.in = (const char*)in[0];
    job.len = (const char*)in[1];
    dmlc_parallel_for(st->rows * st->pieces, 2 * op->outputs[0].count * st->es, rs_range, &job);
}

/* ---- Validation and planning -------------------------------------------------------------- */
typedef struct rs_args {
    const DML_TENSOR_DESC *in, *len, *out;
    UINT axis;
} rs_args;

static rs_args read_args(const void* desc)
{
    const DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC* d = (const DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC*)desc;
    rs_args a;
    a.in = d->InputTensor;
    a.len = d->SequenceLengthsTensor;
    a.out = d->OutputTensor;
    a.axis = d->Axis;
    return a;
}

/* The tensors (out NULL when inferring: then the inputs may be empty). */
static HRESULT init_tensors(const char* opname, const rs_args* a, dmlc_tensor* in, dmlc_tensor* len, dmlc_tensor* out)
{
    const dmlc_tensor_role role = out ? DMLC_INPUT : DMLC_INPUT_MAY_BE_EMPTY;
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_init(in, a->in, opname, "InputTensor", 1, DMLC_MAX_DIMS, role)) ||
        FAILED(hr = dmlc_tensor_init(len, a->len, opname, "SequenceLengthsTensor", 1, DMLC_MAX_DIMS, role)) ||
        (out && FAILED(hr = dmlc_tensor_init(out, a->out, opname, "OutputTensor", 1, DMLC_MAX_DIMS, DMLC_OUTPUT))))
        return hr;
    return S_OK;
}

/* The ranks, Axis, the lengths' sizes (their type, UINT32 or UINT64, is the schema's check);
 * the output's sizes into sh (out NULL when inferring). */
static HRESULT validate(const char* opname, const rs_args* a, const dmlc_tensor* in, const dmlc_tensor* len,
                        const dmlc_tensor* out, dmlc_shapes* sh)
{
    const UINT D = in->ndim;
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_same_rank(in, "InputTensor", len, "SequenceLengthsTensor", opname))) return hr;
    if (out && (FAILED(hr = dmlc_tensor_same_type(in, "InputTensor", out, "OutputTensor", opname)) ||
                FAILED(hr = dmlc_tensor_same_rank(in, "InputTensor", out, "OutputTensor", opname))))
        return hr;
    if (a->axis >= D)
        return dmlc_fail(E_INVALIDARG, opname, "Axis is %u, expected less than %u (InputTensor.DimensionCount)", a->axis,
                         D);
    for (UINT d = 0; d < D; ++d) {
        hr = d == a->axis ? dmlc_tensor_expect_size(len, opname, "SequenceLengthsTensor", d, 1,
                                                    "one length per sequence along Axis %u", a->axis)
                          : dmlc_tensor_expect_size(len, opname, "SequenceLengthsTensor", d, in->sizes[d],
                                                    "InputTensor.Sizes[%u]; only Axis %u differs", d, a->axis);
        if (FAILED(hr)) return hr;
    }
    dmlc_shape_rank(sh, 0, D);
    for (UINT d = 0; d < D; ++d)
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", d, in->sizes[d], "InputTensor.Sizes[%u]", d)))
            return hr;
    return S_OK;
}

/* Appends dimension d to the list (merged into the previous one where all three tensors
 * step exactly over it: sizes {4, 5} with strides {5, 1} are one dimension of 20). */
static void push_dim(rs_state* st, uint64_t size, int64_t is, int64_t os, int64_t ls, int mergeable)
{
    const UINT k = st->nd;
    if (mergeable && k && st->in_s[k - 1] == is * (int64_t)size && st->out_s[k - 1] == os * (int64_t)size &&
        st->len_s[k - 1] == ls * (int64_t)size) {
        st->sizes[k - 1] *= size;
        st->in_s[k - 1] = is;
        st->out_s[k - 1] = os;
        st->len_s[k - 1] = ls;
        return;
    }
    st->sizes[k] = size;
    st->in_s[k] = is;
    st->out_s[k] = os;
    st->len_s[k] = ls;
    st->nd = k + 1;
}

static void plan(rs_state* st, UINT axis, const dmlc_tensor* in, const dmlc_tensor* len, const dmlc_tensor* out)
{
    const int len64 = len->type == DML_TENSOR_DATA_TYPE_UINT64;
    const int64_t lbytes = len64 ? 8 : 4;
    UINT last = axis, threads;
    st->es = in->elem_size;
    st->n = in->sizes[axis];
    st->in_ax = (int64_t)in->strides[axis];
    st->nd = 0;
    for (UINT d = axis + 1; d < in->ndim; ++d)
        if (in->sizes[d] > 1) last = d;
    /* The rows' dimensions: those before Axis, Axis itself when a dimension follows it
     * (its in stride is the kernel's: 0 here), then those after Axis but the run.  The
     * lengths' strides are in bytes, the others in elements. */
    for (UINT d = 0; d < axis; ++d)
        if (in->sizes[d] > 1)
            push_dim(st, in->sizes[d], (int64_t)in->strides[d], (int64_t)out->strides[d],
                     (int64_t)len->strides[d] * lbytes, 1);
    st->axis_dim = -1;
    if (last != axis) {
        st->axis_dim = (int)st->nd;
        push_dim(st, st->n, 0, (int64_t)out->strides[axis], 0, 0);
        for (UINT d = axis + 1; d < last; ++d)
            if (in->sizes[d] > 1)
                push_dim(st, in->sizes[d], (int64_t)in->strides[d], (int64_t)out->strides[d],
                         (int64_t)len->strides[d] * lbytes, st->nd > (UINT)st->axis_dim + 1);
        st->m = in->sizes[last];
        st->in_run = (int64_t)in->strides[last];
        st->out_run = (int64_t)out->strides[last];
        st->len_run = (int64_t)len->strides[last]; /* elements: the kernel scales it */
        /* Neighbours of the run that all three tensors step over exactly join it. */
        while (st->nd > (UINT)st->axis_dim + 1) {
            const UINT k = st->nd - 1;
            if (st->in_s[k] != st->in_run * (int64_t)st->m || st->out_s[k] != st->out_run * (int64_t)st->m ||
                st->len_s[k] != st->len_run * lbytes * (int64_t)st->m)
                break;
            st->m *= st->sizes[k];
            st->nd = k;
        }
    } else {
        st->m = st->n;
        st->in_run = (int64_t)in->strides[axis];
        st->out_run = (int64_t)out->strides[axis];
        st->len_run = 0;
    }
    st->rows = 1;
    for (UINT k = 0; k < st->nd; ++k) st->rows *= st->sizes[k];
    /* Fewer rows than a few per thread: long rows are cut into pieces of at least
     * RS_MIN_PIECE_BYTES. */
    threads = (UINT)dmlc_threads_for(2 * out->count * st->es); /* as the execute's loop */
    st->pieces = 1;
    if (st->rows < 4 * (uint64_t)threads) {
        uint64_t p = (4 * (uint64_t)threads + st->rows - 1) / st->rows;
        const uint64_t most = st->m * st->es / RS_MIN_PIECE_BYTES;
        if (p > most) p = most;
        if (p > 1) st->pieces = p;
    }
    st->row = rs_row_for(st->es, len64, last == axis);
    /* Axis followed by one packed run whose length is one per sequence (a broadcast
     * lengths tensor): a task per sequence of blocks, the Axis dimension walked inside. */
    if (st->axis_dim >= 0 && (UINT)st->axis_dim + 1 == st->nd && st->len_run == 0 && st->in_run == 1 &&
        st->out_run == 1 && st->rows / st->n >= 4 * (uint64_t)threads) {
        st->nd -= 1;
        st->rows /= st->n;
        st->axis_dim = -1;
        st->pieces = 1;
        st->out_ax_bytes = (int64_t)out->strides[axis] * (int64_t)st->es;
        st->row = len64 ? rs_blocks_u64 : rs_blocks_u32;
    }
    /* Rows that each copy one run from a source row chosen by a length that changes from
     * row to row (ONNX's one length per batch along axis 0): the next row's run is
     * prefetched. */
    st->len64 = len64;
    st->prefetch = st->row != rs_blocks_u32 && st->row != rs_blocks_u64 && last != axis && st->len_run == 0 &&
                   st->nd > 0 && st->axis_dim >= 0 && (UINT)st->axis_dim + 1 < st->nd &&
                   st->m * st->es >= 256 && st->m * st->es <= RS_PREFETCH_MAX_RUN && st->pieces == 1;
    /* Non-temporal stores pay for outputs far larger than the cache written in runs of at
     * least RS_STREAM_MIN_RUN bytes (shorter runs leave lines half written for longer). */
    st->stream = DMLC_HAVE_STREAM && dmlc_cpu_has(DMLC_CPU_SSE2) && st->out_run == 1 && st->in_run == 1 &&
                 out->count * st->es >= DMLC_STREAM_MIN_BYTES && st->m * st->es >= RS_STREAM_MIN_RUN;
}

HRESULT dmlc_infer_reverse(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const rs_args a = read_args(desc);
    dmlc_tensor in, len;
    HRESULT hr;
    (void)type;
    if (FAILED(hr = dmlc_shapes_count(sh, 1)) || FAILED(hr = init_tensors(opname, &a, &in, &len, NULL))) return hr;
    return validate(opname, &a, &in, &len, NULL, sh);
}

HRESULT dmlc_create_reverse(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const rs_args a = read_args(desc);
    dmlc_tensor in, len, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    DMLC_OPERATOR_T* o;
    HRESULT hr;
    if (FAILED(hr = init_tensors(opname, &a, &in, &len, &out)) || FAILED(hr = validate(opname, &a, &in, &len, &out, &sh)))
        return hr;
    o = dmlc_operator_alloc(type, opname, 2, 1, sizeof(rs_state));
    if (!o) return E_OUTOFMEMORY;
    o->inputs[0] = in;
    o->inputs[1] = len;
    o->outputs[0] = out;
    o->execute = rs_execute;
    /* Every output element reads another element of the input: never in place (an output
     * overlapping an input is refused by dmlcExecute). */
    plan((rs_state*)o->state, a.axis, &in, &len, &out);
    *op = o;
    return S_OK;
}
