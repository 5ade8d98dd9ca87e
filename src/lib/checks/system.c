/* System layer: permissions, visibility variables, containers, who else is
 * on the GPU, compute mode, MIG, memory headroom. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "check.h"
#include "util/str.h"

static bool is_gpu_node(const char *path)
{
    const char *p = path + 11;
    if (strncmp(path, "/dev/nvidia", 11) != 0 || !*p) return false;
    for (; *p; p++)
        if (*p < '0' || *p > '9') return false;
    return true;
}

/* The device nodes are there but this process may not open them: a device
 * cgroup refuses the open (EPERM, which access(2) cannot see), or the mode
 * and owner do (EACCES). */
void cp_check_devnode_access(const cp_facts *f, cp_finding *o)
{
    const cp_host_facts *h = &f->host;
    int denied = 0, known = 0, refused = 0, refused_core = 0, refused_gpu = 0, gpu_open = 0;
    char rules[192] = "", refused_paths[192] = "";
    for (int i = 0; i < h->ndev; i++) {
        const cp_devnode *d = &h->dev[i];
        if (!d->exists || !d->is_chr || strncmp(d->path, "/dev/nvidia-caps", 16) == 0) continue;
        if (d->open_errno == 0 && is_gpu_node(d->path)) gpu_open++;
        if (d->open_errno == EPERM) {
            char rule[112];
            known++;
            refused++;
            if (is_gpu_node(d->path)) refused_gpu++;
            else if (strcmp(d->path, "/dev/nvidiactl") == 0 || strcmp(d->path, "/dev/nvidia-uvm") == 0) refused_core++;
            cp_evidence(o, "open('%s') refused: %s (EPERM): a device cgroup does not allow char %s:%s",
                        d->path, strerror(EPERM), cp_num(d->major).s, cp_num(d->minor).s);
            snprintf(rule, sizeof rule, "c %s:%s rwm", cp_num(d->major).s, cp_num(d->minor).s);
            cp_str_append(rules, sizeof rules, ", ", rule);
            cp_str_append(refused_paths, sizeof refused_paths, ", ", d->path);
            continue;
        }
        bool no_access = d->open_errno == EACCES || (!CP_KNOWN(d->open_errno) && d->accessible == CP_NO);
        if (!CP_KNOWN(d->open_errno) && d->accessible == CP_TRI_UNKNOWN) continue;
        known++;
        if (no_access) {
            denied++;
            cp_evidence(o, "cannot open '%s' for read+write (mode %s, uid %s)", d->path,
                        cp_mode(d->mode).s, cp_num(h->uid).s);
        } else if (CP_KNOWN(d->open_errno) && d->open_errno != 0) {
            cp_evidence(o, "open('%s'): %s", d->path, strerror((int)d->open_errno));
        }
    }
    if (!known) { cp_set(o, CP_SKIP, "no device node to try"); return; }
    /* a batch job or a container given some of the GPUs: the others are refused
     * on purpose, and CUDA uses the ones it may open */
    if (refused_core || (refused_gpu && !gpu_open)) {
        cp_set(o, CP_FAIL, "a device cgroup refuses %s to this process (open: EPERM)", refused_paths);
        if (h->container.in_container == CP_YES)
            cp_fix(o, "the container's device cgroup does not allow the GPU: start it with the GPU through the NVIDIA "
                   "Container Toolkit (docker run --gpus all, or CDI --device nvidia.com/gpu=all) or the NVIDIA device "
                   "plugin in Kubernetes, or allow the devices in its cgroup (docker run --device-cgroup-rule='%s')",
                   rules);
        else
            cp_fix(o, "a device cgroup refuses the GPU to this process: a systemd unit's DevicePolicy=/DeviceAllow= "
                   "(allow '%s'), or the batch scheduler's device constraint (Slurm ConstrainDevices: ask for the "
                   "GPU with --gres=gpu:N)", rules);
        return;
    }
    if (denied) {
        cp_set(o, CP_FAIL, "%d NVIDIA device node%s not accessible to this user", denied, denied > 1 ? "s" : "");
        cp_fix(o, "the nodes should be mode 0666 (driver default, NVreg_DeviceFileMode) or owned by a group "
               "you are in (usermod -aG video $USER, then log in again); where a udev rule or "
               "NVreg_DeviceFileUID/GID makes them otherwise, change it there");
        return;
    }
    if (refused_gpu)
        cp_set(o, CP_PASS, "%d GPU node%s held back by a device cgroup (a job or container given the other GPUs); "
               "the rest are open to uid %s", refused_gpu, refused_gpu > 1 ? "s" : "", cp_num(h->uid).s);
    else if (refused)
        cp_set(o, CP_PASS, "the nodes CUDA needs are open to uid %s (a device cgroup holds back %s)",
               cp_num(h->uid).s, refused_paths);
    else
        cp_set(o, CP_PASS, "every NVIDIA device node is read+writable by uid %s", cp_num(h->uid).s);
}

typedef struct { char uuid[96]; } known_gpu;

/* GPUs this machine has, as the driver numbers them: NVML first, then procfs. */
static int known_gpus(const cp_facts *f, known_gpu *out, int max)
{
    int n = 0;
    if (cp_nvml_ok(f))
        for (int i = 0; i < f->nvml.ndev && n < max; i++)
            snprintf(out[n++].uuid, sizeof out[0].uuid, "%s", f->nvml.dev[i].inv.uuid);
    if (n == 0)
        for (int i = 0; i < f->host.procfs.ngpus && n < max; i++)
            snprintf(out[n++].uuid, sizeof out[0].uuid, "%s", f->host.procfs.gpus[i].uuid);
    if (n == 0) {
        int bus = cp_gpus_on_bus(f);
        for (int i = 0; i < bus && n < max; i++) out[n++].uuid[0] = '\0';
    }
    return n;
}

/* Does a UUID entry (full or prefix, "GPU-" optional) name exactly one GPU? */
static int uuid_matches(const known_gpu *g, int n, const char *text)
{
    const char *t = strncasecmp(text, "GPU-", 4) == 0 ? text + 4 : text;
    int hits = 0;
    for (int i = 0; i < n; i++) {
        const char *u = strncasecmp(g[i].uuid, "GPU-", 4) == 0 ? g[i].uuid + 4 : g[i].uuid;
        if (*t && strncasecmp(u, t, strlen(t)) == 0) hits++;
    }
    return hits == 1;
}

/* CUDA_VISIBLE_DEVICES, NVIDIA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER. */
void cp_check_visibility(const cp_facts *f, cp_finding *o)
{
    const cp_visibility *v = &f->host.vis;
    known_gpu g[CP_MAX_GPUS];
    int ng = known_gpus(f, g, CP_MAX_GPUS);
    int usable = 0, stop = -1;
    if (v->nvidia_mode != CP_NVVIS_UNSET)
        cp_evidence(o, "NVIDIA_VISIBLE_DEVICES='%s' (read by the container runtime when the container starts)", v->nvidia_raw);
    if (v->order_set) cp_evidence(o, "CUDA_DEVICE_ORDER='%s'", v->order_raw);
    if (v->cuda.set) {
        cp_evidence(o, "CUDA_VISIBLE_DEVICES='%s'", v->cuda.raw);
        for (int i = 0; i < v->cuda.n; i++) {
            const cp_vis_entry *e = &v->cuda.e[i];
            int ok = e->kind == CP_VIS_MIG ||
                     (e->kind == CP_VIS_INDEX && e->index >= 0 && e->index < ng) ||
                     (e->kind == CP_VIS_UUID && uuid_matches(g, ng, e->text));
            if (!ok) { stop = i; break; }
            usable++;
        }
    }
    if (v->cuda.set && usable == 0) {
        if (v->cuda.n == 0 || (stop == 0 && v->cuda.e[0].kind == CP_VIS_INVALID))
            cp_set(o, CP_FAIL, "CUDA_VISIBLE_DEVICES='%s' hides every GPU", v->cuda.raw);
        else
            cp_set(o, CP_FAIL, "CUDA_VISIBLE_DEVICES='%s' names no GPU that exists (this machine has %d)",
                   v->cuda.raw, ng);
        cp_fix(o, "unset CUDA_VISIBLE_DEVICES, or set it to ordinals 0..%d or GPU UUIDs from 'nvidia-smi -L' "
               "(check the job script, .bashrc and the scheduler's settings)", ng > 0 ? ng - 1 : 0);
        return;
    }
    if (stop >= 0) {
        cp_set(o, CP_WARN, "CUDA_VISIBLE_DEVICES: '%s' is not a GPU here, so it and every entry after it are ignored",
               v->cuda.e[stop].text);
        cp_fix(o, "CUDA stops reading the list at the first entry it cannot use: remove or correct '%s'",
               v->cuda.e[stop].text);
        return;
    }
    if (v->order_set && v->order_valid == CP_NO) {
        cp_set(o, CP_WARN, "CUDA_DEVICE_ORDER='%s' is not a value CUDA knows", v->order_raw);
        cp_fix(o, "use CUDA_DEVICE_ORDER=PCI_BUS_ID (same numbering as nvidia-smi) or FASTEST_FIRST");
        return;
    }
    if (v->cuda.set)
        cp_set(o, CP_PASS, "CUDA_VISIBLE_DEVICES shows %d of %d GPU%s", usable, ng, ng == 1 ? "" : "s");
    else
        cp_set(o, CP_PASS, "no visibility variable restricts the GPUs");
    if (ng > 1 && !v->order_set)
        cp_evidence(o, "CUDA numbers GPUs fastest first, nvidia-smi by PCI bus; CUDA_DEVICE_ORDER=PCI_BUS_ID makes them agree");
}

/* Containers: informational, it changes what the fixes say. */
void cp_check_container(const cp_facts *f, cp_finding *o)
{
    const cp_container *c = &f->host.container;
    if (c->evidence[0]) cp_evidence(o, "%s", c->evidence);
    if (CP_KNOWN(c->cgroup_version)) cp_evidence(o, "cgroup v%lld %s", (long long)c->cgroup_version, c->cgroup_path);
    if (c->in_container == CP_YES)
        cp_set(o, CP_PASS, "running in a %s container", c->kind[0] ? c->kind : "");
    else if (c->in_container == CP_NO)
        cp_set(o, CP_PASS, "not in a container");
    else
        cp_set(o, CP_SKIP, "cannot tell whether this is a container");
}

/* Compute mode: PROHIBITED refuses every context. */
void cp_check_compute_mode(const cp_facts *f, cp_finding *o)
{
    static const char *const names[] = { "Default", "Exclusive_Thread", "Prohibited", "Exclusive_Process" };
    int prohibited = 0, exclusive_busy = 0;
    for (int i = 0; i < f->nvml.ndev; i++) {
        const cp_nvml_device *d = &f->nvml.dev[i];
        if (!CP_KNOWN(d->inv.compute_mode)) continue;
        cp_evidence(o, "%s: %s, persistence mode %s", d->inv.pci_bus_id, d->inv.compute_mode >= 0 && d->inv.compute_mode <= 3
                    ? names[d->inv.compute_mode] : "unknown mode",
                    !CP_KNOWN(d->inv.persistence) ? "N/A" : d->inv.persistence ? "on" : "off");
        if (d->inv.compute_mode == 2) prohibited++;
        if (d->inv.compute_mode == 3 && d->sample.nprocs_total > 0) exclusive_busy++;
    }
    if (prohibited) {
        cp_set(o, CP_FAIL, "%d GPU%s in compute mode Prohibited: no CUDA context can be created", prohibited,
               prohibited > 1 ? "s" : "");
        cp_fix(o, "an administrator set it: 'nvidia-smi -c DEFAULT -i <id>' restores it (needs root)");
    } else if (exclusive_busy) {
        cp_set(o, CP_FAIL, "%d GPU%s in Exclusive_Process mode already taken by another process",
               exclusive_busy, exclusive_busy > 1 ? "s" : "");
        cp_fix(o, "wait for that process, pick another GPU with CUDA_VISIBLE_DEVICES, or ask for Default mode");
    } else cp_set(o, CP_PASS, "compute mode allows CUDA contexts");
}

/* MIG changes what CUDA sees. */
void cp_check_mig(const cp_facts *f, cp_finding *o)
{
    int on = 0, pending = 0, known = 0;
    for (int i = 0; i < f->nvml.ndev; i++) {
        const cp_nvml_device *d = &f->nvml.dev[i];
        if (!CP_KNOWN(d->inv.mig_current)) continue;
        known++;
        if (d->inv.mig_current == 1) { on++; cp_evidence(o, "%s: MIG enabled", d->inv.pci_bus_id); }
        if (CP_KNOWN(d->inv.mig_pending) && d->inv.mig_pending != d->inv.mig_current) pending++;
    }
    if (!known) { cp_set(o, CP_SKIP, "MIG is not supported on these GPUs"); return; }
    if (pending) {
        cp_set(o, CP_WARN, "a MIG mode change is pending on %d GPU%s", pending, pending > 1 ? "s" : "");
        cp_fix(o, "the change takes effect after a GPU reset or reboot");
    } else if (on) {
        cp_set(o, CP_PASS, "MIG enabled on %d GPU%s: CUDA sees only the MIG instances", on, on > 1 ? "s" : "");
        cp_evidence(o, "select an instance with CUDA_VISIBLE_DEVICES=MIG-<uuid> from 'nvidia-smi -L'");
    } else cp_set(o, CP_PASS, "MIG disabled");
}

/* Anything else computing on the GPU? */
void cp_check_gpu_processes(const cp_facts *f, cp_finding *o)
{
    int busy = 0;
    int64_t total = 0;
    char mib[32];
    for (int i = 0; i < f->nvml.ndev; i++) {
        const cp_nvml_device *d = &f->nvml.dev[i];
        if (!CP_KNOWN(d->sample.nprocs_total)) continue;
        if (d->sample.nprocs_total > 0) busy++;
        if (CP_KNOWN(d->sample.nprocs_total)) total += d->sample.nprocs_total;
        for (int p = 0; p < d->sample.nprocs; p++)
            cp_evidence(o, "%s: pid %s uses %s", d->inv.pci_bus_id, cp_num(d->sample.procs[p].pid).s,
                        cp_mib(d->sample.procs[p].used_bytes, mib, sizeof mib));
    }
    if (busy) {
        cp_set(o, CP_WARN, "%s other compute process%s on %d GPU%s", cp_num(total).s, total > 1 ? "es" : "",
               busy, busy > 1 ? "s" : "");
        cp_fix(o, "they share the GPU's time and memory with your job: check them with 'ps -p <pid>' "
               "(processes in other containers may show no name), or pick an idle GPU");
    } else cp_set(o, CP_PASS, "no other compute process on the GPUs");
}

/* Is there memory left for a job? */
void cp_check_memory_headroom(const cp_facts *f, cp_finding *o)
{
    int low = 0, full = 0, known = 0;
    char a[32], b[32];
    for (int i = 0; i < f->nvml.ndev; i++) {
        const cp_nvml_device *d = &f->nvml.dev[i];
        if (!CP_KNOWN(d->inv.mem_total_bytes) || !CP_KNOWN(d->sample.mem_used_bytes) || d->inv.mem_total_bytes <= 0) continue;
        known++;
        int64_t free_b = CP_KNOWN(d->sample.mem_free_bytes) ? d->sample.mem_free_bytes : d->inv.mem_total_bytes - d->sample.mem_used_bytes;
        cp_evidence(o, "%s: %s used of %s", d->inv.pci_bus_id, cp_mib(d->sample.mem_used_bytes, a, sizeof a),
                    cp_mib(d->inv.mem_total_bytes, b, sizeof b));
        if (free_b < ((int64_t)512 << 20)) full++;
        else if (free_b * 10 < d->inv.mem_total_bytes) low++;
    }
    if (!known) { cp_set(o, CP_SKIP, "NVML gave no memory figures"); return; }
    if (full) {
        cp_set(o, CP_FAIL, "%d GPU%s with less than 512 MiB free", full, full > 1 ? "s" : "");
        cp_fix(o, "a new job will fail with 'out of memory': find the holder in 'nvidia-smi' (or the processes "
               "check above) and stop it, or use another GPU");
    } else if (low) {
        cp_set(o, CP_WARN, "%d GPU%s with less than 10%% memory free", low, low > 1 ? "s" : "");
        cp_fix(o, "another process holds most of the memory: see the processes check");
    } else cp_set(o, CP_PASS, "memory headroom on every GPU");
}
