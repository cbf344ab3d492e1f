/* operator.c - create / execute / release, the operator table, the error channel, threads. */
#include "dmlc_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#  include <omp.h>
#endif
#if defined(_WIN32)
#  include <windows.h>
#else
#  include <pthread.h>
#  include <unistd.h>
#endif

/* ---- The error channel -------------------------------------------------------------- */
#if defined(_MSC_VER)
#  define DMLC_THREAD_LOCAL __declspec(thread)
#else
#  define DMLC_THREAD_LOCAL _Thread_local
#endif

static DMLC_THREAD_LOCAL char g_message[1024];

HRESULT dmlc_fail(HRESULT hr, const char* who, const char* fmt, ...)
{
    va_list ap;
    int n = snprintf(g_message, sizeof g_message, "%s: ", who);
    if (n < 0 || (size_t)n >= sizeof g_message) n = 0;
    va_start(ap, fmt);
    vsnprintf(g_message + n, sizeof g_message - (size_t)n, fmt, ap);
    va_end(ap);
    return hr;
}

void dmlc_clear_error(void) { g_message[0] = '\0'; }

const char* dmlcGetLastErrorMessage(void) { return g_message; }

UINT dmlcGetVersion(void) { return DMLC_VERSION; }

/* ---- The operator table --------------------------------------------------------------- */
static const char* const g_type_names[] = {
#include "op_names.inc"
};

const char* dmlc_operator_type_name(DML_OPERATOR_TYPE type)
{
    if ((unsigned)type >= sizeof g_type_names / sizeof g_type_names[0]) return NULL;
    return g_type_names[type];
}

static dmlc_create_fn find_create(DML_OPERATOR_TYPE type)
{
    switch ((int)type) {
#define DMLC_OP(name, value, create) case value: return create;
#include "ops.def"
#undef DMLC_OP
    default: return NULL;
    }
}

DMLC_OPERATOR_T* dmlc_operator_alloc(DML_OPERATOR_TYPE type, const char* name, UINT input_count,
                                     UINT output_count, size_t state_size)
{
    /* Layout: operator | tensors | state, each part aligned for 8-byte fields. */
    size_t head = (sizeof(DMLC_OPERATOR_T) + 15) & ~(size_t)15;
    size_t tensors = ((size_t)input_count + output_count) * sizeof(dmlc_tensor);
    size_t total;
    DMLC_OPERATOR_T* op;
    if (tensors / sizeof(dmlc_tensor) != (size_t)input_count + output_count || state_size > SIZE_MAX - head - tensors) {
        dmlc_fail(E_OUTOFMEMORY, name, "the operator's description is too large to hold");
        return NULL;
    }
    total = head + tensors + state_size;
    op = (DMLC_OPERATOR_T*)calloc(1, total);
    if (!op) {
        dmlc_fail(E_OUTOFMEMORY, name, "out of memory allocating %zu bytes for the operator", total);
        return NULL;
    }
    op->type = type;
    op->name = name;
    op->input_count = input_count;
    op->output_count = output_count;
    op->inputs = (dmlc_tensor*)((char*)op + head);
    op->outputs = op->inputs + input_count;
    op->state = (char*)op + head + tensors;
    return op;
}

HRESULT dmlcCreateOperator(const DML_OPERATOR_DESC* desc, DMLC_OPERATOR** op)
{
    static const char who[] = "dmlcCreateOperator";
    const char* name;
    dmlc_create_fn create;
    HRESULT hr;
    if (!op) return dmlc_fail(E_POINTER, who, "op is NULL");
    *op = NULL;
    if (!desc) return dmlc_fail(E_POINTER, who, "desc is NULL");
    if (FAILED(hr = dmlc_cpu_check(who))) return hr; /* kernels are chosen below, by the CPU's features */
    name = dmlc_operator_type_name(desc->Type);
    if (!name || desc->Type == DML_OPERATOR_INVALID)
        return dmlc_fail(E_INVALIDARG, who, "desc->Type is %d, which is not a DML_OPERATOR_TYPE", (int)desc->Type);
    create = find_create(desc->Type);
    if (!create)
        return dmlc_fail(E_NOTIMPL, name, "%s (%d) is not implemented by dmlc", name, (int)desc->Type);
    if (!desc->Desc) return dmlc_fail(E_POINTER, name, "desc->Desc is NULL");
    hr = create(desc->Type, name, desc->Desc, op);
    if (FAILED(hr)) {
        free(*op);
        *op = NULL;
        return hr;
    }
    dmlc_clear_error();
    return S_OK;
}

void dmlcReleaseOperator(DMLC_OPERATOR* op) { free(op); }

/* Checks one binding against its tensor slot and returns the bound address in *ptr. */
static HRESULT check_binding(const DMLC_OPERATOR_T* op, const dmlc_tensor* t, const DMLC_BUFFER_BINDING* b,
                             const char* kind, UINT i, void** ptr)
{
    uintptr_t base;
    *ptr = NULL;
    if (!t->present) {
        if (b->Buffer)
            return dmlc_fail(E_INVALIDARG, op->name, "%s[%u] is bound, but its optional tensor is absent from the desc",
                             kind, i);
        return S_OK;
    }
    if (!b->Buffer) return dmlc_fail(E_POINTER, op->name, "%s[%u].Buffer is NULL", kind, i);
    base = (uintptr_t)b->Buffer;
    if (b->Offset > UINTPTR_MAX - base || b->SizeInBytes > UINTPTR_MAX - base - b->Offset)
        return dmlc_fail(E_INVALIDARG, op->name, "%s[%u]: Offset %llu + SizeInBytes %llu run past the end of the address "
                         "space", kind, i, (unsigned long long)b->Offset, (unsigned long long)b->SizeInBytes);
    if (b->SizeInBytes < t->total_bytes)
        return dmlc_fail(E_INVALIDARG, op->name, "%s[%u].SizeInBytes is %llu, smaller than the tensor's "
                         "TotalTensorSizeInBytes %llu", kind, i, (unsigned long long)b->SizeInBytes,
                         (unsigned long long)t->total_bytes);
    base += (uintptr_t)b->Offset;
    if (base % t->elem_size)
        return dmlc_fail(E_INVALIDARG, op->name, "%s[%u]: Buffer + Offset is not aligned to the element size %u",
                         kind, i, t->elem_size);
    *ptr = (void*)base;
    return S_OK;
}

static int ranges_overlap(const void* a, uint64_t na, const void* b, uint64_t nb)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    if (!a || !b || !na || !nb) return 0;
    return x < y + nb && y < x + na;
}

HRESULT dmlcExecute(DMLC_OPERATOR* op, UINT inputCount, const DMLC_BUFFER_BINDING* inputs, UINT outputCount,
                    const DMLC_BUFFER_BINDING* outputs)
{
    static const char who[] = "dmlcExecute";
    /* Bound addresses live on the stack for the common counts; SPLIT/JOIN may have more. */
    void* local[2 * 16];
    void** ptrs = local;
    HRESULT hr = S_OK;
    UINT n;
    if (!op) return dmlc_fail(E_POINTER, who, "op is NULL");
    if (inputCount != op->input_count)
        return dmlc_fail(E_INVALIDARG, op->name, "inputCount is %u, expected %u", inputCount, op->input_count);
    if (outputCount != op->output_count)
        return dmlc_fail(E_INVALIDARG, op->name, "outputCount is %u, expected %u", outputCount, op->output_count);
    if (inputCount && !inputs) return dmlc_fail(E_POINTER, op->name, "inputs is NULL");
    if (outputCount && !outputs) return dmlc_fail(E_POINTER, op->name, "outputs is NULL");
    n = inputCount + outputCount;
    if (n > sizeof local / sizeof local[0]) {
        ptrs = (void**)malloc(n * sizeof *ptrs);
        if (!ptrs) return dmlc_fail(E_OUTOFMEMORY, op->name, "out of memory binding %u tensors", n);
    }
    for (UINT i = 0; i < inputCount && SUCCEEDED(hr); ++i)
        hr = check_binding(op, &op->inputs[i], &inputs[i], "inputs", i, &ptrs[i]);
    for (UINT i = 0; i < outputCount && SUCCEEDED(hr); ++i)
        hr = check_binding(op, &op->outputs[i], &outputs[i], "outputs", i, &ptrs[inputCount + i]);
    /* An output may share no byte with an input or another output: the kernels read inputs
     * while writing outputs, and a failed check must leave every output untouched. */
    for (UINT i = 0; i < outputCount && SUCCEEDED(hr); ++i) {
        const void* o = ptrs[inputCount + i];
        uint64_t on = op->outputs[i].extent;
        for (UINT j = 0; j < inputCount && SUCCEEDED(hr); ++j)
            if (ranges_overlap(o, on, ptrs[j], op->inputs[j].extent))
                hr = dmlc_fail(E_INVALIDARG, op->name, "outputs[%u] overlaps inputs[%u]; outputs may not alias inputs", i, j);
        for (UINT j = 0; j < i && SUCCEEDED(hr); ++j)
            if (ranges_overlap(o, on, ptrs[inputCount + j], op->outputs[j].extent))
                hr = dmlc_fail(E_INVALIDARG, op->name, "outputs[%u] overlaps outputs[%u]", i, j);
    }
    if (SUCCEEDED(hr)) {
        op->execute(op, (const void* const*)ptrs, ptrs + inputCount);
        dmlc_clear_error();
    }
    if (ptrs != local) free(ptrs);
    return hr;
}

HRESULT dmlcExecuteOperator(const DML_OPERATOR_DESC* desc, UINT inputCount, const DMLC_BUFFER_BINDING* inputs,
                            UINT outputCount, const DMLC_BUFFER_BINDING* outputs)
{
    DMLC_OPERATOR* op = NULL;
    HRESULT hr = dmlcCreateOperator(desc, &op);
    if (SUCCEEDED(hr)) hr = dmlcExecute(op, inputCount, inputs, outputCount, outputs);
    dmlcReleaseOperator(op);
    return hr;
}

/* ---- Threads ------------------------------------------------------------------------ */
static volatile UINT g_thread_request; /* 0 = default */
static volatile UINT g_default_threads;

static UINT core_count(void)
{
#if defined(_OPENMP)
    return (UINT)omp_get_num_procs();
#elif defined(_WIN32)
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return (UINT)si.dwNumberOfProcessors;
#elif defined(_SC_NPROCESSORS_ONLN)
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (UINT)n : 1;
#else
    return 1;
#endif
}

static UINT default_threads(void)
{
    UINT n = g_default_threads;
    if (!n) {
        const char* env = getenv("DMLC_NUM_THREADS");
        long v = env ? strtol(env, NULL, 10) : 0;
        n = v > 0 ? (UINT)(v > 1024 ? 1024 : v) : core_count();
        if (!n) n = 1;
        g_default_threads = n;
    }
    return n;
}

HRESULT dmlcSetThreadCount(UINT count)
{
    if (count > 1024) return dmlc_fail(E_INVALIDARG, "dmlcSetThreadCount", "count is %u, expected 0 to 1024", count);
    g_thread_request = count;
    dmlc_clear_error();
    return S_OK;
}

UINT dmlcGetThreadCount(void)
{
    UINT n = g_thread_request;
    n = n ? n : default_threads();
#ifndef _OPENMP
    n = 1; /* built without OpenMP: everything runs on the calling thread */
#endif
    return n;
}

UINT dmlc_thread_count(void) { return dmlcGetThreadCount(); }

#if defined(_OPENMP) && !defined(_WIN32)
/* GNU OpenMP's thread pool does not survive fork(): a child that enters a parallel region
 * after its parent ran one deadlocks (multiprocessing's default start method on Linux does
 * exactly this).  Once the parent has used threads, a forked child runs single-threaded. */
static volatile int g_forked_child;
static pthread_once_t g_atfork_once = PTHREAD_ONCE_INIT;
static void on_fork_child(void) { g_forked_child = 1; }
static void register_atfork(void) { pthread_atfork(NULL, NULL, on_fork_child); }
#endif

void dmlc_parallel_for(uint64_t n, uint64_t work_bytes, dmlc_range_fn fn, void* ctx)
{
    uint64_t threads = dmlc_thread_count();
#if defined(_OPENMP) && !defined(_WIN32)
    if (g_forked_child) threads = 1;
#endif
    if (threads > n) threads = n;
    if (threads > work_bytes / DMLC_MIN_BYTES_PER_THREAD) threads = work_bytes / DMLC_MIN_BYTES_PER_THREAD;
    if (threads <= 1) {
        if (n) fn(ctx, 0, n);
        return;
    }
#ifdef _OPENMP
#  ifndef _WIN32
    pthread_once(&g_atfork_once, register_atfork);
#  endif
    {
        /* A few chunks per thread, taken dynamically: a core busy with another process
         * delays one chunk, not a fixed half of the work. */
        const int64_t chunks = (int64_t)(n < threads * 4 ? n : threads * 4);
        const uint64_t base = n / (uint64_t)chunks, extra = n % (uint64_t)chunks;
#  pragma omp parallel for schedule(dynamic, 1) num_threads((int)threads)
        for (int64_t c = 0; c < chunks; ++c) {
            uint64_t k = (uint64_t)c;
            uint64_t begin = base * k + (k < extra ? k : extra);
            fn(ctx, begin, begin + base + (k < extra));
        }
    }
#else
    fn(ctx, 0, n);
#endif
}
