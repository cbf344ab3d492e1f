/* schema.c - what every operator's desc gets from src/schema.def: the proof, at compile time,
 * that the schema and the header's structs agree, and the check of pointers, counts and
 * tensor data types that runs before a family reads a desc. */
#include "dmlc_internal.h"

#include <stdio.h>

/* ---- The schema is the header, field by field ------------------------------------------
 * From each entry the compiler lays out a shadow struct, dmlc_shadow_<NAME>, with the
 * schema's fields in the schema's order and the C types its field types stand for; then,
 * for every field, the header's struct must have it at the same offset, with the same size
 * and (C11) exactly that type, and the two structs must have the same size.  So an entry
 * that leaves out, reorders or mistypes a field does not compile. */
#define DMLC_SCHEMA_CTYPE_TENSOR(c) const c*
#define DMLC_SCHEMA_CTYPE_TENSOR_ARRAY(c) const c*
#define DMLC_SCHEMA_CTYPE_UINT(c) c
#define DMLC_SCHEMA_CTYPE_UINT64(c) c
#define DMLC_SCHEMA_CTYPE_INT(c) c
#define DMLC_SCHEMA_CTYPE_FLOAT(c) c
#define DMLC_SCHEMA_CTYPE_BOOL(c) c
#define DMLC_SCHEMA_CTYPE_ENUM(c) c
#define DMLC_SCHEMA_CTYPE_UINT_ARRAY(c) const c*
#define DMLC_SCHEMA_CTYPE_INT_ARRAY(c) const c*
#define DMLC_SCHEMA_CTYPE_FLOAT_ARRAY(c) const c*
#define DMLC_SCHEMA_CTYPE_SCALE_BIAS(c) const c*
#define DMLC_SCHEMA_CTYPE_SIZE_2D(c) c
#define DMLC_SCHEMA_CTYPE_SCALAR_UNION(c) c

#define DMLC_FIELD(kind, type, ctype, field, flags, count) DMLC_SCHEMA_CTYPE_##type(ctype) field;
#define DMLC_SCHEMA(NAME, family, flags, types, fields) typedef struct dmlc_shadow_##NAME { fields } dmlc_shadow_##NAME;
#include "schema.def"
#undef DMLC_SCHEMA
#undef DMLC_FIELD

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#  define DMLC_SCHEMA_ASSERT(cond, text) _Static_assert(cond, text);
#  define DMLC_SCHEMA_SAME_TYPE(type, ctype, field) \
      _Generic(&((D*)0)->field, DMLC_SCHEMA_CTYPE_##type(ctype)*: 1, default: 0)
#else /* C99: a negative array size; the types are compared by size alone */
#  define DMLC_SCHEMA_ASSERT(cond, text) { typedef char dmlc_schema_assert[(cond) ? 1 : -1]; (void)sizeof(dmlc_schema_assert); }
#  define DMLC_SCHEMA_SAME_TYPE(type, ctype, field) 1
#endif

#define DMLC_FIELD(kind, type, ctype, field, flags, count)                                                 \
    DMLC_SCHEMA_ASSERT(offsetof(D, field) == offsetof(S, field) && sizeof(((D*)0)->field) == sizeof(((S*)0)->field) \
                       && DMLC_SCHEMA_SAME_TYPE(type, ctype, field),                                        \
                       "src/schema.def: a field's offset, size or type differs from include/directml_py.h: " #field)
#if defined(__GNUC__) || defined(__clang__)
#  define DMLC_SCHEMA_UNUSED __attribute__((unused)) /* never called: the compiler checks it, that is all */
#else
#  define DMLC_SCHEMA_UNUSED
#endif
#define DMLC_SCHEMA(NAME, family, flags, types, fields)                                                    \
    DMLC_SCHEMA_UNUSED static void dmlc_schema_assert_##NAME(void)                                         \
    {                                                                                                      \
        typedef DML_##NAME##_OPERATOR_DESC D;                                                              \
        typedef dmlc_shadow_##NAME S;                                                                      \
        fields                                                                                             \
        DMLC_SCHEMA_ASSERT(sizeof(D) == sizeof(S),                                                         \
                           "src/schema.def: DML_" #NAME "_OPERATOR_DESC has fields the schema lacks")      \
    }
#include "schema.def"
#undef DMLC_SCHEMA
#undef DMLC_FIELD

/* ---- Pointers and counts ----------------------------------------------------------------- */
static int is_array(unsigned type)
{
    return type == DMLC_FT_TENSOR_ARRAY || type == DMLC_FT_UINT_ARRAY || type == DMLC_FT_INT_ARRAY ||
           type == DMLC_FT_FLOAT_ARRAY;
}

/* ---- Data types ---------------------------------------------------------------------------
 * A tensor's DataType against the types its field accepts (the entry's data types, or the
 * index types for a DMLC_FIELD_INDICES tensor), listed in this order in the message:
 * "InputTensor.DataType is INT32, expected FLOAT64, FLOAT32 or FLOAT16".  A tensor desc
 * that is not a readable buffer desc, or a DataType that is none of the eleven, is left to
 * the family's dmlc_tensor_init, which names what is wrong with it. */
static const DML_TENSOR_DATA_TYPE type_order[] = {
    DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16,
    DML_TENSOR_DATA_TYPE_INT32,   DML_TENSOR_DATA_TYPE_INT64,   DML_TENSOR_DATA_TYPE_UINT32,
    DML_TENSOR_DATA_TYPE_UINT64,  DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT8,
    DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_UINT8};

static HRESULT check_type(const char* opname, const char* field, const DML_TENSOR_DESC* t, unsigned accepted)
{
    const DML_BUFFER_TENSOR_DESC* b;
    char list[160], name[DMLC_TYPE_NAME_SIZE], shown[DMLC_TYPE_NAME_SIZE];
    unsigned left = 0;
    size_t n = 0;
    if (!t || t->Type != DML_TENSOR_TYPE_BUFFER || !t->Desc) return S_OK;
    b = (const DML_BUFFER_TENSOR_DESC*)t->Desc;
    if ((unsigned)b->DataType >= 32 || !(DMLC_TYPES_ALL >> b->DataType & 1u) || (accepted >> b->DataType & 1u))
        return S_OK;
    for (size_t i = 0; i < sizeof type_order / sizeof type_order[0]; ++i) left += accepted >> type_order[i] & 1u;
    list[0] = '\0';
    for (size_t i = 0; i < sizeof type_order / sizeof type_order[0]; ++i) {
        if (!(accepted >> type_order[i] & 1u)) continue;
        --left;
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", dmlc_data_type_name(type_order[i], shown),
                              left > 1 ? ", " : left == 1 ? " or " : "");
    }
    return dmlc_fail(E_INVALIDARG, opname, "%s.DataType is %s, expected %s", field,
                     dmlc_data_type_name(b->DataType, name), list);
}

HRESULT dmlc_schema_check(DML_OPERATOR_TYPE type, const char* opname, const void* desc, int infer)
{
    const dmlc_schema* s = dmlc_schema_find(type);
    const char* d = (const char*)desc;
    const unsigned data = s->types;
    const unsigned index = s->flags & DMLC_SCHEMA_SIGNED_INDICES ? DMLC_TYPES_SIGNED_INDEX : DMLC_TYPES_INDEX;
    HRESULT hr;
    for (unsigned i = 0; i < s->field_count; ++i) {
        const dmlc_field* f = &s->fields[i];
        const void* p;
        UINT count = 1;
        if (infer && f->kind == DMLC_KIND_OUTPUT && !(s->flags & DMLC_SCHEMA_INFER_READS_OUTPUTS)) continue;
        if (!is_array(f->type) && f->type != DMLC_FT_TENSOR) continue;
        memcpy(&p, d + f->offset, sizeof p);
        if (is_array(f->type)) memcpy(&count, d + f->count_offset, sizeof count);
        if (count && !p && is_array(f->type) && !(f->flags & DMLC_FIELD_OPTIONAL)) {
            if (f->type == DMLC_FT_TENSOR_ARRAY) /* names its count: a list of tensors is NULL, not one */
                return dmlc_fail(E_POINTER, opname, "%s is NULL (%s is %u)", f->name, f->count_name, count);
            return dmlc_fail(E_POINTER, opname, "%s is NULL", f->name);
        }
        /* A tensor array's elements are left to its family, which reads none of them before
         * it has room for Count of them: a Count far beyond the array fails there with
         * E_OUTOFMEMORY, where this loop would read past the array's end. */
        if (f->type == DMLC_FT_TENSOR &&
            FAILED(hr = check_type(opname, f->name, (const DML_TENSOR_DESC*)p,
                                   f->flags & DMLC_FIELD_INDICES ? index : data)))
            return hr;
    }
    return S_OK;
}
