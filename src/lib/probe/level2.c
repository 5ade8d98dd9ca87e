/*
 * doctor --level 2 on one device, inside the libcuda probe child: retain
 * the primary context, ask for free memory, compute on fresh random data
 * and check every element against the CPU twins, time a copy against a
 * kernel on two streams, and time pinned and pageable copies.  Sizes are
 * small (4 MiB of compute, 32 MiB for the overlap, 64 MiB copies), so all
 * of it takes a few tens of milliseconds on a healthy GPU.
 *
 * A step that fails records the Driver API call, its CUresult and the
 * driver's name for it, and the steps after it do not run: after a fault
 * the context is lost, and what they would say is the same failure again.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "dl/loader.h"
#include "kernels/kernels.h"
#include "probe/deadline.h"
#include "probe/level2.h"
#include "rt/rt.h"
#include "util/alloc.h"

enum {
    ATTR_ASYNC_ENGINE_COUNT = 40,         /* CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT */
    COMPUTE_N = 1 << 20,                  /* elements of each kernel's output (4 MiB) */
    OVERLAP_BYTES = 32 << 20,
    COPY_BYTES = 64 << 20,
    PINNED_REPEATS = 5,
    PAGEABLE_REPEATS = 3,
    BLOCK = 256
};
/* SM clocks cp_k_spin runs: about as long as the overlap copy (a few ms). */
#define SPIN_CYCLES 4000000ull

/* Record the runtime's last failure into a step's three fields. */
static void record(const cp_rt *rt, char *call, size_t callcap, int64_t *result, char *error, size_t errcap)
{
    const cp_rt_error *e = cp_rt_last_error(rt);
    if (!e) {
        cp_dl_copy(call, callcap, "?");
        *result = -1;
        return;
    }
    cp_dl_copy(call, callcap, e->call);
    *result = e->result;
    cp_dl_copy(error, errcap, e->name);
}

#define FAILED(rt, o, step) \
    record(rt, (o)->step##_call, sizeof (o)->step##_call, &(o)->step##_result, (o)->step##_error, \
           sizeof (o)->step##_error)

/* The NUMA node the page at p sits on: move_pages with no target nodes
 * only asks.  CP_UNKNOWN on a kernel without NUMA or when it refuses. */
static int64_t page_numa_node(void *p)
{
#ifdef SYS_move_pages
    void *pages[1] = { p };
    int status[1] = { -1 };
    if (syscall(SYS_move_pages, 0, 1UL, pages, NULL, status, 0) == 0 && status[0] >= 0) return status[0];
#else
    (void)p;
#endif
    return CP_UNKNOWN;
}

/* A clock-seeded 32-bit seed: fresh each run, recorded in the answers
 * (level2.h). */
uint32_t cp_level2_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
    return cp_k_hash((uint32_t)(x >> 32), x) | 1u;
}

/* A float in [-1, 1) from the fill pattern: random data the CPU makes. */
static float rand_float(uint32_t seed, uint64_t i)
{
    return (float)((int32_t)cp_k_hash(seed, i) >> 8) / 8388608.0f;
}

static unsigned grid_for(uint64_t n)
{
    uint64_t g = (n + BLOCK - 1) / BLOCK;
    return g > 4096 ? 4096 : (unsigned)g;
}

/* Compare got with want bit for bit; count the wrong ones, keep the first. */
static void compare(cp_cuda_l2 *o, const char *kernel, const uint32_t *want, const uint32_t *got, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        if (want[i] == got[i]) continue;
        if (o->wrong <= 0) {
            cp_dl_copy(o->wrong_kernel, sizeof o->wrong_kernel, kernel);
            o->wrong_index = (int64_t)i;
            o->wrong_expected = want[i];
            o->wrong_got = got[i];
        }
        o->wrong++;
    }
}

/* Fill and fma on the GPU, every element checked.  Returns 0, or -1 after
 * recording the failed call. */
static int compute(cp_rt *rt, cp_rt_module *m, cp_cuda_l2 *o)
{
    const uint64_t n = COMPUTE_N;
    const size_t bytes = n * sizeof(uint32_t);
    uint32_t *host = cp_malloc(bytes), *want = cp_malloc(bytes);
    float *x = cp_malloc(bytes), *y = cp_malloc(bytes);
    cp_rt_dptr d_fill = 0, d_x = 0, d_y = 0;
    cp_rt_func f_fill = NULL, f_fma = NULL;
    int rc = -1;
    if (!host || !want || !x || !y) {
        cp_dl_copy(o->compute_call, sizeof o->compute_call, "malloc");
        cp_dl_copy(o->compute_error, sizeof o->compute_error, "out of host memory");
        o->compute_result = -1;
        goto out;
    }
    uint32_t seed = cp_level2_seed();
    float a = rand_float(seed ^ 0x5bd1e995u, 0) + 2.0f;
    o->seed = seed;
    o->elements = (int64_t)n;
    for (uint64_t i = 0; i < n; i++) {
        x[i] = rand_float(seed ^ 0xa5a5a5a5u, i);
        y[i] = rand_float(seed ^ 0x3c3c3c3cu, i);
    }
    if (cp_rt_function(rt, m, "cp_k_fill_u32", &f_fill) || cp_rt_function(rt, m, "cp_k_fma_f32", &f_fma) ||
        cp_rt_alloc(rt, bytes, &d_fill) || cp_rt_alloc(rt, bytes, &d_x) || cp_rt_alloc(rt, bytes, &d_y) ||
        cp_rt_memset32(rt, d_fill, 0xDEADBEEFu, n, NULL) ||
        cp_rt_copy_htod(rt, d_x, x, bytes, NULL) || cp_rt_copy_htod(rt, d_y, y, bytes, NULL))
        goto fail;
    uint64_t nn = n;
    void *fill_args[] = { &d_fill, &nn, &seed };
    void *fma_args[] = { &d_y, &d_x, &a, &nn };
    if (cp_rt_launch(rt, f_fill, grid_for(n), BLOCK, 0, NULL, fill_args) ||
        cp_rt_launch(rt, f_fma, grid_for(n), BLOCK, 0, NULL, fma_args) || cp_rt_sync(rt))
        goto fail;
    o->wrong = 0;
    cp_k_fill_u32_cpu(want, n, seed);
    if (cp_rt_copy_dtoh(rt, host, d_fill, bytes, NULL)) goto fail;
    compare(o, "cp_k_fill_u32", want, host, n);
    cp_k_fma_f32_cpu(y, x, a, n);
    if (cp_rt_copy_dtoh(rt, host, d_y, bytes, NULL)) goto fail;
    memcpy(want, y, bytes);
    compare(o, "cp_k_fma_f32", want, host, n);
    o->compute_result = 0;
    rc = 0;
    goto out;
fail:
    FAILED(rt, o, compute);
out:
    if (d_fill) cp_rt_free(rt, d_fill);
    if (d_x) cp_rt_free(rt, d_x);
    if (d_y) cp_rt_free(rt, d_y);
    free(host);
    free(want);
    free(x);
    free(y);
    return rc;
}

static int64_t us_of(float ms)
{
    return (int64_t)((double)ms * 1000.0 + 0.5);
}

/* A copy on one stream, cp_k_spin on the other: alone, then together. */
static int streams(cp_rt *rt, cp_rt_module *m, cp_cuda_l2 *o)
{
    cp_rt_stream *s1 = NULL, *s2 = NULL;
    cp_rt_event *e[6] = { NULL };
    cp_rt_dptr d = 0, d_done = 0;
    void *pinned = NULL;
    cp_rt_func spin = NULL;
    float ms[4] = { 0 };
    int rc = -1;
    uint64_t cycles = SPIN_CYCLES;
    if (cp_rt_function(rt, m, "cp_k_spin", &spin) || cp_rt_stream_create(rt, &s1) ||
        cp_rt_stream_create(rt, &s2) || cp_rt_alloc(rt, OVERLAP_BYTES, &d) || cp_rt_alloc(rt, 4, &d_done) ||
        cp_rt_host_alloc(rt, OVERLAP_BYTES, &pinned))
        goto fail;
    for (int i = 0; i < 6; i++)
        if (cp_rt_event_create(rt, &e[i])) goto fail;
    memset(pinned, 0x5a, OVERLAP_BYTES);
    void *args[] = { &cycles, &d_done };
    /* warm-up: the first launch and copy pay for setting things up */
    if (cp_rt_copy_htod(rt, d, pinned, OVERLAP_BYTES, s1) || cp_rt_launch(rt, spin, 1, 1, 0, s2, args) ||
        cp_rt_sync(rt))
        goto fail;
    /* alone */
    if (cp_rt_event_record(rt, e[0], s1) || cp_rt_copy_htod(rt, d, pinned, OVERLAP_BYTES, s1) ||
        cp_rt_event_record(rt, e[1], s1) || cp_rt_event_sync(rt, e[1]) ||
        cp_rt_event_record(rt, e[2], s2) || cp_rt_launch(rt, spin, 1, 1, 0, s2, args) ||
        cp_rt_event_record(rt, e[3], s2) || cp_rt_event_sync(rt, e[3]) ||
        cp_rt_event_elapsed_ms(rt, e[0], e[1], &ms[0]) || cp_rt_event_elapsed_ms(rt, e[2], e[3], &ms[1]))
        goto fail;
    /* together: both queued behind one start event, ends on each stream */
    if (cp_rt_event_record(rt, e[4], s1) || cp_rt_launch(rt, spin, 1, 1, 0, s2, args) ||
        cp_rt_copy_htod(rt, d, pinned, OVERLAP_BYTES, s1) || cp_rt_event_record(rt, e[5], s1) ||
        cp_rt_event_record(rt, e[3], s2) || cp_rt_stream_sync(rt, s1) || cp_rt_stream_sync(rt, s2) ||
        cp_rt_event_elapsed_ms(rt, e[4], e[5], &ms[2]) || cp_rt_event_elapsed_ms(rt, e[4], e[3], &ms[3]))
        goto fail;
    o->t_copy_us = us_of(ms[0]);
    o->t_kernel_us = us_of(ms[1]);
    o->t_both_us = us_of(ms[2] > ms[3] ? ms[2] : ms[3]);
    int64_t shorter = o->t_copy_us < o->t_kernel_us ? o->t_copy_us : o->t_kernel_us;
    if (shorter > 0) {   /* kept to 0-100: timing noise on a tiny shorter side says nothing more */
        int64_t pct = (o->t_copy_us + o->t_kernel_us - o->t_both_us) * 100 / shorter;
        o->overlap_pct = pct < 0 ? 0 : pct > 100 ? 100 : pct;
    }
    o->streams_result = 0;
    rc = 0;
    goto out;
fail:
    FAILED(rt, o, streams);
out:
    for (int i = 0; i < 6; i++)
        if (e[i]) cp_rt_event_destroy(rt, e[i]);
    if (s1) cp_rt_stream_destroy(rt, s1);
    if (s2) cp_rt_stream_destroy(rt, s2);
    if (pinned) cp_rt_host_free(rt, pinned);
    if (d) cp_rt_free(rt, d);
    if (d_done) cp_rt_free(rt, d_done);
    return rc;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* MB/s of the median of repeats timed copies of COPY_BYTES (after one
 * untimed warm-up), each between two events on s; CP_UNKNOWN on a zero time. */
static int timed(cp_rt *rt, cp_rt_stream *s, cp_rt_event *e0, cp_rt_event *e1, cp_rt_dptr d, void *h, int h2d,
                 int repeats, int64_t *mbs)
{
    float ms[PINNED_REPEATS > PAGEABLE_REPEATS ? PINNED_REPEATS : PAGEABLE_REPEATS];
    for (int r = -1; r < repeats; r++) {
        if (cp_rt_event_record(rt, e0, s)) return -1;
        if (h2d ? cp_rt_copy_htod(rt, d, h, COPY_BYTES, s) : cp_rt_copy_dtoh(rt, h, d, COPY_BYTES, s)) return -1;
        if (cp_rt_event_record(rt, e1, s) || cp_rt_event_sync(rt, e1)) return -1;
        if (r >= 0 && cp_rt_event_elapsed_ms(rt, e0, e1, &ms[r])) return -1;
    }
    qsort(ms, (size_t)repeats, sizeof ms[0], cmp_float);
    float med = ms[repeats / 2];
    *mbs = med > 0 ? (int64_t)((double)COPY_BYTES / ((double)med * 1000.0)) : CP_UNKNOWN;
    return 0;
}

/* Pinned and pageable H2D and D2H rates. */
static int copies(cp_rt *rt, cp_cuda_l2 *o)
{
    cp_rt_stream *s = NULL;
    cp_rt_event *e0 = NULL, *e1 = NULL;
    cp_rt_dptr d = 0;
    void *pinned = NULL;
    unsigned char *pageable = cp_malloc(COPY_BYTES);
    int rc = -1;
    o->copy_bytes = COPY_BYTES;
    if (!pageable) {
        cp_dl_copy(o->copy_call, sizeof o->copy_call, "malloc");
        cp_dl_copy(o->copy_error, sizeof o->copy_error, "out of host memory");
        o->copy_result = -1;
        return -1;
    }
    memset(pageable, 0x3c, COPY_BYTES);
    if (cp_rt_stream_create(rt, &s) || cp_rt_event_create(rt, &e0) || cp_rt_event_create(rt, &e1) ||
        cp_rt_alloc(rt, COPY_BYTES, &d) || cp_rt_host_alloc(rt, COPY_BYTES, &pinned))
        goto fail;
    memset(pinned, 0xc3, COPY_BYTES);   /* touched: its pages now sit on a node */
    o->pinned_numa_node = page_numa_node(pinned);
    if (timed(rt, s, e0, e1, d, pinned, 1, PINNED_REPEATS, &o->h2d_pinned_mbs) ||
        timed(rt, s, e0, e1, d, pinned, 0, PINNED_REPEATS, &o->d2h_pinned_mbs) ||
        timed(rt, s, e0, e1, d, pageable, 1, PAGEABLE_REPEATS, &o->h2d_pageable_mbs) ||
        timed(rt, s, e0, e1, d, pageable, 0, PAGEABLE_REPEATS, &o->d2h_pageable_mbs))
        goto fail;
    o->copy_result = 0;
    rc = 0;
    goto out;
fail:
    FAILED(rt, o, copy);
out:
    if (e0) cp_rt_event_destroy(rt, e0);
    if (e1) cp_rt_event_destroy(rt, e1);
    if (s) cp_rt_stream_destroy(rt, s);
    if (pinned) cp_rt_host_free(rt, pinned);
    if (d) cp_rt_free(rt, d);
    free(pageable);
    return rc;
}

static void step(cp_cuda_l2 *o, const char *name, cp_l2_step_fn fn, int ordinal, void *arg)
{
    cp_dl_copy(o->step, sizeof o->step, name);
    if (fn) fn(ordinal, name, arg);
}

/* Run the level-2 steps on one device; see level2.h. */
void cp_level2_device(const cp_cuda_api *api, int ordinal, cp_cuda_l2 *o, cp_l2_step_fn fn, void *arg)
{
    double t0 = cp_now_ms();
    cp_rt *rt = NULL;
    cp_rt_module *m = NULL;
    cp_cuda_l2_init(o);
    step(o, "context", fn, ordinal, arg);
    if (cp_rt_open(api, ordinal, &rt) != 0) {
        FAILED(rt, o, ctx);
        goto done;
    }
    o->ctx_result = 0;
    CUdevice dev = 0;
    int engines = 0;
    if (api->cuDeviceGet(&dev, ordinal) == CP_CUDA_SUCCESS && api->cuDeviceGetAttribute &&
        api->cuDeviceGetAttribute(&engines, ATTR_ASYNC_ENGINE_COUNT, dev) == CP_CUDA_SUCCESS)
        o->copy_engines = engines;

    step(o, "memory", fn, ordinal, arg);
    size_t free_b = 0, total_b = 0;
    if (cp_rt_mem_info(rt, &free_b, &total_b) == 0) {
        o->mem_free_bytes = (int64_t)free_b;
        o->mem_total_bytes = (int64_t)total_b;
        o->mem_result = 0;
    } else {
        FAILED(rt, o, mem);
    }

    step(o, "compute", fn, ordinal, arg);
    if (cp_rt_module_load(rt, cp_probe_kernels_fatbin, &m) != 0) {
        FAILED(rt, o, compute);
        goto done;
    }
    if (compute(rt, m, o) != 0) goto done;
    step(o, "streams", fn, ordinal, arg);
    if (streams(rt, m, o) != 0) goto done;
    step(o, "copy", fn, ordinal, arg);
    if (copies(rt, o) != 0) goto done;
    step(o, "done", fn, ordinal, arg);
done:
    cp_rt_close(rt);
    o->wall_us = (int64_t)((cp_now_ms() - t0) * 1000.0);
}
