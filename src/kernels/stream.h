/* stream.h - copies and fills whose destination bypasses the cache (non-temporal stores).
 *
 * An ordinary store to memory that is not cached first reads the line in ("read for
 * ownership"), so a large copy moves 3 bytes per byte copied; a non-temporal store writes
 * whole lines straight to memory, 2 bytes per byte.  On the machines dmlc was measured on
 * this makes a copy far larger than the last-level cache about 1.4x faster, but it is a
 * loss for small copies (the data would have stayed cached) and where a line is written
 * in pieces far apart in time (a partly filled line is flushed piecemeal), so callers use
 * it only for large operators that write their destinations sequentially.  One loop
 * (dmlc_stream_units_), two policies:
 *   - dmlc_copy_stream (stream.c) streams every whole aligned 16-byte unit: for SPLIT/JOIN,
 *     whose streamed runs are whole units that together fill whole lines;
 *   - dmlc_copy_stream_lines / dmlc_fill_stream_lines (here) stream only whole 64-byte
 *     lines and write the partial lines at a run's ends with ordinary stores: for PADDING,
 *     whose interior runs share their first and last lines with border elements written
 *     by ordinary stores (streaming part of such a line made padding 5x slower, measured).
 *     They are inline because PADDING calls them once per row, rows of a few hundred
 *     bytes: a call and the unknown-length tail copy it forces cost 4% more instructions.
 * Each thread that streamed calls dmlc_stream_fence() before its work is done (the stores
 * are weakly ordered).  Where there are no such stores (DMLC_HAVE_STREAM is 0) these are
 * memcpy and a plain fill. */
#ifndef DMLC_STREAM_H
#define DMLC_STREAM_H

#include "../dmlc_internal.h"

#include <string.h>

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#  include <emmintrin.h>
#  define DMLC_HAVE_STREAM 1
#else
#  define DMLC_HAVE_STREAM 0
#endif

#define DMLC_LINE 64

/* n bytes of copies of the 64-byte pattern pat at d; d is aligned to the pattern's element
 * size, so starting the pattern again at d + 64k keeps it in phase. */
static inline void dmlc_fill_plain_(char* d, size_t n, const unsigned char* pat)
{
    for (; n >= DMLC_LINE; n -= DMLC_LINE, d += DMLC_LINE) memcpy(d, pat, DMLC_LINE);
    memcpy(d, pat, n);
}

/* The pattern: 64 bytes of copies of the elem_size-byte value (1, 2, 4 or 8).  A word of
 * copies first, by multiplication (each lane holds the value whatever the byte order):
 * copies of a run-time size would be a memcpy call each, and this runs once per row. */
static inline void dmlc_make_pattern_(unsigned char pat[DMLC_LINE], const void* value, size_t elem_size)
{
    uint64_t w;
    switch (elem_size) {
    case 1: {
        uint8_t v;
        memcpy(&v, value, 1);
        w = v * UINT64_C(0x0101010101010101);
        break;
    }
    case 2: {
        uint16_t v;
        memcpy(&v, value, 2);
        w = v * UINT64_C(0x0001000100010001);
        break;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, value, 4);
        w = v * UINT64_C(0x0000000100000001);
        break;
    }
    default: memcpy(&w, value, 8); break;
    }
    for (size_t i = 0; i < DMLC_LINE; i += 8) memcpy(pat + i, &w, 8);
}

#if DMLC_HAVE_STREAM

/* The one streaming loop: n bytes (a multiple of 16) to d (16-byte aligned) with
 * non-temporal stores.  With advance the source moves with d (a copy); without, every
 * 64 bytes of d get the same 64 bytes of s (a fill: the loads leave the loop). */
static inline void dmlc_stream_units_(char* d, const char* s, size_t n, int advance)
{
    const size_t lines = n & ~(size_t)63; /* n itself for the whole-lines callers: no tail loop */
    size_t i = 0;
    for (; i < lines; i += 64) {
        const char* p = advance ? s + i : s;
        __m128i a = _mm_loadu_si128((const __m128i*)p);
        __m128i b = _mm_loadu_si128((const __m128i*)(p + 16));
        __m128i c = _mm_loadu_si128((const __m128i*)(p + 32));
        __m128i e = _mm_loadu_si128((const __m128i*)(p + 48));
        _mm_stream_si128((__m128i*)(d + i), a);
        _mm_stream_si128((__m128i*)(d + i + 16), b);
        _mm_stream_si128((__m128i*)(d + i + 32), c);
        _mm_stream_si128((__m128i*)(d + i + 48), e);
    }
    for (; i < n; i += 16)
        _mm_stream_si128((__m128i*)(d + i), _mm_loadu_si128((const __m128i*)(advance ? s + i : s + (i & 63))));
}

/* Copies with ordinary stores up to the next `align` boundary of d (16 or 64), streams the
 * whole align-byte units after it, and copies the rest with ordinary stores. */
static inline void dmlc_copy_aligned_(char* d, const char* s, size_t n, size_t align)
{
    const size_t head = (size_t)(-(uintptr_t)d & (align - 1));
    size_t body, tail;
    if (n < head + align) {
        memcpy(d, s, n);
        return;
    }
    body = (n - head) & ~(align - 1);
    tail = (n - head) & (align - 1); /* known below align: the compiler inlines both copies */
    memcpy(d, s, head);
    dmlc_stream_units_(d + head, s + head, body, 1);
    memcpy(d + head + body, s + head + body, tail);
}

static inline void dmlc_copy_stream_lines(void* dst, const void* src, size_t n)
{
    dmlc_copy_aligned_((char*)dst, (const char*)src, n, DMLC_LINE);
}

/* n bytes of copies of the elem_size-byte value (1, 2, 4 or 8; dst aligned to it). */
static inline void dmlc_fill_stream_lines(void* dst, size_t n, const void* value, size_t elem_size)
{
    char* d = (char*)dst;
    const size_t head = (size_t)(-(uintptr_t)d & (DMLC_LINE - 1));
    unsigned char pat[DMLC_LINE];
    size_t body;
    dmlc_make_pattern_(pat, value, elem_size);
    if (n < head + DMLC_LINE) {
        dmlc_fill_plain_(d, n, pat);
        return;
    }
    body = (n - head) & ~(size_t)(DMLC_LINE - 1);
    memcpy(d, pat, head); /* d is element-aligned, so head is whole elements: in phase */
    dmlc_stream_units_(d + head, (const char*)pat, body, 0);
    memcpy(d + head + body, pat, (n - head) & (DMLC_LINE - 1));
}

#else

static inline void dmlc_copy_stream_lines(void* dst, const void* src, size_t n) { memcpy(dst, src, n); }
static inline void dmlc_fill_stream_lines(void* dst, size_t n, const void* value, size_t elem_size)
{
    unsigned char pat[DMLC_LINE];
    dmlc_make_pattern_(pat, value, elem_size);
    dmlc_fill_plain_((char*)dst, n, pat);
}

#endif

#endif /* DMLC_STREAM_H */
