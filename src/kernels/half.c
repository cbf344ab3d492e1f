/* half.c - the FLOAT16 conversions of half.h as functions, for the kernels that call them
 * out of line (PADDING's FLOAT value, average pooling's portable path). */
#include "../dmlc_internal.h"

float dmlc_half_to_float(uint16_t h)
{
    return dmlc_half_to_float_inline(h);
}

uint16_t dmlc_float_to_half(float f)
{
    return dmlc_float_to_half_inline(f);
}
