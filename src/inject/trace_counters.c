/*
 * `cuprobe trace --counters`: hardware counters through CUPTI's PM sampling
 * (cupti_pmsampling.h; the config image and the metric values through the
 * profiler host API, cupti_host.h), so the analysis can say whether each
 * heavy kernel is compute-bound, memory-bound or neither.  As each GPU's
 * first context is made (a resource callback), PM sampling starts on that
 * device with two figures: SM throughput and DRAM throughput, each as a share
 * of peak, sampled every CUPROBE_TRACE_COUNTERS_US microseconds (default
 * 100; the analysis reports the samples' own mean length); a thread
 * decodes the hardware buffer every 100 ms and writes each sample as a
 * SAMPLE record (its interval on PM sampling's clock, which the COUNTERS
 * record ties to CUPTI's).  Sampling ends as the device's last context is
 * about to be destroyed (cudaDeviceReset, cuCtxDestroy), or at exit, which
 * decodes the rest.
 * Whatever fails (a libcupti without the API, a GPU without PM sampling, no
 * permission to profile, another profiler) is one line on stderr and a
 * COUNTERS record with the reason: the trace goes on without counters.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include "cupti_host.h"
#include "trace_inject.h"
#include "cuprobe/trace.h"

#define MAX_DEVICES 16
#define HW_BUFFER (256u << 20)       /* PM sampling's hardware buffer per device */
#define MAX_SAMPLES 4096u            /* samples one decode can hold */
#define DECODE_PERIOD_MS 100u
#define DEFAULT_INTERVAL_US 100u

/* The metrics for SM and for DRAM throughput, and the sets of one of each
 * tried in turn (best first): the first set the chip knows and PM sampling
 * takes is used.  PM sampling takes single-pass sets alone (SetConfig says
 * CUPTI_ERROR_NOT_SUPPORTED otherwise), and on GH100 the composite
 * sm__throughput and dram__throughput need several passes: the later sets are
 * the raw counters ncu's own PM sampling section reads.  The dramc__read
 * choice is summed with dramc__write. */
static const char *const sm_names[] = {
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__inst_executed_realtime.avg.pct_of_peak_sustained_elapsed",
};
static const char *const dram_names[] = {
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
    "dramc__read_throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__bytes.avg.pct_of_peak_sustained_elapsed",
};
#define DRAMC_READ 2                 /* summed with dram_write */
static const char *const dram_write = "dramc__write_throughput.avg.pct_of_peak_sustained_elapsed";
#define N_SM (sizeof sm_names / sizeof sm_names[0])
#define N_DRAM (sizeof dram_names / sizeof dram_names[0])
static const struct { uint8_t sm, dram; } sets[] = { { 0, 0 }, { 1, 1 }, { 1, DRAMC_READ }, { 1, 3 } };
#define N_SETS (sizeof sets / sizeof sets[0])
/* string ids: the metric names first (SM, DRAM, the write one), then reasons */
#define STR_SM(i) (CP_TRACE_COUNTER_STRINGS + (uint32_t)(i))
#define STR_DRAM(i) (CP_TRACE_COUNTER_STRINGS + (uint32_t)N_SM + (uint32_t)(i))
#define STR_WRITE (CP_TRACE_COUNTER_STRINGS + (uint32_t)(N_SM + N_DRAM))
#define STR_REASONS (CP_TRACE_COUNTER_STRINGS + 8u)
_Static_assert(N_SM + N_DRAM + 1 <= 8, "the metric names' string ids run into the reasons'");

static struct {
    CUptiResult (*GetResultString)(CUptiResult, const char **);
    CUptiResult (*GetTimestamp)(uint64_t *);
    CUptiResult (*EnableCallback)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId);
    CUptiResult (*GetDeviceId)(CUcontext, uint32_t *);
    CUptiResult (*ProfilerInitialize)(CUpti_Profiler_Initialize_Params *);
    CUptiResult (*DeviceGetChipName)(CUpti_Device_GetChipName_Params *);
    CUptiResult (*GetCounterAvailability)(CUpti_PmSampling_GetCounterAvailability_Params *);
    CUptiResult (*Enable)(CUpti_PmSampling_Enable_Params *);
    CUptiResult (*Disable)(CUpti_PmSampling_Disable_Params *);
    CUptiResult (*SetConfig)(CUpti_PmSampling_SetConfig_Params *);
    CUptiResult (*Start)(CUpti_PmSampling_Start_Params *);
    CUptiResult (*Stop)(CUpti_PmSampling_Stop_Params *);
    CUptiResult (*GetCounterDataSize)(CUpti_PmSampling_GetCounterDataSize_Params *);
    CUptiResult (*CounterDataImageInitialize)(CUpti_PmSampling_CounterDataImage_Initialize_Params *);
    CUptiResult (*DecodeData)(CUpti_PmSampling_DecodeData_Params *);
    CUptiResult (*GetCounterDataInfo)(CUpti_PmSampling_GetCounterDataInfo_Params *);
    CUptiResult (*GetSampleInfo)(CUpti_PmSampling_CounterData_GetSampleInfo_Params *);
    CUptiResult (*HostInitialize)(cp_host_init_params *);
    CUptiResult (*HostDeinitialize)(cp_host_deinit_params *);
    CUptiResult (*HostGetMetricProperties)(cp_host_props_params *);
    CUptiResult (*HostConfigAddMetrics)(cp_host_add_params *);
    CUptiResult (*HostGetConfigImageSize)(cp_host_config_size_params *);
    CUptiResult (*HostGetConfigImage)(cp_host_config_params *);
    CUptiResult (*HostEvaluateToGpuValues)(cp_host_eval_params *);
    CUptiResult (*HostGetNumOfPasses)(cp_host_passes_params *);     /* optional */
} pm;

typedef struct {
    int on;                          /* sampling */
    uint32_t device;
    CUpti_PmSampling_Object *obj;
    cp_host_object *host;
    uint8_t *config, *avail, *data;
    size_t ndata;
    const char *metrics[3];
    size_t nmetrics;                 /* 2, or 3 with the DRAM write metric */
} pmdev;

static struct {
    pthread_mutex_t lock;            /* the devices, the decoder's stop */
    pthread_cond_t wake;
    pmdev dev[MAX_DEVICES];
    int tried[MAX_DEVICES];
    int contexts[MAX_DEVICES];       /* live contexts per device */
    int started, thread, stop, overflow_said, profiler, exit_hook;
    uint32_t next_reason;
    uint64_t interval_ns;
    pid_t pid;
    pthread_t decoder;
    CUpti_SubscriberHandle sub;
} cs = { .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .next_reason = STR_REASONS };

static const char *err_name(CUptiResult r)
{
    const char *s = NULL;
    if (pm.GetResultString && pm.GetResultString(r, &s) == CUPTI_SUCCESS && s) return s;
    return "CUPTI error";
}

static cp_ctr_status status_of(CUptiResult r)
{
    switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES: return CP_CTR_PRIVILEGES;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_INVALID_CHIP_NAME: return CP_CTR_UNSUPPORTED;
    case CUPTI_ERROR_HARDWARE_BUSY:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED: return CP_CTR_BUSY;
    default: return CP_CTR_FAILED;
    }
}

static const char *status_words(cp_ctr_status s)
{
    switch (s) {
    case CP_CTR_UNSUPPORTED: return "this GPU or driver has no PM sampling";
    case CP_CTR_PRIVILEGES:
        return "no permission to read GPU counters (the driver's NVreg_RestrictProfilingToAdminUsers=1: run as "
               "root, or set it to 0)";
    case CP_CTR_BUSY: return "another profiler holds the GPU's counters";
    case CP_CTR_NO_API: return "this libcupti lacks the PM sampling API (CUDA 12.6 or later has it)";
    default: return "CUPTI failed";
    }
}

/* The encoded string of a counter-library id, and its record. */
static void put_string(uint32_t id, const char *s)
{
    unsigned char b[16 + CP_TRACE_MAX_STRING + 8];
    size_t n = cp_trace_encode_string(b, sizeof b, id, s, strnlen(s, CP_TRACE_MAX_STRING));
    if (n && n <= sizeof b) cp_inject_write(b, n);
}

/* Records gathered by a drain, written as one chunk (lock held). */
static struct {
    unsigned char *b;
    size_t n, cap;
} batch;

static void batch_rec(const cp_trace_rec *r)
{
    if (batch.cap - batch.n < CP_TRACE_REC_HEAD + CP_TREC_SAMPLE_BODY) {
        size_t cap = batch.cap ? batch.cap * 2 : 64u << 10;
        unsigned char *p = realloc(batch.b, cap);
        if (!p) return;                             /* out of memory: this sample is lost */
        batch.b = p;
        batch.cap = cap;
    }
    batch.n += cp_trace_encode_rec(batch.b + batch.n, batch.cap - batch.n, r);
}

static void batch_flush(void)
{
    if (batch.n) cp_inject_write(batch.b, batch.n);
    batch.n = 0;
}

static void put_rec(const cp_trace_rec *r)
{
    unsigned char b[CP_TRACE_REC_HEAD + CP_TREC_COUNTERS_BODY];
    size_t n = cp_trace_encode_rec(b, sizeof b, r);
    if (n && n <= sizeof b) cp_inject_write(b, n);
}

static int64_t clock_ns(clockid_t c)
{
    struct timespec t;
    if (clock_gettime(c, &t) != 0) return 0;
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The COUNTERS record of a device (CP_CTR_ALL_DEVICES before any): its
 * status, the metrics, why (a failure: also said on stderr), and the clocks. */
static void config_record(uint32_t device, cp_ctr_status st, const pmdev *d, const char *call, CUptiResult r,
                          const char *tries)
{
    cp_trace_rec c;
    memset(&c, 0, sizeof c);
    c.type = CP_TREC_COUNTERS;
    c.device = device;
    c.ctr_status = (uint32_t)st;
    c.bytes = cs.interval_ns;
    uint64_t now = 0;
    if (pm.GetTimestamp && pm.GetTimestamp(&now) == CUPTI_SUCCESS && now <= (uint64_t)CP_TRACE_MAX_TIME) {
        c.start = c.end = (int64_t)now;
        c.clk_real = clock_ns(CLOCK_REALTIME);
        c.clk_mono = clock_ns(CLOCK_MONOTONIC);
    }
    if (st == CP_CTR_OK && d) {
        for (size_t i = 0; i < d->nmetrics; i++) {
            uint32_t id = 0;
            for (size_t k = 0; k < N_SM; k++) if (d->metrics[i] == sm_names[k]) id = STR_SM(k);
            for (size_t k = 0; k < N_DRAM; k++) if (d->metrics[i] == dram_names[k]) id = STR_DRAM(k);
            if (d->metrics[i] == dram_write) id = STR_WRITE;
            if (id) put_string(id, d->metrics[i]);
            c.ctr_metric[i] = id;
        }
    } else if (st != CP_CTR_OK) {
        char why[512];
        if (tries) snprintf(why, sizeof why, "%s; %s", status_words(st), tries);
        else if (call) snprintf(why, sizeof why, "%s; %s said %s", status_words(st), call, err_name(r));
        else snprintf(why, sizeof why, "%s", status_words(st));
        if (cs.next_reason <= CP_TRACE_MAX_STRING_ID) {
            c.name = cs.next_reason++;
            put_string(c.name, why);
        }
        cp_inject_say("no hardware counters; tracing goes on without them", why);
    }
    put_rec(&c);
}

#define CALL(fn, p, what)                                  \
    do {                                                   \
        CUptiResult r_ = pm.fn(p);                         \
        if (r_ != CUPTI_SUCCESS) { call = what; res = r_; goto fail; } \
    } while (0)

/* Whether the chip knows the metric. */
static int known(cp_host_object *host, const char *name)
{
    cp_host_props_params p = { .structSize = CP_HOST_PROPS_SIZE, .pHostObject = host, .pMetricName = name };
    return pm.HostGetMetricProperties(&p) == CUPTI_SUCCESS;
}

/* A metric's name up to its first dot, for the reason text. */
static int short_name(char *out, size_t n, const char *metric)
{
    const char *dot = strchr(metric, '.');
    return snprintf(out, n, "%.*s", dot ? (int)(dot - metric) : (int)strlen(metric), metric);
}

static void free_dev(pmdev *d)
{
    if (d->host) {
        cp_host_deinit_params p = { .structSize = CP_HOST_DEINIT_SIZE, .pHostObject = d->host };
        pm.HostDeinitialize(&p);
    }
    free(d->config);
    free(d->avail);
    free(d->data);
    memset(d, 0, sizeof *d);
}

/* Set up and start PM sampling on one device (lock held). */
static void start_device(uint32_t device)
{
    pmdev *d = &cs.dev[device];
    const char *call = NULL;
    CUptiResult res = CUPTI_SUCCESS;
    memset(d, 0, sizeof *d);
    d->device = device;
    CUpti_Device_GetChipName_Params chip = { .structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE,
                                             .deviceIndex = device };
    CALL(DeviceGetChipName, &chip, "cuptiDeviceGetChipName");
    CUpti_PmSampling_GetCounterAvailability_Params av = {
        .structSize = CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE, .deviceIndex = device };
    CALL(GetCounterAvailability, &av, "cuptiPmSamplingGetCounterAvailability");
    if (!(d->avail = calloc(1, av.counterAvailabilityImageSize + 1))) goto oom;
    av.pCounterAvailabilityImage = d->avail;
    CALL(GetCounterAvailability, &av, "cuptiPmSamplingGetCounterAvailability");
    cp_host_init_params hi = { .structSize = CP_HOST_INIT_SIZE, .profilerType = CP_CUPTI_PROFILER_TYPE_PM_SAMPLING,
                               .pChipName = chip.pChipName, .pCounterAvailabilityImage = d->avail };
    CALL(HostInitialize, &hi, "cuptiProfilerHostInitialize");
    d->host = hi.pHostObject;
    char tries[400] = "";
    size_t nt = 0, tried = 0;
    for (size_t k = 0; k < N_SETS && !d->on; k++) {
        const char *m[3] = { sm_names[sets[k].sm], dram_names[sets[k].dram], dram_write };
        size_t nm = sets[k].dram == DRAMC_READ ? 3 : 2;
        int ok = 1;
        for (size_t i = 0; i < nm; i++) ok = ok && known(d->host, m[i]);
        if (!ok) continue;
        if (tried++) {                          /* a fresh host object: its metrics add up */
            cp_host_deinit_params hd = { .structSize = CP_HOST_DEINIT_SIZE, .pHostObject = d->host };
            pm.HostDeinitialize(&hd);
            d->host = NULL;
            hi.pHostObject = NULL;
            CALL(HostInitialize, &hi, "cuptiProfilerHostInitialize");
            d->host = hi.pHostObject;
        }
        memcpy(d->metrics, m, sizeof m);
        d->nmetrics = nm;
        cp_host_add_params add = { .structSize = CP_HOST_ADD_SIZE, .pHostObject = d->host,
                                   .ppMetricNames = d->metrics, .numMetrics = d->nmetrics };
        CALL(HostConfigAddMetrics, &add, "cuptiProfilerHostConfigAddMetrics");
        cp_host_config_size_params cz = { .structSize = CP_HOST_CONFIG_SIZE_SIZE, .pHostObject = d->host };
        CALL(HostGetConfigImageSize, &cz, "cuptiProfilerHostGetConfigImageSize");
        free(d->config);
        if (!(d->config = calloc(1, cz.configImageSize + 1))) goto oom;
        cp_host_config_params ci = { .structSize = CP_HOST_CONFIG_SIZE, .pHostObject = d->host,
                                     .configImageSize = cz.configImageSize, .pConfigImage = d->config };
        CALL(HostGetConfigImage, &ci, "cuptiProfilerHostGetConfigImage");
        if (!d->obj) {
            CUpti_PmSampling_Enable_Params en = { .structSize = CUpti_PmSampling_Enable_Params_STRUCT_SIZE,
                                                  .deviceIndex = device };
            CALL(Enable, &en, "cuptiPmSamplingEnable");
            d->obj = en.pPmSamplingObject;
        }
        CUpti_PmSampling_SetConfig_Params sc = {
            .structSize = CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE, .pPmSamplingObject = d->obj,
            .configSize = cz.configImageSize, .pConfig = d->config, .hardwareBufferSize = HW_BUFFER,
            .samplingInterval = cs.interval_ns, .triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL,
            .hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST };
        CUptiResult r = pm.SetConfig(&sc);
        if (r != CUPTI_SUCCESS) {
            /* Turing and GA100 trigger on the SYS clock alone: its cycles, taken at about 1 GHz */
            sc.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_SYSCLK_INTERVAL;
            CUptiResult r2 = pm.SetConfig(&sc);
            r = r2 == CUPTI_SUCCESS || r != CUPTI_ERROR_NOT_SUPPORTED ? r2 : r;   /* a refusal of either: the set's */
        }
        if (r == CUPTI_SUCCESS) {
            d->on = 1;
            break;
        }
        if (r != CUPTI_ERROR_NOT_SUPPORTED) {
            call = "cuptiPmSamplingSetConfig";
            res = r;
            goto fail;
        }
        /* refused (several passes, most likely): say so, try the next set */
        char a[64], b[64];
        short_name(a, sizeof a, m[0]);
        short_name(b, sizeof b, m[1]);
        cp_host_passes_params np = { .structSize = CP_HOST_PASSES_SIZE, .configImageSize = cz.configImageSize,
                                     .pConfigImage = d->config };
        char passes[32] = "";
        if (pm.HostGetNumOfPasses && pm.HostGetNumOfPasses(&np) == CUPTI_SUCCESS && np.numOfPasses > 1)
            snprintf(passes, sizeof passes, ", %zu passes", np.numOfPasses);
        int w = snprintf(tries + nt, sizeof tries - nt, "%scuptiPmSamplingSetConfig said %s for %s+%s%s%s",
                         nt ? "; " : "", err_name(r), a, b, nm == 3 ? "+write" : "", passes);
        if (w > 0) nt = nt + (size_t)w < sizeof tries ? nt + (size_t)w : sizeof tries - 1;
        res = r;
    }
    if (!tried) {
        config_record(device, CP_CTR_UNSUPPORTED, NULL, "cuptiProfilerHostGetMetricProperties",
                      CUPTI_ERROR_INVALID_METRIC_NAME, NULL);
        free_dev(d);
        return;
    }
    if (!d->on) {
        config_record(device, status_of(res), NULL, NULL, res, tries);
        goto disable;
    }
    d->on = 0;
    CUpti_PmSampling_GetCounterDataSize_Params ds = {
        .structSize = CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE, .pPmSamplingObject = d->obj,
        .pMetricNames = d->metrics, .numMetrics = d->nmetrics, .maxSamples = MAX_SAMPLES };
    CALL(GetCounterDataSize, &ds, "cuptiPmSamplingGetCounterDataSize");
    if (!(d->data = calloc(1, ds.counterDataSize + 1))) goto oom;
    d->ndata = ds.counterDataSize;
    CUpti_PmSampling_CounterDataImage_Initialize_Params ii = {
        .structSize = CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE, .pPmSamplingObject = d->obj,
        .counterDataSize = d->ndata, .pCounterData = d->data };
    CALL(CounterDataImageInitialize, &ii, "cuptiPmSamplingCounterDataImageInitialize");
    CUpti_PmSampling_Start_Params sp = { .structSize = CUpti_PmSampling_Start_Params_STRUCT_SIZE, .pPmSamplingObject = d->obj };
    CALL(Start, &sp, "cuptiPmSamplingStart");
    d->on = 1;
    config_record(device, CP_CTR_OK, d, NULL, CUPTI_SUCCESS, NULL);
    return;
oom:
    call = "out of memory";
    res = CUPTI_ERROR_OUT_OF_MEMORY;
fail:
    config_record(device, status_of(res), NULL, call, res, NULL);
disable:
    if (d->obj) {
        CUpti_PmSampling_Disable_Params dp = { .structSize = CUpti_PmSampling_Disable_Params_STRUCT_SIZE,
                                               .pPmSamplingObject = d->obj };
        pm.Disable(&dp);
    }
    free_dev(d);
}

static int32_t cpct(double v)
{
    if (!(v >= 0.0) || v > 1e6) return CP_CTR_NO_VALUE;    /* NaN, negative, absurd */
    return (int32_t)(v * 100.0 + 0.5);
}

/* Decode what the hardware buffer holds into SAMPLE records (lock held). */
static void drain(pmdev *d)
{
    for (int round = 0; round < 1024; round++) {
        CUpti_PmSampling_DecodeData_Params dd = { .structSize = CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE,
                                                  .pPmSamplingObject = d->obj, .pCounterDataImage = d->data,
                                                  .counterDataImageSize = d->ndata };
        CUptiResult r = pm.DecodeData(&dd);
        if (r != CUPTI_SUCCESS) {
            if (!cs.overflow_said++) cp_inject_say("cannot decode PM samples; some are missing", err_name(r));
            return;
        }
        if (dd.overflow && !cs.overflow_said++)
            cp_inject_say("PM sampling's hardware buffer overflowed; some samples are missing", NULL);
        CUpti_PmSampling_GetCounterDataInfo_Params info = {
            .structSize = CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE, .pCounterDataImage = d->data,
            .counterDataImageSize = d->ndata };
        if (pm.GetCounterDataInfo(&info) != CUPTI_SUCCESS) return;
        for (size_t i = 0; i < info.numCompletedSamples; i++) {
            CUpti_PmSampling_CounterData_GetSampleInfo_Params si = {
                .structSize = CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE, .pPmSamplingObject = d->obj,
                .pCounterDataImage = d->data, .counterDataImageSize = d->ndata, .sampleIndex = i };
            double v[3] = { -1, -1, -1 };
            cp_host_eval_params ev = { .structSize = CP_HOST_EVAL_SIZE, .pHostObject = d->host,
                                       .pCounterDataImage = d->data, .counterDataImageSize = d->ndata,
                                       .rangeIndex = i, .ppMetricNames = d->metrics, .numMetrics = d->nmetrics,
                                       .pMetricValues = v };
            if (pm.GetSampleInfo(&si) != CUPTI_SUCCESS || pm.HostEvaluateToGpuValues(&ev) != CUPTI_SUCCESS) continue;
            if (si.startTimestamp > (uint64_t)CP_TRACE_MAX_TIME || si.endTimestamp > (uint64_t)CP_TRACE_MAX_TIME) continue;
            cp_trace_rec s;
            memset(&s, 0, sizeof s);
            s.type = CP_TREC_SAMPLE;
            s.start = (int64_t)si.startTimestamp;
            s.end = (int64_t)si.endTimestamp;
            s.device = d->device;
            s.sm_cpct = cpct(v[0]);
            s.dram_cpct = d->nmetrics == 3 && v[1] >= 0 && v[2] >= 0 ? cpct(v[1] + v[2]) : cpct(v[1]);
            batch_rec(&s);
        }
        batch_flush();
        CUpti_PmSampling_CounterDataImage_Initialize_Params ii = {
            .structSize = CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE, .pPmSamplingObject = d->obj,
            .counterDataSize = d->ndata, .pCounterData = d->data };
        if (pm.CounterDataImageInitialize(&ii) != CUPTI_SUCCESS) return;
        if (dd.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) return;
    }
}

/* Stop PM sampling on one device, decode its last samples and let it go
 * (lock held), while a context of the device still lives. */
static void stop_device(pmdev *d)
{
    if (!d->on) return;
    CUpti_PmSampling_Stop_Params sp = { .structSize = CUpti_PmSampling_Stop_Params_STRUCT_SIZE, .pPmSamplingObject = d->obj };
    CUptiResult r = pm.Stop(&sp);
    if (r != CUPTI_SUCCESS) cp_inject_say("cannot stop PM sampling; decoding what was sampled", err_name(r));
    drain(d);
    CUpti_PmSampling_Disable_Params dp = { .structSize = CUpti_PmSampling_Disable_Params_STRUCT_SIZE, .pPmSamplingObject = d->obj };
    pm.Disable(&dp);
    free_dev(d);
}

static void *decoder_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&cs.lock);
    while (!cs.stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += DECODE_PERIOD_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
        pthread_cond_timedwait(&cs.wake, &cs.lock, &until);
        if (cs.stop) break;
        for (int i = 0; i < MAX_DEVICES; i++)
            if (cs.dev[i].on) drain(&cs.dev[i]);
    }
    pthread_mutex_unlock(&cs.lock);
    return NULL;
}

/* At exit, before the profiler libraries' own destructors: see the callback. */
static void stop_at_exit(void) { cp_counters_stop(); }

/* See trace_inject.h. */
void cp_counters_callback(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const void *data)
{
    if (dom != CUPTI_CB_DOMAIN_RESOURCE || !data || !pm.GetDeviceId) return;
    if (cbid != CUPTI_CBID_RESOURCE_CONTEXT_CREATED && cbid != CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) return;
    const CUpti_ResourceData *rd = data;
    uint32_t device = 0;
    if (pm.GetDeviceId(rd->context, &device) != CUPTI_SUCCESS || device >= MAX_DEVICES) return;
    pthread_mutex_lock(&cs.lock);
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
        /* the device's last context: its sampling ends here (a later context does not restart it) */
        if (cs.contexts[device] > 0 && --cs.contexts[device] == 0 && cs.pid == getpid()) stop_device(&cs.dev[device]);
        pthread_mutex_unlock(&cs.lock);
        return;
    }
    cs.contexts[device]++;
    if (!cs.stop && !cs.tried[device] && cs.pid == getpid()) {
        cs.tried[device] = 1;
        CUptiResult r = CUPTI_SUCCESS;
        if (!cs.profiler) {                         /* once, with the first context there */
            CUpti_Profiler_Initialize_Params pi = { .structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE };
            r = pm.ProfilerInitialize(&pi);
            cs.profiler = r == CUPTI_SUCCESS;
        }
        if (cs.profiler) start_device(device);
        else config_record(device, status_of(r), NULL, "cuptiProfilerInitialize", r, NULL);
        /* libcupti loads libnvperf_host as the profiler starts, after the library's own atexit
         * (trace_inject.c) was registered, so its C++ destructors run before that one: a PM sampling
         * object disabled after them ends in glibc's "double free" (found on the H200, 2026-12-01).
         * This atexit, registered after the load, runs before them. */
        if (cs.dev[device].on && !cs.exit_hook) cs.exit_hook = atexit(stop_at_exit) == 0;
        if (cs.dev[device].on && !cs.thread) {
            sigset_t all, old;                      /* the decoder takes no signal of the program's */
            sigfillset(&all);
            pthread_sigmask(SIG_SETMASK, &all, &old);
            cs.thread = pthread_create(&cs.decoder, NULL, decoder_main, NULL) == 0;
            pthread_sigmask(SIG_SETMASK, &old, NULL);
            if (!cs.thread) cp_inject_say("cannot start the PM sampling decoder; samples are decoded at exit", NULL);
        }
    }
    pthread_mutex_unlock(&cs.lock);
}

/* See trace_inject.h. */
int cp_counters_start(void *h)
{
    const char *us = getenv("CUPROBE_TRACE_COUNTERS_US");
    long iv = us && *us ? strtol(us, NULL, 10) : DEFAULT_INTERVAL_US;
    cs.interval_ns = (uint64_t)(iv > 0 && iv <= 1000000 ? iv : DEFAULT_INTERVAL_US) * 1000u;
    cs.pid = getpid();
#define SYM(m, n) (*(void **)&pm.m = dlsym(h, n))
    SYM(GetResultString, "cuptiGetResultString");
    SYM(GetTimestamp, "cuptiGetTimestamp");
    if (!dlsym(h, "cuptiSubscribe") || !SYM(EnableCallback, "cuptiEnableCallback") ||
        !SYM(GetDeviceId, "cuptiGetDeviceId") || !SYM(ProfilerInitialize, "cuptiProfilerInitialize") ||
        !SYM(DeviceGetChipName, "cuptiDeviceGetChipName") ||
        !SYM(GetCounterAvailability, "cuptiPmSamplingGetCounterAvailability") ||
        !SYM(Enable, "cuptiPmSamplingEnable") || !SYM(Disable, "cuptiPmSamplingDisable") ||
        !SYM(SetConfig, "cuptiPmSamplingSetConfig") || !SYM(Start, "cuptiPmSamplingStart") ||
        !SYM(Stop, "cuptiPmSamplingStop") || !SYM(GetCounterDataSize, "cuptiPmSamplingGetCounterDataSize") ||
        !SYM(CounterDataImageInitialize, "cuptiPmSamplingCounterDataImageInitialize") ||
        !SYM(DecodeData, "cuptiPmSamplingDecodeData") || !SYM(GetCounterDataInfo, "cuptiPmSamplingGetCounterDataInfo") ||
        !SYM(GetSampleInfo, "cuptiPmSamplingCounterDataGetSampleInfo") ||
        !SYM(HostInitialize, "cuptiProfilerHostInitialize") || !SYM(HostDeinitialize, "cuptiProfilerHostDeinitialize") ||
        !SYM(HostGetMetricProperties, "cuptiProfilerHostGetMetricProperties") ||
        !SYM(HostConfigAddMetrics, "cuptiProfilerHostConfigAddMetrics") ||
        !SYM(HostGetConfigImageSize, "cuptiProfilerHostGetConfigImageSize") ||
        !SYM(HostGetConfigImage, "cuptiProfilerHostGetConfigImage") ||
        !SYM(HostEvaluateToGpuValues, "cuptiProfilerHostEvaluateToGpuValues")) {
        config_record(CP_CTR_ALL_DEVICES, CP_CTR_NO_API, NULL, NULL, CUPTI_SUCCESS, NULL);
        return 0;
    }
    SYM(HostGetNumOfPasses, "cuptiProfilerHostGetNumOfPasses");
#undef SYM
    CUptiResult r = cp_inject_subscriber(h, &cs.sub);  /* the library's one subscriber: cp_counters_callback */
    if (r == CUPTI_SUCCESS) r = pm.EnableCallback(1, cs.sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    if (r == CUPTI_SUCCESS)
        r = pm.EnableCallback(1, cs.sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    if (r != CUPTI_SUCCESS) {
        config_record(CP_CTR_ALL_DEVICES, status_of(r), NULL, "cuptiSubscribe", r, NULL);
        return 0;
    }
    cs.started = 1;
    return 1;
}

/* See trace_inject.h. */
void cp_counters_stop(void)
{
    if (!cs.started || cs.pid != getpid()) return;
    pthread_mutex_lock(&cs.lock);
    cs.stop = 1;
    pthread_cond_signal(&cs.wake);
    pthread_mutex_unlock(&cs.lock);
    if (cs.thread) pthread_join(cs.decoder, NULL);
    cs.thread = 0;
    pthread_mutex_lock(&cs.lock);
    for (int i = 0; i < MAX_DEVICES; i++) stop_device(&cs.dev[i]);
    cs.started = 0;
    free(batch.b);
    batch.b = NULL;
    batch.cap = 0;
    pthread_mutex_unlock(&cs.lock);
}
