/*
 * cuprobe bench's ceilings (src/lib/bench/ceilings.c) and the datasheet
 * table they read (src/lib/kb/gpu_peaks.c), on hand-made facts and rows.
 */
#include <math.h>
#include <string.h>

#include "cuprobe/bench.h"
#include "cuprobe/cuprobe.h"
#include "kb/gpu_peaks.h"
#include "test.h"

static cp_facts F;
static cp_bench_result R;

#define NEAR(a, b) (fabs((a) - (b)) < 1e-6 * (fabs(b) + 1))
#define CHECK_NEAR(a, b) do { double a_ = (a), b_ = (b); if (!NEAR(a_, b_)) { test_failed_checks++; \
    fprintf(stderr, "  %s:%d: %s == %.9g, expected %.9g\n", __FILE__, __LINE__, #a, a_, b_); } } while (0)

/* One GPU of the facts: CUDA ordinal d at bus, its name in CUDA and NVML,
 * an NVML PCIe link gen x width (cur as given). */
static void gpu(int d, const char *bus, const char *name, int gen, int width, int cur_gen, int cur_width)
{
    cp_cuda_device *c = &F.cuda.dev[F.cuda.ndev++];
    cp_cuda_device_init(c, d);
    snprintf(c->pci_bus_id, sizeof c->pci_bus_id, "%s", bus);
    snprintf(c->name, sizeof c->name, "%s", name);
    cp_nvml_device *n = &F.nvml.dev[F.nvml.ndev];
    cp_nvml_device_init(n, F.nvml.ndev);
    F.nvml.ndev++;
    snprintf(n->inv.pci_bus_id, sizeof n->inv.pci_bus_id, "%s", bus);
    snprintf(n->inv.name, sizeof n->inv.name, "%s", name);
    n->inv.pcie_gen_max = gen;
    n->inv.pcie_width_max = width;
    n->sample.pcie_gen_cur = cur_gen;
    n->sample.pcie_width_cur = cur_width;
}

static void reset(void)
{
    cp_facts_init(&F);
    memset(&R, 0, sizeof R);
}

static cp_bench_row *row(const char *id, const char *unit, int device, int peer, double value)
{
    cp_bench_row *w = &R.row[R.nrows++];
    memset(w, 0, sizeof *w);
    snprintf(w->id, sizeof w->id, "%s", id);
    snprintf(w->unit, sizeof w->unit, "%s", unit);
    w->device = device;
    w->peer = peer;
    w->size = 256 << 20;
    w->state = CP_BENCH_OK;
    w->value = value;
    w->spread = 0.01;
    w->repeats = 10;
    w->higher_is_better = strcmp(unit, "us") != 0;
    w->ceiling = 123;     /* stale: cp_bench_ceilings must set every row afresh */
    w->ceiling_kind = CP_CEIL_DATASHEET;
    snprintf(w->ceiling_what, sizeof w->ceiling_what, "stale");
    return w;
}

static void check_none(const cp_bench_row *w)
{
    CHECK(isnan(w->ceiling));
    CHECK_I64(w->ceiling_kind, CP_CEIL_NONE);
    CHECK_STR(w->ceiling_what, "");
    CHECK(isnan(cp_bench_pct(w)));
}

/* Gen5 x16: 32 GT/s x 16 lanes x 128/130 / 8 = 63,015 MB/s one way. */
static void test_h200_host_copies(void)
{
    reset();
    gpu(0, "0000:00:06.0", "NVIDIA H200", 5, 16, 5, 16);
    cp_bench_row *h2d = row("copy.h2d.pinned.ce", "GB/s", 0, -1, 55.0);
    cp_bench_row *d2h = row("copy.d2h.pageable.ce", "GB/s", 0, -1, 20.0);
    cp_bench_row *bi = row("copy.bidir.pinned.ce", "GB/s", 0, -1, 100.0);
    cp_bench_row *sm = row("copy.h2d.pinned.sm", "GB/s", 0, -1, 50.0);
    cp_bench_ceilings(&F, &R);
    CHECK_NEAR(h2d->ceiling, 63.015);
    CHECK_I64(h2d->ceiling_kind, CP_CEIL_LINK);
    CHECK_STR(h2d->ceiling_what, "PCIe Gen5 x16 (63.0 GB/s)");
    CHECK_NEAR(cp_bench_pct(h2d), 55.0 / 63.015 * 100);
    CHECK_STR(h2d->detail, "");                    /* not downtrained: no note */
    CHECK_NEAR(d2h->ceiling, 63.015);
    CHECK_NEAR(bi->ceiling, 126.03);               /* full duplex: both ways */
    CHECK_STR(bi->ceiling_what, "PCIe Gen5 x16, both ways (126.0 GB/s)");
    CHECK_NEAR(sm->ceiling, 63.015);               /* an SM copy has the same link over it */
    CHECK_I64(sm->ceiling_kind, CP_CEIL_LINK);
}

static void test_h200_memory_and_gemm(void)
{
    reset();
    gpu(0, "0000:00:06.0", "NVIDIA H200", 5, 16, 5, 16);
    cp_bench_row *d2d = row("copy.d2d.ce", "GB/s", 0, -1, 2000.0);
    cp_bench_row *d2dsm = row("copy.d2d.sm", "GB/s", 0, -1, 2100.0);
    cp_bench_row *rd = row("hbm.read", "GB/s", 0, -1, 4000.0);
    cp_bench_row *wr = row("hbm.write", "GB/s", 0, -1, 4100.0);
    cp_bench_row *bf = row("gemm.bf16", "TFLOP/s", 0, -1, 700.0);
    cp_bench_row *fp16 = row("gemm.fp16", "TFLOP/s", 0, -1, 700.0);
    cp_bench_row *tf = row("gemm.tf32", "TFLOP/s", 0, -1, 400.0);
    cp_bench_row *fp = row("gemm.fp32", "TFLOP/s", 0, -1, 50.0);
    cp_bench_row *lp = row("launch.plain", "us", 0, -1, 2.5);
    cp_bench_row *lg = row("launch.graph", "us", 0, -1, 1.0);
    cp_bench_ceilings(&F, &R);
    /* a copy of N bytes reads N and writes N: half the HBM figure */
    CHECK_NEAR(d2d->ceiling, 2400);
    CHECK_I64(d2d->ceiling_kind, CP_CEIL_DATASHEET);
    CHECK_STR(d2d->ceiling_what, "half of H200 SXM HBM3e 4800 GB/s (read + write)");
    CHECK_NEAR(d2dsm->ceiling, 2400);
    CHECK_NEAR(rd->ceiling, 4800);
    CHECK_STR(rd->ceiling_what, "H200 SXM HBM3e datasheet (4800 GB/s)");
    CHECK_NEAR(wr->ceiling, 4800);
    /* dense: the datasheet's 1,979 (BF16) and 989 (TF32) with sparsity, halved */
    CHECK_NEAR(bf->ceiling, 989.5);
    CHECK_STR(bf->ceiling_what, "H200 SXM dense BF16 datasheet peak");
    CHECK_NEAR(fp16->ceiling, 989.5);
    CHECK_NEAR(tf->ceiling, 494.5);
    CHECK_NEAR(fp->ceiling, 67);
    CHECK_STR(fp->ceiling_what, "H200 SXM FP32 datasheet peak (no tensor cores)");
    CHECK_NEAR(cp_bench_pct(bf), 700 / 989.5 * 100);
    check_none(lp);
    check_none(lg);
}

/* An unknown model gets no datasheet figure at all, never a guess; its
 * link still has one. */
static void test_unknown_model(void)
{
    reset();
    gpu(0, "0000:00:06.0", "NVIDIA Future X1", 5, 16, 5, 16);
    cp_bench_row *h2d = row("copy.h2d.pinned.ce", "GB/s", 0, -1, 55.0);
    cp_bench_row *d2d = row("copy.d2d.ce", "GB/s", 0, -1, 2000.0);
    cp_bench_row *d2dsm = row("copy.d2d.sm", "GB/s", 0, -1, 1800.0);
    cp_bench_row *rd = row("hbm.read", "GB/s", 0, -1, 4000.0);
    cp_bench_row *bf = row("gemm.bf16", "TFLOP/s", 0, -1, 700.0);
    cp_bench_ceilings(&F, &R);
    CHECK_I64(h2d->ceiling_kind, CP_CEIL_LINK);
    check_none(d2d);
    check_none(rd);
    check_none(bf);
    /* the SM copy against the copy engine's copy of this run */
    CHECK_NEAR(d2dsm->ceiling, 2000.0);
    CHECK_I64(d2dsm->ceiling_kind, CP_CEIL_MEASURED);
    CHECK_STR(d2dsm->ceiling_what, "the copy engine, this run (copy.d2d.ce)");
    CHECK_NEAR(cp_bench_pct(d2dsm), 90.0);
}

/* A link narrower than its maximum is said so; the ceiling stays the
 * maximum, so the percentage shows what the fault costs. */
static void test_downtrained(void)
{
    reset();
    gpu(0, "0000:00:06.0", "NVIDIA H200", 5, 16, 5, 8);
    gpu(1, "0000:00:07.0", "NVIDIA H200", 5, 16, 1, 16);
    cp_bench_row *a = row("copy.h2d.pinned.ce", "GB/s", 0, -1, 27.0);
    cp_bench_row *b = row("copy.h2d.pinned.ce", "GB/s", 1, -1, 55.0);
    cp_bench_row *kept = row("copy.d2h.pinned.ce", "GB/s", 0, -1, 27.0);
    snprintf(kept->detail, sizeof kept->detail, "the measurer's own note");
    cp_bench_row *skipped = row("copy.d2h.pageable.ce", "GB/s", 0, -1, NAN);
    skipped->state = CP_BENCH_SKIPPED;
    snprintf(skipped->detail, sizeof skipped->detail, "no pageable buffer");
    cp_bench_ceilings(&F, &R);
    CHECK_NEAR(a->ceiling, 63.015);
    CHECK_STR(a->detail, "downtrained: Gen5 x8 of Gen5 x16");
    CHECK(strstr(b->detail, "downtrained: Gen1 x16 of Gen5 x16 when the facts were read") == b->detail);
    CHECK_STR(kept->detail, "the measurer's own note");    /* never overwritten */
    CHECK_STR(skipped->detail, "no pageable buffer");
    CHECK_NEAR(skipped->ceiling, 63.015);                  /* the ceiling is still known */
    CHECK(isnan(cp_bench_pct(skipped)));
}

/* Without NVML, the sysfs link (MT/s): 16 GT/s is Gen4, 31,507 MB/s at x16. */
static void test_sysfs_link(void)
{
    reset();
    cp_cuda_device *c = &F.cuda.dev[F.cuda.ndev++];
    cp_cuda_device_init(c, 0);
    snprintf(c->pci_bus_id, sizeof c->pci_bus_id, "0000:3b:00.0");
    snprintf(c->name, sizeof c->name, "NVIDIA L40S");
    cp_pci_function *p = &F.host.pci[F.host.npci++];
    cp_pci_function_init(p);
    snprintf(p->addr, sizeof p->addr, "0000:3B:00.0");    /* case does not matter */
    p->max_speed_mts = 16000;
    p->max_width = 16;
    p->cur_speed_mts = 16000;
    p->cur_width = 4;
    cp_bench_row *h2d = row("copy.h2d.pinned.ce", "GB/s", 0, -1, 20.0);
    cp_bench_row *hbm = row("hbm.read", "GB/s", 0, -1, 800.0);
    cp_bench_row *odd = row("copy.h2d.pinned.ce", "GB/s", 0, -1, 20.0);
    cp_bench_ceilings(&F, &R);
    CHECK_NEAR(h2d->ceiling, 31.507);
    CHECK_STR(h2d->ceiling_what, "PCIe Gen4 x16 (31.5 GB/s)");
    CHECK_STR(h2d->detail, "downtrained: Gen4 x4 of Gen4 x16");
    CHECK_NEAR(hbm->ceiling, 864);
    CHECK_STR(hbm->ceiling_what, "L40S GDDR6 datasheet (864 GB/s)");
    (void)odd;
    /* a speed sysfs never writes is no generation */
    p->max_speed_mts = 12345;
    cp_bench_ceilings(&F, &R);
    check_none(h2d);
}

/* Nothing known of the link: host copies have no ceiling; an SM copy is
 * measured against its copy-engine twin of the same device only. */
static void test_no_link_measured(void)
{
    reset();
    cp_bench_row *ce0 = row("copy.h2d.pinned.ce", "GB/s", 0, -1, 50.0);
    cp_bench_row *ce1 = row("copy.h2d.pinned.ce", "GB/s", 1, -1, 40.0);
    cp_bench_row *sm1 = row("copy.h2d.pinned.sm", "GB/s", 1, -1, 30.0);
    cp_bench_row *sm2 = row("copy.d2h.pinned.sm", "GB/s", 1, -1, 30.0);   /* no CE twin */
    cp_bench_row *failed = row("copy.h2d.pinned.ce", "GB/s", 2, -1, NAN);
    failed->state = CP_BENCH_FAILED;
    cp_bench_row *sm3 = row("copy.h2d.pinned.sm", "GB/s", 2, -1, 30.0);   /* its twin failed */
    cp_bench_ceilings(NULL, &R);                    /* no facts: measured ceilings only */
    check_none(ce0);
    check_none(ce1);
    CHECK_NEAR(sm1->ceiling, 40.0);
    CHECK_I64(sm1->ceiling_kind, CP_CEIL_MEASURED);
    CHECK_NEAR(cp_bench_pct(sm1), 75.0);
    check_none(sm2);
    check_none(failed);
    check_none(sm3);
    cp_facts_init(&F);                              /* facts, but none about these devices */
    cp_bench_ceilings(&F, &R);
    check_none(ce0);
    CHECK_NEAR(sm1->ceiling, 40.0);
}

static void test_peers(void)
{
    reset();
    gpu(0, "0000:18:00.0", "NVIDIA H200", 5, 16, 5, 16);
    gpu(1, "0000:2a:00.0", "NVIDIA H200", 5, 16, 5, 16);
    gpu(2, "0000:3a:00.0", "NVIDIA L40S", 4, 16, 4, 16);
    gpu(3, "0000:5d:00.0", "NVIDIA L40S", 4, 8, 4, 8);
    gpu(4, "0000:9a:00.0", "NVIDIA H100 PCIe", 5, 16, 5, 16);
    gpu(5, "0000:ab:00.0", "NVIDIA H100 PCIe", 5, 16, 5, 16);
    cp_bench_row *nv = row("peer.0-1.read", "GB/s", 0, 1, 380.0);
    cp_bench_row *pc = row("peer.2-3.write", "GB/s", 2, 3, 12.0);
    cp_bench_row *br = row("peer.4-5.read", "GB/s", 4, 5, 50.0);
    cp_bench_row *mixed = row("peer.0-2.read", "GB/s", 0, 2, 20.0);
    cp_bench_row *lost = row("peer.0-7.read", "GB/s", 0, 7, 20.0);     /* device 7: not in the facts */
    cp_bench_row *nopeer = row("peer.0-1.read", "GB/s", 0, -1, 20.0);
    cp_bench_ceilings(&F, &R);
    /* NVLink 4 on the HGX board: 18 links x 25 GB/s one way (900 GB/s both ways) */
    CHECK_NEAR(nv->ceiling, 450);
    CHECK_I64(nv->ceiling_kind, CP_CEIL_LINK);
    CHECK_STR(nv->ceiling_what, "NVLink 18 x 25 GB/s (H200 SXM datasheet)");
    /* the slower PCIe link of the two */
    CHECK_NEAR(pc->ceiling, 15.753);
    CHECK_STR(pc->ceiling_what, "PCIe Gen4 x8 (15.8 GB/s)");
    CHECK_STR(pc->detail, "");
    /* PCIe cards whose NVLink bridge the facts cannot see */
    CHECK_NEAR(br->ceiling, 63.015);
    CHECK(strstr(br->detail, "NVLink bridge") != NULL);
    CHECK_NEAR(mixed->ceiling, 31.507);                 /* the L40S side's PCIe is the slower */
    check_none(lost);
    check_none(nopeer);
}

static void test_collective(void)
{
    reset();
    gpu(0, "0000:18:00.0", "NVIDIA H200", 5, 16, 5, 16);
    gpu(1, "0000:2a:00.0", "NVIDIA H200", 5, 16, 5, 16);
    row("copy.h2d.pinned.ce", "GB/s", 0, -1, 55.0);
    row("copy.h2d.pinned.ce", "GB/s", 1, -1, 55.0);
    cp_bench_row *ar = row("nccl.allreduce", "GB/s", 0, -1, 350.0);
    cp_bench_ceilings(&F, &R);
    CHECK_NEAR(ar->ceiling, 450);
    CHECK_STR(ar->ceiling_what, "slowest link: NVLink 18 x 25 GB/s (H200 SXM datasheet)");
    /* one device: no link between ranks, no ceiling */
    reset();
    gpu(0, "0000:18:00.0", "NVIDIA H200", 5, 16, 5, 16);
    row("copy.h2d.pinned.ce", "GB/s", 0, -1, 55.0);
    ar = row("nccl.allreduce", "GB/s", 0, -1, 350.0);
    cp_bench_ceilings(&F, &R);
    check_none(ar);
    /* a device whose link is unknown: the slowest is unknown */
    reset();
    gpu(0, "0000:18:00.0", "NVIDIA L4", 4, 16, 4, 16);
    row("copy.h2d.pinned.ce", "GB/s", 0, -1, 20.0);
    row("copy.h2d.pinned.ce", "GB/s", 3, -1, 20.0);
    ar = row("nccl.allreduce", "GB/s", 0, -1, 10.0);
    cp_bench_ceilings(&F, &R);
    check_none(ar);
}

/* A dtype the model's datasheet has no figure for: no ceiling, a note. */
static void test_dtype_not_listed(void)
{
    reset();
    gpu(0, "0000:00:04.0", "Tesla T4", 3, 16, 3, 16);
    cp_bench_row *bf = row("gemm.bf16", "TFLOP/s", 0, -1, 10.0);
    cp_bench_row *h = row("gemm.fp16", "TFLOP/s", 0, -1, 40.0);
    cp_bench_row *odd = row("gemm.int8", "TFLOP/s", 0, -1, 40.0);
    cp_bench_row *mb = row("hbm.read", "MB/s", 0, -1, 300000.0);   /* not the unit the ceilings speak */
    cp_bench_ceilings(&F, &R);
    check_none(bf);
    CHECK_STR(bf->detail, "the T4 datasheet lists no BF16 rate");
    CHECK_NEAR(h->ceiling, 65);
    check_none(odd);
    check_none(mb);
}

static void test_pct(void)
{
    cp_bench_row w;
    memset(&w, 0, sizeof w);
    w.state = CP_BENCH_OK;
    w.higher_is_better = true;
    w.value = 50;
    w.ceiling = 200;
    CHECK_NEAR(cp_bench_pct(&w), 25);
    w.higher_is_better = false;     /* latency: 4 us against a 2 us floor is 50 % */
    w.value = 4;
    w.ceiling = 2;
    CHECK_NEAR(cp_bench_pct(&w), 50);
    w.value = 0;
    CHECK(isnan(cp_bench_pct(&w)));
    w.value = -1;
    CHECK(isnan(cp_bench_pct(&w)));
    w.value = NAN;
    CHECK(isnan(cp_bench_pct(&w)));
    w.value = 4;
    w.ceiling = 0;
    CHECK(isnan(cp_bench_pct(&w)));
    w.ceiling = NAN;
    CHECK(isnan(cp_bench_pct(&w)));
    w.ceiling = INFINITY;
    CHECK(isnan(cp_bench_pct(&w)));
    w.ceiling = 2;
    w.state = CP_BENCH_FAILED;
    CHECK(isnan(cp_bench_pct(&w)));
    CHECK(isnan(cp_bench_pct(NULL)));
}

/* Every row: its own names find it, figures are dense (TF32 about half of
 * BF16, as on every tensor-core generation that has both), a source named. */
static void test_table(void)
{
    size_t n = 0;
    for (const cp_gpu_peaks *p; (p = cp_gpu_peaks_at(n)) != NULL; n++) {
        CHECK(p->names[0] != NULL);
        for (int k = 0; k < 4 && p->names[k]; k++) CHECK(cp_gpu_peaks_lookup(p->names[k]) == p);
        CHECK(p->mem_gbs > 0);
        CHECK(p->fp32_tflops > 0);
        CHECK(p->fp16_tflops > p->fp32_tflops);
        if (p->bf16_tflops > 0 && p->tf32_tflops > 0) {
            double r = p->tf32_tflops / p->bf16_tflops;
            if (r < 0.47 || r > 0.53) fprintf(stderr, "  %s: tf32/bf16 = %.3f\n", p->model, r);
            CHECK(r >= 0.47 && r <= 0.53);
        }
        CHECK((p->nvlink_lanes == 0) == (p->nvlink_lane_gbs == 0));
        CHECK(p->source && (strstr(p->source, "datasheet") || strstr(p->source, "product brief")));
        CHECK(strlen(p->model) < 20);
    }
    CHECK(n >= 17);
    static const char *const wanted[] = { "H200 SXM", "H100 SXM", "H100 PCIe", "H100 NVL", "A100 SXM4 40GB",
                                          "A100 SXM4 80GB", "A100 PCIe 40GB", "A100 PCIe 80GB", "L40S", "L4",
                                          "A10", "T4", "V100 SXM2", "V100 PCIe", "B200", "GB200" };
    for (size_t w = 0; w < sizeof wanted / sizeof wanted[0]; w++) {
        bool found = false;
        for (size_t i = 0; cp_gpu_peaks_at(i); i++) found |= strcmp(cp_gpu_peaks_at(i)->model, wanted[w]) == 0;
        if (!found) fprintf(stderr, "  no row for %s\n", wanted[w]);
        CHECK(found);
    }
    CHECK(cp_gpu_peaks_lookup("nvidia a100 sxm4 80gb") == cp_gpu_peaks_lookup("NVIDIA A100-SXM4-80GB"));
    CHECK(cp_gpu_peaks_lookup("H200") == cp_gpu_peaks_lookup("NVIDIA H200"));
    CHECK(cp_gpu_peaks_lookup("NVIDIA H200 NVL") != cp_gpu_peaks_lookup("NVIDIA H200"));
    CHECK(cp_gpu_peaks_lookup("NVIDIA H200 MIG 1g.18gb") == NULL);    /* a slice is not the GPU */
    CHECK(cp_gpu_peaks_lookup("NVIDIA GPU") == NULL);                 /* cp_gpu_model's "don't know" */
    CHECK(cp_gpu_peaks_lookup("NVIDIA ") == NULL);
    CHECK(cp_gpu_peaks_lookup("") == NULL);
    CHECK(cp_gpu_peaks_lookup(NULL) == NULL);
    char longname[300];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CHECK(cp_gpu_peaks_lookup(longname) == NULL);
}

/* nrows past the array is clamped, and every row is set. */
static void test_bounds(void)
{
    reset();
    gpu(0, "0000:00:06.0", "NVIDIA H200", 5, 16, 5, 16);
    for (int i = 0; i < CP_BENCH_MAX_ROWS; i++) row(i % 2 ? "copy.d2d.sm" : "copy.d2d.ce", "GB/s", 0, -1, 1.0);
    R.nrows = CP_BENCH_MAX_ROWS + 50;
    cp_bench_ceilings(&F, &R);
    CHECK_NEAR(R.row[CP_BENCH_MAX_ROWS - 1].ceiling, 2400);
    R.nrows = -3;
    cp_bench_ceilings(&F, &R);
    cp_bench_ceilings(&F, NULL);
}

/* The facts of the captured H200 machines, replayed: the names and links
 * as NVML and libcuda really report them reach the table and the link. */
static void test_h200_snapshots(void)
{
    static const char *const dirs[] = { "tests/fixtures/h200-snap", "tests/fixtures/h200x2-snap" };
    for (int k = 0; k < 2; k++) {
        cp_observe_opts o = CP_OBSERVE_DEFAULTS;
        o.from_dir = dirs[k];
        cp_session *s = NULL;
        char err[256];
        CHECK_I64(cp_observe(&o, &s, err, sizeof err), 0);
        if (!s) continue;
        memset(&R, 0, sizeof R);
        cp_bench_row *h2d = row("copy.h2d.pinned.ce", "GB/s", 0, -1, 55.0);
        cp_bench_row *d2d = row("copy.d2d.ce", "GB/s", 0, -1, 2000.0);
        cp_bench_row *bf = row("gemm.bf16", "TFLOP/s", 0, -1, 700.0);
        cp_bench_row *peer = row("peer.0-1.read", "GB/s", 0, 1, 300.0);
        cp_bench_ceilings(cp_session_facts(s), &R);
        CHECK_STR(h2d->ceiling_what, "PCIe Gen5 x16 (63.0 GB/s)");
        CHECK_NEAR(d2d->ceiling, 2400);
        CHECK_NEAR(bf->ceiling, 989.5);
        if (k == 1) CHECK_STR(peer->ceiling_what, "NVLink 18 x 25 GB/s (H200 SXM datasheet)");
        else check_none(peer);                          /* one GPU: no device 1 */
        cp_session_free(s);
    }
}

int main(void)
{
    RUN(test_h200_host_copies);
    RUN(test_h200_memory_and_gemm);
    RUN(test_unknown_model);
    RUN(test_downtrained);
    RUN(test_sysfs_link);
    RUN(test_no_link_measured);
    RUN(test_peers);
    RUN(test_collective);
    RUN(test_dtype_not_listed);
    RUN(test_pct);
    RUN(test_table);
    RUN(test_bounds);
    RUN(test_h200_snapshots);
    return TEST_END();
}
