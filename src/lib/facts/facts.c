/* Facts: initialisation to "nothing seen". */
#include <string.h>
#include <strings.h>
#include "cuprobe/facts.h"

static void unknown_i64(int64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) v[i] = CP_UNKNOWN;
}

#define UNKNOWN_RANGE(first, last) \
    unknown_i64(&(first), (size_t)(&(last) - &(first)) + 1)

static void init_pci(cp_pci_function *p)
{
    UNKNOWN_RANGE(p->vendor, p->max_width);
}

static void init_cuda_dev(cp_cuda_device *d, int i)
{
    d->ordinal = i;
    UNKNOWN_RANGE(d->cc_major, d->total_mem_bytes);
    d->sm_count = d->compute_mode = CP_UNKNOWN;
}

static void init_nvml_dev(cp_nvml_device *d, int i)
{
    d->index = i;
    UNKNOWN_RANGE(d->cc_major, d->nprocs_total);
    UNKNOWN_RANGE(d->remap_correctable, d->power_limit_mw);
    for (int p = 0; p < CP_MAX_PROCS; p++)
        d->procs[p].pid = d->procs[p].used_bytes = CP_UNKNOWN;
}

/* Clear every field to "unknown / not seen".  Never fails. */
void cp_facts_init(cp_facts *f)
{
    memset(f, 0, sizeof *f);
    cp_host_facts *h = &f->host;
    for (int i = 0; i < CP_MAX_PCI; i++) init_pci(&h->pci[i]);
    h->npci_total = 0;
    static const char *const mod_names[CP_MOD_COUNT] = {
        "nvidia", "nvidia_uvm", "nvidia_modeset", "nvidia_drm", "nouveau" };
    for (int i = 0; i < CP_MOD_COUNT; i++) {
        strcpy(h->modules[i].name, mod_names[i]);
        h->modules[i].size_bytes = h->modules[i].refcount = CP_UNKNOWN;
    }
    h->procfs.open_module = CP_TRI_UNKNOWN;
    for (int i = 0; i < CP_MAX_GPUS; i++) {
        h->procfs.gpus[i].minor = CP_UNKNOWN;
        h->procfs.gpus[i].excluded = CP_TRI_UNKNOWN;
    }
    for (int i = 0; i < CP_MAX_DEVNODES; i++) {
        cp_devnode *d = &h->dev[i];
        d->major = d->minor = d->mode = CP_UNKNOWN;
        d->accessible = CP_TRI_UNKNOWN;
    }
    h->container.in_container = CP_TRI_UNKNOWN;
    h->container.cgroup_version = CP_UNKNOWN;
    h->vis.cuda.first_invalid = -1;
    h->vis.order_valid = CP_TRI_UNKNOWN;
    h->klog.readable = CP_TRI_UNKNOWN;
    h->klog.fell_off_bus_at_s = h->klog.uptime_s = CP_UNKNOWN;
    for (int i = 0; i < CP_MAX_XIDS; i++)
        h->klog.xids[i].xid = h->klog.xids[i].pid = h->klog.xids[i].at_s = CP_UNKNOWN;
    h->uid = CP_UNKNOWN;

    f->cuda.init_result = f->cuda.driver_version = f->cuda.device_count = CP_UNKNOWN;
    f->cuda.run.signal = f->cuda.run.maxrss_kb = CP_UNKNOWN;
    for (int i = 0; i < CP_MAX_GPUS; i++) init_cuda_dev(&f->cuda.dev[i], i);

    f->nvml.init_result = f->nvml.cuda_driver_version = f->nvml.device_count = CP_UNKNOWN;
    f->nvml.run.signal = f->nvml.run.maxrss_kb = CP_UNKNOWN;
    for (int i = 0; i < CP_MAX_GPUS; i++) init_nvml_dev(&f->nvml.dev[i], i);

    f->runtime.ldcache_readable = CP_TRI_UNKNOWN;
    for (int i = 0; i < CP_MAX_LIBS; i++) {
        f->libraries.lib[i].cuda_major = CP_UNKNOWN;
        f->libraries.lib[i].loads = CP_TRI_UNKNOWN;
    }
    for (int i = 0; i < CP_MAX_CUDARTS; i++)
        f->runtime.rt[i].major = f->runtime.rt[i].minor = f->runtime.rt[i].patch = CP_UNKNOWN;
}

/* The machine's distinct compute capabilities; see facts.h. */
int cp_facts_gpu_ccs(const cp_facts *f, cp_gpu_cc *out, int cap)
{
    int n = 0, from_cuda = f->cuda.ndev > 0;
    int total = from_cuda ? f->cuda.ndev : f->nvml.ndev;
    for (int i = 0; i < total && i < CP_MAX_GPUS; i++) {
        int64_t ma = from_cuda ? f->cuda.dev[i].cc_major : f->nvml.dev[i].cc_major;
        int64_t mi = from_cuda ? f->cuda.dev[i].cc_minor : f->nvml.dev[i].cc_minor;
        bool dup = false;
        if (!CP_KNOWN(ma) || !CP_KNOWN(mi) || ma < 1 || ma > 99 || mi < 0 || mi > 9) continue;
        for (int j = 0; j < n; j++) dup |= out[j].major == ma && out[j].minor == mi;
        if (dup || n >= cap) continue;
        out[n++] = (cp_gpu_cc){ (int)ma, (int)mi, from_cuda ? f->cuda.dev[i].ordinal : f->nvml.dev[i].index,
                                from_cuda ? f->cuda.dev[i].name : f->nvml.dev[i].name };
    }
    return n;
}

/* True for an NVIDIA display/3D controller function. */
int cp_is_gpu_function(const cp_pci_function *p)
{
    return p->vendor == 0x10de && CP_KNOWN(p->class_code) && (p->class_code >> 16) == 0x03;
}

/* Count NVIDIA GPUs seen on the PCI bus. */
int cp_gpus_on_bus(const cp_facts *f)
{
    int n = 0;
    for (int i = 0; i < f->host.npci; i++) n += cp_is_gpu_function(&f->host.pci[i]);
    return n;
}

/* The best name known for the GPU at a bus address. */
const char *cp_gpu_model(const cp_facts *f, const char *bus)
{
    for (int i = 0; i < f->nvml.ndev; i++)
        if (strcasecmp(f->nvml.dev[i].pci_bus_id, bus) == 0 && f->nvml.dev[i].name[0])
            return f->nvml.dev[i].name;
    for (int i = 0; i < f->cuda.ndev; i++)
        if (strcasecmp(f->cuda.dev[i].pci_bus_id, bus) == 0 && f->cuda.dev[i].name[0])
            return f->cuda.dev[i].name;
    for (int i = 0; i < f->host.procfs.ngpus; i++)
        if (strcasecmp(f->host.procfs.gpus[i].bus, bus) == 0 && f->host.procfs.gpus[i].model[0])
            return f->host.procfs.gpus[i].model;
    return "NVIDIA GPU";
}

/* cuInit answered CUDA_SUCCESS. */
int cp_cuda_ok(const cp_facts *f)
{
    return f->cuda.run.state == CP_PROBE_DONE && f->cuda.init_result == 0;
}

/* nvmlInit_v2 answered NVML_SUCCESS. */
int cp_nvml_ok(const cp_facts *f)
{
    return f->nvml.run.state == CP_PROBE_DONE && f->nvml.init_result == 0;
}
