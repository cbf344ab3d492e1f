/* operator.c - create / execute / release, the operator table, the error channel, threads. */
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
#  define _GNU_SOURCE 1 /* dladdr, for pin_library below */
#endif
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
#  include <dlfcn.h>
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

typedef struct dmlc_family {
    dmlc_create_fn create;
    dmlc_infer_fn infer;
} dmlc_family;

static dmlc_family find_family(DML_OPERATOR_TYPE type)
{
    dmlc_family f = {NULL, NULL};
    switch ((int)type) {
#define DMLC_OP(name, value, family)     \
    case value:                          \
        f.create = dmlc_create_##family; \
        f.infer = dmlc_infer_##family;   \
        break;
#include "ops.def"
#undef DMLC_OP
    default: break;
    }
    return f;
}

/* The operator's name and family for a desc, or a failure naming what is wrong. */
static HRESULT lookup(const char* who, const DML_OPERATOR_DESC* desc, const char** name, dmlc_family* family)
{
    if (!desc) return dmlc_fail(E_POINTER, who, "desc is NULL");
    *name = dmlc_operator_type_name(desc->Type);
    if (!*name || desc->Type == DML_OPERATOR_INVALID)
        return dmlc_fail(E_INVALIDARG, who, "desc->Type is %d, which is not a DML_OPERATOR_TYPE", (int)desc->Type);
    *family = find_family(desc->Type);
    if (!family->create)
        return dmlc_fail(E_NOTIMPL, *name, "%s (%d) is not implemented by dmlc", *name, (int)desc->Type);
    if (!desc->Desc) return dmlc_fail(E_POINTER, *name, "desc->Desc is NULL");
    return S_OK;
}

/* What the schema says of every desc of the type (dmlc_schema_check; infer: for
 * dmlcInferOutputSizes), checked before its family reads it.  The entry is never missing:
 * src/schema.c proves every ops.def operator has one. */
static HRESULT check_desc(const DML_OPERATOR_DESC* desc, const char* name, int infer)
{
    return dmlc_schema_check(dmlc_schema_find(desc->Type), name, desc->Desc, infer);
}

DMLC_OPERATOR_T* dmlc_operator_alloc(DML_OPERATOR_TYPE type, const char* name, UINT input_count,
                                     UINT output_count, size_t state_size)
{
    /* Layout: operator | tensors | state, each part aligned for 8-byte fields. */
    size_t head = (sizeof(DMLC_OPERATOR_T) + 15) & ~(size_t)15;
    uint64_t slots = (uint64_t)input_count + output_count; /* two UINTs cannot wrap 64 bits */
    size_t tensors, total;
    DMLC_OPERATOR_T* op;
    if (slots > (SIZE_MAX - head) / sizeof(dmlc_tensor)) {
        dmlc_fail(E_OUTOFMEMORY, name, "the operator's description is too large to hold");
        return NULL;
    }
    tensors = (size_t)slots * sizeof(dmlc_tensor);
    if (state_size > SIZE_MAX - head - tensors) {
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

DMLC_OPERATOR_T* dmlc_operator_alloc_unary(DML_OPERATOR_TYPE type, const char* name, const dmlc_tensor* in,
                                           const dmlc_tensor* out, dmlc_execute_fn execute, size_t state_size)
{
    DMLC_OPERATOR_T* op = dmlc_operator_alloc(type, name, 1, 1, state_size);
    if (!op) return NULL;
    op->inputs[0] = *in;
    op->outputs[0] = *out;
    op->execute = execute;
    return op;
}

HRESULT dmlcCreateOperator(const DML_OPERATOR_DESC* desc, DMLC_OPERATOR** op)
{
    const char* name = NULL;
    dmlc_family family = {NULL, NULL};
    HRESULT hr;
    if (!op) return dmlc_fail(E_POINTER, "dmlcCreateOperator", "op is NULL");
    *op = NULL;
    if (!desc) return dmlc_fail(E_POINTER, "dmlcCreateOperator", "desc is NULL");
    if (FAILED(hr = dmlc_cpu_check("dmlcCreateOperator"))) return hr; /* kernels are chosen below, by the CPU's features */
    if (FAILED(hr = lookup("dmlcCreateOperator", desc, &name, &family)) || FAILED(hr = check_desc(desc, name, 0)))
        return hr;
    hr = family.create(desc->Type, name, desc->Desc, op);
    if (FAILED(hr)) {
        free(*op);
        *op = NULL;
        return hr;
    }
    dmlc_clear_error();
    return S_OK;
}

/* ---- The operators dmlcExecuteOperator created last, the sizes dmlcInferOutputSizes gave ----
 * Creating an operator validates and plans its desc, which costs more than the kernel of a
 * small call (about 2,500 instructions for a SPLIT of (1, 8, 16, 16) in two, whose copies
 * take 1,000), and callers that run the same desc again and again (a model, a loop over
 * batches, the Python API on arrays of one shape) would pay it every time.  So each thread
 * keeps the last DMLC_CACHE_SLOTS operators dmlcExecuteOperator created, each under a key
 * that holds every value of its desc that creation reads (the operator type, each tensor's
 * type, flags, sizes, strides, total size and alignment, every field and array), and runs
 * the one whose key equals the desc's.  A created operator depends on nothing but its desc
 * (thread counts are read when it runs, the CPU's features once per process), so the
 * result is the same, bit for bit; the bindings are still checked on every call.  A desc
 * whose key would not fit (more than 16 parts, a field creation would refuse) is created
 * and released as before.  The operators are freed when their thread ends.
 * dmlcInferOutputSizes, which callers run before each call to size its outputs, keeps the
 * last sizes it gave the same way, under a key of the values it reads: the inputs and the
 * fields, and the output tensors only where it reads them (SPLIT's parts, MAX_UNPOOLING's
 * output, whose sizes are parameters: DMLC_SCHEMA_INFER_READS_OUTPUTS in src/schema.def). */
#define DMLC_CACHE_SLOTS 4
#define DMLC_CACHE_WORDS 448 /* a JOIN of 16 parts of 8 dimensions is 3 + 17 * 23 = 394 */
#define DMLC_CACHE_PARTS 16

typedef struct dmlc_key {
    UINT n;
    int ok;
    uint32_t w[DMLC_CACHE_WORDS];
} dmlc_key;

/* The keys of one cache's slots; a slot with n == 0 is empty (a key has at least the type). */
typedef struct dmlc_slots {
    UINT next; /* the oldest slot, the next to be replaced */
    UINT n[DMLC_CACHE_SLOTS];
    uint32_t key[DMLC_CACHE_SLOTS][DMLC_CACHE_WORDS];
} dmlc_slots;

typedef struct dmlc_op_cache {
    dmlc_slots ops;                    /* dmlcExecuteOperator's ... */
    DMLC_OPERATOR* op[DMLC_CACHE_SLOTS];
    dmlc_slots infer;                  /* ... and dmlcInferOutputSizes's: up to two outputs' sizes */
    DMLC_TENSOR_SIZES sizes[DMLC_CACHE_SLOTS][2];
} dmlc_op_cache;

/* The slot holding key k, or DMLC_CACHE_SLOTS. */
static UINT slot_find(const dmlc_slots* s, const dmlc_key* k)
{
    UINT i = 0;
    while (i < DMLC_CACHE_SLOTS && !(s->n[i] == k->n && memcmp(s->key[i], k->w, (size_t)k->n * sizeof k->w[0]) == 0))
        ++i;
    return i;
}

/* The oldest slot, now holding key k (its caller replaces what the slot kept). */
static UINT slot_take(dmlc_slots* s, const dmlc_key* k)
{
    const UINT i = s->next;
    s->n[i] = k->n;
    memcpy(s->key[i], k->w, (size_t)k->n * sizeof k->w[0]);
    s->next = (i + 1) % DMLC_CACHE_SLOTS;
    return i;
}

/* Room for m more words at the end of k, or NULL (and no key) if they do not fit. */
static uint32_t* key_room(dmlc_key* k, UINT m)
{
    uint32_t* w;
    if (!k->ok || m > DMLC_CACHE_WORDS - k->n) {
        k->ok = 0;
        return NULL;
    }
    w = k->w + k->n;
    k->n += m;
    return w;
}

static void key_put(dmlc_key* k, uint32_t v)
{
    uint32_t* w = key_room(k, 1);
    if (w) *w = v;
}

/* A field's bits (a float, DML_SCALAR_UNION's 8 bytes), `words` 32-bit words of them. */
static void key_bits(dmlc_key* k, const void* p, UINT words)
{
    uint32_t* w = key_room(k, words);
    if (w) memcpy(w, p, (size_t)words * sizeof *w);
}

/* n values of a, n first; a count creation refuses is no key. */
static void key_uints(dmlc_key* k, const UINT* a, UINT n)
{
    uint32_t* w;
    if (n > DMLC_MAX_DIMS || (n && !a)) {
        k->ok = 0;
        return;
    }
    if ((w = key_room(k, n + 1)) == NULL) return;
    w[0] = n;
    for (UINT i = 0; i < n; ++i) w[i + 1] = a[i];
}

/* A tensor in 7 + DimensionCount (+ DimensionCount with strides) words. */
static void key_tensor(dmlc_key* k, const DML_TENSOR_DESC* t)
{
    const DML_BUFFER_TENSOR_DESC* b;
    uint32_t* w;
    UINT n;
    if (!t) { /* an optional tensor left out */
        key_put(k, 0xFFFFFFFFu);
        return;
    }
    b = (const DML_BUFFER_TENSOR_DESC*)t->Desc;
    if (t->Type != DML_TENSOR_TYPE_BUFFER || !b || b->DimensionCount > DMLC_MAX_DIMS || !b->Sizes) {
        k->ok = 0;
        return;
    }
    n = b->DimensionCount;
    if ((w = key_room(k, 7 + (b->Strides ? 2 * n : n))) == NULL) return;
    w[0] = (uint32_t)b->DataType;
    w[1] = (uint32_t)b->Flags;
    w[2] = n;
    w[3] = b->Strides != NULL;
    w[4] = (uint32_t)b->TotalTensorSizeInBytes;
    w[5] = (uint32_t)(b->TotalTensorSizeInBytes >> 32);
    w[6] = b->GuaranteedBaseOffsetAlignment;
    w += 7;
    for (UINT i = 0; i < n; ++i) w[i] = b->Sizes[i];
    if (b->Strides)
        for (UINT i = 0; i < n; ++i) w[n + i] = b->Strides[i];
}

static void key_tensors(dmlc_key* k, const DML_TENSOR_DESC* t, UINT n)
{
    if (n > DMLC_CACHE_PARTS || (n && !t)) {
        k->ok = 0;
        return;
    }
    key_put(k, n);
    for (UINT i = 0; i < n && k->ok; ++i) key_tensor(k, &t[i]);
}

/* The DimensionCount of a buffer tensor desc, or ~0u. */
static UINT key_rank(const DML_TENSOR_DESC* t)
{
    return t && t->Type == DML_TENSOR_TYPE_BUFFER && t->Desc ? ((const DML_BUFFER_TENSOR_DESC*)t->Desc)->DimensionCount
                                                             : ~0u;
}

/* desc's key into k; 0 if it has none (a type without a schema entry, or a field the cache
 * does not take).  The key functions are the schema (src/schema.def) compiled: one per
 * entry, one statement per field, so a key costs no more than a hand-written one and no
 * operator can be left out.  Every field goes in, as its bits; an array as its count and its
 * values; a tensor by key_tensor.  A count the schema ties to the input's rank
 * (DMLC_FIELD_RANK, DMLC_FIELD_SPATIAL) must be the one creation checks before it reads the
 * arrays, or the desc has no key and creation says why: so the cache never reads an array
 * that creation would refuse unread.  For dmlcInferOutputSizes (skip_outputs), the output
 * tensors are left out where it does not read them (DMLC_SCHEMA_INFER_READS_OUTPUTS). */
#define KEY_SKIP(kind) (DMLC_KIND_##kind == DMLC_KIND_OUTPUT && skip_outputs)
#define KEY_TENSOR(kind, field, flags, count)                                               \
    if (!KEY_SKIP(kind)) {                                                                  \
        if (DMLC_KIND_##kind == DMLC_KIND_INPUT && rank == ~0u) rank = key_rank(d->field); \
        key_tensor(k, d->field);                                                            \
    }
#define KEY_TENSOR_ARRAY(kind, field, flags, count) \
    if (!KEY_SKIP(kind)) key_tensors(k, d->field, d->count);
#define KEY_WORD(kind, field, flags, count)                                                           \
    {                                                                                                 \
        uint32_t v;                                                                                   \
        memcpy(&v, &d->field, sizeof v); /* UINT, INT, FLOAT, BOOL, an enum: 32 bits */               \
        if (((flags) & DMLC_FIELD_RANK) && v != rank) return k->ok = 0;                               \
        if (((flags) & DMLC_FIELD_SPATIAL) && (uint64_t)v + 2 != rank) return k->ok = 0;              \
        key_put(k, v);                                                                                \
    }
#define KEY_UINT KEY_WORD
#define KEY_INT KEY_WORD
#define KEY_FLOAT KEY_WORD
#define KEY_BOOL KEY_WORD
#define KEY_ENUM KEY_WORD
#define KEY_TWO_WORDS(kind, field, flags, count) key_bits(k, &d->field, 2);
#define KEY_UINT64 KEY_TWO_WORDS
#define KEY_SIZE_2D KEY_TWO_WORDS
#define KEY_SCALAR_UNION KEY_TWO_WORDS
#define KEY_UINT_ARRAY(kind, field, flags, count) key_uints(k, (const UINT*)d->field, d->count);
#define KEY_INT_ARRAY KEY_UINT_ARRAY /* INT, UINT and FLOAT: the same bits */
#define KEY_FLOAT_ARRAY KEY_UINT_ARRAY
#define KEY_SCALE_BIAS(kind, field, flags, count) \
    key_put(k, d->field != NULL);                 \
    if (d->field) key_bits(k, d->field, 2);

#define DMLC_FIELD(kind, type, ctype, field, flags, count) KEY_##type(kind, field, flags, count)
#define DMLC_SCHEMA(NAME, flags, types, fields)                                                    \
    static int key_##NAME(dmlc_key* k, const DML_##NAME##_OPERATOR_DESC* d, int infer)            \
    {                                                                                              \
        const int skip_outputs = infer && !((flags) & DMLC_SCHEMA_INFER_READS_OUTPUTS);           \
        UINT rank = ~0u; /* the first input tensor's DimensionCount */                             \
        (void)skip_outputs;                                                                        \
        (void)rank;                                                                                \
        fields return k->ok;                                                                       \
    }
#include "schema.def"
#undef DMLC_SCHEMA
#undef DMLC_FIELD

static int key_desc(dmlc_key* k, const DML_OPERATOR_DESC* desc, int infer)
{
    k->n = 0;
    k->ok = 1;
    if (!desc || !desc->Desc) return 0;
    key_put(k, (uint32_t)desc->Type);
    switch ((int)desc->Type) {
#define DMLC_SCHEMA(NAME, flags, types, fields) \
    case DML_OPERATOR_##NAME: return key_##NAME(k, (const DML_##NAME##_OPERATOR_DESC*)desc->Desc, infer);
#include "schema.def"
#undef DMLC_SCHEMA
    default: return 0;
    }
}

static void cache_free(void* p)
{
    dmlc_op_cache* c = (dmlc_op_cache*)p;
    if (!c) return;
    for (UINT i = 0; i < DMLC_CACHE_SLOTS; ++i) dmlcReleaseOperator(c->op[i]);
    free(c);
}

/* ---- Unloading ----------------------------------------------------------------------
 * A thread that called dmlcExecuteOperator or dmlcInferOutputSizes holds a cache that
 * cache_free releases when the thread ends: a thread-exit destructor (pthread key, fiber
 * local storage) whose code is this library's.  A plugin host that dlclose()s the library
 * while such a thread is alive would have that thread jump into unmapped code as it ends
 * (SIGSEGV).  A library destructor cannot make unloading safe: pthread_key_delete() stops
 * the destructor but leaks every live thread's cache (which only its own thread may free:
 * it may be in use), and worker threads of the library's thread pool also wait in code the
 * library brought.  So, as glibc does for a library with C++ thread_local destructors
 * pending, the library pins itself in memory the first time it registers a thread-exit
 * destructor: it takes a reference to itself that is never released, with RTLD_NODELETE
 * (the run-time form of linking with -z nodelete, which holds however the library was
 * built: setup.py, a cross build, a static link into a plugin) or GET_MODULE_HANDLE_EX_
 * FLAG_PIN.  dlclose() then leaves it loaded: its code and a few kilobytes of state stay,
 * and a later dlopen() gets the same instance, settings included.  tests/c/unload.c is a
 * host that unloads it with a live thread. */
#if defined(_WIN32)
static void pin_library(void)
{
    HMODULE self;
    (void)GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                             (LPCWSTR)(void*)&cache_free, &self);
}
#else
static void pin_library(void)
{
    Dl_info info;
    /* The object holding cache_free (this library, or a program it is linked into, which
     * RTLD_NOLOAD then finds loaded already or not at all); the handle is never closed. */
    if (dladdr((void*)&cache_free, &info) && info.dli_fname)
        (void)dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
}
#endif

/* The calling thread's cache (made on first use, freed when the thread ends), or NULL. */
#if defined(_WIN32)
static INIT_ONCE g_cache_once = INIT_ONCE_STATIC_INIT;
static DWORD g_cache_slot = FLS_OUT_OF_INDEXES;
static void WINAPI cache_free_fls(void* p) { cache_free(p); }
static BOOL CALLBACK cache_slot_init(PINIT_ONCE once, void* param, void** context)
{
    (void)once;
    (void)param;
    (void)context;
    pin_library();
    g_cache_slot = FlsAlloc(cache_free_fls);
    return TRUE;
}
static dmlc_op_cache* thread_cache(void)
{
    dmlc_op_cache* c;
    InitOnceExecuteOnce(&g_cache_once, cache_slot_init, NULL, NULL);
    if (g_cache_slot == FLS_OUT_OF_INDEXES) return NULL;
    c = (dmlc_op_cache*)FlsGetValue(g_cache_slot);
    if (!c && (c = (dmlc_op_cache*)calloc(1, sizeof *c)) != NULL && !FlsSetValue(g_cache_slot, c)) {
        free(c);
        c = NULL;
    }
    return c;
}
#else
static pthread_once_t g_cache_once = PTHREAD_ONCE_INIT;
static pthread_key_t g_cache_key;
static int g_cache_key_ok;
static void cache_key_init(void)
{
    pin_library();
    g_cache_key_ok = pthread_key_create(&g_cache_key, cache_free) == 0;
}
static dmlc_op_cache* thread_cache(void)
{
    dmlc_op_cache* c;
    if (pthread_once(&g_cache_once, cache_key_init) != 0 || !g_cache_key_ok) return NULL;
    c = (dmlc_op_cache*)pthread_getspecific(g_cache_key);
    if (!c && (c = (dmlc_op_cache*)calloc(1, sizeof *c)) != NULL && pthread_setspecific(g_cache_key, c) != 0) {
        free(c);
        c = NULL;
    }
    return c;
}
#endif

HRESULT dmlcInferOutputSizes(const DML_OPERATOR_DESC* desc, UINT flags, UINT outputCount, DMLC_TENSOR_SIZES* outputs)
{
    static const char who[] = "dmlcInferOutputSizes";
    const char* name = NULL;
    dmlc_family family = {NULL, NULL};
    dmlc_shapes sh;
    dmlc_op_cache* c = NULL;
    dmlc_key k;
    HRESULT hr;
    if (FAILED(hr = lookup(who, desc, &name, &family))) return hr;
    if (flags & ~(UINT)DMLC_INFER_FLAG_CEIL_MODE)
        return dmlc_fail(E_INVALIDARG, who, "flags is 0x%x, expected a combination of DMLC_INFER_FLAGS (0x%x)", flags,
                         (UINT)DMLC_INFER_FLAG_CEIL_MODE);
    if (outputCount && !outputs) return dmlc_fail(E_POINTER, who, "outputs is NULL");
    if (outputCount <= 2 && key_desc(&k, desc, 1)) {
        key_put(&k, flags);
        key_put(&k, outputCount);
        if (k.ok && (c = thread_cache()) != NULL) {
            const UINT i = slot_find(&c->infer, &k);
            if (i < DMLC_CACHE_SLOTS) {
                if (outputCount) memcpy(outputs, c->sizes[i], outputCount * sizeof *outputs);
                dmlc_clear_error();
                return S_OK;
            }
        }
    }
    if (FAILED(hr = check_desc(desc, name, 1))) return hr;
    sh.who = name;
    sh.flags = flags;
    sh.count = outputCount;
    sh.outputs = NULL;
    sh.sizes = outputs;
    if (FAILED(hr = family.infer(desc->Type, name, desc->Desc, &sh))) return hr;
    if (c) { /* kept in the oldest slot */
        const UINT i = slot_take(&c->infer, &k);
        if (outputCount) memcpy(c->sizes[i], outputs, outputCount * sizeof *outputs);
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
    /* Bound addresses live on the stack for the common counts; SPLIT/JOIN may have more.
     * The count is 64-bit and outputs are addressed from their own base, so no sum of two
     * UINTs can wrap (2^32 - 1 outputs and one input is 2^32 slots, not 0). */
    void* local[2 * 16];
    void** ptrs = local;
    void** out_ptrs;
    HRESULT hr = S_OK;
    uint64_t n;
    if (!op) return dmlc_fail(E_POINTER, who, "op is NULL");
    if (inputCount != op->input_count)
        return dmlc_fail(E_INVALIDARG, op->name, "inputCount is %u, expected %u", inputCount, op->input_count);
    if (outputCount != op->output_count)
        return dmlc_fail(E_INVALIDARG, op->name, "outputCount is %u, expected %u", outputCount, op->output_count);
    if (inputCount && !inputs) return dmlc_fail(E_POINTER, op->name, "inputs is NULL");
    if (outputCount && !outputs) return dmlc_fail(E_POINTER, op->name, "outputs is NULL");
    n = (uint64_t)inputCount + outputCount;
    if (n > sizeof local / sizeof local[0]) {
        ptrs = n > SIZE_MAX / sizeof *ptrs ? NULL : (void**)malloc((size_t)n * sizeof *ptrs);
        if (!ptrs)
            return dmlc_fail(E_OUTOFMEMORY, op->name, "out of memory binding %llu tensors", (unsigned long long)n);
    }
    out_ptrs = ptrs + inputCount;
    for (UINT i = 0; i < inputCount && SUCCEEDED(hr); ++i)
        hr = check_binding(op, &op->inputs[i], &inputs[i], "inputs", i, &ptrs[i]);
    for (UINT i = 0; i < outputCount && SUCCEEDED(hr); ++i)
        hr = check_binding(op, &op->outputs[i], &outputs[i], "outputs", i, &out_ptrs[i]);
    /* An output may share no byte with an input or another output: the kernels read inputs
     * while writing outputs, and a failed check must leave every output untouched.  The
     * one exception is an element-wise operator bound in place (op->in_place): output 0 at
     * exactly input 0's address, where creation checked that the layouts coincide. */
    for (UINT i = 0; i < outputCount && SUCCEEDED(hr); ++i) {
        const void* o = out_ptrs[i];
        uint64_t on = op->outputs[i].extent;
        for (UINT j = 0; j < inputCount && SUCCEEDED(hr); ++j) {
            if (!ranges_overlap(o, on, ptrs[j], op->inputs[j].extent)) continue;
            if (i == 0 && j == 0 && op->in_place == DMLC_IN_PLACE_SAME_LAYOUT && o == ptrs[0]) continue;
            if (i == 0 && j == 0 && op->in_place == DMLC_IN_PLACE_SAME_LAYOUT)
                hr = dmlc_fail(E_INVALIDARG, op->name, "outputs[0] overlaps inputs[0] without aliasing it exactly; "
                               "in place, both must be bound at the same address");
            else if (i == 0 && j == 0 && op->in_place == DMLC_IN_PLACE_LAYOUTS_DIFFER)
                hr = dmlc_fail(E_INVALIDARG, op->name, "outputs[0] overlaps inputs[0], but the tensors' strides differ; "
                               "in place, InputTensor and OutputTensor need the same layout");
            else
                hr = dmlc_fail(E_INVALIDARG, op->name, "outputs[%u] overlaps inputs[%u]; outputs may not alias inputs", i, j);
        }
        for (UINT j = 0; j < i && SUCCEEDED(hr); ++j)
            if (ranges_overlap(o, on, out_ptrs[j], op->outputs[j].extent))
                hr = dmlc_fail(E_INVALIDARG, op->name, "outputs[%u] overlaps outputs[%u]", i, j);
    }
    if (SUCCEEDED(hr)) {
        op->execute(op, (const void* const*)ptrs, out_ptrs);
        dmlc_clear_error();
    }
    if (ptrs != local) free(ptrs);
    return hr;
}

HRESULT dmlcExecuteOperator(const DML_OPERATOR_DESC* desc, UINT inputCount, const DMLC_BUFFER_BINDING* inputs,
                            UINT outputCount, const DMLC_BUFFER_BINDING* outputs)
{
    DMLC_OPERATOR* op = NULL;
    dmlc_op_cache* c = NULL;
    dmlc_key k;
    HRESULT hr;
    if (!desc) return dmlc_fail(E_POINTER, "dmlcExecuteOperator", "desc is NULL");
    if (key_desc(&k, desc, 0) && (c = thread_cache()) != NULL) {
        const UINT i = slot_find(&c->ops, &k);
        if (i < DMLC_CACHE_SLOTS) return dmlcExecute(c->op[i], inputCount, inputs, outputCount, outputs);
    }
    hr = dmlcCreateOperator(desc, &op);
    if (FAILED(hr)) return hr;
    hr = dmlcExecute(op, inputCount, inputs, outputCount, outputs);
    if (c) { /* kept in the oldest slot, in place of what it kept */
        const UINT i = slot_take(&c->ops, &k);
        dmlcReleaseOperator(c->op[i]);
        c->op[i] = op;
    } else {
        dmlcReleaseOperator(op);
    }
    return hr;
}

/* ---- Threads ------------------------------------------------------------------------
 * The requested count, the default and the fork flag are read by every operator, on any
 * thread, while another thread may set them: atomics, so that is defined behaviour (a
 * plain or volatile UINT is a data race in C11).  Relaxed order is enough: each is one
 * value that orders no other memory. */
#if defined(_MSC_VER) && !defined(__clang__)
typedef volatile LONG dmlc_atomic_uint;
static UINT dmlc_atomic_get(dmlc_atomic_uint* v) { return (UINT)InterlockedOr(v, 0); }
static void dmlc_atomic_set(dmlc_atomic_uint* v, UINT x) { InterlockedExchange(v, (LONG)x); }
static int dmlc_atomic_set_if_zero(dmlc_atomic_uint* v, UINT x)
{
    return InterlockedCompareExchange(v, (LONG)x, 0) == 0;
}
#else
#  include <stdatomic.h>
typedef atomic_uint dmlc_atomic_uint;
static UINT dmlc_atomic_get(dmlc_atomic_uint* v) { return atomic_load_explicit(v, memory_order_relaxed); }
static void dmlc_atomic_set(dmlc_atomic_uint* v, UINT x) { atomic_store_explicit(v, x, memory_order_relaxed); }
static int dmlc_atomic_set_if_zero(dmlc_atomic_uint* v, UINT x)
{
    unsigned int expected = 0;
    return atomic_compare_exchange_strong_explicit(v, &expected, x, memory_order_relaxed, memory_order_relaxed);
}
#endif

#define DMLC_MAX_THREADS 1024
static dmlc_atomic_uint g_thread_request; /* 0 = default */
static dmlc_atomic_uint g_default_threads; /* 0 = not computed yet */
static dmlc_atomic_uint g_forked_child;    /* 1 in a child forked after the parent ran threads */

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

/* DMLC_NUM_THREADS, read strictly: a whole number from 1 to DMLC_MAX_THREADS in decimal
 * digits and nothing else ("4abc", "1e3", " 4", "-1" and "0" are refused, not read as a
 * prefix).  Returns the count, or 0 for a bad value with *too_large set when it was only
 * too large. */
static UINT parse_thread_count(const char* text, int* too_large)
{
    uint64_t v = 0;
    const char* p = text;
    *too_large = 0;
    if (!*p) return 0;
    for (; *p; ++p) {
        if (*p < '0' || *p > '9') return 0;
        if (v <= DMLC_MAX_THREADS) v = v * 10 + (uint64_t)(*p - '0'); /* stops growing once too large */
    }
    if (v > DMLC_MAX_THREADS) {
        *too_large = 1;
        return 0;
    }
    return (UINT)v;
}

/* The default thread count: DMLC_NUM_THREADS, else one thread per core.  A bad value is
 * reported once, on stderr, with what is used instead: no call has failed, so there is no
 * error message to carry it, and a setting that is silently ignored looks like a slow
 * machine.  Unset or empty means "not set", as for OpenMP's variables. */
static UINT default_threads(void)
{
    UINT n = dmlc_atomic_get(&g_default_threads);
    if (!n) {
        const char* env = getenv("DMLC_NUM_THREADS");
        char warning[256] = "";
        int too_large = 0;
        UINT cores = core_count();
        if (!cores) cores = 1;
        n = env && *env ? parse_thread_count(env, &too_large) : cores;
        if (!n) {
            const char* more = strlen(env) > 40 ? "..." : ""; /* the value is shown up to 40 characters */
#ifdef _OPENMP
            const char* why = too_large ? "more than the 1024 threads dmlc can run" : "not a whole number from 1 to 1024";
            n = too_large ? DMLC_MAX_THREADS : cores;
            snprintf(warning, sizeof warning, "dmlc: DMLC_NUM_THREADS is \"%.40s%s\", %s; using %u %s instead\n", env,
                     more, why, n, too_large ? "threads" : (n == 1 ? "thread (one per core)" : "threads (one per core)"));
#else
            n = cores;
            snprintf(warning, sizeof warning, "dmlc: DMLC_NUM_THREADS is \"%.40s%s\", %s; using 1 thread instead "
                     "(this build of dmlc is single-threaded)\n", env, more,
                     too_large ? "more than the 1024 threads dmlc can run" : "not a whole number from 1 to 1024");
#endif
        }
        /* Threads that race here compute the same n; only the one that stores it warns. */
        if (dmlc_atomic_set_if_zero(&g_default_threads, n) && warning[0]) fputs(warning, stderr);
        n = dmlc_atomic_get(&g_default_threads);
    }
    return n;
}

HRESULT dmlcSetThreadCount(UINT count)
{
    if (count > DMLC_MAX_THREADS)
        return dmlc_fail(E_INVALIDARG, "dmlcSetThreadCount", "count is %u, expected 0 to %d", count, DMLC_MAX_THREADS);
    dmlc_atomic_set(&g_thread_request, count);
    dmlc_clear_error();
    return S_OK;
}

UINT dmlcGetThreadCount(void)
{
    UINT n = dmlc_atomic_get(&g_thread_request);
    n = n ? n : default_threads();
#ifndef _OPENMP
    n = 1; /* built without OpenMP: everything runs on the calling thread */
#endif
    /* A child forked after its parent ran threads runs on its calling thread only (see
     * dmlc_parallel_for), and says so. */
    if (dmlc_atomic_get(&g_forked_child)) n = 1;
    return n;
}

UINT dmlc_thread_count(void) { return dmlcGetThreadCount(); }

#if defined(_OPENMP) && !defined(_WIN32)
/* GNU OpenMP's thread pool does not survive fork(): a child that enters a parallel region
 * after its parent ran one deadlocks (multiprocessing's default start method on Linux does
 * exactly this).  Once the parent has used threads, a forked child runs single-threaded. */
static pthread_once_t g_atfork_once = PTHREAD_ONCE_INIT;
static void on_fork_child(void) { dmlc_atomic_set(&g_forked_child, 1); }
static void register_atfork(void) { pthread_atfork(NULL, NULL, on_fork_child); }
#endif

void dmlc_parallel_for(uint64_t n, uint64_t work_bytes, dmlc_range_fn fn, void* ctx)
{
    uint64_t threads = dmlc_thread_count(); /* 1 in a forked child: see register_atfork */
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
