/*
 * The floor for `cuprobe doctor --level 1` on a GPU machine: the least any
 * level-1 health check must do -- dlopen libcuda and libnvidia-ml and call
 * cuInit(0) and nvmlInit_v2() -- and nothing else.  Prints its own timings and
 * peak RSS.  Build: make bench (build/bench/floor_l1)
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef int (*init_fn)(unsigned);
typedef int (*nvml_init_fn)(void);

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(void)
{
    double t0 = now_ms();
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    void *nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    double t1 = now_ms();
    int rc_cuda = -1, rc_nvml = -1;
    init_fn cu_init = NULL;
    nvml_init_fn nv_init = NULL;
    if (cuda) *(void **)&cu_init = dlsym(cuda, "cuInit");
    if (nvml) *(void **)&nv_init = dlsym(nvml, "nvmlInit_v2");
    if (cu_init) rc_cuda = cu_init(0);
    double t2 = now_ms();
    if (nv_init) rc_nvml = nv_init();
    double t3 = now_ms();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("floor: cuInit=%d nvmlInit=%d dlopen=%.1fms cuInit=%.1fms nvmlInit=%.1fms total=%.1fms maxrss=%ldkB\n",
           rc_cuda, rc_nvml, t1 - t0, t2 - t1, t3 - t2, t3 - t0, ru.ru_maxrss);
    return rc_cuda == 0 && rc_nvml == 0 ? 0 : 1;
}
