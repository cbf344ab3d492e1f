/* tensor.c - DML_BUFFER_TENSOR_DESC: validation, DMLCalcBufferTensorSize, type facts. */
#include "dmlc_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

UINT dmlc_data_type_size(DML_TENSOR_DATA_TYPE type)
{
    switch ((int)type) {
#define DMLC_DTYPE(name, value, size, ctype, kind, lowest, compare) case value: return size;
#include "dtypes.def"
#undef DMLC_DTYPE
    default: return 0;
    }
}

const char* dmlc_data_type_name(DML_TENSOR_DATA_TYPE type, char buf[DMLC_TYPE_NAME_SIZE])
{
    switch ((int)type) {
#define DMLC_DTYPE(name, value, size, ctype, kind, lowest, compare) case value: return #name;
#include "dtypes.def"
#undef DMLC_DTYPE
    case DML_TENSOR_DATA_TYPE_UNKNOWN: return "UNKNOWN";
    case DML_TENSOR_DATA_TYPE_UINT4: return "UINT4";
    case DML_TENSOR_DATA_TYPE_INT4: return "INT4";
    default: snprintf(buf, DMLC_TYPE_NAME_SIZE, "%d (not a DML_TENSOR_DATA_TYPE)", (int)type); return buf;
    }
}

/* DirectML's rule (DMLCalcBufferTensorSize): without strides, the packed size; with
 * strides, the bytes up to and including the last addressed element,
 * (sum of (Sizes[i] - 1) * Strides[i], plus 1) * element size.  With strides only that last
 * index matters, not the element count: INT32 Sizes {2^31, 2^31, 7} Strides {2^30, 2^30, 0}
 * hold more than 2^64 elements, yet the last one is element 2^62 - 2^31, so the tensor spans
 * (2^62 - 2^31 + 1) * 4 bytes.  A tensor with an empty dimension addresses nothing.  Returns
 * 0 when the byte count overflows 64 bits. */
static int calc_extent(UINT elem_size, UINT ndim, const UINT* sizes, const UINT* strides, uint64_t* extent)
{
    uint64_t n = 1;
    for (UINT i = 0; i < ndim; ++i)
        if (sizes[i] == 0) { *extent = 0; return 1; }
    if (strides) {
        uint64_t last = 0, step;
        for (UINT i = 0; i < ndim; ++i)
            if (!dmlc_mul_u64((uint64_t)sizes[i] - 1, strides[i], &step) || !dmlc_add_u64(last, step, &last)) return 0;
        if (!dmlc_add_u64(last, 1, &n)) return 0;
    } else {
        for (UINT i = 0; i < ndim; ++i)
            if (!dmlc_mul_u64(n, sizes[i], &n)) return 0;
    }
    return dmlc_mul_u64(n, elem_size, extent);
}

static uint64_t round_up4(uint64_t v) { return v > UINT64_MAX - 3 ? 0 : (v + 3) & ~(uint64_t)3; }

HRESULT dmlcCalcBufferTensorSize(DML_TENSOR_DATA_TYPE type, UINT dimensionCount, const UINT* sizes,
                                 const UINT* strides, UINT64* sizeInBytes)
{
    static const char who[] = "dmlcCalcBufferTensorSize";
    char name[DMLC_TYPE_NAME_SIZE];
    uint64_t extent;
    UINT elem = dmlc_data_type_size(type);
    if (!sizeInBytes) return dmlc_fail(E_POINTER, who, "sizeInBytes is NULL");
    if (!elem) return dmlc_fail(E_INVALIDARG, who, "type %s is not supported", dmlc_data_type_name(type, name));
    if (dimensionCount > DMLC_MAX_DIMS)
        return dmlc_fail(E_INVALIDARG, who, "dimensionCount is %u, expected 0 to %d", dimensionCount, DMLC_MAX_DIMS);
    if (dimensionCount && !sizes) return dmlc_fail(E_POINTER, who, "sizes is NULL");
    if (!calc_extent(elem, dimensionCount, sizes, strides, &extent) || (extent && !round_up4(extent)))
        return dmlc_fail(E_INVALIDARG, who, "the tensor's size in bytes overflows 64 bits");
    *sizeInBytes = round_up4(extent);
    dmlc_clear_error();
    return S_OK;
}

/* Every element of an output must have memory of its own, or its value would depend on
 * which write lands last (on threads, on timing).  The rule is DirectML's "strides that do
 * not interleave", a sufficient one: taken by increasing stride, each dimension's stride
 * must reach past every element the smaller-strided dimensions span.  Worked example:
 * Sizes {3, 4} Strides {2, 1}: dimension 1 spans elements 0..3 (span 4), so dimension 0's
 * stride 2 lands inside it and element [1][0] is element [0][2].  (Zero strides are
 * refused before this runs; dimensions of size 1 are never stepped over.) */
static HRESULT check_distinct_elements(const dmlc_tensor* t, const char* who, const char* field)
{
    UINT order[DMLC_MAX_DIMS], n = 0;
    uint64_t span = 1; /* elements the dimensions so far address: their last offset + 1 */
    for (UINT i = 0; i < t->ndim; ++i) { /* insertion sort by stride; ties keep dimension order */
        UINT k;
        if (t->sizes[i] < 2) continue;
        for (k = n++; k > 0 && t->strides[order[k - 1]] > t->strides[i]; --k) order[k] = order[k - 1];
        order[k] = i;
    }
    for (UINT k = 0; k < n; ++k) {
        const UINT d = order[k];
        if (t->strides[d] < span) {
            char why[512];
            size_t used = 0;
            /* "1 + (Sizes[1] 4 - 1) * Strides[1] 1 + ...": the span, term by term. */
            used += (size_t)snprintf(why, sizeof why, "1");
            for (UINT j = 0; j < k && used < sizeof why; ++j)
                used += (size_t)snprintf(why + used, sizeof why - used, " + (Sizes[%u] %u - 1) * Strides[%u] %llu",
                                         order[j], t->sizes[order[j]], order[j],
                                         (unsigned long long)t->strides[order[j]]);
            if (k == 1)
                return dmlc_fail(E_INVALIDARG, who, "%s.Strides[%u] is %llu, less than %llu, the span of dimension %u "
                                 "(%s): dimensions %u and %u overlap, and an output element may not be written twice",
                                 field, d, (unsigned long long)t->strides[d], (unsigned long long)span, order[0], why,
                                 order[0] < d ? order[0] : d, order[0] < d ? d : order[0]);
            {
                char dims[64];
                size_t u = 0;
                for (UINT j = 0; j < k; ++j) /* "1, 2 and 3" */
                    u += (size_t)snprintf(dims + u, sizeof dims - u, "%s%u",
                                          j == 0 ? "" : (j + 1 == k ? " and " : ", "), order[j]);
                return dmlc_fail(E_INVALIDARG, who, "%s.Strides[%u] is %llu, less than %llu, the span of dimensions %s "
                                 "(%s): dimension %u overlaps them, and an output element may not be written twice",
                                 field, d, (unsigned long long)t->strides[d], (unsigned long long)span, dims, why, d);
            }
        }
        span += ((uint64_t)t->sizes[d] - 1) * t->strides[d]; /* within the extent checked before */
    }
    return S_OK;
}

HRESULT dmlc_tensor_init(dmlc_tensor* t, const DML_TENSOR_DESC* desc, const char* who,
                         const char* field, UINT min_dims, UINT max_dims, dmlc_tensor_role role)
{
    const DML_BUFFER_TENSOR_DESC* b;
    char name[DMLC_TYPE_NAME_SIZE];
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
    if (!calc_extent(t->elem_size, t->ndim, t->sizes, b->Strides, &t->extent) || t->extent > INT64_MAX)
        return dmlc_fail(E_INVALIDARG, who, "%s: the tensor's size in bytes overflows 64 bits", field);
    /* Kernels also measure their work as elements times element size.  Only strides that
     * revisit memory (zeros, on an input) make that overflow while the extent fits. */
    t->count = 1;
    for (UINT i = 0; i < t->ndim; ++i)
        if (!dmlc_mul_u64(t->count, t->sizes[i], &t->count) || t->count > UINT64_MAX / t->elem_size)
            return dmlc_fail(E_INVALIDARG, who, "%s: the tensor's elements times their size (%u bytes) overflow 64 "
                             "bits, although its Strides address fewer bytes", field, t->elem_size);
    if (!b->Strides) {
        uint64_t s = 1;
        for (UINT i = t->ndim; i-- > 0;) { t->strides[i] = s; s *= t->sizes[i]; }
    } else if (role == DMLC_OUTPUT) {
        HRESULT hr = check_distinct_elements(t, who, field);
        if (FAILED(hr)) return hr;
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
    char n1[DMLC_TYPE_NAME_SIZE], n2[DMLC_TYPE_NAME_SIZE];
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

HRESULT dmlc_check_axis_direction(const char* who, const char* field, DML_AXIS_DIRECTION value)
{
    if ((unsigned)value <= DML_AXIS_DIRECTION_DECREASING) return S_OK;
    return dmlc_fail(E_INVALIDARG, who, "%s is %d, expected 0 (DML_AXIS_DIRECTION_INCREASING) or 1 "
                     "(DML_AXIS_DIRECTION_DECREASING)", field, (int)value);
}

HRESULT dmlc_tensor_init_in_out(dmlc_tensor* in, const DML_TENSOR_DESC* in_desc, dmlc_tensor* out,
                                const DML_TENSOR_DESC* out_desc, const char* who, UINT min_dims, UINT max_dims)
{
    HRESULT hr;
    if (FAILED(hr = dmlc_tensor_init(in, in_desc, who, "InputTensor", min_dims, max_dims, DMLC_INPUT)) ||
        FAILED(hr = dmlc_tensor_init(out, out_desc, who, "OutputTensor", min_dims, max_dims, DMLC_OUTPUT)) ||
        FAILED(hr = dmlc_tensor_same_type(in, "InputTensor", out, "OutputTensor", who)))
        return hr;
    return dmlc_tensor_same_rank(in, "InputTensor", out, "OutputTensor", who);
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

HRESULT dmlc_check_index_type(const dmlc_tensor* t, const char* who, const char* field, uint64_t largest,
                              const char* what_fmt, ...)
{
    char what[256], name[DMLC_TYPE_NAME_SIZE];
    uint64_t limit;
    va_list ap;
    switch (t->type) {
    case DML_TENSOR_DATA_TYPE_INT32: limit = INT32_MAX; break;
    case DML_TENSOR_DATA_TYPE_UINT32: limit = UINT32_MAX; break;
    case DML_TENSOR_DATA_TYPE_INT64: limit = INT64_MAX; break;
    case DML_TENSOR_DATA_TYPE_UINT64: limit = UINT64_MAX; break;
    default:
        return dmlc_fail(E_INVALIDARG, who, "%s.DataType is %s, expected INT32, INT64, UINT32 or UINT64", field,
                         dmlc_data_type_name(t->type, name));
    }
    if (largest <= limit) return S_OK;
    va_start(ap, what_fmt);
    vsnprintf(what, sizeof what, what_fmt, ap);
    va_end(ap);
    return dmlc_fail(E_INVALIDARG, who, "%s.DataType is %s, which cannot hold %s", field,
                     dmlc_data_type_name(t->type, name), what);
}

/* ---- Output sizes ---------------------------------------------------------------------- */
HRESULT dmlc_shapes_count(dmlc_shapes* sh, UINT slots)
{
    if (!dmlc_shapes_infer(sh) || sh->count == slots) return S_OK;
    return dmlc_fail(E_INVALIDARG, sh->who, "outputCount is %u, expected %u", sh->count, slots);
}

HRESULT dmlc_shapes_unary_input(dmlc_shapes* sh, dmlc_tensor* in, const DML_TENSOR_DESC* desc, const char* who,
                                UINT min_dims, UINT max_dims)
{
    HRESULT hr;
    if (FAILED(hr = dmlc_shapes_count(sh, 1))) return hr;
    return dmlc_tensor_init(in, desc, who, "InputTensor", min_dims, max_dims, dmlc_shapes_input_role(sh));
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
