/* half.h - FLOAT16 (IEEE binary16) bits to and from float, in portable C: the one home of
 * the conversions, inline for the loops that convert every element (DML_SCALE_BIAS on
 * FLOAT16); src/kernels/half.c makes them functions for the kernels that call them out of
 * line (PADDING's FLOAT value, average pooling's portable path).
 *
 * Data movement never converts FLOAT16 (it moves 2-byte patterns).  Vector paths convert
 * with the CPU's own instructions (x86's F16C), which round the same way: to nearest even,
 * overflow to infinity, NaN keeping its sign and top payload bits (as NumPy's cast). */
#ifndef DMLC_HALF_H
#define DMLC_HALF_H

#include <stdint.h>
#include <string.h>

/* FLOAT16 bits -> float, exactly (every half is a float); NaN keeps its sign and payload. */
static inline float dmlc_half_to_float_inline(uint16_t h)
{
    /* Example: 0x3c01 is 1 + 2^-10: exponent 15 - 15 = 0, mantissa 1 << 13 in float's 23 bits. */
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, x;
    float f;
    if (exp == 0x1fu) {
        x = sign | 0x7f800000u | (man << 13); /* infinity, or NaN with its payload */
    } else if (exp != 0) {
        x = sign | ((exp + 112u) << 23) | (man << 13); /* rebias 15 -> 127 */
    } else if (man == 0) {
        x = sign; /* signed zero */
    } else {
        /* A subnormal half is man * 2^-24: shift man up to its leading bit (bit 10) k
         * times, and the value is 1.f * 2^(-14-k), a float exponent field of 113 - k. */
        exp = 113u;
        while (!(man & 0x400u)) {
            man <<= 1;
            --exp;
        }
        x = sign | (exp << 23) | ((man & 0x3ffu) << 13);
    }
    memcpy(&f, &x, sizeof f);
    return f;
}

/* float -> FLOAT16 bits, rounding to nearest even; overflow gives infinity, NaN keeps its
 * sign and top payload bits. */
static inline uint16_t dmlc_float_to_half_inline(float f)
{
    uint32_t x, man, exp, h, rem, halfway;
    uint16_t sign;
    int e;
    memcpy(&x, &f, sizeof x);
    sign = (uint16_t)((x >> 16) & 0x8000u);
    exp = (x >> 23) & 0xffu;
    man = x & 0x7fffffu;
    if (exp == 0xffu) {
        if (!man) return (uint16_t)(sign | 0x7c00u);
        h = 0x7c00u + (man >> 13);
        return (uint16_t)(sign | (h == 0x7c00u ? h + 1 : h)); /* a NaN stays a NaN */
    }
    e = (int)exp - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        /* A half subnormal counts units of 2^-24: the value 1.man * 2^(exp-127) is
         * (man | 2^23) >> (14 - e) units, rounded. */
        unsigned shift = (unsigned)(14 - e);
        if (e < -10) return sign; /* below 2^-25: rounds to zero */
        man |= 0x800000u;
        h = man >> shift;
        rem = man & ((1u << shift) - 1);
        halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
        return (uint16_t)(sign | h);
    }
    h = ((uint32_t)e << 10) | (man >> 13);
    rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h; /* a carry into the exponent is right: up to inf */
    return (uint16_t)(sign | h);
}

/* double -> FLOAT16 bits in one rounding (to nearest even), as dmlc_float_to_half_inline
 * does for float (CAST, FILL_VALUE_SEQUENCE): via float would round twice (0x3ff0_0400_0000_0001 sits just above the
 * halfway point between two halves, and float's rounding would put it exactly on it). */
static inline uint16_t dmlc_double_to_half_inline(double d)
{
    uint64_t x, man, h, rem, halfway;
    uint16_t sign;
    int e;
    memcpy(&x, &d, sizeof x);
    sign = (uint16_t)((x >> 48) & 0x8000u);
    man = x & (((uint64_t)1 << 52) - 1);
    e = (int)((x >> 52) & 0x7ffu);
    if (e == 0x7ff) {
        if (!man) return (uint16_t)(sign | 0x7c00u);
        h = 0x7c00u + (man >> 42);
        return (uint16_t)(sign | (h == 0x7c00u ? h + 1 : h)); /* a NaN stays a NaN */
    }
    e = e - 1023 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        /* A subnormal half counts units of 2^-24: 1.man * 2^(e-15) is (man | 2^52) >> (43 - e). */
        unsigned shift = (unsigned)(43 - e);
        if (e < -10) return sign; /* below 2^-25: rounds to zero */
        man |= (uint64_t)1 << 52;
        h = man >> shift;
        rem = man & (((uint64_t)1 << shift) - 1);
        halfway = (uint64_t)1 << (shift - 1);
        if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
        return (uint16_t)(sign | h);
    }
    h = ((uint64_t)e << 10) | (man >> 42);
    rem = man & (((uint64_t)1 << 42) - 1);
    if (rem > ((uint64_t)1 << 41) || (rem == ((uint64_t)1 << 41) && (h & 1u))) ++h; /* a carry to inf is right */
    return (uint16_t)(sign | h);
}

#endif /* DMLC_HALF_H */
