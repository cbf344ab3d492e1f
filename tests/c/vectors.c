/* Runs every operator dmlc implements over a table of test vectors (vectors.h, written by
 * gen_vectors.py from DirectML's worked examples and NumPy references) and compares each
 * output buffer byte for byte, gaps of strided outputs included.  It needs nothing but the
 * header and the library, so it is also the check of a cross-compiled core: CI runs it
 * under qemu-aarch64, where only the portable kernels exist.  Each case runs with one
 * thread and with three (large cases are split across them).  Build:
 *   cc -std=c99 vectors.c $(dmlc config --cflags --libs)                        */
#include "directml_py.h"

#include <math.h>
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

typedef struct vec_case {
    const char* name;
    DML_OPERATOR_TYPE type;
    UINT inputs, outputs;    /* tensors present; MAX_POOLING1/2 bind two output slots */
    vec_tensor in[VEC_MAX_TENSORS], out[VEC_MAX_TENSORS];
    UINT block;
    DML_DEPTH_SPACE_ORDER order;
    DML_PADDING_MODE mode;
    FLOAT value;             /* PADDING, DIAGONAL_MATRIX */
    DML_TENSOR_DATA_TYPE scalar_type; /* PADDING1, FILL_VALUE_*, DIAGONAL_MATRIX1 */
    UINT64 scalar_bits;
    UINT64 scalar_bits2;     /* FILL_VALUE_SEQUENCE's ValueDelta */
    INT diagonal[2];         /* DIAGONAL_MATRIX: Offset; DIAGONAL_MATRIX1: DiagonalFillBegin, DiagonalFillEnd */
    UINT axis;
    UINT spatial;
    UINT window[3], strides[3], dilations[3], start[8], end[8];
    int include_padding;     /* AVERAGE_POOLING(1) */
    UINT p;                  /* LP_POOLING(1) */
    UINT offsets[8], sizes[8]; /* SLICE, SLICE1 */
    INT slice_strides[8];
    UINT repeats[8];         /* TILE */
    UINT index_dimensions;   /* GATHER */
    UINT input_dims, indices_dims, batch_dims; /* GATHER_ND(1), SCATTER_ND */
    UINT interpolation;      /* RESAMPLE*, UPSAMPLE_2D: DML_INTERPOLATION_MODE */
    UINT rounding;           /* RESAMPLE2: DML_AXIS_DIRECTION */
    FLOAT scales[8], in_offsets[8], out_offsets[8];
    UINT scale_h, scale_w;   /* UPSAMPLE_2D's ScaleSize; ROI_POOLING's PooledSize */
    UINT axis_count, axes[8]; /* ARGMIN, ARGMAX */
    UINT direction;          /* ARGMIN, ARGMAX, CUMULATIVE_*: DML_AXIS_DIRECTION */
    int exclusive;           /* CUMULATIVE_*: HasExclusiveSum / HasExclusiveProduct */
    UINT k;                  /* TOP_K, TOP_K1 (TOP_K1's AxisDirection: direction) */
    int scale_bias;          /* ELEMENT_WISE_IDENTITY: 0, or 1 with scale and bias */
    FLOAT scale, bias;       /* scale: ROI_POOLING's SpatialScale, ROI_ALIGN(1)'s SpatialScaleX too */
    UINT reduction, min_samples, max_samples; /* ROI_ALIGN(1) */
    int corners;
    FLOAT scale_y, in_offset, out_offset, oob;
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

/* ---- descs ----------------------------------------------------------------------------- */
typedef struct vec_descs {
    DML_BUFFER_TENSOR_DESC buf[2 * VEC_MAX_TENSORS];
    DML_TENSOR_DESC tensor[2 * VEC_MAX_TENSORS];
    union {
        DML_SPACE_TO_DEPTH_OPERATOR_DESC s2d;
        DML_DEPTH_TO_SPACE_OPERATOR_DESC d2s;
        DML_SPACE_TO_DEPTH1_OPERATOR_DESC s2d1;
        DML_DEPTH_TO_SPACE1_OPERATOR_DESC d2s1;
        DML_PADDING_OPERATOR_DESC pad;
        DML_PADDING1_OPERATOR_DESC pad1;
        DML_SPLIT_OPERATOR_DESC split;
        DML_JOIN_OPERATOR_DESC join;
        DML_MAX_POOLING_OPERATOR_DESC mp;
        DML_MAX_POOLING1_OPERATOR_DESC mp1;
        DML_MAX_POOLING2_OPERATOR_DESC mp2;
        DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id;
        DML_SLICE_OPERATOR_DESC slice;
        DML_SLICE1_OPERATOR_DESC slice1;
        DML_TILE_OPERATOR_DESC tile;
        DML_UPSAMPLE_2D_OPERATOR_DESC up;
        DML_ROI_POOLING_OPERATOR_DESC roi;
        DML_ROI_ALIGN_OPERATOR_DESC align;
        DML_ROI_ALIGN1_OPERATOR_DESC align1;
        DML_RESAMPLE_OPERATOR_DESC rs;
        DML_RESAMPLE1_OPERATOR_DESC rs1;
        DML_RESAMPLE2_OPERATOR_DESC rs2;
        DML_MAX_UNPOOLING_OPERATOR_DESC unpool;
        DML_AVERAGE_POOLING_OPERATOR_DESC ap;
        DML_AVERAGE_POOLING1_OPERATOR_DESC ap1;
        DML_LP_POOLING_OPERATOR_DESC lp;
        DML_LP_POOLING1_OPERATOR_DESC lp1;
        DML_GATHER_OPERATOR_DESC gather;
        DML_GATHER_ELEMENTS_OPERATOR_DESC gather_elements;
        DML_SCATTER_ELEMENTS_OPERATOR_DESC scatter;
        DML_GATHER_ND1_OPERATOR_DESC gather_nd; /* GATHER_ND's is its prefix */
        DML_SCATTER_ND_OPERATOR_DESC scatter_nd;
        DML_ONE_HOT_OPERATOR_DESC one_hot;
        DML_ARGMAX_OPERATOR_DESC arg; /* ARGMIN's has the same layout */
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC cumsum; /* CUMULATIVE_PRODUCT's has the same layout */
        DML_TOP_K_OPERATOR_DESC top_k;
        DML_TOP_K1_OPERATOR_DESC top_k1;
        DML_NONZERO_COORDINATES_OPERATOR_DESC nonzero;
        DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC reverse;
        DML_CAST_OPERATOR_DESC cast;
        DML_FILL_VALUE_CONSTANT_OPERATOR_DESC fill;
        DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC seq;
        DML_DIAGONAL_MATRIX_OPERATOR_DESC diag;
        DML_DIAGONAL_MATRIX1_OPERATOR_DESC diag1;
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

/* Fills d->op for case c; returns the number of output slots to bind. */
static UINT vec_build(vec_descs* d, const vec_case* c)
{
    DML_TENSOR_DESC *in[VEC_MAX_TENSORS], *out[VEC_MAX_TENSORS];
    UINT slots = c->outputs;
    for (UINT i = 0; i < c->inputs; ++i) in[i] = vec_tensor_desc(d, i, &c->in[i]);
    for (UINT i = 0; i < c->outputs; ++i) out[i] = vec_tensor_desc(d, VEC_MAX_TENSORS + i, &c->out[i]);
    memset(&d->u, 0, sizeof d->u);
    d->op.Type = c->type;
    d->op.Desc = &d->u;
    switch (c->type) {
    case DML_OPERATOR_SPACE_TO_DEPTH:
        d->u.s2d.InputTensor = in[0];
        d->u.s2d.OutputTensor = out[0];
        d->u.s2d.BlockSize = c->block;
        break;
    case DML_OPERATOR_DEPTH_TO_SPACE:
        d->u.d2s.InputTensor = in[0];
        d->u.d2s.OutputTensor = out[0];
        d->u.d2s.BlockSize = c->block;
        break;
    case DML_OPERATOR_SPACE_TO_DEPTH1:
        d->u.s2d1.InputTensor = in[0];
        d->u.s2d1.OutputTensor = out[0];
        d->u.s2d1.BlockSize = c->block;
        d->u.s2d1.Order = c->order;
        break;
    case DML_OPERATOR_DEPTH_TO_SPACE1:
        d->u.d2s1.InputTensor = in[0];
        d->u.d2s1.OutputTensor = out[0];
        d->u.d2s1.BlockSize = c->block;
        d->u.d2s1.Order = c->order;
        break;
    case DML_OPERATOR_PADDING:
        d->u.pad.InputTensor = in[0];
        d->u.pad.OutputTensor = out[0];
        d->u.pad.PaddingMode = c->mode;
        d->u.pad.PaddingValue = c->value;
        d->u.pad.DimensionCount = c->in[0].ndim;
        d->u.pad.StartPadding = c->start;
        d->u.pad.EndPadding = c->end;
        break;
    case DML_OPERATOR_PADDING1:
        d->u.pad1.InputTensor = in[0];
        d->u.pad1.OutputTensor = out[0];
        d->u.pad1.PaddingMode = c->mode;
        d->u.pad1.PaddingValueDataType = c->scalar_type;
        /* DML_SCALAR_UNION's bytes are the value's, little-endian as the vectors are. */
        for (UINT b = 0; b < 8; ++b) d->u.pad1.PaddingValue.Bytes[b] = (BYTE)(c->scalar_bits >> (8 * b));
        d->u.pad1.DimensionCount = c->in[0].ndim;
        d->u.pad1.StartPadding = c->start;
        d->u.pad1.EndPadding = c->end;
        break;
    case DML_OPERATOR_SPLIT:
        d->u.split.InputTensor = in[0];
        d->u.split.OutputCount = c->outputs;
        d->u.split.OutputTensors = d->tensor + VEC_MAX_TENSORS;
        d->u.split.Axis = c->axis;
        break;
    case DML_OPERATOR_JOIN:
        d->u.join.InputCount = c->inputs;
        d->u.join.InputTensors = d->tensor;
        d->u.join.OutputTensor = out[0];
        d->u.join.Axis = c->axis;
        break;
    case DML_OPERATOR_MAX_POOLING:
        d->u.mp.InputTensor = in[0];
        d->u.mp.OutputTensor = out[0];
        d->u.mp.DimensionCount = c->spatial;
        d->u.mp.Strides = c->strides;
        d->u.mp.WindowSize = c->window;
        d->u.mp.StartPadding = c->start;
        d->u.mp.EndPadding = c->end;
        break;
    case DML_OPERATOR_MAX_POOLING1:
    case DML_OPERATOR_MAX_POOLING2:
        /* MAX_POOLING1's fields are MAX_POOLING2's without Dilations, in the same order. */
        d->u.mp2.InputTensor = in[0];
        d->u.mp2.OutputTensor = out[0];
        d->u.mp2.OutputIndicesTensor = c->outputs > 1 ? out[1] : NULL;
        d->u.mp2.DimensionCount = c->spatial;
        d->u.mp2.Strides = c->strides;
        d->u.mp2.WindowSize = c->window;
        d->u.mp2.StartPadding = c->start;
        d->u.mp2.EndPadding = c->end;
        if (c->type == DML_OPERATOR_MAX_POOLING2) d->u.mp2.Dilations = c->dilations;
        slots = 2;
        break;
    case DML_OPERATOR_FILL_VALUE_CONSTANT:
        d->u.fill.OutputTensor = out[0];
        d->u.fill.ValueDataType = c->scalar_type;
        for (UINT b = 0; b < 8; ++b) d->u.fill.Value.Bytes[b] = (BYTE)(c->scalar_bits >> (8 * b));
        break;
    case DML_OPERATOR_FILL_VALUE_SEQUENCE:
        d->u.seq.OutputTensor = out[0];
        d->u.seq.ValueDataType = c->scalar_type;
        for (UINT b = 0; b < 8; ++b) {
            d->u.seq.ValueStart.Bytes[b] = (BYTE)(c->scalar_bits >> (8 * b));
            d->u.seq.ValueDelta.Bytes[b] = (BYTE)(c->scalar_bits2 >> (8 * b));
        }
        break;
    case DML_OPERATOR_DIAGONAL_MATRIX:
        d->u.diag.OutputTensor = out[0];
        d->u.diag.Offset = c->diagonal[0];
        d->u.diag.Value = c->value;
        break;
    case DML_OPERATOR_DIAGONAL_MATRIX1: /* with its InputTensor: vectors bind every input they name */
        d->u.diag1.InputTensor = in[0];
        d->u.diag1.OutputTensor = out[0];
        d->u.diag1.ValueDataType = c->scalar_type;
        for (UINT b = 0; b < 8; ++b) d->u.diag1.Value.Bytes[b] = (BYTE)(c->scalar_bits >> (8 * b));
        d->u.diag1.DiagonalFillBegin = c->diagonal[0];
        d->u.diag1.DiagonalFillEnd = c->diagonal[1];
        break;
    case DML_OPERATOR_CAST:
        d->u.cast.InputTensor = in[0];
        d->u.cast.OutputTensor = out[0];
        break;
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY:
        d->u.id.InputTensor = in[0];
        d->u.id.OutputTensor = out[0];
        d->scale_bias.Scale = c->scale;
        d->scale_bias.Bias = c->bias;
        d->u.id.ScaleBias = c->scale_bias ? &d->scale_bias : NULL;
        break;
    case DML_OPERATOR_SLICE:
        d->u.slice.InputTensor = in[0];
        d->u.slice.OutputTensor = out[0];
        d->u.slice.DimensionCount = c->in[0].ndim;
        d->u.slice.Offsets = c->offsets;
        d->u.slice.Sizes = c->sizes;
        d->u.slice.Strides = (const UINT*)c->slice_strides; /* positive here: the same bits */
        break;
    case DML_OPERATOR_SLICE1:
        d->u.slice1.InputTensor = in[0];
        d->u.slice1.OutputTensor = out[0];
        d->u.slice1.DimensionCount = c->in[0].ndim;
        d->u.slice1.InputWindowOffsets = c->offsets;
        d->u.slice1.InputWindowSizes = c->sizes;
        d->u.slice1.InputWindowStrides = c->slice_strides;
        break;
    case DML_OPERATOR_ARGMIN:
    case DML_OPERATOR_ARGMAX:
        d->u.arg.InputTensor = in[0];
        d->u.arg.OutputTensor = out[0];
        d->u.arg.AxisCount = c->axis_count;
        d->u.arg.Axes = c->axes;
        d->u.arg.AxisDirection = (DML_AXIS_DIRECTION)c->direction;
        break;
    case DML_OPERATOR_CUMULATIVE_SUMMATION:
    case DML_OPERATOR_CUMULATIVE_PRODUCT: /* HasExclusiveProduct is HasExclusiveSum's place */
        d->u.cumsum.InputTensor = in[0];
        d->u.cumsum.OutputTensor = out[0];
        d->u.cumsum.Axis = c->axis;
        d->u.cumsum.AxisDirection = (DML_AXIS_DIRECTION)c->direction;
        d->u.cumsum.HasExclusiveSum = c->exclusive;
        break;
    case DML_OPERATOR_TOP_K:
        d->u.top_k.InputTensor = in[0];
        d->u.top_k.OutputValueTensor = out[0];
        d->u.top_k.OutputIndexTensor = out[1];
        d->u.top_k.Axis = c->axis;
        d->u.top_k.K = c->k;
        slots = 2;
        break;
    case DML_OPERATOR_TOP_K1:
        d->u.top_k1.InputTensor = in[0];
        d->u.top_k1.OutputValueTensor = out[0];
        d->u.top_k1.OutputIndexTensor = out[1];
        d->u.top_k1.Axis = c->axis;
        d->u.top_k1.K = c->k;
        d->u.top_k1.AxisDirection = (DML_AXIS_DIRECTION)c->direction;
        slots = 2;
        break;
    case DML_OPERATOR_NONZERO_COORDINATES:
        d->u.nonzero.InputTensor = in[0];
        d->u.nonzero.OutputCountTensor = out[0];
        d->u.nonzero.OutputCoordinatesTensor = out[1];
        break;
    case DML_OPERATOR_TILE:
        d->u.tile.InputTensor = in[0];
        d->u.tile.OutputTensor = out[0];
        d->u.tile.RepeatsCount = c->in[0].ndim;
        d->u.tile.Repeats = c->repeats;
        break;
    case DML_OPERATOR_UPSAMPLE_2D:
        d->u.up.InputTensor = in[0];
        d->u.up.OutputTensor = out[0];
        d->u.up.ScaleSize.Width = c->scale_w;
        d->u.up.ScaleSize.Height = c->scale_h;
        d->u.up.InterpolationMode = (DML_INTERPOLATION_MODE)c->interpolation;
        break;
    case DML_OPERATOR_ROI_POOLING:
        d->u.roi.InputTensor = in[0];
        d->u.roi.ROITensor = in[1];
        d->u.roi.OutputTensor = out[0];
        d->u.roi.SpatialScale = c->scale;
        d->u.roi.PooledSize.Width = c->scale_w;
        d->u.roi.PooledSize.Height = c->scale_h;
        break;
    case DML_OPERATOR_ROI_ALIGN:
        d->u.align.InputTensor = in[0];
        d->u.align.ROITensor = in[1];
        d->u.align.BatchIndicesTensor = in[2];
        d->u.align.OutputTensor = out[0];
        d->u.align.ReductionFunction = (DML_REDUCE_FUNCTION)c->reduction;
        d->u.align.InterpolationMode = (DML_INTERPOLATION_MODE)c->interpolation;
        d->u.align.SpatialScaleX = c->scale;
        d->u.align.SpatialScaleY = c->scale_y;
        d->u.align.OutOfBoundsInputValue = c->oob;
        d->u.align.MinimumSamplesPerOutput = c->min_samples;
        d->u.align.MaximumSamplesPerOutput = c->max_samples;
        break;
    case DML_OPERATOR_ROI_ALIGN1:
        d->u.align1.InputTensor = in[0];
        d->u.align1.ROITensor = in[1];
        d->u.align1.BatchIndicesTensor = in[2];
        d->u.align1.OutputTensor = out[0];
        d->u.align1.ReductionFunction = (DML_REDUCE_FUNCTION)c->reduction;
        d->u.align1.InterpolationMode = (DML_INTERPOLATION_MODE)c->interpolation;
        d->u.align1.SpatialScaleX = c->scale;
        d->u.align1.SpatialScaleY = c->scale_y;
        d->u.align1.InputPixelOffset = c->in_offset;
        d->u.align1.OutputPixelOffset = c->out_offset;
        d->u.align1.OutOfBoundsInputValue = c->oob;
        d->u.align1.MinimumSamplesPerOutput = c->min_samples;
        d->u.align1.MaximumSamplesPerOutput = c->max_samples;
        d->u.align1.AlignRegionsToCorners = c->corners;
        break;
    case DML_OPERATOR_RESAMPLE:
        d->u.rs.InputTensor = in[0];
        d->u.rs.OutputTensor = out[0];
        d->u.rs.InterpolationMode = (DML_INTERPOLATION_MODE)c->interpolation;
        d->u.rs.ScaleCount = c->in[0].ndim;
        d->u.rs.Scales = c->scales;
        break;
    case DML_OPERATOR_RESAMPLE1:
        d->u.rs1.InputTensor = in[0];
        d->u.rs1.OutputTensor = out[0];
        d->u.rs1.InterpolationMode = (DML_INTERPOLATION_MODE)c->interpolation;
        d->u.rs1.DimensionCount = c->in[0].ndim;
        d->u.rs1.Scales = c->scales;
        d->u.rs1.InputPixelOffsets = c->in_offsets;
        d->u.rs1.OutputPixelOffsets = c->out_offsets;
        break;
    case DML_OPERATOR_RESAMPLE2:
        d->u.rs2.InputTensor = in[0];
        d->u.rs2.OutputTensor = out[0];
        d->u.rs2.InterpolationMode = (DML_INTERPOLATION_MODE)c->interpolation;
        d->u.rs2.RoundingDirection = (DML_AXIS_DIRECTION)c->rounding;
        d->u.rs2.DimensionCount = c->in[0].ndim;
        d->u.rs2.Scales = c->scales;
        d->u.rs2.InputPixelOffsets = c->in_offsets;
        d->u.rs2.OutputPixelOffsets = c->out_offsets;
        break;
    case DML_OPERATOR_MAX_UNPOOLING:
        d->u.unpool.InputTensor = in[0];
        d->u.unpool.IndicesTensor = in[1];
        d->u.unpool.OutputTensor = out[0];
        break;
    case DML_OPERATOR_GATHER:
        d->u.gather.InputTensor = in[0];
        d->u.gather.IndicesTensor = in[1];
        d->u.gather.OutputTensor = out[0];
        d->u.gather.Axis = c->axis;
        d->u.gather.IndexDimensions = c->index_dimensions;
        break;
    case DML_OPERATOR_REVERSE_SUBSEQUENCES:
        d->u.reverse.InputTensor = in[0];
        d->u.reverse.SequenceLengthsTensor = in[1];
        d->u.reverse.OutputTensor = out[0];
        d->u.reverse.Axis = c->axis;
        break;
    case DML_OPERATOR_GATHER_ELEMENTS:
        d->u.gather_elements.InputTensor = in[0];
        d->u.gather_elements.IndicesTensor = in[1];
        d->u.gather_elements.OutputTensor = out[0];
        d->u.gather_elements.Axis = c->axis;
        break;
    case DML_OPERATOR_SCATTER_ELEMENTS:
        d->u.scatter.InputTensor = in[0];
        d->u.scatter.IndicesTensor = in[1];
        d->u.scatter.UpdatesTensor = in[2];
        d->u.scatter.OutputTensor = out[0];
        d->u.scatter.Axis = c->axis;
        break;
    case DML_OPERATOR_ONE_HOT:
        d->u.one_hot.IndicesTensor = in[0];
        d->u.one_hot.ValuesTensor = in[1];
        d->u.one_hot.OutputTensor = out[0];
        d->u.one_hot.Axis = c->axis;
        break;
    case DML_OPERATOR_GATHER_ND:
    case DML_OPERATOR_GATHER_ND1:
        d->u.gather_nd.InputTensor = in[0];
        d->u.gather_nd.IndicesTensor = in[1];
        d->u.gather_nd.OutputTensor = out[0];
        d->u.gather_nd.InputDimensionCount = c->input_dims;
        d->u.gather_nd.IndicesDimensionCount = c->indices_dims;
        d->u.gather_nd.BatchDimensionCount = c->batch_dims;
        break;
    case DML_OPERATOR_SCATTER_ND:
        d->u.scatter_nd.InputTensor = in[0];
        d->u.scatter_nd.IndicesTensor = in[1];
        d->u.scatter_nd.UpdatesTensor = in[2];
        d->u.scatter_nd.OutputTensor = out[0];
        d->u.scatter_nd.InputDimensionCount = c->input_dims;
        d->u.scatter_nd.IndicesDimensionCount = c->indices_dims;
        break;
    case DML_OPERATOR_AVERAGE_POOLING:
        d->u.ap.InputTensor = in[0];
        d->u.ap.OutputTensor = out[0];
        d->u.ap.DimensionCount = c->spatial;
        d->u.ap.Strides = c->strides;
        d->u.ap.WindowSize = c->window;
        d->u.ap.StartPadding = c->start;
        d->u.ap.EndPadding = c->end;
        d->u.ap.IncludePadding = c->include_padding;
        break;
    case DML_OPERATOR_AVERAGE_POOLING1:
        d->u.ap1.InputTensor = in[0];
        d->u.ap1.OutputTensor = out[0];
        d->u.ap1.DimensionCount = c->spatial;
        d->u.ap1.Strides = c->strides;
        d->u.ap1.WindowSize = c->window;
        d->u.ap1.StartPadding = c->start;
        d->u.ap1.EndPadding = c->end;
        d->u.ap1.Dilations = c->dilations;
        d->u.ap1.IncludePadding = c->include_padding;
        break;
    case DML_OPERATOR_LP_POOLING:
        d->u.lp.InputTensor = in[0];
        d->u.lp.OutputTensor = out[0];
        d->u.lp.DimensionCount = c->spatial;
        d->u.lp.Strides = c->strides;
        d->u.lp.WindowSize = c->window;
        d->u.lp.StartPadding = c->start;
        d->u.lp.EndPadding = c->end;
        d->u.lp.P = c->p;
        break;
    case DML_OPERATOR_LP_POOLING1:
        d->u.lp1.InputTensor = in[0];
        d->u.lp1.OutputTensor = out[0];
        d->u.lp1.DimensionCount = c->spatial;
        d->u.lp1.Strides = c->strides;
        d->u.lp1.WindowSize = c->window;
        d->u.lp1.StartPadding = c->start;
        d->u.lp1.EndPadding = c->end;
        d->u.lp1.Dilations = c->dilations;
        d->u.lp1.P = c->p;
        break;
    default:
        break;
    }
    return slots;
}

/* ---- one case ---------------------------------------------------------------------------- */
/* Runs c with `threads` threads; 0 if every output buffer is the expected one. */
static int vec_run(const vec_case* c, UINT threads)
{
    vec_descs d;
    DMLC_BUFFER_BINDING in[VEC_MAX_TENSORS], out[VEC_MAX_TENSORS];
    unsigned char* bufs[2 * VEC_MAX_TENSORS] = {NULL};
    UINT slots = vec_build(&d, c);
    DMLC_OPERATOR* op = NULL;
    HRESULT hr;
    int bad = 0;

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
    if (!bad && FAILED(hr = dmlcExecute(op, c->inputs, in, slots, out))) {
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
