/* operator.c - the operator table, and creating, executing and releasing an operator.
 * The other parts of the library's entry points live beside it: the error channel
 * (error.c), the per-thread cache behind dmlcExecuteOperator and dmlcInferOutputSizes
 * (cache.c) and the thread count (thread_count.c). */
#include "dmlc_internal.h"

#include <stdlib.h>
#include <string.h>

UINT dmlcGetVersion(void) { return DMLC_VERSION; }

/* ---- The operator table --------------------------------------------------------------- */
static const char* const g_type_names[] = {
#include "op_names.inc"
};

const char* dmlc_operator_type_name(DML_OPERATOR_TYPE type)
{
    if ((unsigned)type >= sizeof g_type_names / sizeof g_type_names[0]) return NULL;
    return g_type_names[type];
}

static dmlc_family find_family(DML_OPERATOR_TYPE type)
{
    dmlc_family f = {NULL, NULL};
    switch ((int)type) {
#define DMLC_SCHEMA(NAME, family, flags, types, fields) \
    case DML_OPERATOR_##NAME:                           \
        f.create = dmlc_create_##family;                \
        f.infer = dmlc_infer_##family;                  \
        break;
#include "schema.def"
#undef DMLC_SCHEMA
    default: break;
    }
    return f;
}

HRESULT dmlc_lookup(const char* who, const DML_OPERATOR_DESC* desc, const char** name, dmlc_family* family)
{
    if (!desc) return dmlc_fail(E_POINTER, who, "desc is NULL");
    *name = dmlc_operator_type_name(desc->Type);
    if (!*name || desc->Type == DML_OPERATOR_INVALID)
        return dmlc_fail(E_INVALIDARG, who, "desc->Type is %d, which is not a DML_OPERATOR_TYPE", (int)desc->Type);
    *family = find_family(desc->Type);
    if (!family->create)
        return dmlc_fail(E_NOTIMPL, *name, "%s (%d) is not implemented by dmlc", *name, (int)desc->Type);
    if (!desc->Desc) return dmlc_fail(E_POINTER, *name, "desc->Desc is NULL");
    return S_OK;
}


DMLC_OPERATOR_T* dmlc_operator_alloc(DML_OPERATOR_TYPE type, const char* name, UINT input_count,
                                     UINT output_count, size_t state_size)
{
    /* Layout: operator | tensors | state, each part aligned for 8-byte fields. */
    size_t head = (sizeof(DMLC_OPERATOR_T) + 15) & ~(size_t)15;
    uint64_t slots = (uint64_t)input_count + output_count; /* two UINTs cannot wrap 64 bits */
    size_t tensors, total;
    DMLC_OPERATOR_T* op;
    if (slots > (SIZE_MAX - head) / sizeof(dmlc_tensor)) {
        dmlc_fail(E_OUTOFMEMORY, name, "the operator's description is too large to hold");
        return NULL;
    }
    tensors = (size_t)slots * sizeof(dmlc_tensor);
    if (state_size > SIZE_MAX - head - tensors) {
        dmlc_fail(E_OUTOFMEMORY, name, "the operator's description is too large to hold");
        return NULL;
    }
    total = head + tensors + state_size;
    op = (DMLC_OPERATOR_T*)calloc(1, total);
    if (!op) {
        dmlc_fail(E_OUTOFMEMORY, name, "out of memory allocating %zu bytes for the operator", total);
        return NULL;
    }
    op->type = type;
    op->name = name;
    op->input_count = input_count;
    op->output_count = output_count;
    op->inputs = (dmlc_tensor*)((char*)op + head);
    op->outputs = op->inputs + input_count;
    op->state = (char*)op + head + tensors;
    return op;
}

DMLC_OPERATOR_T* dmlc_operator_alloc_unary(DML_OPERATOR_TYPE type, const char* name, const dmlc_tensor* in,
                                           const dmlc_tensor* out, dmlc_execute_fn execute, size_t state_size)
{
    DMLC_OPERATOR_T* op = dmlc_operator_alloc(type, name, 1, 1, state_size);
    if (!op) return NULL;
    op->inputs[0] = *in;
    op->outputs[0] = *out;
    op->execute = execute;
    return op;
}

HRESULT dmlcCreateOperator(const DML_OPERATOR_DESC* desc, DMLC_OPERATOR** op)
{
    const char* name = NULL;
    dmlc_family family = {NULL, NULL};
    HRESULT hr;
    if (!op) return dmlc_fail(E_POINTER, "dmlcCreateOperator", "op is NULL");
    *op = NULL;
    if (!desc) return dmlc_fail(E_POINTER, "dmlcCreateOperator", "desc is NULL");
    if (FAILED(hr = dmlc_cpu_check("dmlcCreateOperator"))) return hr; /* kernels are chosen below, by the CPU's features */
    if (FAILED(hr = dmlc_lookup("dmlcCreateOperator", desc, &name, &family)) ||
        FAILED(hr = dmlc_schema_check(desc->Type, name, desc->Desc, 0)))
        return hr;
    hr = family.create(desc->Type, name, desc->Desc, op);
    if (FAILED(hr)) {
        free(*op);
        *op = NULL;
        return hr;
    }
    dmlc_clear_error();
    return S_OK;
}

void dmlcReleaseOperator(DMLC_OPERATOR* op) { free(op); }

/* Checks one binding against its tensor slot and returns the bound address in *ptr. */
static HRESULT check_binding(const DMLC_OPERATOR_T* op, const dmlc_tensor* t, const DMLC_BUFFER_BINDING* b,
                             const char* kind, UINT i, void** ptr)
{
    uintptr_t base;
    *ptr = NULL;
    if (!t->present) {
        if (b->Buffer)
            return dmlc_fail(E_INVALIDARG, op->name, "%s[%u] is bound, but its optional tensor is absent from the desc",
                             kind, i);
        return S_OK;
    }
    if (!b->Buffer) return dmlc_fail(E_POINTER, op->name, "%s[%u].Buffer is NULL", kind, i);
    base = (uintptr_t)b->Buffer;
    if (b->Offset > UINTPTR_MAX - base || b->SizeInBytes > UINTPTR_MAX - base - b->Offset)
        return dmlc_fail(E_INVALIDARG, op->name, "%s[%u]: Offset %llu + SizeInBytes %llu run past the end of the address "
                         "space", kind, i, (unsigned long long)b->Offset, (unsigned long long)b->SizeInBytes);
    if (b->SizeInBytes < t->total_bytes)
        return dmlc_fail(E_INVALIDARG, op->name, "%s[%u].SizeInBytes is %llu, smaller than the tensor's "
                         "TotalTensorSizeInBytes %llu", kind, i, (unsigned long long)b->SizeInBytes,
                         (unsigned long long)t->total_bytes);
    base += (uintptr_t)b->Offset;
    if (base % t->elem_size)
        return dmlc_fail(E_INVALIDARG, op->name, "%s[%u]: Buffer + Offset is not aligned to the element size %u",
                         kind, i, t->elem_size);
    *ptr = (void*)base;
    return S_OK;
}

static int ranges_overlap(const void* a, uint64_t na, const void* b, uint64_t nb)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    if (!a || !b || !na || !nb) return 0;
    return x < y + nb && y < x + na;
}

HRESULT dmlcExecute(DMLC_OPERATOR* op, UINT inputCount, const DMLC_BUFFER_BINDING* inputs, UINT outputCount,
                    const DMLC_BUFFER_BINDING* outputs)
{
    static const char who[] = "dmlcExecute";
    /* Bound addresses live on the stack for the common counts; SPLIT/JOIN may have more.
     * The count is 64-bit and outputs are addressed from their own base, so no sum of two
     * UINTs can wrap (2^32 - 1 outputs and one input is 2^32 slots, not 0). */
    void* local[2 * 16];
    void** ptrs = local;
    void** out_ptrs;
    HRESULT hr = S_OK;
    uint64_t n;
    if (!op) return dmlc_fail(E_POINTER, who, "op is NULL");
    if (inputCount != op->input_count)
        return dmlc_fail(E_INVALIDARG, op->name, "inputCount is %u, expected %u", inputCount, op->input_count);
    if (outputCount != op->output_count)
        return dmlc_fail(E_INVALIDARG, op->name, "outputCount is %u, expected %u", outputCount, op->output_count);
    if (inputCount && !inputs) return dmlc_fail(E_POINTER, op->name, "inputs is NULL");
    if (outputCount && !outputs) return dmlc_fail(E_POINTER, op->name, "outputs is NULL");
    n = (uint64_t)inputCount + outputCount;
    if (n > sizeof local / sizeof local[0]) {
        ptrs = n > SIZE_MAX / sizeof *ptrs ? NULL : (void**)malloc((size_t)n * sizeof *ptrs);
        if (!ptrs)
            return dmlc_fail(E_OUTOFMEMORY, op->name, "out of memory binding %llu tensors", (unsigned long long)n);
    }
    out_ptrs = ptrs + inputCount;
    for (UINT i = 0; i < inputCount && SUCCEEDED(hr); ++i)
        hr = check_binding(op, &op->inputs[i], &inputs[i], "inputs", i, &ptrs[i]);
    for (UINT i = 0; i < outputCount && SUCCEEDED(hr); ++i)
        hr = check_binding(op, &op->outputs[i], &outputs[i], "outputs", i, &out_ptrs[i]);
    /* An output may share no byte with an input or another output: the kernels read inputs
     * while writing outputs, and a failed check must leave every output untouched.  The
     * one exception is an element-wise operator bound in place (op->in_place): output 0 at
     * exactly input 0's address, where creation checked that the layouts coincide. */
    for (UINT i = 0; i < outputCount && SUCCEEDED(hr); ++i) {
        const void* o = out_ptrs[i];
        uint64_t on = op->outputs[i].extent;
        for (UINT j = 0; j < inputCount && SUCCEEDED(hr); ++j) {
            if (!ranges_overlap(o, on, ptrs[j], op->inputs[j].extent)) continue;
            if (i == 0 && j == 0 && op->in_place == DMLC_IN_PLACE_SAME_LAYOUT && o == ptrs[0]) continue;
            if (i == 0 && j == 0 && op->in_place == DMLC_IN_PLACE_SAME_LAYOUT)
                hr = dmlc_fail(E_INVALIDARG, op->name, "outputs[0] overlaps inputs[0] without aliasing it exactly; "
                               "in place, both must be bound at the same address");
            else if (i == 0 && j == 0 && op->in_place == DMLC_IN_PLACE_LAYOUTS_DIFFER)
                hr = dmlc_fail(E_INVALIDARG, op->name, "outputs[0] overlaps inputs[0], but the tensors' strides differ; "
                               "in place, InputTensor and OutputTensor need the same layout");
            else
                hr = dmlc_fail(E_INVALIDARG, op->name, "outputs[%u] overlaps inputs[%u]; outputs may not alias inputs", i, j);
        }
        for (UINT j = 0; j < i && SUCCEEDED(hr); ++j)
            if (ranges_overlap(o, on, out_ptrs[j], op->outputs[j].extent))
                hr = dmlc_fail(E_INVALIDARG, op->name, "outputs[%u] overlaps outputs[%u]", i, j);
    }
    if (SUCCEEDED(hr) && op->check) hr = op->check(op, (const void* const*)ptrs);
    if (SUCCEEDED(hr)) {
        op->execute(op, (const void* const*)ptrs, out_ptrs);
        dmlc_clear_error();
    }
    if (ptrs != local) free(ptrs);
    return hr;
}

