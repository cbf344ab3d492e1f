/* parallel_for.c - the thread pool alone: dmlc_parallel_for against OpenMP's static schedule
 * and one thread, on a 2 MiB copy cut into 1024 rows (the size of a typical tensor call).
 *
 * Build it from the checkout's root, with the core's sources (dmlc_parallel_for is internal):
 *   cc -std=gnu11 -O2 -fopenmp -pthread -DDMLC_BUILDING_LIBRARY -Iinclude -Isrc \
 *      bench/parallel_for.c src/\*.c src/ops/\*.c src/kernels/\*.c -o parallel_for
 *   ./parallel_for          (DMLC_NUM_THREADS and OMP_NUM_THREADS choose the thread counts)
 * Without -fopenmp the OpenMP row is left out.  Each row is the best of 40 runs of 50 calls. */
#include "dmlc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FLOATS ((uint64_t)1 << 19)
#define ROWS 1024u
#define ROW (FLOATS / ROWS)

static float *src, *dst;

static void copy_rows(void* ctx, uint64_t begin, uint64_t end)
{
    (void)ctx;
    memcpy(dst + begin * ROW, src + begin * ROW, (size_t)((end - begin) * ROW * sizeof(float)));
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void run(int how)
{
    double best = 1e9;
    int rep, call;
    for (rep = 0; rep < 40; ++rep) {
        double t = seconds();
        for (call = 0; call < 50; ++call) {
            if (how == 0) {
                copy_rows(NULL, 0, ROWS);
            } else if (how == 1) {
                dmlc_parallel_for(ROWS, FLOATS * 2 * sizeof(float), copy_rows, NULL);
            } else {
#ifdef _OPENMP
                int r;
#  pragma omp parallel for schedule(static)
                for (r = 0; r < (int)ROWS; ++r) copy_rows(NULL, (uint64_t)r, (uint64_t)r + 1);
#endif
            }
        }
        t = (seconds() - t) / 50;
        if (t < best) best = t;
    }
    printf("%-26s %8.1f us\n", how == 0 ? "one thread" : how == 1 ? "dmlc_parallel_for" : "OpenMP static schedule",
           best * 1e6);
}

int main(void)
{
    src = malloc(FLOATS * sizeof(float));
    dst = malloc(FLOATS * sizeof(float));
    if (!src || !dst) return 1;
    memset(src, 1, FLOATS * sizeof(float));
    memset(dst, 0, FLOATS * sizeof(float));
    printf("2 MiB copy in %u rows; dmlc threads: %u\n", ROWS, dmlc_thread_count());
    run(0);
    run(1);
#ifdef _OPENMP
    run(2);
#endif
    free(src);
    free(dst);
    return 0;
}
