/*
 * directml_py.h - DirectML's operator descriptions, executed on the CPU by dmlc.
 *
 * Include this header instead of <DirectML.h>.  It declares DirectML's types with the
 * names, field orders, enum values, sizes and alignment of Microsoft's directml.h
 * (DML_TARGET_VERSION 0x6400), so code written against DirectML's structs compiles
 * unchanged, plus the dmlc execution API, which runs a DML_OPERATOR_DESC over
 * caller-owned memory.  Link with -ldirectml_py.
 *
 * If directml.h was included first (DIRECTML_H defined), its declarations are used and
 * only the dmlc API is added.
 *
 * The text between the "@cdef-begin" and "@cdef-end" markers is plain C declarations
 * with no preprocessor lines: dmlc's Python package feeds it to cffi's cdef as it is.
 */
#ifndef DIRECTML_PY_H
#define DIRECTML_PY_H

#include <stddef.h>
#include <stdint.h>

/* Version of this header and of the library: (major << 16) | (minor << 8) | patch.
 * dmlcGetVersion() returns the library's; the Python package refuses a mismatch. */
#define DMLC_VERSION_MAJOR 0
#define DMLC_VERSION_MINOR 1
#define DMLC_VERSION_PATCH 0
#define DMLC_VERSION ((DMLC_VERSION_MAJOR << 16) | (DMLC_VERSION_MINOR << 8) | DMLC_VERSION_PATCH)

#if defined(_WIN32)
#  if defined(DMLC_BUILDING_LIBRARY)
#    define DMLC_API __declspec(dllexport)
#  else
#    define DMLC_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define DMLC_API __attribute__((visibility("default")))
#else
#  define DMLC_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifndef DIRECTML_H

/* ---- Win32 base types --------------------------------------------------------------- */
#if defined(_WIN32)
#  include <windows.h>
#else
/* @cdef-begin base */
typedef uint8_t BYTE;
typedef int8_t INT8;
typedef uint8_t UINT8;
typedef int16_t INT16;
typedef uint16_t UINT16;
typedef int32_t INT32;
typedef uint32_t UINT32;
typedef int64_t INT64;
typedef uint64_t UINT64;
typedef int INT;
typedef unsigned int UINT;
typedef float FLOAT;
typedef double DOUBLE;
typedef int BOOL;
typedef int32_t HRESULT;
/* @cdef-end base */
#endif

#ifndef S_OK
#  define S_OK ((HRESULT)0L)
#endif
#ifndef E_NOTIMPL
#  define E_NOTIMPL ((HRESULT)0x80004001L)
#endif
#ifndef E_POINTER
#  define E_POINTER ((HRESULT)0x80004003L)
#endif
#ifndef E_INVALIDARG
#  define E_INVALIDARG ((HRESULT)0x80070057L)
#endif
#ifndef E_OUTOFMEMORY
#  define E_OUTOFMEMORY ((HRESULT)0x8007000EL)
#endif
#ifndef SUCCEEDED
#  define SUCCEEDED(hr) (((HRESULT)(hr)) >= 0)
#endif
#ifndef FAILED
#  define FAILED(hr) (((HRESULT)(hr)) < 0)
#endif

/* ---- DirectML's types --------------------------------------------------------------- */
#define DML_TARGET_VERSION 0x6400
#define DML_TENSOR_DIMENSION_COUNT_MAX 5
#define DML_TENSOR_DIMENSION_COUNT_MAX1 8
#define DML_TEMPORARY_BUFFER_ALIGNMENT 256
#define DML_PERSISTENT_BUFFER_ALIGNMENT 256
#define DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT 16

/* @cdef-begin dml */
typedef enum DML_TENSOR_DATA_TYPE {
    DML_TENSOR_DATA_TYPE_UNKNOWN = 0,
    DML_TENSOR_DATA_TYPE_FLOAT32 = 1,
    DML_TENSOR_DATA_TYPE_FLOAT16 = 2,
    DML_TENSOR_DATA_TYPE_UINT32 = 3,
    DML_TENSOR_DATA_TYPE_UINT16 = 4,
    DML_TENSOR_DATA_TYPE_UINT8 = 5,
    DML_TENSOR_DATA_TYPE_INT32 = 6,
    DML_TENSOR_DATA_TYPE_INT16 = 7,
    DML_TENSOR_DATA_TYPE_INT8 = 8,
    DML_TENSOR_DATA_TYPE_FLOAT64 = 9,
    DML_TENSOR_DATA_TYPE_UINT64 = 10,
    DML_TENSOR_DATA_TYPE_INT64 = 11,
    DML_TENSOR_DATA_TYPE_UINT4 = 12,
    DML_TENSOR_DATA_TYPE_INT4 = 13
} DML_TENSOR_DATA_TYPE;

typedef enum DML_TENSOR_TYPE {
    DML_TENSOR_TYPE_INVALID = 0,
    DML_TENSOR_TYPE_BUFFER = 1
} DML_TENSOR_TYPE;

typedef enum DML_TENSOR_FLAGS {
    DML_TENSOR_FLAG_NONE = 0x0,
    DML_TENSOR_FLAG_OWNED_BY_DML = 0x1
} DML_TENSOR_FLAGS;

typedef struct DML_BUFFER_TENSOR_DESC {
    DML_TENSOR_DATA_TYPE DataType;
    DML_TENSOR_FLAGS Flags;
    UINT DimensionCount;
    const UINT* Sizes;
    const UINT* Strides;
    UINT64 TotalTensorSizeInBytes;
    UINT GuaranteedBaseOffsetAlignment;
} DML_BUFFER_TENSOR_DESC;

typedef struct DML_TENSOR_DESC {
    DML_TENSOR_TYPE Type;
    const void* Desc;
} DML_TENSOR_DESC;

typedef enum DML_OPERATOR_TYPE {
    DML_OPERATOR_INVALID = 0,
    DML_OPERATOR_ELEMENT_WISE_IDENTITY = 1,
    DML_OPERATOR_ELEMENT_WISE_ABS = 2,
    DML_OPERATOR_ELEMENT_WISE_ACOS = 3,
    DML_OPERATOR_ELEMENT_WISE_ADD = 4,
    DML_OPERATOR_ELEMENT_WISE_ASIN = 5,
    DML_OPERATOR_ELEMENT_WISE_ATAN = 6,
    DML_OPERATOR_ELEMENT_WISE_CEIL = 7,
    DML_OPERATOR_ELEMENT_WISE_CLIP = 8,
    DML_OPERATOR_ELEMENT_WISE_COS = 9,
    DML_OPERATOR_ELEMENT_WISE_DIVIDE = 10,
    DML_OPERATOR_ELEMENT_WISE_EXP = 11,
    DML_OPERATOR_ELEMENT_WISE_FLOOR = 12,
    DML_OPERATOR_ELEMENT_WISE_LOG = 13,
    DML_OPERATOR_ELEMENT_WISE_LOGICAL_AND = 14,
    DML_OPERATOR_ELEMENT_WISE_LOGICAL_EQUALS = 15,
    DML_OPERATOR_ELEMENT_WISE_LOGICAL_GREATER_THAN = 16,
    DML_OPERATOR_ELEMENT_WISE_LOGICAL_LESS_THAN = 17,
    DML_OPERATOR_ELEMENT_WISE_LOGICAL_NOT = 18,
    DML_OPERATOR_ELEMENT_WISE_LOGICAL_OR = 19,
    DML_OPERATOR_ELEMENT_WISE_LOGICAL_XOR = 20,
    DML_OPERATOR_ELEMENT_WISE_MAX = 21,
    DML_OPERATOR_ELEMENT_WISE_MEAN = 22,
    DML_OPERATOR_ELEMENT_WISE_MIN = 23,
    DML_OPERATOR_ELEMENT_WISE_MULTIPLY = 24,
    DML_OPERATOR_ELEMENT_WISE_POW = 25,
    DML_OPERATOR_ELEMENT_WISE_CONSTANT_POW = 26,
    DML_OPERATOR_ELEMENT_WISE_RECIP = 27,
    DML_OPERATOR_ELEMENT_WISE_SIN = 28,
    DML_OPERATOR_ELEMENT_WISE_SQRT = 29,
    DML_OPERATOR_ELEMENT_WISE_SUBTRACT = 30,
    DML_OPERATOR_ELEMENT_WISE_TAN = 31,
    DML_OPERATOR_ELEMENT_WISE_THRESHOLD = 32,
    DML_OPERATOR_ELEMENT_WISE_QUANTIZE_LINEAR = 33,
    DML_OPERATOR_ELEMENT_WISE_DEQUANTIZE_LINEAR = 34,
    DML_OPERATOR_ACTIVATION_ELU = 35,
    DML_OPERATOR_ACTIVATION_HARDMAX = 36,
    DML_OPERATOR_ACTIVATION_HARD_SIGMOID = 37,
    DML_OPERATOR_ACTIVATION_IDENTITY = 38,
    DML_OPERATOR_ACTIVATION_LEAKY_RELU = 39,
    DML_OPERATOR_ACTIVATION_LINEAR = 40,
    DML_OPERATOR_ACTIVATION_LOG_SOFTMAX = 41,
    DML_OPERATOR_ACTIVATION_PARAMETERIZED_RELU = 42,
    DML_OPERATOR_ACTIVATION_PARAMETRIC_SOFTPLUS = 43,
    DML_OPERATOR_ACTIVATION_RELU = 44,
    DML_OPERATOR_ACTIVATION_SCALED_ELU = 45,
    DML_OPERATOR_ACTIVATION_SCALED_TANH = 46,
    DML_OPERATOR_ACTIVATION_SIGMOID = 47,
    DML_OPERATOR_ACTIVATION_SOFTMAX = 48,
    DML_OPERATOR_ACTIVATION_SOFTPLUS = 49,
    DML_OPERATOR_ACTIVATION_SOFTSIGN = 50,
    DML_OPERATOR_ACTIVATION_TANH = 51,
    DML_OPERATOR_ACTIVATION_THRESHOLDED_RELU = 52,
    DML_OPERATOR_CONVOLUTION = 53,
    DML_OPERATOR_GEMM = 54,
    DML_OPERATOR_REDUCE = 55,
    DML_OPERATOR_AVERAGE_POOLING = 56,
    DML_OPERATOR_LP_POOLING = 57,
    DML_OPERATOR_MAX_POOLING = 58,
    DML_OPERATOR_ROI_POOLING = 59,
    DML_OPERATOR_SLICE = 60,
    DML_OPERATOR_CAST = 61,
    DML_OPERATOR_SPLIT = 62,
    DML_OPERATOR_JOIN = 63,
    DML_OPERATOR_PADDING = 64,
    DML_OPERATOR_VALUE_SCALE_2D = 65,
    DML_OPERATOR_UPSAMPLE_2D = 66,
    DML_OPERATOR_GATHER = 67,
    DML_OPERATOR_SPACE_TO_DEPTH = 68,
    DML_OPERATOR_DEPTH_TO_SPACE = 69,
    DML_OPERATOR_TILE = 70,
    DML_OPERATOR_TOP_K = 71,
    DML_OPERATOR_BATCH_NORMALIZATION = 72,
    DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION = 73,
    DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION = 74,
    DML_OPERATOR_LP_NORMALIZATION = 75,
    DML_OPERATOR_RNN = 76,
    DML_OPERATOR_LSTM = 77,
    DML_OPERATOR_GRU = 78,
    DML_OPERATOR_ELEMENT_WISE_SIGN = 79,
    DML_OPERATOR_ELEMENT_WISE_IS_NAN = 80,
    DML_OPERATOR_ELEMENT_WISE_ERF = 81,
    DML_OPERATOR_ELEMENT_WISE_SINH = 82,
    DML_OPERATOR_ELEMENT_WISE_COSH = 83,
    DML_OPERATOR_ELEMENT_WISE_TANH = 84,
    DML_OPERATOR_ELEMENT_WISE_ASINH = 85,
    DML_OPERATOR_ELEMENT_WISE_ACOSH = 86,
    DML_OPERATOR_ELEMENT_WISE_ATANH = 87,
    DML_OPERATOR_ELEMENT_WISE_IF = 88,
    DML_OPERATOR_ELEMENT_WISE_ADD1 = 89,
    DML_OPERATOR_ACTIVATION_SHRINK = 90,
    DML_OPERATOR_MAX_POOLING1 = 91,
    DML_OPERATOR_MAX_UNPOOLING = 92,
    DML_OPERATOR_DIAGONAL_MATRIX = 93,
    DML_OPERATOR_SCATTER_ELEMENTS = 94,
    DML_OPERATOR_SCATTER = DML_OPERATOR_SCATTER_ELEMENTS,
    DML_OPERATOR_ONE_HOT = 95,
    DML_OPERATOR_RESAMPLE = 96,
    DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_LEFT = 97,
    DML_OPERATOR_ELEMENT_WISE_BIT_SHIFT_RIGHT = 98,
    DML_OPERATOR_ELEMENT_WISE_ROUND = 99,
    DML_OPERATOR_ELEMENT_WISE_IS_INFINITY = 100,
    DML_OPERATOR_ELEMENT_WISE_MODULUS_TRUNCATE = 101,
    DML_OPERATOR_ELEMENT_WISE_MODULUS_FLOOR = 102,
    DML_OPERATOR_FILL_VALUE_CONSTANT = 103,
    DML_OPERATOR_FILL_VALUE_SEQUENCE = 104,
    DML_OPERATOR_CUMULATIVE_SUMMATION = 105,
    DML_OPERATOR_REVERSE_SUBSEQUENCES = 106,
    DML_OPERATOR_GATHER_ELEMENTS = 107,
    DML_OPERATOR_GATHER_ND = 108,
    DML_OPERATOR_SCATTER_ND = 109,
    DML_OPERATOR_MAX_POOLING2 = 110,
    DML_OPERATOR_SLICE1 = 111,
    DML_OPERATOR_TOP_K1 = 112,
    DML_OPERATOR_DEPTH_TO_SPACE1 = 113,
    DML_OPERATOR_SPACE_TO_DEPTH1 = 114,
    DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1 = 115,
    DML_OPERATOR_RESAMPLE1 = 116,
    DML_OPERATOR_MATRIX_MULTIPLY_INTEGER = 117,
    DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY = 118,
    DML_OPERATOR_CONVOLUTION_INTEGER = 119,
    DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION = 120,
    DML_OPERATOR_ELEMENT_WISE_BIT_AND = 121,
    DML_OPERATOR_ELEMENT_WISE_BIT_OR = 122,
    DML_OPERATOR_ELEMENT_WISE_BIT_XOR = 123,
    DML_OPERATOR_ELEMENT_WISE_BIT_NOT = 124,
    DML_OPERATOR_ELEMENT_WISE_BIT_COUNT = 125,
    DML_OPERATOR_ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL = 126,
    DML_OPERATOR_ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL = 127,
    DML_OPERATOR_ACTIVATION_CELU = 128,
    DML_OPERATOR_ACTIVATION_RELU_GRAD = 129,
    DML_OPERATOR_AVERAGE_POOLING_GRAD = 130,
    DML_OPERATOR_MAX_POOLING_GRAD = 131,
    DML_OPERATOR_RANDOM_GENERATOR = 132,
    DML_OPERATOR_NONZERO_COORDINATES = 133,
    DML_OPERATOR_RESAMPLE_GRAD = 134,
    DML_OPERATOR_SLICE_GRAD = 135,
    DML_OPERATOR_ADAM_OPTIMIZER = 136,
    DML_OPERATOR_ARGMIN = 137,
    DML_OPERATOR_ARGMAX = 138,
    DML_OPERATOR_ROI_ALIGN = 139,
    DML_OPERATOR_GATHER_ND1 = 140,
    DML_OPERATOR_ELEMENT_WISE_ATAN_YX = 141,
    DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD = 142,
    DML_OPERATOR_ELEMENT_WISE_DIFFERENCE_SQUARE = 143,
    DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION_GRAD = 144,
    DML_OPERATOR_CUMULATIVE_PRODUCT = 145,
    DML_OPERATOR_BATCH_NORMALIZATION_GRAD = 146,
    DML_OPERATOR_ELEMENT_WISE_QUANTIZED_LINEAR_ADD = 147,
    DML_OPERATOR_DYNAMIC_QUANTIZE_LINEAR = 148,
    DML_OPERATOR_ROI_ALIGN1 = 149,
    DML_OPERATOR_ROI_ALIGN_GRAD = 150,
    DML_OPERATOR_BATCH_NORMALIZATION_TRAINING = 151,
    DML_OPERATOR_BATCH_NORMALIZATION_TRAINING_GRAD = 152,
    DML_OPERATOR_ELEMENT_WISE_CLIP1 = 153,
    DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1 = 154,
    DML_OPERATOR_PADDING1 = 155,
    DML_OPERATOR_ELEMENT_WISE_NEGATE = 156,
    DML_OPERATOR_ACTIVATION_GELU = 157,
    DML_OPERATOR_ACTIVATION_SOFTMAX1 = 158,
    DML_OPERATOR_ACTIVATION_LOG_SOFTMAX1 = 159,
    DML_OPERATOR_ACTIVATION_HARDMAX1 = 160,
    DML_OPERATOR_RESAMPLE2 = 161,
    DML_OPERATOR_RESAMPLE_GRAD1 = 162,
    DML_OPERATOR_DIAGONAL_MATRIX1 = 163,
    DML_OPERATOR_MULTIHEAD_ATTENTION = 164,
    DML_OPERATOR_LP_POOLING1 = 165,
    DML_OPERATOR_AVERAGE_POOLING1 = 166,
    DML_OPERATOR_ACTIVATION_SWISH = 167,
    DML_OPERATOR_ACTIVATION_HARD_SWISH = 168,
    DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING = 169,
    DML_OPERATOR_MATRIX_MULTIPLY_INTEGER_TO_FLOAT = 170,
    DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2 = 171,
    DML_OPERATOR_MULTIHEAD_ATTENTION1 = 172,
    DML_OPERATOR_QUANTIZE = 173,
    DML_OPERATOR_DEQUANTIZE = 174,
    DML_OPERATOR_RESAMPLE3 = 175,
    DML_OPERATOR_FOLD = 176,
    DML_OPERATOR_UNFOLD = 177,
} DML_OPERATOR_TYPE;

typedef struct DML_OPERATOR_DESC {
    DML_OPERATOR_TYPE Type;
    const void* Desc;
} DML_OPERATOR_DESC;

typedef enum DML_DEPTH_SPACE_ORDER {
    DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW = 0,
    DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH = 1
} DML_DEPTH_SPACE_ORDER;

typedef enum DML_PADDING_MODE {
    DML_PADDING_MODE_CONSTANT = 0,
    DML_PADDING_MODE_EDGE = 1,
    DML_PADDING_MODE_REFLECTION = 2,
    DML_PADDING_MODE_SYMMETRIC = 3,
    DML_PADDING_MODE_WRAP = 4
} DML_PADDING_MODE;

typedef enum DML_AXIS_DIRECTION {
    DML_AXIS_DIRECTION_INCREASING = 0,
    DML_AXIS_DIRECTION_DECREASING = 1
} DML_AXIS_DIRECTION;

typedef union DML_SCALAR_UNION {
    BYTE Bytes[8];
    INT8 Int8;
    UINT8 UInt8;
    INT16 Int16;
    UINT16 UInt16;
    INT32 Int32;
    UINT32 UInt32;
    INT64 Int64;
    UINT64 UInt64;
    FLOAT Float32;
    DOUBLE Float64;
} DML_SCALAR_UNION;

typedef struct DML_MAX_POOLING_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT DimensionCount;
    const UINT* Strides;
    const UINT* WindowSize;
    const UINT* StartPadding;
    const UINT* EndPadding;
} DML_MAX_POOLING_OPERATOR_DESC;

typedef struct DML_SPLIT_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    UINT OutputCount;
    const DML_TENSOR_DESC* OutputTensors;
    UINT Axis;
} DML_SPLIT_OPERATOR_DESC;

typedef struct DML_JOIN_OPERATOR_DESC {
    UINT InputCount;
    const DML_TENSOR_DESC* InputTensors;
    const DML_TENSOR_DESC* OutputTensor;
    UINT Axis;
} DML_JOIN_OPERATOR_DESC;

typedef struct DML_PADDING_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    DML_PADDING_MODE PaddingMode;
    FLOAT PaddingValue;
    UINT DimensionCount;
    const UINT* StartPadding;
    const UINT* EndPadding;
} DML_PADDING_OPERATOR_DESC;

typedef struct DML_SPACE_TO_DEPTH_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT BlockSize;
} DML_SPACE_TO_DEPTH_OPERATOR_DESC;

typedef struct DML_DEPTH_TO_SPACE_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT BlockSize;
} DML_DEPTH_TO_SPACE_OPERATOR_DESC;

typedef struct DML_MAX_POOLING1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    const DML_TENSOR_DESC* OutputIndicesTensor;
    UINT DimensionCount;
    const UINT* Strides;
    const UINT* WindowSize;
    const UINT* StartPadding;
    const UINT* EndPadding;
} DML_MAX_POOLING1_OPERATOR_DESC;

typedef struct DML_MAX_POOLING2_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    const DML_TENSOR_DESC* OutputIndicesTensor;
    UINT DimensionCount;
    const UINT* Strides;
    const UINT* WindowSize;
    const UINT* StartPadding;
    const UINT* EndPadding;
    const UINT* Dilations;
} DML_MAX_POOLING2_OPERATOR_DESC;

typedef struct DML_AVERAGE_POOLING_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT DimensionCount;
    const UINT* Strides;
    const UINT* WindowSize;
    const UINT* StartPadding;
    const UINT* EndPadding;
    BOOL IncludePadding;
} DML_AVERAGE_POOLING_OPERATOR_DESC;

typedef struct DML_AVERAGE_POOLING1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT DimensionCount;
    const UINT* Strides;
    const UINT* WindowSize;
    const UINT* StartPadding;
    const UINT* EndPadding;
    const UINT* Dilations;
    BOOL IncludePadding;
} DML_AVERAGE_POOLING1_OPERATOR_DESC;

typedef struct DML_LP_POOLING_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT DimensionCount;
    const UINT* Strides;
    const UINT* WindowSize;
    const UINT* StartPadding;
    const UINT* EndPadding;
    UINT P;
} DML_LP_POOLING_OPERATOR_DESC;

typedef struct DML_LP_POOLING1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT DimensionCount;
    const UINT* Strides;
    const UINT* WindowSize;
    const UINT* StartPadding;
    const UINT* EndPadding;
    const UINT* Dilations;
    UINT P;
} DML_LP_POOLING1_OPERATOR_DESC;

typedef struct DML_MAX_UNPOOLING_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* IndicesTensor;
    const DML_TENSOR_DESC* OutputTensor;
} DML_MAX_UNPOOLING_OPERATOR_DESC;

typedef struct DML_DEPTH_TO_SPACE1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT BlockSize;
    DML_DEPTH_SPACE_ORDER Order;
} DML_DEPTH_TO_SPACE1_OPERATOR_DESC;

typedef struct DML_SPACE_TO_DEPTH1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT BlockSize;
    DML_DEPTH_SPACE_ORDER Order;
} DML_SPACE_TO_DEPTH1_OPERATOR_DESC;

typedef struct DML_PADDING1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    DML_PADDING_MODE PaddingMode;
    DML_TENSOR_DATA_TYPE PaddingValueDataType;
    DML_SCALAR_UNION PaddingValue;
    UINT DimensionCount;
    const UINT* StartPadding;
    const UINT* EndPadding;
} DML_PADDING1_OPERATOR_DESC;
/* ELEMENT_WISE_IDENTITY, SLICE, SLICE1, TILE: the data-movement neighbours. */
typedef struct DML_SCALE_BIAS {
    FLOAT Scale;
    FLOAT Bias;
} DML_SCALE_BIAS;

typedef struct DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    const DML_SCALE_BIAS* ScaleBias;
} DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC;

typedef struct DML_SLICE_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT DimensionCount;
    const UINT* Offsets;
    const UINT* Sizes;
    const UINT* Strides;
} DML_SLICE_OPERATOR_DESC;

typedef struct DML_TILE_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT RepeatsCount;
    const UINT* Repeats;
} DML_TILE_OPERATOR_DESC;

/* InputWindowStrides is signed: a negative stride walks the window from its end.  (Some
 * of Microsoft's pages print UINT; directml.h and the page's examples have INT.) */
typedef struct DML_SLICE1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT DimensionCount;
    const UINT* InputWindowOffsets;
    const UINT* InputWindowSizes;
    const INT* InputWindowStrides;
} DML_SLICE1_OPERATOR_DESC;

/* GATHER, GATHER_ELEMENTS, GATHER_ND(1), SCATTER_ELEMENTS, SCATTER_ND, ONE_HOT,
 * REVERSE_SUBSEQUENCES: indexing.  Index tensors are INT32, INT64, UINT32 or UINT64. */
typedef struct DML_GATHER_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* IndicesTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT Axis;
    UINT IndexDimensions;
} DML_GATHER_OPERATOR_DESC;

typedef struct DML_GATHER_ELEMENTS_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* IndicesTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT Axis;
} DML_GATHER_ELEMENTS_OPERATOR_DESC;

/* SCATTER_ELEMENTS (DML_OPERATOR_SCATTER is the same value, 94): DirectML names the struct
 * DML_SCATTER_OPERATOR_DESC and aliases it as DML_SCATTER_ELEMENTS_OPERATOR_DESC. */
typedef struct DML_SCATTER_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* IndicesTensor;
    const DML_TENSOR_DESC* UpdatesTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT Axis;
} DML_SCATTER_OPERATOR_DESC;
typedef DML_SCATTER_OPERATOR_DESC DML_SCATTER_ELEMENTS_OPERATOR_DESC;

typedef struct DML_GATHER_ND_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* IndicesTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT InputDimensionCount;
    UINT IndicesDimensionCount;
} DML_GATHER_ND_OPERATOR_DESC;

typedef struct DML_GATHER_ND1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* IndicesTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT InputDimensionCount;
    UINT IndicesDimensionCount;
    UINT BatchDimensionCount;
} DML_GATHER_ND1_OPERATOR_DESC;

typedef struct DML_SCATTER_ND_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* IndicesTensor;
    const DML_TENSOR_DESC* UpdatesTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT InputDimensionCount;
    UINT IndicesDimensionCount;
} DML_SCATTER_ND_OPERATOR_DESC;

/* ONE_HOT: OutputTensor's Sizes[Axis] is the depth; OffValue is ValuesTensor's element 0,
 * OnValue its element 1 along its innermost dimension of size > 1. */
typedef struct DML_ONE_HOT_OPERATOR_DESC {
    const DML_TENSOR_DESC* IndicesTensor;
    const DML_TENSOR_DESC* ValuesTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT Axis;
} DML_ONE_HOT_OPERATOR_DESC;

/* Resampling (RESAMPLE, RESAMPLE1, RESAMPLE2, UPSAMPLE_2D).  DML_SIZE_2D is Width first. */
typedef enum DML_INTERPOLATION_MODE {
    DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR = 0,
    DML_INTERPOLATION_MODE_LINEAR = 1
} DML_INTERPOLATION_MODE;

typedef struct DML_SIZE_2D {
    UINT Width;
    UINT Height;
} DML_SIZE_2D;

typedef struct DML_UPSAMPLE_2D_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    DML_SIZE_2D ScaleSize;
    DML_INTERPOLATION_MODE InterpolationMode;
} DML_UPSAMPLE_2D_OPERATOR_DESC;

typedef struct DML_RESAMPLE_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    DML_INTERPOLATION_MODE InterpolationMode;
    UINT ScaleCount;
    const FLOAT* Scales;
} DML_RESAMPLE_OPERATOR_DESC;

typedef struct DML_RESAMPLE1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    DML_INTERPOLATION_MODE InterpolationMode;
    UINT DimensionCount;
    const FLOAT* Scales;
    const FLOAT* InputPixelOffsets;
    const FLOAT* OutputPixelOffsets;
} DML_RESAMPLE1_OPERATOR_DESC;

typedef struct DML_RESAMPLE2_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    DML_INTERPOLATION_MODE InterpolationMode;
    DML_AXIS_DIRECTION RoundingDirection;
    UINT DimensionCount;
    const FLOAT* Scales;
    const FLOAT* InputPixelOffsets;
    const FLOAT* OutputPixelOffsets;
} DML_RESAMPLE2_OPERATOR_DESC;

/* ROI_POOLING: Caffe's max ROI pooling.  ROITensor rows are [batch, x1, y1, x2, y2]. */
typedef struct DML_ROI_POOLING_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* ROITensor;
    const DML_TENSOR_DESC* OutputTensor;
    FLOAT SpatialScale;
    DML_SIZE_2D PooledSize;
} DML_ROI_POOLING_OPERATOR_DESC;

/* ROI_ALIGN, ROI_ALIGN1: regions [x1, y1, x2, y2] sampled bilinearly (or nearest) and
 * reduced by ReductionFunction (AVERAGE or MAX of DML_REDUCE_FUNCTION). */
typedef enum DML_REDUCE_FUNCTION {
    DML_REDUCE_FUNCTION_ARGMAX = 0,
    DML_REDUCE_FUNCTION_ARGMIN = 1,
    DML_REDUCE_FUNCTION_AVERAGE = 2,
    DML_REDUCE_FUNCTION_L1 = 3,
    DML_REDUCE_FUNCTION_L2 = 4,
    DML_REDUCE_FUNCTION_LOG_SUM = 5,
    DML_REDUCE_FUNCTION_LOG_SUM_EXP = 6,
    DML_REDUCE_FUNCTION_MAX = 7,
    DML_REDUCE_FUNCTION_MIN = 8,
    DML_REDUCE_FUNCTION_MULTIPLY = 9,
    DML_REDUCE_FUNCTION_SUM = 10,
    DML_REDUCE_FUNCTION_SUM_SQUARE = 11
} DML_REDUCE_FUNCTION;

typedef struct DML_ROI_ALIGN_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* ROITensor;
    const DML_TENSOR_DESC* BatchIndicesTensor;
    const DML_TENSOR_DESC* OutputTensor;
    DML_REDUCE_FUNCTION ReductionFunction;
    DML_INTERPOLATION_MODE InterpolationMode;
    FLOAT SpatialScaleX;
    FLOAT SpatialScaleY;
    FLOAT OutOfBoundsInputValue;
    UINT MinimumSamplesPerOutput;
    UINT MaximumSamplesPerOutput;
} DML_ROI_ALIGN_OPERATOR_DESC;

typedef struct DML_ROI_ALIGN1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* ROITensor;
    const DML_TENSOR_DESC* BatchIndicesTensor;
    const DML_TENSOR_DESC* OutputTensor;
    DML_REDUCE_FUNCTION ReductionFunction;
    DML_INTERPOLATION_MODE InterpolationMode;
    FLOAT SpatialScaleX;
    FLOAT SpatialScaleY;
    FLOAT InputPixelOffset;
    FLOAT OutputPixelOffset;
    FLOAT OutOfBoundsInputValue;
    UINT MinimumSamplesPerOutput;
    UINT MaximumSamplesPerOutput;
    BOOL AlignRegionsToCorners;
} DML_ROI_ALIGN1_OPERATOR_DESC;

/* ARGMIN, ARGMAX: the index of the least / greatest element over Axes (row-major over them);
 * AxisDirection picks the first (INCREASING) or last (DECREASING) of equal elements. */
typedef struct DML_ARGMIN_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT AxisCount;
    const UINT* Axes;
    DML_AXIS_DIRECTION AxisDirection;
} DML_ARGMIN_OPERATOR_DESC;

typedef struct DML_ARGMAX_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT AxisCount;
    const UINT* Axes;
    DML_AXIS_DIRECTION AxisDirection;
} DML_ARGMAX_OPERATOR_DESC;

/* TOP_K, TOP_K1: the K greatest (TOP_K; TOP_K1 with DECREASING) or least (TOP_K1 with
 * INCREASING) elements of each sequence along Axis, sorted, with their indices in the
 * sequence; of equal elements the smaller index comes first in both directions. */
typedef struct DML_TOP_K_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputValueTensor;
    const DML_TENSOR_DESC* OutputIndexTensor;
    UINT Axis;
    UINT K;
} DML_TOP_K_OPERATOR_DESC;

typedef struct DML_TOP_K1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputValueTensor;
    const DML_TENSOR_DESC* OutputIndexTensor;
    UINT Axis;
    UINT K;
    DML_AXIS_DIRECTION AxisDirection;
} DML_TOP_K1_OPERATOR_DESC;

/* CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT: running sums / products along Axis, from the
 * first element (INCREASING) or the last (DECREASING); the exclusive forms start at 0 / 1. */
typedef struct DML_CUMULATIVE_SUMMATION_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT Axis;
    DML_AXIS_DIRECTION AxisDirection;
    BOOL HasExclusiveSum;
} DML_CUMULATIVE_SUMMATION_OPERATOR_DESC;

typedef struct DML_CUMULATIVE_PRODUCT_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT Axis;
    DML_AXIS_DIRECTION AxisDirection;
    BOOL HasExclusiveProduct;
} DML_CUMULATIVE_PRODUCT_OPERATOR_DESC;

/* NONZERO_COORDINATES: the count of non-zero elements and their coordinates, one row each
 * in row-major order; the rows past the count are zero. */
typedef struct DML_NONZERO_COORDINATES_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputCountTensor;
    const DML_TENSOR_DESC* OutputCoordinatesTensor;
} DML_NONZERO_COORDINATES_OPERATOR_DESC;
/* CAST, fills, diagonals: indexing and conversion. */
typedef struct DML_CAST_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
} DML_CAST_OPERATOR_DESC;

typedef struct DML_FILL_VALUE_CONSTANT_OPERATOR_DESC {
    const DML_TENSOR_DESC* OutputTensor;
    DML_TENSOR_DATA_TYPE ValueDataType;
    DML_SCALAR_UNION Value;
} DML_FILL_VALUE_CONSTANT_OPERATOR_DESC;

typedef struct DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC {
    const DML_TENSOR_DESC* OutputTensor;
    DML_TENSOR_DATA_TYPE ValueDataType;
    DML_SCALAR_UNION ValueStart;
    DML_SCALAR_UNION ValueDelta;
} DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC;

typedef struct DML_DIAGONAL_MATRIX_OPERATOR_DESC {
    const DML_TENSOR_DESC* OutputTensor;
    INT Offset;
    FLOAT Value;
} DML_DIAGONAL_MATRIX_OPERATOR_DESC;

/* InputTensor is _Maybenull_: NULL, and its binding's Buffer NULL, for zeros off the diagonals. */
typedef struct DML_DIAGONAL_MATRIX1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    DML_TENSOR_DATA_TYPE ValueDataType;
    DML_SCALAR_UNION Value;
    INT DiagonalFillBegin;
    INT DiagonalFillEnd;
} DML_DIAGONAL_MATRIX1_OPERATOR_DESC;

/* REVERSE_SUBSEQUENCES: the first SequenceLengths[...] elements of each sequence along Axis
 * reversed, the rest copied.  SequenceLengthsTensor is UINT32 or UINT64, of InputTensor's
 * sizes with 1 on Axis. */
typedef struct DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* SequenceLengthsTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT Axis;
} DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC;
/* @cdef-end dml */

#endif /* DIRECTML_H */

/* ---- The dmlc execution API ----------------------------------------------------------
 *
 * Every function returns S_OK or a failure HRESULT (E_INVALIDARG, E_POINTER, E_NOTIMPL,
 * E_OUTOFMEMORY) and sets a thread-local message naming the operator, the field and the
 * offending values; dmlcGetLastErrorMessage() returns it ("" after a success).
 * A desc is validated whole before anything is read or written: a failed call leaves
 * every output untouched.
 */
/* @cdef-begin api */
/* One bound tensor: the range [Buffer + Offset, Buffer + Offset + SizeInBytes), as in
 * DirectML's DML_BUFFER_BINDING.  It must hold the tensor's TotalTensorSizeInBytes and
 * Buffer + Offset must be aligned to the element size.  Buffer == NULL means "not bound",
 * allowed only for the slot of an absent optional tensor. */
typedef struct DMLC_BUFFER_BINDING {
    void* Buffer;
    UINT64 Offset;
    UINT64 SizeInBytes;
} DMLC_BUFFER_BINDING;

/* A validated operator: immutable after creation, executable from many threads at once. */
typedef struct DMLC_OPERATOR DMLC_OPERATOR;

/* Validates desc and copies everything it needs from it. */
DMLC_API HRESULT dmlcCreateOperator(const DML_OPERATOR_DESC* desc, DMLC_OPERATOR** op);

/* Runs op.  inputCount/outputCount equal the operator's tensor slots in desc field order
 * (MAX_POOLING1/2 always have two output slots; SPLIT has OutputCount outputs, JOIN
 * InputCount inputs; MAX_UNPOOLING two inputs, Input then Indices). */
DMLC_API HRESULT dmlcExecute(DMLC_OPERATOR* op,
                             UINT inputCount, const DMLC_BUFFER_BINDING* inputs,
                             UINT outputCount, const DMLC_BUFFER_BINDING* outputs);

/* Accepts NULL. */
DMLC_API void dmlcReleaseOperator(DMLC_OPERATOR* op);

/* dmlcCreateOperator + dmlcExecute + dmlcReleaseOperator, with the same results and errors.
 * Each thread keeps the last four operators this function created and runs one again when
 * every value of desc (types, sizes, strides, fields, arrays; not the addresses they lie at)
 * equals the one it was created from, so a desc run again and again is validated once; the
 * bindings are checked on every call.  They are freed when the thread ends. */
DMLC_API HRESULT dmlcExecuteOperator(const DML_OPERATOR_DESC* desc,
                                     UINT inputCount, const DMLC_BUFFER_BINDING* inputs,
                                     UINT outputCount, const DMLC_BUFFER_BINDING* outputs);

/* The sizes of one output tensor, as dmlcInferOutputSizes computes them. */
typedef struct DMLC_TENSOR_SIZES {
    UINT DimensionCount;
    UINT Sizes[8];
} DMLC_TENSOR_SIZES;

typedef enum DMLC_INFER_FLAGS {
    DMLC_INFER_FLAG_NONE = 0,
    /* Pooling: PyTorch's and ONNX's ceil_mode output sizes, ceil((in + pads - window) /
     * stride) + 1, less one where that last window would start in the end padding
     * ((size - 1) * stride >= in + start padding).  dmlcCreateOperator accepts these sizes,
     * the floor sizes and the plain ceil sizes. */
    DMLC_INFER_FLAG_CEIL_MODE = 1
} DMLC_INFER_FLAGS;

/* The output sizes a desc implies, computed by the rules that dmlcCreateOperator checks,
 * so a caller can allocate its outputs without repeating DirectML's arithmetic.  Reads the
 * desc's input tensors and parameters only: output tensor pointers may be NULL, except
 * SPLIT's OutputTensors, whose Sizes[Axis] are the operator's parameters, and
 * MAX_UNPOOLING's OutputTensor, whose Sizes are its parameter (their DimensionCount and
 * Sizes are read and checked against the inputs, then returned).  Unlike dmlcCreateOperator it accepts input sizes of
 * 0 (NumPy's empty arrays), applying the same rules to them, and ignores the inputs'
 * TotalTensorSizeInBytes (nothing is bound).  outputCount must equal the
 * operator's output slots (2 for MAX_POOLING1/2: the indices get the values' sizes).
 * flags: DMLC_INFER_FLAGS. */
DMLC_API HRESULT dmlcInferOutputSizes(const DML_OPERATOR_DESC* desc, UINT flags,
                                      UINT outputCount, DMLC_TENSOR_SIZES* outputs);

/* DirectML's DMLCalcBufferTensorSize: the bytes a buffer tensor addresses, rounded up to a
 * multiple of 4.  strides may be NULL (packed row-major: the elements times their size);
 * with strides, (the last addressed element's index + 1) times the element size, whatever
 * the element count.  A size of 0 gives 0. */
DMLC_API HRESULT dmlcCalcBufferTensorSize(DML_TENSOR_DATA_TYPE type, UINT dimensionCount,
                                          const UINT* sizes, const UINT* strides,
                                          UINT64* sizeInBytes);

/* Thread-local; "" after a successful call. */
DMLC_API const char* dmlcGetLastErrorMessage(void);

/* The library's DMLC_VERSION. */
DMLC_API UINT dmlcGetVersion(void);

/* Threads a large operator is split across.  0 = the default: the DMLC_NUM_THREADS
 * environment variable (a whole number from 1 to 1024; any other value is reported once on
 * stderr with what is used instead), else the CPUs this process may use (its affinity
 * mask, lowered to a cgroup CPU quota, rounded up).  Small tensors always run on the
 * calling thread.  The calling thread works from the first moment and a call returns when
 * its work is done, never waiting for a thread the system has not scheduled yet; calls
 * made at once from several threads share the count (none adds threads beyond it while
 * others run).  A forked child makes its own threads. */
DMLC_API HRESULT dmlcSetThreadCount(UINT count);
DMLC_API UINT dmlcGetThreadCount(void);

/* The instruction-set extensions dmlc's kernels use in this process, space-separated
 * ("sse2 avx2 f16c" on an x86-64 CPU with AVX2), or "" when only the portable kernels run.
 * The environment variable DMLC_CPU_FEATURES, read once per process, chooses: unset, ""
 * or "native" for every extension the CPU has, "generic" for none.  Any other value makes
 * this function and dmlcCreateOperator fail with E_INVALIDARG. */
DMLC_API HRESULT dmlcGetCpuFeatures(const char** features);
/* @cdef-end api */

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ---- Layout checks: the structs must be byte-compatible with directml.h ------------- */
#if defined(__cplusplus) && __cplusplus >= 201103L
#  define DMLC_STATIC_ASSERT(name, cond) static_assert(cond, #name)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#  define DMLC_STATIC_ASSERT(name, cond) _Static_assert(cond, #name)
#else
#  define DMLC_STATIC_ASSERT(name, cond) typedef char dmlc_static_assert_##name[(cond) ? 1 : -1]
#endif
#define DMLC_PTR ((size_t)sizeof(void*))
#define DMLC_ALIGN_UP(x, a) ((((size_t)(x)) + ((a) - 1)) / (a) * (a))
DMLC_STATIC_ASSERT(uint_is_32_bits, sizeof(UINT) == 4 && sizeof(INT) == 4);
DMLC_STATIC_ASSERT(hresult_is_32_bits, sizeof(HRESULT) == 4);
DMLC_STATIC_ASSERT(enum_is_int, sizeof(DML_TENSOR_DATA_TYPE) == 4 && sizeof(DML_OPERATOR_TYPE) == 4);
DMLC_STATIC_ASSERT(buffer_tensor_desc_strides, offsetof(DML_BUFFER_TENSOR_DESC, Strides) == DMLC_ALIGN_UP(12, DMLC_PTR) + DMLC_PTR);
DMLC_STATIC_ASSERT(buffer_tensor_desc_total, offsetof(DML_BUFFER_TENSOR_DESC, TotalTensorSizeInBytes) == DMLC_ALIGN_UP(12, DMLC_PTR) + 2 * DMLC_PTR);
DMLC_STATIC_ASSERT(buffer_tensor_desc_size, sizeof(DML_BUFFER_TENSOR_DESC) == DMLC_ALIGN_UP(DMLC_ALIGN_UP(12, DMLC_PTR) + 2 * DMLC_PTR + 12, 8));
DMLC_STATIC_ASSERT(tensor_desc_size, sizeof(DML_TENSOR_DESC) == 2 * DMLC_PTR && offsetof(DML_TENSOR_DESC, Desc) == DMLC_PTR);
DMLC_STATIC_ASSERT(operator_desc_size, sizeof(DML_OPERATOR_DESC) == 2 * DMLC_PTR && offsetof(DML_OPERATOR_DESC, Desc) == DMLC_PTR);
DMLC_STATIC_ASSERT(binding_size, sizeof(DMLC_BUFFER_BINDING) == DMLC_ALIGN_UP(DMLC_PTR + 16, 8));
/* The checks above name only types that every directml.h declares and that the dmlc API
 * takes, so they hold whoever declared them.  The operator descs below are checked where
 * this header declares them: a directml.h included first declares those of its own
 * DML_TARGET_VERSION, and an older one lacks DML_SCALE_BIAS, SLICE1, AVERAGE_POOLING1...
 * (tests/test_header_after_directml.py includes a directml.h stand-in that declares only
 * the first eleven operators' types, as an older one would). */
#ifndef DIRECTML_H
DMLC_STATIC_ASSERT(scalar_union_size, sizeof(DML_SCALAR_UNION) == 8);
DMLC_STATIC_ASSERT(depth_space1_order, offsetof(DML_DEPTH_TO_SPACE1_OPERATOR_DESC, Order) == 2 * DMLC_PTR + 4);
DMLC_STATIC_ASSERT(padding_fields, offsetof(DML_PADDING_OPERATOR_DESC, DimensionCount) == 2 * DMLC_PTR + 8 && offsetof(DML_PADDING_OPERATOR_DESC, StartPadding) == DMLC_ALIGN_UP(2 * DMLC_PTR + 12, DMLC_PTR));
DMLC_STATIC_ASSERT(padding1_value, offsetof(DML_PADDING1_OPERATOR_DESC, PaddingValue) == 2 * DMLC_PTR + 8 && offsetof(DML_PADDING1_OPERATOR_DESC, DimensionCount) == 2 * DMLC_PTR + 16);
DMLC_STATIC_ASSERT(split_fields, offsetof(DML_SPLIT_OPERATOR_DESC, OutputTensors) == 2 * DMLC_PTR && offsetof(DML_SPLIT_OPERATOR_DESC, Axis) == 3 * DMLC_PTR);
DMLC_STATIC_ASSERT(join_fields, offsetof(DML_JOIN_OPERATOR_DESC, InputTensors) == DMLC_PTR && offsetof(DML_JOIN_OPERATOR_DESC, Axis) == 3 * DMLC_PTR);
DMLC_STATIC_ASSERT(max_pooling_fields, offsetof(DML_MAX_POOLING_OPERATOR_DESC, Strides) == 3 * DMLC_PTR && sizeof(DML_MAX_POOLING_OPERATOR_DESC) == 7 * DMLC_PTR);
DMLC_STATIC_ASSERT(max_pooling2_fields, offsetof(DML_MAX_POOLING2_OPERATOR_DESC, DimensionCount) == 3 * DMLC_PTR && offsetof(DML_MAX_POOLING2_OPERATOR_DESC, Dilations) == 8 * DMLC_PTR);
DMLC_STATIC_ASSERT(scale_bias_size, sizeof(DML_SCALE_BIAS) == 8 && offsetof(DML_SCALE_BIAS, Bias) == 4);
DMLC_STATIC_ASSERT(identity_fields, offsetof(DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, ScaleBias) == 2 * DMLC_PTR && sizeof(DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC) == 3 * DMLC_PTR);
DMLC_STATIC_ASSERT(slice_fields, offsetof(DML_SLICE_OPERATOR_DESC, Offsets) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) && offsetof(DML_SLICE_OPERATOR_DESC, Strides) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + 2 * DMLC_PTR);
DMLC_STATIC_ASSERT(slice1_fields, offsetof(DML_SLICE1_OPERATOR_DESC, InputWindowOffsets) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) && offsetof(DML_SLICE1_OPERATOR_DESC, InputWindowStrides) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + 2 * DMLC_PTR);
DMLC_STATIC_ASSERT(tile_fields, offsetof(DML_TILE_OPERATOR_DESC, Repeats) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) && sizeof(DML_TILE_OPERATOR_DESC) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + DMLC_PTR);
DMLC_STATIC_ASSERT(average_pooling_fields, offsetof(DML_AVERAGE_POOLING_OPERATOR_DESC, Strides) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) && offsetof(DML_AVERAGE_POOLING_OPERATOR_DESC, IncludePadding) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + 4 * DMLC_PTR && sizeof(DML_AVERAGE_POOLING_OPERATOR_DESC) == DMLC_ALIGN_UP(DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + 4 * DMLC_PTR + 4, DMLC_PTR));
DMLC_STATIC_ASSERT(average_pooling1_fields, offsetof(DML_AVERAGE_POOLING1_OPERATOR_DESC, Dilations) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + 4 * DMLC_PTR && offsetof(DML_AVERAGE_POOLING1_OPERATOR_DESC, IncludePadding) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + 5 * DMLC_PTR && sizeof(DML_AVERAGE_POOLING1_OPERATOR_DESC) == DMLC_ALIGN_UP(DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + 5 * DMLC_PTR + 4, DMLC_PTR));
DMLC_STATIC_ASSERT(lp_pooling_fields, offsetof(DML_LP_POOLING_OPERATOR_DESC, Strides) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) && offsetof(DML_LP_POOLING_OPERATOR_DESC, P) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + 4 * DMLC_PTR && sizeof(DML_LP_POOLING_OPERATOR_DESC) == DMLC_ALIGN_UP(DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + 4 * DMLC_PTR + 4, DMLC_PTR));
DMLC_STATIC_ASSERT(lp_pooling1_fields, offsetof(DML_LP_POOLING1_OPERATOR_DESC, Dilations) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + 4 * DMLC_PTR && offsetof(DML_LP_POOLING1_OPERATOR_DESC, P) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + 5 * DMLC_PTR && sizeof(DML_LP_POOLING1_OPERATOR_DESC) == DMLC_ALIGN_UP(DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + 5 * DMLC_PTR + 4, DMLC_PTR));
DMLC_STATIC_ASSERT(max_unpooling_fields, offsetof(DML_MAX_UNPOOLING_OPERATOR_DESC, IndicesTensor) == DMLC_PTR && offsetof(DML_MAX_UNPOOLING_OPERATOR_DESC, OutputTensor) == 2 * DMLC_PTR && sizeof(DML_MAX_UNPOOLING_OPERATOR_DESC) == 3 * DMLC_PTR);
DMLC_STATIC_ASSERT(gather_fields, offsetof(DML_GATHER_OPERATOR_DESC, Axis) == 3 * DMLC_PTR && offsetof(DML_GATHER_OPERATOR_DESC, IndexDimensions) == 3 * DMLC_PTR + 4 && sizeof(DML_GATHER_OPERATOR_DESC) == 3 * DMLC_PTR + 8);
DMLC_STATIC_ASSERT(gather_elements_fields, offsetof(DML_GATHER_ELEMENTS_OPERATOR_DESC, Axis) == 3 * DMLC_PTR && sizeof(DML_GATHER_ELEMENTS_OPERATOR_DESC) == 4 * DMLC_PTR);
DMLC_STATIC_ASSERT(scatter_fields, offsetof(DML_SCATTER_OPERATOR_DESC, Axis) == 4 * DMLC_PTR && sizeof(DML_SCATTER_OPERATOR_DESC) == 5 * DMLC_PTR);
DMLC_STATIC_ASSERT(gather_nd_fields, offsetof(DML_GATHER_ND_OPERATOR_DESC, InputDimensionCount) == 3 * DMLC_PTR && offsetof(DML_GATHER_ND_OPERATOR_DESC, IndicesDimensionCount) == 3 * DMLC_PTR + 4 && sizeof(DML_GATHER_ND_OPERATOR_DESC) == 3 * DMLC_PTR + 8);
DMLC_STATIC_ASSERT(gather_nd1_fields, offsetof(DML_GATHER_ND1_OPERATOR_DESC, BatchDimensionCount) == 3 * DMLC_PTR + 8 && sizeof(DML_GATHER_ND1_OPERATOR_DESC) == DMLC_ALIGN_UP(3 * DMLC_PTR + 12, DMLC_PTR));
DMLC_STATIC_ASSERT(scatter_nd_fields, offsetof(DML_SCATTER_ND_OPERATOR_DESC, InputDimensionCount) == 4 * DMLC_PTR && offsetof(DML_SCATTER_ND_OPERATOR_DESC, IndicesDimensionCount) == 4 * DMLC_PTR + 4 && sizeof(DML_SCATTER_ND_OPERATOR_DESC) == 4 * DMLC_PTR + 8);
DMLC_STATIC_ASSERT(one_hot_fields, offsetof(DML_ONE_HOT_OPERATOR_DESC, Axis) == 3 * DMLC_PTR && sizeof(DML_ONE_HOT_OPERATOR_DESC) == 4 * DMLC_PTR);
DMLC_STATIC_ASSERT(argmax_fields, offsetof(DML_ARGMAX_OPERATOR_DESC, Axes) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) && offsetof(DML_ARGMAX_OPERATOR_DESC, AxisDirection) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + DMLC_PTR && sizeof(DML_ARGMAX_OPERATOR_DESC) == DMLC_ALIGN_UP(DMLC_ALIGN_UP(2 * DMLC_PTR + 4, DMLC_PTR) + DMLC_PTR + 4, DMLC_PTR));
DMLC_STATIC_ASSERT(argmin_same_as_argmax, sizeof(DML_ARGMIN_OPERATOR_DESC) == sizeof(DML_ARGMAX_OPERATOR_DESC));
DMLC_STATIC_ASSERT(top_k_fields, offsetof(DML_TOP_K_OPERATOR_DESC, Axis) == 3 * DMLC_PTR && offsetof(DML_TOP_K_OPERATOR_DESC, K) == 3 * DMLC_PTR + 4 && sizeof(DML_TOP_K_OPERATOR_DESC) == 3 * DMLC_PTR + 8);
DMLC_STATIC_ASSERT(top_k1_fields, offsetof(DML_TOP_K1_OPERATOR_DESC, AxisDirection) == 3 * DMLC_PTR + 8 && sizeof(DML_TOP_K1_OPERATOR_DESC) == DMLC_ALIGN_UP(3 * DMLC_PTR + 12, DMLC_PTR));
DMLC_STATIC_ASSERT(cumulative_summation_fields, offsetof(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, Axis) == 2 * DMLC_PTR && offsetof(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, HasExclusiveSum) == 2 * DMLC_PTR + 8 && sizeof(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC) == DMLC_ALIGN_UP(2 * DMLC_PTR + 12, DMLC_PTR));
DMLC_STATIC_ASSERT(cumulative_product_same_as_summation, offsetof(DML_CUMULATIVE_PRODUCT_OPERATOR_DESC, HasExclusiveProduct) == offsetof(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC, HasExclusiveSum) && sizeof(DML_CUMULATIVE_PRODUCT_OPERATOR_DESC) == sizeof(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC));
DMLC_STATIC_ASSERT(nonzero_coordinates_fields, offsetof(DML_NONZERO_COORDINATES_OPERATOR_DESC, OutputCoordinatesTensor) == 2 * DMLC_PTR && sizeof(DML_NONZERO_COORDINATES_OPERATOR_DESC) == 3 * DMLC_PTR);
DMLC_STATIC_ASSERT(fill_constant_fields, offsetof(DML_FILL_VALUE_CONSTANT_OPERATOR_DESC, Value) == DMLC_ALIGN_UP(DMLC_PTR + 4, 8) && sizeof(DML_FILL_VALUE_CONSTANT_OPERATOR_DESC) == DMLC_ALIGN_UP(DMLC_PTR + 4, 8) + 8);
DMLC_STATIC_ASSERT(fill_sequence_fields, offsetof(DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC, ValueDelta) == DMLC_ALIGN_UP(DMLC_PTR + 4, 8) + 8 && sizeof(DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC) == DMLC_ALIGN_UP(DMLC_PTR + 4, 8) + 16);
DMLC_STATIC_ASSERT(diagonal_matrix_fields, offsetof(DML_DIAGONAL_MATRIX_OPERATOR_DESC, Value) == DMLC_PTR + 4 && sizeof(DML_DIAGONAL_MATRIX_OPERATOR_DESC) == DMLC_ALIGN_UP(DMLC_PTR + 8, DMLC_PTR));
DMLC_STATIC_ASSERT(diagonal_matrix1_fields, offsetof(DML_DIAGONAL_MATRIX1_OPERATOR_DESC, Value) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, 8) && offsetof(DML_DIAGONAL_MATRIX1_OPERATOR_DESC, DiagonalFillEnd) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, 8) + 12 && sizeof(DML_DIAGONAL_MATRIX1_OPERATOR_DESC) == DMLC_ALIGN_UP(2 * DMLC_PTR + 4, 8) + 16);
DMLC_STATIC_ASSERT(reverse_subsequences_fields, offsetof(DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC, Axis) == 3 * DMLC_PTR && sizeof(DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC) == 4 * DMLC_PTR);
DMLC_STATIC_ASSERT(cast_fields, offsetof(DML_CAST_OPERATOR_DESC, OutputTensor) == DMLC_PTR && sizeof(DML_CAST_OPERATOR_DESC) == 2 * DMLC_PTR);
#endif /* DIRECTML_H */

#endif /* DIRECTML_PY_H */
