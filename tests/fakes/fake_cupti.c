/*
 * A fake libcupti.so.13 for cuprobe trace's injection library: the activity
 * API over synthetic records, so the library's buffers, writer thread, exit
 * flush and refusals run in CI without a GPU.  Driven by the environment:
 *   FAKE_CUPTI_VERSION=N      what cuptiGetVersion says (default 130001)
 *   FAKE_CUPTI_BUSY=1         cuptiActivityRegisterCallbacks fails (another profiler)
 *   FAKE_CUPTI_STEPS=N        N steps of: a kernel "step_kernel" of FAKE_CUPTI_KERNEL_US
 *                             (default 100), then a
 *                             cudaDeviceSynchronize of FAKE_CUPTI_SYNC_US (default 0)
 *                             and FAKE_CUPTI_GAP_US idle (default 5); one 4 MiB
 *                             pageable HtoD copy of 1 ms first when FAKE_CUPTI_PAGEABLE=1
 *   FAKE_CUPTI_THREADS=N      step i's calls come from host thread 100 + i % N and its
 *                             kernel runs on stream 7 + i % N (default: all thread 77, stream 7)
 *   FAKE_CUPTI_KERNELS=LIST   each step runs these kernels in turn instead of step_kernel:
 *                             NAME:US:SM:DRAM,... (SM and DRAM: the % of peak PM sampling reads
 *                             while it runs)
 *   FAKE_CUPTI_DROPPED=N      records it says it dropped
 *   FAKE_CUPTI_CB_BUSY=1      cuptiSubscribe fails (another tool holds the callback API)
 *   FAKE_CUPTI_API_CB_REFUSE=1  cuptiEnableDomain / cuptiEnableCallback refuse the API domains
 *   FAKE_CUPTI_CB_COUNT=1     at exit, say on stderr how many API callbacks were made
 *                             ("fake_cupti: N API callbacks, of which L for launches")
 * CUPTI's one subscriber: cuptiSubscribe once a process (a second call fails as
 * CUPTI's does, CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED), its callback
 * serving both cuptiEnableDomain (the API domains: every id of the domain)
 * and cuptiEnableCallback (one id of the API domains, or the resource domain).
 * The callback API: fake_cupti_call(what), which the test host calls as a
 * program calls the runtime, runs the subscriber's callback at the entry and
 * exit of runtime call what (1 cudaDeviceSynchronize, 2 cudaLaunchKernel,
 * 3 cudaDeviceReset, which destroys the context, 4 the first CUDA call, which
 * makes it where FAKE_CUPTI_CTX=late, see below;
 * the callback gets CUPTI's ids, CUPTI_RUNTIME_TRACE_CBID_...), with a
 * driver call (cuCtxSynchronize) inside each synchronisation, each only
 * where its id is enabled, the entry from fake_cupti_api_enter and the exit
 * from fake_cupti_api_exit (so a stack names the site it was taken at); the
 * n-th synchronisation gets correlation id 100000 + n and the n-th launch
 * 10 + n, the ids the steps' API records of those calls carry.
 * PM sampling and the profiler host API (`cuprobe trace --counters`), left out
 * when built with -DFAKE_CUPTI_NO_PM (a libcupti older than the API):
 *   FAKE_CUPTI_PM=WHAT        privileges: cuptiPmSamplingEnable refuses (NVreg_RestrictProfilingToAdminUsers);
 *                             unsupported: the GPU has none; busy: another subscriber holds CUPTI;
 *                             sysclk-only: no time-interval trigger (Turing, GA100);
 *                             multipass: SetConfig refuses a config holding a composite metric
 *                             (sm__throughput, dram__throughput, gpu__dram_throughput: several
 *                             passes, as on GH100), cuptiProfilerHostGetNumOfPasses says 2
 *   FAKE_CUPTI_PM_US=N        the sampling interval the samples come at (default 100)
 *   FAKE_CUPTI_PM_METRICS=L   the metric names the chip knows (default sm__throughput and dram__throughput's)
 * A context is "created" when the resource callback is enabled (with
 * FAKE_CUPTI_CTX=late: by fake_cupti_call(4), the program's first CUDA call,
 * after the injection has set itself up, as in a real program), and
 * destroyed by fake_cupti_call(3) (cudaDeviceReset): the destroy-starting
 * callback runs where enabled, and a PM sampling call after it aborts the
 * program ("used after its context was destroyed").  As the real libcupti
 * loads libnvperf_host, the first cuptiProfilerHostInitialize registers an
 * atexit handler (its C++ destructors), and a PM sampling or host call after
 * it has run aborts with glibc's "double free", as on the H200.  Samples are
 * decoded after cuptiPmSamplingStop, each the overlap-weighted mean of the
 * kernels' figures over its interval (idle: 0).
 * Records are produced at cuptiActivityFlushAll, in buffers the library hands
 * over, as the real one does.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include "../../src/inject/cupti_host.h"

static CUpti_CallbackFunc g_cb;
static int g_ctx_gone, g_destroy_cb;    /* the context was destroyed; its callback is enabled */
static int g_create_cb;                 /* the context-created callback is enabled */

static int pm_fails_ctx_late(void)
{
    const char *s = getenv("FAKE_CUPTI_CTX");
    return s && strcmp(s, "late") == 0;
}
static void *g_cb_user;
static uint32_t g_syncs, g_launches;
#define FAKE_MAX_CBID 4096u
static unsigned char g_api_on[2][FAKE_MAX_CBID];   /* [driver, runtime][cbid]: called back */
static unsigned long g_api_calls, g_launch_calls;
static CUpti_BuffersCallbackRequestFunc g_req;
static CUpti_BuffersCallbackCompleteFunc g_done;
static int g_flushed;

static long env(const char *n, long d)
{
    const char *s = getenv(n);
    return s && *s ? strtol(s, NULL, 10) : d;
}

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t *v)
{
    *v = (uint32_t)env("FAKE_CUPTI_VERSION", 130001);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult r, const char **s)
{
    *s = r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"
         : r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES        ? "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"
         : r == CUPTI_ERROR_NOT_SUPPORTED                  ? "CUPTI_ERROR_NOT_SUPPORTED"
                                                           : "CUPTI_ERROR_UNKNOWN";
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req, CUpti_BuffersCallbackCompleteFunc done)
{
    if (env("FAKE_CUPTI_BUSY", 0)) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    g_req = req;
    g_done = done;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind k)
{
    (void)k;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain d, uint32_t cbid, const char **name)
{
    static const char *const rt[] = { "cudaUnknown", "cudaDeviceSynchronize_v3020", "cudaLaunchKernel_v7000",
                                      "cudaMemcpy_v3020" };
    if (d != CUPTI_CB_DOMAIN_RUNTIME_API || cbid >= 4) return CUPTI_ERROR_INVALID_PARAMETER;
    *name = rt[cbid];
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle *sub, CUpti_CallbackFunc cb, void *user)
{
    if (env("FAKE_CUPTI_CB_BUSY", 0) || g_cb) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
#ifndef FAKE_CUPTI_NO_PM
    const char *pm = getenv("FAKE_CUPTI_PM");           /* PM sampling's own way to say it */
    if (pm && strcmp(pm, "busy") == 0) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
#endif
    g_cb = cb;
    g_cb_user = user;
    *sub = (CUpti_SubscriberHandle)&g_cb;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle sub, CUpti_CallbackDomain d)
{
    if (sub != (CUpti_SubscriberHandle)&g_cb) return CUPTI_ERROR_INVALID_PARAMETER;
    int api = d == CUPTI_CB_DOMAIN_RUNTIME_API || d == CUPTI_CB_DOMAIN_DRIVER_API;
    if (api && env("FAKE_CUPTI_API_CB_REFUSE", 0)) return CUPTI_ERROR_NOT_SUPPORTED;
    if (api)
        memset(g_api_on[d == CUPTI_CB_DOMAIN_RUNTIME_API], enable ? 1 : 0, FAKE_MAX_CBID);
    return CUPTI_SUCCESS;
}

static void callback(CUpti_CallbackDomain d, uint32_t cbid, const char *name, uint32_t corr, CUpti_ApiCallbackSite site)
{
    if (cbid >= FAKE_MAX_CBID || !g_api_on[d == CUPTI_CB_DOMAIN_RUNTIME_API][cbid]) return;
    CUpti_CallbackData data;
    memset(&data, 0, sizeof data);
    data.callbackSite = site;
    data.functionName = name;
    data.correlationId = corr;
    g_api_calls++;
    if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000) g_launch_calls++;
    g_cb(g_cb_user, d, cbid, &data);
}

/* The entry and the exit of an API call, each its own frame. */
void fake_cupti_api_enter(CUpti_CallbackDomain d, uint32_t cbid, const char *name, uint32_t corr) __attribute__((noinline));
void fake_cupti_api_enter(CUpti_CallbackDomain d, uint32_t cbid, const char *name, uint32_t corr)
{
    callback(d, cbid, name, corr, CUPTI_API_ENTER);
    __asm__ volatile("" ::: "memory");            /* no tail call: this frame stays on the stack */
}
void fake_cupti_api_exit(CUpti_CallbackDomain d, uint32_t cbid, const char *name, uint32_t corr) __attribute__((noinline));
void fake_cupti_api_exit(CUpti_CallbackDomain d, uint32_t cbid, const char *name, uint32_t corr)
{
    callback(d, cbid, name, corr, CUPTI_API_EXIT);
    __asm__ volatile("" ::: "memory");
}

static void __attribute__((destructor)) say_counts(void)
{
    if (env("FAKE_CUPTI_CB_COUNT", 0))
        fprintf(stderr, "fake_cupti: %lu API callbacks, of which %lu for launches\n", g_api_calls, g_launch_calls);
}

/* A runtime call of the program (the test host's); not part of libcupti. */
void fake_cupti_call(uint32_t what);
void fake_cupti_call(uint32_t what)
{
    if (what == 4) {                                    /* the first CUDA call: the context comes */
        CUpti_ResourceData rd = { .context = (CUcontext)&g_cb_user };
        if (g_cb && g_create_cb && pm_fails_ctx_late())
            g_cb(g_cb_user, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED, &rd);
        return;
    }
    if (what == 3) {                                    /* cudaDeviceReset: the context goes */
        CUpti_ResourceData rd = { .context = (CUcontext)&g_cb_user };
        if (g_cb && g_destroy_cb && !g_ctx_gone)
            g_cb(g_cb_user, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, &rd);
        g_ctx_gone = 1;
        return;
    }
    if (!g_cb || (what != 1 && what != 2)) return;
    const char *name = what == 1 ? "cudaDeviceSynchronize" : "cudaLaunchKernel";
    uint32_t cbid = what == 1 ? CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020
                              : CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
    uint32_t corr = what == 1 ? 100000 + g_syncs++ : 10 + g_launches++;
    fake_cupti_api_enter(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, name, corr);
    if (what == 1) {
        fake_cupti_api_enter(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, "cuCtxSynchronize",
                             corr + 50000);
        fake_cupti_api_exit(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, "cuCtxSynchronize",
                            corr + 50000);
    }
    fake_cupti_api_exit(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, name, corr);
}

static size_t rec_size(CUpti_ActivityKind k)
{
    switch (k) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY: return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_RUNTIME: return sizeof(CUpti_ActivityAPI);
    default: return 0;
    }
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid, CUpti_Activity **rec)
{
    uint8_t *p = *rec ? (uint8_t *)*rec + rec_size((*rec)->kind) : buffer;
    if (p >= buffer + valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *rec = (CUpti_Activity *)p;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext c, uint32_t s, size_t *n)
{
    (void)c;
    (void)s;
    *n = (size_t)env("FAKE_CUPTI_DROPPED", 0);
    return CUPTI_SUCCESS;
}

typedef struct {
    uint8_t *buf;
    size_t size, used;
} out_buf;

static int next_buf(out_buf *o)
{
    if (o->buf) g_done(NULL, 0, o->buf, o->size, o->used);
    size_t max = 0;
    o->buf = NULL;
    o->size = o->used = 0;
    g_req(&o->buf, &o->size, &max);
    return o->buf != NULL;
}

static void *slot(out_buf *o, size_t n)
{
    if ((!o->buf || o->size - o->used < n) && !next_buf(o)) return NULL;
    void *p = o->buf + o->used;
    memset(p, 0, n);
    o->used += n;
    return p;
}

static void api(out_buf *o, uint32_t cbid, uint64_t s, uint64_t e, uint32_t corr, uint32_t tid)
{
    CUpti_ActivityAPI *a = slot(o, sizeof *a);
    if (!a) return;
    a->kind = CUPTI_ACTIVITY_KIND_RUNTIME;
    a->cbid = cbid;
    a->start = s;
    a->end = e;
    a->threadId = tid;
    a->correlationId = corr;
}

/* ------------------------------------------------ the planned timeline -- */

typedef struct {
    char name[64];
    long ns;
    double sm, dram;
} fake_kernel;

typedef struct {
    int what;                        /* 0 kernel, 1 pageable copy, 2 sync */
    int k;                           /* the kernel */
    uint64_t s, e;
    long step;
} event;

static fake_kernel g_kern[8];
static int g_nkern;
static event *g_ev;
static size_t g_nev;
static uint64_t g_end;

static void plan(void)
{
    static int done;
    if (done++) return;
    const char *list = getenv("FAKE_CUPTI_KERNELS");
    if (list && *list) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", list);
        for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok && g_nkern < 8; tok = strtok_r(NULL, ",", &save)) {
            fake_kernel *k = &g_kern[g_nkern];
            long us = 0;
            if (sscanf(tok, "%63[^:]:%ld:%lf:%lf", k->name, &us, &k->sm, &k->dram) != 4) continue;
            k->ns = us * 1000;
            g_nkern++;
        }
    }
    if (!g_nkern) {
        snprintf(g_kern[0].name, sizeof g_kern[0].name, "step_kernel");
        g_kern[0].ns = env("FAKE_CUPTI_KERNEL_US", 100) * 1000;
        g_kern[0].sm = 50;
        g_kern[0].dram = 20;
        g_nkern = 1;
    }
    long steps = env("FAKE_CUPTI_STEPS", 0), sync_ns = env("FAKE_CUPTI_SYNC_US", 0) * 1000,
         gap_ns = env("FAKE_CUPTI_GAP_US", 5) * 1000;
    size_t cap = (size_t)(steps > 0 ? steps : 0) * (size_t)(g_nkern + 1) + 1;
    g_ev = calloc(cap, sizeof *g_ev);
    if (!g_ev) return;
    uint64_t t = 1000000000ull;
    if (env("FAKE_CUPTI_PAGEABLE", 0)) {
        g_ev[g_nev++] = (event){ 1, 0, t, t + 1000000, 0 };
        t += 1000000;
    }
    for (long i = 0; i < steps; i++) {
        for (int k = 0; k < g_nkern; k++) {
            g_ev[g_nev++] = (event){ 0, k, t, t + (uint64_t)g_kern[k].ns, i };
            t += (uint64_t)g_kern[k].ns;
        }
        if (sync_ns) {
            g_ev[g_nev++] = (event){ 2, 0, t, t + (uint64_t)sync_ns, i };
            t += (uint64_t)sync_ns;
        }
        t += (uint64_t)gap_ns;
    }
    g_end = t;
}

CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t flag)
{
    (void)flag;
    if (!g_req || g_flushed++) return CUPTI_SUCCESS;
    plan();
    out_buf o = { 0 };
    long threads = env("FAKE_CUPTI_THREADS", 0);
    uint32_t launches = 0, syncs = 0;                   /* fake_cupti_call's correlation ids */
    for (size_t i = 0; i < g_nev; i++) {
        const event *ev = &g_ev[i];
        uint32_t tid = threads > 0 ? 100 + (uint32_t)(ev->step % threads) : 77;
        if (ev->what == 1) {
            api(&o, 3, ev->s, ev->e, 1, 77);
            CUpti_ActivityMemcpy6 *m = slot(&o, sizeof *m);
            if (m) {
                m->kind = CUPTI_ACTIVITY_KIND_MEMCPY;
                m->copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
                m->srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
                m->dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
                m->bytes = 4u << 20;
                m->start = ev->s;
                m->end = ev->e;
            }
        } else if (ev->what == 2) {
            api(&o, 1, ev->s, ev->e, 100000 + syncs++, tid);
        } else {
            uint32_t corr = 10 + launches++;
            api(&o, 2, ev->s, ev->s + 2000, corr, tid);
            CUpti_ActivityKernel10 *k = slot(&o, sizeof *k);
            if (k) {
                k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
                k->start = ev->s;
                k->end = ev->e;
                k->streamId = threads > 0 ? 7 + (uint32_t)(ev->step % threads) : 7;
                k->correlationId = corr;
                k->name = g_kern[ev->k].name;
                k->gridX = 128;
                k->blockX = 256;
            }
        }
    }
    if (o.buf) g_done(NULL, 0, o.buf, o.size, o.used);
    return CUPTI_SUCCESS;
}

#ifndef FAKE_CUPTI_NO_PM
/* --------------------------------------------- PM sampling, host API -- */

static int g_stopped;
static size_t g_next_sample, g_max_samples = 1;
static int dummy_obj, dummy_host;
static int g_composite;                 /* the host object's config holds a composite metric */
static int g_host_gone;                 /* the host library's destructors have run (at exit) */

/* A PM sampling call on a device whose context is gone: the fake's assertion. */
static void pm_live(const char *call)
{
    if (g_host_gone) {
        fputs("free(): double free detected in tcache 2\n", stderr);
        abort();
    }
    if (!g_ctx_gone) return;
    fprintf(stderr, "fake_cupti: %s used after its context was destroyed\n", call);
    abort();
}

static void host_library_destructors(void) { g_host_gone = 1; }

static int pm_fails(const char *what)
{
    const char *s = getenv("FAKE_CUPTI_PM");
    return s && strcmp(s, what) == 0;
}

CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t *t)
{
    *t = 999000000ull;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableCallback(uint32_t on, CUpti_SubscriberHandle sub, CUpti_CallbackDomain d, CUpti_CallbackId id)
{
    if (sub != (CUpti_SubscriberHandle)&g_cb) return CUPTI_ERROR_INVALID_PARAMETER;
    if (d == CUPTI_CB_DOMAIN_RUNTIME_API || d == CUPTI_CB_DOMAIN_DRIVER_API) {
        if (env("FAKE_CUPTI_API_CB_REFUSE", 0)) return CUPTI_ERROR_NOT_SUPPORTED;
        if (id >= FAKE_MAX_CBID) return CUPTI_ERROR_INVALID_PARAMETER;
        g_api_on[d == CUPTI_CB_DOMAIN_RUNTIME_API][id] = on ? 1 : 0;
        return CUPTI_SUCCESS;
    }
    if (d == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) g_destroy_cb = on != 0;
    if (d == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) g_create_cb = on != 0;
    if (on && d == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED && g_cb &&
        !pm_fails_ctx_late()) {
        CUpti_ResourceData rd = { .context = (CUcontext)&dummy_host };    /* the program's first context */
        g_cb(g_cb_user, d, id, &rd);
    }
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetDeviceId(CUcontext c, uint32_t *dev)
{
    (void)c;
    *dev = 0;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerInitialize(CUpti_Profiler_Initialize_Params *p)
{
    (void)p;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiDeviceGetChipName(CUpti_Device_GetChipName_Params *p)
{
    p->pChipName = "GH100";
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiPmSamplingGetCounterAvailability(CUpti_PmSampling_GetCounterAvailability_Params *p)
{
    if (pm_fails("unsupported")) return CUPTI_ERROR_NOT_SUPPORTED;
    p->counterAvailabilityImageSize = 64;
    if (p->pCounterAvailabilityImage) memset(p->pCounterAvailabilityImage, 7, 64);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostInitialize(cp_host_init_params *p)
{
    static int loaded;
    if (!loaded++) atexit(host_library_destructors);    /* libnvperf_host, loaded now */
    pm_live("cuptiProfilerHostInitialize");
    g_composite = 0;
    p->pHostObject = (cp_host_object *)&dummy_host;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostDeinitialize(cp_host_deinit_params *p)
{
    (void)p;
    if (g_host_gone) pm_live("cuptiProfilerHostDeinitialize");
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostGetMetricProperties(cp_host_props_params *p)
{
    const char *list = getenv("FAKE_CUPTI_PM_METRICS");
    if (!list) list = "sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed";
    size_t n = strlen(p->pMetricName);
    for (const char *q = list; (q = strstr(q, p->pMetricName)); q += n)
        if ((q == list || q[-1] == ',') && (q[n] == ',' || q[n] == '\0')) return CUPTI_SUCCESS;
    return CUPTI_ERROR_INVALID_METRIC_NAME;
}

CUptiResult CUPTIAPI cuptiProfilerHostConfigAddMetrics(cp_host_add_params *p)
{
    static const char *const composite[] = { "sm__throughput.", "dram__throughput.", "gpu__dram_throughput." };
    for (size_t i = 0; i < p->numMetrics; i++)
        for (size_t k = 0; k < sizeof composite / sizeof composite[0]; k++)
            if (strncmp(p->ppMetricNames[i], composite[k], strlen(composite[k])) == 0) g_composite = 1;
    return p->numMetrics ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiProfilerHostGetConfigImageSize(cp_host_config_size_params *p)
{
    p->configImageSize = 128;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostGetConfigImage(cp_host_config_params *p)
{
    memset(p->pConfigImage, 1, p->configImageSize);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostGetNumOfPasses(cp_host_passes_params *p)
{
    if (!p->pConfigImage) return CUPTI_ERROR_INVALID_PARAMETER;
    p->numOfPasses = pm_fails("multipass") && g_composite ? 2 : 1;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiPmSamplingEnable(CUpti_PmSampling_Enable_Params *p)
{
    if (pm_fails("privileges")) return CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
    p->pPmSamplingObject = (CUpti_PmSampling_Object *)&dummy_obj;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiPmSamplingDisable(CUpti_PmSampling_Disable_Params *p)
{
    (void)p;
    pm_live("cuptiPmSamplingDisable");
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiPmSamplingSetConfig(CUpti_PmSampling_SetConfig_Params *p)
{
    if (pm_fails("sysclk-only") && p->triggerMode == CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL)
        return CUPTI_ERROR_NOT_SUPPORTED;
    if (pm_fails("multipass") && g_composite) return CUPTI_ERROR_NOT_SUPPORTED;
    return p->pConfig && p->samplingInterval ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiPmSamplingStart(CUpti_PmSampling_Start_Params *p)
{
    (void)p;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiPmSamplingStop(CUpti_PmSampling_Stop_Params *p)
{
    (void)p;
    pm_live("cuptiPmSamplingStop");
    g_stopped = 1;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiPmSamplingGetCounterDataSize(CUpti_PmSampling_GetCounterDataSize_Params *p)
{
    g_max_samples = p->maxSamples ? p->maxSamples : 1;
    p->counterDataSize = 16 + g_max_samples;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiPmSamplingCounterDataImageInitialize(CUpti_PmSampling_CounterDataImage_Initialize_Params *p)
{
    memset(p->pCounterData, 0, p->counterDataSize);
    return CUPTI_SUCCESS;
}

static uint64_t pm_interval(void)
{
    long us = env("FAKE_CUPTI_PM_US", 100);
    return (uint64_t)(us > 0 ? us : 100) * 1000u;
}

static size_t samples_all(void)
{
    plan();
    return g_end > 1000000000ull ? (size_t)((g_end - 1000000000ull + pm_interval() - 1) / pm_interval()) : 0;
}

/* The image holds the count of its samples and the first one's index. */
CUptiResult CUPTIAPI cuptiPmSamplingDecodeData(CUpti_PmSampling_DecodeData_Params *p)
{
    pm_live("cuptiPmSamplingDecodeData");
    uint64_t hdr[2] = { 0, g_next_sample };
    size_t left = g_stopped ? samples_all() - g_next_sample : 0;
    hdr[0] = left < g_max_samples ? left : g_max_samples;
    g_next_sample += (size_t)hdr[0];
    memcpy(p->pCounterDataImage, hdr, sizeof hdr);
    p->decodeStopReason = left > g_max_samples ? CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL
                                               : CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS;
    p->overflow = 0;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiPmSamplingGetCounterDataInfo(CUpti_PmSampling_GetCounterDataInfo_Params *p)
{
    uint64_t hdr[2];
    memcpy(hdr, p->pCounterDataImage, sizeof hdr);
    p->numTotalSamples = g_max_samples;
    p->numPopulatedSamples = p->numCompletedSamples = (size_t)hdr[0];
    return CUPTI_SUCCESS;
}

static uint64_t sample_start(const uint8_t *image, size_t i)
{
    uint64_t hdr[2];
    memcpy(hdr, image, sizeof hdr);
    return 1000000000ull + (hdr[1] + i) * pm_interval();
}

CUptiResult CUPTIAPI cuptiPmSamplingCounterDataGetSampleInfo(CUpti_PmSampling_CounterData_GetSampleInfo_Params *p)
{
    p->startTimestamp = sample_start(p->pCounterDataImage, p->sampleIndex);
    p->endTimestamp = p->startTimestamp + pm_interval();
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostEvaluateToGpuValues(cp_host_eval_params *p)
{
    uint64_t s = sample_start(p->pCounterDataImage, p->rangeIndex), e = s + pm_interval();
    double sm = 0, dram = 0;
    for (size_t i = 0; i < g_nev; i++) {           /* the kernels' figures, weighted by their overlap */
        const event *ev = &g_ev[i];
        if (ev->what != 0 || ev->e <= s || ev->s >= e) continue;
        double w = (double)((ev->e < e ? ev->e : e) - (ev->s > s ? ev->s : s)) / (double)(e - s);
        sm += w * g_kern[ev->k].sm;
        dram += w * g_kern[ev->k].dram;
    }
    for (size_t m = 0; m < p->numMetrics; m++) {
        const char *n = p->ppMetricNames[m];
        p->pMetricValues[m] = strncmp(n, "sm__", 4) == 0           ? sm
                              : strncmp(n, "dramc__read", 11) == 0  ? dram * 0.75
                              : strncmp(n, "dramc__write", 12) == 0 ? dram * 0.25
                                                                    : dram;
    }
    return CUPTI_SUCCESS;
}
#endif
