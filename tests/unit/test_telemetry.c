/*
 * The sampler (src/lib/telemetry/) against the fake NVML: steady load,
 * throttling, an XID storm, GPM unsupported, a GPU lost after two ticks, a
 * call that hangs, a driver without the newer symbols, no NVML at all;
 * the NVML calls per tick, counted by the fake, against their bound, and
 * the cost of a tick.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuprobe/telemetry.h"
#include "kb/kb.h"
#include "probe/deadline.h"
#include "telemetry/tele_int.h"
#include "fake_libs.h"
#include "test.h"

static char fakes[PATH_MAX], scenarios[PATH_MAX], fake_nvml[PATH_MAX];

static void use_scenario(const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", scenarios, name);
    setenv("CUPROBE_FAKE_SCENARIO", path, 1);
    setenv("CUPROBE_LIBNVML", fake_nvml, 1);
}

static cp_tele *open_fast(void)
{
    cp_tele_opts o = { 400, 3000, NULL };
    return cp_tele_open(&o);
}

static void test_steady(void)
{
    use_scenario("tele-steady-2gpu.txt");
    cp_tele *t = open_fast();
    CHECK(t != NULL);
    if (!t) return;
    const cp_tele_frame *f = cp_tele_tick(t);
    CHECK_I64(f->seq, 1);
    CHECK(f->nvml_ok);
    CHECK_STR(f->error, "");
    CHECK_I64(f->ngpu, 2);
    CHECK_I64(f->gpu[0].state, CP_TELE_OK);
    CHECK_I64(f->gpu[1].state, CP_TELE_OK);
    CHECK_STR(f->gpu[0].inv.name, "NVIDIA H200");
    CHECK_STR(f->gpu[1].inv.pci_bus_id, "0000:00:07.0");
    CHECK_I64(f->gpu[0].inv.power_limit_mw, 700000);
    const cp_nvml_sample *s = &f->gpu[0].s;
    CHECK_I64(s->util_gpu_pct, 100);
    CHECK_I64(s->util_mem_pct, 62);
    CHECK_I64(s->clock_sm_mhz, 1980);
    CHECK_I64(f->gpu[0].inv.max_sm_clock_mhz, 1980);
    CHECK_I64(s->clock_mem_mhz, 2619);
    CHECK_I64(f->gpu[0].inv.max_mem_clock_mhz, 2619);
    CHECK_I64(s->energy_mj, 912345678);
    CHECK_I64(s->pcie_tx_kbs, 1200);
    CHECK_I64(s->pcie_rx_kbs, 3400);
    CHECK_I64(s->power_mw, 612000);
    CHECK_I64(s->nprocs, 1);
    CHECK_I64(s->procs[0].pid, 4242);
    CHECK_I64(s->procs[0].sm_util_pct, 97);
    CHECK_I64(s->xid_events, 0);
    CHECK_I64(s->mem_reserved_bytes, 645922816);
    /* GPM needs two samples: unknown on the first tick, never 0 */
    CHECK_I64(s->gpm_sm_active_pct, CP_UNKNOWN);
    f = cp_tele_tick(t);
    CHECK_I64(f->seq, 2);
    CHECK_I64(f->gpu[0].s.gpm_sm_active_pct, 88);
    CHECK_I64(f->gpu[0].s.gpm_sm_occupancy_pct, 41);
    CHECK_I64(f->gpu[0].s.gpm_tensor_active_pct, 73);
    CHECK_I64(f->gpu[0].s.gpm_dram_bw_pct, 55);
    /* the tiny-kernel GPU: kernel-active 100 %, SMs idle */
    CHECK_I64(f->gpu[1].s.util_gpu_pct, 100);
    CHECK_I64(f->gpu[1].s.gpm_sm_active_pct, 1);
    CHECK_I64(f->restarts, 0);
    CHECK(f->tick_ms < 400);
    cp_tele_close(t);
}

static void test_throttle(void)
{
    use_scenario("tele-throttle.txt");
    cp_tele *t = open_fast();
    if (!t) { CHECK(0); return; }
    const cp_tele_frame *f = cp_tele_tick(t);
    CHECK_I64(f->gpu[0].s.clock_event_reasons, 0x64);
    CHECK_I64(f->gpu[0].s.clock_sm_mhz, 1200);
    CHECK_I64(f->gpu[1].s.clock_event_reasons, 0);
    char words[128];
    CHECK_STR(cp_clock_events_str(f->gpu[0].s.clock_event_reasons, words, sizeof words),
              "sw power cap, sw thermal slowdown, hw thermal slowdown");
    cp_tele_close(t);
}

static int64_t xid_count(const cp_tele_gpu *g, int64_t code)
{
    for (int k = 0; k < g->nxid; k++)
        if (g->xid[k].code == code) return g->xid[k].count;
    return 0;
}

static void test_xid_storm(void)
{
    use_scenario("tele-xid-storm.txt");
    cp_tele *t = open_fast();
    if (!t) { CHECK(0); return; }
    const cp_tele_frame *f = cp_tele_tick(t);
    /* one tick reads at most the bound, the rest waits */
    CHECK_I64(f->gpu[0].s.xid_events, CP_TELE_EVENTS_PER_TICK);
    CHECK_I64(f->xid_deferred, 1);
    for (int i = 0; i < 8; i++) f = cp_tele_tick(t);
    CHECK_I64(xid_count(&f->gpu[0], 79), 200);
    CHECK_I64(xid_count(&f->gpu[0], 48), 200);
    CHECK_I64(f->gpu[0].s.xid_events, 400);
    CHECK_I64(f->gpu[0].s.xid_last, 48);
    CHECK_I64(f->gpu[1].s.xid_last, CP_UNKNOWN);
    CHECK_I64(f->gpu[1].s.xid_events, 0);
    CHECK_I64(f->xid_deferred, 6);   /* 400 = 6 x 64 + 16 */
    CHECK_I64(f->gpu[0].state, CP_TELE_OK);
    cp_tele_close(t);
}

static void test_gpm_unsupported(void)
{
    use_scenario("tele-gpm-unsupported.txt");
    cp_tele *t = open_fast();
    if (!t) { CHECK(0); return; }
    cp_tele_tick(t);
    const cp_tele_frame *f = cp_tele_tick(t);
    CHECK_I64(f->gpu[0].state, CP_TELE_OK);
    CHECK_I64(f->gpu[0].s.gpm_sm_active_pct, CP_UNKNOWN);
    CHECK_I64(f->gpu[0].s.gpm_dram_bw_pct, CP_UNKNOWN);
    CHECK_I64(f->gpu[1].s.gpm_tensor_active_pct, CP_UNKNOWN);
    CHECK_I64(f->gpu[0].s.util_gpu_pct, 100);
    cp_tele_close(t);
}

static void test_lost(void)
{
    use_scenario("tele-lost.txt");
    cp_tele *t = open_fast();
    if (!t) { CHECK(0); return; }
    const cp_tele_frame *f = cp_tele_tick(t);
    CHECK_I64(f->gpu[0].state, CP_TELE_OK);
    f = cp_tele_tick(t);
    CHECK_I64(f->gpu[0].state, CP_TELE_OK);
    for (int i = 0; i < 2; i++) {
        f = cp_tele_tick(t);
        CHECK_I64(f->gpu[0].state, CP_TELE_LOST);
        CHECK_I64(f->gpu[0].nvml_result, 15);
        CHECK_I64(f->gpu[0].s.util_gpu_pct, CP_UNKNOWN);
        CHECK_I64(f->gpu[0].s.power_mw, CP_UNKNOWN);
        CHECK_STR(f->gpu[0].inv.name, "NVIDIA H200");   /* what it was is still known */
        CHECK_I64(f->gpu[1].state, CP_TELE_OK);
        CHECK_I64(f->gpu[1].s.util_gpu_pct, 100);
    }
    CHECK_I64(f->restarts, 0);
    cp_tele_close(t);
}

static void test_hang(void)
{
    use_scenario("tele-hang.txt");
    cp_tele *t = open_fast();
    if (!t) { CHECK(0); return; }
    cp_tele_tick(t);
    const cp_tele_frame *f = cp_tele_tick(t);
    CHECK_I64(f->gpu[0].state, CP_TELE_OK);
    f = cp_tele_tick(t);             /* GPU 0's call never returns */
    CHECK(f->tick_ms >= 390 && f->tick_ms < 1500);
    CHECK_I64(f->gpu[0].state, CP_TELE_HUNG);
    CHECK_I64(f->gpu[1].state, CP_TELE_STALE);     /* it came after GPU 0 */
    CHECK_I64(f->gpu[1].s.util_gpu_pct, CP_UNKNOWN);
    CHECK_I64(f->restarts, 1);
    CHECK(strstr(f->error, "sampling GPU 0: it is left alone") != NULL);
    for (int i = 0; i < 2; i++) {
        f = cp_tele_tick(t);         /* a new child, GPU 0 left alone */
        CHECK_STR(f->error, "");
        CHECK_I64(f->gpu[0].state, CP_TELE_HUNG);
        CHECK_STR(f->gpu[0].inv.name, "NVIDIA H200");
        CHECK_I64(f->gpu[0].s.util_gpu_pct, CP_UNKNOWN);
        CHECK_I64(f->gpu[1].state, CP_TELE_OK);
        CHECK_I64(f->gpu[1].s.util_gpu_pct, 100);
    }
    CHECK_I64(f->restarts, 1);
    cp_tele_close(t);
}

static void test_old_driver(void)
{
    use_scenario("tele-old-driver.txt");
    cp_tele *t = open_fast();
    if (!t) { CHECK(0); return; }
    cp_tele_tick(t);
    const cp_tele_frame *f = cp_tele_tick(t);
    CHECK(f->nvml_ok);
    CHECK_I64(f->gpu[0].state, CP_TELE_OK);
    CHECK_I64(f->gpu[0].s.util_gpu_pct, 100);
    CHECK_I64(f->gpu[0].s.clock_event_reasons, 0);     /* through ...ThrottleReasons */
    CHECK_I64(f->gpu[0].s.clock_sm_mhz, CP_UNKNOWN);
    CHECK_I64(f->gpu[0].inv.max_sm_clock_mhz, CP_UNKNOWN);
    CHECK_I64(f->gpu[0].s.energy_mj, CP_UNKNOWN);
    CHECK_I64(f->gpu[0].s.mem_reserved_bytes, CP_UNKNOWN);
    CHECK_I64(f->gpu[0].s.procs[0].pid, 4242);
    CHECK_I64(f->gpu[0].s.procs[0].sm_util_pct, CP_UNKNOWN);
    CHECK_I64(f->gpu[0].s.pcie_tx_kbs, CP_UNKNOWN);
    CHECK_I64(f->gpu[0].s.gpm_sm_active_pct, CP_UNKNOWN);
    CHECK_I64(f->gpu[0].s.xid_events, 0);
    CHECK_I64(f->gpu[0].s.temperature_c, 61);          /* through the deprecated call */
    CHECK_I64(f->gpu[0].s.util_gpu_samples, CP_UNKNOWN);
    CHECK_I64(f->gpu[0].s.util_gpu_period_us, CP_UNKNOWN);
    cp_tele_close(t);
}

/* Kernel-active from NVML's own samples, over the device's period; the
 * rate call where there are none; temperature through the newer call,
 * the older one where it cannot answer. */
static void test_samples(void)
{
    use_scenario("tele-samples.txt");
    cp_tele *t = open_fast();
    if (!t) { CHECK(0); return; }
    const cp_tele_frame *f = cp_tele_tick(t);
    const cp_nvml_sample *s = &f->gpu[0].s;
    CHECK_I64(f->gpu[0].state, CP_TELE_OK);
    CHECK_I64(s->util_gpu_pct, 50);               /* the samples', not the rate call's 100 */
    CHECK(s->util_gpu_samples >= 5 && s->util_gpu_samples <= 7);   /* the last second's */
    CHECK_I64(s->util_gpu_period_us, 166667);
    CHECK_I64(s->temperature_c, 63);
    CHECK_I64(f->gpu[1].s.util_gpu_pct, 100);
    CHECK_I64(f->gpu[1].s.util_gpu_samples, 0);
    CHECK_I64(f->gpu[1].s.util_gpu_period_us, CP_UNKNOWN);
    CHECK_I64(f->gpu[1].s.temperature_c, 40);
    usleep(400 * 1000);
    f = cp_tele_tick(t);                           /* only the samples since the last tick */
    CHECK(f->gpu[0].s.util_gpu_samples >= 1 && f->gpu[0].s.util_gpu_samples <= 3);
    CHECK_I64(f->gpu[0].s.util_gpu_pct, 50);
    CHECK_I64(f->gpu[0].s.util_gpu_period_us, 166667);
    f = cp_tele_tick(t);                           /* none new: the rate call, the period kept */
    if (f->gpu[0].s.util_gpu_samples == 0) {
        CHECK_I64(f->gpu[0].s.util_gpu_pct, 100);
        CHECK_I64(f->gpu[0].s.util_gpu_period_us, 166667);
    }
    cp_tele_close(t);
}

static void put_file(const char *dir, const char *name, const char *text)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    CHECK(fclose(f) == 0);
}

/* Each process's name, container and pod from its /proc entry; a host PID
 * not in this PID namespace says so; both in the exposition, with pid. */
static void test_containers(void)
{
    char root[] = "/tmp/cp-tele-procXXXXXX", dir[PATH_MAX];
    CHECK(mkdtemp(root) != NULL);
    snprintf(dir, sizeof dir, "%s/proc", root);
    CHECK(mkdir(dir, 0700) == 0);
    snprintf(dir, sizeof dir, "%s/proc/4242", root);
    CHECK(mkdir(dir, 0700) == 0);
    put_file(dir, "comm", "python3\n");
    put_file(dir, "cgroup", "0::/kubepods.slice/kubepods-burstable.slice/"
                            "kubepods-burstable-pod1b2c3d4e_5f60_4718_9a2b_3c4d5e6f7a8b.slice/"
                            "cri-containerd-4f1c2a3b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d.scope\n");
    use_scenario("tele-containers.txt");
    cp_tele_opts o = { 400, 3000, root };
    cp_tele *t = cp_tele_open(&o);
    if (!t) { CHECK(0); return; }
    const cp_tele_frame *f = cp_tele_tick(t);
    const cp_nvml_sample *s = &f->gpu[0].s;
    CHECK_I64(s->nprocs, 2);
    CHECK_I64(s->procs[0].pid, 4194399);
    CHECK_I64(s->procs[0].visible, CP_NO);
    CHECK_STR(cp_tele_proc_name(&s->procs[0]), "pid not visible here");
    CHECK_STR(s->procs[0].container, "");
    CHECK_I64(s->procs[1].visible, CP_YES);
    CHECK_STR(cp_tele_proc_name(&s->procs[1]), "python3");
    CHECK_STR(s->procs[1].container, "kubernetes 4f1c2a3b5c6d");
    CHECK_STR(s->procs[1].pod_uid, "1b2c3d4e-5f60-4718-9a2b-3c4d5e6f7a8b");
    char *body = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&body, &len);
    CHECK(m != NULL);
    if (m) {
        cp_tele_fields fl;
        CHECK(cp_tele_fields_parse(NULL, &fl, NULL, 0) == 0);
        cp_tele_prom(m, f, &fl, NULL);
        CHECK(fclose(m) == 0);
        CHECK(strstr(body, "cuprobe_gpu_process_memory_used_bytes{gpu=\"0\",uuid=\"GPU-2a36941f-b41a-b60b-0006-61ebcd2ec0aa\","
                           "pid=\"4194399\",process=\"pid not visible here\"} 1073741824\n") != NULL);
        CHECK(strstr(body, "pid=\"4242\",process=\"python3\",container=\"kubernetes 4f1c2a3b5c6d\","
                           "pod_uid=\"1b2c3d4e-5f60-4718-9a2b-3c4d5e6f7a8b\"} 97\n") != NULL);
        CHECK(strstr(body, "at most 16 processes a GPU") != NULL);
        free(body);
    }
    cp_tele_close(t);
    static const char *const made[] = { "proc/4242/comm", "proc/4242/cgroup", "proc/4242", "proc", "" };
    for (size_t k = 0; k < sizeof made / sizeof made[0]; k++) {
        snprintf(dir, sizeof dir, "%s/%s", root, made[k]);
        CHECK(remove(dir) == 0);
    }
}

static void test_no_nvml(void)
{
    use_scenario("tele-steady-2gpu.txt");
    setenv("CUPROBE_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
    cp_tele *t = open_fast();
    if (!t) { CHECK(0); return; }
    const cp_tele_frame *f = cp_tele_tick(t);
    CHECK(!f->nvml_ok);
    CHECK_I64(f->ngpu, 0);
    CHECK(strstr(f->error, "could not be loaded") != NULL);
    if (!strstr(f->error, "could not be loaded")) fprintf(stderr, "  error: %s\n", f->error);
    double t0 = cp_now_ms();
    f = cp_tele_tick(t);             /* not retried at once */
    CHECK(cp_now_ms() - t0 < 50);
    CHECK(strstr(f->error, "could not be loaded") != NULL);
    cp_tele_close(t);
}

/* nvmlInit_v2 never returns: the start is cut at its deadline, and the
 * next try waits (each hung start may leave a process in the driver). */
static void test_init_hang(void)
{
    use_scenario("init-hang.txt");
    cp_tele_opts o = { 200, 300, NULL };
    cp_tele *t = cp_tele_open(&o);
    if (!t) { CHECK(0); return; }
    const cp_tele_frame *f = cp_tele_tick(t);
    CHECK(!f->nvml_ok);
    CHECK(f->tick_ms >= 290 && f->tick_ms < 1500);
    CHECK(strstr(f->error, "NVML did not answer within 300 ms loading or initialising (next try in 10 s)") != NULL);
    CHECK_I64(f->restarts, 1);
    double t0 = cp_now_ms();
    f = cp_tele_tick(t);
    CHECK(cp_now_ms() - t0 < 50);
    CHECK_I64(f->restarts, 1);
    CHECK(strstr(f->error, "next try in 10 s") != NULL);
    cp_tele_close(t);
}

/* In this process, last (the fake stays loaded): the calls of a tick,
 * counted by the fake, and the cost of a tick. */
static void test_calls_and_cost(void)
{
    use_scenario("tele-steady-2gpu.txt");
    cp_tele_child_arg a;
    memset(&a, 0, sizeof a);
    cp_buf b = { 0 };
    cp_tele_child *c = cp_tele_child_start(&a, &b, NULL, NULL);
    CHECK(c != NULL);
    CHECK(b.data && strstr(b.data, "tele.ready ok\n"));
    void *h = dlopen(fake_nvml, RTLD_NOW | RTLD_NOLOAD);
    long long (*calls)(void) = h ? (long long (*)(void))dlsym(h, "fake_nvml_calls") : NULL;
    CHECK(calls != NULL);
    if (!c || !calls) { cp_buf_free(&b); cp_tele_child_end(c); return; }
    long long before = calls();
    cp_buf_free(&b);
    cp_tele_child_tick(c, &b, NULL, NULL);
    long long first = calls() - before;
    before = calls();
    cp_buf_free(&b);
    cp_tele_child_tick(c, &b, NULL, NULL);
    long long per_tick = calls() - before;
    /* per GPU: liveness, 7 + 1 + 4 of doctor's rows (+1 for GPU 0's
     * process list: count, then fetch), memory clock, reserved memory,
     * energy, TX, RX, 2 GPM, the utilisation samples, and for GPU 0,
     * which has a process, its utilisation;
     * then 1 event wait */
    CHECK_I64(per_tick, 23 + 21 + 1);
    CHECK(per_tick <= 2 * CP_TELE_CALLS_PER_GPU + CP_TELE_EVENTS_PER_TICK + 1);
    CHECK(first <= per_tick);
    double t0 = cp_now_ms();
    for (int i = 0; i < 200; i++) {
        cp_buf_free(&b);
        cp_tele_child_tick(c, &b, NULL, NULL);
    }
    double in_child = (cp_now_ms() - t0) / 200;
    cp_buf_free(&b);
    cp_tele_child_end(c);
    dlclose(h);
    printf("telemetry: %lld NVML calls per tick for 2 GPUs (fake), %.3f ms per tick in the child\n",
           per_tick, in_child);
    /* the whole round trip, parent and child */
    cp_tele *t = open_fast();
    if (!t) { CHECK(0); return; }
    cp_tele_tick(t);
    t0 = cp_now_ms();
    for (int i = 0; i < 200; i++) cp_tele_tick(t);
    printf("telemetry: %.3f ms per tick through the sampler (2 GPUs, fake)\n",
           (cp_now_ms() - t0) / 200);
    cp_tele_close(t);
}

int main(void)
{
    snprintf(fakes, sizeof fakes, "%s", env_or("CUPROBE_TEST_FAKES", own_fakes()));
    snprintf(scenarios, sizeof scenarios, "%s",
             env_or("CUPROBE_TEST_SCENARIOS", "tests/fakes/scenarios"));
    snprintf(fake_nvml, sizeof fake_nvml, "%.*s/libnvidia-ml.so.1", PATH_MAX - 24, fakes);
    if (!exists(fake_nvml)) {
        printf("skip: fake libraries not found in '%s' (set CUPROBE_TEST_FAKES)\n", fakes);
        return TEST_END();
    }
    RUN(test_steady);
    RUN(test_throttle);
    RUN(test_xid_storm);
    RUN(test_gpm_unsupported);
    RUN(test_lost);
    RUN(test_hang);
    RUN(test_old_driver);
    RUN(test_samples);
    RUN(test_containers);
    RUN(test_no_nvml);
    RUN(test_init_hang);
    RUN(test_calls_and_cost);
    return TEST_END();
}
