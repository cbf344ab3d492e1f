/* A C99 program written against DirectML's structs: the SLICE1 page's example with a
 * negative stride, then an ELEMENT_WISE_IDENTITY with a ScaleBias run in place (the
 * output bound to the input's memory, as DirectML allows), then a TILE.  Build:
 *   cc -std=c99 slice_identity.c $(dmlc config --cflags --libs)            */
#include "directml_py.h"

#include <stdio.h>
#include <string.h>

static int check(HRESULT hr, const char* what)
{
    if (FAILED(hr)) {
        fprintf(stderr, "%s failed: 0x%08X %s\n", what, (unsigned)hr, dmlcGetLastErrorMessage());
        return 1;
    }
    return 0;
}

int main(void)
{
    FLOAT input[16], sliced[4], tiled[16];
    static const FLOAT expected[4] = {14, 16, 6, 8};            /* the page's example 2 */
    static const FLOAT scaled[4] = {38, 42, 22, 26};            /* x * 2 + 10 */
    UINT inSizes[4] = {1, 1, 4, 4}, outSizes[4] = {1, 1, 2, 2}, tileSizes[4] = {1, 1, 4, 4};
    UINT offsets[4] = {0, 0, 0, 1}, windowSizes[4] = {1, 1, 4, 3}, repeats[4] = {1, 1, 2, 2};
    INT strides[4] = {1, 1, -2, 2};
    DML_BUFFER_TENSOR_DESC inBuf = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, inSizes, NULL,
                                    sizeof input, 0};
    DML_BUFFER_TENSOR_DESC outBuf = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, outSizes, NULL,
                                     sizeof sliced, 0};
    DML_BUFFER_TENSOR_DESC tileBuf = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, tileSizes, NULL,
                                      sizeof tiled, 0};
    DML_TENSOR_DESC inDesc = {DML_TENSOR_TYPE_BUFFER, &inBuf}, outDesc = {DML_TENSOR_TYPE_BUFFER, &outBuf};
    DML_TENSOR_DESC tileDesc = {DML_TENSOR_TYPE_BUFFER, &tileBuf};
    DML_SLICE1_OPERATOR_DESC slice = {&inDesc, &outDesc, 4, offsets, windowSizes, strides};
    DML_SCALE_BIAS scaleBias = {2.0f, 10.0f};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity = {&outDesc, &outDesc, &scaleBias};
    DML_TILE_OPERATOR_DESC tile = {&outDesc, &tileDesc, 4, repeats};
    DML_OPERATOR_DESC sliceOp = {DML_OPERATOR_SLICE1, &slice};
    DML_OPERATOR_DESC identityOp = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identity};
    DML_OPERATOR_DESC tileOp = {DML_OPERATOR_TILE, &tile};
    DMLC_BUFFER_BINDING in = {input, 0, sizeof input}, out = {sliced, 0, sizeof sliced};
    DMLC_BUFFER_BINDING tileOut = {tiled, 0, sizeof tiled};
    UINT i;

    for (i = 0; i < 16; ++i) input[i] = (FLOAT)(i + 1);
    if (check(dmlcExecuteOperator(&sliceOp, 1, &in, 1, &out), "SLICE1")) return 1;
    if (memcmp(sliced, expected, sizeof sliced) != 0) {
        fprintf(stderr, "SLICE1 differs from DirectML's documented example\n");
        return 1;
    }
    printf("SLICE1 with a negative stride matches the documented output\n");

    if (check(dmlcExecuteOperator(&identityOp, 1, &out, 1, &out), "ELEMENT_WISE_IDENTITY in place")) return 1;
    if (memcmp(sliced, scaled, sizeof sliced) != 0) {
        fprintf(stderr, "ELEMENT_WISE_IDENTITY in place gave the wrong values\n");
        return 1;
    }
    printf("ELEMENT_WISE_IDENTITY ran in place: %g %g %g %g\n", sliced[0], sliced[1], sliced[2], sliced[3]);

    if (check(dmlcExecuteOperator(&tileOp, 1, &out, 1, &tileOut), "TILE")) return 1;
    for (i = 0; i < 16; ++i)
        if (tiled[i] != sliced[(i / 4 % 2) * 2 + i % 2]) {
            fprintf(stderr, "TILE element %u is %g\n", i, tiled[i]);
            return 1;
        }
    printf("TILE repeated the 2 x 2 block twice each way\n");

    strides[2] = 0;
    if (dmlcExecuteOperator(&sliceOp, 1, &in, 1, &out) != E_INVALIDARG) return 1;
    printf("error: %s\n", dmlcGetLastErrorMessage());
    return 0;
}
