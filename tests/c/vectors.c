/* Runs every operator dmlc implements over a table of test vectors (vectors.h, written by
 * gen_vectors.py from DirectML's worked examples and NumPy references) and compares each
 * output buffer byte for byte, gaps of strided outputs included.  It needs nothing but the
 * header and the library, so it is also the check of a cross-compiled core: CI runs it
 * under qemu-aarch64, where only the portable kernels exist.  Each case runs with one
 * thread and with three (large cases are split across them).  Build:
 *   cc -std=c99 vectors.c $(dmlc config --cflags --libs)                        */
#include "directml_py.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VEC_MAX_TENSORS 4
#define VEC_FILL 0xA5 /* output buffers start full of it; gaps of strided outputs keep it */

typedef struct vec_tensor {
    DML_TENSOR_DATA_TYPE type;
    UINT ndim;
    UINT sizes[8];
    int strided;             /* 0: packed (the desc's Strides is NULL) */
    UINT strides[8];
    UINT64 bytes;            /* the buffer: TotalTensorSizeInBytes */
    const unsigned char* data; /* input: the buffer; output: the expected buffer */
    UINT64 seed;             /* data == NULL, input: generated from this seed */
    UINT64 hash;             /* data == NULL, output: vec_hash of the expected buffer */
} vec_tensor;

/* How a desc field is stored, from its type in the operator's schema (vectors.h's layouts). */
typedef enum vec_kind {
    VEC_INPUT,       /* const DML_TENSOR_DESC*: the value is an input slot, or VEC_NULL */
    VEC_OUTPUT,      /* the same for an output slot */
    VEC_INPUTS,      /* const DML_TENSOR_DESC* of every input (a TENSOR_ARRAY) */
    VEC_OUTPUTS,     /* ... of every output */
    VEC_U32,         /* UINT, INT, FLOAT, BOOL and enums: the value's low 32 bits */
    VEC_U64,         /* UINT64 */
    VEC_ARRAY,       /* const UINT/INT/FLOAT*: the value is an index into the case's arrays */
    VEC_SCALE_BIAS,  /* const DML_SCALE_BIAS*: an index into the arrays ({Scale, Bias} bits), or VEC_NULL */
    VEC_SIZE_2D,     /* DML_SIZE_2D by value: Width in the low 32 bits, Height in the high */
    VEC_SCALAR       /* DML_SCALAR_UNION by value: its 8 bytes, little-endian */
} vec_kind;

#define VEC_NULL 0xFFFFFFFFu
#define VEC_MAX_FIELDS 16
#define VEC_MAX_ARRAYS 6
#define VEC_DESC_BYTES 256 /* vectors.h checks every desc struct fits */

typedef struct vec_slot {
    vec_kind kind;
    size_t offset;           /* offsetof the field in the desc struct */
} vec_slot;

typedef struct vec_layout {  /* one per operator type, in its schema's field order */
    DML_OPERATOR_TYPE type;
    UINT count;
    vec_slot fields[VEC_MAX_FIELDS];
} vec_layout;

typedef struct vec_case {
    const char* name;
    DML_OPERATOR_TYPE type;
    UINT inputs, outputs;    /* tensors present */
    UINT slots;              /* output slots bound: MAX_POOLING1/2 bind two with OutputIndicesTensor NULL */
    vec_tensor in[VEC_MAX_TENSORS], out[VEC_MAX_TENSORS];
    UINT64 fields[VEC_MAX_FIELDS]; /* the desc's field values in its order, stored as the layout says */
    UINT arrays[VEC_MAX_ARRAYS][8]; /* the array fields' elements (INT and FLOAT as their bits) */
} vec_case;

#include "vectors.h"

/* ---- generated inputs and hashed outputs: gen_vectors.py computes the same ------------ */
static const UINT64 vec_golden = 0x9E3779B97F4A7C15u;

static UINT64 vec_mix(UINT64 z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* Little-endian word i of the buffer is splitmix64's output for seed + (i + 1) * golden. */
static void vec_generate(unsigned char* p, UINT64 n, UINT64 seed)
{
    for (UINT64 i = 0; i * 8 < n; ++i) {
        UINT64 z = vec_mix(seed + (i + 1) * vec_golden);
        for (UINT64 b = 0; b < 8 && i * 8 + b < n; ++b) p[i * 8 + b] = (unsigned char)(z >> (8 * b));
    }
}

/* Sum of vec_mix(w_i + (i + 1) * golden) over the little-endian words w_i (the last one
 * zero-padded), plus the byte count. */
static UINT64 vec_hash(const unsigned char* p, UINT64 n)
{
    UINT64 h = 0;
    for (UINT64 i = 0; i * 8 < n; ++i) {
        UINT64 w = 0;
        for (UINT64 b = 0; b < 8 && i * 8 + b < n; ++b) w |= (UINT64)p[i * 8 + b] << (8 * b);
        h += vec_mix(w + (i + 1) * vec_golden);
    }
    return h + n;
}

/* ---- descs: built by walking the operator's layout, no code per operator ---------------- */
typedef struct vec_descs {
    DML_BUFFER_TENSOR_DESC buf[2 * VEC_MAX_TENSORS];
    DML_TENSOR_DESC tensor[2 * VEC_MAX_TENSORS];
    union {
        unsigned char bytes[VEC_DESC_BYTES];
        void* align_pointer;
        UINT64 align_u64;
    } u;
    DML_SCALE_BIAS scale_bias;
    DML_OPERATOR_DESC op;
} vec_descs;

static DML_TENSOR_DESC* vec_tensor_desc(vec_descs* d, UINT slot, const vec_tensor* t)
{
    DML_BUFFER_TENSOR_DESC* b = &d->buf[slot];
    memset(b, 0, sizeof *b);
    b->DataType = t->type;
    b->Flags = DML_TENSOR_FLAG_NONE;
    b->DimensionCount = t->ndim;
    b->Sizes = t->sizes;
    b->Strides = t->strided ? t->strides : NULL;
    b->TotalTensorSizeInBytes = t->bytes;
    d->tensor[slot].Type = DML_TENSOR_TYPE_BUFFER;
    d->tensor[slot].Desc = b;
    return &d->tensor[slot];
}

static const vec_layout* vec_layout_of(DML_OPERATOR_TYPE type)
{
    for (size_t i = 0; i < sizeof vec_layouts / sizeof vec_layouts[0]; ++i)
        if (vec_layouts[i].type == type) return &vec_layouts[i];
    return NULL;
}

/* Fills d->op for case c from its operator's layout; 0 if vectors.h has no layout for it. */
static int vec_build(vec_descs* d, const vec_case* c)
{
    const vec_layout* layout = vec_layout_of(c->type);
    if (!layout) return 0;
    for (UINT i = 0; i < c->inputs; ++i) vec_tensor_desc(d, i, &c->in[i]);
    for (UINT i = 0; i < c->outputs; ++i) vec_tensor_desc(d, VEC_MAX_TENSORS + i, &c->out[i]);
    memset(&d->u, 0, sizeof d->u);
    for (UINT f = 0; f < layout->count; ++f) {
        unsigned char* at = d->u.bytes + layout->fields[f].offset;
        const UINT64 v = c->fields[f];
        const void* ptr = NULL;
        UINT u32 = (UINT)v;
        DML_SIZE_2D size;
        switch (layout->fields[f].kind) {
        case VEC_INPUT: ptr = v == VEC_NULL ? NULL : (const void*)&d->tensor[v]; break;
        case VEC_OUTPUT: ptr = v == VEC_NULL ? NULL : (const void*)&d->tensor[VEC_MAX_TENSORS + v]; break;
        case VEC_INPUTS: ptr = d->tensor; break;
        case VEC_OUTPUTS: ptr = d->tensor + VEC_MAX_TENSORS; break;
        case VEC_ARRAY: ptr = c->arrays[v]; break;
        case VEC_SCALE_BIAS:
            if (v != VEC_NULL) {
                memcpy(&d->scale_bias.Scale, &c->arrays[v][0], sizeof(FLOAT));
                memcpy(&d->scale_bias.Bias, &c->arrays[v][1], sizeof(FLOAT));
                ptr = &d->scale_bias;
            }
            break;
        case VEC_U32: memcpy(at, &u32, sizeof u32); continue;
        case VEC_U64: memcpy(at, &v, sizeof v); continue;
        case VEC_SIZE_2D:
            size.Width = (UINT)v;
            size.Height = (UINT)(v >> 32);
            memcpy(at, &size, sizeof size);
            continue;
        case VEC_SCALAR: /* little-endian, as the vectors are */
            for (UINT b = 0; b < 8; ++b) at[b] = (unsigned char)(v >> (8 * b));
            continue;
        }
        memcpy(at, &ptr, sizeof ptr);
    }
    d->op.Type = c->type;
    d->op.Desc = d->u.bytes;
    return 1;
}

/* ---- one case ---------------------------------------------------------------------------- */
/* Runs c with `threads` threads; 0 if every output buffer is the expected one. */
static int vec_run(const vec_case* c, UINT threads)
{
    vec_descs d;
    DMLC_BUFFER_BINDING in[VEC_MAX_TENSORS], out[VEC_MAX_TENSORS];
    unsigned char* bufs[2 * VEC_MAX_TENSORS] = {NULL};
    DMLC_OPERATOR* op = NULL;
    HRESULT hr;
    int bad = 0;

    if (!vec_build(&d, c)) {
        printf("FAIL %s: vectors.h has no layout of operator type %u\n", c->name, (unsigned)c->type);
        return 1;
    }

    memset(in, 0, sizeof in);
    memset(out, 0, sizeof out);
    for (UINT i = 0; i < c->inputs + c->outputs && !bad; ++i) {
        const vec_tensor* t = i < c->inputs ? &c->in[i] : &c->out[i - c->inputs];
        unsigned char* p = (unsigned char*)malloc((size_t)t->bytes);
        bufs[i] = p;
        if (!p) {
            printf("FAIL %s: out of memory for %llu bytes\n", c->name, (unsigned long long)t->bytes);
            bad = 1;
        } else if (i >= c->inputs) {
            memset(p, VEC_FILL, (size_t)t->bytes);
            out[i - c->inputs].Buffer = p;
            out[i - c->inputs].SizeInBytes = t->bytes;
        } else {
            if (t->data) memcpy(p, t->data, (size_t)t->bytes);
            else vec_generate(p, t->bytes, t->seed);
            in[i].Buffer = p;
            in[i].SizeInBytes = t->bytes;
        }
    }
    if (!bad && FAILED(hr = dmlcSetThreadCount(threads))) {
        printf("FAIL %s: dmlcSetThreadCount(%u): %s\n", c->name, threads, dmlcGetLastErrorMessage());
        bad = 1;
    }
    if (!bad && FAILED(hr = dmlcCreateOperator(&d.op, &op))) {
        printf("FAIL %s: dmlcCreateOperator: 0x%08X %s\n", c->name, (unsigned)hr, dmlcGetLastErrorMessage());
        bad = 1;
    }
    if (!bad && FAILED(hr = dmlcExecute(op, c->inputs, in, c->slots, out))) {
        printf("FAIL %s: dmlcExecute: 0x%08X %s\n", c->name, (unsigned)hr, dmlcGetLastErrorMessage());
        bad = 1;
    }
    for (UINT k = 0; k < c->outputs && !bad; ++k) {
        const vec_tensor* t = &c->out[k];
        const unsigned char* got = bufs[c->inputs + k];
        if (t->data) {
            for (UINT64 i = 0; i < t->bytes; ++i)
                if (got[i] != t->data[i]) {
                    printf("FAIL %s (%u threads): output %u, byte %llu is 0x%02X, expected 0x%02X\n", c->name,
                           threads, k, (unsigned long long)i, got[i], t->data[i]);
                    bad = 1;
                    break;
                }
        } else if (vec_hash(got, t->bytes) != t->hash) {
            printf("FAIL %s (%u threads): output %u hashes to 0x%016llX, expected 0x%016llX\n", c->name, threads,
                   k, (unsigned long long)vec_hash(got, t->bytes), (unsigned long long)t->hash);
            bad = 1;
        }
    }
    dmlcReleaseOperator(op);
    for (UINT i = 0; i < 2 * VEC_MAX_TENSORS; ++i) free(bufs[i]);
    return bad;
}

int main(void)
{
    const UINT count = (UINT)(sizeof vec_cases / sizeof vec_cases[0]);
    const UINT16 probe = 1;
    const char* features = NULL;
    UINT failures = 0, covered[256] = {0}, ops = 0;
    HRESULT hr;

    if (*(const unsigned char*)&probe != 1) {
        printf("FAIL: the vectors are little-endian and this machine is not\n");
        return 1;
    }
    if (FAILED(hr = dmlcGetCpuFeatures(&features))) {
        printf("FAIL: dmlcGetCpuFeatures: %s\n", dmlcGetLastErrorMessage());
        return 1;
    }
    for (UINT i = 0; i < count; ++i) {
        const vec_case* c = &vec_cases[i];
        const int bad = vec_run(c, 1) | vec_run(c, 3);
        failures += bad != 0;
        if ((unsigned)c->type < 256 && !covered[c->type]++) ++ops;
    }
    dmlcSetThreadCount(0);
    printf("vectors: %u of %u cases match over %u operators (1 and 3 threads; CPU features in use: \"%s\")\n",
           count - failures, count, ops, features);
    return failures ? 1 : 0;
}
