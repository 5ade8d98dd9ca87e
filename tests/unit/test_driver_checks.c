/*
 * The driver layer's verdicts over hand-made facts: a fix from the machine's
 * facts for every init result met in real life, answers of libcuda, NVML
 * and the PCI bus that contradict each other, and no check printing an
 * unknown value as a number.
 */
#include "test.h"
#include <stdlib.h>
#include "checks/check.h"
#include "cuprobe/cuprobe.h"

#define PLACEHOLDER "-9223372036854775808"

static cp_facts *healthy_one(void)
{
    cp_facts *f = malloc(sizeof *f);
    cp_facts_init(f);
    cp_pci_function *p = &f->host.pci[f->host.npci++];
    snprintf(p->addr, sizeof p->addr, "0000:00:06.0");
    p->vendor = 0x10de;
    p->class_code = 0x030200;
    f->host.npci_total = 1;
    f->cuda.run.state = f->nvml.run.state = CP_PROBE_DONE;
    f->cuda.lib.loaded = f->nvml.lib.loaded = true;
    f->cuda.init_result = f->nvml.init_result = 0;
    f->cuda.device_count = f->nvml.device_count = 1;
    f->cuda.ndev = f->nvml.ndev = 1;
    snprintf(f->cuda.dev[0].pci_bus_id, sizeof f->cuda.dev[0].pci_bus_id, "0000:00:06.0");
    snprintf(f->nvml.dev[0].inv.pci_bus_id, sizeof f->nvml.dev[0].inv.pci_bus_id, "0000:00:06.0");
    f->cuda.dev[0].cc_major = f->nvml.dev[0].inv.cc_major = 9;
    f->cuda.dev[0].cc_minor = f->nvml.dev[0].inv.cc_minor = 0;
    f->cuda.dev[0].total_mem_bytes = f->nvml.dev[0].inv.mem_total_bytes = 150754820096LL;
    return f;
}

/* Every cuInit and nvmlInit_v2 result doctor can meet gets a fix of its
 * own, in every context, never the generic "check the call's arguments". */
static void test_init_fixes(void)
{
    static const int cu[] = { 2, 3, 4, 34, 35, 36, 46, 100, 101, 304, 800, 802, 803, 804, 999 };
    static const int nv[] = { 1, 2, 3, 4, 7, 9, 12, 13, 14, 15, 16, 17, 18, 20, 23, 999 };
    for (int ctx = 0; ctx < 4; ctx++) {
        for (int nvml = 0; nvml <= 1; nvml++) {
            const int *codes = nvml ? nv : cu;
            size_t n = nvml ? sizeof nv / sizeof nv[0] : sizeof cu / sizeof cu[0];
            char first[512] = "";
            int differ = 0;
            for (size_t i = 0; i < n; i++) {
                cp_facts *f = healthy_one();
                f->host.container.in_container = ctx & 1 ? CP_YES : CP_NO;
                if (ctx & 2) {   /* what the lower layers can say: a node, a module, versions */
                    f->host.modules_readable = true;
                    f->host.modules[CP_MOD_NVIDIA].loaded = true;
                    cp_devnode *d = &f->host.dev[f->host.ndev++];
                    snprintf(d->path, sizeof d->path, "/dev/nvidia-uvm");
                    snprintf(f->host.procfs.version, sizeof f->host.procfs.version, "580.95.05");
                    f->host.procfs.present = true;
                    snprintf(f->cuda.lib.version_from_path, sizeof f->cuda.lib.version_from_path, "575.51.03");
                }
                cp_finding o;
                memset(&o, 0, sizeof o);
                if (nvml) { f->nvml.init_result = codes[i]; cp_check_nvml(f, &o); }
                else { f->cuda.init_result = codes[i]; cp_check_cuinit(f, &o); }
                if (o.status != CP_FAIL || !o.fix[0] || strstr(o.fix, "arguments"))
                    fprintf(stderr, "  %s %d (context %d): %s / %s\n", nvml ? "nvml" : "cuda", codes[i], ctx,
                            o.summary, o.fix);
                CHECK_I64(o.status, CP_FAIL);
                CHECK(o.fix[0] != '\0');
                CHECK(strstr(o.fix, "arguments") == NULL);
                CHECK(strstr(o.summary, PLACEHOLDER) == NULL && strstr(o.evidence, PLACEHOLDER) == NULL);
                if (!first[0]) snprintf(first, sizeof first, "%s", o.fix);
                else if (strcmp(first, o.fix) != 0) differ++;
                free(f);
            }
            CHECK(differ >= (int)n / 2);      /* cause-specific, not one text for all */
        }
    }
}

/* The context decides the fix: a missing node, a denied node, a container. */
static void test_init_fix_context(void)
{
    cp_facts *f = healthy_one();
    cp_finding o;
    f->cuda.init_result = 999;
    cp_devnode *d = &f->host.dev[f->host.ndev++];
    snprintf(d->path, sizeof d->path, "/dev/nvidia-uvm");
    memset(&o, 0, sizeof o);
    cp_check_cuinit(f, &o);
    CHECK(strstr(o.fix, "'/dev/nvidia-uvm' is missing: 'sudo modprobe nvidia-uvm'") != NULL);
    f->host.container.in_container = CP_YES;
    memset(&o, 0, sizeof o);
    cp_check_cuinit(f, &o);
    CHECK(strstr(o.fix, "in this container") != NULL);

    d->exists = d->is_chr = true;
    d->accessible = CP_NO;
    f->host.container.in_container = CP_NO;
    f->host.uid = 1000;
    f->nvml.init_result = 4;
    memset(&o, 0, sizeof o);
    cp_check_nvml(f, &o);
    CHECK(strstr(o.fix, "'/dev/nvidia-uvm' cannot be opened read+write by uid 1000") != NULL);

    f->nvml.init_result = 18;
    snprintf(f->host.procfs.version, sizeof f->host.procfs.version, "580.95.05");
    snprintf(f->nvml.lib.version_from_path, sizeof f->nvml.lib.version_from_path, "575.51.03");
    snprintf(f->nvml.lib.path, sizeof f->nvml.lib.path, "/usr/lib/libnvidia-ml.so.575.51.03");
    memset(&o, 0, sizeof o);
    cp_check_nvml(f, &o);
    CHECK(strstr(o.fix, "(575.51.03) does not match the kernel module 580.95.05") != NULL);
    free(f);
}

/* libcuda, NVML and the bus must agree: count, CC, memory, bus id. */
static void test_contradictions(void)
{
    cp_facts *f = healthy_one();
    cp_finding o;
    memset(&o, 0, sizeof o);
    cp_check_devices(f, &o);
    CHECK_I64(o.status, CP_PASS);

    f->cuda.device_count = 1000000;
    memset(&o, 0, sizeof o);
    cp_check_devices(f, &o);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(strstr(o.evidence, "libcuda reports 1000000 devices, the PCI bus has 1 NVIDIA GPU") != NULL);
    CHECK(strstr(o.evidence, "libcuda reports 1000000 devices, NVML 1") != NULL);
    f->cuda.device_count = 1;
    f->nvml.device_count = 4;
    memset(&o, 0, sizeof o);
    cp_check_devices(f, &o);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(strstr(o.evidence, "NVML reports 4 GPUs, the PCI bus has 1") != NULL);
    f->nvml.device_count = 1;

    f->cuda.dev[0].cc_major = 8;
    memset(&o, 0, sizeof o);
    cp_check_devices(f, &o);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(strstr(o.evidence, "0000:00:06.0: compute capability 8.0 from libcuda, 9.0 from NVML") != NULL);
    f->cuda.dev[0].cc_major = 9;

    f->cuda.dev[0].total_mem_bytes = 4096LL << 20;
    memset(&o, 0, sizeof o);
    cp_check_devices(f, &o);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(strstr(o.evidence, "4096 MiB of memory from libcuda, 143771 MiB from NVML") != NULL);
    f->nvml.dev[0].inv.mig_current = 1;     /* a MIG instance has a part of its GPU's memory */
    memset(&o, 0, sizeof o);
    cp_check_devices(f, &o);
    CHECK_I64(o.status, CP_PASS);
    f->nvml.dev[0].inv.mig_current = 0;
    f->cuda.dev[0].total_mem_bytes = 150754820096LL - (16LL << 20);   /* rounding is not news */
    memset(&o, 0, sizeof o);
    cp_check_devices(f, &o);
    CHECK_I64(o.status, CP_PASS);

    snprintf(f->cuda.dev[0].pci_bus_id, sizeof f->cuda.dev[0].pci_bus_id, "0000:3b:00.0");
    memset(&o, 0, sizeof o);
    cp_check_devices(f, &o);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(strstr(o.evidence, "CUDA 0 is at 0000:3b:00.0, where the PCI bus has no NVIDIA function") != NULL);
    free(f);
}

/* Counts of everything filled in and every number in them unknown. */
static void all_unknown(cp_facts *f, int variant)
{
    cp_facts_init(f);
    cp_host_facts *h = &f->host;
    h->npci = 2;
    h->npci_total = CP_UNKNOWN;
    h->pci[0].vendor = h->pci[1].vendor = 0x10de;
    h->pci[0].class_code = 0x030200;
    h->modules_readable = true;
    h->modules[CP_MOD_NVIDIA].loaded = true;
    h->procfs.present = true;
    h->procfs.ngpus = 1;
    h->ndev = 3;
    snprintf(h->dev[0].path, sizeof h->dev[0].path, "/dev/nvidiactl");
    snprintf(h->dev[1].path, sizeof h->dev[1].path, "/dev/nvidia0");
    snprintf(h->dev[2].path, sizeof h->dev[2].path, "/dev/nvidia-uvm");
    for (int i = 0; i < 3; i++) {
        h->dev[i].exists = true;
        h->dev[i].is_chr = variant != 2;
        h->dev[i].accessible = variant == 1 ? CP_NO : CP_TRI_UNKNOWN;
    }
    h->container.in_container = variant == 1 ? CP_YES : CP_TRI_UNKNOWN;
    h->klog.readable = CP_YES;
    h->klog.nxid = 3;
    h->klog.xid_total = CP_UNKNOWN;
    h->klog.fell_off_bus = h->klog.api_mismatch = variant ? 1 : CP_UNKNOWN;
    h->klog.xids[1].xid = 79;
    h->klog.xids[2].xid = 13;
    h->vis.cuda.set = variant == 1;
    h->vis.cuda.n = 1;
    h->vis.cuda.e[0].kind = CP_VIS_INDEX;

    cp_cuda_facts *c = &f->cuda;
    c->run.state = variant == 2 ? CP_PROBE_TIMEOUT : CP_PROBE_DONE;
    c->run.signal = c->run.maxrss_kb = CP_UNKNOWN;
    c->lib.loaded = true;
    c->init_result = variant == 0 ? 0 : CP_UNKNOWN;
    c->device_count = variant == 0 ? 2 : CP_UNKNOWN;
    c->ndev = 2;
    cp_nvml_facts *n = &f->nvml;
    n->run.state = variant == 2 ? CP_PROBE_TIMEOUT : CP_PROBE_DONE;
    n->lib.loaded = true;
    n->init_result = variant == 0 ? 0 : CP_UNKNOWN;
    n->device_count = CP_UNKNOWN;
    n->ndev = 2;
    for (int i = 0; i < 2; i++) {
        n->dev[i].sample.nprocs = 1;
        n->dev[i].sample.nprocs_total = CP_UNKNOWN;
    }

    cp_runtime_facts *r = &f->runtime;
    r->ntk = 1;
    snprintf(r->tk[0].version, sizeof r->tk[0].version, "13.0");
    r->nrt = 2;
    r->rt[0].would_load = true;
    snprintf(r->compat_on_loader_path, sizeof r->compat_on_loader_path, "/x/compat/libcuda.so.1");
    cp_libraries_facts *L = &f->libraries;
    L->nlib = 2;
    L->nlib_total = CP_UNKNOWN;
    for (int i = 0; i < 2; i++) {
        snprintf(L->lib[i].name, sizeof L->lib[i].name, "cublas");
        L->lib[i].would_load = true;
        L->lib[i].loads = variant == 1 ? CP_NO : CP_TRI_UNKNOWN;
    }
    cp_frameworks_facts *w = &f->frameworks;
    w->nfw = 2;
    snprintf(w->fw[0].name, sizeof w->fw[0].name, "torch");
    snprintf(w->fw[1].name, sizeof w->fw[1].name, "jax");
    for (int i = 0; i < 2; i++) {
        snprintf(w->fw[i].cuda_version, sizeof w->fw[i].cuda_version, "%s", variant ? "x" : "12.4");
        w->fw[i].ncodes = 1;
        snprintf(w->fw[i].codes[0], sizeof w->fw[i].codes[0], "sm_80");
        w->fw[i].code_entries[0] = CP_UNKNOWN;
        w->fw[i].nlibs = 1;
    }
}

/* CP_UNKNOWN printed in decimal (or a part of it), or in octal (a mode). */
static int placeholder(const char *s)
{
    return strstr(s, "9223372036854775") || strstr(s, "1000000000000000000000") || strstr(s, "8796093022208");
}

/* No check prints an unknown number as its placeholder's digits, in any
 * summary, evidence line or fix, nor does either renderer. */
static void test_unknown_never_a_number(void)
{
    static cp_facts f;
    for (int variant = 0; variant < 3; variant++) {
        all_unknown(&f, variant);
        for (int level = 1; level <= 2; level++) {
            cp_report r;
            CHECK_I64(cp_doctor(&f, level, &r), 0);
            for (int i = 0; i < r.nfindings; i++) {
                const cp_finding *o = &r.findings[i];
                int bad = placeholder(o->summary) || placeholder(o->evidence) || placeholder(o->fix);
                if (bad) fprintf(stderr, "  variant %d %s: %s | %s | %s\n", variant, o->check, o->summary, o->evidence, o->fix);
                CHECK(!bad);
            }
            for (int json = 0; json <= 1; json++) {
                char *buf = NULL;
                size_t len = 0;
                FILE *fp = open_memstream(&buf, &len);
                CHECK(fp != NULL);
                if (!fp) continue;
                if (json) cp_render_json(&r, &f, fp);
                else cp_render_text(&r, &f, fp, 0, 1);
                fclose(fp);
                CHECK(buf && !placeholder(buf));
                free(buf);
            }
            cp_report_free(&r);
        }
    }
}

int main(void)
{
    RUN(test_init_fixes);
    RUN(test_init_fix_context);
    RUN(test_contradictions);
    RUN(test_unknown_never_a_number);
    return TEST_END();
}
