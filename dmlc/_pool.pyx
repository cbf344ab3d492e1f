# cython: language_level=3, boundscheck=False, wraparound=False
"""The memory of the arrays dmlc's functions return, and the bounded pool of freed ones.

A new array of many megabytes is memory the operating system has to fault in and zero
page by page when it is first written, which takes longer than the copy that fills it
(split's 134 MB took three times as long fresh as into ``out=`` on the machine dmlc was
measured on, huge pages or not).  glibc keeps freed memory below 32 MiB for the next
request; ONNX Runtime's arena keeps all of it.  dmlc keeps a bounded amount:

- outputs of at least ``POOL_MIN_BYTES`` are allocated through a NumPy memory handler
  (``dmlc_output_pool``), so they are ordinary arrays that own their memory;
- when such an array is freed (it and every view of it are gone), its memory goes back
  to the pool instead of the system, as long as the pool holds at most its limit
  (``get_output_pool_limit``; ``DMLC_OUTPUT_POOL`` in the environment sets it at import,
  in bytes or with a unit, ``512MiB``; 0 turns the pool off), the oldest buffers leaving first;
- a new output takes a held buffer from its size to an eighth more, else fresh memory
  (with transparent huge pages requested, as NumPy does).

``output_pool_info()`` says what the pool holds, ``release_output_pool()`` gives it back
to the system.  The pool never holds memory an array still uses.
"""
import os
import sys

from dmlc._args import index_of

cimport numpy as cnp
from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport uintptr_t, uint64_t
from libc.string cimport memcpy, memset

cnp.import_array()

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #include "pythread.h"
    #if defined(__linux__)
    #  include <sys/mman.h>
    #endif

    /* Every pool buffer: a 64-byte aligned data area, preceded by its header. */
    typedef struct dmlc_block { void* raw; size_t capacity; } dmlc_block;
    #define DMLC_POOL_ALIGN 64
    #define DMLC_POOL_SLOTS 16

    typedef struct dmlc_pool {
        PyThread_type_lock lock;
        size_t limit;                      /* bytes the pool may hold */
        size_t held;                       /* bytes it holds */
        int count;                         /* buffers it holds, oldest first */
        char* data[DMLC_POOL_SLOTS];
        unsigned long long reused, fresh;  /* outputs served from the pool, and from the system */
    } dmlc_pool;
    static dmlc_pool dmlc_the_pool;

    static dmlc_block* dmlc_header(void* data) { return (dmlc_block*)((char*)data - sizeof(dmlc_block)); }

    /* Fresh memory for capacity bytes, 64-byte aligned, huge pages requested. */
    static char* dmlc_block_new(size_t capacity, int zero)
    {
        char* raw;
        char* data;
        if (capacity > (size_t)-1 - 2 * DMLC_POOL_ALIGN) return NULL;
        raw = (char*)(zero ? calloc(1, capacity + 2 * DMLC_POOL_ALIGN) : malloc(capacity + 2 * DMLC_POOL_ALIGN));
        if (!raw) return NULL;
        data = (char*)(((uintptr_t)raw + sizeof(dmlc_block) + DMLC_POOL_ALIGN - 1) & ~(uintptr_t)(DMLC_POOL_ALIGN - 1));
        dmlc_header(data)->raw = raw;
        dmlc_header(data)->capacity = capacity;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        {   /* the whole 4 KiB pages inside the buffer; a failure only costs speed */
            uintptr_t lo = ((uintptr_t)data + 4095) & ~(uintptr_t)4095, hi = ((uintptr_t)data + capacity) & ~(uintptr_t)4095;
            if (hi > lo) madvise((void*)lo, hi - lo, MADV_HUGEPAGE);
        }
    #endif
        return data;
    }

    static void dmlc_block_free(char* data) { if (data) free(dmlc_header(data)->raw); }

    /* Removes and returns the best held buffer for size bytes (the smallest from size to
     * size + size/8), or NULL. */
    static char* dmlc_pool_take(dmlc_pool* p, size_t size)
    {
        int best = -1;
        char* data = NULL;
        if (!p->count) return NULL;
        PyThread_acquire_lock(p->lock, WAIT_LOCK);
        for (int i = 0; i < p->count; ++i) {
            size_t c = dmlc_header(p->data[i])->capacity;
            if (c >= size && c - size <= size / 8 && (best < 0 || c < dmlc_header(p->data[best])->capacity)) best = i;
        }
        if (best >= 0) {
            data = p->data[best];
            p->held -= dmlc_header(data)->capacity;
            memmove(&p->data[best], &p->data[best + 1], (size_t)(p->count - best - 1) * sizeof(char*));
            --p->count;
            ++p->reused;
        }
        PyThread_release_lock(p->lock);
        return data;
    }

    /* Keeps data if it fits the limit (dropping the oldest buffers to make room), else
     * frees it; dropped buffers are freed outside the lock. */
    static void dmlc_pool_give(dmlc_pool* p, char* data)
    {
        char* drop[DMLC_POOL_SLOTS + 1];
        int ndrop = 0;
        const size_t c = dmlc_header(data)->capacity;
        PyThread_acquire_lock(p->lock, WAIT_LOCK);
        if (c > p->limit) {
            drop[ndrop++] = data;
        } else {
            while (p->count && (p->count == DMLC_POOL_SLOTS || p->held + c > p->limit)) {
                drop[ndrop++] = p->data[0];
                p->held -= dmlc_header(p->data[0])->capacity;
                memmove(&p->data[0], &p->data[1], (size_t)(p->count - 1) * sizeof(char*));
                --p->count;
            }
            p->data[p->count++] = data;
            p->held += c;
        }
        PyThread_release_lock(p->lock);
        for (int i = 0; i < ndrop; ++i) dmlc_block_free(drop[i]);
    }

    /* Frees held buffers until the pool holds at most keep bytes; returns the bytes freed. */
    static size_t dmlc_pool_trim(dmlc_pool* p, size_t keep)
    {
        char* drop[DMLC_POOL_SLOTS];
        int ndrop = 0;
        size_t freed = 0;
        PyThread_acquire_lock(p->lock, WAIT_LOCK);
        while (p->count && p->held > keep) {
            drop[ndrop++] = p->data[0];
            freed += dmlc_header(p->data[0])->capacity;
            p->held -= dmlc_header(p->data[0])->capacity;
            memmove(&p->data[0], &p->data[1], (size_t)(p->count - 1) * sizeof(char*));
            --p->count;
        }
        PyThread_release_lock(p->lock);
        for (int i = 0; i < ndrop; ++i) dmlc_block_free(drop[i]);
        return freed;
    }

    /* ---- The NumPy memory handler ---------------------------------------------------- */
    static void* dmlc_pool_malloc(void* ctx, size_t size)
    {
        dmlc_pool* p = (dmlc_pool*)ctx;
        char* data = dmlc_pool_take(p, size);
        if (data) return data;
        data = dmlc_block_new(size, 0);
        if (data) {
            PyThread_acquire_lock(p->lock, WAIT_LOCK);
            ++p->fresh;
            PyThread_release_lock(p->lock);
        }
        return data;
    }

    static void* dmlc_pool_calloc(void* ctx, size_t nelem, size_t elsize)
    {
        char* data;
        if (elsize && nelem > (size_t)-1 / elsize) return NULL;
        data = dmlc_pool_take((dmlc_pool*)ctx, nelem * elsize);
        if (data) {
            memset(data, 0, nelem * elsize);
            return data;
        }
        return dmlc_block_new(nelem * elsize, 1);
    }

    static void dmlc_pool_free(void* ctx, void* ptr, size_t size)
    {
        (void)size; /* the header knows the buffer's capacity */
        if (ptr) dmlc_pool_give((dmlc_pool*)ctx, (char*)ptr);
    }

    static void* dmlc_pool_realloc(void* ctx, void* ptr, size_t size)
    {
        char* data;
        size_t keep;
        if (!ptr) return dmlc_pool_malloc(ctx, size);
        keep = dmlc_header(ptr)->capacity;
        if (size <= keep && keep - size <= size / 8) return ptr;
        data = (char*)dmlc_pool_malloc(ctx, size);
        if (!data) return NULL;
        memcpy(data, ptr, keep < size ? keep : size);
        dmlc_pool_free(ctx, ptr, keep);
        return data;
    }

    static PyDataMem_Handler dmlc_pool_handler = {
        "dmlc_output_pool", 1,
        {&dmlc_the_pool, dmlc_pool_malloc, dmlc_pool_calloc, dmlc_pool_realloc, dmlc_pool_free}};
    """
    ctypedef struct dmlc_pool:
        void* lock
        size_t limit
        size_t held
        int count
        unsigned long long reused
        unsigned long long fresh
    dmlc_pool dmlc_the_pool
    cnp.PyDataMem_Handler dmlc_pool_handler
    size_t dmlc_pool_trim(dmlc_pool* p, size_t keep) nogil
    void* PyThread_allocate_lock()

#: Outputs smaller than this come from NumPy's own allocator (glibc reuses them well).
POOL_MIN_BYTES = 4 << 20
cdef Py_ssize_t _pool_min = POOL_MIN_BYTES
#: The pool's limit when DMLC_OUTPUT_POOL does not set it.
DEFAULT_LIMIT = 256 << 20
cdef object _handler


#: The units DMLC_OUTPUT_POOL takes after its number, in any case: powers of 1024.
UNITS = {"": 1, "k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30}
#: The largest limit: what a size_t holds.
MOST_BYTES = <size_t>-1


def _limit_from_environment(text):
    """DMLC_OUTPUT_POOL's limit, read by the rule DMLC_NUM_THREADS is read by (in the C
    core): a whole number in ASCII decimal digits and nothing else (no sign, space,
    underscore or other scripts' digits), here optionally followed by a unit (UNITS);
    unset or empty means the default.  A bad value never stops dmlc from importing: it is
    reported in one line on stderr, naming the variable, the value (up to 40 characters)
    and the limit used instead, which is the default, or for a value too large the largest
    limit.  Example: "512MiB" is 536870912; "512 MB" is reported and 268435456 used."""
    if not text:
        return DEFAULT_LIMIT
    number = text.rstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    unit = text[len(number):].lower()
    if number and unit in UNITS and all("0" <= c <= "9" for c in number):
        digits = number.lstrip("0")
        if len(digits) <= 20 and int(digits or "0") * UNITS[unit] <= MOST_BYTES:
            return int(digits or "0") * UNITS[unit]
        why, used = f"more than the {MOST_BYTES} bytes a limit can be", MOST_BYTES
    else:
        why, used = "not a whole number of bytes, optionally with a unit (K, M, G, KiB, MiB or GiB)", DEFAULT_LIMIT
    shown = text[:40] + ("..." if len(text) > 40 else "")
    default = " (the default)" if used == DEFAULT_LIMIT else ""
    sys.stderr.write(f'dmlc: DMLC_OUTPUT_POOL is "{shown}", {why}; using {used} bytes{default} instead\n')
    return used


dmlc_the_pool.lock = PyThread_allocate_lock()
if dmlc_the_pool.lock == NULL:
    raise MemoryError("dmlc: cannot allocate the output pool's lock")
dmlc_the_pool.limit = _limit_from_environment(os.environ.get("DMLC_OUTPUT_POOL", ""))
_handler = PyCapsule_New(&dmlc_pool_handler, "mem_handler", NULL)


cdef cnp.ndarray new_array(int nd, cnp.npy_intp* dims, int typenum, Py_ssize_t itemsize):
    """np.empty(dims, typenum) in C order (itemsize: the type's); large arrays through the pool."""
    cdef Py_ssize_t n = itemsize
    cdef int i
    cdef object old
    for i in range(nd):
        n *= dims[i]
    if n < _pool_min or dmlc_the_pool.limit == 0:
        return cnp.PyArray_EMPTY(nd, dims, typenum, 0)
    old = cnp.PyDataMem_SetHandler(_handler)
    try:
        return cnp.PyArray_EMPTY(nd, dims, typenum, 0)
    finally:
        cnp.PyDataMem_SetHandler(old)


def set_output_pool_limit(limit):
    """Set the most bytes of freed outputs dmlc keeps for its next outputs (0: none).

    Buffers held beyond the new limit are given back to the system at once."""
    limit = index_of(limit, "set_output_pool_limit", "limit")  # an int, a NumPy integer, anything with __index__
    cdef size_t most = <size_t>-1, n
    if limit < 0 or limit > most:
        raise ValueError(f"set_output_pool_limit: limit is {limit}, expected 0 to {most} bytes")
    n = limit
    dmlc_the_pool.limit = n
    with nogil:
        dmlc_pool_trim(&dmlc_the_pool, n)


def get_output_pool_limit():
    """The most bytes of freed outputs dmlc keeps for its next outputs."""
    return dmlc_the_pool.limit


def release_output_pool():
    """Give every buffer the pool holds back to the system; returns the bytes released."""
    cdef size_t freed
    with nogil:
        freed = dmlc_pool_trim(&dmlc_the_pool, 0)
    return freed


def output_pool_info():
    """What the output pool holds: ``held_bytes`` and ``held_buffers`` now, its
    ``limit_bytes``, and how many large outputs it has ``reused`` and got ``fresh``."""
    return {"held_bytes": dmlc_the_pool.held, "held_buffers": dmlc_the_pool.count, "limit_bytes": dmlc_the_pool.limit,
            "reused": dmlc_the_pool.reused, "fresh": dmlc_the_pool.fresh}
