/* split_join.c - DML_OPERATOR_SPLIT and DML_OPERATOR_JOIN.
 *
 * Both move data between one "whole" tensor (SPLIT's InputTensor, JOIN's OutputTensor)
 * and K "parts" (SPLIT's OutputTensors, JOIN's InputTensors) that tile the whole along
 * Axis: part k holds the whole's indices [off_k, off_k + size_k) on Axis, where off_k is
 * the sum of the sizes before it.  Example: whole {1, 1, 6, 2}, Axis 2, parts of 2, 1 and
 * 3 rows: part 1 is the whole's row 2, at element offset 2 * Strides[2] = 4.
 *
 * Seen as outer x inner, with outer = the dimensions before Axis and inner = Axis and
 * after, every outer index ("row") of the whole is the K parts' inner blocks side by side.
 * When each part's inner block is one contiguous run in both tensors (packed tensors and
 * most views), execution copies runs with memcpy, in one of two orders:
 *   - rows (JOIN; SPLIT of long rows): row after row, part after part, so the whole is
 *     streamed once in order.  When there are few rows, each part's run is cut into
 *     chunks so that threads still get equal shares;
 *   - tiles (SPLIT of short rows): a few rows at a time, part after part, so each part is
 *     written sequentially (see tiles_range).
 * Work is shared out across threads by rows, chunks or tiles.  Operators larger than the
 * cache write with non-temporal stores where that pays (src/kernels/stream.c).  Anything
 * else (strided inner dimensions, broadcast inputs, a single part) is "general mode": one
 * strided copy plan per part (src/kernels/copy.c), small parts batched across threads,
 * large ones threaded alone. */
#include "../dmlc_internal.h"

#include <stdio.h>
#include <string.h>

/* Rows mode cuts a part's run into chunks of about this many bytes when the whole has
 * fewer than SJ_FEW_ROWS rows: enough items for every thread, few enough calls. */
#define SJ_CHUNK_BYTES ((uint64_t)1 << 18)
#define SJ_FEW_ROWS 256
/* SPLIT of rows up to half this long works on tiles of rows of the whole about this
 * large (see tiles_range); measured best among 4 to 64 KiB. */
#define SJ_TILE_BYTES ((uint64_t)16 << 10)

typedef struct sj_part {
    int64_t whole_offset;                 /* the part's first element in the whole, in elements */
    uint64_t bytes;                       /* the part's size in bytes */
    /* rows mode */
    int64_t outer_strides[DMLC_MAX_DIMS]; /* the part's strides over the merged outer dimensions */
    uint64_t run_bytes;                   /* the part's contiguous block in one row */
    uint64_t chunk_bytes;                 /* ...copied in pieces of this many bytes */
    uint64_t chunks;
    int stream;                           /* copy the run with dmlc_copy_stream */
    void (*runs)(char*, int64_t, const char*, int64_t, uint64_t, size_t); /* tiles: the run copier */
    /* general mode */
    dmlc_copy_plan plan;                  /* part <-> whole, destination first */
} sj_part;

typedef struct sj_state {
    int split;                            /* 1: whole -> parts (SPLIT); 0: parts -> whole (JOIN) */
    int rows_mode;
    int stream;                           /* some part uses dmlc_copy_stream */
    int tiled;                            /* rows mode, by tiles of tile_rows rows */
    UINT count;
    UINT elem_size;
    UINT outer_ndim;
    uint64_t outer_sizes[DMLC_MAX_DIMS];
    int64_t whole_outer_strides[DMLC_MAX_DIMS];
    uint64_t rows;                        /* product of outer_sizes */
    uint64_t items_per_row;               /* sum of the parts' chunks */
    uint64_t tile_rows, tiles;
    uint64_t whole_bytes;
    uint64_t small_bytes;                 /* general mode: bytes of the parts run as one batch */
    sj_part parts[];
} sj_state;

/* The bound memory of one execution. */
typedef struct sj_ctx {
    const sj_state* st;
    char* whole;
    const void* const* parts;
    int stream;   /* st->stream, and every tensor 16-byte aligned as the streamed runs assume */
} sj_ctx;

static void rows_range(void* vctx, uint64_t begin, uint64_t end)
{
    const sj_ctx* cx = (const sj_ctx*)vctx;
    const sj_state* st = cx->st;
    const int64_t es = st->elem_size;
    const UINT od = st->outer_ndim;
    const int split = st->split;
    uint64_t idx[DMLC_MAX_DIMS], row = begin / st->items_per_row, c = begin % st->items_per_row;
    int64_t woff = 0;
    UINT k = 0;
    for (UINT i = od; i-- > 0;) {
        idx[i] = row % st->outer_sizes[i];
        row /= st->outer_sizes[i];
        woff += (int64_t)idx[i] * st->whole_outer_strides[i];
    }
    while (c >= st->parts[k].chunks) c -= st->parts[k++].chunks;
    for (uint64_t item = begin; item < end; ++item) {
        const sj_part* p = &st->parts[k];
        int64_t poff = 0;
        uint64_t at = c * p->chunk_bytes, n = p->run_bytes - at;
        char *part, *whole;
        for (UINT i = 0; i < od; ++i) poff += (int64_t)idx[i] * p->outer_strides[i];
        if (n > p->chunk_bytes) n = p->chunk_bytes;
        part = (char*)cx->parts[k] + poff * es + (int64_t)at;
        whole = cx->whole + (woff + p->whole_offset) * es + (int64_t)at;
        if (p->stream && cx->stream) {
            if (split)
                dmlc_copy_stream(part, whole, (size_t)n);
            else
                dmlc_copy_stream(whole, part, (size_t)n);
        } else {
            if (split)
                memcpy(part, whole, (size_t)n);
            else
                memcpy(whole, part, (size_t)n);
        }
        if (++c < p->chunks) continue;
        c = 0;
        if (++k < st->count) continue;
        k = 0;
        for (UINT i = od; i-- > 0;) { /* next row */
            woff += st->whole_outer_strides[i];
            if (++idx[i] < st->outer_sizes[i]) break;
            woff -= (int64_t)st->outer_sizes[i] * st->whole_outer_strides[i];
            idx[i] = 0;
        }
    }
    if (cx->stream) dmlc_stream_fence();
}

/* Run copiers for tiles: rows runs of n bytes, d and s stepping by ds and ss bytes.  A run
 * of a few bytes costs more in a memcpy call than in copying, so the common short sizes
 * get a copier where n is a constant (the compiler turns it into a load and a store);
 * the choice is made once per part, at creation. */
typedef void (*sj_runs_fn)(char* d, int64_t ds, const char* s, int64_t ss, uint64_t rows, size_t n);

#define DEFINE_RUNS(N)                                                                          \
    static void runs_##N(char* d, int64_t ds, const char* s, int64_t ss, uint64_t rows, size_t n) \
    {                                                                                           \
        uint64_t r = 0;                                                                         \
        (void)n;                                                                                \
        for (; r + 4 <= rows; r += 4, d += 4 * ds, s += 4 * ss) {                               \
            memcpy(d, s, N);                                                                    \
            memcpy(d + ds, s + ss, N);                                                          \
            memcpy(d + 2 * ds, s + 2 * ss, N);                                                  \
            memcpy(d + 3 * ds, s + 3 * ss, N);                                                  \
        }                                                                                       \
        for (; r < rows; ++r, d += ds, s += ss) memcpy(d, s, N);                                \
    }
DEFINE_RUNS(1)
DEFINE_RUNS(2)
DEFINE_RUNS(4)
DEFINE_RUNS(8)
DEFINE_RUNS(12)
DEFINE_RUNS(16)
DEFINE_RUNS(24)
DEFINE_RUNS(32)
DEFINE_RUNS(48)
DEFINE_RUNS(64)

static void runs_any(char* d, int64_t ds, const char* s, int64_t ss, uint64_t rows, size_t n)
{
    for (uint64_t r = 0; r < rows; ++r, d += ds, s += ss) memcpy(d, s, n);
}

static void runs_stream(char* d, int64_t ds, const char* s, int64_t ss, uint64_t rows, size_t n)
{
    for (uint64_t r = 0; r < rows; ++r, d += ds, s += ss) dmlc_copy_stream(d, s, n);
}

static sj_runs_fn runs_for(uint64_t n)
{
    switch (n) {
    case 1: return runs_1;
    case 2: return runs_2;
    case 4: return runs_4;
    case 8: return runs_8;
    case 12: return runs_12;
    case 16: return runs_16;
    case 24: return runs_24;
    case 32: return runs_32;
    case 48: return runs_48;
    case 64: return runs_64;
    default: return runs_any;
    }
}

/* Short rows, tile by tile: all of one part's rows of a tile, then the next part's.
 * Row by row, a SPLIT's destinations would take turns every few bytes or hundred bytes,
 * and interleaved write streams cost DRAM bandwidth (a 256-byte run at 16 bytes into a
 * line leaves partial lines to flush); tile by tile each part is read or written in one
 * sequential pass while the tile of the whole stays in the L1/L2 cache, and each pass is
 * one loop of equal runs. */
static void tiles_range(void* vctx, uint64_t begin, uint64_t end)
{
    const sj_ctx* cx = (const sj_ctx*)vctx;
    const sj_state* st = cx->st;
    const int64_t es = st->elem_size;
    const UINT od = st->outer_ndim, last = od ? od - 1 : 0;
    const int64_t ws = od ? st->whole_outer_strides[last] * es : 0;
    for (uint64_t t = begin; t < end; ++t) {
        uint64_t r0 = t * st->tile_rows, nr = st->rows - r0, idx0[DMLC_MAX_DIMS], row = r0;
        int64_t woff0 = 0;
        if (nr > st->tile_rows) nr = st->tile_rows;
        for (UINT i = od; i-- > 0;) {
            idx0[i] = row % st->outer_sizes[i];
            row /= st->outer_sizes[i];
            woff0 += (int64_t)idx0[i] * st->whole_outer_strides[i];
        }
        for (UINT k = 0; k < st->count; ++k) {
            const sj_part* p = &st->parts[k];
            const sj_runs_fn runs = p->stream && cx->stream ? runs_stream : p->runs;
            const int64_t ps = od ? p->outer_strides[last] * es : 0;
            uint64_t idx[DMLC_MAX_DIMS], left = nr;
            int64_t woff = woff0 + p->whole_offset, poff = 0;
            char* part = (char*)cx->parts[k];
            for (UINT i = 0; i < od; ++i) {
                idx[i] = idx0[i];
                poff += (int64_t)idx[i] * p->outer_strides[i];
            }
            /* Segments of rows along the innermost outer dimension step evenly. */
            for (;;) {
                uint64_t seg = left;
                if (od && seg > st->outer_sizes[last] - idx[last]) seg = st->outer_sizes[last] - idx[last];
                if (st->split)
                    runs(part + poff * es, ps, cx->whole + woff * es, ws, seg, (size_t)p->run_bytes);
                else
                    runs(cx->whole + woff * es, ws, part + poff * es, ps, seg, (size_t)p->run_bytes);
                left -= seg;
                if (!left) break;
                /* The segment ended at the end of the innermost outer dimension: carry. */
                woff += (int64_t)seg * st->whole_outer_strides[last];
                poff += (int64_t)seg * p->outer_strides[last];
                idx[last] += seg;
                for (UINT i = last; idx[i] == st->outer_sizes[i] && i > 0; --i) {
                    woff += st->whole_outer_strides[i - 1] - (int64_t)st->outer_sizes[i] * st->whole_outer_strides[i];
                    poff += p->outer_strides[i - 1] - (int64_t)st->outer_sizes[i] * p->outer_strides[i];
                    idx[i] = 0;
                    ++idx[i - 1];
                }
            }
        }
    }
    if (cx->stream) dmlc_stream_fence();
}

static inline void general_part(const sj_ctx* cx, UINT k, int serial)
{
    const sj_part* p = &cx->st->parts[k];
    char* whole = cx->whole + p->whole_offset * (int64_t)cx->st->elem_size;
    void* dst = cx->st->split ? (void*)cx->parts[k] : (void*)whole;
    const void* src = cx->st->split ? (const void*)whole : cx->parts[k];
    if (serial)
        dmlc_copy_run_serial(&p->plan, dst, src);
    else
        dmlc_copy_run(&p->plan, dst, src);
}

/* The parts too small to be worth threads alone, shared out as a batch. */
static void small_parts_range(void* vctx, uint64_t begin, uint64_t end)
{
    const sj_ctx* cx = (const sj_ctx*)vctx;
    for (uint64_t k = begin; k < end; ++k)
        if (cx->st->parts[k].bytes < DMLC_MIN_BYTES_PER_THREAD) general_part(cx, (UINT)k, 1);
}

static void split_join_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const sj_state* st = (const sj_state*)op->state;
    sj_ctx cx;
    cx.st = st;
    if (st->split) {
        cx.whole = (char*)in[0];
        cx.parts = (const void* const*)out;
    } else {
        cx.whole = (char*)out[0];
        cx.parts = in;
    }
    cx.stream = st->stream;
    if (cx.stream) {
        uintptr_t bits = (uintptr_t)cx.whole;
        for (UINT k = 0; k < st->count; ++k) bits |= (uintptr_t)cx.parts[k];
        cx.stream = (bits & 15) == 0;
    }
    if (st->tiled) {
        dmlc_parallel_for(st->tiles, 2 * st->whole_bytes, tiles_range, &cx);
        return;
    }
    if (st->rows_mode) {
        dmlc_parallel_for(st->rows * st->items_per_row, 2 * st->whole_bytes, rows_range, &cx);
        return;
    }
    if (st->small_bytes) dmlc_parallel_for(st->count, 2 * st->small_bytes, small_parts_range, &cx);
    for (UINT k = 0; k < st->count; ++k)
        if (st->parts[k].bytes >= DMLC_MIN_BYTES_PER_THREAD) general_part(&cx, k, 0);
}

/* Elements in dimensions [axis, ndim) of sizes if they are one contiguous run under
 * strides (size-1 dimensions are never stepped over), else 0. */
static uint64_t inner_run(UINT ndim, UINT axis, const UINT* sizes, const uint64_t* strides)
{
    uint64_t run = 1;
    for (UINT d = ndim; d-- > axis;) {
        if (sizes[d] == 1) continue;
        if (strides[d] != run) return 0;
        run *= sizes[d];
    }
    return run;
}

/* "OutputTensors[12]": the field name of part k, for messages (snprintf costs more than
 * the whole validation of a small operator). */
static void part_field(char* buf, const char* name, UINT k)
{
    char digits[12];
    int n = 0;
    size_t len = strlen(name);
    memcpy(buf, name, len);
    buf[len++] = '[';
    do digits[n++] = (char)('0' + k % 10); while ((k /= 10) != 0);
    while (n > 0) buf[len++] = digits[--n];
    buf[len++] = ']';
    buf[len] = '\0';
}

/* SPLIT's and JOIN's fields under whole/parts names: SPLIT's whole is its InputTensor and
 * its parts are OutputTensors, JOIN the reverse. */
typedef struct sj_args {
    int split;
    const DML_TENSOR_DESC* whole_desc;
    UINT count;
    const DML_TENSOR_DESC* part_descs;
    UINT axis;
    const char* whole_name;
    const char* parts_name;
    const char* count_name;
} sj_args;

static sj_args read_args(DML_OPERATOR_TYPE type, const void* desc)
{
    sj_args a;
    a.split = type == DML_OPERATOR_SPLIT;
    if (a.split) {
        const DML_SPLIT_OPERATOR_DESC* d = (const DML_SPLIT_OPERATOR_DESC*)desc;
        a.whole_desc = d->InputTensor;
        a.count = d->OutputCount;
        a.part_descs = d->OutputTensors;
        a.axis = d->Axis;
    } else {
        const DML_JOIN_OPERATOR_DESC* d = (const DML_JOIN_OPERATOR_DESC*)desc;
        a.whole_desc = d->OutputTensor;
        a.count = d->InputCount;
        a.part_descs = d->InputTensors;
        a.axis = d->Axis;
    }
    a.whole_name = a.split ? "InputTensor" : "OutputTensor";
    a.parts_name = a.split ? "OutputTensors" : "InputTensors";
    a.count_name = a.split ? "OutputCount" : "InputCount";
    return a;
}

static HRESULT check_count(const char* opname, const sj_args* a)
{
    if (a->count == 0) return dmlc_fail(E_INVALIDARG, opname, "%s is 0, expected at least 1", a->count_name);
    return S_OK; /* the parts are there: src/schema.c checked it */
}

static HRESULT check_axis(const char* opname, const sj_args* a, const dmlc_tensor* ref, const char* ref_name)
{
    if (a->axis < ref->ndim) return S_OK;
    return dmlc_fail(E_INVALIDARG, opname, "Axis is %u, expected 0 to %u (%s.DimensionCount is %u)", a->axis,
                     ref->ndim - 1, ref_name, ref->ndim);
}

/* Part k (already normalised into *t) against ref: type, rank, and every size but Axis. */
static HRESULT check_part(const char* opname, const sj_args* a, const dmlc_tensor* t, const char* field,
                          const dmlc_tensor* ref, const char* ref_name)
{
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_same_type(ref, ref_name, t, field, opname)) ||
        FAILED(hr = dmlc_tensor_same_rank(ref, ref_name, t, field, opname)))
        return hr;
    for (UINT d = 0; d < ref->ndim; ++d)
        if (d != a->axis && FAILED(hr = dmlc_tensor_expect_size(t, opname, field, d, ref->sizes[d],
                                                                "%s.Sizes[%u]; only Axis %u may differ", ref_name, d,
                                                                a->axis)))
            return hr;
    return S_OK;
}

/* The parts' sizes on Axis must add up to the whole's. */
static HRESULT check_sum(const char* opname, const sj_args* a, const dmlc_tensor* whole, const dmlc_tensor* parts,
                         uint64_t sum)
{
    const UINT axis = a->axis;
    char terms[200];
    size_t len = 0;
    if (sum == whole->sizes[axis]) return S_OK;
    if (a->count == 1)
        return dmlc_fail(E_INVALIDARG, opname, "%s[0].Sizes[%u] is %u, expected %u (%s.Sizes[%u]; Axis is %u and "
                         "one part is a copy)", a->parts_name, axis, parts[0].sizes[axis], whole->sizes[axis],
                         a->whole_name, axis, axis);
    terms[0] = '\0';
    for (UINT k = 0; k < a->count && len < sizeof terms - 40; ++k) {
        int n = snprintf(terms + len, sizeof terms - len, "%s%u", k ? " + " : "", parts[k].sizes[axis]);
        if (n > 0) len += (size_t)n;
        if (k + 1 < a->count && len >= sizeof terms - 40) snprintf(terms + len, sizeof terms - len, " + ...");
    }
    return dmlc_fail(E_INVALIDARG, opname, "%s[0..%u].Sizes[%u] sum to %llu (%s), expected %u (%s.Sizes[%u]; "
                     "Axis is %u)", a->parts_name, a->count - 1, axis, (unsigned long long)sum, terms,
                     whole->sizes[axis], a->whole_name, axis, axis);
}

/* Validates the whole and every part of a created operator (parts: its tensor slots). */
static HRESULT validate(const char* opname, const sj_args* a, dmlc_tensor* whole, dmlc_tensor* parts)
{
    char field[48];
    uint64_t sum = 0;
    HRESULT hr;
    for (UINT k = 0; k < a->count; ++k) {
        dmlc_tensor* t = &parts[k];
        part_field(field, a->parts_name, k);
        if (FAILED(hr = dmlc_tensor_init(t, &a->part_descs[k], opname, field, 1, DMLC_MAX_DIMS,
                                         a->split ? DMLC_OUTPUT : DMLC_INPUT)) ||
            FAILED(hr = check_part(opname, a, t, field, whole, a->whole_name)))
            return hr;
        sum += t->sizes[a->axis];
    }
    return check_sum(opname, a, whole, parts, sum);
}

/* SPLIT: the outputs are the input's sizes with Sizes[Axis] of each OutputTensors[k], which
 * are the operator's parameters; only their DimensionCount and Sizes are read. */
static HRESULT infer_split(const char* opname, const sj_args* a, dmlc_shapes* sh)
{
    dmlc_tensor whole;
    uint64_t sum = 0;
    char field[48];
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_init(&whole, a->whole_desc, opname, a->whole_name, 1, DMLC_MAX_DIMS,
                                     DMLC_INPUT_MAY_BE_EMPTY)) ||
        FAILED(hr = check_axis(opname, a, &whole, a->whole_name)))
        return hr;
    for (UINT k = 0; k < a->count; ++k) {
        const DML_TENSOR_DESC* td = &a->part_descs[k];
        const DML_BUFFER_TENSOR_DESC* b = td->Type == DML_TENSOR_TYPE_BUFFER ? (const DML_BUFFER_TENSOR_DESC*)td->Desc : NULL;
        part_field(field, a->parts_name, k);
        if (!b || !b->Sizes || b->DimensionCount != whole.ndim)
            return dmlc_fail(E_INVALIDARG, opname, "%s must be a buffer tensor desc with DimensionCount %u and Sizes "
                             "(its Sizes[%u] is the part's size)", field, whole.ndim, a->axis);
        dmlc_shape_rank(sh, k, whole.ndim);
        for (UINT d = 0; d < whole.ndim; ++d) sh->sizes[k].Sizes[d] = d == a->axis ? b->Sizes[d] : whole.sizes[d];
        sum += b->Sizes[a->axis];
    }
    if (sum != whole.sizes[a->axis])
        return dmlc_fail(E_INVALIDARG, opname, "%s[0..%u].Sizes[%u] sum to %llu, expected %u (%s.Sizes[%u]; Axis is %u)",
                         a->parts_name, a->count - 1, a->axis, (unsigned long long)sum, whole.sizes[a->axis],
                         a->whole_name, a->axis, a->axis);
    return S_OK;
}

/* JOIN: the output is InputTensors[0]'s sizes with the inputs' sizes on Axis summed. */
static HRESULT infer_join(const char* opname, const sj_args* a, dmlc_shapes* sh)
{
    dmlc_tensor first, t;
    uint64_t sum = 0;
    char field[48];
    HRESULT hr;
    for (UINT k = 0; k < a->count; ++k) {
        dmlc_tensor* p = k ? &t : &first;
        part_field(field, a->parts_name, k);
        if (FAILED(hr = dmlc_tensor_init(p, &a->part_descs[k], opname, field, 1, DMLC_MAX_DIMS,
                                         DMLC_INPUT_MAY_BE_EMPTY)))
            return hr;
        if (k == 0 ? FAILED(hr = check_axis(opname, a, &first, "InputTensors[0]"))
                   : FAILED(hr = check_part(opname, a, &t, field, &first, "InputTensors[0]")))
            return hr;
        sum += p->sizes[a->axis];
    }
    dmlc_shape_rank(sh, 0, first.ndim);
    for (UINT d = 0; d < first.ndim; ++d)
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputTensor", d, d == a->axis ? sum : first.sizes[d],
                                          d == a->axis ? "the sum of InputTensors[0..%u].Sizes[%u]" : "InputTensors[0].Sizes[%u]",
                                          d == a->axis ? a->count - 1 : d, d)))
            return hr;
    return S_OK;
}

/* Chooses rows, tiles or general mode, and streaming, into st. */
static void plan(sj_state* st, const sj_args* a, const dmlc_tensor* whole, const dmlc_tensor* parts)
{
    uint64_t offset = 0, rows = 1;
    int rows_mode;
    st->split = a->split;
    st->count = a->count;
    st->elem_size = whole->elem_size;
    st->whole_bytes = whole->count * whole->elem_size;

    /* Rows mode needs every part's inner block to be one run in both tensors. */
    rows_mode = a->count > 1;
    for (UINT k = 0; k < a->count && rows_mode; ++k) {
        UINT sizes[DMLC_MAX_DIMS];
        memcpy(sizes, whole->sizes, sizeof sizes);
        sizes[a->axis] = parts[k].sizes[a->axis];
        rows_mode = inner_run(whole->ndim, a->axis, sizes, parts[k].strides) != 0 &&
                    inner_run(whole->ndim, a->axis, sizes, whole->strides) != 0;
    }
    st->rows_mode = rows_mode;

    if (rows_mode) {
        /* Merge the outer dimensions (before Axis) that every tensor steps over as one,
         * as the copy plan does; dimensions of size 1 drop out. */
        UINT n = 0;
        for (UINT d = 0; d < a->axis; ++d) {
            uint64_t s = whole->sizes[d];
            int merge;
            if (s == 1) continue;
            merge = n > 0 && st->whole_outer_strides[n - 1] == (int64_t)(whole->strides[d] * s);
            for (UINT k = 0; k < a->count && merge; ++k)
                merge = st->parts[k].outer_strides[n - 1] == (int64_t)(parts[k].strides[d] * s);
            if (!merge) st->outer_sizes[n++] = 1;
            st->outer_sizes[n - 1] *= s;
            st->whole_outer_strides[n - 1] = (int64_t)whole->strides[d];
            for (UINT k = 0; k < a->count; ++k) st->parts[k].outer_strides[n - 1] = (int64_t)parts[k].strides[d];
        }
        st->outer_ndim = n;
        for (UINT i = 0; i < n; ++i) rows *= st->outer_sizes[i];
    }
    st->rows = rows;

    for (UINT k = 0; k < a->count; ++k) {
        sj_part* p = &st->parts[k];
        const dmlc_tensor* t = &parts[k];
        p->whole_offset = (int64_t)(offset * whole->strides[a->axis]);
        p->bytes = t->count * t->elem_size;
        offset += t->sizes[a->axis];
        if (rows_mode) {
            uint64_t run = p->bytes / rows, chunk = run;
            if (rows < SJ_FEW_ROWS && run > SJ_CHUNK_BYTES) chunk = SJ_CHUNK_BYTES - SJ_CHUNK_BYTES % whole->elem_size;
            p->run_bytes = run;
            p->chunk_bytes = chunk;
            p->chunks = (run + chunk - 1) / chunk;
            st->items_per_row += p->chunks;
        } else {
            uint64_t sizes[DMLC_MAX_DIMS];
            int64_t ps[DMLC_MAX_DIMS], ws[DMLC_MAX_DIMS];
            for (UINT d = 0; d < whole->ndim; ++d) {
                sizes[d] = t->sizes[d];
                ps[d] = (int64_t)t->strides[d];
                ws[d] = (int64_t)whole->strides[d];
            }
            if (a->split)
                dmlc_copy_plan_init(&p->plan, whole->elem_size, whole->ndim, sizes, ps, ws);
            else
                dmlc_copy_plan_init(&p->plan, whole->elem_size, whole->ndim, sizes, ws, ps);
            if (p->bytes < DMLC_MIN_BYTES_PER_THREAD) st->small_bytes += p->bytes;
        }
    }
    if (rows_mode && st->items_per_row == a->count) {
        /* Tiles for SPLIT of short rows, and for JOIN when some run is too short to be
         * worth a memcpy call (row by row, JOIN writes the whole sequentially). */
        uint64_t row_bytes = st->whole_bytes / rows;
        int short_runs = 0;
        for (UINT k = 0; k < a->count; ++k) {
            st->parts[k].runs = runs_for(st->parts[k].run_bytes);
            short_runs |= st->parts[k].run_bytes < 64;
        }
        if (2 * row_bytes <= SJ_TILE_BYTES && (a->split || short_runs)) {
            st->tiled = 1;
            st->tile_rows = SJ_TILE_BYTES / row_bytes;
            st->tiles = (rows + st->tile_rows - 1) / st->tile_rows;
        }
    }
    if (rows_mode && st->whole_bytes >= DMLC_STREAM_MIN_BYTES) {
        /* Non-temporal stores where every destination line is written whole by one pass
         * (or nearly: runs of 256 bytes or more leave at most two partial lines in four):
         *   - SPLIT by tiles: a part whose rows are contiguous is written sequentially;
         *   - SPLIT by rows: runs of 256 bytes or more;
         *   - JOIN by rows: the whole is written sequentially within each row, so streamed
         *     when every run is whole 16-byte units and the rows are contiguous or long;
         *   - JOIN by tiles: never (the passes share lines at the runs' ends).
         * Streamed runs are multiples of 16 bytes, so that with 16-byte aligned tensors
         * (checked at execution) every non-temporal store is a whole aligned unit. */
        const uint64_t es = whole->elem_size, od = st->outer_ndim, row_bytes = st->whole_bytes / rows;
        const int whole_seq = od == 0 || (od == 1 && (uint64_t)st->whole_outer_strides[0] * es == row_bytes);
        int all16 = 1;
        for (UINT k = 0; k < a->count; ++k) all16 &= st->parts[k].run_bytes % 16 == 0;
        for (UINT k = 0; k < a->count; ++k) {
            sj_part* p = &st->parts[k];
            const uint64_t run = p->run_bytes;
            const int part_seq = od == 0 || (od == 1 && (uint64_t)p->outer_strides[0] * es == run);
            if (run % 16 != 0 || run < DMLC_STREAM_MIN_RUN || !dmlc_cpu_has(DMLC_CPU_SSE2))
                p->stream = 0;
            else if (a->split)
                p->stream = run >= 256 || (st->tiled && part_seq);
            else
                p->stream = !st->tiled && all16 && (whole_seq || row_bytes >= 256);
            st->stream |= p->stream;
        }
    }
}

HRESULT dmlc_infer_split_join(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const sj_args a = read_args(type, desc);
    HRESULT hr;
    if (FAILED(hr = check_count(opname, &a)) || FAILED(hr = dmlc_shapes_count(sh, a.split ? a.count : 1))) return hr;
    return a.split ? infer_split(opname, &a, sh) : infer_join(opname, &a, sh);
}

HRESULT dmlc_create_split_join(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const sj_args a = read_args(type, desc);
    dmlc_tensor whole;
    DMLC_OPERATOR_T* o;
    HRESULT hr;

    if (FAILED(hr = check_count(opname, &a)) ||
        FAILED(hr = dmlc_tensor_init(&whole, a.whole_desc, opname, a.whole_name, 1, DMLC_MAX_DIMS,
                                     a.split ? DMLC_INPUT : DMLC_OUTPUT)) ||
        FAILED(hr = check_axis(opname, &a, &whole, a.whole_name)))
        return hr;
    if ((uint64_t)a.count * sizeof(sj_part) > (uint64_t)(SIZE_MAX - sizeof(sj_state))) /* 32-bit hosts */
        return dmlc_fail(E_OUTOFMEMORY, opname, "%s %u is too large to hold", a.count_name, a.count);
    o = dmlc_operator_alloc(type, opname, a.split ? 1 : a.count, a.split ? a.count : 1,
                            sizeof(sj_state) + (size_t)a.count * sizeof(sj_part));
    if (!o) return E_OUTOFMEMORY;
    if (FAILED(hr = validate(opname, &a, &whole, a.split ? o->outputs : o->inputs))) {
        dmlcReleaseOperator(o);
        return hr;
    }
    if (a.split)
        o->inputs[0] = whole;
    else
        o->outputs[0] = whole;
    o->execute = split_join_execute;
    plan((sj_state*)o->state, &a, &whole, a.split ? o->outputs : o->inputs);
    *op = o;
    return S_OK;
}
