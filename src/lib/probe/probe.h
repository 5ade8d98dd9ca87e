/*
 * Probes that call into the NVIDIA libraries.  cp_*_probe_fill run in the
 * calling process and may hang inside the driver: the observe step runs them
 * in a child process under a deadline (deadline.c) and never calls them
 * directly.  They fill every field they can, never print, never exit.
 */
#ifndef CP_PROBE_H
#define CP_PROBE_H

#include "cuprobe/facts.h"

/* Called as each step that may hang begins: "init" right after the library
 * is loaded, before cuInit / nvmlInit_v2, and "query" once that returned
 * successfully, before the device calls.  The probe child sends the load
 * record and the step at once, so a hang or a cut-short deadline still
 * says which library and which step it was. */
typedef void (*cp_loaded_hook)(const char *stage, const cp_lib_load *lib, void *arg);

/* Load libcuda.so.1 (or $CUPROBE_LIBCUDA), cuInit(0), driver version, and
 * per-device name, CC, memory, PCI bus id, UUID, SMs, compute mode.  No
 * context is created.  out->run is left for the caller. */
void cp_cuda_probe_fill(cp_cuda_facts *out);
/* The same, calling loaded(stage, lib, arg) before cuInit and before the
 * device calls (may be NULL). */
void cp_cuda_probe_fill_ex(cp_cuda_facts *out, cp_loaded_hook loaded, void *arg);

/* What the libcuda probe reports as it goes, at level 2: level1_done once
 * the level-1 answers are whole (the child sends them before any GPU
 * work), l2_step as each level-2 step begins on a device, l2_device_done
 * with a device's results.  Any may be NULL. */
typedef struct {
    cp_loaded_hook loaded;
    void (*level1_done)(const cp_cuda_facts *c, void *arg);
    void (*l2_step)(int ordinal, const char *step, void *arg);
    void (*l2_device_done)(int ordinal, const cp_cuda_l2 *l2, void *arg);
    void *arg;
} cp_cuda_probe_hooks;

/* cp_cuda_probe_fill_ex, then at level >= 2 the level-2 steps on every
 * visible device, one after the other (level2.h); out->l2_level says it was
 * asked, out->l2_skip why the steps could not run (cuInit failed). */
void cp_cuda_probe_run(cp_cuda_facts *out, int level, const cp_cuda_probe_hooks *h);

/* Load libnvidia-ml.so.1 (or $CUPROBE_LIBNVML), nvmlInit_v2, versions and the
 * per-device state listed in cp_nvml_device.  Calls nvmlShutdown at the end. */
void cp_nvml_probe_fill(cp_nvml_facts *out);
/* The same, calling loaded(stage, lib, arg) before nvmlInit_v2 and before
 * the device calls. */
void cp_nvml_probe_fill_ex(cp_nvml_facts *out, cp_loaded_hook loaded, void *arg);

/* dlopen each library copy a program or framework would load (would_load,
 * or found in a wheel) and fill loads, load_error and version_call from the
 * library's own version call.  Never touches a GPU. */
void cp_libs_probe_fill(cp_libraries_facts *libs);

#endif
