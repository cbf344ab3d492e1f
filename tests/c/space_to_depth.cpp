// A C++ program against directml_py.h: code written for DirectML's structs compiles
// unchanged.  It creates the operator once and executes it from several threads at once.
//   c++ -std=c++11 space_to_depth.cpp $(dmlc config --cflags --libs) -pthread
#include "directml_py.h"

#include <cstdio>
#include <thread>
#include <vector>

int main()
{
    const UINT n = 2, c = 3, h = 8, w = 10, b = 2;
    std::vector<float> input(n * c * h * w);
    for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i);
    UINT inSizes[4] = {n, c, h, w}, outSizes[4] = {n, c * b * b, h / b, w / b};
    DML_BUFFER_TENSOR_DESC inBuf = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, inSizes, nullptr,
                                    input.size() * sizeof(float), 0};
    DML_BUFFER_TENSOR_DESC outBuf = inBuf;
    outBuf.Sizes = outSizes;
    DML_TENSOR_DESC inDesc{DML_TENSOR_TYPE_BUFFER, &inBuf}, outDesc{DML_TENSOR_TYPE_BUFFER, &outBuf};
    DML_SPACE_TO_DEPTH1_OPERATOR_DESC s2d{&inDesc, &outDesc, b, DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH};
    DML_OPERATOR_DESC desc{DML_OPERATOR_SPACE_TO_DEPTH1, &s2d};

    DMLC_OPERATOR* op = nullptr;
    if (FAILED(dmlcCreateOperator(&desc, &op))) {
        std::fprintf(stderr, "create failed: %s\n", dmlcGetLastErrorMessage());
        return 1;
    }
    std::vector<std::vector<float>> outputs(4, std::vector<float>(input.size()));
    std::vector<HRESULT> results(outputs.size());
    std::vector<std::thread> threads;
    for (size_t t = 0; t < outputs.size(); ++t)
        threads.emplace_back([&, t] {
            DMLC_BUFFER_BINDING in{input.data(), 0, input.size() * sizeof(float)};
            DMLC_BUFFER_BINDING out{outputs[t].data(), 0, outputs[t].size() * sizeof(float)};
            results[t] = dmlcExecute(op, 1, &in, 1, &out);
        });
    for (auto& th : threads) th.join();
    dmlcReleaseOperator(op);

    // COLUMN_ROW_DEPTH: out[n][cc*b*b + i*b + j][y][x] = in[n][cc][y*b + i][x*b + j]
    for (size_t t = 0; t < outputs.size(); ++t) {
        if (FAILED(results[t])) return 1;
        for (UINT in_ = 0; in_ < n; ++in_)
            for (UINT cc = 0; cc < c; ++cc)
                for (UINT i = 0; i < b; ++i)
                    for (UINT j = 0; j < b; ++j)
                        for (UINT y = 0; y < h / b; ++y)
                            for (UINT x = 0; x < w / b; ++x) {
                                float got = outputs[t][((in_ * c * b * b + cc * b * b + i * b + j) * (h / b) + y) * (w / b) + x];
                                float want = input[((in_ * c + cc) * h + y * b + i) * w + x * b + j];
                                if (got != want) {
                                    std::fprintf(stderr, "mismatch at thread %zu\n", t);
                                    return 1;
                                }
                            }
    }
    std::printf("SPACE_TO_DEPTH1 from %zu threads matches the reference\n", outputs.size());
    return 0;
}
