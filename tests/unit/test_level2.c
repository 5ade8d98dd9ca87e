/* doctor --level 2 over facts: the PCIe ceilings, the level-2 answers'
 * round trip (what snapshots carry), the checks' verdicts and evidence, the
 * container of a GPU process, and level 1 listing no level-2 check. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "cuprobe/report.h"
#include "facts/facts_kv.h"
#include "host/host.h"

static cp_facts *healthy(void)
{
    cp_facts *f = malloc(sizeof *f);
    cp_facts_init(f);
    snprintf(f->origin, sizeof f->origin, "live");
    f->cuda.run.state = CP_PROBE_DONE;
    f->cuda.init_result = 0;
    f->cuda.ndev = 1;
    f->cuda.device_count = 1;
    snprintf(f->cuda.dev[0].pci_bus_id, sizeof f->cuda.dev[0].pci_bus_id, "0000:00:06.0");
    f->cuda.l2_level = 2;
    cp_cuda_l2 *l = &f->cuda.dev[0].l2;
    snprintf(l->step, sizeof l->step, "done");
    l->ctx_result = l->mem_result = l->compute_result = l->streams_result = l->copy_result = 0;
    l->mem_total_bytes = 100ll << 30;
    l->mem_free_bytes = 99ll << 30;
    l->elements = 1 << 20;
    l->wrong = 0;
    l->seed = 0x1234;
    l->copy_engines = 2;
    l->t_copy_us = 1000;
    l->t_kernel_us = 1000;
    l->t_both_us = 1100;
    l->overlap_pct = 90;
    l->copy_bytes = 64 << 20;
    l->h2d_pinned_mbs = l->d2h_pinned_mbs = 55000;
    l->h2d_pageable_mbs = l->d2h_pageable_mbs = 20000;
    f->nvml.run.state = CP_PROBE_DONE;
    f->nvml.init_result = 0;
    f->nvml.ndev = 1;
    cp_nvml_device *n = &f->nvml.dev[0];
    snprintf(n->inv.pci_bus_id, sizeof n->inv.pci_bus_id, "0000:00:06.0");
    n->inv.pcie_gen_max = 5;
    n->inv.pcie_width_max = 16;
    n->sample.pcie_width_cur = 16;
    n->sample.nprocs_total = 0;
    return f;
}

static const cp_finding *find(const cp_report *r, const char *id)
{
    for (int i = 0; i < r->nfindings; i++)
        if (strcmp(r->findings[i].check, id) == 0) return &r->findings[i];
    return NULL;
}

/* Run level 2 and return the status of one check (-1 when absent). */
static int status_of(const cp_facts *f, int level, const char *id, char *evidence, size_t cap)
{
    cp_report r;
    if (cp_doctor(f, level, &r) != 0) return -2;
    const cp_finding *o = find(&r, id);
    int s = o ? (int)o->status : -1;
    if (evidence && cap) snprintf(evidence, cap, "%s|%s|%s", o ? o->summary : "", o ? o->evidence : "", o ? o->fix : "");
    cp_report_free(&r);
    return s;
}

static void test_ceilings(void)
{
    CHECK_I64(cp_pcie_link_mbs(1, 16), 4000);     /* 2.5 GT/s, 8b/10b: 250 MB/s a lane */
    CHECK_I64(cp_pcie_link_mbs(2, 16), 8000);
    CHECK_I64(cp_pcie_link_mbs(3, 16), 15753);    /* 8 GT/s, 128b/130b */
    CHECK_I64(cp_pcie_link_mbs(4, 16), 31507);
    CHECK_I64(cp_pcie_link_mbs(5, 16), 63015);
    CHECK_I64(cp_pcie_link_mbs(5, 8), 31507);
    CHECK_I64(cp_pcie_link_mbs(6, 16), 121000);   /* 64 GT/s, FLIT 242/256 */
    CHECK_I64(cp_pcie_link_mbs(1, 1), 250);
    CHECK_I64(cp_pcie_link_mbs(0, 16), CP_UNKNOWN);
    CHECK_I64(cp_pcie_link_mbs(7, 16), CP_UNKNOWN);
    CHECK_I64(cp_pcie_link_mbs(5, 0), CP_UNKNOWN);
    CHECK_I64(cp_pcie_link_mbs(CP_UNKNOWN, 16), CP_UNKNOWN);
    CHECK_I64(cp_pcie_link_mbs(5, CP_UNKNOWN), CP_UNKNOWN);
}

static void test_round_trip(void)
{
    cp_facts *a = healthy(), *b = malloc(sizeof *b);
    cp_cuda_l2 *l = &a->cuda.dev[0].l2;
    l->wrong = 3;
    snprintf(l->wrong_kernel, sizeof l->wrong_kernel, "cp_k_fma_f32");
    l->wrong_index = 77;
    l->wrong_expected = 0x3f800000;
    l->wrong_got = 0x3f800001;
    snprintf(a->cuda.l2_run.detail, sizeof a->cuda.l2_run.detail, "cut");
    a->cuda.l2_run.state = CP_PROBE_TIMEOUT;
    cp_buf buf = { 0 };
    cp_facts_put_cuda(&buf, &a->cuda);
    CHECK(!buf.failed);
    CHECK(strstr(buf.data, "cuda.dev.0.l2.wrong_index 77\n") != NULL);
    cp_facts_init(b);
    char err[160];
    CHECK_I64(cp_facts_load(buf.data, buf.len, b, err, sizeof err), 1);
    const cp_cuda_l2 *m = &b->cuda.dev[0].l2;
    CHECK_I64(b->cuda.l2_level, 2);
    CHECK_I64(b->cuda.l2_run.state, CP_PROBE_TIMEOUT);
    CHECK_STR(m->step, "done");
    CHECK_STR(m->wrong_kernel, "cp_k_fma_f32");
    CHECK_I64(m->wrong, 3);
    CHECK_I64(m->wrong_got, 0x3f800001);
    CHECK_I64(m->h2d_pinned_mbs, 55000);
    CHECK_I64(m->overlap_pct, 90);
    cp_buf_free(&buf);
    /* level 1 writes no level-2 line */
    cp_facts_init(a);
    a->cuda.ndev = 1;
    cp_facts_put_cuda(&buf, &a->cuda);
    CHECK(strstr(buf.data, ".l2.") == NULL && strstr(buf.data, "cuda.l2_") == NULL);
    CHECK(strstr(buf.data, "cuda.dev.0.l2_cache_bytes ?") != NULL);   /* a device attribute, not level 2 */
    cp_buf_free(&buf);
    free(a);
    free(b);
}

static void test_level1_lists_none(void)
{
    cp_facts *f = healthy();
    CHECK_I64(status_of(f, 1, "driver.context", NULL, 0), -1);
    CHECK_I64(status_of(f, 1, "hardware.compute", NULL, 0), -1);
    CHECK_I64(status_of(f, 2, "driver.context", NULL, 0), CP_PASS);
    CHECK_I64(status_of(f, 2, "hardware.compute", NULL, 0), CP_PASS);
    CHECK_I64(status_of(f, 2, "driver.streams", NULL, 0), CP_PASS);
    CHECK_I64(status_of(f, 2, "system.memory_holders", NULL, 0), CP_PASS);
    CHECK_I64(status_of(f, 2, "hardware.copy_rates", NULL, 0), CP_PASS);
    free(f);
}

static void test_skips(void)
{
    char ev[4096];
    cp_facts *f = healthy();
    f->cuda.l2_level = CP_UNKNOWN;
    CHECK_I64(status_of(f, 2, "driver.kernels", ev, sizeof ev), CP_SKIP);
    CHECK(strstr(ev, "level 2 did not run here (libcuda was not asked)") != NULL);
    f->cuda.l2_level = 2;
    snprintf(f->cuda.l2_skip, sizeof f->cuda.l2_skip, "cuInit did not succeed");
    CHECK_I64(status_of(f, 2, "hardware.copy_rates", ev, sizeof ev), CP_SKIP);
    CHECK(strstr(ev, "level 2 did not run: cuInit did not succeed") != NULL);
    f->cuda.init_result = 100;
    CHECK_I64(status_of(f, 2, "driver.context", ev, sizeof ev), CP_SKIP);
    free(f);
}

static void test_wrong_element(void)
{
    char ev[4096];
    cp_facts *f = healthy();
    cp_cuda_l2 *l = &f->cuda.dev[0].l2;
    l->wrong = 1;
    snprintf(l->wrong_kernel, sizeof l->wrong_kernel, "cp_k_fma_f32");
    l->wrong_index = 5;
    l->wrong_expected = 0x3f800000;
    l->wrong_got = 0x3f800001;
    CHECK_I64(status_of(f, 2, "hardware.compute", ev, sizeof ev), CP_FAIL);
    CHECK(strstr(ev, "1 of 2097152 elements wrong") != NULL);
    CHECK(strstr(ev, "cp_k_fma_f32 element 5: expected 0x3f800000 (1), got 0x3f800001 (1.00000012)") != NULL);
    free(f);
}

static void test_overlap(void)
{
    char ev[4096];
    cp_facts *f = healthy();
    cp_cuda_l2 *l = &f->cuda.dev[0].l2;
    l->overlap_pct = 3;
    CHECK_I64(status_of(f, 2, "driver.streams", ev, sizeof ev), CP_WARN);
    CHECK(strstr(ev, "overlap 3 %") != NULL);
    l->copy_engines = 0;          /* no copy engine: nothing to overlap with */
    CHECK_I64(status_of(f, 2, "driver.streams", NULL, 0), CP_PASS);
    l->copy_engines = CP_UNKNOWN;
    CHECK_I64(status_of(f, 2, "driver.streams", NULL, 0), CP_PASS);
    free(f);
}

static void test_holders(void)
{
    char ev[4096];
    cp_facts *f = healthy();
    cp_nvml_sample *s = &f->nvml.dev[0].sample;
    s->nprocs = 1;
    s->nprocs_total = 1;
    s->procs[0].pid = 4242;
    s->procs[0].used_bytes = 60ll << 30;
    snprintf(s->procs[0].comm, sizeof s->procs[0].comm, "train");
    CHECK_I64(status_of(f, 2, "system.memory_holders", ev, sizeof ev), CP_WARN);
    CHECK(strstr(ev, "61440 MiB (60 %) held by other processes: PID 4242 train 61440 MiB") != NULL);
    s->procs[0].used_bytes = 50ll << 30;        /* exactly half: not more than half */
    CHECK_I64(status_of(f, 2, "system.memory_holders", NULL, 0), CP_PASS);
    s->procs[0].used_bytes = 95ll << 30;
    snprintf(s->procs[0].container, sizeof s->procs[0].container, "docker 4f1c2a3b5c6d");
    CHECK_I64(status_of(f, 2, "system.memory_holders", ev, sizeof ev), CP_FAIL);
    CHECK(strstr(ev, "PID 4242 train (docker 4f1c2a3b5c6d) 97280 MiB") != NULL);
    /* a holder from another PID namespace (its /proc/PID not here) says so */
    s->procs[0].comm[0] = '\0';
    s->procs[0].container[0] = '\0';
    s->procs[0].visible = CP_NO;
    CHECK_I64(status_of(f, 2, "system.memory_holders", ev, sizeof ev), CP_FAIL);
    CHECK(strstr(ev, "PID 4242 (pid not visible here) 97280 MiB") != NULL);
    s->procs[0].visible = CP_TRI_UNKNOWN;   /* not known (an old snapshot): no words */
    CHECK_I64(status_of(f, 2, "system.memory_holders", ev, sizeof ev), CP_FAIL);
    CHECK(strstr(ev, "PID 4242 97280 MiB") != NULL);
    /* no process list (NVML absent): what is not free counts as held */
    f->nvml.run.state = CP_PROBE_NOT_RUN;
    f->cuda.dev[0].l2.mem_free_bytes = 5ll << 30;
    CHECK_I64(status_of(f, 2, "system.memory_holders", ev, sizeof ev), CP_FAIL);
    CHECK(strstr(ev, "counted as total less free") != NULL);
    free(f);
}

/* cuprobe's own libcuda probe holds a context at level 2 and NVML lists
 * it (seen on the H200: "PID 2691 cuprobe 14 MiB" among the holders):
 * observe takes it out before any check counts the GPU's processes. */
static void test_own_probe_not_a_holder(void)
{
    cp_facts *f = healthy();
    cp_nvml_sample *s = &f->nvml.dev[0].sample;
    s->nprocs = 3;
    s->nprocs_total = 3;
    s->procs[0].pid = 2691;
    s->procs[1].pid = 2645;
    s->procs[2].pid = 2691;
    s->procs[1].used_bytes = 60ll << 30;
    CHECK_I64(cp_facts_drop_process(f, 2691), 2);
    CHECK_I64(s->nprocs, 1);
    CHECK_I64(s->nprocs_total, 1);
    CHECK_I64(s->procs[0].pid, 2645);
    CHECK_I64(cp_facts_drop_process(f, 2691), 0);
    CHECK_I64(cp_facts_drop_process(f, 0), 0);
    CHECK_I64(cp_facts_drop_process(NULL, 5), 0);
    free(f);
}

static void test_copy_rates(void)
{
    char ev[4096];
    cp_facts *f = healthy();
    cp_cuda_l2 *l = &f->cuda.dev[0].l2;
    CHECK_I64(status_of(f, 2, "hardware.copy_rates", ev, sizeof ev), CP_PASS);
    CHECK(strstr(ev, "PCIe Gen5 x16: 63015 MB/s each way in theory; pinned H2D 87 %, D2H 87 % of it") != NULL);
    l->d2h_pinned_mbs = 30000;     /* 47 % */
    CHECK_I64(status_of(f, 2, "hardware.copy_rates", NULL, 0), CP_WARN);
    l->d2h_pinned_mbs = 55000;
    f->nvml.dev[0].sample.pcie_width_cur = 8;
    CHECK_I64(status_of(f, 2, "hardware.copy_rates", ev, sizeof ev), CP_WARN);
    CHECK(strstr(ev, "the link runs x8 of x16: downtrained") != NULL);
    f->nvml.dev[0].sample.pcie_width_cur = 16;
    /* the pinned buffer on another NUMA node than the GPU's */
    f->host.npci = 1;
    snprintf(f->host.pci[0].addr, sizeof f->host.pci[0].addr, "0000:00:06.0");
    f->host.pci[0].numa_node = 1;
    l->pinned_numa_node = 1;
    CHECK_I64(status_of(f, 2, "hardware.copy_rates", NULL, 0), CP_PASS);
    l->pinned_numa_node = 0;
    CHECK_I64(status_of(f, 2, "hardware.copy_rates", ev, sizeof ev), CP_WARN);
    CHECK(strstr(ev, "the pinned buffer sat on NUMA node 0, the GPU is on node 1") != NULL);
    f->host.pci[0].numa_node = -1;            /* a platform without NUMA: nothing to say */
    CHECK_I64(status_of(f, 2, "hardware.copy_rates", NULL, 0), CP_PASS);
    l->pinned_numa_node = CP_UNKNOWN;         /* a snapshot taken before the field */
    f->host.pci[0].numa_node = 1;
    CHECK_I64(status_of(f, 2, "hardware.copy_rates", NULL, 0), CP_PASS);
    f->nvml.dev[0].inv.pcie_gen_max = CP_UNKNOWN;
    CHECK_I64(status_of(f, 2, "hardware.copy_rates", ev, sizeof ev), CP_PASS);
    CHECK(strstr(ev, "no ceiling") != NULL);
    free(f);
}

/* A step that failed, one that hung, and the steps after them. */
static void test_steps(void)
{
    char ev[4096];
    cp_facts *f = healthy();
    cp_cuda_l2 *l = &f->cuda.dev[0].l2;
    snprintf(l->step, sizeof l->step, "streams");
    l->streams_result = 700;
    snprintf(l->streams_call, sizeof l->streams_call, "cuStreamSynchronize");
    snprintf(l->streams_error, sizeof l->streams_error, "CUDA_ERROR_ILLEGAL_ADDRESS");
    CHECK_I64(status_of(f, 2, "driver.streams", ev, sizeof ev), CP_FAIL);
    CHECK(strstr(ev, "cuStreamSynchronize = 700 CUDA_ERROR_ILLEGAL_ADDRESS") != NULL);
    CHECK(strstr(ev, "known to be correct") != NULL);
    CHECK_I64(status_of(f, 2, "hardware.copy_rates", NULL, 0), CP_SKIP);
    CHECK_I64(status_of(f, 2, "hardware.compute", NULL, 0), CP_PASS);
    /* hung in compute: only the step key arrived */
    cp_cuda_l2_init(l);
    snprintf(l->step, sizeof l->step, "compute");
    l->ctx_result = 0;
    f->cuda.l2_run.state = CP_PROBE_TIMEOUT;
    f->cuda.l2_run.elapsed_ms = 10000;
    CHECK_I64(status_of(f, 2, "driver.kernels", ev, sizeof ev), CP_FAIL);
    CHECK(strstr(ev, "the compute step did not finish within the 10 s level-2 deadline") != NULL);
    CHECK_I64(status_of(f, 2, "driver.context", NULL, 0), CP_PASS);
    CHECK_I64(status_of(f, 2, "hardware.compute", NULL, 0), CP_SKIP);
    free(f);
}

static void test_container_id(void)
{
    char id[80];
    const char *v2 = "0::/system.slice/docker-4f1c2a3b5c6d7e8f9a0b4f1c2a3b5c6d7e8f9a0b4f1c2a3b5c6d7e8f9a0b1234.scope\n";
    cp_parse_container_id(v2, strlen(v2), id, sizeof id);
    CHECK_STR(id, "docker 4f1c2a3b5c6d");
    const char *k8s = "0::/kubepods.slice/kubepods-pod12.slice/cri-containerd-abcdef0123456789abcdef.scope\n";
    cp_parse_container_id(k8s, strlen(k8s), id, sizeof id);
    CHECK_STR(id, "kubernetes abcdef012345");
    const char *host = "0::/user.slice/user-1000.slice/session-2.scope\n";
    cp_parse_container_id(host, strlen(host), id, sizeof id);
    CHECK_STR(id, "");
    cp_parse_container_id(NULL, 0, id, sizeof id);
    CHECK_STR(id, "");
}

/* The pod UID of a kubepods cgroup path, the systemd driver's (underscores)
 * and cgroupfs' (dashes); none outside kubepods or without a whole UID. */
static void test_pod_uid(void)
{
    char uid[40];
    const char *sd = "0::/kubepods.slice/kubepods-burstable.slice/"
                     "kubepods-burstable-pod1b2c3d4e_5f60_4718_9a2b_3c4d5e6f7a8b.slice/"
                     "cri-containerd-4f1c2a3b5c6d7e8f.scope\n";
    cp_parse_pod_uid(sd, strlen(sd), uid, sizeof uid);
    CHECK_STR(uid, "1b2c3d4e-5f60-4718-9a2b-3c4d5e6f7a8b");
    const char *fs = "12:memory:/kubepods/besteffort/pod0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9/abcdef0123456789\n";
    cp_parse_pod_uid(fs, strlen(fs), uid, sizeof uid);
    CHECK_STR(uid, "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");
    const char *shortuid = "0::/kubepods.slice/kubepods-pod12.slice/cri-containerd-abcdef0123456789abcdef.scope\n";
    cp_parse_pod_uid(shortuid, strlen(shortuid), uid, sizeof uid);
    CHECK_STR(uid, "");
    const char *docker = "0::/system.slice/docker-pod1b2c3d4e_5f60_4718_9a2b_3c4d5e6f7a8b.scope\n";
    cp_parse_pod_uid(docker, strlen(docker), uid, sizeof uid);
    CHECK_STR(uid, "");
    cp_parse_pod_uid(NULL, 0, uid, sizeof uid);
    CHECK_STR(uid, "");
}

int main(void)
{
    RUN(test_ceilings);
    RUN(test_round_trip);
    RUN(test_level1_lists_none);
    RUN(test_skips);
    RUN(test_wrong_element);
    RUN(test_overlap);
    RUN(test_holders);
    RUN(test_own_probe_not_a_holder);
    RUN(test_copy_rates);
    RUN(test_steps);
    RUN(test_container_id);
    RUN(test_pod_uid);
    return TEST_END();
}
