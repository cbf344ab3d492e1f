/* schema.c - what every operator's desc gets from src/schema.def: the proof, at compile time,
 * that the schema and the header's structs agree, and the check of pointers and counts that
 * runs before a family reads a desc. */
#include "dmlc_internal.h"

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

HRESULT dmlc_schema_check(DML_OPERATOR_TYPE type, const char* opname, const void* desc, int infer)
{
    const dmlc_schema* s = dmlc_schema_find(type);
    const char* d = (const char*)desc;
    for (unsigned i = 0; i < s->field_count; ++i) {
        const dmlc_field* f = &s->fields[i];
        const void* p;
        UINT count;
        if (!is_array(f->type) || (f->flags & DMLC_FIELD_OPTIONAL)) continue;
        if (infer && f->kind == DMLC_KIND_OUTPUT && !(s->flags & DMLC_SCHEMA_INFER_READS_OUTPUTS)) continue;
        memcpy(&p, d + f->offset, sizeof p);
        memcpy(&count, d + f->count_offset, sizeof count);
        if (count && !p) {
            if (f->type == DMLC_FT_TENSOR_ARRAY) /* names its count: a list of tensors is NULL, not one */
                return dmlc_fail(E_POINTER, opname, "%s is NULL (%s is %u)", f->name, f->count_name, count);
            return dmlc_fail(E_POINTER, opname, "%s is NULL", f->name);
        }
    }
    return S_OK;
}
