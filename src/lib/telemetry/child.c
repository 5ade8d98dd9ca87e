/*
 * The sampler's child: NVML held open, one block of answers per tick
 * (tele_int.h).  Every call is optional but the four the loader requires;
 * a driver without the newer symbols samples the rest.  Per GPU and tick
 * at most CP_TELE_CALLS_PER_GPU calls: the liveness call (the SM clock),
 * doctor's sample rows (CP_NVML_FILL_SAMPLE_CALLS), the memory clock,
 * reserved memory, energy, PCIe TX and RX, two GPM calls, the
 * processes' utilisation when the GPU has processes, and the
 * GPU-utilisation samples NVML kept since the last tick.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "util/alloc.h"
#include "dl/loader.h"
#include "dl/nvml_api.h"
#include "facts/facts_kv.h"
#include "probe/nvml_fill.h"
#include "tele_int.h"

#define OK CP_NVML_SUCCESS

_Static_assert(1 + CP_NVML_FILL_SAMPLE_CALLS + 5 + 2 + 1 + 1 <= CP_TELE_CALLS_PER_GPU,
               "the per-GPU call bound covers every call of a tick");

struct cp_tele_child {
    cp_nvml_api api;
    cp_lib_load lib;
    int inited;
    int n;
    nvmlDevice_t h[CP_MAX_GPUS];
    unsigned char skip[CP_MAX_GPUS];  /* hung before, or no handle */
    unsigned char lost[CP_MAX_GPUS];
    int64_t lost_result[CP_MAX_GPUS];
    unsigned char gpm[CP_MAX_GPUS];   /* GPM supported and two samples allocated */
    unsigned char gpm_have[CP_MAX_GPUS];
    int gpm_cur[CP_MAX_GPUS];
    nvmlGpmSample_t gs[CP_MAX_GPUS][2];
    nvmlEventSet_t set;
    unsigned long long proc_seen_us[CP_MAX_GPUS];  /* the newest process sample read */
    unsigned long long util_seen_us[CP_MAX_GPUS];  /* the newest GPU-utilisation sample read */
    int64_t util_period_us[CP_MAX_GPUS];           /* their spacing, CP_UNKNOWN before two */
    unsigned char util_have[CP_MAX_GPUS];          /* util_seen_us is a sample's own time */
};

static int64_t clock_of(const cp_nvml_api *api, cp_nvmlDeviceGetClockInfo_fn fn, nvmlDevice_t h,
                        int type, nvmlReturn_t *rc)
{
    unsigned int v = 0;
    nvmlReturn_t r = fn ? fn(h, type, &v) : CP_NVML_ERROR_NOT_SUPPORTED;
    (void)api;
    if (rc)
        *rc = r;
    return r == OK ? (int64_t)v : CP_UNKNOWN;
}

static void start_gpm(cp_tele_child *c, int i)
{
    const cp_nvml_api *a = &c->api;
    if (!a->nvmlGpmQueryDeviceSupport || !a->nvmlGpmSampleAlloc || !a->nvmlGpmSampleFree ||
        !a->nvmlGpmSampleGet || !a->nvmlGpmMetricsGet)
        return;
    nvmlGpmSupport_t sup;
    memset(&sup, 0, sizeof sup);
    sup.version = CP_NVML_GPM_SUPPORT_VERSION;
    if (a->nvmlGpmQueryDeviceSupport(c->h[i], &sup) != OK || !sup.isSupportedDevice)
        return;
    if (a->nvmlGpmSampleAlloc(&c->gs[i][0]) != OK)
        return;
    if (a->nvmlGpmSampleAlloc(&c->gs[i][1]) != OK) {
        a->nvmlGpmSampleFree(c->gs[i][0]);
        return;
    }
    c->gpm[i] = 1;
}

/* XIDs only: the other event types are read by doctor from their counters. */
static void start_events(cp_tele_child *c)
{
    const cp_nvml_api *a = &c->api;
    if (!a->nvmlEventSetCreate || !a->nvmlDeviceRegisterEvents || !a->nvmlEventSetWait ||
        !a->nvmlEventSetFree || a->nvmlEventSetCreate(&c->set) != OK) {
        c->set = NULL;
        return;
    }
    int any = 0;
    for (int i = 0; i < c->n; i++) {
        if (c->skip[i])
            continue;
        unsigned long long types = CP_NVML_EVENT_TYPE_XID_CRITICAL_ERROR;
        unsigned long long sup = 0;
        if (a->nvmlDeviceGetSupportedEventTypes &&
            a->nvmlDeviceGetSupportedEventTypes(c->h[i], &sup) == OK)
            types &= sup;
        if (types && a->nvmlDeviceRegisterEvents(c->h[i], types, c->set) == OK)
            any = 1;
    }
    if (!any) {
        a->nvmlEventSetFree(c->set);
        c->set = NULL;
    }
}

/* Load, init, inventory; see tele_int.h. */
cp_tele_child *cp_tele_child_start(const cp_tele_child_arg *arg, cp_buf *b,
                                   void (*flush)(void *arg), void *farg)
{
    char key[48];
    cp_tele_child *c = cp_calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (!cp_dl_load(&cp_nvml_lib, &c->api, &c->lib)) {
        cp_buf_printf(b, "tele.error %s could not be loaded: %s\n",
                      c->lib.requested[0] ? c->lib.requested : "libnvidia-ml.so.1",
                      c->lib.missing_symbol[0] ? c->lib.missing_symbol : c->lib.error);
        cp_kv_put_str(b, "tele.ready", "fail");
        return c;
    }
    nvmlReturn_t r = c->api.nvmlInit();
    if (r != OK) {
        const char *why = c->api.nvmlErrorString ? c->api.nvmlErrorString(r) : NULL;
        cp_buf_printf(b, "tele.error nvmlInit_v2 answered %d (%s)\n", r, why ? why : "no text");
        cp_kv_put_str(b, "tele.ready", "fail");
        return c;
    }
    c->inited = 1;
    unsigned int count = 0;
    if (c->api.nvmlDeviceGetCount(&count) == OK)
        c->n = count < CP_MAX_GPUS ? (int)count : CP_MAX_GPUS;
    cp_kv_put_i64(b, "tele.ndev", c->n);
    for (int i = 0; i < c->n; i++) {
        c->skip[i] = arg->skip[i];
        if (c->skip[i] || c->api.nvmlDeviceGetHandleByIndex((unsigned)i, &c->h[i]) != OK) {
            c->skip[i] = 1;
            continue;
        }
        cp_nvml_inventory inv;
        cp_nvml_device d;
        cp_nvml_device_init(&d, i);
        inv = d.inv;
        cp_nvml_fill_inventory(&c->api, c->h[i], &inv);
        cp_facts_put_nvml_inventory(b, i, &inv);
        start_gpm(c, i);
        struct timeval tv;
        gettimeofday(&tv, NULL);   /* process samples from a second ago on, not the whole buffer */
        c->proc_seen_us[i] = (unsigned long long)tv.tv_sec * 1000000ull + (unsigned long long)tv.tv_usec -
                             1000000ull;
        c->util_seen_us[i] = c->proc_seen_us[i];
        c->util_period_us[i] = CP_UNKNOWN;
        snprintf(key, sizeof key, "tele.dev.%d.inv", i);
        cp_kv_put_i64(b, key, 1);
        if (flush)
            flush(farg);   /* a GPU that hangs the next call is named by what came */
    }
    if (!arg->no_events)
        start_events(c);
    cp_kv_put_str(b, "tele.ready", "ok");
    return c;
}

/* Each process's share of the last tick from its newest sample: one call
 * into a fixed buffer (a tick with more samples than it holds says
 * nothing, the next one reads on from the same point). */
static void sample_proc_util(cp_tele_child *c, int i, cp_nvml_sample *s)
{
    enum { MAX_SAMPLES = 64 };
    nvmlProcessUtilizationSample_t buf[MAX_SAMPLES];
    if (!c->api.nvmlDeviceGetProcessUtilization || s->nprocs <= 0)
        return;
    unsigned int n = MAX_SAMPLES;
    memset(buf, 0, sizeof buf);
    if (c->api.nvmlDeviceGetProcessUtilization(c->h[i], buf, &n, c->proc_seen_us[i]) != OK)
        return;
    unsigned long long newest = c->proc_seen_us[i];
    for (int p = 0; p < s->nprocs; p++) {
        unsigned long long at = 0;
        for (unsigned int k = 0; k < n && k < MAX_SAMPLES; k++) {
            if (buf[k].pid != (unsigned)s->procs[p].pid || buf[k].timeStamp < at)
                continue;
            at = buf[k].timeStamp;
            s->procs[p].sm_util_pct = buf[k].smUtil <= 100 ? (int64_t)buf[k].smUtil : CP_UNKNOWN;
        }
    }
    for (unsigned int k = 0; k < n && k < MAX_SAMPLES; k++)
        if (buf[k].timeStamp > newest)
            newest = buf[k].timeStamp;
    c->proc_seen_us[i] = newest;
}

/* One sample's value as a number, whichever type NVML says it has. */
static double sample_value(nvmlValueType_t type, const nvmlValue_t *v, int *ok)
{
    *ok = 1;
    switch (type) {
    case CP_NVML_VALUE_TYPE_DOUBLE: return v->dVal;
    case CP_NVML_VALUE_TYPE_UNSIGNED_INT: return v->uiVal;
    case CP_NVML_VALUE_TYPE_UNSIGNED_LONG: return (double)v->ulVal;
    case CP_NVML_VALUE_TYPE_UNSIGNED_LONG_LONG: return (double)v->ullVal;
    case CP_NVML_VALUE_TYPE_SIGNED_LONG_LONG: return (double)v->sllVal;
    case CP_NVML_VALUE_TYPE_SIGNED_INT: return v->siVal;
    case CP_NVML_VALUE_TYPE_UNSIGNED_SHORT: return v->usVal;
    default: *ok = 0; return 0.0;
    }
}

/* Kernel-active over the device's own sample period: the mean of the
 * GPU-utilisation samples NVML kept since the last one read (one call into
 * a fixed buffer, larger than the driver's ring), and their spacing.  With
 * no new sample (NOT_FOUND, unsupported, MIG) util_gpu_pct stays what
 * nvmlDeviceGetUtilizationRates answered and util_gpu_samples says 0. */
static void sample_util(cp_tele_child *c, int i, cp_nvml_sample *s)
{
    enum { MAX_SAMPLES = 256 };
    static nvmlSample_t buf[MAX_SAMPLES];   /* 4 KB: not on the child's stack */
    s->util_gpu_period_us = c->util_period_us[i];
    if (!c->api.nvmlDeviceGetSamples)
        return;
    s->util_gpu_samples = 0;
    nvmlValueType_t type = CP_NVML_VALUE_TYPE_UNSIGNED_INT;
    unsigned int n = MAX_SAMPLES;
    memset(buf, 0, sizeof buf);
    if (c->api.nvmlDeviceGetSamples(c->h[i], CP_NVML_GPU_UTILIZATION_SAMPLES, c->util_seen_us[i],
                                    &type, &n, buf) != OK)
        return;
    double sum = 0.0;
    unsigned int used = 0;
    unsigned long long first = 0, last = 0, prev = c->util_seen_us[i];
    int64_t gap = CP_UNKNOWN;
    for (unsigned int k = 0; k < n && k < MAX_SAMPLES; k++) {
        int ok;
        double v = sample_value(type, &buf[k].sampleValue, &ok);
        if (!ok || !(v >= 0.0 && v <= 100.0) || buf[k].timeStamp <= c->util_seen_us[i])
            continue;   /* an old sample again, or one that is no percentage */
        if (buf[k].timeStamp > last)
            last = buf[k].timeStamp;
        if (!first || buf[k].timeStamp < first)
            first = buf[k].timeStamp;
        sum += v;
        used++;
    }
    if (!used)
        return;
    if (used >= 2)
        gap = (int64_t)((last - first) / (used - 1));
    else if (c->util_period_us[i] == CP_UNKNOWN && c->util_have[i])
        gap = (int64_t)(last - prev);   /* one new sample after one seen before */
    if (gap > 0)
        c->util_period_us[i] = gap;
    c->util_have[i] = 1;
    c->util_seen_us[i] = last;
    s->util_gpu_pct = (int64_t)lround(sum / used);
    s->util_gpu_samples = used;
    s->util_gpu_period_us = c->util_period_us[i];
}

static int64_t round_pct(double v)
{
    if (!(v >= 0.0) || v > 1000.0)     /* NaN or nonsense: unknown */
        return CP_UNKNOWN;
    return (int64_t)lround(v);
}

/* Two GPM samples a tick apart give the metrics of that interval. */
static void sample_gpm(cp_tele_child *c, int i, cp_nvml_sample *s)
{
    const cp_nvml_api *a = &c->api;
    int cur = c->gpm_cur[i];
    if (a->nvmlGpmSampleGet(c->h[i], c->gs[i][cur]) != OK) {
        c->gpm_have[i] = 0;
        return;
    }
    if (c->gpm_have[i]) {
        static nvmlGpmMetricsGet_t g;   /* 13 KB: not on the child's stack */
        static const unsigned int ids[4] = { CP_NVML_GPM_METRIC_SM_UTIL,
                                             CP_NVML_GPM_METRIC_SM_OCCUPANCY,
                                             CP_NVML_GPM_METRIC_ANY_TENSOR_UTIL,
                                             CP_NVML_GPM_METRIC_DRAM_BW_UTIL };
        memset(&g, 0, sizeof g);
        g.version = CP_NVML_GPM_METRICS_GET_VERSION;
        g.numMetrics = 4;
        g.sample1 = c->gs[i][cur ^ 1];
        g.sample2 = c->gs[i][cur];
        for (int k = 0; k < 4; k++)
            g.metrics[k].metricId = ids[k];
        if (a->nvmlGpmMetricsGet(&g) == OK) {
            int64_t *dst[4] = { &s->gpm_sm_active_pct, &s->gpm_sm_occupancy_pct,
                                &s->gpm_tensor_active_pct, &s->gpm_dram_bw_pct };
            for (int k = 0; k < 4; k++)
                if (g.metrics[k].nvmlReturn == OK)
                    *dst[k] = round_pct(g.metrics[k].value);
        }
    }
    c->gpm_have[i] = 1;
    c->gpm_cur[i] = cur ^ 1;
}

static int64_t pcie(cp_nvmlDeviceGetPcieThroughput_fn fn, nvmlDevice_t h, int counter)
{
    unsigned int v = 0;
    return fn && fn(h, counter, &v) == OK ? (int64_t)v : CP_UNKNOWN;
}

/* One GPU: the liveness call first, so a lost GPU costs one call. */
static void sample_one(cp_tele_child *c, int i, cp_buf *b)
{
    const cp_nvml_api *a = &c->api;
    nvmlDevice_t h = c->h[i];
    char key[48];
    nvmlReturn_t rc = OK;
    cp_nvml_sample s;
    cp_nvml_sample_init(&s);

    if (a->nvmlDeviceGetClockInfo) {
        s.clock_sm_mhz = clock_of(a, a->nvmlDeviceGetClockInfo, h, CP_NVML_CLOCK_SM, &rc);
    } else if (a->nvmlDeviceGetMemoryInfo) {
        nvmlMemory_t mem;   /* an older driver: the first call of the rows, once more */
        rc = a->nvmlDeviceGetMemoryInfo(h, &mem);
    }
    if (rc == CP_NVML_ERROR_GPU_IS_LOST) {
        c->lost[i] = 1;
        c->lost_result[i] = rc;
        return;
    }
    cp_nvml_fill_sample(a, h, &s);
    s.clock_mem_mhz = clock_of(a, a->nvmlDeviceGetClockInfo, h, CP_NVML_CLOCK_MEM, NULL);
    nvmlMemory_v2_t m2;
    memset(&m2, 0, sizeof m2);
    m2.version = (2u << 24) | (unsigned)sizeof m2;   /* nvmlMemory_v2 */
    if (a->nvmlDeviceGetMemoryInfo_v2 && a->nvmlDeviceGetMemoryInfo_v2(h, &m2) == OK &&
        m2.reserved <= (unsigned long long)INT64_MAX)
        s.mem_reserved_bytes = (int64_t)m2.reserved;
    unsigned long long mj = 0;
    if (a->nvmlDeviceGetTotalEnergyConsumption &&
        a->nvmlDeviceGetTotalEnergyConsumption(h, &mj) == OK && mj <= (unsigned long long)INT64_MAX)
        s.energy_mj = (int64_t)mj;
    s.pcie_tx_kbs = pcie(a->nvmlDeviceGetPcieThroughput, h, CP_NVML_PCIE_UTIL_TX_BYTES);
    s.pcie_rx_kbs = pcie(a->nvmlDeviceGetPcieThroughput, h, CP_NVML_PCIE_UTIL_RX_BYTES);
    if (c->gpm[i])
        sample_gpm(c, i, &s);
    sample_proc_util(c, i, &s);
    sample_util(c, i, &s);
    cp_facts_put_nvml_sample(b, i, &s);
    snprintf(key, sizeof key, "tele.dev.%d.state", i);
    cp_kv_put_str(b, key, "ok");
}

static int index_of(const cp_tele_child *c, nvmlDevice_t h)
{
    for (int i = 0; i < c->n; i++)
        if (!c->skip[i] && c->h[i] == h)
            return i;
    return -1;
}

/* Read what the event set holds now, at most CP_TELE_EVENTS_PER_TICK. */
static void read_events(cp_tele_child *c, cp_buf *b)
{
    if (!c->set)
        return;
    char key[48];
    for (int k = 0; k < CP_TELE_EVENTS_PER_TICK; k++) {
        nvmlEventData_t ev;
        memset(&ev, 0, sizeof ev);
        if (c->api.nvmlEventSetWait(c->set, &ev, 0) != OK)
            return;
        int i = index_of(c, ev.device);
        if (i < 0 || !(ev.eventType & CP_NVML_EVENT_TYPE_XID_CRITICAL_ERROR))
            continue;
        snprintf(key, sizeof key, "tele.dev.%d.xid", i);
        cp_kv_put_i64(b, key, ev.eventData <= 0xFFFFFFFFull ? (int64_t)ev.eventData : CP_UNKNOWN);
    }
    cp_kv_put_i64(b, "tele.xid_more", 1);
}

/* One tick; see tele_int.h. */
void cp_tele_child_tick(cp_tele_child *c, cp_buf *b, void (*flush)(void *arg), void *arg)
{
    char key[48];
    for (int i = 0; c->inited && i < c->n; i++) {
        if (c->skip[i])
            continue;
        if (!c->lost[i])
            sample_one(c, i, b);
        if (c->lost[i]) {
            snprintf(key, sizeof key, "tele.dev.%d.state", i);
            cp_kv_put_str(b, key, "lost");
            snprintf(key, sizeof key, "tele.dev.%d.result", i);
            cp_kv_put_i64(b, key, c->lost_result[i]);
        }
        snprintf(key, sizeof key, "tele.dev.%d.done", i);
        cp_kv_put_i64(b, key, 1);
        if (flush)
            flush(arg);
    }
    if (c->inited)
        read_events(c, b);
    cp_kv_put_i64(b, "tele.tick.end", 1);
    if (flush)
        flush(arg);
}

/* Release what start took; see tele_int.h. */
void cp_tele_child_end(cp_tele_child *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++)
        if (c->gpm[i]) {
            c->api.nvmlGpmSampleFree(c->gs[i][0]);
            c->api.nvmlGpmSampleFree(c->gs[i][1]);
        }
    if (c->set)
        c->api.nvmlEventSetFree(c->set);
    if (c->inited)
        c->api.nvmlShutdown();
    free(c);
}
