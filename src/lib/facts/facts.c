/* Facts: initialisation to "nothing seen". */
#include <string.h>
#include <strings.h>
#include "cuprobe/facts.h"
#include "util/str.h"

/* The unknown-init of a record, from its rows in fields.h: r points at the
 * record, numbers become CP_UNKNOWN and strings "". */
#define UNKNOWN_I(name, unit, help) r->name = CP_UNKNOWN;
#define UNKNOWN_S(name, size, help) r->name[0] = '\0';

/* One PCI function to "not seen". */
void cp_pci_function_init(cp_pci_function *r)
{
    memset(r, 0, sizeof *r);
    CP_PCI_FUNCTION_FIELDS(UNKNOWN_I, UNKNOWN_S)
}

/* One libcuda device slot to "not seen". */
void cp_cuda_device_init(cp_cuda_device *r, int ordinal)
{
    memset(r, 0, sizeof *r);
    r->ordinal = ordinal;
    CP_CUDA_DEVICE_FIELDS(UNKNOWN_I, UNKNOWN_S)
    cp_cuda_l2_init(&r->l2);
}

/* A device's level-2 results to "not run". */
void cp_cuda_l2_init(cp_cuda_l2 *r)
{
    memset(r, 0, sizeof *r);
    CP_CUDA_L2_FIELDS(UNKNOWN_I, UNKNOWN_S)
}

/* An NVML device's inventory to "not seen". */
void cp_nvml_inventory_init(cp_nvml_inventory *r)
{
    memset(r, 0, sizeof *r);
    CP_NVML_INVENTORY_FIELDS(UNKNOWN_I, UNKNOWN_S)
}

static void gpu_process_init(cp_gpu_process *r)
{
    CP_GPU_PROCESS_FIELDS(UNKNOWN_I, UNKNOWN_S)
    r->visible = CP_TRI_UNKNOWN;
}

/* An NVML sample to "not seen": no processes, every value unknown. */
void cp_nvml_sample_init(cp_nvml_sample *r)
{
    memset(r, 0, sizeof *r);
    CP_NVML_SAMPLE_FIELDS(UNKNOWN_I, UNKNOWN_S)
    for (int p = 0; p < CP_MAX_PROCS; p++) gpu_process_init(&r->procs[p]);
}

/* One NVML device slot to "not seen". */
void cp_nvml_device_init(cp_nvml_device *d, int index)
{
    d->index = index;
    cp_nvml_inventory_init(&d->inv);
    cp_nvml_sample_init(&d->sample);
}

/* One library's level-2 run to "not run". */
void cp_lib_l2_init(cp_lib_l2 *r)
{
    memset(r, 0, sizeof *r);
    CP_LIB_L2_FIELDS(UNKNOWN_I, UNKNOWN_S)
}

#undef UNKNOWN_I
#undef UNKNOWN_S

const char *const cp_l2_lib_names[CP_L2_NLIBS] = { "cublas", "cufft", "cudnn", "nvrtc", "nccl" };

/* Level 2's libraries to "not asked". */
void cp_libs_l2_facts_init(cp_libs_l2_facts *l)
{
    memset(l, 0, sizeof *l);
    l->level = l->device = l->rss_start_bytes = l->rss_ctx_bytes = l->hwm_bytes = CP_UNKNOWN;
    l->run.signal = l->run.maxrss_kb = CP_UNKNOWN;
    for (int i = 0; i < CP_L2_NLIBS; i++) cp_lib_l2_init(&l->lib[i]);
}

/* The cuda block to "not run, nothing seen". */
void cp_cuda_facts_init(cp_cuda_facts *c)
{
    memset(c, 0, sizeof *c);
    c->init_result = c->driver_version = c->device_count = CP_UNKNOWN;
    c->run.signal = c->run.maxrss_kb = CP_UNKNOWN;
    c->l2_level = CP_UNKNOWN;
    c->l2_run.signal = c->l2_run.maxrss_kb = CP_UNKNOWN;
    for (int i = 0; i < CP_MAX_GPUS; i++) cp_cuda_device_init(&c->dev[i], i);
}

/* The nvml block to "not run, nothing seen". */
void cp_nvml_facts_init(cp_nvml_facts *n)
{
    memset(n, 0, sizeof *n);
    n->init_result = n->cuda_driver_version = n->device_count = CP_UNKNOWN;
    n->run.signal = n->run.maxrss_kb = CP_UNKNOWN;
    for (int i = 0; i < CP_MAX_GPUS; i++) cp_nvml_device_init(&n->dev[i], i);
}

/* Clear every field to "unknown / not seen".  Never fails. */
void cp_facts_init(cp_facts *f)
{
    memset(f, 0, sizeof *f);
    cp_host_facts *h = &f->host;
    for (int i = 0; i < CP_MAX_PCI; i++) cp_pci_function_init(&h->pci[i]);
    h->npci_total = 0;
    static const char *const mod_names[CP_MOD_COUNT] = {
        "nvidia", "nvidia_uvm", "nvidia_modeset", "nvidia_drm", "nouveau" };
    for (int i = 0; i < CP_MOD_COUNT; i++) {
        cp_str_copy(h->modules[i].name, sizeof h->modules[i].name, mod_names[i]);
        h->modules[i].size_bytes = h->modules[i].refcount = CP_UNKNOWN;
    }
    h->procfs.open_module = CP_TRI_UNKNOWN;
    for (int i = 0; i < CP_MAX_GPUS; i++) {
        h->procfs.gpus[i].minor = CP_UNKNOWN;
        h->procfs.gpus[i].excluded = CP_TRI_UNKNOWN;
    }
    for (int i = 0; i < CP_MAX_DEVNODES; i++) {
        cp_devnode *d = &h->dev[i];
        d->major = d->minor = d->mode = d->open_errno = CP_UNKNOWN;
        d->accessible = CP_TRI_UNKNOWN;
    }
    for (int i = 0; i < CP_MAX_DEVMAJORS; i++)
        h->devices.m[i].major = CP_UNKNOWN;
    h->container.in_container = CP_TRI_UNKNOWN;
    h->container.cgroup_version = CP_UNKNOWN;
    h->vis.cuda.first_invalid = -1;
    h->vis.order_valid = CP_TRI_UNKNOWN;
    h->klog.readable = CP_TRI_UNKNOWN;
    h->klog.fell_off_bus_at_s = h->klog.uptime_s = CP_UNKNOWN;
    for (int i = 0; i < CP_MAX_XIDS; i++)
        h->klog.xids[i].xid = h->klog.xids[i].pid = h->klog.xids[i].at_s = CP_UNKNOWN;
    h->uid = CP_UNKNOWN;

    cp_cuda_facts_init(&f->cuda);
    cp_nvml_facts_init(&f->nvml);
    cp_libs_l2_facts_init(&f->libs_l2);

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
        int64_t ma = from_cuda ? f->cuda.dev[i].cc_major : f->nvml.dev[i].inv.cc_major;
        int64_t mi = from_cuda ? f->cuda.dev[i].cc_minor : f->nvml.dev[i].inv.cc_minor;
        bool dup = false;
        if (!CP_KNOWN(ma) || !CP_KNOWN(mi) || ma < 1 || ma > 99 || mi < 0 || mi > 9) continue;
        for (int j = 0; j < n; j++) dup |= out[j].major == ma && out[j].minor == mi;
        if (dup || n >= cap) continue;
        out[n++] = (cp_gpu_cc){ (int)ma, (int)mi, from_cuda ? f->cuda.dev[i].ordinal : f->nvml.dev[i].index,
                                from_cuda ? f->cuda.dev[i].name : f->nvml.dev[i].inv.name };
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
        if (strcasecmp(f->nvml.dev[i].inv.pci_bus_id, bus) == 0 && f->nvml.dev[i].inv.name[0])
            return f->nvml.dev[i].inv.name;
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

/* The theoretical one-way rate of a PCIe link; see facts.h. */
int64_t cp_pcie_link_mbs(int64_t gen, int64_t width)
{
    static const int64_t mts[] = { 0, 2500, 5000, 8000, 16000, 32000, 64000 };  /* per lane */
    static const int64_t code_num[] = { 0, 8, 8, 128, 128, 128, 242 };          /* payload ... */
    static const int64_t code_den[] = { 1, 10, 10, 130, 130, 130, 256 };        /* ... of line bits */
    if (!CP_KNOWN(gen) || !CP_KNOWN(width) || gen < 1 || gen > 6 || width < 1 || width > 32)
        return CP_UNKNOWN;
    /* Mbit/s on the wire times the code's share, over 8 bits a byte, rounded down once */
    return mts[gen] * width * code_num[gen] / (code_den[gen] * 8);
}

/* See facts.h. */
int cp_facts_drop_process(cp_facts *f, int64_t pid)
{
    int dropped = 0;
    if (!f || pid <= 0) return 0;
    for (int i = 0; i < f->nvml.ndev && i < CP_MAX_GPUS; i++) {
        cp_nvml_sample *s = &f->nvml.dev[i].sample;
        int kept = 0;
        for (int p = 0; p < s->nprocs && p < CP_MAX_PROCS; p++) {
            if (s->procs[p].pid == pid) { dropped++; continue; }
            if (kept != p) s->procs[kept] = s->procs[p];
            kept++;
        }
        if (kept < s->nprocs) {
            if (CP_KNOWN(s->nprocs_total)) s->nprocs_total -= s->nprocs - kept;
            s->nprocs = kept;
        }
    }
    return dropped;
}
