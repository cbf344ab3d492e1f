/* stream.c - copies and fills whose destination bypasses the cache (non-temporal stores).
 *
 * An ordinary store to memory that is not cached first reads the line in ("read for
 * ownership"), so a large copy moves 3 bytes per byte copied; a non-temporal store writes
 * whole lines straight to memory, 2 bytes per byte.  On the machines dmlc was measured on
 * this makes a copy far larger than the last-level cache about 1.4x faster, but it is a
 * loss for small copies (the data would have stayed cached) and where a line is written
 * in pieces far apart in time (a partly filled line is flushed piecemeal), so callers use
 * it only for large operators that write their destinations sequentially.  Two policies,
 * one loop (stream_units):
 *   - dmlc_copy_stream streams every whole 16-byte unit: for SPLIT/JOIN, whose streamed
 *     runs are whole aligned units that together fill whole lines;
 *   - dmlc_copy_stream_lines / dmlc_fill_stream_lines stream only whole 64-byte lines and
 *     write the partial lines at a run's ends with ordinary stores: for PADDING, whose
 *     interior runs share their first and last lines with border elements written by
 *     ordinary stores (streaming part of such a line made padding 5x slower, measured);
 *   - dmlc_stream_generated streams whole lines of values computed into a buffer that
 *     stays in L1: for CAST, whose output is converted, not copied.
 * Where there are no such stores (DMLC_HAVE_STREAM is 0) they are memcpy and a fill. */
#include "../dmlc_internal.h"

#include <string.h>

#define LINE 64

/* n bytes of 64-byte copies of pat at d; d is aligned to the pattern's element size, so
 * starting the pattern again at d + 64k keeps it in phase. */
static void fill_plain(char* d, size_t n, const unsigned char* pat)
{
    for (; n >= LINE; n -= LINE, d += LINE) memcpy(d, pat, LINE);
    memcpy(d, pat, n);
}

/* The pattern: 64 bytes of copies of the elem_size-byte value (1, 2, 4 or 8).  A word of
 * copies first, by multiplication (each lane holds the value whatever the byte order):
 * copies of a run-time size would be a memcpy call each, and this runs once per row. */
static void make_pattern(unsigned char pat[LINE], const void* value, size_t elem_size)
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
    for (size_t i = 0; i < LINE; i += 8) memcpy(pat + i, &w, 8);
}

#if DMLC_HAVE_STREAM
#  include <emmintrin.h>

/* The one streaming loop: n bytes (a multiple of 16) to d (16-byte aligned) with
 * non-temporal stores.  With advance the source moves with d (a copy); without, every
 * 64 bytes of d get the same 64 bytes of s (a fill: the loads leave the loop). */
static inline void stream_units(char* d, const char* s, size_t n, int advance)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
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
    for (; i + 16 <= n; i += 16)
        _mm_stream_si128((__m128i*)(d + i), _mm_loadu_si128((const __m128i*)(advance ? s + i : s + (i & 63))));
}

/* Copies n bytes with ordinary stores up to the next `align` boundary of d, streams the
 * whole align-byte units after it, and copies the rest with ordinary stores. */
static inline void copy_aligned(char* d, const char* s, size_t n, size_t align)
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
    stream_units(d + head, s + head, body, 1);
    memcpy(d + head + body, s + head + body, tail);
}

/* These are called once per run or row: their callers ask dmlc_cpu_has(DMLC_CPU_SSE2) once,
 * when they decide to stream (at creation, or once per execution), rather than these on
 * every call. */
void dmlc_copy_stream(void* dst, const void* src, size_t n)
{
    copy_aligned((char*)dst, (const char*)src, n, 16);
}

void dmlc_copy_stream_lines(void* dst, const void* src, size_t n)
{
    copy_aligned((char*)dst, (const char*)src, n, LINE);
}

void dmlc_fill_stream_lines(void* dst, size_t n, const void* value, size_t elem_size)
{
    char* d = (char*)dst;
    const size_t head = (size_t)(-(uintptr_t)d & (LINE - 1));
    unsigned char pat[LINE];
    size_t body;
    make_pattern(pat, value, elem_size);
    if (n < head + LINE) {
        fill_plain(d, n, pat);
        return;
    }
    body = (n - head) & ~(size_t)(LINE - 1);
    memcpy(d, pat, head); /* d is element-aligned, so head is whole elements: in phase */
    stream_units(d + head, (const char*)pat, body, 0);
    memcpy(d + head + body, pat, (n - head) & (LINE - 1));
}

void dmlc_stream_fence(void) { _mm_sfence(); }

#  define GEN_BUFFER 4096 /* bytes: computed, then streamed while they are still in L1 */

void dmlc_stream_generated(void* dst, uint64_t n, UINT elem_size, dmlc_gen_fn gen, const void* ctx, int stream)
{
    __m128i buf[GEN_BUFFER / 16];
    char* d = (char*)dst;
    const uint64_t per = GEN_BUFFER / elem_size;
    uint64_t i = (uint64_t)(-(uintptr_t)d & (LINE - 1)) / elem_size; /* the head: up to the first whole line */
    if (!stream || n < i + per) {
        gen(ctx, dst, 0, n);
        return;
    }
    gen(ctx, d, 0, i);
    for (; i + per <= n; i += per) {
        gen(ctx, buf, i, per);
        stream_units(d + i * elem_size, (const char*)buf, GEN_BUFFER, 1);
    }
    gen(ctx, d + i * elem_size, i, n - i);
    _mm_sfence();
}

#else

void dmlc_copy_stream(void* dst, const void* src, size_t n) { memcpy(dst, src, n); }
void dmlc_copy_stream_lines(void* dst, const void* src, size_t n) { memcpy(dst, src, n); }
void dmlc_fill_stream_lines(void* dst, size_t n, const void* value, size_t elem_size)
{
    unsigned char pat[LINE];
    make_pattern(pat, value, elem_size);
    fill_plain((char*)dst, n, pat);
}
void dmlc_stream_fence(void) {}
void dmlc_stream_generated(void* dst, uint64_t n, UINT elem_size, dmlc_gen_fn gen, const void* ctx, int stream)
{
    (void)elem_size;
    (void)stream;
    gen(ctx, dst, 0, n);
}

#endif
