/*
 * cuprobe bench: each row's ceiling, from the facts of the machine and the
 * datasheet table (kb/gpu_peaks.c).  docs/bench.md says, per row, which
 * ceiling it gets and why.  Pure: reads the facts, writes the rows.
 *
 *   copy.h2d / copy.d2h (CE and SM)   the PCIe link, one direction
 *   copy.bidir                        twice that (PCIe is full duplex)
 *   copy.d2d (CE and SM)              half the memory bandwidth (a copy of N bytes moves 2N)
 *   hbm.read, hbm.write               the memory bandwidth
 *   peer.D-P.*                        NVLink lanes x rate on an SXM board, else the slower PCIe link
 *   gemm.<dtype>                      the datasheet's dense rate of the dtype
 *   nccl.allreduce                    the slowest link among the devices
 *   launch.*                          none (lower is better)
 *
 * Where the link or the model is unknown, an SM copy is measured against
 * the copy-engine row of the same kind and device (CP_CEIL_MEASURED).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cuprobe/bench.h"
#include "kb/gpu_peaks.h"
#include "util/str.h"

/* A PCIe link as the facts know it: its maximum (what the GPU and the slot
 * both support) and what it ran at when the facts were read. */
typedef struct {
    int64_t gen, width, cur_gen, cur_width;
} pcie_link;

/* The PCI bus id of CUDA ordinal d, or NULL when the facts do not know it. */
static const char *bus_of(const cp_facts *f, int d)
{
    for (int i = 0; i < f->cuda.ndev && i < CP_MAX_GPUS; i++)
        if (f->cuda.dev[i].ordinal == d && f->cuda.dev[i].pci_bus_id[0]) return f->cuda.dev[i].pci_bus_id;
    return NULL;
}

static const cp_nvml_device *nvml_at(const cp_facts *f, const char *bus)
{
    for (int i = 0; i < f->nvml.ndev && i < CP_MAX_GPUS; i++)
        if (strcasecmp(f->nvml.dev[i].inv.pci_bus_id, bus) == 0) return &f->nvml.dev[i];
    return NULL;
}

static const cp_pci_function *pci_at(const cp_facts *f, const char *bus)
{
    for (int i = 0; i < f->host.npci && i < CP_MAX_PCI; i++)
        if (strcasecmp(f->host.pci[i].addr, bus) == 0) return &f->host.pci[i];
    return NULL;
}

/* sysfs speaks MT/s a lane ("32.0 GT/s PCIe" -> 32000); the generation it is. */
static int64_t gen_of_mts(int64_t mts)
{
    static const int64_t per_gen[] = { 2500, 5000, 8000, 16000, 32000, 64000 };
    for (int g = 0; g < 6; g++)
        if (mts == per_gen[g]) return g + 1;
    return CP_UNKNOWN;
}

/* NVML's answer first (the driver's view), each field on its own, else sysfs. */
static void link_of(const cp_facts *f, const char *bus, pcie_link *l)
{
    l->gen = l->width = l->cur_gen = l->cur_width = CP_UNKNOWN;
    if (!bus) return;
    const cp_nvml_device *n = nvml_at(f, bus);
    if (n) {
        l->gen = n->inv.pcie_gen_max;
        l->width = n->inv.pcie_width_max;
        l->cur_gen = n->sample.pcie_gen_cur;
        l->cur_width = n->sample.pcie_width_cur;
    }
    const cp_pci_function *p = pci_at(f, bus);
    if (p) {
        if (!CP_KNOWN(l->gen)) l->gen = CP_KNOWN(p->max_speed_mts) ? gen_of_mts(p->max_speed_mts) : CP_UNKNOWN;
        if (!CP_KNOWN(l->width)) l->width = p->max_width;
        if (!CP_KNOWN(l->cur_gen)) l->cur_gen = CP_KNOWN(p->cur_speed_mts) ? gen_of_mts(p->cur_speed_mts) : CP_UNKNOWN;
        if (!CP_KNOWN(l->cur_width)) l->cur_width = p->cur_width;
    }
}

/* The one-way rate of the link in GB/s, NAN when unknown. */
static double link_gbs(const pcie_link *l)
{
    int64_t mbs = cp_pcie_link_mbs(l->gen, l->width);
    return CP_KNOWN(mbs) ? (double)mbs / 1000.0 : NAN;
}

/* The datasheet row of CUDA ordinal d's model, NULL when unknown. */
static const cp_gpu_peaks *peaks_of(const cp_facts *f, int d)
{
    const char *bus = bus_of(f, d);
    return bus ? cp_gpu_peaks_lookup(cp_gpu_model(f, bus)) : NULL;
}

static void set_ceiling(cp_bench_row *row, double c, cp_bench_ceiling_kind kind, const char *what)
{
    if (!isfinite(c) || c <= 0) return;
    row->ceiling = c;
    row->ceiling_kind = kind;
    cp_str_copy(row->ceiling_what, sizeof row->ceiling_what, what);
}

/* A note in an OK row's detail, unless the measurement left one there. */
static void note(cp_bench_row *row, const char *text)
{
    if (row->state == CP_BENCH_OK && !row->detail[0]) cp_str_copy(row->detail, sizeof row->detail, text);
}

static bool unit_is(const cp_bench_row *row, const char *unit)
{
    return strcmp(row->unit, unit) == 0;
}

/* Host <-> device over PCIe: times one or two (bidirectional) directions. */
static void ceil_pcie(const cp_facts *f, cp_bench_row *row, int ways)
{
    pcie_link l;
    link_of(f, bus_of(f, row->device), &l);
    double c = link_gbs(&l) * ways;
    if (!isfinite(c)) return;
    char what[80];
    snprintf(what, sizeof what, "PCIe Gen%lld x%lld%s (%.1f GB/s)", (long long)l.gen, (long long)l.width,
             ways == 2 ? ", both ways" : "", c);
    set_ceiling(row, c, CP_CEIL_LINK, what);
    /* A narrower link is a fault (a riser, a slot, bifurcation); a lower
     * generation may only be the GPU saving power while idle. */
    if (CP_KNOWN(l.cur_width) && CP_KNOWN(l.width) && l.cur_width < l.width) {
        char d[200];
        snprintf(d, sizeof d, "downtrained: Gen%lld x%lld of Gen%lld x%lld",
                 (long long)(CP_KNOWN(l.cur_gen) ? l.cur_gen : l.gen), (long long)l.cur_width, (long long)l.gen,
                 (long long)l.width);
        note(row, d);
    } else if (CP_KNOWN(l.cur_gen) && CP_KNOWN(l.gen) && l.cur_gen < l.gen) {
        char d[200];
        snprintf(d, sizeof d, "downtrained: Gen%lld x%lld of Gen%lld x%lld when the facts were read "
                 "(a GPU at idle may lower its generation to save power)", (long long)l.cur_gen,
                 (long long)(CP_KNOWN(l.cur_width) ? l.cur_width : l.width), (long long)l.gen, (long long)l.width);
        note(row, d);
    }
}

/* Device memory: the datasheet's bandwidth, or half of it for a copy. */
static void ceil_memory(const cp_facts *f, cp_bench_row *row, bool copy)
{
    const cp_gpu_peaks *p = peaks_of(f, row->device);
    if (!p || p->mem_gbs <= 0) return;
    char what[80];
    if (copy)
        snprintf(what, sizeof what, "half of %s %s %.0f GB/s (read + write)", p->model, p->mem_kind, p->mem_gbs);
    else
        snprintf(what, sizeof what, "%s %s datasheet (%.0f GB/s)", p->model, p->mem_kind, p->mem_gbs);
    set_ceiling(row, copy ? p->mem_gbs / 2 : p->mem_gbs, CP_CEIL_DATASHEET, what);
}

/* The link device d reaches its peers over, one way, GB/s; what says which. */
static double peer_link(const cp_facts *f, int d, char *what, size_t cap, bool *bridge)
{
    const cp_gpu_peaks *p = peaks_of(f, d);
    if (p && p->nvlink_lanes > 0 && p->nvlink_on_board) {
        snprintf(what, cap, "NVLink %d x %.0f GB/s (%s datasheet)", p->nvlink_lanes, p->nvlink_lane_gbs, p->model);
        return p->nvlink_lanes * p->nvlink_lane_gbs;
    }
    if (p && p->nvlink_lanes > 0) *bridge = true;
    pcie_link l;
    link_of(f, bus_of(f, d), &l);
    double c = link_gbs(&l);
    if (isfinite(c)) snprintf(what, cap, "PCIe Gen%lld x%lld (%.1f GB/s)", (long long)l.gen, (long long)l.width, c);
    return c;
}

#define BRIDGE_NOTE "an NVLink bridge is not in the facts: above 100 % means the traffic took one"

/* A peer copy: the slower of the two devices' links. */
static void ceil_peer(const cp_facts *f, cp_bench_row *row)
{
    if (row->peer < 0) return;
    char wa[80] = "", wb[80] = "";
    bool bridge = false;
    double a = peer_link(f, row->device, wa, sizeof wa, &bridge);
    double b = peer_link(f, row->peer, wb, sizeof wb, &bridge);
    if (!isfinite(a) || !isfinite(b)) return;
    set_ceiling(row, a <= b ? a : b, CP_CEIL_LINK, a <= b ? wa : wb);
    if (bridge && strncmp(row->ceiling_what, "PCIe", 4) == 0) note(row, BRIDGE_NOTE);
}

/* A collective: the slowest link among every device the run measured. */
static void ceil_collective(const cp_facts *f, cp_bench_result *r, cp_bench_row *row)
{
    int seen[CP_MAX_GPUS], n = 0;
    for (int i = 0; i < r->nrows && i < CP_BENCH_MAX_ROWS; i++) {
        int d = r->row[i].device, k = 0;
        if (d < 0 || strncmp(r->row[i].id, "nccl.", 5) == 0) continue;
        while (k < n && seen[k] != d) k++;
        if (k == n && n < CP_MAX_GPUS) seen[n++] = d;
    }
    if (n < 2) return;              /* one rank: no link between ranks */
    double slowest = NAN;
    char what[80] = "", w[80];
    bool bridge = false;
    for (int k = 0; k < n; k++) {
        w[0] = '\0';
        double c = peer_link(f, seen[k], w, sizeof w, &bridge);
        if (!isfinite(c)) return;   /* a link not known: the slowest is not known */
        if (!isfinite(slowest) || c < slowest) { slowest = c; snprintf(what, sizeof what, "slowest link: %s", w); }
    }
    set_ceiling(row, slowest, CP_CEIL_LINK, what);
    if (bridge && strstr(row->ceiling_what, "PCIe")) note(row, BRIDGE_NOTE);
}

/* A GEMM: the datasheet's dense rate of its dtype. */
static void ceil_gemm(const cp_facts *f, cp_bench_row *row)
{
    const cp_gpu_peaks *p = peaks_of(f, row->device);
    if (!p) return;
    static const char *const ids[] = { "gemm.bf16", "gemm.fp16", "gemm.tf32", "gemm.fp32" };
    static const char *const names[] = { "BF16", "FP16", "TF32", "FP32" };
    double rate[] = { p->bf16_tflops, p->fp16_tflops, p->tf32_tflops, p->fp32_tflops };
    for (int k = 0; k < 4; k++) {
        if (strcmp(row->id, ids[k]) != 0) continue;
        char what[80];
        if (rate[k] <= 0) {
            char d[200];
            snprintf(d, sizeof d, "the %s datasheet lists no %s rate", p->model, names[k]);
            note(row, d);
            return;
        }
        if (k == 3) snprintf(what, sizeof what, "%s FP32 datasheet peak (no tensor cores)", p->model);
        else snprintf(what, sizeof what, "%s dense %s datasheet peak", p->model, names[k]);
        set_ceiling(row, rate[k], CP_CEIL_DATASHEET, what);
        return;
    }
}

/* An SM copy without a link or datasheet ceiling: the copy engine's rate of
 * the same copy on the same device, measured in this run. */
static void ceil_measured(cp_bench_result *r, cp_bench_row *row)
{
    size_t n = strlen(row->id);
    if (row->ceiling_kind != CP_CEIL_NONE || n < 3 || strcmp(row->id + n - 3, ".sm") != 0) return;
    char twin[40];
    if (!cp_str_copy_n(twin, sizeof twin, row->id, n - 3) || !cp_str_append(twin, sizeof twin, "", ".ce")) return;
    for (int i = 0; i < r->nrows && i < CP_BENCH_MAX_ROWS; i++) {
        const cp_bench_row *t = &r->row[i];
        if (t->device != row->device || strcmp(t->id, twin) != 0 || t->state != CP_BENCH_OK) continue;
        char what[80];
        snprintf(what, sizeof what, "the copy engine, this run (%s)", twin);
        set_ceiling(row, t->value, CP_CEIL_MEASURED, what);
        return;
    }
}

/* See bench.h. */
void cp_bench_ceilings(const cp_facts *f, cp_bench_result *r)
{
    if (!r) return;
    int nrows = r->nrows < CP_BENCH_MAX_ROWS ? r->nrows : CP_BENCH_MAX_ROWS;
    for (int i = 0; i < nrows; i++) {
        cp_bench_row *row = &r->row[i];
        row->ceiling = NAN;
        row->ceiling_kind = CP_CEIL_NONE;
        row->ceiling_what[0] = '\0';
        if (!f) continue;
        const char *id = row->id;
        bool gbs = unit_is(row, "GB/s");
        if (gbs && (cp_str_starts_with(id, "copy.h2d.") || cp_str_starts_with(id, "copy.d2h.")))
            ceil_pcie(f, row, 1);
        else if (gbs && cp_str_starts_with(id, "copy.bidir."))
            ceil_pcie(f, row, 2);
        else if (gbs && cp_str_starts_with(id, "copy.d2d."))
            ceil_memory(f, row, true);
        else if (gbs && (strcmp(id, "hbm.read") == 0 || strcmp(id, "hbm.write") == 0))
            ceil_memory(f, row, false);
        else if (gbs && cp_str_starts_with(id, "peer."))
            ceil_peer(f, row);
        else if (gbs && cp_str_starts_with(id, "nccl."))
            ceil_collective(f, r, row);
        else if (unit_is(row, "TFLOP/s") && cp_str_starts_with(id, "gemm."))
            ceil_gemm(f, row);
        /* launch.* and anything else: no ceiling */
    }
    /* second pass: the measured ceilings read the other rows as measured */
    for (int i = 0; i < nrows; i++)
        if (unit_is(&r->row[i], "GB/s")) ceil_measured(r, &r->row[i]);
}

/* See bench.h. */
double cp_bench_pct(const cp_bench_row *row)
{
    if (!row || row->state != CP_BENCH_OK) return NAN;
    double v = row->value, c = row->ceiling;
    if (!isfinite(v) || !isfinite(c) || v <= 0 || c <= 0) return NAN;
    return row->higher_is_better ? v / c * 100.0 : c / v * 100.0;
}
