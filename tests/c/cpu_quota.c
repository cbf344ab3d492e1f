/* The default thread count's reading of cgroup CPU quotas, fed file contents by the tests
 * (tests/test_cpu_count.py), built together with the core's src/cpu_count.c:
 *   cpu_quota v2 CPU_MAX_TEXT           the CPUs a cgroup v2 cpu.max allows (0: no limit)
 *   cpu_quota v1 QUOTA_TEXT PERIOD_TEXT the same from v1's cpu.cfs_quota_us, cpu.cfs_period_us
 *   cpu_quota cgroup PROC_FILE ROOT     the lowest quota of the cgroups PROC_FILE (in
 *                                       /proc/self/cgroup's format) names under ROOT
 * and with no argument the count for this process itself (what CI's sanitizer stage runs). */
#include "directml_py.h"

#include <stdio.h>
#include <string.h>

/* The core's internal functions (src/dmlc_internal.h). */
UINT dmlc_process_cpu_count(void);
UINT dmlc_cgroup2_cpus(const char* cpu_max);
UINT dmlc_cgroup1_cpus(const char* cfs_quota_us, const char* cfs_period_us);
UINT dmlc_cgroup_cpus(const char* proc_self_cgroup, const char* root);

int main(int argc, char** argv)
{
    if (argc == 3 && !strcmp(argv[1], "v2"))
        printf("%u\n", dmlc_cgroup2_cpus(argv[2]));
    else if (argc == 4 && !strcmp(argv[1], "v1"))
        printf("%u\n", dmlc_cgroup1_cpus(argv[2], argv[3]));
    else if (argc == 4 && !strcmp(argv[1], "cgroup"))
        printf("%u\n", dmlc_cgroup_cpus(argv[2], argv[3]));
    else if (argc == 1)
        printf("this process may use %u CPUs\n", dmlc_process_cpu_count());
    else {
        fprintf(stderr, "usage: cpu_quota [v2 TEXT | v1 QUOTA PERIOD | cgroup PROC_FILE ROOT]\n");
        return 2;
    }
    return 0;
}
