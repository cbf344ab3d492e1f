/* A C99 program written against DirectML's structs: it includes directml_py.h instead of
 * <DirectML.h>, runs the DEPTH_TO_SPACE1 example of DirectML's reference page and checks
 * the documented output, then shows the error channel.  Build:
 *   cc -std=c99 depth_to_space.c $(dmlc config --cflags --libs)            */
#include "directml_py.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    UINT input[1 * 8 * 2 * 3], output[1 * 2 * 4 * 6];
    static const UINT expected[1 * 2 * 4 * 6] = {
        0, 18, 1, 19, 2, 20, 36, 54, 37, 55, 38, 56, 3, 21, 4, 22, 5, 23, 39, 57, 40, 58, 41, 59,
        9, 27, 10, 28, 11, 29, 45, 63, 46, 64, 47, 65, 12, 30, 13, 31, 14, 32, 48, 66, 49, 67, 50, 68};
    UINT inSizes[4] = {1, 8, 2, 3}, outSizes[4] = {1, 2, 4, 6};
    DML_BUFFER_TENSOR_DESC inBuf = {DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_FLAG_NONE, 4, inSizes, NULL,
                                    sizeof input, 0};
    DML_BUFFER_TENSOR_DESC outBuf = {DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_FLAG_NONE, 4, outSizes, NULL,
                                     sizeof output, 0};
    DML_TENSOR_DESC inDesc = {DML_TENSOR_TYPE_BUFFER, &inBuf}, outDesc = {DML_TENSOR_TYPE_BUFFER, &outBuf};
    DML_DEPTH_TO_SPACE1_OPERATOR_DESC d2s = {&inDesc, &outDesc, 2, DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
    DML_OPERATOR_DESC op = {DML_OPERATOR_DEPTH_TO_SPACE1, &d2s};
    DMLC_BUFFER_BINDING in = {input, 0, sizeof input}, out = {output, 0, sizeof output};
    HRESULT hr;
    UINT i;

    /* The page's input: channel c holds 9*c + (0..5). */
    for (i = 0; i < 48; ++i) input[i] = 9 * (i / 6) + i % 6;
    hr = dmlcExecuteOperator(&op, 1, &in, 1, &out);
    if (FAILED(hr)) {
        fprintf(stderr, "dmlcExecuteOperator failed: 0x%08X %s\n", (unsigned)hr, dmlcGetLastErrorMessage());
        return 1;
    }
    if (memcmp(output, expected, sizeof output) != 0) {
        fprintf(stderr, "output differs from DirectML's documented example\n");
        return 1;
    }
    printf("DEPTH_TO_SPACE1 matches the documented output (dmlc 0x%06X)\n", dmlcGetVersion());

    d2s.BlockSize = 3; /* 8 channels are not divisible by 3 * 3 */
    hr = dmlcExecuteOperator(&op, 1, &in, 1, &out);
    if (hr != E_INVALIDARG || strstr(dmlcGetLastErrorMessage(), "BlockSize * BlockSize (9)") == NULL) {
        fprintf(stderr, "expected E_INVALIDARG, got 0x%08X %s\n", (unsigned)hr, dmlcGetLastErrorMessage());
        return 1;
    }
    printf("error: %s\n", dmlcGetLastErrorMessage());
    return 0;
}
