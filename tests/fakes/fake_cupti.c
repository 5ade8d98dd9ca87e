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
 *   FAKE_CUPTI_DROPPED=N      records it says it dropped
 *   FAKE_CUPTI_CB_BUSY=1      cuptiSubscribe fails (another tool holds the callback API)
 * The callback API: fake_cupti_call(cbid), which the test host calls as a
 * program calls the runtime, runs the subscriber's callback at the entry and
 * exit of runtime call cbid (1 cudaDeviceSynchronize, 2 cudaLaunchKernel),
 * with a driver call (cuCtxSynchronize) inside each synchronisation; the
 * n-th synchronisation gets correlation id 100000 + n and the n-th launch
 * 10 + n, the ids the steps' API records of those calls carry.
 * Records are produced at cuptiActivityFlushAll, in buffers the library hands
 * over, as the real one does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cupti.h>

static CUpti_CallbackFunc g_cb;
static void *g_cb_user;
static uint32_t g_syncs, g_launches;
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
    *s = r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED" : "CUPTI_ERROR_UNKNOWN";
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
    if (env("FAKE_CUPTI_CB_BUSY", 0)) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    g_cb = cb;
    g_cb_user = user;
    *sub = (CUpti_SubscriberHandle)&g_cb;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle sub, CUpti_CallbackDomain d)
{
    (void)enable;
    (void)d;
    return sub == (CUpti_SubscriberHandle)&g_cb ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

static void callback(CUpti_CallbackDomain d, uint32_t cbid, const char *name, uint32_t corr, CUpti_ApiCallbackSite site)
{
    CUpti_CallbackData data;
    memset(&data, 0, sizeof data);
    data.callbackSite = site;
    data.functionName = name;
    data.correlationId = corr;
    g_cb(g_cb_user, d, cbid, &data);
}

/* A runtime call of the program (the test host's); not part of libcupti. */
void fake_cupti_call(uint32_t cbid);
void fake_cupti_call(uint32_t cbid)
{
    if (!g_cb || (cbid != 1 && cbid != 2)) return;
    const char *name = cbid == 1 ? "cudaDeviceSynchronize" : "cudaLaunchKernel";
    uint32_t corr = cbid == 1 ? 100000 + g_syncs++ : 10 + g_launches++;
    callback(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, name, corr, CUPTI_API_ENTER);
    if (cbid == 1) {
        callback(CUPTI_CB_DOMAIN_DRIVER_API, 126, "cuCtxSynchronize", corr + 50000, CUPTI_API_ENTER);
        callback(CUPTI_CB_DOMAIN_DRIVER_API, 126, "cuCtxSynchronize", corr + 50000, CUPTI_API_EXIT);
    }
    callback(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, name, corr, CUPTI_API_EXIT);
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

static void api(out_buf *o, uint32_t cbid, uint64_t s, uint64_t e, uint32_t corr)
{
    CUpti_ActivityAPI *a = slot(o, sizeof *a);
    if (!a) return;
    a->kind = CUPTI_ACTIVITY_KIND_RUNTIME;
    a->cbid = cbid;
    a->start = s;
    a->end = e;
    a->threadId = 77;
    a->correlationId = corr;
}

CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t flag)
{
    (void)flag;
    if (!g_req || g_flushed++) return CUPTI_SUCCESS;
    out_buf o = { 0 };
    uint64_t t = 1000000000ull;
    long steps = env("FAKE_CUPTI_STEPS", 0), sync_ns = env("FAKE_CUPTI_SYNC_US", 0) * 1000,
         gap_ns = env("FAKE_CUPTI_GAP_US", 5) * 1000, kern_ns = env("FAKE_CUPTI_KERNEL_US", 100) * 1000;
    if (env("FAKE_CUPTI_PAGEABLE", 0)) {
        api(&o, 3, t, t + 1000000, 1);
        CUpti_ActivityMemcpy6 *m = slot(&o, sizeof *m);
        if (m) {
            m->kind = CUPTI_ACTIVITY_KIND_MEMCPY;
            m->copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
            m->srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
            m->dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
            m->bytes = 4u << 20;
            m->start = t;
            m->end = t + 1000000;
        }
        t += 1000000;
    }
    for (long i = 0; i < steps; i++) {
        api(&o, 2, t, t + 2000, (uint32_t)i + 10);
        CUpti_ActivityKernel10 *k = slot(&o, sizeof *k);
        if (k) {
            k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
            k->start = t;
            k->end = t + (uint64_t)kern_ns;
            k->streamId = 7;
            k->correlationId = (uint32_t)i + 10;
            k->name = "step_kernel";
            k->gridX = 128;
            k->blockX = 256;
        }
        t += (uint64_t)kern_ns;
        if (sync_ns) {
            api(&o, 1, t, t + (uint64_t)sync_ns, 100000 + (uint32_t)i);
            t += (uint64_t)sync_ns;
        }
        t += (uint64_t)gap_ns;
    }
    if (o.buf) g_done(NULL, 0, o.buf, o.size, o.used);
    return CUPTI_SUCCESS;
}
