/* stream.c - the out-of-line streaming copy and the fence; the loop and the policies are
 * described in stream.h. */
#include "stream.h"

void dmlc_copy_stream(void* dst, const void* src, size_t n)
{
#if DMLC_HAVE_STREAM
    if (!dmlc_cpu_has(DMLC_CPU_SSE2)) { /* DMLC_CPU_FEATURES=generic: the portable path */
        memcpy(dst, src, n);
        return;
    }
    dmlc_copy_aligned_((char*)dst, (const char*)src, n, 16);
#else
    memcpy(dst, src, n);
#endif
}

void dmlc_stream_fence(void)
{
#if DMLC_HAVE_STREAM
    _mm_sfence();
#endif
}
