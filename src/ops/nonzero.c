/* nonzero.c - DML_OPERATOR_NONZERO_COORDINATES: how many elements of the input are non-zero
 * and where they are (docs/operators/nonzero_coordinates.rst).
 *
 * An element is zero when it equals 0: +0.0 and -0.0 are zero, a NaN is not.  That is a
 * test of the element's bits under a mask: all of them for an integer, all but the sign bit
 * for a float (FLOAT32 0x80000000 & ~mask == 0 is -0.0).  So one kernel per element size
 * serves the eleven types.
 *
 * OutputCountTensor (sizes all 1) gets the count.  OutputCoordinatesTensor has sizes
 * {1, ..., 1, M, N}: M the input's element count, N between the input's effective rank (its
 * DimensionCount less the leading sizes of 1, at least 1) and its DimensionCount.  Row r <
 * count holds the last N coordinates of the r-th non-zero element in row-major order; rows
 * from count to M - 1 are zero.  Example: input {2, 3} = [[0, 5, 0], [7, 0, -0.0]], N 2:
 * count 2, rows (0, 1), (1, 0), then four rows (0, 0).
 *
 * Two passes over blocks of the flat element range, each pass parallel: count the non-zero
 * elements of every block; a prefix sum gives each block its first row; then every block
 * writes its rows.  A block walks its range as rows of the innermost axis, keeping the outer
 * coordinates as an odometer. */
#include "../dmlc_internal.h"

#define NZ_MAX_BLOCKS 256               /* per-block counts live on the stack */
#define NZ_MIN_BLOCK ((uint64_t)1 << 14) /* elements: smaller inputs are one block */

typedef struct nz_state nz_state;

/* The non-zero elements among [c0, c1) of one row (stride in elements). */
typedef uint64_t (*nz_count_fn)(const char* row, int64_t stride, uint64_t c0, uint64_t c1, uint64_t mask);
/* Writes a row of coordinates per non-zero element among [c0, c1), starting at out (bytes):
 * coordinates 0 .. ncoord-2 from outer[], the last one the element's position in the row.
 * Returns out advanced past the rows written. */
typedef char* (*nz_write_fn)(const nz_state* st, const char* row, int64_t stride, uint64_t c0, uint64_t c1,
                             const uint64_t* outer, char* out);

struct nz_state {
    uint64_t mask;         /* the bits that make an element non-zero */
    UINT elem_size;
    UINT ndim;             /* the input's */
    uint64_t sizes[DMLC_MAX_DIMS];
    int64_t strides[DMLC_MAX_DIMS];
    uint64_t count;        /* input elements: M */
    UINT ncoord;           /* N: the last N coordinates are written */
    UINT out_size;         /* coordinates: 4 or 8 bytes */
    UINT count_size;       /* the count: 4 or 8 bytes */
    int64_t row_step;      /* coordinates' strides (bytes) between rows and between coordinates */
    int64_t col_step;
    uint64_t blocks;
    nz_count_fn count_fn;
    nz_write_fn write_fn;
};

/* ---- Kernels: one per element size (and coordinate width for the writer) ------------------ */
#define NZ_COUNT_DEF(NAME, T)                                                                                     \
    static uint64_t nz_count_##NAME(const char* row, int64_t stride, uint64_t c0, uint64_t c1, uint64_t mask)   \
    {                                                                                                            \
        const T* x = (const T*)(const void*)row;                                                                 \
        const T m = (T)mask;                                                                                     \
        uint64_t n = 0;                                                                                          \
        if (stride == 1)                                                                                         \
            for (uint64_t i = c0; i < c1; ++i) n += (x[i] & m) != 0;                                             \
        else                                                                                                     \
            for (uint64_t i = c0; i < c1; ++i) n += (x[(int64_t)i * stride] & m) != 0;                          \
        return n;                                                                                                \
    }
NZ_COUNT_DEF(1, uint8_t)
NZ_COUNT_DEF(2, uint16_t)
NZ_COUNT_DEF(4, uint32_t)
NZ_COUNT_DEF(8, uint64_t)

/* The lowest set bit's position (v not 0). */
#if defined(__GNUC__) || defined(__clang__)
#  define NZ_CTZ(v) ((uint64_t)__builtin_ctzll(v))
#else
static uint64_t nz_ctz(uint64_t v)
{
    uint64_t n = 0;
    for (; !(v & 1); v >>= 1) ++n;
    return n;
}
#  define NZ_CTZ(v) nz_ctz(v)
#endif

/* The non-zero bits of 64 contiguous elements, bit b for x[b]: portable for every size,
 * four 4-byte elements per compare with SSE2 (x86-64's baseline) for FLOAT32 and the 32-bit
 * integers. */
#define NZ_BITS_DEF(NAME, T)                                                                                      \
    static inline uint64_t nz_bits_##NAME(const T* x, T m)                                                       \
    {                                                                                                            \
        uint64_t bits = 0;                                                                                       \
        for (UINT b = 0; b < 64; ++b) bits |= (uint64_t)((x[b] & m) != 0) << b;                                  \
        return bits;                                                                                             \
    }
NZ_BITS_DEF(1, uint8_t)
NZ_BITS_DEF(2, uint16_t)
NZ_BITS_DEF(8, uint64_t)
#if defined(__SSE2__) || defined(_M_X64)
#  include <emmintrin.h>
static inline uint64_t nz_bits_4(const uint32_t* x, uint32_t m)
{
    const __m128i mm = _mm_set1_epi32((int)m), zero = _mm_setzero_si128();
    uint64_t bits = 0;
    for (UINT b = 0; b < 64; b += 4) {
        const __m128i v = _mm_and_si128(_mm_loadu_si128((const __m128i*)(const void*)(x + b)), mm);
        bits |= (uint64_t)(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, zero))) ^ 15) << b;
    }
    return bits;
}
#else
NZ_BITS_DEF(4, uint32_t)
#endif
#undef NZ_BITS_DEF

/* Contiguous rows go 64 elements at a time: a word of their non-zero bits (nz_bits_*, no
 * branches), then one row written per set bit, so the branch a sparse input mispredicts is
 * taken once per 64 elements rather than once per non-zero element. */
#define NZ_WRITE_DEF(NAME, BITS, T, O)                                                                            \
    static char* nz_write_##NAME(const nz_state* st, const char* row, int64_t stride, uint64_t c0, uint64_t c1,  \
                                 const uint64_t* outer, char* out)                                               \
    {                                                                                                            \
        const T* x = (const T*)(const void*)row;                                                                 \
        const T m = (T)st->mask;                                                                                 \
        const UINT last = st->ncoord - 1;                                                                        \
        const int64_t rs = st->row_step, cs = st->col_step;                                                      \
        O head[DMLC_MAX_DIMS];                                                                                   \
        uint64_t i = c0;                                                                                         \
        for (UINT j = 0; j < last; ++j) head[j] = (O)outer[j];                                                   \
        if (stride == 1)                                                                                         \
            for (; i + 64 <= c1; i += 64) {                                                                      \
                for (uint64_t bits = nz_bits_##BITS(x + i, m); bits; bits &= bits - 1) {                           \
                    const O v = (O)(i + NZ_CTZ(bits));                                                           \
                    for (UINT j = 0; j < last; ++j) memcpy(out + (int64_t)j * cs, &head[j], sizeof v);           \
                    memcpy(out + (int64_t)last * cs, &v, sizeof v);                                              \
                    out += rs;                                                                                   \
                }                                                                                                \
            }                                                                                                    \
        for (; i < c1; ++i) {                                                                                    \
            if ((x[(int64_t)i * stride] & m) == 0) continue;                                                     \
            for (UINT j = 0; j < last; ++j) memcpy(out + (int64_t)j * cs, &head[j], sizeof head[j]);             \
            {                                                                                                    \
                const O v = (O)i;                                                                                \
                memcpy(out + (int64_t)last * cs, &v, sizeof v);                                                  \
            }                                                                                                    \
            out += rs;                                                                                           \
        }                                                                                                        \
        return out;                                                                                              \
    }
NZ_WRITE_DEF(1_4, 1, uint8_t, uint32_t)
NZ_WRITE_DEF(2_4, 2, uint16_t, uint32_t)
NZ_WRITE_DEF(4_4, 4, uint32_t, uint32_t)
NZ_WRITE_DEF(8_4, 8, uint64_t, uint32_t)
NZ_WRITE_DEF(1_8, 1, uint8_t, uint64_t)
NZ_WRITE_DEF(2_8, 2, uint16_t, uint64_t)
NZ_WRITE_DEF(4_8, 4, uint32_t, uint64_t)
NZ_WRITE_DEF(8_8, 8, uint64_t, uint64_t)

/* ---- Execution ----------------------------------------------------------------------------- */
typedef struct nz_job {
    const nz_state* st;
    const char* in;
    char* coords;
    uint64_t* counts; /* per block: pass 1 writes counts, the prefix sum makes them first rows */
    uint64_t total;
    int stream;       /* the zero rows are written with non-temporal stores */
} nz_job;

/* Walks the flat elements [f0, f1) as pieces of innermost rows: calls the count or write
 * kernel on each piece, with the piece's outer coordinates. */
static uint64_t nz_walk(const nz_job* job, uint64_t f0, uint64_t f1, char* out)
{
    const nz_state* st = job->st;
    const UINT d = st->ndim - 1;
    const uint64_t n = st->sizes[d];
    uint64_t coord[DMLC_MAX_DIMS], r = f0 / n, c = f0 % n, found = 0;
    int64_t off = 0;
    /* The coordinates of f0's row, outermost last in the division. */
    for (UINT k = d; k-- > 0;) {
        coord[k] = r % st->sizes[k];
        r /= st->sizes[k];
        off += (int64_t)coord[k] * st->strides[k];
    }
    while (f0 < f1) {
        const uint64_t c1 = f1 - f0 < n - c ? c + (f1 - f0) : n;
        const char* row = job->in + off * (int64_t)st->elem_size;
        if (out)
            out = st->write_fn(st, row, st->strides[d], c, c1, coord + (st->ndim - st->ncoord), out);
        else
            found += st->count_fn(row, st->strides[d], c, c1, st->mask);
        f0 += c1 - c;
        c = 0;
        /* The odometer: the next row's outer coordinates. */
        for (UINT k = d; k-- > 0;) {
            off += st->strides[k];
            if (++coord[k] < st->sizes[k]) break;
            off -= (int64_t)st->sizes[k] * st->strides[k];
            coord[k] = 0;
        }
    }
    return found;
}

static uint64_t block_start(const nz_state* st, uint64_t b) { return st->count * b / st->blocks; }

static void nz_count_blocks(void* ctx, uint64_t begin, uint64_t end)
{
    nz_job* job = (nz_job*)ctx;
    for (uint64_t b = begin; b < end; ++b)
        job->counts[b] = nz_walk(job, block_start(job->st, b), block_start(job->st, b + 1), NULL);
}

static void nz_write_blocks(void* ctx, uint64_t begin, uint64_t end)
{
    nz_job* job = (nz_job*)ctx;
    const nz_state* st = job->st;
    for (uint64_t b = begin; b < end; ++b)
        nz_walk(job, block_start(st, b), block_start(st, b + 1), job->coords + (int64_t)job->counts[b] * st->row_step);
}

/* Rows [total, M) are zero: a range of rows per item. */
static void nz_zero_rows(void* ctx, uint64_t begin, uint64_t end)
{
    nz_job* job = (nz_job*)ctx;
    const nz_state* st = job->st;
    const uint64_t rows = st->count - job->total;
    const uint64_t r0 = job->total + rows * begin / NZ_MAX_BLOCKS, r1 = job->total + rows * end / NZ_MAX_BLOCKS;
    if (st->col_step == (int64_t)st->out_size && st->row_step == (int64_t)(st->ncoord * st->out_size)) {
        const uint64_t zero = 0;
        char* p = job->coords + (int64_t)r0 * st->row_step;
        const size_t n = (size_t)((r1 - r0) * (uint64_t)st->row_step);
        if (job->stream)
            dmlc_fill_stream_lines(p, n, &zero, st->out_size);
        else
            memset(p, 0, n);
        return;
    }
    for (uint64_t r = r0; r < r1; ++r)
        for (UINT j = 0; j < st->ncoord; ++j)
            memset(job->coords + (int64_t)r * st->row_step + (int64_t)j * st->col_step, 0, st->out_size);
}

static void nz_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const nz_state* st = (const nz_state*)op->state;
    uint64_t counts[NZ_MAX_BLOCKS], total = 0;
    nz_job job;
    job.st = st;
    job.in = (const char*)in[0];
    job.coords = (char*)out[1];
    job.counts = counts;
    dmlc_parallel_for(st->blocks, st->count * st->elem_size, nz_count_blocks, &job);
    for (uint64_t b = 0; b < st->blocks; ++b) { /* counts become each block's first row */
        const uint64_t c = counts[b];
        counts[b] = total;
        total += c;
    }
    job.total = total;
    if (st->count_size == 8) {
        memcpy(out[0], &total, 8);
    } else {
        const uint32_t v = (uint32_t)total;
        memcpy(out[0], &v, 4);
    }
    if (total)
        dmlc_parallel_for(st->blocks, st->count * st->elem_size + total * st->ncoord * st->out_size, nz_write_blocks,
                          &job);
    if (total < st->count) {
        /* The zero rows are most of the output when few elements are non-zero: streamed
         * past the caches when they are far larger than them (no read of each line first). */
        const uint64_t bytes = (st->count - total) * st->ncoord * st->out_size;
        job.stream = DMLC_HAVE_STREAM && bytes >= DMLC_STREAM_MIN_BYTES;
        dmlc_parallel_for(NZ_MAX_BLOCKS, bytes, nz_zero_rows, &job);
        if (job.stream) dmlc_stream_fence(); /* streamed stores are visible before the call returns */
    }
}

/* ---- Validation and planning ------------------------------------------------------------ */
typedef struct nz_args {
    const DML_TENSOR_DESC* in;
    const DML_TENSOR_DESC* count;
    const DML_TENSOR_DESC* coords;
} nz_args;

static nz_args read_args(const DML_NONZERO_COORDINATES_OPERATOR_DESC* d)
{
    nz_args a;
    a.in = d->InputTensor;
    a.count = d->OutputCountTensor;
    a.coords = d->OutputCoordinatesTensor;
    return a;
}

/* The input's DimensionCount less its leading sizes of 1, at least 1: the fewest coordinates
 * that tell its elements apart ({1, 2, 3, 4}: 3). */
static UINT min_coordinates(const dmlc_tensor* in)
{
    UINT lead = 0;
    while (lead < in->ndim && in->sizes[lead] == 1) ++lead;
    return in->ndim - lead > 0 ? in->ndim - lead : 1;
}

/* Output slots: 0 OutputCountTensor, 1 OutputCoordinatesTensor.  Inferred: {1} and
 * {element count, DimensionCount}; checked: any DimensionCount (count 1 to 8, coordinates 2
 * to 8) with the leading sizes 1. */
static HRESULT validate(const char* opname, const dmlc_tensor* in, dmlc_shapes* sh)
{
    HRESULT hr;
    const int infer = dmlc_shapes_infer(sh);
    const UINT count_dims = infer ? 1 : sh->outputs[0].ndim, coord_dims = infer ? 2 : sh->outputs[1].ndim;
    dmlc_shape_rank(sh, 0, count_dims);
    dmlc_shape_rank(sh, 1, coord_dims);
    for (UINT d = 0; d < count_dims; ++d)
        if (FAILED(hr = dmlc_shape_expect(sh, 0, "OutputCountTensor", d, 1, "it holds one value")))
            return hr;
    for (UINT d = 0; d + 2 < coord_dims; ++d)
        if (FAILED(hr = dmlc_shape_expect(sh, 1, "OutputCoordinatesTensor", d, 1, "a leading size")))
            return hr;
    if (FAILED(hr = dmlc_shape_expect(sh, 1, "OutputCoordinatesTensor", coord_dims - 2, in->count,
                                      "InputTensor's element count")))
        return hr;
    if (infer)
        return dmlc_shape_expect(sh, 1, "OutputCoordinatesTensor", 1, in->ndim, "InputTensor.DimensionCount");
    {
        const dmlc_tensor* coords = &sh->outputs[1];
        const UINT n = coords->sizes[coord_dims - 1], lo = min_coordinates(in);
        uint64_t largest = 0;
        if (n < lo || n > in->ndim)
            return dmlc_fail(E_INVALIDARG, opname,
                             "OutputCoordinatesTensor.Sizes[%u] is %u, expected %u to %u (the coordinates kept: at "
                             "least InputTensor's DimensionCount less its leading sizes of 1, at most its "
                             "DimensionCount)", coord_dims - 1, n, lo, in->ndim);
        for (UINT d = in->ndim - n; d < in->ndim; ++d)
            if (in->sizes[d] - 1 > largest) largest = in->sizes[d] - 1;
        if (FAILED(hr = dmlc_check_index_type(&sh->outputs[0], opname, "OutputCountTensor", in->count,
                                              "%llu (InputTensor's element count)",
                                              (unsigned long long)in->count)) ||
            FAILED(hr = dmlc_check_index_type(coords, opname, "OutputCoordinatesTensor", largest,
                                              "%llu (the largest coordinate)", (unsigned long long)largest)))
            return hr;
    }
    return S_OK;
}

static void plan(nz_state* st, const dmlc_tensor* in, const dmlc_tensor* count, const dmlc_tensor* coords)
{
    const UINT cd = coords->ndim;
    st->elem_size = in->elem_size;
    /* Floats: every bit but the sign (-0.0 is zero); integers: every bit. */
    switch (in->type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16: st->mask = 0x7fff; break;
    case DML_TENSOR_DATA_TYPE_FLOAT32: st->mask = 0x7fffffff; break;
    case DML_TENSOR_DATA_TYPE_FLOAT64: st->mask = (uint64_t)INT64_MAX; break;
    default: st->mask = UINT64_MAX; break;
    }
    st->ndim = in->ndim;
    for (UINT d = 0; d < in->ndim; ++d) {
        st->sizes[d] = in->sizes[d];
        st->strides[d] = (int64_t)in->strides[d];
    }
    st->count = in->count;
    st->ncoord = coords->sizes[cd - 1];
    st->out_size = coords->elem_size;
    st->count_size = count->elem_size;
    st->row_step = (int64_t)(coords->strides[cd - 2] * coords->elem_size);
    st->col_step = (int64_t)(coords->strides[cd - 1] * coords->elem_size);
    st->blocks = in->count / NZ_MIN_BLOCK;
    if (st->blocks > NZ_MAX_BLOCKS) st->blocks = NZ_MAX_BLOCKS;
    if (st->blocks < 1) st->blocks = 1;
    switch (in->elem_size) {
    case 1: st->count_fn = nz_count_1; st->write_fn = st->out_size == 8 ? nz_write_1_8 : nz_write_1_4; break;
    case 2: st->count_fn = nz_count_2; st->write_fn = st->out_size == 8 ? nz_write_2_8 : nz_write_2_4; break;
    case 4: st->count_fn = nz_count_4; st->write_fn = st->out_size == 8 ? nz_write_4_8 : nz_write_4_4; break;
    default: st->count_fn = nz_count_8; st->write_fn = st->out_size == 8 ? nz_write_8_8 : nz_write_8_4; break;
    }
}

HRESULT dmlc_infer_nonzero(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const nz_args a = read_args((const DML_NONZERO_COORDINATES_OPERATOR_DESC*)desc);
    dmlc_tensor in;
    HRESULT hr;
    (void)type;
    if (FAILED(hr = dmlc_shapes_count(sh, 2)) ||
        FAILED(hr = dmlc_tensor_init(&in, a.in, opname, "InputTensor", 1, DMLC_MAX_DIMS, dmlc_shapes_input_role(sh))))
        return hr;
    return validate(opname, &in, sh);
}

HRESULT dmlc_create_nonzero(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const nz_args a = read_args((const DML_NONZERO_COORDINATES_OPERATOR_DESC*)desc);
    dmlc_tensor in, outs[2];
    dmlc_shapes sh = {opname, 0, 2, outs, NULL};
    DMLC_OPERATOR_T* o;
    HRESULT hr;

    if (FAILED(hr = dmlc_tensor_init(&in, a.in, opname, "InputTensor", 1, DMLC_MAX_DIMS, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(&outs[0], a.count, opname, "OutputCountTensor", 1, DMLC_MAX_DIMS, DMLC_OUTPUT)) ||
        FAILED(hr = dmlc_tensor_init(&outs[1], a.coords, opname, "OutputCoordinatesTensor", 2, DMLC_MAX_DIMS,
                                     DMLC_OUTPUT)) ||
        FAILED(hr = validate(opname, &in, &sh)))
        return hr;
    o = dmlc_operator_alloc(type, opname, 1, 2, sizeof(nz_state));
    if (!o) return E_OUTOFMEMORY;
    o->inputs[0] = in;
    o->outputs[0] = outs[0];
    o->outputs[1] = outs[1];
    o->execute = nz_execute;
    plan((nz_state*)o->state, &in, &outs[0], &outs[1]);
    *op = o;
    return S_OK;
}
