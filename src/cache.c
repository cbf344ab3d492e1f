/* cache.c - dmlcExecuteOperator and dmlcInferOutputSizes: the operators and sizes each
 * thread made last, under keys the schema (src/schema.def) compiles. */
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
#  define _GNU_SOURCE 1 /* dladdr, for pin_library below */
#endif
#include "dmlc_internal.h"

#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#  include <windows.h>
#else
#  include <dlfcn.h>
#  include <pthread.h>
#endif

/* ---- The operators dmlcExecuteOperator created last, the sizes dmlcInferOutputSizes gave ----
 * Creating an operator validates and plans its desc, which costs more than the kernel of a
 * small call (about 2,500 instructions for a SPLIT of (1, 8, 16, 16) in two, whose copies
 * take 1,000), and callers that run the same desc again and again (a model, a loop over
 * batches, the Python API on arrays of one shape) would pay it every time.  So each thread
 * keeps the last DMLC_CACHE_SLOTS operators dmlcExecuteOperator created, each under a key
 * that holds every value of its desc that creation reads (the operator type, each tensor's
 * type, flags, sizes, strides, total size and alignment, every field and array), and runs
 * the one whose key equals the desc's.  A created operator's results depend on nothing
 * but its desc (the CPU's features are read once per process), so they are the same, bit
 * for bit; the bindings are still checked on every call.  Some operators cut their work
 * for the thread count when they are created (CUMULATIVE_SUMMATION's blocks, TOP_K's
 * parts), so the key holds the thread count too: after set_num_threads a call plans for
 * the new count.  A desc
 * whose key would not fit (more than 16 parts, a field creation would refuse) is created
 * and released as before.  The operators are freed when their thread ends.
 * dmlcInferOutputSizes, which callers run before each call to size its outputs, keeps the
 * last sizes it gave the same way, under a key of the values it reads: the inputs and the
 * fields, and the output tensors only where it reads them (SPLIT's parts, MAX_UNPOOLING's
 * output, whose sizes are parameters: DMLC_SCHEMA_INFER_READS_OUTPUTS in src/schema.def). */
#define DMLC_CACHE_SLOTS 4
#define DMLC_CACHE_WORDS 448 /* a JOIN of 16 parts of 8 dimensions is 4 + 17 * 23 = 395 */
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
#define DMLC_SCHEMA(NAME, family, flags, types, fields)                                            \
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
    if (!infer) key_put(k, dmlc_thread_count()); /* some operators cut their work for it when created */
    switch ((int)desc->Type) {
#define DMLC_SCHEMA(NAME, family, flags, types, fields) \
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
    if (FAILED(hr = dmlc_lookup(who, desc, &name, &family))) return hr;
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
    if (FAILED(hr = dmlc_schema_check(desc->Type, name, desc->Desc, 1))) return hr; /* after a miss: see key_desc */
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
