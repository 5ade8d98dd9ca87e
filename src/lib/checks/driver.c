/* Driver layer: libcuda and libnvidia-ml, versions, cuInit, devices. */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "cuprobe/cuprobe.h"
#include "host/host.h"
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
 * knowledge base does: its meaning as evidence, so an error name means one
 * thing in `doctor` and `explain`.  The fix is the knowledge base's too,
 * unless doctor knows better from this machine's facts (init_fix). */
static void explain_code(const cp_facts *f, cp_finding *o, int64_t code, int nvml);

/* ---- what the facts say about the layers below, for the init fixes ---- */

static int in_container(const cp_facts *f)
{
    return f->host.container.in_container == CP_YES;
}

static const cp_devnode *devnode(const cp_facts *f, const char *path)
{
    for (int i = 0; i < f->host.ndev; i++)
        if (strcmp(f->host.dev[i].path, path) == 0) return &f->host.dev[i];
    return NULL;
}

/* The first of the nodes CUDA opens that was looked at and is missing or
 * not a character device; NULL when none is known to be. */
static const char *node_missing(const cp_facts *f, int uvm_too)
{
    static const char *const want[] = { "/dev/nvidiactl", "/dev/nvidia0", "/dev/nvidia-uvm", NULL };
    for (int i = 0; want[i]; i++) {
        if (!uvm_too && i == 2) break;
        const cp_devnode *d = devnode(f, want[i]);
        if (d && (!d->exists || !d->is_chr)) return want[i];
    }
    return NULL;
}

/* The first NVIDIA node this user cannot open read+write, or NULL. */
static const cp_devnode *node_denied(const cp_facts *f)
{
    for (int i = 0; i < f->host.ndev; i++) {
        const cp_devnode *d = &f->host.dev[i];
        if (d->exists && d->is_chr && d->accessible == CP_NO && strncmp(d->path, "/dev/nvidia-caps", 16) != 0)
            return d;
    }
    return NULL;
}

/* Is a kernel module known not to be loaded? */
static int module_absent(const cp_facts *f, int which)
{
    return f->host.modules_readable && !f->host.modules[which].loaded;
}

/* "in this container" / "on this machine", for the fixes. */
static const char *container_fix_nodes(const cp_facts *f)
{
    return in_container(f)
        ? "the container was started without the GPU: start it through the NVIDIA Container Toolkit "
          "(docker --gpus all, or the nvidia runtime / device plugin) so the nodes and the driver's libraries are passed in"
        : "load the driver and create the nodes: 'sudo modprobe nvidia nvidia-uvm' "
          "(or 'sudo nvidia-modprobe -u -c=0'); if modprobe fails, reinstall the driver for this kernel";
}

/* The fix for a device node problem, if the facts show one; 1 when set. */
static int fix_nodes(const cp_facts *f, cp_finding *o, int uvm_too)
{
    const char *miss = node_missing(f, uvm_too);
    const cp_devnode *denied = node_denied(f);
    if (miss) {
        cp_fix(o, "'%s' is missing: %s", miss, container_fix_nodes(f));
        return 1;
    }
    if (denied) {
        if (in_container(f))
            cp_fix(o, "'%s' cannot be opened by uid %s: the container's device cgroup or user mapping refuses it; "
                   "start the container through the NVIDIA Container Toolkit (--gpus) rather than a hand-made --device list",
                   denied->path, cp_num(f->host.uid).s);
        else
            cp_fix(o, "'%s' cannot be opened read+write by uid %s: add the user to the group that owns it "
                   "(usermod -aG video $USER, then log in again) or restore the driver's default mode 0666 "
                   "(NVreg_DeviceFileMode)", denied->path, cp_num(f->host.uid).s);
        return 1;
    }
    return 0;
}

/* The fix for "the kernel module is not there", if the facts show it. */
static int fix_module(const cp_facts *f, cp_finding *o)
{
    if (in_container(f) && !f->host.procfs.present) {
        cp_fix(o, "this container does not see the host's NVIDIA driver (/proc/driver/nvidia is absent): check "
               "'nvidia-smi' on the host, then start the container through the NVIDIA Container Toolkit (--gpus all)");
        return 1;
    }
    if (module_absent(f, CP_MOD_NVIDIA)) {
        if (f->host.modules[CP_MOD_NOUVEAU].loaded)
            cp_fix(o, "nouveau holds the GPU instead of the nvidia module: blacklist nouveau, rebuild the initramfs, "
                   "reboot, then 'sudo modprobe nvidia'");
        else
            cp_fix(o, "load the nvidia kernel module: 'sudo modprobe nvidia'; if that fails, the module is not built "
                   "for this kernel (uname -r): reinstall the driver (DKMS) and reboot");
        return 1;
    }
    return 0;
}

/* The user-space and kernel versions, when both are known and differ. */
static int fix_mismatch(const cp_facts *f, cp_finding *o, const cp_lib_load *lib)
{
    const char *kmod = f->host.procfs.version, *user = lib->version_from_path;
    if (strstr(lib->path, "/compat/")) {
        cp_fix(o, "a cuda-compat libcuda ('%s') is loaded where it cannot work: remove its folder from LD_LIBRARY_PATH "
               "or /etc/ld.so.conf.d and run ldconfig; forward compatibility works only on data-center GPUs and only "
               "when newer than the kernel module%s%s", lib->path, kmod[0] ? " " : "", kmod);
        return 1;
    }
    if (!kmod[0] || !user[0] || strcmp(kmod, user) == 0) return 0;
    if (in_container(f))
        cp_fix(o, "'%s' (%s) does not match the host's kernel module %s: the image ships its own driver libraries; "
               "remove them from the image and let the NVIDIA Container Toolkit mount the host's", lib->path, user, kmod);
    else
        cp_fix(o, "'%s' (%s) does not match the kernel module %s: the driver was upgraded without reloading the "
               "module; reboot, or stop every GPU process and reload the nvidia modules", lib->path, user, kmod);
    return 1;
}

/* Which GPUs CUDA_VISIBLE_DEVICES leaves, when it hides all or names none. */
static int fix_visibility(const cp_facts *f, cp_finding *o)
{
    const cp_visibility *v = &f->host.vis;
    if (v->cuda.set && (v->cuda.n == 0 || v->cuda.first_invalid == 0)) {
        cp_fix(o, "CUDA_VISIBLE_DEVICES='%s' leaves no GPU to this process: unset it, or list GPU indices or UUIDs "
               "that exist ('nvidia-smi -L')", v->cuda.raw);
        return 1;
    }
    if (v->nvidia_mode == CP_NVVIS_NONE || v->nvidia_mode == CP_NVVIS_VOID || v->nvidia_mode == CP_NVVIS_EMPTY) {
        cp_fix(o, "NVIDIA_VISIBLE_DEVICES='%s' gives this container no GPU: start it with --gpus all (or a list "
               "of GPUs)", v->nvidia_raw);
        return 1;
    }
    return 0;
}

/* A GPU's compute mode that keeps other processes out (NVML's word). */
static int fix_compute_mode(const cp_facts *f, cp_finding *o)
{
    for (int i = 0; i < f->nvml.ndev; i++) {
        int64_t m = f->nvml.dev[i].inv.compute_mode;
        if (m == 2 || m == 3) {
            cp_fix(o, "GPU %s is in compute mode %s: 'sudo nvidia-smi -i %d -c DEFAULT', or find the process "
                   "that holds it ('nvidia-smi')", f->nvml.dev[i].inv.pci_bus_id,
                   m == 2 ? "PROHIBITED" : "EXCLUSIVE_PROCESS", i);
            return 1;
        }
    }
    return 0;
}

/* The fix for a failed cuInit (nvml 0) or nvmlInit_v2 (nvml 1) in this
 * machine's context: what the lower layers' facts say first, then what the
 * code itself means.  Returns 1 when it set one. */
static int init_fix(const cp_facts *f, cp_finding *o, int64_t code, int nvml)
{
    const cp_lib_load *lib = nvml ? &f->nvml.lib : &f->cuda.lib;
    char kmod[48] = "";       /* " (580.95.05)" after "the kernel module's version" */
    if (f->host.procfs.version[0]) snprintf(kmod, sizeof kmod, " (%.40s)", f->host.procfs.version);
    if (!nvml) switch (code) {
    case 100:   /* CUDA_ERROR_NO_DEVICE */
        if (fix_visibility(f, o) || fix_module(f, o) || fix_nodes(f, o, 0)) return 1;
        if (cp_gpus_on_bus(f) == 0 && f->host.npci_total == 0 && f->host.npci == 0 && !f->host.procfs.present) {
            cp_fix(o, "no NVIDIA GPU is visible here at all: on a VM or cloud instance, check that a GPU is attached%s",
                   in_container(f) ? "; in a container, start it with --gpus all" : "");
            return 1;
        }
        cp_fix(o, "the driver is loaded but offers no GPU it can use: check 'nvidia-smi' and 'dmesg | grep -i nvrm' "
               "(a GPU the driver rejected or excluded, or one that fell off the bus)");
        return 1;
    case 999:   /* CUDA_ERROR_UNKNOWN: most often /dev/nvidia-uvm */
        if (node_missing(f, 1) && strcmp(node_missing(f, 1), "/dev/nvidia-uvm") == 0) {
            cp_fix(o, in_container(f)
                   ? "'/dev/nvidia-uvm' is missing in this container: start it through the NVIDIA Container Toolkit (--gpus all)"
                   : "'/dev/nvidia-uvm' is missing: 'sudo modprobe nvidia-uvm' (or 'sudo nvidia-modprobe -u -c=0')");
            return 1;
        }
        if (module_absent(f, CP_MOD_NVIDIA_UVM) && !in_container(f)) {
            cp_fix(o, "the nvidia-uvm module is not loaded: 'sudo modprobe nvidia-uvm'");
            return 1;
        }
        if (fix_nodes(f, o, 1) || fix_mismatch(f, o, lib)) return 1;
        cp_fix(o, "cuInit gave no reason: read 'dmesg | grep -i nvrm' for the driver's; after a driver upgrade, "
               "a reboot clears it; on a machine that was suspended, reload nvidia-uvm");
        return 1;
    case 304:   /* CUDA_ERROR_OPERATING_SYSTEM */
        if (fix_nodes(f, o, 1)) return 1;
        cp_fix(o, in_container(f)
               ? "the OS refused a call into the driver: the container's device cgroup, seccomp profile or user "
                 "namespace blocks it; start it through the NVIDIA Container Toolkit (--gpus all)"
               : "the OS refused a call into the driver: check SELinux/AppArmor denials ('dmesg', audit log), "
                 "locked-memory and address-space limits ('ulimit -l', 'ulimit -v')");
        return 1;
    case 3:     /* CUDA_ERROR_NOT_INITIALIZED */
    case 4:     /* CUDA_ERROR_DEINITIALIZED */
        if (fix_module(f, o) || fix_nodes(f, o, 1) || fix_mismatch(f, o, lib)) return 1;
        cp_fix(o, "cuInit could not start the driver: read 'dmesg | grep -i nvrm' for the reason; a process that "
               "forks after using CUDA must not call it in the child");
        return 1;
    case 34:    /* CUDA_ERROR_STUB_LIBRARY */
        cp_fix(o, "'%s' is the toolkit's stub: remove its folder from LD_LIBRARY_PATH (use LIBRARY_PATH for linking) "
               "and from ldconfig, so the driver's libcuda.so.1 is found", lib->path[0] ? lib->path : "libcuda");
        return 1;
    case 35:    /* the runtime's cudaErrorInsufficientDriver, as some wrappers report it */
    case 36:    /* CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER */
        cp_fix(o, "this libcuda needs a newer kernel driver than the one loaded%s: upgrade the driver (kernel module and user-space "
               "package together), or use a CUDA build the driver supports", kmod);
        return 1;
    case 803:   /* CUDA_ERROR_SYSTEM_DRIVER_MISMATCH */
        if (fix_mismatch(f, o, lib)) return 1;
        cp_fix(o, "libcuda and the kernel module are different releases: install the user-space driver of the kernel "
               "module's version%s, or "
               "reboot if the driver was just upgraded; in a container, remove the image's own libcuda", kmod);
        return 1;
    case 804:   /* CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE */
        if (fix_mismatch(f, o, lib)) return 1;
        cp_fix(o, "a forward-compatibility libcuda ('%s') cannot run this GPU: remove the cuda-compat folder from "
               "LD_LIBRARY_PATH and ldconfig, and upgrade the driver instead", lib->path);
        return 1;
    case 46:    /* CUDA_ERROR_DEVICE_UNAVAILABLE */
        if (fix_compute_mode(f, o)) return 1;
        cp_fix(o, "every visible GPU is held exclusively or unavailable: see 'nvidia-smi' for the compute mode and "
               "the processes on it, and for MIG mode without a compute instance");
        return 1;
    case 800:   /* CUDA_ERROR_NOT_PERMITTED */
        if (fix_nodes(f, o, 1) || fix_compute_mode(f, o)) return 1;
        cp_fix(o, in_container(f)
               ? "the driver refused this process: give the container the GPU through the NVIDIA Container Toolkit, "
                 "and check an MPS daemon's client limits"
               : "the driver refused this process: check the user's access to /dev/nvidia*, an MPS daemon's "
                 "limits, and confidential-computing or vGPU policy ('nvidia-smi -q')");
        return 1;
    case 101:   /* CUDA_ERROR_INVALID_DEVICE */
        if (fix_visibility(f, o)) return 1;
        cp_fix(o, "%s names a GPU that does not exist here: list existing indices or UUIDs ('nvidia-smi -L')",
               f->host.vis.cuda.set ? "CUDA_VISIBLE_DEVICES" : "the device list the process was given");
        return 1;
    case 2:     /* CUDA_ERROR_OUT_OF_MEMORY */
        cp_fix(o, "cuInit could not reserve memory: cuInit maps large virtual ranges, so an address-space limit "
               "breaks it ('ulimit -v unlimited', container or batch-system memory limits); check free host memory");
        return 1;
    case 802:   /* CUDA_ERROR_SYSTEM_NOT_READY */
        cp_fix(o, "on an NVSwitch system the fabric manager must be running, of the kernel module's version%s: "
               "'systemctl status nvidia-fabricmanager', start it and wait for 'nvidia-smi -q' to show the fabric "
               "as completed", kmod);
        return 1;
    default:
        return 0;
    }
    switch (code) {
    case 9:     /* NVML_ERROR_DRIVER_NOT_LOADED */
        if (fix_module(f, o) || fix_nodes(f, o, 0)) return 1;
        cp_fix(o, "NVML found no NVIDIA kernel driver: check 'lsmod | grep nvidia' and 'dmesg | grep -i nvrm'; "
               "%s", in_container(f) ? "in a container, start it through the NVIDIA Container Toolkit (--gpus all)"
               : "reinstall the driver for this kernel if the module does not load");
        return 1;
    case 4:     /* NVML_ERROR_NO_PERMISSION */
        if (fix_nodes(f, o, 0)) return 1;
        cp_fix(o, "this user may not open the NVIDIA device nodes: the nodes should be mode 0666 (driver default) "
               "or owned by a group the user is in%s", in_container(f) ? "; in a container, the device cgroup must allow them" : "");
        return 1;
    case 12:    /* NVML_ERROR_LIBRARY_NOT_FOUND */
    case 13:    /* NVML_ERROR_FUNCTION_NOT_FOUND */
        if (in_container(f))
            cp_fix(o, "NVML could not load a driver library it needs (libcuda): add 'compute,utility' to "
                   "NVIDIA_DRIVER_CAPABILITIES so the toolkit mounts them");
        else
            cp_fix(o, "NVML could not load a driver library it needs (libcuda.so.1 of the same release): install the "
                   "driver's user-space package of the kernel module's version%s and run 'ldconfig'", kmod);
        return 1;
    case 17:    /* NVML_ERROR_OPERATING_SYSTEM */
        if (fix_nodes(f, o, 0)) return 1;
        cp_fix(o, in_container(f)
               ? "the OS refused NVML's call into the driver: the container's device cgroup or seccomp profile blocks "
                 "it; start it through the NVIDIA Container Toolkit (--gpus all)"
               : "the OS refused NVML's call into the driver: check SELinux/AppArmor denials ('dmesg', audit log)");
        return 1;
    case 18:    /* NVML_ERROR_LIB_RM_VERSION_MISMATCH */
        if (fix_mismatch(f, o, lib)) return 1;
        cp_fix(o, "libnvidia-ml and the kernel module are different releases: reboot after a driver upgrade, or "
               "install the user-space driver of the kernel module's version%s; in a container, remove the image's own "
               "driver libraries", kmod);
        return 1;
    case 15:    /* NVML_ERROR_GPU_IS_LOST */
        cp_fix(o, "a GPU fell off the bus: look for Xid 79 in 'dmesg', drain the node and reboot; if it repeats, "
               "reseat or RMA the GPU");
        return 1;
    case 14:    /* NVML_ERROR_CORRUPTED_INFOROM */
    case 16:    /* NVML_ERROR_RESET_REQUIRED */
        cp_fix(o, "a GPU needs a reset: drain it and 'nvidia-smi -r', or reboot; if it repeats, RMA");
        return 1;
    case 7:     /* NVML_ERROR_INSUFFICIENT_SIZE */
    case 2:     /* NVML_ERROR_INVALID_ARGUMENT */
    case 3:     /* NVML_ERROR_NOT_SUPPORTED */
        if (fix_mismatch(f, o, lib)) return 1;
        cp_fix(o, "'%s' does not fit the kernel driver: install the libnvidia-ml of the kernel module's version%s "
               "(one driver package, not a copy from elsewhere)", lib->path[0] ? lib->path : "libnvidia-ml", kmod);
        return 1;
    case 20:    /* NVML_ERROR_MEMORY */
    case 23:    /* NVML_ERROR_INSUFFICIENT_RESOURCES */
        cp_fix(o, "NVML could not allocate what it needs: check free host memory and the process's limits "
               "('ulimit -v', container memory limits)");
        return 1;
    case 999:   /* NVML_ERROR_UNKNOWN */
    default:
        if (fix_module(f, o) || fix_nodes(f, o, 0) || fix_mismatch(f, o, lib)) return 1;
        cp_fix(o, "nvmlInit_v2 gave no reason: read 'dmesg | grep -i nvrm' for the driver's; after a driver upgrade, "
               "a reboot clears it");
        return 1;
    }
}

static void explain_code(const cp_facts *f, cp_finding *o, int64_t code, int nvml)
{
    cp_signal kb;
    if (CP_KNOWN(code) && code > 0 && code <= 999 && cp_signal_for_code((int)code, nvml, &kb) == 0) {
        cp_evidence(o, "meaning: %s (`cuprobe explain %s`)", kb.cause,
                    nvml ? cp_nvml_error_name(code) : cp_cuda_error_name(code));
        if (!init_fix(f, o, code, nvml)) cp_fix(o, "%s", kb.fix);
        return;
    }
    if (!init_fix(f, o, code, nvml))
        cp_fix(o, "see the kernel log ('dmesg | grep -i nvrm') for the driver's reason");
}

/* "libcuda.so.1 (loaded from '/usr/lib/...so.580.95.05')": the file asked
 * for and where it was found. */
static void lacks_symbol(cp_finding *o, const cp_lib_load *l, const char *what, const char *dflt)
{
    const char *req = l->requested[0] ? l->requested : dflt;
    cp_evidence(o, "dlopen(\"%s\") loaded %s", req, l->path[0] ? l->path : "a file whose path is unknown");
    cp_evidence(o, "dlsym(\"%s\"): %s", l->missing_symbol, l->error[0] ? l->error : "not found");
    cp_set(o, CP_FAIL, "%s '%s' (loaded from '%s') lacks '%s'", what, req, l->path[0] ? l->path : "?", l->missing_symbol);
}

/* libcuda.so.1 is found, is the real driver and has what we call. */
/* Did dlopen fail because no such file was found (as opposed to a file that
 * is there but empty, damaged or for another machine: "file too short",
 * "invalid ELF header", "wrong ELF class")?  An empty error counts as absence. */
static bool load_error_is_absence(const char *err)
{
    return !err[0] || strstr(err, "No such file or directory") != NULL;
}

void cp_check_libcuda(const cp_facts *f, cp_finding *o)
{
    const cp_lib_load *l = &f->cuda.lib;
    if (f->cuda.run.state == CP_PROBE_NOT_RUN) { cp_set(o, CP_SKIP, "the driver was not asked"); return; }
    if (!l->loaded && l->error[0] == '\0' && f->cuda.run.state != CP_PROBE_DONE) {
        cp_set(o, CP_SKIP, "the libcuda probe %s (see driver.cuinit)", cp_probe_state_words(f->cuda.run.state));
        return;
    }
    if (l->missing_symbol[0]) {
        lacks_symbol(o, l, "libcuda", "libcuda.so.1");
        cp_fix(o, "that file is not NVIDIA's driver library, or a damaged or too old one: reinstall the driver's "
               "user-space package (libnvidia-compute-<branch> or nvidia-driver) of the kernel module's version%s%s, "
               "and take any other copy off CUPROBE_LIBCUDA, LD_LIBRARY_PATH and ldconfig's folders",
               f->host.procfs.version[0] ? " " : "", f->host.procfs.version);
        return;
    }
    if (!l->loaded && !load_error_is_absence(l->error)) {
        cp_evidence(o, "dlopen(\"%s\"): %s", l->requested[0] ? l->requested : "libcuda.so.1", l->error);
        cp_set(o, CP_FAIL, "libcuda.so.1 (the CUDA driver library) is there but cannot be loaded: %s", l->error);
        cp_fix(o, "the file is damaged, empty, or not a library for this machine: reinstall the driver's user-space "
               "package (libnvidia-compute-<branch> or nvidia-driver) of the kernel module's version%s%s, then run "
               "'ldconfig'; in a container, restart it through the NVIDIA Container Toolkit so the host's libcuda "
               "is mounted in", f->host.procfs.version[0] ? " " : "", f->host.procfs.version);
        return;
    }
    if (!l->loaded) {
        cp_evidence(o, "dlopen(\"%s\"): %s", l->requested[0] ? l->requested : "libcuda.so.1", l->error);
        cp_set(o, CP_FAIL, "libcuda.so.1 (the CUDA driver library) was not found");
        if (f->host.container.in_container == CP_YES)
            cp_fix(o, "start the container through the NVIDIA Container Toolkit (--gpus all, "
                   "NVIDIA_DRIVER_CAPABILITIES including compute) so the host's libcuda is mounted in");
        else
            cp_fix(o, "install the driver's user-space libraries (the libnvidia-compute-<branch> or "
                   "nvidia-driver package of the same version as the kernel module), then run 'ldconfig'");
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

/* A probe the deadline cut: which step it was in and whether the deadline
 * was long enough to call that a hang.  lib names the library ("libcuda"),
 * call its init call ("cuInit"). */
static void deadline_cut(const cp_facts *f, cp_finding *o, const cp_probe_run *run, const cp_lib_load *lib,
                         const char *libname, const char *call)
{
    double secs = run->elapsed_ms / 1000;
    int long_enough = run->elapsed_ms >= CP_TIMEOUT_DEFAULT_MS;
    const char *stage = run->stage;
    char rerun[160];
    snprintf(rerun, sizeof rerun, "rerun with a longer --timeout (default %g s) before treating the driver as hung",
             CP_TIMEOUT_DEFAULT_MS / 1000.0);
    (void)f;
    cp_evidence(o, "%s", run->detail);
    if (strcmp(stage, "load") == 0) {
        cp_set(o, long_enough ? CP_FAIL : CP_WARN, "%s was still being loaded when the %.2g s deadline passed",
               libname, secs);
        if (lib->requested[0]) cp_evidence(o, "dlopen(\"%s\") had not returned", lib->requested);
        if (long_enough)
            cp_fix(o, "loading the library itself hangs: the file system that holds it (a network mount?) or a "
                   "library it pulls in blocks; run 'ldd' on it and check the mounts, then rerun");
        else
            cp_fix(o, "%s", rerun);
        return;
    }
    const char *what = strcmp(stage, "query") == 0 ? "the device queries after " : "";
    if (lib->path[0]) cp_evidence(o, "hung inside %s", lib->path);
    if (!long_enough) {
        cp_set(o, CP_WARN, "%s%s did not finish within the %.2g s deadline", what, call, secs);
        cp_fix(o, "%s", rerun);
        return;
    }
    if (strcmp(call, "cuInit") == 0) {
        cp_set(o, CP_FAIL, "the CUDA driver did not answer within %.2g s (%s%s hung)", secs, what, call);
        cp_fix(o, "a hung cuInit means a wedged driver or a GPU gone from the bus: look for XID 79/119 in "
               "'dmesg', check 'nvidia-smi'; drain the node and reset the GPU or reboot");
    } else {
        cp_set(o, CP_FAIL, "NVML did not answer within %.2g s (%s%s hung)", secs, what, call);
        cp_fix(o, "nvidia-smi will hang too: check the kernel log for XIDs, then drain and reset the GPU or reboot");
    }
}

/* cuInit(0) answered, and how. */
void cp_check_cuinit(const cp_facts *f, cp_finding *o)
{
    const cp_cuda_facts *c = &f->cuda;
    char v[16];
    if (c->run.state == CP_PROBE_TIMEOUT) {
        deadline_cut(f, o, &c->run, &c->lib, "libcuda", "cuInit");
        return;
    }
    if (c->run.state == CP_PROBE_CRASHED || c->run.state == CP_PROBE_ERROR) {
        cp_set(o, CP_FAIL, "the CUDA driver probe %s: %s", cp_probe_state_words(c->run.state), c->run.detail);
        cp_fix(o, "run 'cuprobe doctor' again; if it repeats, the driver library is damaged: reinstall it");
        return;
    }
    if (c->lib.missing_symbol[0]) {
        cp_set(o, CP_SKIP, "libcuda lacks '%s' (see driver.libcuda)", c->lib.missing_symbol);
        return;
    }
    if (!c->lib.loaded || !CP_KNOWN(c->init_result)) { cp_set(o, CP_SKIP, "libcuda was not loaded"); return; }
    const char *name = c->init_name[0] ? c->init_name : cp_cuda_error_name(c->init_result);
    const char *text = c->init_text[0] ? c->init_text : cp_cuda_error_text(c->init_result);
    cp_evidence(o, "cuInit(0) = %s %s: %s", cp_num(c->init_result).s, name ? name : "?", text ? text : "");
    if (CP_KNOWN(c->driver_version)) cp_evidence(o, "cuDriverGetVersion = %lld (CUDA %s)",
                                                 (long long)c->driver_version, cp_cuda_version_str(c->driver_version, v, sizeof v));
    if (c->init_result == 0) {
        cp_set(o, CP_PASS, "cuInit succeeded; the driver supports CUDA %s", cp_cuda_version_str(c->driver_version, v, sizeof v));
        return;
    }
    cp_set(o, CP_FAIL, "cuInit failed: %s", name ? name : "unknown error");
    explain_code(f, o, c->init_result, 0);
}

/* Where a device of CUDA's sits among NVML's, by bus id; -1 when not found. */
static int nvml_index_of(const cp_facts *f, const char *bus)
{
    if (!bus[0]) return -1;
    for (int i = 0; i < f->nvml.ndev; i++)
        if (strcmp(f->nvml.dev[i].inv.pci_bus_id, bus) == 0) return i;
    return -1;
}

/* Is a bus id among the PCI functions read from sysfs? */
static int on_bus(const cp_facts *f, const char *bus)
{
    for (int i = 0; i < f->host.npci; i++)
        if (strcmp(f->host.pci[i].addr, bus) == 0) return 1;
    return 0;
}

/* Answers of libcuda, NVML and the PCI bus that cannot all be true: each
 * becomes an evidence line; returns how many. */
static int contradictions(const cp_facts *f, cp_finding *o)
{
    int bad = 0, bus = cp_gpus_on_bus(f);
    int64_t n = f->cuda.device_count;
    int nvml = cp_nvml_ok(f) && CP_KNOWN(f->nvml.device_count);
    /* the bus list is complete only when it was not capped */
    int bus_known = bus > 0 && f->host.npci_total <= f->host.npci;
    /* with MIG on, CUDA's devices are instances: more of them than GPUs, each
     * with a part of its GPU's memory, at its GPU's bus id */
    int mig = 0;
    for (int i = 0; nvml && i < f->nvml.ndev; i++) mig |= f->nvml.dev[i].inv.mig_current == 1;
    if (bus_known && n > bus && !mig) {
        cp_evidence(o, "libcuda reports %s devices, the PCI bus has %d NVIDIA GPU%s", cp_num(n).s, bus, bus == 1 ? "" : "s");
        bad++;
    }
    if (bus_known && nvml && f->nvml.device_count > bus) {
        cp_evidence(o, "NVML reports %s GPUs, the PCI bus has %d", cp_num(f->nvml.device_count).s, bus);
        bad++;
    }
    if (nvml && n > f->nvml.device_count && !mig) {
        cp_evidence(o, "libcuda reports %s devices, NVML %s", cp_num(n).s, cp_num(f->nvml.device_count).s);
        bad++;
    }
    for (int i = 0; i < f->cuda.ndev; i++) {
        const cp_cuda_device *d = &f->cuda.dev[i];
        if (bus_known && d->pci_bus_id[0] && !on_bus(f, d->pci_bus_id)) {
            cp_evidence(o, "CUDA %d is at %s, where the PCI bus has no NVIDIA function", i, d->pci_bus_id);
            bad++;
        }
        int k = nvml ? nvml_index_of(f, d->pci_bus_id) : -1;
        if (k < 0) continue;
        const cp_nvml_inventory *inv = &f->nvml.dev[k].inv;
        if (CP_KNOWN(d->cc_major) && CP_KNOWN(inv->cc_major) &&
            (d->cc_major != inv->cc_major || d->cc_minor != inv->cc_minor)) {
            cp_evidence(o, "%s: compute capability %s from libcuda, %s from NVML", d->pci_bus_id,
                        cp_cc(d->cc_major, d->cc_minor).s, cp_cc(inv->cc_major, inv->cc_minor).s);
            bad++;
        }
        /* the two report the same framebuffer; a few MiB of difference is rounding, not news */
        int64_t a = d->total_mem_bytes, b = inv->mem_total_bytes;
        if (!mig && CP_KNOWN(a) && CP_KNOWN(b) && a > 0 && b > 0 && (a > b ? a - b : b - a) > (a > b ? a : b) / 20) {
            char ma[32], mb[32];
            cp_evidence(o, "%s: %s of memory from libcuda, %s from NVML", d->pci_bus_id,
                        cp_mib(a, ma, sizeof ma), cp_mib(b, mb, sizeof mb));
            bad++;
        }
    }
    return bad;
}

/* The driver lists as many GPUs as the bus has (unless hidden on purpose). */
void cp_check_devices(const cp_facts *f, cp_finding *o)
{
    char mib[32];
    int bus = cp_gpus_on_bus(f);
    int64_t n = f->cuda.device_count;
    int bad = CP_KNOWN(n) ? contradictions(f, o) : 0;   /* first: the device lines may fill the evidence */
    for (int i = 0; i < f->cuda.ndev; i++) {
        const cp_cuda_device *d = &f->cuda.dev[i];
        if (!d->name[0] && !d->pci_bus_id[0] && !CP_KNOWN(d->cc_major)) continue;   /* a device that said nothing */
        cp_evidence(o, "CUDA %d: %s, compute capability %s, %s, %s, %s", i, d->name, cp_cc(d->cc_major, d->cc_minor).s,
                    cp_mib(d->total_mem_bytes, mib, sizeof mib), d->pci_bus_id, d->uuid);
    }
    if (cp_nvml_ok(f)) cp_evidence(o, "NVML sees %s GPU%s", cp_num(f->nvml.device_count).s,
                                   f->nvml.device_count == 1 ? "" : "s");
    if (!CP_KNOWN(n)) { cp_set(o, CP_SKIP, "the driver gave no device count"); return; }
    if (bad) {
        cp_set(o, CP_FAIL, "libcuda's answers contradict NVML or the PCI bus (%s device%s reported)", cp_num(n).s,
               n == 1 ? "" : "s");
        cp_fix(o, "answers that cannot all be true come from a damaged or foreign libcuda or a confused driver: "
               "check which libcuda is loaded (driver.libcuda), reinstall the driver's user-space package of the "
               "kernel module's version, and reboot if the driver was upgraded");
        return;
    }
    if (n < bus && !f->host.vis.cuda.set) {
        cp_set(o, CP_WARN, "CUDA sees %s of the %d GPUs on the PCI bus", cp_num(n).s, bus);
        cp_fix(o, "a GPU the driver cannot use: check 'nvidia-smi' and the kernel log for that bus address");
        return;
    }
    cp_set(o, CP_PASS, "CUDA sees %s GPU%s", cp_num(n).s, n == 1 ? "" : "s");
}

/* NVML: what nvidia-smi and every health check stands on. */
void cp_check_nvml(const cp_facts *f, cp_finding *o)
{
    const cp_nvml_facts *n = &f->nvml;
    if (n->run.state == CP_PROBE_NOT_RUN) { cp_set(o, CP_SKIP, "NVML was not asked"); return; }
    if (n->run.state == CP_PROBE_TIMEOUT) {
        deadline_cut(f, o, &n->run, &n->lib, "libnvidia-ml", "nvmlInit_v2");
        return;
    }
    if (n->run.state != CP_PROBE_DONE) {
        cp_set(o, CP_FAIL, "the NVML probe %s: %s", cp_probe_state_words(n->run.state), n->run.detail);
        cp_fix(o, "reinstall the driver's user-space package");
        return;
    }
    if (n->lib.missing_symbol[0]) {
        lacks_symbol(o, &n->lib, "libnvidia-ml", "libnvidia-ml.so.1");
        cp_fix(o, "that file is not NVIDIA's NVML, or a damaged or too old one: reinstall the driver's NVML "
               "(libnvidia-ml / nvidia-utils) of the kernel module's version%s%s, and take any other copy off "
               "CUPROBE_LIBNVML, LD_LIBRARY_PATH and ldconfig's folders",
               f->host.procfs.version[0] ? " " : "", f->host.procfs.version);
        return;
    }
    if (!n->lib.loaded && !load_error_is_absence(n->lib.error)) {
        cp_evidence(o, "dlopen(\"%s\"): %s", n->lib.requested[0] ? n->lib.requested : "libnvidia-ml.so.1", n->lib.error);
        cp_set(o, CP_WARN, "NVML (libnvidia-ml.so.1) is there but cannot be loaded: %s; nvidia-smi and the GPU health "
               "checks cannot run", n->lib.error);
        cp_fix(o, "the file is damaged, empty, or not a library for this machine: reinstall the driver's NVML "
               "(libnvidia-ml / nvidia-utils) of the kernel module's version%s%s",
               f->host.procfs.version[0] ? " " : "", f->host.procfs.version);
        return;
    }
    if (!n->lib.loaded) {
        cp_evidence(o, "dlopen(\"%s\"): %s", n->lib.requested[0] ? n->lib.requested : "libnvidia-ml.so.1", n->lib.error);
        cp_set(o, CP_WARN, "NVML (libnvidia-ml.so.1) not found: nvidia-smi and the GPU health checks cannot run");
        cp_fix(o, "install the driver's NVML library (libnvidia-ml / nvidia-utils of the kernel module's version); "
               "in a container add 'utility' to NVIDIA_DRIVER_CAPABILITIES");
        return;
    }
    const char *name = cp_nvml_error_name(n->init_result);
    cp_evidence(o, "loaded %s", n->lib.path);
    if (!CP_KNOWN(n->init_result)) {
        cp_set(o, CP_FAIL, "NVML was loaded but nvmlInit_v2 gave no answer");
        cp_fix(o, "run 'cuprobe doctor' again; if it repeats, reinstall the driver's NVML (libnvidia-ml) of the "
               "kernel module's version");
        return;
    }
    cp_evidence(o, "nvmlInit_v2 = %s %s: %s", cp_num(n->init_result).s, name ? name : "?", n->init_text);
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
    explain_code(f, o, n->init_result, 1);
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
