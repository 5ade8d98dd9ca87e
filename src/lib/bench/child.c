/*
 * The probe child of cuprobe bench: every measurement on the GPU.
 *
 * Per device: copies between host and device (pinned and pageable, copy
 * engine and SM kernel over mapped pinned memory, each way and both at
 * once), device-local copies, HBM read and write of our own kernels,
 * launch latency, and the GEMM rates (gemm.c); then the peer copies of
 * every pair of devices.  Each rate is the median of event-timed repeats
 * after a warm-up (bench.h counts the bytes).  Buffers are allocated the
 * first time a row needs them, so an allocation that fails fails that row.
 * A driver failure other than out-of-memory may have lost the context: the
 * device's later rows are not run and say why.
 */
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench/bench_int.h"
#include "dl/cuda_api.h"
#include "dl/libs_api.h"
#include "facts/kv.h"
#include "kernels/kernels.h"
#include "util/alloc.h"
#include "util/str.h"

enum {
    BLOCK = 256,
    BLOCKS_PER_SM = 8,        /* 2048 threads per SM in flight */
    LAUNCHES = 500,           /* back-to-back launches per repeat (launch.plain) */
    ROUNDTRIPS = 100,         /* launch + synchronize per repeat (launch.roundtrip) */
    GRAPH_KERNELS = 100,      /* kernels per graph (launch.graph) */
    MAX_DEV = CP_MAX_GPUS
};

/* The buffers a row needs, allocated on first use. */
enum { B_DA = 1, B_DB = 2, B_HA = 4, B_HB = 8, B_PAGE = 16, B_SINK = 32 };

typedef struct {
    cp_probe_out *out;
    const cp_bench_job *job;
    int nrow;
} emitter;

typedef struct {
    cp_rt *rt;
    int ordinal;
    int sms;
    cp_rt_func f_copy, f_read, f_write;
    cp_rt_stream *s1, *s2;
    cp_rt_event *e[4];
    bool lost;
    char lost_why[120];
    bool host_oom;            /* the last -1 was our own malloc's, not the driver's */
    unsigned have;            /* B_* allocated */
    size_t bytes;             /* of each buffer */
    cp_rt_dptr d_a, d_b, d_sink;
    void *h_a, *h_b;
    cp_rt_dptr hd_a, hd_b;    /* the pinned buffers' device addresses */
    unsigned char *pageable;
} dev;

/* snprintf that may cut: the messages name paths and calls of any length. */
static void say(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(out, cap, fmt, ap);
    va_end(ap);
}

/* Why cp_dl_load gave no library: the symbol it lacks, named by `file`,
 * or dlopen's reason for the name asked for. */
static void load_failure(const cp_lib_load *rec, const char *file, char *out, size_t cap)
{
    if (rec->loaded) say(out, cap, "%s lacks %s", file, rec->missing_symbol);
    else say(out, cap, "%s could not be loaded: %s", rec->requested, rec->error);
}

/* ---- answers ---- */

static void put(emitter *em, int n, const char *field, const char *v)
{
    char key[48];
    snprintf(key, sizeof key, "bench.%d.%s", n, field);
    cp_kv_put_str(&em->out->buf, key, v);
}

static void put_i(emitter *em, int n, const char *field, int64_t v)
{
    char key[48];
    snprintf(key, sizeof key, "bench.%d.%s", n, field);
    cp_kv_put_i64(&em->out->buf, key, v);
}

/* A row about to be measured goes out first: a hang or crash leaves it
 * without a state, and the parent names it. */
static int announce(emitter *em, const char *id, int device, int peer, int64_t size)
{
    int n = em->nrow++;
    put(em, n, "id", id);
    put_i(em, n, "device", device);
    put_i(em, n, "peer", peer);
    put_i(em, n, "size", size);
    cp_probe_flush(em->out);
    return n;
}

static void put_double(emitter *em, int n, const char *field, double v)
{
    char s[40];
    if (isnan(v)) snprintf(s, sizeof s, "?");
    else snprintf(s, sizeof s, "%.9g", v);
    put(em, n, field, s);
}

static void finish(emitter *em, int n, const cp_bench_row *r)
{
    static const char *const states[] = { "ok", "skipped", "failed" };
    put_double(em, n, "value", r->value);
    put_double(em, n, "spread", r->spread);
    put_i(em, n, "repeats", r->repeats);
    put(em, n, "detail", r->detail);
    if (r->npoints > 0) {
        cp_buf b = { 0 };
        for (int i = 0; i < r->npoints; i++)
            cp_buf_printf(&b, "%s%lld:%.9g", i ? "," : "", (long long)r->point_size[i], r->point_value[i]);
        put(em, n, "points", b.data ? b.data : "");
        cp_buf_free(&b);
    }
    put(em, n, "state", states[r->state]);   /* last: a row with a state is whole */
    cp_probe_flush(em->out);
}

static void row_init(cp_bench_row *r)
{
    memset(r, 0, sizeof *r);
    r->value = r->spread = NAN;
    r->state = CP_BENCH_OK;
}

/* Make a failed call the row's failure; a failure other than out of memory
 * loses the device for its later rows. */
static void failed(dev *d, cp_bench_row *r)
{
    r->state = CP_BENCH_FAILED;
    if (d->host_oom) {
        d->host_oom = false;
        cp_str_copy(r->detail, sizeof r->detail, "malloc: out of host memory");
        return;
    }
    int result = cp_bench_rt_detail(d->rt, r->detail, sizeof r->detail);
    if (result != CP_CUDA_ERROR_OUT_OF_MEMORY && result != CP_RT_NO_HOST_MEMORY && !d->lost) {
        d->lost = true;
        cp_str_copy(d->lost_why, sizeof d->lost_why, r->detail);
    }
}

/* ---- buffers ---- */

static int ensure(dev *d, unsigned want)
{
    unsigned need = want & ~d->have;
    size_t n = d->bytes;
    if ((need & B_DA) && cp_rt_alloc(d->rt, n, &d->d_a)) return -1;
    d->have |= need & B_DA;
    if ((need & B_DB) && cp_rt_alloc(d->rt, n, &d->d_b)) return -1;
    d->have |= need & B_DB;
    if ((need & B_SINK) && (cp_rt_alloc(d->rt, 64, &d->d_sink) || cp_rt_memset32(d->rt, d->d_sink, 0, 16, NULL)))
        return -1;
    d->have |= need & B_SINK;
    if (need & B_HA) {
        if (cp_rt_host_alloc_mapped(d->rt, n, &d->h_a, &d->hd_a)) return -1;
        memset(d->h_a, 0x5a, n);
        d->have |= B_HA;
    }
    if (need & B_HB) {
        if (cp_rt_host_alloc_mapped(d->rt, n, &d->h_b, &d->hd_b)) return -1;
        memset(d->h_b, 0xa5, n);
        d->have |= B_HB;
    }
    if (need & B_PAGE) {
        d->pageable = cp_malloc(n);
        if (!d->pageable) {
            d->host_oom = true;
            return -1;
        }
        memset(d->pageable, 0x3c, n);
        d->have |= B_PAGE;
    }
    return 0;
}

static unsigned grid_for(const dev *d, uint64_t n)
{
    uint64_t g = (n + BLOCK - 1) / BLOCK, max = (uint64_t)(d->sms > 0 ? d->sms : 16) * BLOCKS_PER_SM;
    if (g > max) g = max;
    return g ? (unsigned)g : 1;
}

/* ---- what one repeat queues ---- */

typedef int (*enq_fn)(dev *d, size_t bytes);

/* cp_k_copy_u128 on s over `share` of the GPU's blocks (1: all of them;
 * 2: half, so two copies at once each get their own SMs instead of the
 * second waiting for the first's blocks to drain). */
static int kcopy_share(dev *d, cp_rt_dptr dst, cp_rt_dptr src, size_t bytes, cp_rt_stream *s, unsigned share)
{
    uint64_t n = bytes / 16;
    void *args[] = { &dst, &src, &n };
    unsigned g = grid_for(d, n) / share;
    return cp_rt_launch(d->rt, d->f_copy, g ? g : 1, BLOCK, 0, s, args);
}
static int kcopy(dev *d, cp_rt_dptr dst, cp_rt_dptr src, size_t bytes, cp_rt_stream *s)
{
    return kcopy_share(d, dst, src, bytes, s, 1);
}

static int q_h2d_ce(dev *d, size_t b) { return cp_rt_copy_htod(d->rt, d->d_a, d->h_a, b, d->s1); }
static int q_d2h_ce(dev *d, size_t b) { return cp_rt_copy_dtoh(d->rt, d->h_a, d->d_a, b, d->s1); }
static int q_bidir_ce(dev *d, size_t b)
{
    return cp_rt_copy_htod(d->rt, d->d_a, d->h_a, b, d->s1) || cp_rt_copy_dtoh(d->rt, d->h_b, d->d_b, b, d->s2);
}
static int q_h2d_page(dev *d, size_t b) { return cp_rt_copy_htod(d->rt, d->d_a, d->pageable, b, d->s1); }
static int q_d2h_page(dev *d, size_t b) { return cp_rt_copy_dtoh(d->rt, d->pageable, d->d_a, b, d->s1); }
static int q_h2d_sm(dev *d, size_t b) { return kcopy(d, d->d_a, d->hd_a, b, d->s1); }
static int q_d2h_sm(dev *d, size_t b) { return kcopy(d, d->hd_a, d->d_a, b, d->s1); }
static int q_bidir_sm(dev *d, size_t b)
{
    return kcopy_share(d, d->d_a, d->hd_a, b, d->s1, 2) || kcopy_share(d, d->hd_b, d->d_b, b, d->s2, 2);
}
static int q_d2d_ce(dev *d, size_t b) { return cp_rt_copy_dtod(d->rt, d->d_b, d->d_a, b, d->s1); }
static int q_d2d_sm(dev *d, size_t b) { return kcopy(d, d->d_b, d->d_a, b, d->s1); }
static int q_read(dev *d, size_t b)
{
    uint64_t n = b / 16;
    void *args[] = { &d->d_a, &n, &d->d_sink };
    return cp_rt_launch(d->rt, d->f_read, grid_for(d, n), BLOCK, 0, d->s1, args);
}
static int q_write(dev *d, size_t b)
{
    uint64_t n = b / 16;
    uint32_t v = 0x3c3c3c3cu;
    void *args[] = { &d->d_a, &n, &v };
    return cp_rt_launch(d->rt, d->f_write, grid_for(d, n), BLOCK, 0, d->s1, args);
}

/* The peer copies: queued on the measuring device's stream. */
typedef struct { dev *self, *peer; bool write; } peer_arg;
static peer_arg g_peer;       /* the pair being measured (the child has one thread) */
static int q_peer(dev *d, size_t b)
{
    const peer_arg *p = &g_peer;
    if (p->write) return cp_rt_copy_peer(d->rt, p->peer->d_b, p->peer->rt, d->d_a, d->rt, b, d->s1);
    return cp_rt_copy_peer(d->rt, d->d_a, d->rt, p->peer->d_b, p->peer->rt, b, d->s1);
}

/* GB/s of `factor` x bytes per repeat: median of iters event-timed repeats
 * after one warm-up.  Both streams get a start and an end event; the time
 * is from the first start to the later end.  Returns 0 or -1. */
static int timed_rate(dev *d, enq_fn q, size_t bytes, double factor, int iters, double *gbs, double *spread)
{
    double *ms = cp_calloc((size_t)iters, sizeof *ms);
    if (!ms) {
        d->host_oom = true;
        return -1;
    }
    int rc = -1;
    if (q(d, bytes) || cp_rt_stream_sync(d->rt, d->s1) || cp_rt_stream_sync(d->rt, d->s2)) goto out;
    for (int r = 0; r < iters; r++) {
        float a = 0, b = 0;
        if (cp_rt_event_record(d->rt, d->e[0], d->s1) || cp_rt_event_record(d->rt, d->e[2], d->s2) || q(d, bytes) ||
            cp_rt_event_record(d->rt, d->e[1], d->s1) || cp_rt_event_record(d->rt, d->e[3], d->s2) ||
            cp_rt_event_sync(d->rt, d->e[1]) || cp_rt_event_sync(d->rt, d->e[3]) ||
            cp_rt_event_elapsed_ms(d->rt, d->e[0], d->e[1], &a) || cp_rt_event_elapsed_ms(d->rt, d->e[0], d->e[3], &b))
            goto out;
        ms[r] = a > b ? a : b;
    }
    /* a fault of the work shows at a synchronize */
    if (cp_rt_stream_sync(d->rt, d->s1) || cp_rt_stream_sync(d->rt, d->s2)) goto out;
    double med = cp_bench_median(ms, iters, spread);
    *gbs = med > 0 ? factor * (double)bytes / (med * 1e-3) / 1e9 : NAN;
    rc = 0;
out:
    free(ms);
    return rc;
}

/* ---- rows ---- */

/* One rate row: announce, measure at size (and at each sweep size), answer. */
static void rate_row(emitter *em, dev *d, const char *id, int peer, unsigned bufs, enq_fn q, double factor,
                     const char *note)
{
    const cp_bench_job *job = em->job;
    if (!cp_bench_selected(job->only, id)) return;
    cp_bench_row r;
    row_init(&r);
    int n = announce(em, id, d->ordinal, peer, job->size);
    if (d->lost) {
        r.state = CP_BENCH_SKIPPED;
        say(r.detail, sizeof r.detail, "not run: an earlier measurement on this GPU failed (%s)", d->lost_why);
    } else if (ensure(d, bufs) != 0 || timed_rate(d, q, (size_t)job->size, factor, job->iters, &r.value, &r.spread)) {
        failed(d, &r);
    } else {
        r.repeats = job->iters;
        if (note) cp_str_copy(r.detail, sizeof r.detail, note);
        for (int64_t sz = CP_BENCH_MIN_SIZE; job->sweep && sz <= job->size && r.npoints < CP_BENCH_MAX_POINTS;
             sz = sz * 4 > job->size && sz < job->size ? job->size : sz * 4) {
            double v, sp;
            if (timed_rate(d, q, (size_t)sz, factor, job->iters, &v, &sp) != 0) {
                failed(d, &r);
                break;
            }
            r.point_size[r.npoints] = sz;
            r.point_value[r.npoints++] = v;
        }
    }
    finish(em, n, &r);
}

/* Microseconds per launch of an empty kernel (cp_k_write_u128 of 0 words):
 * kind 0 host cost of back-to-back launches, 1 launch-to-completion round
 * trip, 2 per kernel of a graph of GRAPH_KERNELS. */
static int launch_us(dev *d, int kind, int iters, double *us, double *spread)
{
    uint64_t zero = 0;
    uint32_t v = 0;
    void *args[] = { &d->d_sink, &zero, &v };
    double *t = cp_calloc((size_t)iters, sizeof *t);
    cp_rt_graph *g = NULL;
    int rc = -1;
    if (!t) {
        d->host_oom = true;
        return -1;
    }
    for (int i = 0; i < 10; i++)   /* warm-up */
        if (cp_rt_launch(d->rt, d->f_write, 1, 32, 0, d->s1, args)) goto out;
    if (cp_rt_stream_sync(d->rt, d->s1)) goto out;
    if (kind == 2) {
        if (cp_rt_capture_begin(d->rt, d->s1)) goto out;
        for (int i = 0; i < GRAPH_KERNELS; i++)
            if (cp_rt_launch(d->rt, d->f_write, 1, 32, 0, d->s1, args)) {
                (void)cp_rt_capture_end(d->rt, d->s1, &g);   /* the stream is usable again */
                goto out;
            }
        if (cp_rt_capture_end(d->rt, d->s1, &g) || cp_rt_graph_launch(d->rt, g, d->s1) ||
            cp_rt_stream_sync(d->rt, d->s1))
            goto out;
    }
    for (int r = 0; r < iters; r++) {
        double t0 = cp_now_ms();
        if (kind == 0) {
            for (int i = 0; i < LAUNCHES; i++)
                if (cp_rt_launch(d->rt, d->f_write, 1, 32, 0, d->s1, args)) goto out;
            t[r] = (cp_now_ms() - t0) * 1000.0 / LAUNCHES;
            if (cp_rt_stream_sync(d->rt, d->s1)) goto out;
        } else if (kind == 1) {
            for (int i = 0; i < ROUNDTRIPS; i++)
                if (cp_rt_launch(d->rt, d->f_write, 1, 32, 0, d->s1, args) || cp_rt_stream_sync(d->rt, d->s1))
                    goto out;
            t[r] = (cp_now_ms() - t0) * 1000.0 / ROUNDTRIPS;
        } else {
            float ms = 0;
            if (cp_rt_event_record(d->rt, d->e[0], d->s1) || cp_rt_graph_launch(d->rt, g, d->s1) ||
                cp_rt_event_record(d->rt, d->e[1], d->s1) || cp_rt_event_sync(d->rt, d->e[1]) ||
                cp_rt_event_elapsed_ms(d->rt, d->e[0], d->e[1], &ms))
                goto out;
            t[r] = (double)ms * 1000.0 / GRAPH_KERNELS;
        }
    }
    if (cp_rt_stream_sync(d->rt, d->s1)) goto out;
    *us = cp_bench_median(t, iters, spread);
    rc = 0;
out:
    if (g && cp_rt_graph_destroy(d->rt, g) != 0) rc = -1;
    free(t);
    return rc;
}

static void launch_row(emitter *em, dev *d, const char *id, int kind)
{
    static const int64_t per[] = { LAUNCHES, ROUNDTRIPS, GRAPH_KERNELS };
    static const char *const notes[] = {
        "host time per cuLaunchKernel of an empty kernel, back to back",
        "host time from cuLaunchKernel of an empty kernel to cuStreamSynchronize returning",
        "GPU time per empty kernel of a CUDA graph, event-timed",
    };
    if (!cp_bench_selected(em->job->only, id)) return;
    cp_bench_row r;
    row_init(&r);
    int n = announce(em, id, d->ordinal, -1, per[kind]);
    if (d->lost) {
        r.state = CP_BENCH_SKIPPED;
        say(r.detail, sizeof r.detail, "not run: an earlier measurement on this GPU failed (%s)", d->lost_why);
    } else if (ensure(d, B_SINK) != 0 || launch_us(d, kind, em->job->iters, &r.value, &r.spread) != 0) {
        failed(d, &r);
    } else {
        r.repeats = em->job->iters;
        cp_str_copy(r.detail, sizeof r.detail, notes[kind]);
    }
    finish(em, n, &r);
}

/* A row that cannot run here (SKIPPED, when --only selects it), or that
 * failed before any measurement (FAILED, always shown). */
static void said_row(emitter *em, const char *id, int device, int64_t size, cp_bench_state state, const char *why)
{
    if (state == CP_BENCH_SKIPPED && !cp_bench_selected(em->job->only, id)) return;
    cp_bench_row r;
    row_init(&r);
    int n = announce(em, id, device, -1, size);
    r.state = state;
    cp_str_copy(r.detail, sizeof r.detail, why);
    finish(em, n, &r);
}

/* ---- a device ---- */

/* Open the device, its module, kernels, streams and events.  Returns 0, or
 * -1 with d->lost and why (the rows say it). */
static int dev_open(const cp_cuda_api *api, int ordinal, int64_t size, dev *d)
{
    cp_rt_module *m = NULL;
    memset(d, 0, sizeof *d);
    d->ordinal = ordinal;
    d->bytes = (size_t)size;
    CUdevice cu = 0;
    int sms = 0;
    if (api->cuDeviceGet(&cu, ordinal) == CP_CUDA_SUCCESS && api->cuDeviceGetAttribute &&
        api->cuDeviceGetAttribute(&sms, CP_CU_ATTR_MULTIPROCESSOR_COUNT, cu) == CP_CUDA_SUCCESS)
        d->sms = sms;
    int bad = cp_rt_open(api, ordinal, &d->rt) || cp_rt_module_load(d->rt, cp_probe_kernels_fatbin, &m) ||
              cp_rt_function(d->rt, m, "cp_k_copy_u128", &d->f_copy) ||
              cp_rt_function(d->rt, m, "cp_k_read_u128", &d->f_read) ||
              cp_rt_function(d->rt, m, "cp_k_write_u128", &d->f_write) || cp_rt_stream_create(d->rt, &d->s1) ||
              cp_rt_stream_create(d->rt, &d->s2);
    for (int i = 0; i < 4 && !bad; i++) bad = cp_rt_event_create(d->rt, &d->e[i]);
    if (!bad) return 0;
    cp_bench_row r;
    row_init(&r);
    if (!d->rt) {
        say(d->lost_why, sizeof d->lost_why, "out of host memory");
    } else {
        failed(d, &r);
        cp_str_copy(d->lost_why, sizeof d->lost_why, r.detail);
    }
    d->lost = true;
    return -1;
}

static void dev_free_buffers(dev *d)
{
    if (d->rt) {
        if (d->have & B_HA) (void)cp_rt_host_free(d->rt, d->h_a);
        if (d->have & B_HB) (void)cp_rt_host_free(d->rt, d->h_b);
        if (d->have & B_DA) (void)cp_rt_free(d->rt, d->d_a);
        if (d->have & B_DB) (void)cp_rt_free(d->rt, d->d_b);
    }
    free(d->pageable);
    d->pageable = NULL;
    d->have &= B_SINK;
}

static void device_rows(emitter *em, dev *d)
{
    const unsigned ce = B_DA | B_HA, bi = B_DA | B_DB | B_HA | B_HB;
    if (d->rt && !d->lost && cp_rt_make_current(d->rt) != 0) {
        cp_bench_row r;
        row_init(&r);
        failed(d, &r);
    }
    rate_row(em, d, "copy.h2d.pinned.ce", -1, ce, q_h2d_ce, 1, NULL);
    rate_row(em, d, "copy.d2h.pinned.ce", -1, ce, q_d2h_ce, 1, NULL);
    rate_row(em, d, "copy.bidir.pinned.ce", -1, bi, q_bidir_ce, 2, "both directions at once on two streams, summed");
    rate_row(em, d, "copy.h2d.pageable.ce", -1, B_DA | B_PAGE, q_h2d_page, 1, NULL);
    rate_row(em, d, "copy.d2h.pageable.ce", -1, B_DA | B_PAGE, q_d2h_page, 1, NULL);
    rate_row(em, d, "copy.h2d.pinned.sm", -1, ce, q_h2d_sm, 1, "cp_k_copy_u128 reading mapped pinned memory");
    rate_row(em, d, "copy.d2h.pinned.sm", -1, ce, q_d2h_sm, 1, "cp_k_copy_u128 writing mapped pinned memory");
    rate_row(em, d, "copy.bidir.pinned.sm", -1, bi, q_bidir_sm, 2, "both directions at once on two streams, summed");
    rate_row(em, d, "copy.d2d.ce", -1, B_DA | B_DB, q_d2d_ce, 1, "bytes copied once (read + write traffic is twice this)");
    rate_row(em, d, "copy.d2d.sm", -1, B_DA | B_DB, q_d2d_sm, 1, "bytes copied once (read + write traffic is twice this)");
    rate_row(em, d, "hbm.read", -1, B_DA | B_SINK, q_read, 1, "cp_k_read_u128");
    rate_row(em, d, "hbm.write", -1, B_DA, q_write, 1, "cp_k_write_u128");
    /* the host buffers are not needed past here (the peer copies use device memory) */
    unsigned keep = d->have & (B_DA | B_DB);
    if (d->rt) {
        if (d->have & B_HA) (void)cp_rt_host_free(d->rt, d->h_a);
        if (d->have & B_HB) (void)cp_rt_host_free(d->rt, d->h_b);
    }
    free(d->pageable);
    d->pageable = NULL;
    d->have = keep | (d->have & B_SINK);
    launch_row(em, d, "launch.plain", 0);
    launch_row(em, d, "launch.roundtrip", 1);
    launch_row(em, d, "launch.graph", 2);
}

/* ---- the peers ---- */

static void peer_rows(emitter *em, dev *a, dev *b)
{
    char ids[2][40];   /* peer.D-P.write: device D writes peer P's memory; .read: D reads P's */
    snprintf(ids[0], sizeof ids[0], "peer.%d-%d.write", a->ordinal, b->ordinal);
    snprintf(ids[1], sizeof ids[1], "peer.%d-%d.read", a->ordinal, b->ordinal);
    if (!cp_bench_selected(em->job->only, ids[0]) && !cp_bench_selected(em->job->only, ids[1])) return;
    char note[160] = "";
    int can = 0;
    bool ok = !a->lost && !b->lost;
    cp_bench_row r;
    row_init(&r);
    if (ok && (cp_rt_make_current(b->rt) || ensure(b, B_DB) || cp_rt_make_current(a->rt) || ensure(a, B_DA) ||
               cp_rt_can_access_peer(a->rt, b->rt, &can))) {
        failed(a, &r);
        ok = false;
    }
    if (ok && can && (cp_rt_enable_peer(a->rt, b->rt) || cp_rt_enable_peer(b->rt, a->rt) ||
                      cp_rt_make_current(a->rt))) {
        failed(a, &r);
        ok = false;
    }
    if (ok && !can)
        say(note, sizeof note, "no peer access between GPU %d and GPU %d: the driver stages the copy through host memory",
                 a->ordinal, b->ordinal);
    for (int w = 0; w < 2; w++) {
        if (!cp_bench_selected(em->job->only, ids[w])) continue;
        if (!ok) {
            cp_bench_row s;
            row_init(&s);
            int n = announce(em, ids[w], a->ordinal, b->ordinal, em->job->size);
            s.state = r.state == CP_BENCH_FAILED ? CP_BENCH_FAILED : CP_BENCH_SKIPPED;
            if (r.state == CP_BENCH_FAILED) cp_str_copy(s.detail, sizeof s.detail, r.detail);
            else say(s.detail, sizeof s.detail, "not run: an earlier measurement on GPU %d or %d failed (%s)",
                          a->ordinal, b->ordinal, a->lost ? a->lost_why : b->lost_why);
            finish(em, n, &s);
            continue;
        }
        g_peer = (peer_arg){ a, b, w == 0 };
        rate_row(em, a, ids[w], b->ordinal, B_DA, q_peer, 1, note[0] ? note : NULL);
    }
}

/* ---- NCCL ---- */

/* The all-reduce's bus bandwidth over every measured device, one rank each
 * in this process (ncclCommInitAll), counted as nccl-tests counts it: a sum
 * of float32 over `size` bytes per rank, bus bandwidth = size / time x
 * 2 (n - 1) / n, what each link of a ring carries.  One GPU has no bus to
 * measure, and the row says so. */
static void nccl_row(emitter *em, dev *devs, int ndev)
{
    static const char id[] = "nccl.allreduce";
    const cp_bench_job *job = em->job;
    if (!cp_bench_selected(job->only, id) || ndev <= 0) return;
    if (ndev < 2) {
        said_row(em, id, devs[0].ordinal, job->size, CP_BENCH_SKIPPED,
                 "one GPU: an all-reduce moves nothing between GPUs (bus bandwidth is the rate x 2(n-1)/n, 0 for "
                 "one rank); doctor --level 2 checks NCCL's one-rank answer");
        return;
    }
    cp_bench_row r;
    row_init(&r);
    int n = announce(em, id, devs[0].ordinal, -1, job->size);
    int nd = ndev < CP_MAX_GPUS ? ndev : CP_MAX_GPUS, list[CP_MAX_GPUS], inited = 0, st;
    ncclComm_t comm[CP_MAX_GPUS] = { NULL };
    cp_nccl_api api;
    cp_lib_load rec;
    double *ms = NULL;
    for (int d = 0; d < nd; d++) {
        list[d] = devs[d].ordinal;
        if (devs[d].lost) {
            r.state = CP_BENCH_SKIPPED;
            say(r.detail, sizeof r.detail, "not run: an earlier measurement on GPU %d failed (%s)", devs[d].ordinal,
                devs[d].lost_why);
            goto out;
        }
    }
    /* NVLink SHARP stays off unless the user asked for it (as in level 2) */
    if (!getenv("NCCL_NVLS_ENABLE")) setenv("NCCL_NVLS_ENABLE", "0", 0);
    /* left loaded: the child exits soon, and NCCL leaves threads behind */
    if (!cp_dl_load(&cp_nccl_lib, &api, &rec)) {
        r.state = CP_BENCH_SKIPPED;
        load_failure(&rec, rec.path[0] ? rec.path : rec.requested, r.detail, sizeof r.detail);
        goto out;
    }
    const char *call = "ncclCommInitAll";
    if ((st = api.ncclCommInitAll(comm, nd, list)) != 0) goto nccl_failed;
    inited = 1;
    size_t count = (size_t)job->size / sizeof(float);
    for (int d = 0; d < nd; d++)
        if (cp_rt_make_current(devs[d].rt) || ensure(&devs[d], B_DA | B_DB)) {
            failed(&devs[d], &r);
            goto out;
        }
    if (!(ms = cp_calloc((size_t)job->iters, sizeof *ms))) {
        r.state = CP_BENCH_FAILED;
        cp_str_copy(r.detail, sizeof r.detail, "malloc: out of host memory");
        goto out;
    }
    for (int k = -1; k < job->iters; k++) {    /* k = -1: the warm-up, which also sets up NCCL's channels */
        for (int d = 0; d < nd; d++)
            if (cp_rt_make_current(devs[d].rt) || cp_rt_event_record(devs[d].rt, devs[d].e[0], devs[d].s1)) {
                failed(&devs[d], &r);
                goto out;
            }
        call = "ncclGroupStart";
        if ((st = api.ncclGroupStart()) != 0) goto nccl_failed;
        for (int d = 0; d < nd; d++) {
            call = "ncclAllReduce";
            if ((st = api.ncclAllReduce((const void *)(uintptr_t)devs[d].d_a, (void *)(uintptr_t)devs[d].d_b, count,
                                        CP_NCCL_FLOAT32, CP_NCCL_SUM, comm[d], cp_rt_stream_handle(devs[d].s1))) != 0) {
                (void)api.ncclGroupEnd();
                goto nccl_failed;
            }
        }
        call = "ncclGroupEnd";
        if ((st = api.ncclGroupEnd()) != 0) goto nccl_failed;
        double worst = 0;
        for (int d = 0; d < nd; d++) {
            float t = 0;
            if (cp_rt_make_current(devs[d].rt) || cp_rt_event_record(devs[d].rt, devs[d].e[1], devs[d].s1) ||
                cp_rt_event_sync(devs[d].rt, devs[d].e[1]) ||
                cp_rt_event_elapsed_ms(devs[d].rt, devs[d].e[0], devs[d].e[1], &t)) {
                failed(&devs[d], &r);
                goto out;
            }
            if (t > worst) worst = t;
        }
        if (k >= 0) ms[k] = worst;
    }
    double med = cp_bench_median(ms, job->iters, &r.spread);
    if (med > 0) {
        double alg = (double)job->size / (med * 1e-3) / 1e9;
        r.value = alg * 2.0 * (nd - 1) / nd;
        r.repeats = job->iters;
        say(r.detail, sizeof r.detail, "%d ranks, float32 sum; algorithm bandwidth %.1f GB/s (bus = algorithm x 2(n-1)/n, "
            "as nccl-tests counts it)", nd, alg);
    } else {
        r.state = CP_BENCH_FAILED;
        cp_str_copy(r.detail, sizeof r.detail, "the events timed the all-reduce at 0 ms");
    }
    goto out;
nccl_failed:
    r.state = CP_BENCH_FAILED;
    {
        const char *name = api.ncclGetErrorString ? api.ncclGetErrorString(st) : NULL;
        say(r.detail, sizeof r.detail, "%s: %s (%d)", call, name ? name : "error", st);
    }
out:
    for (int d = 0; inited && d < nd; d++)
        if (comm[d]) (void)api.ncclCommDestroy(comm[d]);
    free(ms);
    finish(em, n, &r);
}

/* ---- GEMM ---- */

/* Resident set size now, in KiB (/proc/self/statm), or CP_UNKNOWN. */
static int64_t rss_kb(void)
{
    char buf[128];
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return CP_UNKNOWN;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return CP_UNKNOWN;
    buf[n] = '\0';
    char *p = buf, *end;
    (void)strtoll(p, &end, 10);
    long long pages = strtoll(end, &p, 10);
    long psz = sysconf(_SC_PAGESIZE);
    return p == end || psz <= 0 ? CP_UNKNOWN : (int64_t)pages * (psz / 1024);
}

typedef struct {
    bool tried;
    void *handle;
    cp_cublaslt_api api;
    char why[200];            /* not loaded: why */
    int64_t rss_kb;           /* what loading and cublasLtCreate took */
} lt_lib;

/* The GEMM's order: CP_BENCH_GEMM_N, or $CUPROBE_TEST_GEMM_N (16 to 8192)
 * for the tests, whose fake cuBLASLt multiplies on the CPU. */
static int gemm_n(void)
{
    const char *t = getenv("CUPROBE_TEST_GEMM_N");
    char *end;
    long v = t ? strtol(t, &end, 10) : 0;
    return t && *end == '\0' && v >= 16 && v <= CP_BENCH_GEMM_N ? (int)v : CP_BENCH_GEMM_N;
}

static void gemm_rows(emitter *em, dev *d, lt_lib *lt)
{
    const int gn = gemm_n();
    bool any = false;
    for (int k = 0; k < CP_GEMM_KINDS; k++) any |= cp_bench_selected(em->job->only, cp_gemm_ids[k]);
    if (!any) return;
    int64_t before = rss_kb();
    if (!lt->tried) {
        cp_lib_load rec;
        lt->tried = true;
        lt->handle = cp_dl_load(&cp_cublaslt_lib, &lt->api, &rec);
        if (!lt->handle) load_failure(&rec, rec.path[0] ? rec.path : rec.requested, lt->why, sizeof lt->why);
    }
    cp_lt_handle h = NULL;
    cp_lt_status st = 0;
    char why[200] = "";
    if (!lt->handle) {
        cp_str_copy(why, sizeof why, lt->why);
    } else if (!d->lost && (st = lt->api.cublasLtCreate(&h)) != 0) {
        const char *name = lt->api.cublasLtGetStatusName ? lt->api.cublasLtGetStatusName(st) : NULL;
        say(why, sizeof why, "cublasLtCreate: %s (%d)", name ? name : "error", st);
    }
    int64_t after = rss_kb();
    if (lt->handle && before != CP_UNKNOWN && after != CP_UNKNOWN && lt->rss_kb == CP_UNKNOWN)
        lt->rss_kb = after - before;
    for (int k = 0; k < CP_GEMM_KINDS; k++) {
        if (!cp_bench_selected(em->job->only, cp_gemm_ids[k])) continue;
        cp_bench_row r;
        row_init(&r);
        int n = announce(em, cp_gemm_ids[k], d->ordinal, -1, gn);
        if (d->lost) {
            r.state = CP_BENCH_SKIPPED;
            say(r.detail, sizeof r.detail, "not run: an earlier measurement on this GPU failed (%s)", d->lost_why);
        } else if (!lt->handle) {
            r.state = CP_BENCH_SKIPPED;
            cp_str_copy(r.detail, sizeof r.detail, why);
        } else if (!h) {
            r.state = CP_BENCH_FAILED;
            cp_str_copy(r.detail, sizeof r.detail, why);
        } else if (cp_bench_gemm(d->rt, &lt->api, h, d->s1, (cp_gemm_kind)k, gn, em->job->iters, &r) != 0) {
            d->lost = true;
            cp_str_copy(d->lost_why, sizeof d->lost_why, r.detail);
        }
        finish(em, n, &r);
    }
    if (h) (void)lt->api.cublasLtDestroy(h);
}

/* ---- the child ---- */

static void skip_all(cp_probe_out *out, const char *why)
{
    cp_kv_put_str(&out->buf, "bench.skip", why);
}

/* The probe child (bench_int.h). */
void cp_bench_child(cp_probe_out *out, void *arg)
{
    const cp_bench_job *job = arg;
    emitter em = { out, job, 0 };
    cp_cuda_api api;
    cp_lib_load rec;
    lt_lib lt;
    memset(&lt, 0, sizeof lt);
    lt.rss_kb = CP_UNKNOWN;
    dev *devs = NULL;
    int ndev = 0;
    char why[200];
    /* kept open: after cuInit the driver owns threads and exit handlers */
    if (!cp_dl_load(&cp_cuda_lib, &api, &rec)) {
        load_failure(&rec, rec.requested, why, sizeof why);
        skip_all(out, why);
        goto end;
    }
    cp_kv_put_str(&out->buf, "bench.stage", "init");
    cp_probe_flush(out);
    CUresult r = api.cuInit(0);
    int count = 0;
    if (r != CP_CUDA_SUCCESS) {
        const char *name = NULL;
        if (!api.cuGetErrorName || api.cuGetErrorName(r, &name) != CP_CUDA_SUCCESS) name = NULL;
        say(why, sizeof why, "cuInit failed: %s (%d)", name ? name : "unnamed error", r);
        skip_all(out, why);
        goto end;
    }
    if (api.cuDeviceGetCount(&count) != CP_CUDA_SUCCESS || count <= 0) {
        skip_all(out, "no CUDA device is visible (cuDeviceGetCount)");
        goto end;
    }
    if (job->device >= count) {
        say(why, sizeof why, "device %d is not visible: %d device%s", job->device, count, count == 1 ? "" : "s");
        skip_all(out, why);
        goto end;
    }
    int first = job->device >= 0 ? job->device : 0, last = job->device >= 0 ? job->device : count - 1;
    if (last - first + 1 > MAX_DEV) last = first + MAX_DEV - 1;
    devs = cp_calloc((size_t)(last - first + 1), sizeof *devs);
    if (!devs) {
        out->buf.failed = true;
        goto end;
    }
    /* told before any GPU work, so a run cut short still says how many */
    cp_kv_put_i64(&out->buf, "bench.ndevices", last - first + 1);
    cp_kv_put_str(&out->buf, "bench.stage", "measure");
    for (int o = first; o <= last; o++) {
        dev *d = &devs[ndev++];
        if (dev_open(&api, o, job->size, d) != 0)   /* the device's rows then say they did not run */
            said_row(&em, "context", o, 0, CP_BENCH_FAILED, d->lost_why);
        device_rows(&em, d);
        gemm_rows(&em, d, &lt);
    }
    if (ndev < 2) {
        said_row(&em, "peer", first, job->size, CP_BENCH_SKIPPED,
                 job->device >= 0 ? "one GPU selected (--device): no peer to copy to" : "one GPU visible: no peer to copy to");
    } else {
        for (int i = 0; i < ndev; i++)
            for (int j = i + 1; j < ndev; j++) peer_rows(&em, &devs[i], &devs[j]);
    }
    nccl_row(&em, devs, ndev);
    cp_kv_put_i64(&out->buf, "bench.libs_rss_kb", lt.rss_kb);
end:
    for (int i = 0; i < ndev; i++) {
        if (devs[i].rt) (void)cp_rt_make_current(devs[i].rt);
        dev_free_buffers(&devs[i]);
        cp_rt_close(devs[i].rt);
    }
    free(devs);
    struct rusage ru;
    cp_kv_put_i64(&out->buf, "bench.maxrss_kb", getrusage(RUSAGE_SELF, &ru) == 0 ? (int64_t)ru.ru_maxrss : CP_UNKNOWN);
    cp_kv_put_str(&out->buf, "bench.end", "ok");
}
