/* dmlc_internal.h - what the core's files share: normalised tensors, the operator object,
 * the error channel, threading and the data-movement kernels.  Never installed. */
#ifndef DMLC_INTERNAL_H
#define DMLC_INTERNAL_H

#include "directml_py.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define DMLC_MAX_DIMS 8

#if defined(__GNUC__) || defined(__clang__)
#  define DMLC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#  define DMLC_RESTRICT __restrict__
#  define DMLC_LIKELY(x) __builtin_expect(!!(x), 1)
#  define DMLC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#  define DMLC_PRINTF(f, a)
#  define DMLC_RESTRICT
#  define DMLC_LIKELY(x) (x)
#  define DMLC_UNLIKELY(x) (x)
#endif

/* ---- Errors ----------------------------------------------------------------------------
 * One channel: a failure returns an HRESULT and sets the thread-local message with
 * dmlc_fail().  Messages start with the operator's name (or the API function's). */
HRESULT dmlc_fail(HRESULT hr, const char* who, const char* fmt, ...) DMLC_PRINTF(3, 4);
void dmlc_clear_error(void);

/* The name of a DML_OPERATOR_TYPE value ("DML_OPERATOR_PADDING"), or NULL if unknown. */
const char* dmlc_operator_type_name(DML_OPERATOR_TYPE type);
/* The name of a DML_TENSOR_DATA_TYPE value ("FLOAT32"), or "UNKNOWN(<value>)". */
const char* dmlc_data_type_name(DML_TENSOR_DATA_TYPE type, char buf[32]);
/* Element size of one of the eleven supported types, 0 for anything else. */
UINT dmlc_data_type_size(DML_TENSOR_DATA_TYPE type);

/* ---- Overflow-checked arithmetic ---------------------------------------------------- */
static inline int dmlc_mul_u64(uint64_t a, uint64_t b, uint64_t* r)
{
    if (a != 0 && b > UINT64_MAX / a) return 0;
    *r = a * b;
    return 1;
}
static inline int dmlc_add_u64(uint64_t a, uint64_t b, uint64_t* r)
{
    if (b > UINT64_MAX - a) return 0;
    *r = a + b;
    return 1;
}

/* ---- Normalised buffer tensors -------------------------------------------------------- */
typedef struct dmlc_tensor {
    int present;                     /* 0 for an absent optional tensor */
    DML_TENSOR_DATA_TYPE type;
    UINT elem_size;
    UINT ndim;
    UINT sizes[DMLC_MAX_DIMS];
    uint64_t strides[DMLC_MAX_DIMS]; /* in elements; packed row-major when the desc had NULL */
    uint64_t count;                  /* number of elements */
    uint64_t extent;                 /* bytes actually addressed: (last index + 1) * elem_size */
    uint64_t total_bytes;            /* the desc's TotalTensorSizeInBytes */
} dmlc_tensor;

typedef enum dmlc_tensor_role { DMLC_INPUT = 0, DMLC_OUTPUT = 1 } dmlc_tensor_role;

/* Validates one DML_TENSOR_DESC (SPEC section 3) and normalises it into *t.
 * who: operator name for messages; field: "InputTensor", "OutputTensors[2]", ... */
HRESULT dmlc_tensor_init(dmlc_tensor* t, const DML_TENSOR_DESC* desc, const char* who,
                         const char* field, UINT min_dims, UINT max_dims, dmlc_tensor_role role);

/* Checks b's DataType against a's: "OutputTensor.DataType is INT32, expected FLOAT32 (InputTensor.DataType)". */
HRESULT dmlc_tensor_same_type(const dmlc_tensor* a, const char* a_field, const dmlc_tensor* b,
                              const char* b_field, const char* who);

/* Checks b's DimensionCount against a's. */
HRESULT dmlc_tensor_same_rank(const dmlc_tensor* a, const char* a_field, const dmlc_tensor* b,
                              const char* b_field, const char* who);

/* Checks t->sizes[dim] == expected; on a mismatch the message explains the expected value
 * with why_fmt: "OutputTensor.Sizes[2] is 7, expected 8 (InputTensor.Sizes[2] 4 + ...)".
 * The explanation is formatted only on failure. */
HRESULT dmlc_tensor_expect_size(const dmlc_tensor* t, const char* who, const char* field, UINT dim,
                                uint64_t expected, const char* why_fmt, ...) DMLC_PRINTF(6, 7);

/* ---- The operator object -------------------------------------------------------------- */
typedef struct DMLC_OPERATOR DMLC_OPERATOR_T;

/* Runs a validated operator on bound memory.  in[i]/out[i] point at Buffer + Offset of
 * each slot (NULL for an absent optional tensor).  Never fails for memory reasons: what
 * an operator needs is allocated at creation. */
typedef void (*dmlc_execute_fn)(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out);

struct DMLC_OPERATOR {
    DML_OPERATOR_TYPE type;
    const char* name;
    UINT input_count;
    UINT output_count;
    dmlc_tensor* inputs;
    dmlc_tensor* outputs;
    dmlc_execute_fn execute;
    void* state; /* the operator family's own parameters, in the same allocation */
};

/* One allocation holding the operator, its tensor slots and state_size bytes of state
 * (zeroed).  Returns NULL after setting E_OUTOFMEMORY's message. */
DMLC_OPERATOR_T* dmlc_operator_alloc(DML_OPERATOR_TYPE type, const char* name, UINT input_count,
                                     UINT output_count, size_t state_size);

/* Create functions named in ops.def: validate desc (already non-NULL) and build *op. */
typedef HRESULT (*dmlc_create_fn)(DML_OPERATOR_TYPE type, const char* name, const void* desc,
                                  DMLC_OPERATOR_T** op);
#define DMLC_OP(name, value, create) \
    HRESULT create(DML_OPERATOR_TYPE type, const char* opname, const void* desc, DMLC_OPERATOR_T** op);
#include "ops.def"
#undef DMLC_OP

/* ---- Threads ------------------------------------------------------------------------
 * dmlc_parallel_for splits [0, n) into a few contiguous chunks per thread, taken dynamically.  work_bytes is the
 * memory the whole loop touches: below DMLC_MIN_BYTES_PER_THREAD per thread it runs on
 * the calling thread, so small calls pay nothing for threading. */
#define DMLC_MIN_BYTES_PER_THREAD ((uint64_t)1 << 19)
typedef void (*dmlc_range_fn)(void* ctx, uint64_t begin, uint64_t end);
void dmlc_parallel_for(uint64_t n, uint64_t work_bytes, dmlc_range_fn fn, void* ctx);
UINT dmlc_thread_count(void);

/* ---- Strided copies (src/kernels/copy.c) -----------------------------------------------
 * A copy plan is an N-d loop over `sizes`, reading src and writing dst with per-dimension
 * strides in elements, outermost first.  Dimensions of size 1 are dropped and neighbours
 * that are contiguous in both tensors are merged, so a packed copy becomes one memcpy. */
typedef struct dmlc_copy_plan {
    UINT elem_size;
    UINT ndim;
    uint64_t sizes[DMLC_MAX_DIMS];
    int64_t dst_strides[DMLC_MAX_DIMS];
    int64_t src_strides[DMLC_MAX_DIMS];
} dmlc_copy_plan;

void dmlc_copy_plan_init(dmlc_copy_plan* plan, UINT elem_size, UINT ndim, const uint64_t* sizes,
                         const int64_t* dst_strides, const int64_t* src_strides);
/* Runs the plan, split across threads when it is large. */
void dmlc_copy_run(const dmlc_copy_plan* plan, void* dst, const void* src);
/* Runs the plan on the calling thread: for callers that share many small copies out
 * across threads themselves (SPLIT/JOIN pieces). */
void dmlc_copy_run_serial(const dmlc_copy_plan* plan, void* dst, const void* src);

/* ---- Streaming copies (src/kernels/stream.c) --------------------------------------------
 * Copies and fills with non-temporal stores, for large operators only (see stream.c for
 * when they pay).  Each thread that used one calls dmlc_stream_fence() before its work is
 * done (the stores are weakly ordered).  Where the target has no such stores
 * (DMLC_HAVE_STREAM is 0) they are memcpy and a plain fill.
 *   dmlc_copy_stream          memcpy streaming every whole aligned 16-byte unit: for
 *                             destinations written sequentially in runs of a multiple of
 *                             16 bytes, at least DMLC_STREAM_MIN_RUN (SPLIT/JOIN);
 *   dmlc_copy_stream_lines    memcpy streaming only whole 64-byte lines, the partial lines
 *                             at the ends with ordinary stores: for runs whose end lines
 *                             other stores share (PADDING's interiors);
 *   dmlc_fill_stream_lines    the same for n bytes of copies of an elem_size-byte value
 *                             (1, 2, 4 or 8; dst aligned to it). */
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#  define DMLC_HAVE_STREAM 1
#else
#  define DMLC_HAVE_STREAM 0
#endif
#define DMLC_STREAM_MIN_BYTES ((uint64_t)16 << 20) /* bytes written by the whole call */
#define DMLC_STREAM_MIN_RUN 64
void dmlc_copy_stream(void* dst, const void* src, size_t n);
void dmlc_copy_stream_lines(void* dst, const void* src, size_t n);
void dmlc_fill_stream_lines(void* dst, size_t n, const void* value, size_t elem_size);
void dmlc_stream_fence(void);

#endif /* DMLC_INTERNAL_H */
