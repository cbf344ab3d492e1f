/* half.c - FLOAT16 (IEEE binary16) bits to and from float, in portable C.
 *
 * Data movement never converts FLOAT16 (it moves 2-byte patterns); the kernels that
 * compute on values (PADDING's FLOAT value, average pooling's portable path) use these.
 * Vector paths convert with the CPU's own instructions (x86's F16C), which round the same
 * way: to nearest even, overflow to infinity, NaN keeping its sign and top payload bits. */
#include "../dmlc_internal.h"

#include <string.h>

uint16_t dmlc_float_to_half(float f)
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
        return (uint16_t)(sign | (h == 0x7c00u ? h + 1 : h));
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

float dmlc_half_to_float(uint16_t h)
{
    /* Exact: every half is a float.  Example: 0x3c01 is 1 + 2^-10: exponent 15 - 15 = 0,
     * mantissa 1 << 13 in float's 23 bits. */
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, x;
    float f;
    if (exp == 0x1fu) {
        x = sign | 0x7f800000u | (man << 13); /* infinity, or NaN with its payload */
    } else if (exp != 0) {
        x = sign | ((exp + 112u) << 23) | (man << 13);
    } else if (man == 0) {
        x = sign; /* signed zero */
    } else {
        /* Subnormal: man * 2^-24.  Shift the leading one up to bit 10, counting the
         * exponent down from 2^-14. */
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
