/*
 * The explain knowledge base as one list: the curated tables of
 * signals_*.c, then a generic row for every CUresult and nvmlReturn_t name in
 * errors.c that no curated row claims, so a pasted CUDA_ERROR_X or
 * NVML_ERROR_X name is always explained.  A generic row's layer, fix and
 * check come from the range tables below.
 *
 * To add a curated table: declare it in signals.h and add it to `tables`.
 */
#include <stdint.h>
#include "kb.h"
#include "signals.h"

static const cp_signal *const tables[] = {
    cp_signals_cuda, cp_signals_stack, cp_signals_libs, cp_signals_frameworks, NULL
};

typedef struct {
    int lo, hi;               /* code range, inclusive */
    cp_layer layer;
    const char *fix;
    const char *check;
} code_rule;

#define F_APP "a program bug or misuse of the API: rerun with CUDA_LAUNCH_BLOCKING=1 and compute-sanitizer to find the call"
#define F_STICKY "the process must restart; run it under compute-sanitizer to find the faulting kernel"

/* CUresult ranges, first match wins (cuda.h groups codes by hundreds). */
static const code_rule cu_rules[] = {
    { 3, 4, CP_LAYER_DRIVER, "run `cuprobe doctor`: cuInit is failing", "driver.cuinit" },
    { 34, 36, CP_LAYER_DRIVER, "upgrade the driver or use a CUDA build the driver supports", "runtime.driver_compat" },
    { 46, 46, CP_LAYER_SYSTEM, "find the other process on the GPU or set compute mode DEFAULT", "system.compute_mode" },
    { 100, 102, CP_LAYER_SYSTEM, "check which GPUs the process may see (CUDA_VISIBLE_DEVICES, container --gpus)", "system.visibility" },
    { 209, 209, CP_LAYER_FRAMEWORK, "use a build that carries code for this GPU", "framework.arch" },
    { 214, 214, CP_LAYER_HARDWARE, "drain the GPU and reset it; if it repeats, RMA", "hardware.memory_health" },
    { 220, 220, CP_LAYER_HARDWARE, "check the NVLink fabric and the kernel log for XIDs", "hardware.xid" },
    { 218, 223, CP_LAYER_RUNTIME, "upgrade the driver to one whose JIT supports this PTX, or ship SASS for the GPU", "runtime.driver_compat" },
    { 226, 226, CP_LAYER_HARDWARE, "restart the process; check the kernel log for XID 94/95", "hardware.xid" },
    { 304, 304, CP_LAYER_SYSTEM, "look at the OS error near it (permissions, limits, /dev/shm)", "system.devnode_access" },
    { 700, 721, CP_LAYER_APPLICATION, F_STICKY, "application.xid" },
    { 800, 800, CP_LAYER_SYSTEM, "check permissions and the compute mode", "system.compute_mode" },
    { 801, 801, CP_LAYER_DRIVER, "check that the feature is supported on this GPU and platform", "driver.devices" },
    { 802, 802, CP_LAYER_SYSTEM, "start the fabric manager (NVSwitch systems) and wait for it to be ready", "driver.devices" },
    { 803, 804, CP_LAYER_DRIVER, "make the user-space driver match the kernel module; drop cuda-compat where unsupported", "driver.version_match" },
    { 805, 810, CP_LAYER_SYSTEM, "check the MPS control daemon and its client limits", "system.compute_mode" },
    { 999, 999, CP_LAYER_DRIVER, "check the kernel log for XIDs and run `cuprobe doctor`", "driver.cuinit" },
    { 0, 999, CP_LAYER_APPLICATION, F_APP, "application.xid" },
};

/* nvmlReturn_t ranges. */
static const code_rule nvml_rules[] = {
    { 4, 4, CP_LAYER_SYSTEM, "run as a user allowed to open /dev/nvidia*", "system.devnode_access" },
    { 9, 9, CP_LAYER_KERNEL, "load the nvidia kernel module", "kernel.nvidia_module" },
    { 12, 13, CP_LAYER_DRIVER, "install the driver's libnvidia-ml.so.1 of the same version as the kernel module", "driver.nvml" },
    { 14, 16, CP_LAYER_HARDWARE, "drain the GPU, reset it or reboot; if it repeats, RMA", "hardware.pci_gpu" },
    { 18, 18, CP_LAYER_DRIVER, "reboot or reload the nvidia modules", "driver.version_match" },
    { 0, 999, CP_LAYER_DRIVER, "check the NVML call's arguments and the driver version", "driver.nvml" },
};

static const code_rule *rule_for(const code_rule *rules, size_t n, int code)
{
    for (size_t i = 0; i < n; i++)
        if (code >= rules[i].lo && code <= rules[i].hi) return &rules[i];
    return &rules[n - 1];
}

/* The layer the CUresult rule table gives a code; see signals.h. */
cp_layer cp_signal_cu_layer(int code)
{
    return rule_for(cu_rules, sizeof cu_rules / sizeof cu_rules[0], code)->layer;
}

static int claimed(int code, int nvml)
{
    for (int t = 0; tables[t]; t++)
        for (const cp_signal *s = tables[t]; s->id; s++)
            if ((nvml ? s->nvml_code : s->cu_code) == code) return 1;
    return 0;
}

static size_t add_generic(cp_signal *rows, size_t cap, size_t n, int nvml)
{
    const code_rule *rules = nvml ? nvml_rules : cu_rules;
    size_t nrules = nvml ? sizeof nvml_rules / sizeof nvml_rules[0] : sizeof cu_rules / sizeof cu_rules[0];
    for (int code = 1; code <= 999; code++) {
        const char *name = nvml ? cp_nvml_error_name(code) : cp_cuda_error_name(code);
        if (!name || claimed(code, nvml)) continue;
        if (n < cap) {
            const code_rule *r = rule_for(rules, nrules, code);
            cp_signal s = { .id = name, .layer = r->layer, .match = { name },
                            .cause = nvml ? cp_nvml_error_text(code) : cp_cuda_error_text(code),
                            .fix = r->fix, .check = r->check };
            rows[n] = s;
        }
        n++;
    }
    return n;
}

/* Every row, curated then generic; see signals.h. */
size_t cp_signals_all(cp_signal *rows, size_t cap)
{
    size_t n = 0;
    for (int t = 0; tables[t]; t++)
        for (const cp_signal *s = tables[t]; s->id; s++) {
            if (n < cap) rows[n] = *s;
            n++;
        }
    n = add_generic(rows, cap, n, 0);
    return add_generic(rows, cap, n, 1);
}
