/*
 * The level-2 checks (doctor --level 2): what the steps the libcuda probe
 * ran on each device found (cp_cuda_l2, src/lib/probe/level2.c).  They sit
 * in three layers (driver: context, kernels, streams; hardware: right
 * answers, copy rates; system: who holds the memory) but share one reading
 * of the steps, so they live together here rather than in their layers'
 * files.
 *
 * Every step a device ran is one of: ran, failed (its call, CUresult and
 * error name recorded), hung (the deadline cut level 2 while the device was
 * in it), or not reached (an earlier step failed or hung).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "cuprobe/telemetry.h"
#include "kb/kb.h"
#include "kb/signals.h"
#include "rt/rt.h"
#include "check.h"

enum { ST_CONTEXT, ST_MEMORY, ST_COMPUTE, ST_STREAMS, ST_COPY, ST_DONE, ST_NONE };
static const char *const step_names[] = { "context", "memory", "compute", "streams", "copy", "done" };

typedef enum { RAN, FAILED, HUNG, NOT_REACHED } step_state;

static int step_index(const char *s)
{
    for (int i = 0; i <= ST_DONE; i++)
        if (strcmp(s, step_names[i]) == 0) return i;
    return ST_NONE;
}

/* Level 2 ran at all; else the finding is a skip with the reason and 0. */
static int l2_ran(const cp_facts *f, cp_finding *o)
{
    const cp_cuda_facts *c = &f->cuda;
    if (!CP_KNOWN(c->l2_level) || c->l2_level < 2) {
        cp_set(o, CP_SKIP, "level 2 did not run here (%s)",
               strcmp(f->origin, "live") == 0 ? "libcuda was not asked" : "the snapshot was taken at level 1");
        return 0;
    }
    if (c->l2_skip[0]) {
        cp_set(o, CP_SKIP, "level 2 did not run: %s", c->l2_skip);
        return 0;
    }
    if (c->ndev == 0) {
        cp_set(o, CP_SKIP, "libcuda lists no device");
        return 0;
    }
    return 1;
}

static int run_cut(const cp_facts *f)
{
    return f->cuda.l2_run.state == CP_PROBE_TIMEOUT || f->cuda.l2_run.state == CP_PROBE_CRASHED;
}

/* Where device d stands with step k; result is the step's CUresult field. */
static step_state state_of(const cp_facts *f, int d, int k, int64_t result)
{
    const cp_cuda_l2 *l = &f->cuda.dev[d].l2;
    int at = step_index(l->step);
    if (at == ST_NONE || at < k) return NOT_REACHED;
    if (at > k) return RAN;
    if (at == ST_DONE) return RAN;
    if (CP_KNOWN(result)) return result == 0 ? RAN : FAILED;
    /* begun, never answered: the deadline (or a crash) cut it here */
    return run_cut(f) ? HUNG : NOT_REACHED;
}

/* "GPU 0 (0000:00:06.0)" */
static const char *gpu_words(const cp_facts *f, int d, char *buf, size_t cap)
{
    const char *bus = f->cuda.dev[d].pci_bus_id;
    if (bus[0]) snprintf(buf, cap, "GPU %d (%s)", d, bus);
    else snprintf(buf, cap, "GPU %d", d);
    return buf;
}

/* A failed call as evidence, with the knowledge base's meaning; the fix
 * from its row when none is set yet. */
static void failed_call(cp_finding *o, const char *gpu, const char *call, int64_t result, const char *error)
{
    const char *name = error[0] ? error : cp_cuda_error_name(result);
    if (result == CP_RT_NO_SYMBOL)
        cp_evidence(o, "%s: %s is missing from libcuda", gpu, call);
    else
        cp_evidence(o, "%s: %s = %s %s", gpu, call, cp_num(result).s, name ? name : "(no name)");
    cp_signal kb;
    if (CP_KNOWN(result) && result > 0 && result <= 999 && cp_signal_for_code((int)result, 0, &kb) == 0) {
        cp_evidence(o, "meaning: %s (`cuprobe explain %s`, %s layer)", kb.cause, name ? name : "", cp_layer_name(kb.layer));
        if (!o->fix[0]) cp_fix(o, "%s", kb.fix);
    }
}

/* The hang of device d in step k, as a failure. */
static void hung(const cp_facts *f, cp_finding *o, const char *gpu, int k)
{
    const cp_probe_run *r = &f->cuda.l2_run;
    if (r->state == CP_PROBE_CRASHED) {
        cp_evidence(o, "%s: the probe process died in the %s step (%s)", gpu, step_names[k], r->detail);
        if (!o->fix[0]) cp_fix(o, "run 'cuprobe doctor --level 2' again; a repeat points at the driver: "
                               "look for XIDs in 'dmesg'");
        return;
    }
    cp_evidence(o, "%s: the %s step did not finish within the %.2g s level-2 deadline", gpu, step_names[k],
                r->elapsed_ms / 1000);
    if (!o->fix[0])
        cp_fix(o, "a GPU that does not finish a few milliseconds of work is hung: look for XIDs in 'dmesg' "
               "(cuprobe doctor shows them), then drain the node and reset the GPU or reboot");
}

/* A fault in cuprobe's own kernels (whose addresses and sizes are right)
 * is not the application's bug the knowledge base's row assumes: it points
 * at the GPU or the driver.  Sets that fix for such a result. */
static void own_kernel_fault(cp_finding *o, int64_t result)
{
    /* 700 illegal address, 714 hardware stack error, 715 illegal instruction,
     * 716 misaligned address, 717 invalid address space, 718 invalid pc,
     * 719 launch failed */
    if (o->fix[0] || !CP_KNOWN(result) || result < 700 || result > 719 || (result > 700 && result < 714)) return;
    cp_fix(o, "cuprobe's probe kernels are known to be correct, so a fault in them points at the GPU or the "
           "driver, not at a program: look for XIDs (13, 31, 43, 48, 94, 95) in 'dmesg', drain the node and "
           "reset the GPU; if it repeats after a reset, have the GPU checked (dcgmi diag -r 3)");
}

/* One device's standing with step k as evidence; returns the worst status. */
static cp_status step_verdict(const cp_facts *f, cp_finding *o, int d, int k, int64_t result, const char *call,
                              const char *error, int *not_reached)
{
    char gpu[64];
    gpu_words(f, d, gpu, sizeof gpu);
    switch (state_of(f, d, k, result)) {
    case RAN: return CP_PASS;
    case FAILED:
        if (k == ST_COMPUTE || k == ST_STREAMS) own_kernel_fault(o, result);
        failed_call(o, gpu, call, result, error);
        return CP_FAIL;
    case HUNG: hung(f, o, gpu, k); return CP_FAIL;
    case NOT_REACHED: (*not_reached)++; return CP_SKIP;
    }
    return CP_SKIP;
}

/* Sum up a check over the devices: fails where one failed, skip when none
 * reached the step. */
static int sum_up(cp_finding *o, int failed, int passed, int not_reached, const char *what)
{
    if (failed) {
        cp_set(o, CP_FAIL, "%s failed on %d GPU%s", what, failed, failed > 1 ? "s" : "");
        return 1;
    }
    if (!passed) {
        cp_set(o, CP_SKIP, "not reached on any GPU: an earlier level-2 step failed (%d GPU%s)", not_reached,
               not_reached > 1 ? "s" : "");
        return 1;
    }
    return 0;
}

static const cp_nvml_device *nvml_of(const cp_facts *f, int d)
{
    const char *bus = f->cuda.dev[d].pci_bus_id;
    if (!bus[0] || !cp_nvml_ok(f)) return NULL;
    for (int i = 0; i < f->nvml.ndev; i++)
        if (strcmp(f->nvml.dev[i].inv.pci_bus_id, bus) == 0) return &f->nvml.dev[i];
    return NULL;
}

/* The other processes NVML lists on device d, as "PID 4242 python3 (ctr)
 * 64.0 GiB, ..." into buf, and the bytes they hold (when given) into
 * *held; how many. */
static int holders_words(const cp_facts *f, int d, char *buf, size_t cap, int64_t *held)
{
    const cp_nvml_device *n = nvml_of(f, d);
    size_t used = 0;
    buf[0] = '\0';
    if (held) *held = 0;
    if (!n) return 0;
    int k = 0;
    char mib[32];
    for (int p = 0; p < n->sample.nprocs && p < CP_MAX_PROCS; p++, k++) {
        const cp_gpu_process *q = &n->sample.procs[p];
        if (held && CP_KNOWN(q->used_bytes) && q->used_bytes > 0) *held += q->used_bytes;
        /* its name, or "(pid not visible here)": NVML's PID is the host's and this is another PID namespace */
        const char *name = cp_tele_proc_name(q);
        int hidden = name[0] && !q->comm[0];
        int w = snprintf(buf + used, cap - used, "%sPID %s%s%s%s%s%s%s%s %s", used ? ", " : "", cp_num(q->pid).s,
                         name[0] ? " " : "", hidden ? "(" : "", name, hidden ? ")" : "",
                         q->container[0] ? " (" : "", q->container, q->container[0] ? ")" : "",
                         cp_mib(q->used_bytes, mib, sizeof mib));
        if (w > 0 && (size_t)w < cap - used) used += (size_t)w;
    }
    return k;
}

/* A context refused because of the GPU's compute mode: exclusive-process
 * with another process in it, or prohibited.  Adds the evidence and the fix
 * (before the knowledge base's generic one) and returns 1; else 0.  The
 * mode is the driver's attribute (CUcomputemode), else NVML's (the two
 * enums agree on 2 and 3). */
static int context_refused_by_mode(const cp_facts *f, int d, cp_finding *o)
{
    int64_t mode = f->cuda.dev[d].compute_mode;
    const cp_nvml_device *n = nvml_of(f, d);
    if (!CP_KNOWN(mode) && n) mode = n->inv.compute_mode;
    char gpu[64], holders[512];
    gpu_words(f, d, gpu, sizeof gpu);
    if (mode == 2) {
        cp_evidence(o, "%s is in compute mode Prohibited: the driver admits no context on it", gpu);
        if (!o->fix[0])
            cp_fix(o, "the GPU was set aside by its administrator (nvidia-smi -q shows 'Compute Mode'): run on another "
                   "GPU, or ask for it back ('nvidia-smi -i %d -c DEFAULT', as root; cuprobe changes no setting)", d);
        return 1;
    }
    if (mode != 3) return 0;
    int k = holders_words(f, d, holders, sizeof holders, NULL);
    if (k > 0)
        cp_evidence(o, "%s is in compute mode Exclusive_Process and another process holds it: %s", gpu, holders);
    else
        cp_evidence(o, "%s is in compute mode Exclusive_Process: one process at a time; NVML lists no holder "
                    "(it may sit in another container)", gpu);
    if (!o->fix[0])
        cp_fix(o, "the GPU admits one process at a time: wait for %s to finish or stop it, or run on another GPU; "
               "the mode is the administrator's ('nvidia-smi -i %d -c DEFAULT'; cuprobe changes no setting)",
               k > 0 ? holders : "the holder", d);
    return 1;
}

/* The primary context of every device is retained. */
void cp_check_l2_context(const cp_facts *f, cp_finding *o)
{
    if (!l2_ran(f, o)) return;
    int failed = 0, passed = 0, nr = 0;
    for (int d = 0; d < f->cuda.ndev; d++) {
        const cp_cuda_l2 *l = &f->cuda.dev[d].l2;
        if (state_of(f, d, ST_CONTEXT, l->ctx_result) == FAILED) context_refused_by_mode(f, d, o);
        cp_status s = step_verdict(f, o, d, ST_CONTEXT, l->ctx_result, l->ctx_call, l->ctx_error, &nr);
        failed += s == CP_FAIL;
        passed += s == CP_PASS;
        char gpu[64];
        if (s == CP_PASS && CP_KNOWN(l->wall_us))
            cp_evidence(o, "%s: level 2's steps took %s ms", gpu_words(f, d, gpu, sizeof gpu), cp_num(l->wall_us / 1000).s);
    }
    if (failed && !o->fix[0])
        cp_fix(o, "the driver refused a context: check 'nvidia-smi' (compute mode, another process holding "
               "an exclusive GPU) and the kernel log");
    if (sum_up(o, failed, passed, nr, "creating a context (cuDevicePrimaryCtxRetain)")) return;
    cp_set(o, CP_PASS, "a context was created on %d GPU%s", passed, passed > 1 ? "s" : "");
}

/* The probe kernels load, launch and complete. */
void cp_check_l2_kernels(const cp_facts *f, cp_finding *o)
{
    if (!l2_ran(f, o)) return;
    int failed = 0, passed = 0, nr = 0;
    for (int d = 0; d < f->cuda.ndev; d++) {
        const cp_cuda_l2 *l = &f->cuda.dev[d].l2;
        cp_status s = step_verdict(f, o, d, ST_COMPUTE, l->compute_result, l->compute_call, l->compute_error, &nr);
        failed += s == CP_FAIL;
        passed += s == CP_PASS;
    }
    if (sum_up(o, failed, passed, nr, "allocating, loading the probe kernels and running them")) return;
    cp_set(o, CP_PASS, "the probe kernels ran on %d GPU%s", passed, passed > 1 ? "s" : "");
}

/* 32 bits as a float's words. */
static void bits_words(int64_t bits, int as_float, char *buf, size_t cap)
{
    uint32_t u = (uint32_t)bits;
    if (!CP_KNOWN(bits)) { snprintf(buf, cap, "N/A"); return; }
    if (!as_float) { snprintf(buf, cap, "0x%08x", u); return; }
    float x;
    memcpy(&x, &u, sizeof x);
    snprintf(buf, cap, "0x%08x (%.9g)", u, (double)x);
}

/* Every element the GPU computed equals the CPU twins'. */
void cp_check_l2_compute(const cp_facts *f, cp_finding *o)
{
    if (!l2_ran(f, o)) return;
    int wrong = 0, passed = 0;
    int64_t checked = 0;
    char gpu[64], want[48], got[48];
    for (int d = 0; d < f->cuda.ndev; d++) {
        const cp_cuda_l2 *l = &f->cuda.dev[d].l2;
        if (state_of(f, d, ST_COMPUTE, l->compute_result) != RAN || !CP_KNOWN(l->wrong)) continue;
        gpu_words(f, d, gpu, sizeof gpu);
        if (CP_KNOWN(l->elements)) checked += 2 * l->elements;
        if (l->wrong == 0) {
            passed++;
            cp_evidence(o, "%s: %s elements of cp_k_fill_u32 and cp_k_fma_f32 match the CPU (seed 0x%08llx)", gpu,
                        cp_num(CP_KNOWN(l->elements) ? 2 * l->elements : CP_UNKNOWN).s,
                        (unsigned long long)(uint32_t)l->seed);
            continue;
        }
        wrong++;
        int fl = strcmp(l->wrong_kernel, "cp_k_fma_f32") == 0;
        bits_words(l->wrong_expected, fl, want, sizeof want);
        bits_words(l->wrong_got, fl, got, sizeof got);
        cp_evidence(o, "%s: %s of %s elements wrong (seed 0x%08llx)", gpu, cp_num(l->wrong).s,
                    cp_num(CP_KNOWN(l->elements) ? 2 * l->elements : CP_UNKNOWN).s,
                    (unsigned long long)(uint32_t)l->seed);
        cp_evidence(o, "%s: first wrong: %s element %s: expected %s, got %s", gpu, l->wrong_kernel,
                    cp_num(l->wrong_index).s, want, got);
    }
    if (wrong) {
        cp_set(o, CP_FAIL, "%d GPU%s computed wrong answers", wrong, wrong > 1 ? "s" : "");
        cp_fix(o, "a GPU that returns wrong elements from a fixed kernel is faulty: drain it, run the vendor's "
               "diagnostics (dcgmi diag -r 3), check 'dmesg' for XIDs 48/63/64/94/95, and have it replaced if it repeats");
        return;
    }
    if (!passed) {
        cp_set(o, CP_SKIP, "the kernels did not complete on any GPU (see driver.kernels)");
        return;
    }
    cp_set(o, CP_PASS, "%s elements on %d GPU%s equal the CPU's", cp_num(checked).s, passed, passed > 1 ? "s" : "");
}

/* Streams and events work, and a copy overlaps a kernel. */
void cp_check_l2_streams(const cp_facts *f, cp_finding *o)
{
    if (!l2_ran(f, o)) return;
    int failed = 0, passed = 0, nr = 0, serial = 0;
    char gpu[64];
    for (int d = 0; d < f->cuda.ndev; d++) {
        const cp_cuda_l2 *l = &f->cuda.dev[d].l2;
        cp_status s = step_verdict(f, o, d, ST_STREAMS, l->streams_result, l->streams_call, l->streams_error, &nr);
        failed += s == CP_FAIL;
        if (s != CP_PASS) continue;
        passed++;
        gpu_words(f, d, gpu, sizeof gpu);
        cp_evidence(o, "%s: copy %s us, kernel %s us, both on two streams %s us: overlap %s %%, %s copy engine%s", gpu,
                    cp_num(l->t_copy_us).s, cp_num(l->t_kernel_us).s, cp_num(l->t_both_us).s, cp_num(l->overlap_pct).s,
                    cp_num(l->copy_engines).s, l->copy_engines == 1 ? "" : "s");
        if (CP_KNOWN(l->overlap_pct) && l->overlap_pct < 10 && CP_KNOWN(l->copy_engines) && l->copy_engines > 0)
            serial++;
    }
    if (sum_up(o, failed, passed, nr, "streams and events")) return;
    if (serial) {
        cp_set(o, CP_WARN, "a copy and a kernel on two streams did not overlap on %d GPU%s with copy engines", serial,
               serial > 1 ? "s" : "");
        cp_fix(o, "copies serialise with kernels: look for CUDA_LAUNCH_BLOCKING=1 in the environment, MPS or "
               "another process keeping the copy engines busy ('nvidia-smi' shows them), or a virtualised GPU");
        return;
    }
    cp_set(o, CP_PASS, "streams and events work on %d GPU%s; copies overlap kernels", passed, passed > 1 ? "s" : "");
}

/* NVML's device of CUDA device d, by bus id; NULL when not known. */

/* The NUMA node of CUDA device d's PCI function (sysfs numa_node, -1 on a
 * platform without NUMA); CP_UNKNOWN when the function is not known. */
static int64_t gpu_numa_node(const cp_facts *f, int d)
{
    const char *bus = f->cuda.dev[d].pci_bus_id;
    for (int i = 0; bus[0] && i < f->host.npci && i < CP_MAX_PCI; i++)
        if (strcasecmp(f->host.pci[i].addr, bus) == 0) return f->host.pci[i].numa_node;
    return CP_UNKNOWN;
}

/* Free memory seen from a context, and who holds the rest. */
void cp_check_l2_memory(const cp_facts *f, cp_finding *o)
{
    if (!l2_ran(f, o)) return;
    int failed = 0, full = 0, warned = 0, busy = 0, passed = 0, nr = 0;
    char gpu[64], a[32], b[32], c[32], holders[512];
    for (int d = 0; d < f->cuda.ndev; d++) {
        const cp_cuda_l2 *l = &f->cuda.dev[d].l2;
        cp_status s = step_verdict(f, o, d, ST_MEMORY, l->mem_result, l->mem_call, l->mem_error, &nr);
        if (s == CP_FAIL) failed++;
        if (s != CP_PASS || !CP_KNOWN(l->mem_total_bytes) || l->mem_total_bytes <= 0) continue;
        passed++;
        gpu_words(f, d, gpu, sizeof gpu);
        int64_t total = l->mem_total_bytes, others = 0;
        const cp_nvml_device *n = nvml_of(f, d);
        int nheld = holders_words(f, d, holders, sizeof holders, &others);
        if (nheld == 0 && (!n || !CP_KNOWN(n->sample.nprocs_total))) {
            /* no process list: what is not free is held, this context's share too */
            others = CP_KNOWN(l->mem_free_bytes) ? total - l->mem_free_bytes : 0;
        }
        int64_t pct = others * 100 / total;
        cp_evidence(o, "%s: %s free of %s (from a context)", gpu, cp_mib(l->mem_free_bytes, a, sizeof a),
                    cp_mib(total, b, sizeof b));
        if (others > 0)
            cp_evidence(o, "%s: %s (%lld %%) held by other processes%s%s", gpu, cp_mib(others, c, sizeof c),
                        (long long)pct, holders[0] ? ": " : " (NVML lists none: counted as total less free)", holders);
        if (pct > 90) {
            full++;
            cp_fix(o, "another job fills the GPU (%s): wait for it, stop it, or run on another GPU", holders[0] ? holders : gpu);
        } else if (pct > 50) {
            warned++;
        }
        /* the utilisation NVML sampled as the probes began: before level 2's own work */
        if (nheld > 0 && n && CP_KNOWN(n->sample.util_gpu_pct) && n->sample.util_gpu_pct >= 90) {
            busy++;
            cp_evidence(o, "%s: a kernel ran %s %% of NVML's last sample period: the other processes keep it busy",
                        gpu, cp_num(n->sample.util_gpu_pct).s);
        }
    }
    if (full) {
        cp_set(o, CP_FAIL, "other processes hold more than 90 %% of the memory of %d GPU%s", full, full > 1 ? "s" : "");
        return;
    }
    if (failed) {
        cp_set(o, CP_FAIL, "free memory could not be read on %d GPU%s", failed, failed > 1 ? "s" : "");
        return;
    }
    if (!passed) {
        cp_set(o, CP_SKIP, "not reached on any GPU: an earlier level-2 step failed");
        return;
    }
    if (busy) {
        cp_set(o, CP_WARN, "another job keeps %d GPU%s busy", busy, busy > 1 ? "s" : "");
        cp_fix(o, "a job started here shares the GPU's time with it (slower than alone, and level 2's rates are "
               "shared too): wait for it or run on another GPU");
        return;
    }
    if (warned) {
        cp_set(o, CP_WARN, "other processes hold more than half the memory of %d GPU%s", warned, warned > 1 ? "s" : "");
        cp_fix(o, "a job started here gets what they leave: see the holders in the evidence");
        return;
    }
    cp_set(o, CP_PASS, "other processes hold less than half of every GPU's memory");
}

/* Pinned copies run at half the link's theoretical rate or better. */
void cp_check_l2_copy_rates(const cp_facts *f, cp_finding *o)
{
    if (!l2_ran(f, o)) return;
    int failed = 0, slow = 0, narrow = 0, far = 0, passed = 0, nr = 0;
    char gpu[64];
    for (int d = 0; d < f->cuda.ndev; d++) {
        const cp_cuda_l2 *l = &f->cuda.dev[d].l2;
        cp_status s = step_verdict(f, o, d, ST_COPY, l->copy_result, l->copy_call, l->copy_error, &nr);
        failed += s == CP_FAIL;
        if (s != CP_PASS) continue;
        passed++;
        gpu_words(f, d, gpu, sizeof gpu);
        const cp_nvml_device *n = nvml_of(f, d);
        int64_t gen = n ? n->inv.pcie_gen_max : CP_UNKNOWN, width = n ? n->inv.pcie_width_max : CP_UNKNOWN;
        int64_t cur_width = n ? n->sample.pcie_width_cur : CP_UNKNOWN;
        int64_t ceiling = cp_pcie_link_mbs(gen, width);
        cp_evidence(o, "%s: pinned H2D %s MB/s, D2H %s MB/s; pageable H2D %s MB/s, D2H %s MB/s (%s MiB copies, median)",
                    gpu, cp_num(l->h2d_pinned_mbs).s, cp_num(l->d2h_pinned_mbs).s, cp_num(l->h2d_pageable_mbs).s,
                    cp_num(l->d2h_pageable_mbs).s, cp_num(CP_KNOWN(l->copy_bytes) ? l->copy_bytes >> 20 : CP_UNKNOWN).s);
        if (!CP_KNOWN(ceiling)) {
            cp_evidence(o, "%s: the link's generation and width are not known: no ceiling", gpu);
            continue;
        }
        int64_t h = CP_KNOWN(l->h2d_pinned_mbs) ? l->h2d_pinned_mbs * 100 / ceiling : CP_UNKNOWN;
        int64_t dd = CP_KNOWN(l->d2h_pinned_mbs) ? l->d2h_pinned_mbs * 100 / ceiling : CP_UNKNOWN;
        cp_evidence(o, "%s: PCIe Gen%s x%s: %s MB/s each way in theory; pinned H2D %s %%, D2H %s %% of it", gpu,
                    cp_num(gen).s, cp_num(width).s, cp_num(ceiling).s, cp_num(h).s, cp_num(dd).s);
        if (CP_KNOWN(cur_width) && cur_width < width) {
            narrow++;
            cp_evidence(o, "%s: the link runs x%s of x%s: downtrained", gpu, cp_num(cur_width).s, cp_num(width).s);
        }
        if ((CP_KNOWN(h) && h < 50) || (CP_KNOWN(dd) && dd < 50)) slow++;
        int64_t gpu_node = gpu_numa_node(f, d);
        if (CP_KNOWN(gpu_node) && gpu_node >= 0 && CP_KNOWN(l->pinned_numa_node) && l->pinned_numa_node != gpu_node) {
            far++;
            cp_evidence(o, "%s: the pinned buffer sat on NUMA node %s, the GPU is on node %s: every copy crosses "
                        "the CPUs' interconnect", gpu, cp_num(l->pinned_numa_node).s, cp_num(gpu_node).s);
        }
    }
    if (sum_up(o, failed, passed, nr, "timing copies")) return;
    if (far && !narrow && !slow) {
        cp_set(o, CP_WARN, "pinned copies from another NUMA node than the GPU's on %d GPU%s", far, far > 1 ? "s" : "");
        cp_fix(o, "run the job on the GPU's NUMA node (numactl --cpunodebind=N --membind=N, N from the evidence or "
               "'nvidia-smi topo -m'), or let the launcher bind each rank to its GPU's node");
        return;
    }
    if (narrow || slow) {
        cp_set(o, CP_WARN, "%s on %d GPU%s", narrow ? "a downtrained PCIe link" : "pinned copies below half the link's rate",
               narrow ? narrow : slow, (narrow ? narrow : slow) > 1 ? "s" : "");
        cp_fix(o, "host<->GPU copies run slow: reseat the card or riser, check the BIOS PCIe settings and "
               "bifurcation, and that the copies' memory sits on the GPU's NUMA node (numactl)");
        return;
    }
    cp_set(o, CP_PASS, "pinned copies at half the link's rate or better on %d GPU%s", passed, passed > 1 ? "s" : "");
}
