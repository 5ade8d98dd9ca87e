/* Kernel layer: modules, the GPU bound to nvidia, device nodes. */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "util/str.h"

static const char *in_container_hint(const cp_facts *f)
{
    return f->host.container.in_container == CP_YES
        ? "; in a container the module lives on the host: fix it there" : "";
}

/* nouveau loaded (or bound to the GPU) keeps nvidia away. */
void cp_check_nouveau(const cp_facts *f, cp_finding *o)
{
    const cp_host_facts *h = &f->host;
    int bound = 0;
    for (int i = 0; i < h->npci; i++)
        if (cp_is_gpu_function(&h->pci[i]) && strcmp(h->pci[i].driver, "nouveau") == 0) {
            bound++;
            cp_evidence(o, "%s is bound to nouveau", h->pci[i].addr);
        }
    if (!h->modules_readable && !bound) { cp_set(o, CP_SKIP, "/proc/modules not readable"); return; }
    if (!h->modules[CP_MOD_NOUVEAU].loaded && !bound) {
        cp_set(o, CP_PASS, "nouveau is not loaded");
        return;
    }
    cp_evidence(o, "/proc/modules: nouveau %s", h->modules[CP_MOD_NOUVEAU].loaded ? "loaded" : "not loaded");
    if (bound || !h->modules[CP_MOD_NVIDIA].loaded) {
        cp_set(o, CP_FAIL, "the open-source nouveau driver holds the GPU instead of nvidia");
        cp_fix(o, "blacklist nouveau (echo 'blacklist nouveau' > /etc/modprobe.d/blacklist-nouveau.conf; "
               "options nouveau modeset=0), rebuild the initramfs (update-initramfs -u or dracut -f) and reboot");
    } else {
        cp_set(o, CP_WARN, "nouveau is loaded beside nvidia");
        cp_fix(o, "blacklist nouveau so it can never claim a GPU first, then rebuild the initramfs");
    }
}

/* The nvidia kernel module is loaded and answers in /proc/driver/nvidia. */
void cp_check_nvidia_module(const cp_facts *f, cp_finding *o)
{
    const cp_host_facts *h = &f->host;
    const cp_module *m = &h->modules[CP_MOD_NVIDIA];
    if (h->modules_readable)
        cp_evidence(o, "/proc/modules: nvidia %s%s%s", m->loaded ? "loaded" : "not loaded",
                    m->loaded && m->state[0] ? ", " : "", m->loaded ? m->state : "");
    if (h->procfs.present)
        cp_evidence(o, "/proc/driver/nvidia/version: %s", h->procfs.banner);
    if (h->procfs.present) {
        cp_set(o, CP_PASS, "nvidia %s loaded%s", h->procfs.version[0] ? h->procfs.version : "",
               h->procfs.open_module == CP_YES ? " (open kernel module)" :
               h->procfs.open_module == CP_NO ? " (proprietary kernel module)" : "");
        return;
    }
    if (!h->modules_readable && !m->loaded) {
        cp_set(o, CP_FAIL, "the nvidia kernel driver does not answer (/proc/driver/nvidia/version missing)");
    } else if (m->loaded) {
        cp_set(o, CP_FAIL, "nvidia module is loaded but /proc/driver/nvidia/version is missing");
    } else {
        cp_set(o, CP_FAIL, "the nvidia kernel module is not loaded");
    }
    cp_fix(o, "load it with 'sudo modprobe nvidia'; if that fails, see 'dmesg | grep -i nvrm': after a "
           "kernel update rebuild it (dkms autoinstall, or reinstall the driver package), with Secure "
           "Boot on sign it or enroll the MOK key (mokutil --sb-state)%s", in_container_hint(f));
}

/* Every NVIDIA GPU on the bus is bound to the nvidia driver and not excluded. */
void cp_check_gpu_bound(const cp_facts *f, cp_finding *o)
{
    const cp_host_facts *h = &f->host;
    int unbound = 0, other = 0, excluded = 0, total = 0;
    for (int i = 0; i < h->npci; i++) {
        const cp_pci_function *p = &h->pci[i];
        if (!cp_is_gpu_function(p)) continue;
        total++;
        cp_evidence(o, "%s bound to %s", p->addr, p->driver[0] ? p->driver : "no driver");
        if (!p->driver[0]) unbound++;
        else if (strcmp(p->driver, "nvidia") != 0 && strcmp(p->driver, "nouveau") != 0) other++;
    }
    for (int i = 0; i < h->procfs.ngpus; i++)
        if (h->procfs.gpus[i].excluded == CP_YES) {
            excluded++;
            cp_evidence(o, "%s: 'GPU Excluded: Yes' in /proc/driver/nvidia", h->procfs.gpus[i].bus);
        }
    if (other) {
        cp_set(o, CP_FAIL, "%d GPU%s bound to another driver (e.g. vfio-pci for a VM)", other, other > 1 ? "s" : "");
        cp_fix(o, "the GPU is reserved for passthrough: unbind it from that driver "
               "(driverctl unset-override <addr>) or remove the vfio-pci ids= option, then reload nvidia");
    } else if (excluded) {
        cp_set(o, CP_FAIL, "%d GPU%s excluded by the nvidia driver", excluded, excluded > 1 ? "s" : "");
        cp_fix(o, "the driver excluded the GPU after an error or by NVreg_ExcludedGpus: read the kernel log "
               "for the reason, then reset the GPU or reboot");
    } else if (unbound && f->host.modules[CP_MOD_NVIDIA].loaded) {
        cp_set(o, CP_FAIL, "%d GPU%s not claimed by the loaded nvidia driver", unbound, unbound > 1 ? "s" : "");
        cp_fix(o, "the driver may not support this GPU or failed to start it: 'dmesg | grep -i nvrm' "
               "says which; install a driver branch that supports this GPU");
    } else if (unbound) {
        cp_set(o, CP_SKIP, "GPUs have no driver bound because the nvidia module is not loaded");
    } else if (total) {
        cp_set(o, CP_PASS, "every GPU bound to nvidia");
    } else {
        cp_set(o, CP_SKIP, "PCI driver bindings not visible here");
    }
}

/* nvidia_uvm is what CUDA needs beside nvidia. */
void cp_check_uvm(const cp_facts *f, cp_finding *o)
{
    const cp_host_facts *h = &f->host;
    int node = 0;
    for (int i = 0; i < h->ndev; i++)
        if (strcmp(h->dev[i].path, "/dev/nvidia-uvm") == 0 && h->dev[i].exists) node = 1;
    if (h->modules_readable)
        cp_evidence(o, "/proc/modules: nvidia_uvm %s", h->modules[CP_MOD_NVIDIA_UVM].loaded ? "loaded" : "not loaded");
    cp_evidence(o, "/dev/nvidia-uvm %s", node ? "present" : "missing");
    if (h->modules[CP_MOD_NVIDIA_UVM].loaded || (!h->modules_readable && node)) {
        cp_set(o, CP_PASS, "nvidia_uvm loaded");
        return;
    }
    if (!h->modules_readable) { cp_set(o, CP_SKIP, "/proc/modules not readable"); return; }
    cp_set(o, CP_FAIL, "nvidia_uvm is not loaded: CUDA programs fail to initialise");
    cp_fix(o, "sudo modprobe nvidia-uvm (or nvidia-modprobe -u -c=0, which also creates /dev/nvidia-uvm)%s",
           in_container_hint(f));
}

/* The device nodes CUDA opens exist as character devices. */
void cp_check_devnodes(const cp_facts *f, cp_finding *o)
{
    const cp_host_facts *h = &f->host;
    char missing[256] = "";
    int nmissing = 0, ngpu_nodes = 0;
    if (h->ndev == 0) { cp_set(o, CP_SKIP, "device nodes were not examined"); return; }
    for (int i = 0; i < h->ndev; i++) {
        const cp_devnode *d = &h->dev[i];
        int needed = strcmp(d->path, "/dev/nvidiactl") == 0 || strcmp(d->path, "/dev/nvidia-uvm") == 0
                     || (strncmp(d->path, "/dev/nvidia", 11) == 0 && d->path[11] >= '0' && d->path[11] <= '9');
        if (d->exists)
            cp_evidence(o, "%s %s %s:%s mode %s", d->path, d->is_chr ? "char" : "NOT a char device",
                        cp_num(d->major).s, cp_num(d->minor).s, cp_mode(d->mode).s);
        if (d->exists && d->path[11] >= '0' && d->path[11] <= '9') ngpu_nodes++;
        if (needed && (!d->exists || !d->is_chr)) {
            nmissing++;
            cp_str_append(missing, sizeof missing, ", ", d->path);
        }
    }
    for (int i = 0; i < h->procfs.ngpus; i++) {
        char path[40];
        int found = 0;
        snprintf(path, sizeof path, "/dev/nvidia%lld", (long long)h->procfs.gpus[i].minor);
        for (int k = 0; k < h->ndev; k++) found |= strcmp(h->dev[k].path, path) == 0 && h->dev[k].exists;
        if (!found && CP_KNOWN(h->procfs.gpus[i].minor) && cp_str_append(missing, sizeof missing, ", ", path))
            nmissing++;
    }
    if (nmissing) {
        cp_set(o, CP_FAIL, "device node%s missing: %s", nmissing > 1 ? "s" : "", missing);
        if (h->container.in_container == CP_YES)
            cp_fix(o, "the container was started without the GPU devices: use --gpus all (Docker with the "
                   "NVIDIA Container Toolkit) or the NVIDIA device plugin, not a bare bind mount");
        else
            cp_fix(o, "create them with 'sudo nvidia-modprobe -c=0 -u' (or load the modules with udev "
                   "rules in place); nvidia-persistenced also keeps them present");
        return;
    }
    cp_set(o, CP_PASS, "/dev/nvidiactl, /dev/nvidia-uvm and %d GPU node%s present", ngpu_nodes, ngpu_nodes == 1 ? "" : "s");
}
