/* stream.c - copies whose destination bypasses the cache (non-temporal stores).
 *
 * An ordinary store to memory that is not cached first reads the line in ("read for
 * ownership"), so a large copy moves 3 bytes per byte copied; a non-temporal store writes
 * whole lines straight to memory, 2 bytes per byte.  On the machines dmlc was measured on
 * this makes a copy far larger than the last-level cache about 1.4x faster, but it is a
 * loss for small copies (the data would have stayed cached) and where a line is written
 * in pieces far apart in time (a partly filled line is flushed piecemeal), so callers use
 * it only for large operators (DMLC_STREAM_MIN_BYTES) that write their destinations
 * sequentially, in runs of whole 16-byte units (DMLC_STREAM_MIN_RUN or more).
 * Where there are no such stores (non-x86 targets), or DMLC_CPU_FEATURES=generic asks for
 * the portable kernels only, it is memcpy. */
#include "../dmlc_internal.h"

#include <string.h>

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#  include <emmintrin.h>
#  define DMLC_HAVE_STREAM 1
#endif

void dmlc_copy_stream(void* dst, const void* src, size_t n)
{
#ifdef DMLC_HAVE_STREAM
    char* d = (char*)dst;
    const char* s = (const char*)src;
    size_t head = (16 - ((uintptr_t)d & 15)) & 15, i;
    if (n < head + 16 || !dmlc_cpu_has(DMLC_CPU_SSE2)) {
        memcpy(d, s, n);
        return;
    }
    memcpy(d, s, head);
    for (i = head; i + 64 <= n; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i*)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i*)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i*)(s + i + 32));
        __m128i e = _mm_loadu_si128((const __m128i*)(s + i + 48));
        _mm_stream_si128((__m128i*)(d + i), a);
        _mm_stream_si128((__m128i*)(d + i + 16), b);
        _mm_stream_si128((__m128i*)(d + i + 32), c);
        _mm_stream_si128((__m128i*)(d + i + 48), e);
    }
    for (; i + 16 <= n; i += 16) _mm_stream_si128((__m128i*)(d + i), _mm_loadu_si128((const __m128i*)(s + i)));
    memcpy(d + i, s + i, n - i);
#else
    memcpy(dst, src, n);
#endif
}

void dmlc_stream_fence(void)
{
#ifdef DMLC_HAVE_STREAM
    _mm_sfence();
#endif
}
