# cython: language_level=3
# The C API of libdirectml_py (include/directml_py.h), and the helpers every operator
# module of the package shares (defined in _core.pyx).
from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, uint64_t, int64_t
cimport numpy as cnp

cdef extern from "directml_py.h" nogil:
    ctypedef unsigned int UINT
    ctypedef uint64_t UINT64
    ctypedef int32_t HRESULT
    ctypedef float FLOAT
    ctypedef int BOOL

    ctypedef enum DML_TENSOR_DATA_TYPE:
        DML_TENSOR_DATA_TYPE_UNKNOWN
        DML_TENSOR_DATA_TYPE_UINT32
        DML_TENSOR_DATA_TYPE_UINT64
    ctypedef enum DML_TENSOR_TYPE:
        DML_TENSOR_TYPE_BUFFER
    ctypedef enum DML_TENSOR_FLAGS:
        DML_TENSOR_FLAG_NONE
    ctypedef enum DML_OPERATOR_TYPE:
        DML_OPERATOR_INVALID
        DML_OPERATOR_DEPTH_TO_SPACE1
        DML_OPERATOR_SPACE_TO_DEPTH1
        DML_OPERATOR_PADDING1
        DML_OPERATOR_SPLIT
        DML_OPERATOR_JOIN
        DML_OPERATOR_MAX_POOLING2
        DML_OPERATOR_MAX_UNPOOLING
        DML_OPERATOR_AVERAGE_POOLING1
        DML_OPERATOR_LP_POOLING1
        DML_OPERATOR_GATHER
        DML_OPERATOR_GATHER_ELEMENTS
        DML_OPERATOR_SCATTER_ELEMENTS
        DML_OPERATOR_GATHER_ND1
        DML_OPERATOR_SCATTER_ND
    ctypedef enum DML_DEPTH_SPACE_ORDER:
        DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW
    ctypedef enum DML_PADDING_MODE:
        DML_PADDING_MODE_CONSTANT

    ctypedef struct DML_BUFFER_TENSOR_DESC:
        DML_TENSOR_DATA_TYPE DataType
        DML_TENSOR_FLAGS Flags
        UINT DimensionCount
        const UINT* Sizes
        const UINT* Strides
        UINT64 TotalTensorSizeInBytes
        UINT GuaranteedBaseOffsetAlignment

    ctypedef struct DML_TENSOR_DESC:
        DML_TENSOR_TYPE Type
        const void* Desc

    ctypedef struct DML_OPERATOR_DESC:
        DML_OPERATOR_TYPE Type
        const void* Desc

    ctypedef union DML_SCALAR_UNION:
        uint8_t Bytes[8]
        int8_t Int8
        uint8_t UInt8
        int16_t Int16
        uint16_t UInt16
        int32_t Int32
        uint32_t UInt32
        int64_t Int64
        uint64_t UInt64
        float Float32
        double Float64

    ctypedef struct DML_DEPTH_TO_SPACE1_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT BlockSize
        DML_DEPTH_SPACE_ORDER Order

    ctypedef struct DML_SPACE_TO_DEPTH1_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT BlockSize
        DML_DEPTH_SPACE_ORDER Order

    ctypedef struct DML_PADDING1_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        DML_PADDING_MODE PaddingMode
        DML_TENSOR_DATA_TYPE PaddingValueDataType
        DML_SCALAR_UNION PaddingValue
        UINT DimensionCount
        const UINT* StartPadding
        const UINT* EndPadding

    ctypedef struct DML_SPLIT_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        UINT OutputCount
        const DML_TENSOR_DESC* OutputTensors
        UINT Axis

    ctypedef struct DML_JOIN_OPERATOR_DESC:
        UINT InputCount
        const DML_TENSOR_DESC* InputTensors
        const DML_TENSOR_DESC* OutputTensor
        UINT Axis

    ctypedef struct DML_MAX_POOLING2_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        const DML_TENSOR_DESC* OutputIndicesTensor
        UINT DimensionCount
        const UINT* Strides
        const UINT* WindowSize
        const UINT* StartPadding
        const UINT* EndPadding
        const UINT* Dilations

    # ELEMENT_WISE_IDENTITY, SLICE1, TILE (the enum values are declared here rather than in
    # DML_OPERATOR_TYPE's block above: Cython only needs their names).
    ctypedef int INT
    const DML_OPERATOR_TYPE DML_OPERATOR_ELEMENT_WISE_IDENTITY
    const DML_OPERATOR_TYPE DML_OPERATOR_SLICE1
    const DML_OPERATOR_TYPE DML_OPERATOR_TILE

    ctypedef struct DML_SCALE_BIAS:
        FLOAT Scale
        FLOAT Bias

    ctypedef struct DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        const DML_SCALE_BIAS* ScaleBias

    # CAST, fills, diagonals.
    const DML_OPERATOR_TYPE DML_OPERATOR_CAST

    ctypedef struct DML_CAST_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor

    const DML_OPERATOR_TYPE DML_OPERATOR_FILL_VALUE_CONSTANT
    const DML_OPERATOR_TYPE DML_OPERATOR_FILL_VALUE_SEQUENCE

    ctypedef struct DML_FILL_VALUE_CONSTANT_OPERATOR_DESC:
        const DML_TENSOR_DESC* OutputTensor
        DML_TENSOR_DATA_TYPE ValueDataType
        DML_SCALAR_UNION Value

    ctypedef struct DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC:
        const DML_TENSOR_DESC* OutputTensor
        DML_TENSOR_DATA_TYPE ValueDataType
        DML_SCALAR_UNION ValueStart
        DML_SCALAR_UNION ValueDelta

    const DML_OPERATOR_TYPE DML_OPERATOR_DIAGONAL_MATRIX
    const DML_OPERATOR_TYPE DML_OPERATOR_DIAGONAL_MATRIX1

    ctypedef struct DML_DIAGONAL_MATRIX1_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        DML_TENSOR_DATA_TYPE ValueDataType
        DML_SCALAR_UNION Value
        INT DiagonalFillBegin
        INT DiagonalFillEnd

    ctypedef struct DML_SLICE1_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT DimensionCount
        const UINT* InputWindowOffsets
        const UINT* InputWindowSizes
        const INT* InputWindowStrides

    ctypedef struct DML_TILE_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT RepeatsCount
        const UINT* Repeats
    ctypedef struct DML_AVERAGE_POOLING1_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT DimensionCount
        const UINT* Strides
        const UINT* WindowSize
        const UINT* StartPadding
        const UINT* EndPadding
        const UINT* Dilations
        BOOL IncludePadding

    ctypedef struct DML_LP_POOLING1_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT DimensionCount
        const UINT* Strides
        const UINT* WindowSize
        const UINT* StartPadding
        const UINT* EndPadding
        const UINT* Dilations
        UINT P

    ctypedef struct DML_MAX_UNPOOLING_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* IndicesTensor
        const DML_TENSOR_DESC* OutputTensor

    ctypedef struct DML_GATHER_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* IndicesTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT Axis
        UINT IndexDimensions

    ctypedef struct DML_GATHER_ELEMENTS_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* IndicesTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT Axis

    ctypedef struct DML_SCATTER_ELEMENTS_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* IndicesTensor
        const DML_TENSOR_DESC* UpdatesTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT Axis

    ctypedef struct DML_GATHER_ND1_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* IndicesTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT InputDimensionCount
        UINT IndicesDimensionCount
        UINT BatchDimensionCount

    ctypedef struct DML_SCATTER_ND_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* IndicesTensor
        const DML_TENSOR_DESC* UpdatesTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT InputDimensionCount
        UINT IndicesDimensionCount
    # ONE_HOT
    const DML_OPERATOR_TYPE DML_OPERATOR_ONE_HOT
    ctypedef struct DML_ONE_HOT_OPERATOR_DESC:
        const DML_TENSOR_DESC* IndicesTensor
        const DML_TENSOR_DESC* ValuesTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT Axis
    # RESAMPLE2, UPSAMPLE_2D
    const DML_OPERATOR_TYPE DML_OPERATOR_RESAMPLE2
    const DML_OPERATOR_TYPE DML_OPERATOR_UPSAMPLE_2D
    ctypedef int DML_INTERPOLATION_MODE
    ctypedef int DML_AXIS_DIRECTION
    ctypedef struct DML_SIZE_2D:
        UINT Width
        UINT Height
    ctypedef struct DML_UPSAMPLE_2D_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        DML_SIZE_2D ScaleSize
        DML_INTERPOLATION_MODE InterpolationMode
    ctypedef struct DML_RESAMPLE2_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        DML_INTERPOLATION_MODE InterpolationMode
        DML_AXIS_DIRECTION RoundingDirection
        UINT DimensionCount
        const FLOAT* Scales
        const FLOAT* InputPixelOffsets
        const FLOAT* OutputPixelOffsets
    # ROI_POOLING
    const DML_OPERATOR_TYPE DML_OPERATOR_ROI_POOLING
    ctypedef struct DML_ROI_POOLING_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* ROITensor
        const DML_TENSOR_DESC* OutputTensor
        FLOAT SpatialScale
        DML_SIZE_2D PooledSize
    # ROI_ALIGN1
    const DML_OPERATOR_TYPE DML_OPERATOR_ROI_ALIGN1
    ctypedef int DML_REDUCE_FUNCTION
    ctypedef struct DML_ROI_ALIGN1_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* ROITensor
        const DML_TENSOR_DESC* BatchIndicesTensor
        const DML_TENSOR_DESC* OutputTensor
        DML_REDUCE_FUNCTION ReductionFunction
        DML_INTERPOLATION_MODE InterpolationMode
        FLOAT SpatialScaleX
        FLOAT SpatialScaleY
        FLOAT InputPixelOffset
        FLOAT OutputPixelOffset
        FLOAT OutOfBoundsInputValue
        UINT MinimumSamplesPerOutput
        UINT MaximumSamplesPerOutput
        BOOL AlignRegionsToCorners
    # ARGMIN, ARGMAX
    const DML_OPERATOR_TYPE DML_OPERATOR_ARGMIN
    const DML_OPERATOR_TYPE DML_OPERATOR_ARGMAX
    ctypedef struct DML_ARGMAX_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT AxisCount
        const UINT* Axes
        DML_AXIS_DIRECTION AxisDirection
    # TOP_K, TOP_K1
    const DML_OPERATOR_TYPE DML_OPERATOR_TOP_K
    const DML_OPERATOR_TYPE DML_OPERATOR_TOP_K1
    ctypedef struct DML_TOP_K_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputValueTensor
        const DML_TENSOR_DESC* OutputIndexTensor
        UINT Axis
        UINT K
    ctypedef struct DML_TOP_K1_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputValueTensor
        const DML_TENSOR_DESC* OutputIndexTensor
        UINT Axis
        UINT K
        DML_AXIS_DIRECTION AxisDirection
    # CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT
    const DML_OPERATOR_TYPE DML_OPERATOR_CUMULATIVE_SUMMATION
    const DML_OPERATOR_TYPE DML_OPERATOR_CUMULATIVE_PRODUCT
    ctypedef struct DML_CUMULATIVE_SUMMATION_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT Axis
        DML_AXIS_DIRECTION AxisDirection
        BOOL HasExclusiveSum
    ctypedef struct DML_CUMULATIVE_PRODUCT_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputTensor
        UINT Axis
        DML_AXIS_DIRECTION AxisDirection
        BOOL HasExclusiveProduct
    # NONZERO_COORDINATES
    const DML_OPERATOR_TYPE DML_OPERATOR_NONZERO_COORDINATES
    ctypedef struct DML_NONZERO_COORDINATES_OPERATOR_DESC:
        const DML_TENSOR_DESC* InputTensor
        const DML_TENSOR_DESC* OutputCountTensor
        const DML_TENSOR_DESC* OutputCoordinatesTensor

    ctypedef struct DMLC_BUFFER_BINDING:
        void* Buffer
        UINT64 Offset
        UINT64 SizeInBytes

    ctypedef struct DMLC_OPERATOR:
        pass

    ctypedef struct DMLC_TENSOR_SIZES:
        UINT DimensionCount
        UINT Sizes[8]
    ctypedef enum DMLC_INFER_FLAGS:
        DMLC_INFER_FLAG_NONE
        DMLC_INFER_FLAG_CEIL_MODE

    int DMLC_VERSION
    int DMLC_VERSION_MAJOR
    int DMLC_VERSION_MINOR
    int DMLC_VERSION_PATCH
    HRESULT S_OK
    HRESULT E_NOTIMPL
    HRESULT E_POINTER
    HRESULT E_INVALIDARG
    HRESULT E_OUTOFMEMORY
    HRESULT dmlcCreateOperator(const DML_OPERATOR_DESC* desc, DMLC_OPERATOR** op)
    HRESULT dmlcExecute(DMLC_OPERATOR* op, UINT inputCount, const DMLC_BUFFER_BINDING* inputs,
                        UINT outputCount, const DMLC_BUFFER_BINDING* outputs)
    void dmlcReleaseOperator(DMLC_OPERATOR* op)
    HRESULT dmlcExecuteOperator(const DML_OPERATOR_DESC* desc, UINT inputCount, const DMLC_BUFFER_BINDING* inputs,
                                UINT outputCount, const DMLC_BUFFER_BINDING* outputs)
    HRESULT dmlcInferOutputSizes(const DML_OPERATOR_DESC* desc, UINT flags, UINT outputCount, DMLC_TENSOR_SIZES* outputs)
    HRESULT dmlcCalcBufferTensorSize(DML_TENSOR_DATA_TYPE type, UINT dimensionCount, const UINT* sizes,
                                     const UINT* strides, UINT64* sizeInBytes)
    const char* dmlcGetLastErrorMessage()
    UINT dmlcGetVersion()
    HRESULT dmlcSetThreadCount(UINT count)
    UINT dmlcGetThreadCount()


# A tensor bound for one call: the DML descs point into the struct itself, so it must not
# be copied after bind().
cdef struct Tensor:
    UINT sizes[8]
    UINT strides[8]
    DML_BUFFER_TENSOR_DESC buffer_desc
    DML_TENSOR_DESC desc
    DMLC_BUFFER_BINDING binding

# The DML_TENSOR_DATA_TYPE of an array's dtype; raises TypeError for anything else.
cdef int dml_type_of(cnp.ndarray a, str name) except -1
# x as an ndarray the core can read in place: any ndarray, DLPack, array-interface or buffer
# object without a copy (copies only negative, odd or huge strides and unaligned data).
cdef cnp.ndarray as_input(object x, str name)
# x as an ndarray by as_input's path (DLPack with its device, grad and dtype refusals, the
# array interface, the buffer protocol, array-likes) over x's own memory, but without
# as_input's dtype check and copies: for functions that look at x's shape and strides
# (negative ones included) before as_input binds it.
cdef cnp.ndarray as_ndarray(object x, str name)
# An index array (indices, lengths) as int32/int64/uint32/uint64 for the core: any integer
# dtype (narrower ones widened), bool and floats a TypeError naming fname and name.
cdef cnp.ndarray index_input(object indices, str fname, str name)
# True if as_input(x, name) would return x itself (no copy, no error).
cdef bint input_ready(object x)
# An enum argument's int value: a str in table (the spellings of dmlc._enums.spellings(cls))
# or a member of cls by one lookup, anything else through dmlc._enums.enum_value and its
# messages.
cdef int enum_arg(object value, dict table, object cls, str fname, str argname) except -1
# axis (a Python int of any size) as 0 to nd - 1; ValueError naming fname outside -nd to nd - 1.
cdef Py_ssize_t normalize_axis(object axis, int nd, str fname) except -1
# Fills t from a (which as_input or as_output accepted) and binds its memory.
cdef int bind(Tensor* t, cnp.ndarray a, int dml_type) except -1
# The array the core writes: out itself (or a view of its memory when out is a DLPack,
# array-interface or buffer object), or a fresh/temporary array when out is None or cannot
# be written in place; finish_output() copies a temporary back into out and returns out.
cdef cnp.ndarray as_output(object out, tuple shape, cnp.dtype dtype, str name)
cdef object finish_output(cnp.ndarray result, object out)
# Runs desc with the GIL released and raises the core's message on failure.
cdef int execute(const DML_OPERATOR_DESC* desc, UINT nin, const DMLC_BUFFER_BINDING* ins,
                 UINT nout, const DMLC_BUFFER_BINDING* outs) except -1
# The shape of output `slot` of desc (of nslots), as the core infers it (dmlcInferOutputSizes).
cdef tuple infer_shape(const DML_OPERATOR_DESC* desc, UINT flags, UINT nslots, UINT slot)
# The ending every single-input operator shares.  desc's input is x (bound to tin here);
# its output tensor fields are slots[0..nslots) (slots[1] may be NULL: no second output).
# Output shapes come from the core (flags: DMLC_INFER_FLAGS); outputs are out0/out1 or
# new arrays of x's dtype / dtype1 (dtype1 None: slot 1 stays unbound).  Returns the
# result, or the pair of results with dtype1.
# dtype0: out0's dtype where it is not x's (CAST).
# in_place: the operator is element-wise and may read x where it writes out0 (as DirectML
# allows ELEMENT_WISE_IDENTITY): an out0 that is exactly x's memory and layout is bound as
# it is instead of reading from a copy of x.
cdef object run_unary(DML_OPERATOR_DESC* desc, UINT flags, Tensor* tin, cnp.ndarray x, int dml_type,
                      UINT nslots, const DML_TENSOR_DESC** slot0, object out0,
                      const DML_TENSOR_DESC** slot1=*, object dtype1=*, object out1=*, str fname=*,
                      bint in_place=*, object dtype0=*)
# values (one int for all axes, or a sequence of n) into out[0:n], each minimum to 2**32-1;
# ValueError/TypeError name fname, argname and the axes (per: "dimension", "spatial axis").
cdef int uints_per_axis(object values, int n, str fname, str argname, str per, UINT minimum, UINT* out) except -1
# A pooling's window arguments for x (N, C and 1 to 3 spatial axes): returns the spatial axes.
cdef int pool_window(cnp.ndarray x, object window_size, object strides, object start_padding, object end_padding,
                     object dilations, str fname, UINT* window, UINT* stride, UINT* start, UINT* end,
                     UINT* dilation) except -1
# Raises the Python exception matching hr with the core's last message.
cdef int raise_hr(HRESULT hr) except -1
# True if the memory of a and b (as accepted by as_input/as_output) may overlap; callers
# copy an input that overlaps out=, as NumPy's ufuncs do.
cdef bint may_overlap(cnp.ndarray a, cnp.ndarray b)
# True if a and b are the same memory in the same layout: every element at one address.
cdef bint same_elements(cnp.ndarray a, cnp.ndarray b)
