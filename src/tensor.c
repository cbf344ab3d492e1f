/* tensor.c - DML_BUFFER_TENSOR_DESC: validation, DMLCalcBufferTensorSize, type facts. */
#include "dmlc_internal.h"

#include <stdio.h>
#include <string.h>

UINT dmlc_data_type_size(DML_TENSOR_DATA_TYPE type)
{
    switch ((int)type) {
#define DMLC_DTYPE(name, value, size, ctype) case value: return size;
#include "dtypes.def"
#undef DMLC_DTYPE
    default: return 0;
    }
}

const char* dmlc_data_type_name(DML_TENSOR_DATA_TYPE type, char buf[32])
{
    switch ((int)type) {
#define DMLC_DTYPE(name, value, size, ctype) case value: return #name;
#include "dtypes.def"
#undef DMLC_DTYPE
    case DML_TENSOR_DATA_TYPE_UNKNOWN: return "UNKNOWN";
    case DML_TENSOR_DATA_TYPE_UINT4: return "UINT4";
    case DML_TENSOR_DATA_TYPE_INT4: return "INT4";
    default: snprintf(buf, 32, "%d (not a DML_TENSOR_DATA_TYPE)", (int)type); return buf;
    }
}

/* DirectML's rule: with strides, the bytes up to and including the last addressed element;
 * without, the packed size.  Returns 0 on 64-bit overflow.  *extent gets the unrounded
 * byte count, *count the number of elements. */
static int calc_extent(UINT elem_size, UINT ndim, const UINT* sizes, const UINT* strides,
                       uint64_t* extent, uint64_t* count)
{
    uint64_t n = 1, last = 0;
    for (UINT i = 0; i < ndim; ++i) {
        uint64_t step;
        if (!dmlc_mul_u64(n, sizes[i], &n)) return 0;
        if (strides) {
            if (sizes[i] == 0) continue;
            if (!dmlc_mul_u64((uint64_t)sizes[i] - 1, strides[i], &step) || !dmlc_add_u64(last, step, &last)) return 0;
        }
    }
    *count = n;
    if (strides) {
        if (n == 0) { *extent = 0; return 1; }
        if (!dmlc_add_u64(last, 1, &last)) return 0;
        n = last;
    }
    return dmlc_mul_u64(n, elem_size, extent);
}

static uint64_t round_up4(uint64_t v) { return v > UINT64_MAX - 3 ? 0 : (v + 3) & ~(uint64_t)3; }

HRESULT dmlcCalcBufferTensorSize(DML_TENSOR_DATA_TYPE type, UINT dimensionCount, const UINT* sizes,
                                 const UINT* strides, UINT64* sizeInBytes)
{
    static const char who[] = "dmlcCalcBufferTensorSize";
    char name[32];
    uint64_t extent, count;
    UINT elem = dmlc_data_type_size(type);
    if (!sizeInBytes) return dmlc_fail(E_POINTER, who, "sizeInBytes is NULL");
    if (!elem) return dmlc_fail(E_INVALIDARG, who, "type %s is not supported", dmlc_data_type_name(type, name));
    if (dimensionCount > DMLC_MAX_DIMS)
        return dmlc_fail(E_INVALIDARG, who, "dimensionCount is %u, expected 0 to %d", dimensionCount, DMLC_MAX_DIMS);
    if (dimensionCount && !sizes) return dmlc_fail(E_POINTER, who, "sizes is NULL");
    if (!calc_extent(elem, dimensionCount, sizes, strides, &extent, &count) || (extent && !round_up4(extent)))
        return dmlc_fail(E_INVALIDARG, who, "the tensor's size in bytes overflows 64 bits");
    *sizeInBytes = round_up4(extent);
    dmlc_clear_error();
    return S_OK;
}

HRESULT dmlc_tensor_init(dmlc_tensor* t, const DML_TENSOR_DESC* desc, const char* who,
                         const char* field, UINT min_dims, UINT max_dims, dmlc_tensor_role role)
{
    const DML_BUFFER_TENSOR_DESC* b;
    char name[32];
    uint64_t required;
    memset(t, 0, sizeof *t);
    if (!desc) return dmlc_fail(E_POINTER, who, "%s is NULL", field);
    if (desc->Type != DML_TENSOR_TYPE_BUFFER)
        return dmlc_fail(E_INVALIDARG, who, "%s.Type is %d, expected DML_TENSOR_TYPE_BUFFER (1)", field, (int)desc->Type);
    b = (const DML_BUFFER_TENSOR_DESC*)desc->Desc;
    if (!b) return dmlc_fail(E_POINTER, who, "%s.Desc is NULL", field);
    t->elem_size = dmlc_data_type_size(b->DataType);
    if (!t->elem_size)
        return dmlc_fail(E_INVALIDARG, who, "%s.DataType %s is not supported (expected FLOAT64, FLOAT32, FLOAT16, "
                         "INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16 or UINT8)", field,
                         dmlc_data_type_name(b->DataType, name));
    if (b->DimensionCount < min_dims || b->DimensionCount > max_dims) {
        if (min_dims == max_dims)
            return dmlc_fail(E_INVALIDARG, who, "%s.DimensionCount is %u, expected %u", field, b->DimensionCount, min_dims);
        return dmlc_fail(E_INVALIDARG, who, "%s.DimensionCount is %u, expected %u to %u", field, b->DimensionCount,
                         min_dims, max_dims);
    }
    if (!b->Sizes) return dmlc_fail(E_POINTER, who, "%s.Sizes is NULL", field);
    t->present = 1;
    t->type = b->DataType;
    t->ndim = b->DimensionCount;
    for (UINT i = 0; i < t->ndim; ++i) {
        if (b->Sizes[i] == 0 && role != DMLC_INPUT_MAY_BE_EMPTY) return dmlc_fail(E_INVALIDARG, who, "%s.Sizes[%u] is 0; sizes must be at least 1", field, i);
        t->sizes[i] = b->Sizes[i];
    }
    if (b->Strides) {
        for (UINT i = 0; i < t->ndim; ++i) {
            if (role == DMLC_OUTPUT && b->Strides[i] == 0 && b->Sizes[i] > 1)
                return dmlc_fail(E_INVALIDARG, who, "%s.Strides[%u] is 0 with Sizes[%u] %u; an output element may not be "
                                 "written twice", field, i, i, b->Sizes[i]);
            t->strides[i] = b->Strides[i];
        }
    }
    /* Kernels address elements with signed 64-bit offsets: cap the extent there. */
    if (!calc_extent(t->elem_size, t->ndim, t->sizes, b->Strides, &t->extent, &t->count) || t->extent > INT64_MAX)
        return dmlc_fail(E_INVALIDARG, who, "%s: the tensor's size in bytes overflows 64 bits", field);
    if (!b->Strides) {
        uint64_t s = 1;
        for (UINT i = t->ndim; i-- > 0;) { t->strides[i] = s; s *= t->sizes[i]; }
    }
    required = round_up4(t->extent);
    if (b->TotalTensorSizeInBytes < required && role != DMLC_INPUT_MAY_BE_EMPTY)
        return dmlc_fail(E_INVALIDARG, who, "%s.TotalTensorSizeInBytes is %llu, expected at least %llu "
                         "(DMLCalcBufferTensorSize)", field, (unsigned long long)b->TotalTensorSizeInBytes,
                         (unsigned long long)required);
    t->total_bytes = b->TotalTensorSizeInBytes;
    return S_OK;
}

HRESULT dmlc_tensor_same_type(const dmlc_tensor* a, const char* a_field, const dmlc_tensor* b,
                              const char* b_field, const char* who)
{
    char n1[32], n2[32];
    if (a->type == b->type) return S_OK;
    return dmlc_fail(E_INVALIDARG, who, "%s.DataType is %s, expected %s (%s.DataType)", b_field,
                     dmlc_data_type_name(b->type, n1), dmlc_data_type_name(a->type, n2), a_field);
}

HRESULT dmlc_tensor_same_rank(const dmlc_tensor* a, const char* a_field, const dmlc_tensor* b,
                              const char* b_field, const char* who)
{
    if (a->ndim == b->ndim) return S_OK;
    return dmlc_fail(E_INVALIDARG, who, "%s.DimensionCount is %u, expected %u (%s.DimensionCount)", b_field, b->ndim,
                     a->ndim, a_field);
}

HRESULT dmlc_tensor_expect_size(const dmlc_tensor* t, const char* who, const char* field, UINT dim,
                                uint64_t expected, const char* why_fmt, ...)
{
    char why[256];
    va_list ap;
    if (t->sizes[dim] == expected) return S_OK;
    va_start(ap, why_fmt);
    vsnprintf(why, sizeof why, why_fmt, ap);
    va_end(ap);
    return dmlc_fail(E_INVALIDARG, who, "%s.Sizes[%u] is %u, expected %llu (%s)", field, dim, t->sizes[dim],
                     (unsigned long long)expected, why);
}

/* ---- Output sizes ---------------------------------------------------------------------- */
HRESULT dmlc_shapes_count(dmlc_shapes* sh, UINT slots)
{
    if (!dmlc_shapes_infer(sh) || sh->count == slots) return S_OK;
    return dmlc_fail(E_INVALIDARG, sh->who, "outputCount is %u, expected %u", sh->count, slots);
}

void dmlc_shape_rank(dmlc_shapes* sh, UINT slot, UINT ndim)
{
    if (dmlc_shapes_infer(sh)) sh->sizes[slot].DimensionCount = ndim;
}

HRESULT dmlc_shape_expect(dmlc_shapes* sh, UINT slot, const char* field, UINT dim, uint64_t expected,
                          const char* why_fmt, ...)
{
    char why[256];
    va_list ap;
    if (dmlc_shapes_infer(sh)) {
        if (expected <= UINT32_MAX) {
            sh->sizes[slot].Sizes[dim] = (UINT)expected;
            return S_OK;
        }
    } else {
        const dmlc_tensor* t = &sh->outputs[slot];
        if (!t->present || t->sizes[dim] == expected) return S_OK;
    }
    va_start(ap, why_fmt);
    vsnprintf(why, sizeof why, why_fmt, ap);
    va_end(ap);
    if (dmlc_shapes_infer(sh))
        return dmlc_fail(E_INVALIDARG, sh->who, "%s.Sizes[%u] would be %llu (%s), more than a tensor size can hold "
                         "(4294967295)", field, dim, (unsigned long long)expected, why);
    return dmlc_fail(E_INVALIDARG, sh->who, "%s.Sizes[%u] is %u, expected %llu (%s)", field, dim,
                     sh->outputs[slot].sizes[dim], (unsigned long long)expected, why);
}
