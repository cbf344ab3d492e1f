/* fill.c - one value stored into every element of a strided tensor: FILL_VALUE_CONSTANT's
 * whole output, ONE_HOT's OffValue before its OnValues are written.
 *
 * Storing never looks at the value: the kernels dispatch on element size (1, 2, 4, 8 bytes)
 * and copy the value's bits.  A packed tensor (one run after merging dimensions) is filled
 * by plain stores split across threads, or, from DMLC_STREAM_MIN_BYTES on, by non-temporal
 * stores (src/kernels/stream.c), which skip reading the lines they overwrite (dmlc bench on
 * 2 shared cores: ONE_HOT's 32 MiB output in 1.2 ms instead of 2.2 to 2.8 ms; 10^7 float32
 * FILL_VALUE_CONSTANT at 20 GB/s instead of 12).  Any other layout is a copy plan whose
 * source is the one value with every stride 0. */
#include "../dmlc_internal.h"

void dmlc_fill_plan_init(dmlc_fill_plan* fp, const dmlc_tensor* t)
{
    uint64_t sizes[DMLC_MAX_DIMS];
    int64_t ds[DMLC_MAX_DIMS], ss[DMLC_MAX_DIMS];
    for (UINT k = 0; k < t->ndim; ++k) {
        sizes[k] = t->sizes[k];
        ds[k] = (int64_t)t->strides[k];
        ss[k] = 0;
    }
    dmlc_copy_plan_init(&fp->plan, t->elem_size, t->ndim, sizes, ds, ss);
    fp->count = t->count;
    /* One element, or every element one step after the last: the zero-stride source merged
     * into a single run. */
    fp->packed = fp->plan.ndim == 0 || (fp->plan.ndim == 1 && fp->plan.dst_strides[0] == 1);
    fp->stream = fp->packed && DMLC_HAVE_STREAM && dmlc_cpu_has(DMLC_CPU_SSE2) &&
                 fp->count * t->elem_size >= DMLC_STREAM_MIN_BYTES;
}

typedef struct fill_job {
    const dmlc_fill_plan* fp;
    char* dst;
    const void* value;
} fill_job;

#define FILL_RUN(NAME, T)                                                                                  \
    static void fill_##NAME(char* out, const void* value, uint64_t begin, uint64_t end)                   \
    {                                                                                                      \
        T v, *o = (T*)out;                                                                                 \
        memcpy(&v, value, sizeof v);                                                                       \
        for (uint64_t i = begin; i < end; ++i) o[i] = v;                                                   \
    }
FILL_RUN(u8, uint8_t)
FILL_RUN(u16, uint16_t)
FILL_RUN(u32, uint32_t)
FILL_RUN(u64, uint64_t)
#undef FILL_RUN

static void fill_range(void* ctx, uint64_t begin, uint64_t end)
{
    const fill_job* job = (const fill_job*)ctx;
    const UINT es = job->fp->plan.elem_size;
    if (job->fp->stream) {
        dmlc_fill_stream_lines(job->dst + begin * es, (size_t)((end - begin) * es), job->value, es);
        dmlc_stream_fence();
        return;
    }
    switch (job->fp->plan.elem_size) {
    case 1: fill_u8(job->dst, job->value, begin, end); break;
    case 2: fill_u16(job->dst, job->value, begin, end); break;
    case 4: fill_u32(job->dst, job->value, begin, end); break;
    default: fill_u64(job->dst, job->value, begin, end); break;
    }
}

void dmlc_fill_run(const dmlc_fill_plan* fp, void* dst, const void* value)
{
    fill_job job;
    if (!fp->packed) {
        dmlc_copy_run(&fp->plan, dst, value);
        return;
    }
    job.fp = fp;
    job.dst = (char*)dst;
    job.value = value;
    dmlc_parallel_for(fp->count, fp->count * fp->plan.elem_size, fill_range, &job);
}
