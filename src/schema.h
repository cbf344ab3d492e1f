/* schema.h - src/schema.def compiled into a table: one dmlc_schema per operator, its fields
 * in the desc struct's order with their kind, type, offset and the offset of the count
 * that gives an array's length.
 *
 * What is the same for every operator walks this table instead of naming operators: the
 * check of pointers and counts before a family reads a desc (src/schema.c), the operator
 * cache's keys (src/cache.c), and the Python view (dmlc._core.SCHEMA, dmlc.schema).
 * Needs directml_py.h included first.  Never installed. */
#ifndef DMLC_SCHEMA_H
#define DMLC_SCHEMA_H

#include <stddef.h>

/* An operator's flags. */
#define DMLC_SCHEMA_IN_PLACE 1u            /* output 0 may be bound to exactly input 0's memory */
#define DMLC_SCHEMA_INFER_READS_OUTPUTS 2u /* dmlcInferOutputSizes reads the output tensors */
#define DMLC_SCHEMA_SIGNED_INDICES 4u      /* its index tensors take DMLC_TYPES_SIGNED_INDEX */

/* A field's flags. */
#define DMLC_FIELD_OPTIONAL 1u /* a pointer that may be NULL */
#define DMLC_FIELD_INDICES 2u  /* a tensor of indices: DMLC_TYPES_INDEX */
#define DMLC_FIELD_RANK 4u     /* a count equal to the first input tensor's DimensionCount */
#define DMLC_FIELD_SPATIAL 8u  /* a count equal to the first input tensor's DimensionCount - 2 */

/* Sets of DML_TENSOR_DATA_TYPE values, bit v for value v. */
enum dmlc_type_sets {
    DMLC_TYPES_ALL = 0 /* the eleven of src/dtypes.def */
#define DMLC_DTYPE(name, value, size, type, kind, lowest, compare) | (1 << (value))
#include "dtypes.def"
#undef DMLC_DTYPE
    ,
    DMLC_TYPES_FLOAT = (1 << DML_TENSOR_DATA_TYPE_FLOAT16) | (1 << DML_TENSOR_DATA_TYPE_FLOAT32) |
                       (1 << DML_TENSOR_DATA_TYPE_FLOAT64),
    DMLC_TYPES_INDEX = (1 << DML_TENSOR_DATA_TYPE_UINT32) | (1 << DML_TENSOR_DATA_TYPE_UINT64),
    /* The gathers' and scatters' indices: negative values count from the end. */
    DMLC_TYPES_SIGNED_INDEX = DMLC_TYPES_INDEX | (1 << DML_TENSOR_DATA_TYPE_INT32) | (1 << DML_TENSOR_DATA_TYPE_INT64)
};

typedef enum dmlc_field_kind { DMLC_KIND_INPUT = 0, DMLC_KIND_OUTPUT = 1, DMLC_KIND_ATTR = 2 } dmlc_field_kind;

/* The field types, as DirectML's own schema has them (enums are ENUM, 32-bit). */
typedef enum dmlc_field_type {
    DMLC_FT_TENSOR = 0,
    DMLC_FT_TENSOR_ARRAY = 1,
    DMLC_FT_UINT = 2,
    DMLC_FT_UINT64 = 3,
    DMLC_FT_INT = 4,
    DMLC_FT_FLOAT = 5,
    DMLC_FT_BOOL = 6,
    DMLC_FT_ENUM = 7,
    DMLC_FT_UINT_ARRAY = 8,
    DMLC_FT_INT_ARRAY = 9,
    DMLC_FT_FLOAT_ARRAY = 10,
    DMLC_FT_SCALE_BIAS = 11,
    DMLC_FT_SIZE_2D = 12,
    DMLC_FT_SCALAR_UNION = 13
} dmlc_field_type;

typedef struct dmlc_field {
    const char* name;         /* "StartPadding" */
    const char* ctype;        /* the header's C type, the pointee for pointers: "UINT" */
    const char* count_name;   /* an array's count field ("DimensionCount"), a SCALAR_UNION's
                                 data type field ("PaddingValueDataType"), or NULL */
    unsigned short offset;    /* offsetof the field in the desc */
    unsigned short count_offset;
    unsigned char size;       /* sizeof the field */
    unsigned char kind;       /* dmlc_field_kind */
    unsigned char type;       /* dmlc_field_type */
    unsigned char flags;      /* DMLC_FIELD_* */
} dmlc_field;

typedef struct dmlc_schema {
    DML_OPERATOR_TYPE type;
    const char* name;         /* "DML_OPERATOR_PADDING" */
    unsigned flags;           /* DMLC_SCHEMA_* */
    unsigned types;           /* the data tensors' DML_TENSOR_DATA_TYPEs, bit v for value v */
    unsigned size;            /* sizeof the desc struct */
    unsigned field_count;
    const dmlc_field* fields;
} dmlc_schema;

/* An array's count field, by field type: only the *_ARRAY types have one (and SCALAR_UNION
 * its data type field). */
#define DMLC_SCHEMA_COUNT_OFFSET_(count) 0
#define DMLC_SCHEMA_COUNT_OFFSET_LINK(count) offsetof(D, count)
#define DMLC_SCHEMA_COUNT_NAME_(count) NULL
#define DMLC_SCHEMA_COUNT_NAME_LINK(count) #count
#define DMLC_SCHEMA_LINK_TENSOR
#define DMLC_SCHEMA_LINK_TENSOR_ARRAY LINK
#define DMLC_SCHEMA_LINK_UINT
#define DMLC_SCHEMA_LINK_UINT64
#define DMLC_SCHEMA_LINK_INT
#define DMLC_SCHEMA_LINK_FLOAT
#define DMLC_SCHEMA_LINK_BOOL
#define DMLC_SCHEMA_LINK_ENUM
#define DMLC_SCHEMA_LINK_UINT_ARRAY LINK
#define DMLC_SCHEMA_LINK_INT_ARRAY LINK
#define DMLC_SCHEMA_LINK_FLOAT_ARRAY LINK
#define DMLC_SCHEMA_LINK_SCALE_BIAS
#define DMLC_SCHEMA_LINK_SIZE_2D
#define DMLC_SCHEMA_LINK_SCALAR_UNION LINK
#define DMLC_SCHEMA_CAT_(a, b) a##b
#define DMLC_SCHEMA_CAT(a, b) DMLC_SCHEMA_CAT_(a, b)
#define DMLC_SCHEMA_COUNT_OFFSET(type, count) DMLC_SCHEMA_CAT(DMLC_SCHEMA_COUNT_OFFSET_, DMLC_SCHEMA_LINK_##type)(count)
#define DMLC_SCHEMA_COUNT_NAME(type, count) DMLC_SCHEMA_CAT(DMLC_SCHEMA_COUNT_NAME_, DMLC_SCHEMA_LINK_##type)(count)

/* dmlc_schema_<NAME>(): the entry of one operator.  A function, so that D can name its
 * desc struct in the fields' offsetof (block scope); its table is static, built by the
 * compiler. */
#define DMLC_FIELD(kind, type, ctype, field, flags, count)                                                   \
    {#field, #ctype, DMLC_SCHEMA_COUNT_NAME(type, count), (unsigned short)offsetof(D, field),                 \
     (unsigned short)DMLC_SCHEMA_COUNT_OFFSET(type, count), (unsigned char)sizeof(((D*)0)->field),            \
     DMLC_KIND_##kind, DMLC_FT_##type, (unsigned char)(flags)},
#define DMLC_SCHEMA(NAME, family, flags, types, fields)                                                       \
    static inline const dmlc_schema* dmlc_schema_##NAME(void)                                                 \
    {                                                                                                         \
        typedef DML_##NAME##_OPERATOR_DESC D;                                                                 \
        static const dmlc_field f[] = {fields};                                                               \
        static const dmlc_schema s = {DML_OPERATOR_##NAME, "DML_OPERATOR_" #NAME, (flags), (unsigned)(types), \
                                      (unsigned)sizeof(D), (unsigned)(sizeof f / sizeof f[0]), f};             \
        return &s;                                                                                            \
    }
#include "schema.def"
#undef DMLC_SCHEMA
#undef DMLC_FIELD

/* The schema entry of an operator type, or NULL if src/schema.def has none. */
static inline const dmlc_schema* dmlc_schema_find(DML_OPERATOR_TYPE type)
{
    switch ((int)type) {
#define DMLC_SCHEMA(NAME, family, flags, types, fields) \
    case DML_OPERATOR_##NAME: return dmlc_schema_##NAME();
#include "schema.def"
#undef DMLC_SCHEMA
    default: return NULL;
    }
}

#endif /* DMLC_SCHEMA_H */
