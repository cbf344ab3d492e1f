/* unload.c - a plugin host's life with libdirectml_py: dlopen it, call dmlcInferOutputSizes
 * and dmlcExecuteOperator from a worker thread, dlclose it while that thread is still
 * alive, then let the thread end and join it.
 *
 * Each calling thread holds a cache that the library frees when the thread ends (a
 * thread-exit destructor, code of the library), so the library keeps itself loaded once it
 * has registered one (src/cache.c, "Unloading"): the worker's exit must not crash.
 *
 * Usage: unload LIBRARY_PATH (or DMLC_LIBRARY in the environment).  Prints one line and
 * exits 0 when everything matched; 1 with a message otherwise; a crash is the bug. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "directml_py.h"

typedef HRESULT (*infer_fn)(const DML_OPERATOR_DESC*, UINT, UINT, DMLC_TENSOR_SIZES*);
typedef HRESULT (*execute_fn)(const DML_OPERATOR_DESC*, UINT, const DMLC_BUFFER_BINDING*, UINT,
                              const DMLC_BUFFER_BINDING*);
typedef const char* (*message_fn)(void);

static infer_fn g_infer;
static execute_fn g_execute;
static message_fn g_message;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cond = PTHREAD_COND_INITIALIZER;
static int g_called, g_closed, g_failed;
static char g_error[512];

static void set_state(int* flag)
{
    pthread_mutex_lock(&g_lock);
    *flag = 1;
    pthread_cond_broadcast(&g_cond);
    pthread_mutex_unlock(&g_lock);
}

static void wait_for(const int* flag)
{
    pthread_mutex_lock(&g_lock);
    while (!*flag) pthread_cond_wait(&g_cond, &g_lock);
    pthread_mutex_unlock(&g_lock);
}

/* TILE of a 2 x 2 float block, repeated twice along each axis: both calls, then wait for
 * the main thread to dlclose the library, then end (which runs the thread-exit destructor). */
static void* worker(void* arg)
{
    static const UINT in_sizes[2] = {2, 2}, out_sizes[2] = {4, 4}, repeats[2] = {2, 2};
    float x[4] = {1, 2, 3, 4}, y[16];
    DML_BUFFER_TENSOR_DESC in_buf = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, in_sizes, NULL,
                                     sizeof x, 0};
    DML_BUFFER_TENSOR_DESC out_buf = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, out_sizes, NULL,
                                      sizeof y, 0};
    DML_TENSOR_DESC in_t = {DML_TENSOR_TYPE_BUFFER, &in_buf}, out_t = {DML_TENSOR_TYPE_BUFFER, &out_buf};
    DML_TILE_OPERATOR_DESC tile = {&in_t, &out_t, 2, repeats};
    DML_OPERATOR_DESC op = {DML_OPERATOR_TILE, &tile};
    DMLC_BUFFER_BINDING in_b = {x, 0, sizeof x}, out_b = {y, 0, sizeof y};
    DMLC_TENSOR_SIZES sizes;
    HRESULT hr;
    (void)arg;
    if ((hr = g_infer(&op, 0, 1, &sizes)) != S_OK || sizes.DimensionCount != 2 || sizes.Sizes[0] != 4 ||
        sizes.Sizes[1] != 4) {
        snprintf(g_error, sizeof g_error, "dmlcInferOutputSizes: hr 0x%08x, %s", (unsigned)hr, g_message());
        g_failed = 1;
    } else if ((hr = g_execute(&op, 1, &in_b, 1, &out_b)) != S_OK) {
        snprintf(g_error, sizeof g_error, "dmlcExecuteOperator: hr 0x%08x, %s", (unsigned)hr, g_message());
        g_failed = 1;
    } else if (y[0] != 1 || y[3] != 2 || y[15] != 4 || y[10] != 1) {
        snprintf(g_error, sizeof g_error, "TILE gave %g %g %g %g", y[0], y[3], y[10], y[15]);
        g_failed = 1;
    }
    set_state(&g_called);
    wait_for(&g_closed);
    return NULL;
}

int main(int argc, char** argv)
{
    const char* path = argc > 1 ? argv[1] : getenv("DMLC_LIBRARY");
    void* lib;
    pthread_t thread;
    if (!path || !*path) {
        fprintf(stderr, "usage: unload LIBRARY_PATH (or DMLC_LIBRARY=LIBRARY_PATH unload)\n");
        return 2;
    }
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("error: dlopen: %s\n", dlerror());
        return 1;
    }
    /* POSIX's way to take a function pointer from dlsym without a cast ISO C forbids. */
    *(void**)&g_infer = dlsym(lib, "dmlcInferOutputSizes");
    *(void**)&g_execute = dlsym(lib, "dmlcExecuteOperator");
    *(void**)&g_message = dlsym(lib, "dmlcGetLastErrorMessage");
    if (!g_infer || !g_execute || !g_message) {
        printf("error: dlsym: %s\n", dlerror());
        return 1;
    }
    if (pthread_create(&thread, NULL, worker, NULL) != 0) {
        printf("error: pthread_create failed\n");
        return 1;
    }
    wait_for(&g_called);
    if (dlclose(lib) != 0) {
        printf("error: dlclose: %s\n", dlerror());
        return 1;
    }
    set_state(&g_closed);
    pthread_join(thread, NULL);
    if (g_failed) {
        printf("error: %s\n", g_error);
        return 1;
    }
    printf("unload: a thread that called the library ended after dlclose\n");
    return 0;
}
