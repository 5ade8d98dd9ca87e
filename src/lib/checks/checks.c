/*
 * The check table and the runner.
 *
 * To add a check: write `void cp_check_NAME(const cp_facts *, cp_finding *)`
 * in the file of its layer, declare it below, and add a row in the right
 * place: rows go bottom layer first and, inside a layer, most fundamental
 * first, because the first failure of the lowest failing layer is the root
 * cause.  Ids are stable: they are part of the JSON output.
 */
#include <stdlib.h>
#include <string.h>
#include "util/alloc.h"
#include "check.h"
#include "framework_checks.h"
#include "libraries_checks.h"

#define HW CP_LAYER_HARDWARE
#define KE CP_LAYER_KERNEL
#define SY CP_LAYER_SYSTEM
#define DR CP_LAYER_DRIVER
#define RT CP_LAYER_RUNTIME
#define LI CP_LAYER_LIBRARIES
#define FW CP_LAYER_FRAMEWORK

const cp_check cp_checks[] = {
    { "hardware.pci_gpu",        "GPU on the PCI bus",        HW, 0 | HEADLINE,                          cp_check_pci_gpu },
    { "hardware.xid",            "hardware XIDs",             HW, 0,                          cp_check_xid },
    { "hardware.pcie_link",      "PCIe link",                 HW, NEED_GPU_ON_BUS,            cp_check_pcie_link },
    { "hardware.memory_health",  "memory health",             HW, NEED_NVML,                  cp_check_memory_health },
    { "hardware.clocks",         "clocks and throttling",     HW, NEED_NVML,                  cp_check_clocks },
    { "kernel.nouveau",          "nouveau",                   KE, 0,                          cp_check_nouveau },
    { "kernel.nvidia_module",    "nvidia kernel module",      KE, NEED_GPU_ON_BUS | HEADLINE,            cp_check_nvidia_module },
    { "kernel.gpu_bound",        "GPU bound to nvidia",       KE, NEED_GPU_ON_BUS,            cp_check_gpu_bound },
    { "kernel.uvm",              "nvidia_uvm module",         KE, NEED_GPU_ON_BUS,            cp_check_uvm },
    { "kernel.devnodes",         "device nodes",              KE, NEED_GPU_ON_BUS,            cp_check_devnodes },
    { "system.devnode_access",   "device node permissions",   SY, NEED_GPU_ON_BUS,            cp_check_devnode_access },
    { "system.visibility",       "visibility variables",      SY, 0 | HEADLINE,                          cp_check_visibility },
    { "system.container",        "container",                 SY, 0,                          cp_check_container },
    { "system.compute_mode",     "compute mode",              SY, NEED_NVML,                  cp_check_compute_mode },
    { "system.mig",              "MIG",                       SY, NEED_NVML,                  cp_check_mig },
    { "system.gpu_processes",    "other processes on the GPU", SY, NEED_NVML,                 cp_check_gpu_processes },
    { "system.memory_headroom",  "memory headroom",           SY, NEED_NVML,                  cp_check_memory_headroom },
    { "driver.libcuda",          "libcuda",                   DR, 0,                          cp_check_libcuda },
    { "driver.version_match",    "driver versions agree",     DR, 0,                          cp_check_version_match },
    { "driver.compat",           "cuda-compat libcuda",       DR, 0,                          cp_check_compat },
    { "driver.nvml",             "NVML",                      DR, 0,                          cp_check_nvml },
    { "driver.cuinit",           "cuInit",                    DR, 0 | HEADLINE,                          cp_check_cuinit },
    { "driver.devices",          "CUDA devices",              DR, NEED_CUDA_INIT,             cp_check_devices },
    { "driver.xid",              "driver XIDs",               DR, 0,                          cp_check_xid },
    { "runtime.toolkits",        "CUDA toolkits",             RT, 0 | HEADLINE,                          cp_check_toolkits },
    { "runtime.stubs_on_path",   "stub libcuda on the path",  RT, 0,                          cp_check_stubs_on_path },
    { "runtime.driver_compat",   "runtime vs driver",         RT, 0,                          cp_check_driver_compat },
    { "libraries.found",         "CUDA libraries",            LI, 0 | HEADLINE,               cp_check_libraries_found },
    { "libraries.load",          "libraries load",            LI, 0,                          cp_check_libraries_load },
    { "libraries.driver",        "libraries vs driver",       LI, 0,                          cp_check_libraries_driver },
    { "libraries.shadow",        "shadowed library copies",   LI, 0,                          cp_check_libraries_shadow },
    { "framework.found",         "frameworks installed",      FW, 0 | HEADLINE,               cp_check_framework_found },
    { "framework.cuda",          "framework CUDA vs driver",  FW, 0,                          cp_check_framework_cuda },
    { "framework.arch",          "framework GPU code",        FW, 0,                          cp_check_framework_arch },
    { "framework.libs",          "CUDA libraries frameworks get", FW, 0,                      cp_check_framework_libs },
    { "framework.conflicts",     "CUDA majors per environment", FW, 0,                        cp_check_framework_conflicts },
    { "application.xid",         "application XIDs",          CP_LAYER_APPLICATION, 0,        cp_check_xid },
    { NULL, NULL, HW, 0, NULL }
};

/* An unmet need becomes a skip with this reason; NULL when all are met. */
static const char *unmet(const cp_facts *f, unsigned needs, int level)
{
    if ((needs & NEED_GPU_ON_BUS) && cp_gpus_on_bus(f) == 0 && f->host.procfs.ngpus == 0)
        return "no NVIDIA GPU on the PCI bus";
    if ((needs & NEED_NVML) && !cp_nvml_ok(f)) return "NVML did not initialise (see driver.nvml)";
    if ((needs & NEED_CUDA_INIT) && !cp_cuda_ok(f)) return "cuInit did not succeed (see driver.cuinit)";
    if ((needs & NEED_LEVEL2) && level < 2) return "needs --level 2";
    return NULL;
}

static int severity(cp_status s)
{
    switch (s) {
    case CP_FAIL: return 3;
    case CP_WARN: return 2;
    case CP_PASS: return 1;
    default: return 0;
    }
}

static void diagnose(cp_report *r)
{
    /* a passing layer is summed up by its HEADLINE check, not by whichever passed first */
    r->root = -1;
    for (int l = 0; l < CP_LAYER_COUNT; l++) { r->layer_status[l] = CP_SKIP; r->layer_summary[l] = -1; }
    for (int i = 0; i < r->nfindings; i++) {
        const cp_finding *x = &r->findings[i];
        int l = x->layer, cur = r->layer_summary[l];
        int better = cur < 0 || severity(x->status) > severity(r->findings[cur].status) ||
                     (x->status == CP_PASS && r->findings[cur].status == CP_PASS && (cp_checks[i].needs & HEADLINE)
                      && !(cp_checks[cur].needs & HEADLINE));
        if (better) {
            r->layer_summary[l] = i;
            r->layer_status[l] = x->status;
        }
    }
    for (int want = CP_FAIL; want >= CP_WARN && r->root < 0; want--)
        for (int l = 0; l < CP_LAYER_COUNT && r->root < 0; l++)
            if (r->layer_status[l] == (cp_status)want) r->root = r->layer_summary[l];
    if (r->root >= 0 && r->findings[r->root].status == CP_FAIL)
        for (int l = r->findings[r->root].layer + 1; l < CP_LAYER_COUNT; l++) r->layer_status[l] = CP_BLOCKED;
}

/* Run the checks and diagnose; see report.h. */
int cp_doctor(const cp_facts *f, int level, cp_report *r)
{
    int n = 0;
    while (cp_checks[n].id) n++;
    memset(r, 0, sizeof *r);
    r->findings = cp_calloc((size_t)n, sizeof *r->findings);
    if (!r->findings) return -1;
    r->level = level;
    for (int i = 0; i < n; i++) {
        const cp_check *c = &cp_checks[i];
        cp_finding *o = &r->findings[r->nfindings++];
        o->check = c->id;
        o->title = c->title;
        o->layer = c->layer;
        const char *why = unmet(f, c->needs, level);
        if (why) { cp_set(o, CP_SKIP, "%s", why); continue; }
        c->fn(f, o);
        if ((o->status == CP_WARN || o->status == CP_FAIL) && !o->fix[0])
            cp_fix(o, "see the evidence");   /* never leave a person without a next step */
    }
    diagnose(r);
    return 0;
}

/* Free a report's findings. */
void cp_report_free(cp_report *r)
{
    free(r->findings);
    memset(r, 0, sizeof *r);
}

/* Exit code of a report. */
int cp_report_exit_code(const cp_report *r)
{
    if (r->root < 0) return CP_EXIT_HEALTHY;
    return r->findings[r->root].status == CP_FAIL ? CP_EXIT_FAIL : CP_EXIT_WARN;
}

/* Layer names, bottom up. */
const char *cp_layer_name(cp_layer l)
{
    static const char *const names[CP_LAYER_COUNT] = { "hardware", "kernel", "system", "driver",
        "runtime", "libraries", "framework", "application" };
    return (unsigned)l < CP_LAYER_COUNT ? names[l] : "unknown";
}

/* Status names. */
const char *cp_status_name(cp_status s)
{
    static const char *const names[] = { "pass", "warn", "fail", "skip", "blocked" };
    return (unsigned)s <= CP_BLOCKED ? names[s] : "unknown";
}
