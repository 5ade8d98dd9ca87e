/*
 * Where the probes' memory goes: peak RSS (VmHWM) after each step of what
 * the libcuda and NVML probes do, with nvmlInit_v2 or nvmlInitWithFlags.
 * Build: make bench (build/bench/probe_rss)
 * Run:   build/bench/probe_rss cuda | nvml | nvml-noattach
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static long hwm_kb(const char *what)
{
    char line[256];
    long hwm = -1, rss = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f)) {
        sscanf(line, "VmHWM: %ld", &hwm);
        sscanf(line, "VmRSS: %ld", &rss);
    }
    if (f) fclose(f);
    printf("  %-28s VmHWM %6ld kB  VmRSS %6ld kB\n", what, hwm, rss);
    return hwm;
}

typedef int (*fn_i)(void);
typedef int (*fn_u)(unsigned);
typedef int (*fn_pu)(unsigned *);
typedef int (*fn_up)(unsigned, void **);
typedef int (*fn_pp)(void *, void *);
typedef int (*fn_ppp)(void *, unsigned *, void *);

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "nvml";
    printf("%s:\n", mode);
    hwm_kb("start");
    if (strcmp(mode, "cuda") == 0) {
        void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        hwm_kb("dlopen libcuda");
        fn_u init = NULL;
        if (h) *(void **)&init = dlsym(h, "cuInit");
        int r = init ? init(0) : -1;
        hwm_kb(r == 0 ? "cuInit ok" : "cuInit failed");
        return 0;
    }
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    hwm_kb("dlopen libnvidia-ml");
    if (!h) return 1;
    int r;
    if (strcmp(mode, "nvml-noattach") == 0) {
        fn_u init;
        *(void **)&init = dlsym(h, "nvmlInitWithFlags");
        r = init ? init(2) : -1;          /* NVML_INIT_FLAG_NO_ATTACH */
    } else {
        fn_i init;
        *(void **)&init = dlsym(h, "nvmlInit_v2");
        r = init ? init() : -1;
    }
    hwm_kb(r == 0 ? "init ok" : "init failed");
    fn_pu count;
    fn_up handle;
    fn_pp mem;
    fn_ppp procs;
    *(void **)&count = dlsym(h, "nvmlDeviceGetCount_v2");
    *(void **)&handle = dlsym(h, "nvmlDeviceGetHandleByIndex_v2");
    *(void **)&mem = dlsym(h, "nvmlDeviceGetMemoryInfo");
    *(void **)&procs = dlsym(h, "nvmlDeviceGetComputeRunningProcesses_v3");
    unsigned n = 0;
    if (count) count(&n);
    for (unsigned i = 0; i < n; i++) {
        void *d = NULL;
        if (handle(i, &d) != 0) continue;
        hwm_kb("handle");
        unsigned long long m[3];
        mem(d, m);
        hwm_kb("memory info");
        unsigned np = 0;
        procs(d, &np, NULL);
        hwm_kb("running processes");
    }
    return 0;
}
