/* order.h - the total order of ARGMIN/ARGMAX, TOP_K and ROI_POOLING's maximum
 * (docs/operators/argmax.rst, docs/operators/top_k1.rst) as integer keys: the one home of
 * that order.
 *
 * Numbers compare by value (-0.0 equals +0.0), every NaN (any sign, any payload) is above
 * +inf and equal to every other NaN.  key(x) is a signed integer that orders exactly so: a
 * float's bits made two's complement (the magnitude, negated for a set sign bit, so -0.0
 * and +0.0 both give 0), every NaN one key above +inf's.  The sign is applied as (m ^ s) - s
 * (s: 0, or -1 for a set sign bit), without a branch: random signs then cost no mispredicted
 * jumps in loops that compare every element.  Example (FLOAT16): -1.0 is 0xbc00, key
 * -0x3c00; +inf 0x7c00, key 0x7c00; any NaN, key 0x7c01. */
#ifndef DMLC_ORDER_H
#define DMLC_ORDER_H

#include <stdint.h>
#include <string.h>

static inline int64_t dmlc_key_f32(float v)
{
    int32_t b, m, s;
    memcpy(&b, &v, 4);
    m = b & 0x7fffffff;
    s = -(int32_t)((uint32_t)b >> 31);
    return m > 0x7f800000 ? 0x7f800001 : (m ^ s) - s;
}
static inline int64_t dmlc_key_f64(double v)
{
    int64_t b, m, s;
    memcpy(&b, &v, 8);
    m = b & INT64_MAX;
    s = -(int64_t)((uint64_t)b >> 63);
    return m > 0x7ff0000000000000 ? 0x7ff0000000000001 : (m ^ s) - s;
}
static inline int64_t dmlc_key_f16(uint16_t h)
{
    const int32_t m = h & 0x7fff, s = -(int32_t)(h >> 15);
    return m > 0x7c00 ? 0x7c01 : (m ^ s) - s;
}
/* UINT64 keys: the top bit flipped, so that signed comparison orders them. */
static inline int64_t dmlc_key_u64(uint64_t v) { return (int64_t)(v ^ ((uint64_t)1 << 63)); }

#endif /* DMLC_ORDER_H */
