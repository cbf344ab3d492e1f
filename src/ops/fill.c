/* fill.c - the operators that write an output without reading data, or whose output is mostly
 * generated: DML_OPERATOR_FILL_VALUE_CONSTANT, DML_OPERATOR_FILL_VALUE_SEQUENCE,
 * DML_OPERATOR_DIAGONAL_MATRIX and DML_OPERATOR_DIAGONAL_MATRIX1 (docs: the operators' pages).
 *
 * CONSTANT writes the union's low itemsize bytes into every element, bits exact (FLOAT16 as
 * its UInt16 bits, a NaN's payload kept; the other union bytes are ignored).  It is a copy
 * plan whose source is that one value with every stride 0.
 *
 * SEQUENCE writes element k, k its row-major number in the logical sizes (whatever the
 * output's Strides), as ValueStart + k * ValueDelta:
 *   integers  modulo 2^bits, so a UINT8 ValueDelta of 0xFE counts down by 2 (the page's
 *             example: 10, 8, 6, 4), computed as 64-bit unsigned arithmetic and truncated;
 *   floats    in double, fl64(fl64(k * Delta) + Start), never a fused multiply-add, then one
 *             round-to-nearest-even conversion to the type (FLOAT64: the double itself).
 *             The current page defines Value + elementIndex * Delta; older copies accumulate
 *             Value += Delta, whose rounding errors grow with k: dmlc follows the current one.
 *
 * DIAGONAL_MATRIX1 treats the output (2 to 8 dimensions) as a stack of matrices, y the row
 * and x the column of the last two dimensions, and writes Value where the diagonal
 * topX = x - y (exact, 64-bit) is selected:
 *   useValue = (End >= Begin) ^ (topX >= Begin) ^ (topX < End)
 * that is the diagonals [Begin, End), or with End < Begin every diagonal outside
 * [End, Begin); End = Begin selects none.  Elsewhere the InputTensor's element, or 0 without
 * one.  Worked example, Begin 0, End 2 on a 3x4 matrix: row y = 1 takes Value at x in
 * [1, 3), row 2 at x in [2, 4); with Begin 2, End 0 (inverted) row 1 takes it at x < 1 and
 * x >= 3.  DIAGONAL_MATRIX is DIAGONAL_MATRIX1 with Begin = Offset, End = Offset + 1 (64-bit,
 * so Offset INT_MAX works) and its FLOAT Value converted as PADDING's (truncation and
 * saturation for integers, NaN 0).
 *
 * The output's sizes are the operator's parameter (dmlcInferOutputSizes returns them), or for
 * DIAGONAL_MATRIX1 with an InputTensor that tensor's sizes. */
#include "../kernels/no_contract.h"

#include "../dmlc_internal.h"

typedef struct fill_args {
    const DML_TENSOR_DESC* input;  /* DIAGONAL_MATRIX1's optional InputTensor, else NULL */
    const DML_TENSOR_DESC* output;
    int diagonal;                  /* DIAGONAL_MATRIX(1): 2 to 8 dimensions, Begin/End below */
    int has_value_type;            /* DIAGONAL_MATRIX has no ValueDataType: its Value is a FLOAT */
    DML_TENSOR_DATA_TYPE value_type;
    DML_SCALAR_UNION start;        /* CONSTANT, DIAGONAL_MATRIX1: the value */
    DML_SCALAR_UNION delta;        /* CONSTANT: unused */
    float float_value;             /* DIAGONAL_MATRIX's Value */
    int64_t begin, end;            /* the diagonals [begin, end) (inverted when end < begin) */
} fill_args;

/* The one place that knows the four descs. */
static fill_args read_args(DML_OPERATOR_TYPE type, const void* desc)
{
    fill_args a;
    memset(&a, 0, sizeof a);
    a.has_value_type = 1;
    if (type == DML_OPERATOR_FILL_VALUE_CONSTANT) {
        const DML_FILL_VALUE_CONSTANT_OPERATOR_DESC* d = (const DML_FILL_VALUE_CONSTANT_OPERATOR_DESC*)desc;
        a.output = d->OutputTensor;
        a.value_type = d->ValueDataType;
        a.start = d->Value;
    } else if (type == DML_OPERATOR_FILL_VALUE_SEQUENCE) {
        const DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC* d = (const DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC*)desc;
        a.output = d->OutputTensor;
        a.value_type = d->ValueDataType;
        a.start = d->ValueStart;
        a.delta = d->ValueDelta;
    } else if (type == DML_OPERATOR_DIAGONAL_MATRIX) {
        const DML_DIAGONAL_MATRIX_OPERATOR_DESC* d = (const DML_DIAGONAL_MATRIX_OPERATOR_DESC*)desc;
        a.output = d->OutputTensor;
        a.diagonal = 1;
        a.has_value_type = 0;
        a.float_value = d->Value;
        a.begin = d->Offset;
        a.end = (int64_t)d->Offset + 1; /* the page's remark: DIAGONAL_MATRIX1 with [Offset, Offset + 1) */
    } else {
        const DML_DIAGONAL_MATRIX1_OPERATOR_DESC* d = (const DML_DIAGONAL_MATRIX1_OPERATOR_DESC*)desc;
        a.input = d->InputTensor;
        a.output = d->OutputTensor;
        a.diagonal = 1;
        a.value_type = d->ValueDataType;
        a.start = d->Value;
        a.begin = d->DiagonalFillBegin;
        a.end = d->DiagonalFillEnd;
    }
    return a;
}

/* ValueDataType names the data type; the output's sizes are stated as they are, or as the
 * InputTensor's.  in: the present InputTensor or NULL; out: NULL when inferring from in. */
static HRESULT validate(const char* opname, const fill_args* a, const dmlc_tensor* in, const dmlc_tensor* out,
                        dmlc_shapes* sh)
{
    char n1[DMLC_TYPE_NAME_SIZE], n2[DMLC_TYPE_NAME_SIZE];
    const dmlc_tensor* src = in ? in : out;
    HRESULT hr;
    if (a->has_value_type && a->value_type != src->type)
        return dmlc_fail(E_INVALIDARG, opname, "ValueDataType is %s, expected %s (%s.DataType)",
                         dmlc_data_type_name(a->value_type, n1), dmlc_data_type_name(src->type, n2),
                         in ? "InputTensor" : "OutputTensor");
    if (in && out && (FAILED(hr = dmlc_tensor_same_type(in, "InputTensor", out, "OutputTensor", opname)) ||
                      FAILED(hr = dmlc_tensor_same_rank(in, "InputTensor", out, "OutputTensor", opname))))
        return hr;
    dmlc_shape_rank(sh, 0, src->ndim);
    for (UINT k = 0; k < src->ndim; ++k) {
        hr = in ? dmlc_shape_expect(sh, 0, "OutputTensor", k, in->sizes[k], "InputTensor.Sizes[%u]", k)
                : dmlc_shape_expect(sh, 0, "OutputTensor", k, out->sizes[k], "its own Sizes[%u]", k);
        if (FAILED(hr)) return hr;
    }
    return S_OK;
}

/* ---- SEQUENCE kernels: elements [k0, k0 + n) of the sequence, written with a stride ------- */
typedef struct seq_state {
    UINT ndim;
    UINT sizes[DMLC_MAX_DIMS];
    int64_t strides[DMLC_MAX_DIMS]; /* the output's, in elements */
    int packed;                     /* row-major without gaps: element k is at k */
    UINT elem_size;
    uint64_t istart, idelta;        /* integers: the union's member, zero-extended */
    double fstart, fdelta;          /* floats: the union's value, exactly */
    void (*run)(const struct seq_state* st, char* out, uint64_t k0, uint64_t n, int64_t stride);
} seq_state;

/* Integers wrap: element k is start + k * delta modulo 2^bits.  A contiguous run adds delta
 * to the previous element in T itself (the same value modulo 2^bits, as truncation keeps
 * sums and products), which vectorises where the 64-bit multiply per element does not. */
#define SEQ_INT(NAME, T)                                                                                   \
    static void seq_##NAME(const seq_state* st, char* out, uint64_t k0, uint64_t n, int64_t stride)       \
    {                                                                                                      \
        T* o = (T*)out;                                                                                    \
        const uint64_t s = st->istart, d = st->idelta;                                                     \
        if (stride == 1) {                                                                                 \
            const T step = (T)d;                                                                           \
            T v = (T)(s + k0 * d);                                                                         \
            for (uint64_t i = 0; i < n; ++i) {                                                             \
                o[i] = v;                                                                                  \
                v = (T)(v + step);                                                                         \
            }                                                                                              \
        } else {                                                                                           \
            for (uint64_t i = 0; i < n; ++i) o[(int64_t)i * stride] = (T)(s + (k0 + i) * d);              \
        }                                                                                                  \
    }
SEQ_INT(u8, uint8_t)
SEQ_INT(u16, uint16_t)
SEQ_INT(u32, uint32_t)
SEQ_INT(u64, uint64_t)
#undef SEQ_INT

/* k as a double is exact below 2^53: beyond, a tensor this large has no use for FLOAT steps.
 * Contiguous runs go in blocks of 2^20: k = base + j with j a 32-bit int, which the vector
 * units convert (a 64-bit integer has no packed conversion before AVX-512); base + j is the
 * same exact double as (double)k. */
#define SEQ_BLOCK ((uint64_t)1 << 20)
#define SEQ_FLOAT(NAME, T, CONVERT, ATTR)                                                                  \
    ATTR static void seq_##NAME(const seq_state* st, char* out, uint64_t k0, uint64_t n, int64_t stride)  \
    {                                                                                                      \
        T* o = (T*)out;                                                                                    \
        const double s = st->fstart, d = st->fdelta;                                                       \
        if (stride == 1) {                                                                                 \
            for (uint64_t b = 0; b < n; b += SEQ_BLOCK) {                                                  \
                const double base = (double)(k0 + b);                                                      \
                const int32_t m = (int32_t)(n - b < SEQ_BLOCK ? n - b : SEQ_BLOCK);                        \
                T* ob = o + b;                                                                             \
                for (int32_t j = 0; j < m; ++j) {                                                          \
                    const double p = (base + (double)j) * d;                                               \
                    ob[j] = CONVERT(p + s);                                                                \
                }                                                                                          \
            }                                                                                              \
            return;                                                                                        \
        }                                                                                                  \
        for (uint64_t i = 0; i < n; ++i) {                                                                 \
            const double p = (double)(k0 + i) * d;                                                         \
            o[(int64_t)i * stride] = CONVERT(p + s);                                                       \
        }                                                                                                  \
    }
#define SEQ_TO_F64(v) (v)
#define SEQ_TO_F32(v) ((float)(v))
SEQ_FLOAT(f64, double, SEQ_TO_F64, )
SEQ_FLOAT(f32, float, SEQ_TO_F32, )
SEQ_FLOAT(f16, uint16_t, dmlc_double_to_half_inline, )
/* FLOAT32 and FLOAT64 with AVX2 where the CPU has it: the same loop, four doubles per
 * instruction instead of SSE2's two (each operation still rounded on its own: AVX2 brings
 * no fused multiply-add, and the file forbids contracting one), the same bits. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#  define SEQ_HAVE_AVX2 1
SEQ_FLOAT(f64_avx2, double, SEQ_TO_F64, __attribute__((target("avx2"))))
SEQ_FLOAT(f32_avx2, float, SEQ_TO_F32, __attribute__((target("avx2"))))
#else
#  define SEQ_HAVE_AVX2 0
#endif
#undef SEQ_TO_F64
#undef SEQ_TO_F32
#undef SEQ_FLOAT
#undef SEQ_BLOCK

/* Elements [begin, end) in row-major order: packed, one run; else from the coordinates of
 * begin, innermost rows one at a time. */
static void seq_range(void* ctx, uint64_t begin, uint64_t end)
{
    const seq_state* st = (const seq_state*)((void* const*)ctx)[0];
    char* out = (char*)((void* const*)ctx)[1];
    const UINT last = st->ndim - 1;
    UINT idx[DMLC_MAX_DIMS];
    uint64_t k = begin, rest = begin;
    int64_t off = 0;
    if (st->packed) {
        st->run(st, out + begin * st->elem_size, begin, end - begin, 1);
        return;
    }
    for (UINT i = st->ndim; i-- > 0;) {
        idx[i] = (UINT)(rest % st->sizes[i]);
        rest /= st->sizes[i];
        off += (int64_t)idx[i] * st->strides[i];
    }
    while (k < end) {
        uint64_t n = st->sizes[last] - idx[last];
        if (n > end - k) n = end - k;
        st->run(st, out + off * (int64_t)st->elem_size, k, n, st->strides[last]);
        k += n;
        off += (int64_t)n * st->strides[last];
        idx[last] += (UINT)n;
        for (UINT i = last; i > 0 && idx[i] == st->sizes[i]; --i) { /* carry into the outer coordinates */
            off -= (int64_t)st->sizes[i] * st->strides[i];
            idx[i] = 0;
            off += st->strides[i - 1];
            ++idx[i - 1];
        }
    }
}

static void seq_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const seq_state* st = (const seq_state*)op->state;
    void* ctx[2];
    (void)in;
    ctx[0] = (void*)(uintptr_t)st;
    ctx[1] = out[0];
    dmlc_parallel_for(op->outputs[0].count, op->outputs[0].count * st->elem_size, seq_range, ctx);
}

/* A FLOAT16/FLOAT32/FLOAT64 union member as a double, exactly. */
static double union_double(DML_TENSOR_DATA_TYPE t, const DML_SCALAR_UNION* u)
{
    if (t == DML_TENSOR_DATA_TYPE_FLOAT64) return u->Float64;
    if (t == DML_TENSOR_DATA_TYPE_FLOAT32) return (double)u->Float32;
    return (double)dmlc_half_to_float(u->UInt16);
}

/* The union's integer member of elem_size bytes, zero-extended (modulo 2^bits, a signed
 * value's bits are all that count). */
static uint64_t union_bits(UINT elem_size, const DML_SCALAR_UNION* u)
{
    switch (elem_size) {
    case 1: return u->UInt8;
    case 2: return u->UInt16;
    case 4: return u->UInt32;
    default: return u->UInt64;
    }
}

static void seq_plan(seq_state* st, const fill_args* a, const dmlc_tensor* out)
{
    uint64_t packed = 1;
    st->ndim = out->ndim;
    st->packed = 1;
    st->elem_size = out->elem_size;
    for (UINT i = out->ndim; i-- > 0;) {
        st->sizes[i] = out->sizes[i];
        st->strides[i] = (int64_t)out->strides[i];
        if (out->sizes[i] > 1 && out->strides[i] != packed) st->packed = 0;
        packed *= out->sizes[i];
    }
    st->istart = union_bits(out->elem_size, &a->start);
    st->idelta = union_bits(out->elem_size, &a->delta);
    switch ((int)out->type) {
#if SEQ_HAVE_AVX2
    case DML_TENSOR_DATA_TYPE_FLOAT64: st->run = dmlc_cpu_has(DMLC_CPU_AVX2) ? seq_f64_avx2 : seq_f64; break;
    case DML_TENSOR_DATA_TYPE_FLOAT32: st->run = dmlc_cpu_has(DMLC_CPU_AVX2) ? seq_f32_avx2 : seq_f32; break;
#else
    case DML_TENSOR_DATA_TYPE_FLOAT64: st->run = seq_f64; break;
    case DML_TENSOR_DATA_TYPE_FLOAT32: st->run = seq_f32; break;
#endif
    case DML_TENSOR_DATA_TYPE_FLOAT16: st->run = seq_f16; break;
    default:
        st->run = out->elem_size == 1 ? seq_u8 : out->elem_size == 2 ? seq_u16 : out->elem_size == 4 ? seq_u32 : seq_u64;
        return;
    }
    st->fstart = union_double(out->type, &a->start);
    st->fdelta = union_double(out->type, &a->delta);
}

/* ---- CONSTANT: one value, broadcast (src/kernels/fill.c) ------------------------------------ */
typedef struct const_state {
    dmlc_fill_plan fill;
    uint64_t value; /* the union's bytes: the low itemsize ones are the element */
} const_state;

static void const_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const const_state* st = (const const_state*)op->state;
    (void)in;
    dmlc_fill_run(&st->fill, out[0], &st->value);
}

static void const_plan(const_state* st, const fill_args* a, const dmlc_tensor* out)
{
    dmlc_fill_plan_init(&st->fill, out);
    memcpy(&st->value, a->start.Bytes, sizeof st->value); /* every member starts at byte 0 */
}

/* ---- DIAGONAL_MATRIX(1): matrix rows in three runs ----------------------------------------- */
typedef struct diag_state {
    UINT ndim;
    UINT sizes[DMLC_MAX_DIMS];
    int64_t out_strides[DMLC_MAX_DIMS]; /* in elements */
    int64_t in_strides[DMLC_MAX_DIMS];  /* InputTensor's; unused without one */
    int has_input;
    int64_t begin, end;
    uint64_t value; /* the element's bits in the low itemsize bytes */
    UINT elem_size;
    int stream; /* large outputs: packed zero runs written with non-temporal stores (src/kernels/stream.c) */
    void (*row)(const struct diag_state* st, char* out, const char* in, int64_t y);
} diag_state;

static int64_t clamp_i64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* One row y of width w: Value on the selected diagonals' columns, else the input's element (or
 * 0).  The selected columns of a row are one run [y + Begin, y + End) or, inverted, the two
 * runs left of y + End and from y + Begin; clipped to the row, the row is three runs
 * [0, p) [p, q) [q, w) whose middle one is Value exactly when the span is not inverted. */
#define DIAG_ROW(NAME, T)                                                                                  \
    static void diag_background_##NAME(const diag_state* st, T* o, int64_t os, const T* i, int64_t is,     \
                                       int64_t from, int64_t to)                                           \
    {                                                                                                      \
        static const T zero = 0;                                                                           \
        const size_t n = (size_t)(to - from) * sizeof(T);                                                  \
        if (from >= to) return;                                                                            \
        if (i && os == 1 && is == 1) { /* packed rows: a copy (streaming it measured slower) */            \
            memcpy(o + from, i + from, n);                                                                 \
        } else if (i) {                                                                                    \
            for (int64_t x = from; x < to; ++x) o[x * os] = i[x * is];                                     \
        } else if (os == 1) { /* zeros: all bits 0 in every type */                                        \
            if (st->stream) dmlc_fill_stream_lines(o + from, n, &zero, sizeof(T));                         \
            else memset(o + from, 0, n);                                                                   \
        } else {                                                                                           \
            for (int64_t x = from; x < to; ++x) o[x * os] = 0;                                             \
        }                                                                                                  \
    }                                                                                                      \
    static void diag_value_##NAME(T* o, int64_t os, T v, int64_t from, int64_t to)                         \
    {                                                                                                      \
        for (int64_t x = from; x < to; ++x) o[x * os] = v;                                                 \
    }                                                                                                      \
    static void diag_row_##NAME(const diag_state* st, char* out, const char* in, int64_t y)               \
    {                                                                                                      \
        const UINT last = st->ndim - 1;                                                                    \
        const int64_t w = st->sizes[last], os = st->out_strides[last], is = st->in_strides[last];          \
        const int inverted = st->end < st->begin;                                                          \
        const int64_t lo = clamp_i64(y + st->begin, 0, w), hi = clamp_i64(y + st->end, 0, w);              \
        const int64_t p = inverted ? hi : lo, q = inverted ? lo : hi;                                      \
        T v, *o = (T*)out;                                                                                 \
        const T* i = (const T*)in;                                                                         \
        memcpy(&v, &st->value, sizeof v);                                                                  \
        if (inverted) {                                                                                    \
            diag_value_##NAME(o, os, v, 0, p);                                                             \
            diag_background_##NAME(st, o, os, i, is, p, q);                                                    \
            diag_value_##NAME(o, os, v, q, w);                                                             \
        } else {                                                                                           \
            diag_background_##NAME(st, o, os, i, is, 0, p);                                                    \
            diag_value_##NAME(o, os, v, p, q);                                                             \
            diag_background_##NAME(st, o, os, i, is, q, w);                                                    \
        }                                                                                                  \
    }
DIAG_ROW(u8, uint8_t)
DIAG_ROW(u16, uint16_t)
DIAG_ROW(u32, uint32_t)
DIAG_ROW(u64, uint64_t)
#undef DIAG_ROW

/* Rows [begin, end) of the stacked matrices, row r being y = r % height of matrix r / height. */
static void diag_range(void* ctx, uint64_t begin, uint64_t end)
{
    const diag_state* st = (const diag_state*)((void* const*)ctx)[0];
    char* out = (char*)((void* const*)ctx)[1];
    const char* in = (const char*)((void* const*)ctx)[2];
    const UINT rows_ndim = st->ndim - 1; /* every dimension but the columns */
    const int64_t es = st->elem_size;
    for (uint64_t r = begin; r < end; ++r) {
        uint64_t rest = r;
        int64_t oo = 0, io = 0;
        for (UINT d = rows_ndim; d-- > 0;) {
            const int64_t c = (int64_t)(rest % st->sizes[d]);
            rest /= st->sizes[d];
            oo += c * st->out_strides[d];
            io += c * st->in_strides[d];
        }
        st->row(st, out + oo * es, in ? in + io * es : NULL, (int64_t)(r % st->sizes[rows_ndim - 1]));
    }
    if (st->stream) dmlc_stream_fence(); /* streamed stores are visible before the call returns */
}

static void diag_execute(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out)
{
    const diag_state* st = (const diag_state*)op->state;
    void* ctx[3];
    ctx[0] = (void*)(uintptr_t)st;
    ctx[1] = out[0];
    ctx[2] = st->has_input ? (void*)(uintptr_t)in[0] : NULL;
    dmlc_parallel_for(op->outputs[0].count / st->sizes[st->ndim - 1], op->outputs[0].count * st->elem_size,
                      diag_range, ctx);
}

static void diag_plan(diag_state* st, const fill_args* a, const dmlc_tensor* in, const dmlc_tensor* out)
{
    unsigned char bits[8];
    st->ndim = out->ndim;
    st->elem_size = out->elem_size;
    st->has_input = in != NULL;
    st->begin = a->begin;
    st->end = a->end;
    st->stream = DMLC_HAVE_STREAM && dmlc_cpu_has(DMLC_CPU_SSE2) && out->count * out->elem_size >= DMLC_STREAM_MIN_BYTES;
    for (UINT k = 0; k < out->ndim; ++k) {
        st->sizes[k] = out->sizes[k];
        st->out_strides[k] = (int64_t)out->strides[k];
        st->in_strides[k] = in ? (int64_t)in->strides[k] : 0;
    }
    if (a->has_value_type)
        memcpy(bits, a->start.Bytes, sizeof bits); /* every member starts at byte 0: the bits */
    else
        dmlc_float_value_bits(a->float_value, out->type, bits);
    memcpy(&st->value, bits, sizeof st->value);
    st->row = out->elem_size == 1 ? diag_row_u8 : out->elem_size == 2 ? diag_row_u16
            : out->elem_size == 4 ? diag_row_u32 : diag_row_u64;
}

/* ---- Entry points ------------------------------------------------------------------------- */
HRESULT dmlc_infer_fill(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh)
{
    const fill_args a = read_args(type, desc);
    const UINT min_dims = a.diagonal ? 2 : 1;
    dmlc_tensor in, out;
    HRESULT hr;
    if (FAILED(hr = dmlc_shapes_count(sh, 1))) return hr;
    if (a.input) { /* DIAGONAL_MATRIX1 over an input: the output is the input's shape */
        if (FAILED(hr = dmlc_tensor_init(&in, a.input, opname, "InputTensor", min_dims, DMLC_MAX_DIMS,
                                         DMLC_INPUT_MAY_BE_EMPTY)))
            return hr;
        return validate(opname, &a, &in, NULL, sh);
    }
    /* The output's sizes are the parameter: read from OutputTensor (its other fields are not looked at). */
    if (!a.output)
        return dmlc_fail(E_POINTER, opname, "OutputTensor is NULL; its sizes are the operator's parameter, so "
                         "dmlcInferOutputSizes reads them from OutputTensor's DimensionCount and Sizes");
    if (FAILED(hr = dmlc_tensor_init(&out, a.output, opname, "OutputTensor", min_dims, DMLC_MAX_DIMS,
                                     DMLC_INPUT_MAY_BE_EMPTY)))
        return hr;
    return validate(opname, &a, NULL, &out, sh);
}

HRESULT dmlc_create_fill(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op)
{
    const fill_args a = read_args(type, desc);
    const UINT min_dims = a.diagonal ? 2 : 1;
    dmlc_tensor in, out;
    dmlc_shapes sh = {opname, 0, 1, &out, NULL};
    DMLC_OPERATOR_T* o;
    size_t state = type == DML_OPERATOR_FILL_VALUE_CONSTANT ? sizeof(const_state)
                 : type == DML_OPERATOR_FILL_VALUE_SEQUENCE ? sizeof(seq_state) : sizeof(diag_state);
    HRESULT hr;
    if ((a.input && FAILED(hr = dmlc_tensor_init(&in, a.input, opname, "InputTensor", min_dims, DMLC_MAX_DIMS,
                                                 DMLC_INPUT))) ||
        FAILED(hr = dmlc_tensor_init(&out, a.output, opname, "OutputTensor", min_dims, DMLC_MAX_DIMS, DMLC_OUTPUT)) ||
        FAILED(hr = validate(opname, &a, a.input ? &in : NULL, &out, &sh)))
        return hr;
    /* DIAGONAL_MATRIX1 always has its input slot; without InputTensor it is absent (present 0),
     * and its binding's Buffer must be NULL. */
    o = dmlc_operator_alloc(type, opname, type == DML_OPERATOR_DIAGONAL_MATRIX1 ? 1 : 0, 1, state);
    if (!o) return E_OUTOFMEMORY;
    o->outputs[0] = out;
    if (a.input) o->inputs[0] = in;
    if (type == DML_OPERATOR_FILL_VALUE_CONSTANT) {
        o->execute = const_execute;
        const_plan((const_state*)o->state, &a, &out);
    } else if (type == DML_OPERATOR_FILL_VALUE_SEQUENCE) {
        o->execute = seq_execute;
        seq_plan((seq_state*)o->state, &a, &out);
    } else {
        o->execute = diag_execute;
        diag_plan((diag_state*)o->state, &a, a.input ? &in : NULL, &out);
    }
    *op = o;
    return S_OK;
}
