/* dmlc_internal.h - what the core's files share: normalised tensors, the operator object,
 * the error channel, threading and the data-movement kernels.  Never installed. */
#ifndef DMLC_INTERNAL_H
#define DMLC_INTERNAL_H

#include "directml_py.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
/* The name of a DML_TENSOR_DATA_TYPE value ("FLOAT32"), or "<value> (not a DML_TENSOR_DATA_TYPE)"
 * formatted into buf, which holds that text for any int ("-2147483648 (not a ...)" is 42 bytes). */
#define DMLC_TYPE_NAME_SIZE 48
const char* dmlc_data_type_name(DML_TENSOR_DATA_TYPE type, char buf[DMLC_TYPE_NAME_SIZE]);
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

/* DMLC_INPUT_MAY_BE_EMPTY: an input read only for its sizes (dmlcInferOutputSizes): they
 * may be 0, as in NumPy's empty arrays, and TotalTensorSizeInBytes is not checked. */
typedef enum dmlc_tensor_role { DMLC_INPUT = 0, DMLC_OUTPUT = 1, DMLC_INPUT_MAY_BE_EMPTY = 2 } dmlc_tensor_role;

/* Validates one DML_TENSOR_DESC (docs/tensors.rst) and normalises it into *t.
 * who: operator name for messages; field: "InputTensor", "OutputTensors[2]", ... */
HRESULT dmlc_tensor_init(dmlc_tensor* t, const DML_TENSOR_DESC* desc, const char* who,
                         const char* field, UINT min_dims, UINT max_dims, dmlc_tensor_role role);

/* Checks b's DataType against a's: "OutputTensor.DataType is INT32, expected FLOAT32 (InputTensor.DataType)". */
HRESULT dmlc_tensor_same_type(const dmlc_tensor* a, const char* a_field, const dmlc_tensor* b,
                              const char* b_field, const char* who);

/* Checks b's DimensionCount against a's. */
HRESULT dmlc_tensor_same_rank(const dmlc_tensor* a, const char* a_field, const dmlc_tensor* b,
                              const char* b_field, const char* who);

/* The InputTensor and OutputTensor of a one-input, one-output operator: each valid with
 * min_dims to max_dims dimensions, the output of the input's type and rank. */
HRESULT dmlc_tensor_init_in_out(dmlc_tensor* in, const DML_TENSOR_DESC* in_desc, dmlc_tensor* out,
                                const DML_TENSOR_DESC* out_desc, const char* who, UINT min_dims, UINT max_dims);

/* Checks t->sizes[dim] == expected; on a mismatch the message explains the expected value
 * with why_fmt: "OutputTensor.Sizes[2] is 7, expected 8 (InputTensor.Sizes[2] 4 + ...)".
 * The explanation is formatted only on failure. */
HRESULT dmlc_tensor_expect_size(const dmlc_tensor* t, const char* who, const char* field, UINT dim,
                                uint64_t expected, const char* why_fmt, ...) DMLC_PRINTF(6, 7);

/* A DML_AXIS_DIRECTION field (AxisDirection): 0 (INCREASING) or 1 (DECREASING), else
 * E_INVALIDARG naming the field and the value. */
HRESULT dmlc_check_axis_direction(const char* who, const char* field, DML_AXIS_DIRECTION value);

/* Checks that an index output t is INT32, INT64, UINT32 or UINT64 and can hold `largest`,
 * the greatest value the operator may write there; the message names it with what_fmt:
 * "OutputTensor.DataType is INT32, which cannot hold index 4294967295 (the reduced ...)". */
HRESULT dmlc_check_index_type(const dmlc_tensor* t, const char* who, const char* field, uint64_t largest,
                              const char* what_fmt, ...) DMLC_PRINTF(5, 6);

/* ---- Output sizes: one rule, two uses ---------------------------------------------------
 * Each operator family validates its inputs and parameters once and states every output
 * size through dmlc_shape_expect.  When an operator is created (check mode) that checks
 * the desc's output tensors, with a message explaining the expected value; for
 * dmlcInferOutputSizes (infer mode) it records the sizes instead.  So the arithmetic of a
 * rule lives in one place, and callers never repeat it. */
typedef struct dmlc_shapes {
    const char* who;
    UINT flags;                   /* DMLC_INFER_FLAGS */
    UINT count;                   /* output slots */
    const dmlc_tensor* outputs;   /* check mode: the validated outputs (present 0: absent) */
    DMLC_TENSOR_SIZES* sizes;     /* infer mode: where the sizes go */
} dmlc_shapes;

static inline int dmlc_shapes_infer(const dmlc_shapes* sh) { return sh->outputs == NULL; }
/* The role of input tensors for this use: empty inputs are allowed when inferring. */
static inline dmlc_tensor_role dmlc_shapes_input_role(const dmlc_shapes* sh)
{
    return dmlc_shapes_infer(sh) ? DMLC_INPUT_MAY_BE_EMPTY : DMLC_INPUT;
}
/* Infer mode: checks the caller's outputCount against the operator's slots. */
HRESULT dmlc_shapes_count(dmlc_shapes* sh, UINT slots);
/* Infer mode for a one-input, one-output operator: outputCount is 1, and InputTensor is
 * valid with min_dims to max_dims dimensions (its sizes may be 0). */
HRESULT dmlc_shapes_unary_input(dmlc_shapes* sh, dmlc_tensor* in, const DML_TENSOR_DESC* desc, const char* who,
                                UINT min_dims, UINT max_dims);
/* Infer mode: output slot gets ndim dimensions (check mode: a no-op; ranks are checked
 * with dmlc_tensor_same_rank). */
void dmlc_shape_rank(dmlc_shapes* sh, UINT slot, UINT ndim);
/* Output slot's Sizes[dim] is `expected`, explained by why_fmt on a mismatch (check mode)
 * or when it does not fit a UINT (infer mode).  field: "OutputTensor", ... */
HRESULT dmlc_shape_expect(dmlc_shapes* sh, UINT slot, const char* field, UINT dim, uint64_t expected,
                          const char* why_fmt, ...) DMLC_PRINTF(6, 7);

/* ---- The operator object -------------------------------------------------------------- */
typedef struct DMLC_OPERATOR DMLC_OPERATOR_T;

typedef enum dmlc_in_place {
    DMLC_IN_PLACE_NEVER = 0,          /* outputs never overlap inputs (the default) */
    DMLC_IN_PLACE_SAME_LAYOUT = 1,    /* element-wise, and input 0 and output 0 place every element alike */
    DMLC_IN_PLACE_LAYOUTS_DIFFER = 2  /* element-wise, but this operator's layouts differ: never in place */
} dmlc_in_place;

/* Runs a validated operator on bound memory.  in[i]/out[i] point at Buffer + Offset of
 * each slot (NULL for an absent optional tensor).  Never fails for memory reasons: what
 * an operator needs is allocated at creation. */
typedef void (*dmlc_execute_fn)(const DMLC_OPERATOR_T* op, const void* const* in, void* const* out);
/* Checks what only the bound data can show (the ROI operators' region values and batch
 * indices) before execute runs, so that a failure leaves every output untouched: the
 * message names the operator, the tensor, the element and its value.  NULL for operators
 * whose execution cannot fail. */
typedef HRESULT (*dmlc_check_fn)(const DMLC_OPERATOR_T* op, const void* const* in);

struct DMLC_OPERATOR {
    DML_OPERATOR_TYPE type;
    const char* name;
    UINT input_count;
    UINT output_count;
    dmlc_tensor* inputs;
    dmlc_tensor* outputs;
    dmlc_execute_fn execute;
    dmlc_check_fn check; /* NULL, or run on the bound inputs before execute */
    void* state; /* the operator family's own parameters, in the same allocation */
    /* Whether output 0 may be bound to exactly the memory of input 0: an element-wise
     * operator run in place, as DirectML allows for ELEMENT_WISE_IDENTITY.  Any other
     * overlap of an output with an input is refused by dmlcExecute. */
    dmlc_in_place in_place;
};

/* One allocation holding the operator, its tensor slots and state_size bytes of state
 * (zeroed).  Returns NULL after setting E_OUTOFMEMORY's message. */
DMLC_OPERATOR_T* dmlc_operator_alloc(DML_OPERATOR_TYPE type, const char* name, UINT input_count,
                                     UINT output_count, size_t state_size);

/* dmlc_operator_alloc for a one-input, one-output operator, its slots holding in and out
 * and its execute function set. */
DMLC_OPERATOR_T* dmlc_operator_alloc_unary(DML_OPERATOR_TYPE type, const char* name, const dmlc_tensor* in,
                                           const dmlc_tensor* out, dmlc_execute_fn execute, size_t state_size);

/* Each family named in schema.def has two entry points, both given a non-NULL desc:
 *   dmlc_create_<family>: validates the desc and builds *op;
 *   dmlc_infer_<family>:  validates inputs and parameters and fills sh (infer mode). */
typedef HRESULT (*dmlc_create_fn)(DML_OPERATOR_TYPE type, const char* name, const void* desc,
                                  DMLC_OPERATOR_T** op);
typedef HRESULT (*dmlc_infer_fn)(DML_OPERATOR_TYPE type, const char* name, const void* desc, dmlc_shapes* sh);
#define DMLC_SCHEMA(NAME, family, flags, types, fields)                                                  \
    HRESULT dmlc_create_##family(DML_OPERATOR_TYPE type, const char* opname, const void* desc,        \
                                 DMLC_OPERATOR_T** op);                                                  \
    HRESULT dmlc_infer_##family(DML_OPERATOR_TYPE type, const char* opname, const void* desc, dmlc_shapes* sh);
#include "schema.def"
#undef DMLC_SCHEMA

/* An operator type's two entry points (its schema.def family), and dmlc_lookup, which finds
 * them for a desc (operator.c): *name is the type's name ("DML_OPERATOR_PADDING");
 * a failure names what is wrong (a NULL desc, an unknown type, one dmlc does not
 * implement: E_NOTIMPL). */
typedef struct dmlc_family {
    dmlc_create_fn create;
    dmlc_infer_fn infer;
} dmlc_family;
HRESULT dmlc_lookup(const char* who, const DML_OPERATOR_DESC* desc, const char** name, dmlc_family* family);

/* ---- The desc layouts (src/schema.def, src/schema.h) -------------------------------------
 * dmlc_schema_check: what holds for every operator before its family reads the desc: each
 * array a count says is non-empty is there (not NULL).  type has a schema entry (every
 * operator dmlc implements has).  infer: for dmlcInferOutputSizes,
 * which reads the output tensors only where the schema says so.  The messages name the
 * operator and the field: "DML_OPERATOR_PADDING: StartPadding is NULL". */
#include "schema.h"
HRESULT dmlc_schema_check(DML_OPERATOR_TYPE type, const char* opname, const void* desc, int infer);

/* ---- Threads (src/threadpool.c, src/cpu_count.c) ---------------------------------------
 * dmlc_parallel_for splits [0, n) into a few contiguous chunks per thread, claimed one at a
 * time: the calling thread from the first moment, workers as they wake; it returns once
 * every chunk has run, never waiting for a worker that has not started.  work_bytes is the
 * memory the whole loop touches: below DMLC_MIN_BYTES_PER_THREAD per thread it runs on
 * the calling thread, so small calls pay nothing for threading. */
#define DMLC_MIN_BYTES_PER_THREAD ((uint64_t)1 << 19)
typedef void (*dmlc_range_fn)(void* ctx, uint64_t begin, uint64_t end);
void dmlc_parallel_for(uint64_t n, uint64_t work_bytes, dmlc_range_fn fn, void* ctx);
UINT dmlc_thread_count(void);
/* The threads dmlc_parallel_for may use for a loop touching work_bytes (at least 1): a
 * kernel that cuts its work finer for threads asks this, so a call that will run alone
 * keeps its one-thread shape and cost. */
uint64_t dmlc_threads_for(uint64_t work_bytes);
/* The CPUs this process may use (the default thread count): the affinity mask, lowered to a
 * cgroup CPU quota.  The cgroup parts, from the files' text (0 = no limit): cpu.max (v2);
 * cpu.cfs_quota_us and cpu.cfs_period_us (v1); and the lowest quota of the cgroups that
 * the file proc_self_cgroup names, under the hierarchy mounted at root. */
UINT dmlc_process_cpu_count(void);
UINT dmlc_cgroup2_cpus(const char* cpu_max);
UINT dmlc_cgroup1_cpus(const char* cfs_quota_us, const char* cfs_period_us);
UINT dmlc_cgroup_cpus(const char* proc_self_cgroup, const char* root);

/* ---- CPU features (src/cpu.c) ------------------------------------------------------------
 * The instruction-set extensions a kernel may use beyond the portable C of its fallback.
 * dmlc_cpu_has(mask) is nonzero when the CPU has every one in mask and DMLC_CPU_FEATURES
 * does not forbid them.  Kernels ask it when an operator is created (the streaming copy,
 * a load and a compare, on each call). */
#define DMLC_CPU_SSE2 1u /* x86: non-temporal stores for very large copies */
#define DMLC_CPU_AVX2 2u /* x86: max pooling's vector path, with F16C */
#define DMLC_CPU_F16C 4u
int dmlc_cpu_has(unsigned features);
/* E_INVALIDARG, with who's message, when DMLC_CPU_FEATURES holds a value not understood. */
HRESULT dmlc_cpu_check(const char* who);

/* ---- Strided copies (src/kernels/copy.c) -----------------------------------------------
 * A copy plan is an N-d loop over `sizes`, reading src and writing dst with per-dimension
 * strides in elements, outermost first.  Dimensions of size 1 are dropped and neighbours
 * that are contiguous in both tensors are merged, so a packed copy becomes one memcpy. */
/* A plan may have twice a tensor's dimensions: TILE walks each axis as {repeat, position}. */
#define DMLC_MAX_PLAN_DIMS (2 * DMLC_MAX_DIMS)
typedef struct dmlc_copy_plan {
    UINT elem_size;
    UINT src_elem_size; /* the source's element size: elem_size, except in a map that converts (CAST) */
    UINT ndim;
    uint64_t sizes[DMLC_MAX_PLAN_DIMS];
    int64_t dst_strides[DMLC_MAX_PLAN_DIMS];
    int64_t src_strides[DMLC_MAX_PLAN_DIMS];
} dmlc_copy_plan;

void dmlc_copy_plan_init(dmlc_copy_plan* plan, UINT elem_size, UINT ndim, const uint64_t* sizes,
                         const int64_t* dst_strides, const int64_t* src_strides);
/* Runs the plan, split across threads when it is large. */
void dmlc_copy_run(const dmlc_copy_plan* plan, void* dst, const void* src);
/* Runs the plan on the calling thread: for callers that share many small copies out
 * across threads themselves (SPLIT/JOIN pieces). */
void dmlc_copy_run_serial(const dmlc_copy_plan* plan, void* dst, const void* src);

/* ---- Fills (src/kernels/fill.c) -----------------------------------------------------------
 * One value's bits (elem_size bytes at value) stored into every element of a validated
 * tensor t, whatever its strides: plain stores across threads for a packed tensor, a copy
 * plan from a zero-stride source otherwise.  The plan is made once (at creation). */
typedef struct dmlc_fill_plan {
    dmlc_copy_plan plan;
    uint64_t count; /* elements */
    int packed;     /* the plan is one contiguous run */
    int stream;     /* packed and large: non-temporal stores (src/kernels/stream.c) */
} dmlc_fill_plan;
void dmlc_fill_plan_init(dmlc_fill_plan* fp, const dmlc_tensor* t);
void dmlc_fill_run(const dmlc_fill_plan* fp, void* dst, const void* value);

/* ---- Element-wise maps (src/kernels/copy.c) --------------------------------------------
 * dmlc_map_run walks a copy plan as dmlc_copy_run does (threads included) but hands each
 * innermost row to fn: fn(ctx, dst, dst_stride, src, src_stride, n), strides in elements.
 * dst may equal src (an in-place map over one layout). */
typedef void (*dmlc_row_fn)(const void* ctx, void* dst, int64_t dst_stride, const void* src, int64_t src_stride,
                            uint64_t n);
void dmlc_map_run(const dmlc_copy_plan* plan, void* dst, const void* src, dmlc_row_fn fn, const void* ctx);

/* ---- Scale and bias (src/kernels/scale_bias.c) ------------------------------------------
 * Rows of y = x*Scale + Bias for dmlc_map_run, ctx a const DML_SCALE_BIAS*: the multiply
 * and the add are two operations, each rounded (never one fused multiply-add).  FLOAT16
 * and FLOAT32 compute in float32 and round once to the output type (round to nearest
 * even); FLOAT64 computes in double with Scale and Bias widened. */
void dmlc_scale_bias_f16(const void* ctx, void* dst, int64_t dst_stride, const void* src, int64_t src_stride,
                         uint64_t n);
void dmlc_scale_bias_f32(const void* ctx, void* dst, int64_t dst_stride, const void* src, int64_t src_stride,
                         uint64_t n);
void dmlc_scale_bias_f64(const void* ctx, void* dst, int64_t dst_stride, const void* src, int64_t src_stride,
                         uint64_t n);

/* ---- Streaming copies (src/kernels/stream.c) --------------------------------------------
 * Copies and fills with non-temporal stores, for large operators only (see stream.c for
 * when they pay).  Each thread that used one calls dmlc_stream_fence() before its work is
 * done (the stores are weakly ordered).  Where the target has no such stores
 * (DMLC_HAVE_STREAM is 0, or dmlc_cpu_has(DMLC_CPU_SSE2) is not) they are memcpy and a
 * plain fill.  They do not ask dmlc_cpu_has themselves (they run once per row): their
 * callers stream only where dmlc_cpu_has(DMLC_CPU_SSE2), decided once per operator or call.
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
/* Computed rows streamed: n elements of elem_size bytes (1 to 8, a power of 2) for dst,
 * element-aligned, which gen(ctx, out, i0, m) computes, elements [i0, i0 + m) of the row to
 * out: into a buffer that stays in the L1 cache, then streamed as whole 64-byte lines (the
 * partial lines at the ends computed in place); fenced before it returns.  For large
 * operators whose packed output is computed, not copied (CAST, FILL_VALUE_SEQUENCE): with
 * `stream` 0, or without streaming stores, gen writes dst directly, one call. */
typedef void (*dmlc_gen_fn)(const void* ctx, void* out, uint64_t i0, uint64_t m);
void dmlc_stream_generated(void* dst, uint64_t n, UINT elem_size, dmlc_gen_fn gen, const void* ctx, int stream);

/* ---- Pooling windows (src/pooling.c) -------------------------------------------------------
 * The window fields MAX_POOLING*, AVERAGE_POOLING* and LP_POOLING* share, read from any of their desc
 * versions (dilations all ones for those without the field). */
typedef struct dmlc_pool_window {
    UINT count;              /* DimensionCount */
    const UINT* strides;
    const UINT* window;
    const UINT* start;
    const UINT* end;
    const UINT* dilations;
} dmlc_pool_window;

/* The window fields of a pooling desc d (any struct with DimensionCount, Strides, WindowSize,
 * StartPadding and EndPadding) with dilations dil: its Dilations, or all ones. */
#define DMLC_POOL_WINDOW_OF(d, dil) \
    {(d)->DimensionCount, (d)->Strides, (d)->WindowSize, (d)->StartPadding, (d)->EndPadding, (dil)}

/* Checks the window fields against in ({N, C, spatial...}) and states output slot 0's sizes
 * in sh: N and C of the input, per spatial dimension the floor size or (check mode) the
 * plain ceil size or the PyTorch/ONNX ceil size too, or (infer mode with
 * DMLC_INFER_FLAG_CEIL_MODE) the PyTorch/ONNX ceil size (src/pooling.c has the rules). */
HRESULT dmlc_pool_window_validate(const char* opname, const dmlc_pool_window* w, const dmlc_tensor* in,
                                  dmlc_shapes* sh);

/* The window-sum kernels of AVERAGE_POOLING* (src/ops/average_pooling.c), which LP_POOLING*
 * share: an operator over validated tensors in and out (dmlc_pool_window_validate checked
 * win) giving per window the average of its elements inside the input (p 0; include_padding
 * as IncludePadding) or their LP norm (sum of |x|^p)^(1/p) (p >= 1).  NULL: out of memory. */
DMLC_OPERATOR_T* dmlc_window_sum_operator(DML_OPERATOR_TYPE type, const char* opname, const dmlc_tensor* in,
                                          const dmlc_tensor* out, const dmlc_pool_window* win, int include_padding,
                                          UINT p);

/* Where a pooling kernel's output row stands, rows numbered over planes x OD x OH: batch n,
 * channel c, plane p = n * channels + c, depth od, row oh.  Found by division once
 * (dmlc_pool_cursor_at), then counted up row by row (dmlc_pool_cursor_next). */
typedef struct dmlc_pool_cursor {
    int64_t n, c, od, oh;
    uint64_t p;
} dmlc_pool_cursor;

static inline dmlc_pool_cursor dmlc_pool_cursor_at(uint64_t row, uint64_t channels, int64_t od_count, int64_t oh_count)
{
    dmlc_pool_cursor k;
    k.oh = (int64_t)(row % (uint64_t)oh_count);
    k.od = (int64_t)(row / (uint64_t)oh_count % (uint64_t)od_count);
    k.p = row / (uint64_t)oh_count / (uint64_t)od_count;
    k.n = (int64_t)(k.p / channels);
    k.c = (int64_t)(k.p % channels);
    return k;
}

static inline void dmlc_pool_cursor_next(dmlc_pool_cursor* k, uint64_t channels, int64_t od_count, int64_t oh_count)
{
    if (++k->oh < oh_count) return;
    k->oh = 0;
    if (++k->od < od_count) return;
    k->od = 0;
    ++k->p;
    if (++k->c < (int64_t)channels) return;
    k->c = 0;
    ++k->n;
}

/* ---- FLOAT16 (src/kernels/half.h, half.c) ----------------------------------------------------
 * IEEE binary16 bits <-> float, for the kernels that compute on FLOAT16 values without a
 * hardware conversion.  float -> half rounds to nearest even (overflow gives infinity) and
 * keeps a NaN's sign and top payload bits, as NumPy's cast and x86's F16C do.  half.h has
 * them inline (dmlc_half_to_float_inline, dmlc_float_to_half_inline), half.c as functions. */
#include "kernels/half.h"
float dmlc_half_to_float(uint16_t h);
uint16_t dmlc_float_to_half(float f);

/* A DirectML FLOAT parameter (PADDING's PaddingValue, DIAGONAL_MATRIX's Value) as an element
 * of type (src/ops/padding.c): integers truncate toward zero and saturate, NaN is 0, FLOAT16
 * rounds to nearest even, FLOAT64 widens exactly.  Writes 8 bytes, the element's first. */
void dmlc_float_value_bits(float f, DML_TENSOR_DATA_TYPE type, unsigned char out[8]);

#endif /* DMLC_INTERNAL_H */
