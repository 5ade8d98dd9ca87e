/* Driver layer: libcuda and libnvidia-ml, versions, cuInit, devices. */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "kb/kb.h"
#include "kb/signals.h"

static int is_stub(const cp_facts *f)
{
    return strstr(f->cuda.lib.path, "/stubs/") != NULL || f->cuda.init_result == 34;
}

static int is_compat(const cp_facts *f)
{
    return strstr(f->cuda.lib.path, "/compat/") != NULL;
}

/* Word a failed CUresult (nvml 0) or nvmlReturn_t (nvml 1) as the explain
 * knowledge base does: its meaning as evidence, its fix as the fix, so an
 * error name means one thing in `doctor` and `explain`. */
static void explain_code(cp_finding *o, int code, int nvml, const char *fallback_fix)
{
    cp_signal kb;
    if (cp_signal_for_code(code, nvml, &kb) != 0) { cp_fix(o, "%s", fallback_fix); return; }
    cp_evidence(o, "meaning: %s (`cuprobe explain %s`)", kb.cause, nvml ? cp_nvml_error_name(code) : cp_cuda_error_name(code));
    cp_fix(o, "%s", kb.fix);
}

/* libcuda.so.1 is found, is the real driver and has what we call. */
void cp_check_libcuda(const cp_facts *f, cp_finding *o)
{
    const cp_lib_load *l = &f->cuda.lib;
    if (f->cuda.run.state == CP_PROBE_NOT_RUN) { cp_set(o, CP_SKIP, "the driver was not asked"); return; }
    if (!l->loaded && l->error[0] == '\0' && f->cuda.run.state != CP_PROBE_DONE) {
        cp_set(o, CP_SKIP, "the libcuda probe %s (see driver.cuinit)", cp_probe_state_words(f->cuda.run.state));
        return;
    }
    if (!l->loaded) {
        cp_evidence(o, "dlopen(\"%s\"): %s", l->requested[0] ? l->requested : "libcuda.so.1", l->error);
        if (l->missing_symbol[0]) {
            cp_set(o, CP_FAIL, "libcuda at '%s' lacks '%s'", l->path, l->missing_symbol);
            cp_fix(o, "that libcuda is too old or not NVIDIA's: reinstall the driver's user-space package");
        } else {
            cp_set(o, CP_FAIL, "libcuda.so.1 (the CUDA driver library) was not found");
            if (f->host.container.in_container == CP_YES)
                cp_fix(o, "start the container through the NVIDIA Container Toolkit (--gpus all, "
                       "NVIDIA_DRIVER_CAPABILITIES including compute) so the host's libcuda is mounted in");
            else
                cp_fix(o, "install the driver's user-space libraries (the libnvidia-compute-<branch> or "
                       "nvidia-driver package of the same version as the kernel module), then run 'ldconfig'");
        }
        return;
    }
    cp_evidence(o, "loaded %s%s%s", l->path, l->version_from_path[0] ? ", version " : "", l->version_from_path);
    if (is_stub(f)) {
        cp_set(o, CP_FAIL, "the CUDA toolkit's stub libcuda was loaded instead of the driver's");
        cp_fix(o, "the stub is for linking only: remove '%s' from LD_LIBRARY_PATH (use LIBRARY_PATH for "
               "linking) and make sure no ldconfig entry points at a stubs folder",
               f->runtime.stubs_on_ld_path[0] ? f->runtime.stubs_on_ld_path : "the stubs folder");
        return;
    }
    if (is_compat(f))
        cp_set(o, CP_PASS, "libcuda %s from a cuda-compat folder (forward compatibility)", l->version_from_path);
    else
        cp_set(o, CP_PASS, "libcuda %s", l->version_from_path[0] ? l->version_from_path : "loaded");
}

/* User-space libraries and the kernel module must be the same release. */
void cp_check_version_match(const cp_facts *f, cp_finding *o)
{
    const char *kmod = f->host.procfs.version;
    const char *cuda = f->cuda.lib.version_from_path;
    const char *nvml = f->nvml.lib.version_from_path;
    if (!kmod[0]) { cp_set(o, CP_SKIP, "kernel module version unknown"); return; }
    cp_evidence(o, "kernel module %s", kmod);
    if (cuda[0]) cp_evidence(o, "libcuda %s (%s)", cuda, f->cuda.lib.path);
    if (nvml[0]) cp_evidence(o, "libnvidia-ml %s (%s)", nvml, f->nvml.lib.path);
    if (!cuda[0] && !nvml[0]) { cp_set(o, CP_SKIP, "no user-space driver library version known"); return; }
    int cuda_off = cuda[0] && strcmp(cuda, kmod) != 0;
    int nvml_off = nvml[0] && strcmp(nvml, kmod) != 0;
    if (cuda_off && is_compat(f) && cp_version_cmp(cuda, kmod) > 0 && !nvml_off) {
        cp_set(o, CP_PASS, "libcuda %s (cuda-compat) is newer than kernel module %s: forward compatibility",
               cuda, kmod);
        cp_evidence(o, "forward compatibility works on data-center GPUs only; elsewhere cuInit fails with 804");
        return;
    }
    if (cuda_off || nvml_off) {
        cp_set(o, CP_FAIL, "user-space driver %s does not match kernel module %s", cuda_off ? cuda : nvml, kmod);
        if (cuda_off && is_compat(f))
            cp_fix(o, "an older cuda-compat libcuda is on the loader path: remove '%s' from LD_LIBRARY_PATH "
                   "or ldconfig; compat libraries only help when newer than the kernel module", f->cuda.lib.path);
        else
            cp_fix(o, "the driver was upgraded without reloading the kernel module: reboot, or stop every GPU "
                   "process and reload the nvidia modules; in a container, the image must not ship its own libcuda");
        return;
    }
    cp_set(o, CP_PASS, "user-space driver and kernel module are both %s", kmod);
}

/* cuInit(0) answered, and how. */
void cp_check_cuinit(const cp_facts *f, cp_finding *o)
{
    const cp_cuda_facts *c = &f->cuda;
    char v[16];
    if (c->run.state == CP_PROBE_TIMEOUT) {
        cp_set(o, CP_FAIL, "the CUDA driver did not answer within %.2g s (cuInit hung)", c->run.elapsed_ms / 1000);
        cp_evidence(o, "%s", c->run.detail);
        if (c->lib.path[0]) cp_evidence(o, "hung inside %s", c->lib.path);
        cp_fix(o, "a hung cuInit means a wedged driver or a GPU gone from the bus: look for XID 79/119 in "
               "'dmesg', check 'nvidia-smi'; drain the node and reset the GPU or reboot");
        return;
    }
    if (c->run.state == CP_PROBE_CRASHED || c->run.state == CP_PROBE_ERROR) {
        cp_set(o, CP_FAIL, "the CUDA driver probe %s: %s", cp_probe_state_words(c->run.state), c->run.detail);
        cp_fix(o, "run 'cuprobe doctor' again; if it repeats, the driver library is damaged: reinstall it");
        return;
    }
    if (!c->lib.loaded || !CP_KNOWN(c->init_result)) { cp_set(o, CP_SKIP, "libcuda was not loaded"); return; }
    const char *name = c->init_name[0] ? c->init_name : cp_cuda_error_name(c->init_result);
    const char *text = c->init_text[0] ? c->init_text : cp_cuda_error_text(c->init_result);
    cp_evidence(o, "cuInit(0) = %lld %s: %s", (long long)c->init_result, name ? name : "?", text ? text : "");
    if (CP_KNOWN(c->driver_version)) cp_evidence(o, "cuDriverGetVersion = %lld (CUDA %s)",
                                                 (long long)c->driver_version, cp_cuda_version_str(c->driver_version, v, sizeof v));
    if (c->init_result == 0) {
        cp_set(o, CP_PASS, "cuInit succeeded; the driver supports CUDA %s", cp_cuda_version_str(c->driver_version, v, sizeof v));
        return;
    }
    cp_set(o, CP_FAIL, "cuInit failed: %s", name ? name : "unknown error");
    explain_code(o, (int)c->init_result, 0, "see the kernel log ('dmesg | grep -i nvrm') for the driver's reason");
}

/* The driver lists as many GPUs as the bus has (unless hidden on purpose). */
void cp_check_devices(const cp_facts *f, cp_finding *o)
{
    char mib[32];
    int bus = cp_gpus_on_bus(f);
    for (int i = 0; i < f->cuda.ndev; i++) {
        const cp_cuda_device *d = &f->cuda.dev[i];
        cp_evidence(o, "CUDA %d: %s, compute capability %lld.%lld, %s, %s, %s", i, d->name, (long long)d->cc_major,
                    (long long)d->cc_minor, cp_mib(d->total_mem_bytes, mib, sizeof mib), d->pci_bus_id, d->uuid);
    }
    if (cp_nvml_ok(f)) cp_evidence(o, "NVML sees %lld GPU%s", (long long)f->nvml.device_count,
                                   f->nvml.device_count == 1 ? "" : "s");
    int64_t n = f->cuda.device_count;
    if (!CP_KNOWN(n)) { cp_set(o, CP_SKIP, "the driver gave no device count"); return; }
    if (n < bus && !f->host.vis.cuda.set) {
        cp_set(o, CP_WARN, "CUDA sees %lld of the %d GPUs on the PCI bus", (long long)n, bus);
        cp_fix(o, "a GPU the driver cannot use: check 'nvidia-smi' and the kernel log for that bus address");
        return;
    }
    cp_set(o, CP_PASS, "CUDA sees %lld GPU%s", (long long)n, n == 1 ? "" : "s");
}

/* NVML: what nvidia-smi and every health check stands on. */
void cp_check_nvml(const cp_facts *f, cp_finding *o)
{
    const cp_nvml_facts *n = &f->nvml;
    if (n->run.state == CP_PROBE_NOT_RUN) { cp_set(o, CP_SKIP, "NVML was not asked"); return; }
    if (n->run.state == CP_PROBE_TIMEOUT) {
        cp_set(o, CP_FAIL, "NVML did not answer within %.2g s", n->run.elapsed_ms / 1000);
        if (n->lib.path[0]) cp_evidence(o, "hung inside %s", n->lib.path);
        cp_fix(o, "nvidia-smi will hang too: check the kernel log for XIDs, then drain and reset the GPU or reboot");
        return;
    }
    if (n->run.state != CP_PROBE_DONE) {
        cp_set(o, CP_FAIL, "the NVML probe %s: %s", cp_probe_state_words(n->run.state), n->run.detail);
        cp_fix(o, "reinstall the driver's user-space package");
        return;
    }
    if (!n->lib.loaded) {
        cp_evidence(o, "dlopen(\"%s\"): %s", n->lib.requested[0] ? n->lib.requested : "libnvidia-ml.so.1", n->lib.error);
        if (n->lib.missing_symbol[0]) cp_set(o, CP_WARN, "libnvidia-ml at '%s' lacks '%s'", n->lib.path, n->lib.missing_symbol);
        else cp_set(o, CP_WARN, "NVML (libnvidia-ml.so.1) not found: nvidia-smi and the GPU health checks cannot run");
        cp_fix(o, "install the driver's NVML library (libnvidia-ml / nvidia-utils of the kernel module's version); "
               "in a container add 'utility' to NVIDIA_DRIVER_CAPABILITIES");
        return;
    }
    const char *name = cp_nvml_error_name(n->init_result);
    cp_evidence(o, "loaded %s", n->lib.path);
    cp_evidence(o, "nvmlInit_v2 = %lld %s: %s", (long long)n->init_result, name ? name : "?", n->init_text);
    if (n->init_result == 0) {
        char v[16];
        cp_set(o, CP_PASS, "NVML %s, driver %s, CUDA %s", n->nvml_version, n->driver_version,
               cp_cuda_version_str(n->cuda_driver_version, v, sizeof v));
        return;
    }
    switch (n->init_result) {
    case 18:
        cp_set(o, CP_FAIL, "NVML: driver/library version mismatch (library %s, kernel module %s)",
               n->lib.version_from_path[0] ? n->lib.version_from_path : "?",
               f->host.procfs.version[0] ? f->host.procfs.version : "?");
        break;
    case 9: cp_set(o, CP_FAIL, "NVML: the nvidia kernel driver is not loaded"); break;
    case 4: cp_set(o, CP_FAIL, "NVML: no permission to open the GPU"); break;
    default: cp_set(o, CP_FAIL, "NVML failed to initialise: %s", name ? name : "unknown error");
    }
    explain_code(o, (int)n->init_result, 1, "check 'dmesg | grep -i nvrm' for the driver's reason");
}

/* cuda-compat copies of libcuda: harmless on disk, a trap on the loader
 * path unless newer than the kernel module. */
void cp_check_compat(const cp_facts *f, cp_finding *o)
{
    const cp_runtime_facts *r = &f->runtime;
    const char *kmod = f->host.procfs.version;
    int copies = 0;
    for (int i = 0; i < r->ntk; i++)
        if (r->tk[i].compat_libcuda[0]) {
            copies++;
            cp_evidence(o, "cuda-compat libcuda %s at %s", r->tk[i].compat_version, r->tk[i].compat_libcuda);
        }
    if (kmod[0]) cp_evidence(o, "kernel module %s", kmod);
    if (!r->compat_on_loader_path[0]) {
        if (copies) cp_set(o, CP_PASS, "cuda-compat libcuda present but not on the loader path");
        else cp_set(o, CP_PASS, "no cuda-compat libcuda on this machine");
        return;
    }
    cp_evidence(o, "the loader hands out %s", r->compat_on_loader_path);
    const char *base = strrchr(r->compat_on_loader_path, '/');
    const char *ver = base && strncmp(base, "/libcuda.so.", 12) == 0 ? base + 12 : "";
    if (kmod[0] && ver[0] && cp_version_cmp(ver, kmod) <= 0) {
        cp_set(o, CP_WARN, "a cuda-compat libcuda %s, not newer than the kernel module %s, is on the loader path", ver, kmod);
        cp_fix(o, "compat libraries only help when newer than the kernel module: remove '%.200s' from "
               "LD_LIBRARY_PATH or /etc/ld.so.conf.d, then run ldconfig", r->compat_on_loader_path);
        return;
    }
    cp_set(o, CP_PASS, "forward compatibility: cuda-compat libcuda %s on the loader path", ver[0] ? ver : "");
}
