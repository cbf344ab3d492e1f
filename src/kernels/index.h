/* index.h - reading one element of an index tensor (INT32, INT64, UINT32 or UINT64), shared
 * by the gathers and scatters (src/ops/gather.c) and ONE_HOT (src/ops/one_hot.c).
 *
 * The index type is a compile-time constant of each kernel instantiation (KIND), so the
 * kernels' loops switch on nothing: index_value inlines to one load and a compare or two. */
#ifndef DMLC_KERNELS_INDEX_H
#define DMLC_KERNELS_INDEX_H

#include "../dmlc_internal.h"

#include <string.h>

/* The index types, in the order the kernels' tables use. */
enum { IX_INT32 = 0, IX_INT64 = 1, IX_UINT32 = 2, IX_UINT64 = 3 };

static inline int index_kind(DML_TENSOR_DATA_TYPE t)
{
    switch (t) {
    case DML_TENSOR_DATA_TYPE_INT32: return IX_INT32;
    case DML_TENSOR_DATA_TYPE_INT64: return IX_INT64;
    case DML_TENSOR_DATA_TYPE_UINT32: return IX_UINT32;
    case DML_TENSOR_DATA_TYPE_UINT64: return IX_UINT64;
    default: return -1;
    }
}

#if defined(__GNUC__) || defined(__clang__)
#  define DMLC_INDEX_INLINE __attribute__((always_inline)) inline
#elif defined(_MSC_VER)
#  define DMLC_INDEX_INLINE __forceinline
#else
#  define DMLC_INDEX_INLINE inline
#endif

/* The index at p, of kind KIND, adjusted (a negative signed value + n).  A value still
 * outside [0, n) is clamped into [0, n - 1] when CLAMP (the gathers), and is n, which no
 * element has, otherwise (the scatters, which then write nothing; ONE_HOT, which then
 * writes no OnValue).  Example: n 5, INT32 -2 -> 3, INT32 -9 -> 0 (clamped) or 5, UINT32
 * 0xFFFFFFFF -> 4 (clamped) or 5. */
static DMLC_INDEX_INLINE uint64_t index_value(const char* p, const int KIND, uint64_t n, const int CLAMP)
{
    if (KIND == IX_INT32 || KIND == IX_INT64) {
        int64_t v;
        if (KIND == IX_INT32) {
            int32_t v32;
            memcpy(&v32, p, 4);
            v = v32;
        } else {
            memcpy(&v, p, 8);
        }
        if (v < 0) v += (int64_t)n; /* n < 2^32: no overflow */
        if (v < 0) return CLAMP ? 0 : n;
        return (uint64_t)v >= n ? (CLAMP ? n - 1 : n) : (uint64_t)v;
    } else {
        uint64_t v;
        if (KIND == IX_UINT32) {
            uint32_t v32;
            memcpy(&v32, p, 4);
            v = v32;
        } else {
            memcpy(&v, p, 8);
        }
        return v >= n ? (CLAMP ? n - 1 : n) : v;
    }
}

#endif /* DMLC_KERNELS_INDEX_H */
