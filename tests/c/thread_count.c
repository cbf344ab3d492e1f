/* Threads that set and read the thread count while others execute an operator, small
 * (the calling thread alone) and large (split across dmlc's workers, two callers at once):
 * run under ThreadSanitizer by the tests (tests/test_c_programs.py), which must report no
 * data race.
 *   cc -std=c11 thread_count.c $(dmlc config --cflags --libs) -pthread */
#define _POSIX_C_SOURCE 200809L
#include "directml_py.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { ROUNDS = 2000 };

static void* set_counts(void* arg)
{
    (void)arg;
    for (UINT i = 0; i < ROUNDS; ++i)
        if (FAILED(dmlcSetThreadCount(i % 5))) return (void*)1;
    return NULL;
}

static void* get_counts(void* arg)
{
    (void)arg;
    for (UINT i = 0; i < ROUNDS; ++i) {
        UINT n = dmlcGetThreadCount();
        if (n < 1 || n > 1024) return (void*)1;
    }
    return NULL;
}

/* Executes a small JOIN repeatedly: every execution reads the thread count. */
static void* execute(void* arg)
{
    float a[64], b[64], out[128];
    UINT sizes[2] = {1, 64}, outSizes[2] = {1, 128};
    DML_BUFFER_TENSOR_DESC inBuf = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, sizes, NULL, sizeof a, 0};
    DML_BUFFER_TENSOR_DESC outBuf = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, outSizes, NULL, sizeof out,
                                     0};
    DML_TENSOR_DESC ins[2] = {{DML_TENSOR_TYPE_BUFFER, &inBuf}, {DML_TENSOR_TYPE_BUFFER, &inBuf}};
    DML_TENSOR_DESC outDesc = {DML_TENSOR_TYPE_BUFFER, &outBuf};
    DML_JOIN_OPERATOR_DESC join = {2, ins, &outDesc, 1};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_JOIN, &join};
    DMLC_BUFFER_BINDING bin[2] = {{a, 0, sizeof a}, {b, 0, sizeof b}}, bout = {out, 0, sizeof out};
    (void)arg;
    for (int i = 0; i < 64; ++i) { a[i] = (float)i; b[i] = (float)-i; }
    for (int r = 0; r < ROUNDS / 10; ++r) {
        if (FAILED(dmlcExecuteOperator(&desc, 2, bin, 1, &bout))) return (void*)1;
        if (out[63] != 63.0f || out[127] != -63.0f) return (void*)1;
    }
    return NULL;
}

/* Executes a JOIN of two 1 MiB inputs (large enough for several threads) repeatedly, each
 * output checked whole: a chunk lost or run twice by the thread pool shows. */
enum { LARGE = 1 << 18 };
static float execute_large_inputs[2][LARGE];
static void* execute_large(void* arg)
{
    float(*in)[LARGE] = execute_large_inputs;
    static float out[2][2 * LARGE]; /* one output per calling thread */
    float* o = out[(uintptr_t)arg];
    UINT sizes[2] = {1, LARGE}, outSizes[2] = {1, 2 * LARGE};
    DML_BUFFER_TENSOR_DESC inBuf = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, sizes, NULL, sizeof in[0], 0};
    DML_BUFFER_TENSOR_DESC outBuf = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, outSizes, NULL,
                                     sizeof out[0], 0};
    DML_TENSOR_DESC ins[2] = {{DML_TENSOR_TYPE_BUFFER, &inBuf}, {DML_TENSOR_TYPE_BUFFER, &inBuf}};
    DML_TENSOR_DESC outDesc = {DML_TENSOR_TYPE_BUFFER, &outBuf};
    DML_JOIN_OPERATOR_DESC join = {2, ins, &outDesc, 1};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_JOIN, &join};
    DMLC_BUFFER_BINDING bin[2] = {{in[0], 0, sizeof in[0]}, {in[1], 0, sizeof in[1]}}, bout = {o, 0, sizeof out[0]};
    for (int r = 0; r < 20; ++r) {
        memset(o, 0, sizeof out[0]);
        if (FAILED(dmlcExecuteOperator(&desc, 2, bin, 1, &bout))) return (void*)1;
        for (int i = 0; i < LARGE; ++i)
            if (o[i] != (float)i || o[LARGE + i] != (float)-i) return (void*)1;
    }
    return NULL;
}

int main(void)
{
    void* (*const jobs[])(void*) = {set_counts, get_counts, get_counts, execute, execute_large, execute_large};
    pthread_t threads[sizeof jobs / sizeof jobs[0]];
    int failed = 0;
    for (int i = 0; i < LARGE; ++i) {
        execute_large_inputs[0][i] = (float)i;
        execute_large_inputs[1][i] = (float)-i;
    }
    for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; ++i)
        pthread_create(&threads[i], NULL, jobs[i], (void*)(uintptr_t)(i == 5)); /* the large callers: outputs 0 and 1 */
    for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; ++i) {
        void* result;
        pthread_join(threads[i], &result);
        failed |= result != NULL;
    }
    dmlcSetThreadCount(0);
    printf("%s\n", failed ? "a thread saw a wrong result" : "thread counts set, read and used from 6 threads");
    return failed;
}
