/* cpu_count.c - how many CPUs this process may use: the default thread count.
 *
 * Not the machine's core count: a process pinned to some cores (taskset, a batch system's
 * cpuset, numactl) or in a container given a CPU quota (docker --cpus=2, a Kubernetes
 * limit) that runs one thread per core of the host only makes its own threads wait for
 * each other.  So, like Python's os.process_cpu_count() and the Go and .NET runtimes:
 *
 *   the CPUs in the affinity mask (Linux: sched_getaffinity; Windows: the process's
 *   affinity mask), lowered to a cgroup's CPU quota rounded up (cgroup v2: cpu.max
 *   "quota period"; v1: cpu.cfs_quota_us / cpu.cfs_period_us), the lowest quota of the
 *   process's cgroup and its ancestors; at least 1.
 *
 * The cgroup files are read once per process (the count is computed once), never again. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#  define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT_S */
#endif
#include "dmlc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#  include <windows.h>
#else
#  include <unistd.h>
#endif
#if defined(__linux__)
#  include <sched.h>
#endif

/* ---- cgroup quotas, from the files' text ---------------------------------------------- */

/* Reads a whole number at *p (digits only), moving p past it; -1 if there is none or it is
 * absurdly large. */
static int64_t read_count(const char** p)
{
    int64_t v = 0;
    const char* s = *p;
    if (*s < '0' || *s > '9') return -1;
    for (; *s >= '0' && *s <= '9'; ++s) {
        if (v > ((int64_t)1 << 50)) return -1;
        v = v * 10 + (*s - '0');
    }
    *p = s;
    return v;
}

static UINT quota_cpus(int64_t quota, int64_t period)
{
    uint64_t n;
    if (quota <= 0 || period <= 0) return 0;
    n = ((uint64_t)quota + (uint64_t)period - 1) / (uint64_t)period; /* 1.5 CPUs -> 2 threads */
    return n > 0xFFFFFFFFu ? 0xFFFFFFFFu : (UINT)n;
}

UINT dmlc_cgroup2_cpus(const char* cpu_max)
{
    const char* p = cpu_max;
    int64_t quota, period;
    if (!strncmp(p, "max", 3)) return 0; /* no limit */
    if ((quota = read_count(&p)) < 0 || *p++ != ' ' || (period = read_count(&p)) < 0) return 0;
    return quota_cpus(quota, period);
}

UINT dmlc_cgroup1_cpus(const char* cfs_quota_us, const char* cfs_period_us)
{
    const char *q = cfs_quota_us, *p = cfs_period_us;
    int64_t quota = read_count(&q), period = read_count(&p); /* "-1" (no limit) reads as none */
    return quota_cpus(quota, period);
}

/* The first line of a small file, or NULL. */
static const char* read_line(const char* path, char* buf, size_t size)
{
    FILE* f = fopen(path, "r");
    const char* got;
    if (!f) return NULL;
    got = fgets(buf, (int)size, f);
    fclose(f);
    return got;
}

/* The lowest quota of directory root + dir and its ancestors up to root; 0 for none. */
static UINT lowest_quota(const char* root, char* dir, int v2)
{
    UINT best = 0;
    for (;;) {
        char path[4096], a[64], b[64];
        UINT n = 0;
        size_t len = strlen(dir);
        if (v2) {
            snprintf(path, sizeof path, "%s%s/cpu.max", root, dir);
            if (read_line(path, a, sizeof a)) n = dmlc_cgroup2_cpus(a);
        } else {
            snprintf(path, sizeof path, "%s%s/cpu.cfs_quota_us", root, dir);
            if (read_line(path, a, sizeof a)) {
                snprintf(path, sizeof path, "%s%s/cpu.cfs_period_us", root, dir);
                if (read_line(path, b, sizeof b)) n = dmlc_cgroup1_cpus(a, b);
            }
        }
        if (n && (!best || n < best)) best = n;
        if (!len) return best;
        while (len && dir[len - 1] != '/') --len; /* up one level ("/a/b" -> "/a" -> "") */
        dir[len ? len - 1 : 0] = '\0';
    }
}

UINT dmlc_cgroup_cpus(const char* proc_self_cgroup, const char* root)
{
    /* /proc/self/cgroup: "0::/path" for cgroup v2, "N:cpu,cpuacct:/path" for v1's cpu
     * controller.  The path is the cgroup's under the hierarchy's mount, root/ (v2) or
     * root/cpu/ (v1, also linked as cpu,cpuacct). */
    FILE* f = fopen(proc_self_cgroup, "r");
    char line[4096], dir[4096], mount[4096];
    UINT best = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        char *controllers = strchr(line, ':'), *path, *end;
        int v2, v1cpu = 0;
        UINT n;
        if (!controllers || !(path = strchr(++controllers, ':'))) continue;
        *path++ = '\0';
        if ((end = strchr(path, '\n')) != NULL) *end = '\0';
        v2 = !strcmp(line, "0:") && !*controllers;
        for (char* c = controllers; *c && !v2;) { /* "cpu" among v1's comma-separated controllers */
            size_t len = strcspn(c, ",");
            if (len == 3 && !strncmp(c, "cpu", 3)) v1cpu = 1;
            c += len + (c[len] == ',');
        }
        if (!v2 && !v1cpu) continue;
        if (*path != '/' || strlen(path) >= sizeof dir) continue;
        snprintf(dir, sizeof dir, "%s", strcmp(path, "/") ? path : "");
        snprintf(mount, sizeof mount, v2 ? "%s" : "%s/cpu", root);
        n = lowest_quota(mount, dir, v2);
        if (!n && strcmp(path, "/")) {
            /* In a container the process's own cgroup is often mounted as the root itself. */
            dir[0] = '\0';
            n = lowest_quota(mount, dir, v2);
        }
        if (n && (!best || n < best)) best = n;
    }
    fclose(f);
    return best;
}

/* ---- The affinity mask ---------------------------------------------------------------- */

static UINT affinity_cpus(void)
{
#if defined(__linux__)
    for (int cpus = 1024; cpus <= (1 << 20); cpus *= 2) {
        cpu_set_t* set = CPU_ALLOC((size_t)cpus);
        size_t size = CPU_ALLOC_SIZE((size_t)cpus);
        int got, n = 0;
        if (!set) break;
        got = sched_getaffinity(0, size, set);
        if (got == 0) n = CPU_COUNT_S(size, set);
        CPU_FREE(set);
        if (got == 0) return n > 0 ? (UINT)n : 1;
        /* EINVAL: the kernel's mask is larger than this one */
    }
#elif defined(_WIN32)
    DWORD_PTR process, system;
    if (GetActiveProcessorGroupCount() == 1 && GetProcessAffinityMask(GetCurrentProcess(), &process, &system)) {
        UINT n = 0;
        for (; process; process &= process - 1) ++n;
        if (n) return n;
    }
    return (UINT)GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
#endif
#if defined(_SC_NPROCESSORS_ONLN)
    {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        return n > 0 ? (UINT)n : 1;
    }
#else
    return 1;
#endif
}

UINT dmlc_process_cpu_count(void)
{
    UINT n = affinity_cpus();
#if defined(__linux__)
    {
        UINT quota = dmlc_cgroup_cpus("/proc/self/cgroup", "/sys/fs/cgroup");
        if (quota && quota < n) n = quota;
    }
#endif
    return n ? n : 1;
}
