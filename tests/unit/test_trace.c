/*
 * The trace file's writer and reader, and the analysis on hand-made traces
 * with exact expected figures (the breakdown of every nanosecond of the
 * span), the renderers (JSON checked against docs/trace.schema.json), and
 * every allocation failure of parse and analysis.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "json_check.h"
#include "trace_test.h"
#include "cuprobe/trace.h"
#include "util/alloc.h"

static cp_trace_rec kern(int64_t s, int64_t e, uint32_t name)
{
    return (cp_trace_rec){ .type = CP_TREC_KERNEL, .start = s, .end = e, .name = name, .stream = 7,
                           .grid = { 64, 1, 1 }, .block = { 256, 1, 1 } };
}

static cp_trace_rec api(int64_t s, int64_t e, uint32_t name)
{
    return (cp_trace_rec){ .type = CP_TREC_API, .start = s, .end = e, .name = name, .tid = 4242, .domain = CP_API_RUNTIME };
}

static cp_trace_rec copy(int64_t s, int64_t e, uint64_t bytes, uint8_t src)
{
    return (cp_trace_rec){ .type = CP_TREC_MEMCPY, .start = s, .end = e, .bytes = bytes, .copy_kind = CP_COPY_HTOD,
                           .src_kind = src, .dst_kind = CP_MEM_DEVICE };
}

/* The worked example of docs/trace-format.md: span 0..2000 ns. */
static void mixed(fbuf *f)
{
    put_hdr(f, 7);
    put_str(f, 1, "gemm");
    put_str(f, 2, "cudaDeviceSynchronize");
    put_str(f, 3, "cudaLaunchKernel");
    put(f, api(0, 5, 3));
    put(f, kern(10, 110, 1));
    put(f, kern(115, 215, 1));        /* 5 ns after the last: a launch gap */
    put(f, api(220, 500, 2));         /* the host waits 280 ns of the 385 ns gap */
    put(f, kern(600, 700, 1));
    put(f, copy(1000, 1200, 2000, CP_MEM_PAGEABLE));
    put(f, copy(1500, 1600, 10000, CP_MEM_PINNED));
    put(f, api(1900, 2000, 3));
    put(f, (cp_trace_rec){ .type = CP_TREC_DROPPED, .bytes = 3 });
}

/* Each fixed-size record is written into exactly its size: nothing past it
 * (the END record once ran on into the COUNTERS fields, 48 bytes too far). */
static void test_encode_sizes(void)
{
    static const uint16_t types[] = { CP_TREC_KERNEL, CP_TREC_MEMCPY, CP_TREC_MEMSET, CP_TREC_SYNC, CP_TREC_API,
                                      CP_TREC_OVERHEAD, CP_TREC_DROPPED, CP_TREC_COUNTERS, CP_TREC_SAMPLE,
                                      CP_TREC_END };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        unsigned char b[256];
        memset(b, 0xA5, sizeof b);
        cp_trace_rec r = { .type = types[i], .start = 1, .end = 2, .signal = 11, .device = 3, .bytes = 4 };
        size_t need = cp_trace_encode_rec(b, 0, &r);
        CHECK(need >= CP_TRACE_REC_HEAD && need < sizeof b);
        CHECK_I64(cp_trace_encode_rec(b, need, &r), need);
        int clean = 1;
        for (size_t k = need; k < sizeof b; k++) clean &= b[k] == 0xA5;
        if (!clean) fprintf(stderr, "  record type %u writes past its %zu bytes\n", types[i], need);
        CHECK(clean);
    }
}

static void test_roundtrip(void)
{
    static fbuf f;
    mixed(&f);
    cp_trace t;
    char err[128];
    CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) == 0);
    CHECK_I64(t.pid, 7);
    CHECK_I64(t.n, 9);
    CHECK_I64(t.dropped, 3);
    CHECK_I64(t.truncated, 0);
    CHECK_I64(t.wall_start_ns, 1700000000000000000LL);
    CHECK_STR(cp_trace_str(&t, 2), "cudaDeviceSynchronize");
    CHECK(cp_trace_str(&t, 9) == NULL);
    CHECK(cp_trace_str(&t, 100000) == NULL);
    const cp_trace_rec *k = &t.recs[1];
    CHECK_I64(k->type, CP_TREC_KERNEL);
    CHECK_I64(k->start, 10);
    CHECK_I64(k->end, 110);
    CHECK_I64(k->stream, 7);
    CHECK_I64(k->grid[0], 64);
    CHECK_I64(k->block[0], 256);
    CHECK_I64(t.recs[0].tid, 4242);
    CHECK_I64(t.recs[5].src_kind, CP_MEM_PAGEABLE);
    CHECK_I64(t.recs[5].bytes, 2000);
    cp_trace_free(&t);
    /* cut inside the last record: read up to it */
    CHECK(cp_trace_parse(f.b, f.n - 3, &t, err, sizeof err) == 0);
    CHECK_I64(t.truncated, 1);
    CHECK_I64(t.n, 8);
    cp_trace_free(&t);
}

static void test_bad_files(void)
{
    static fbuf f;
    cp_trace t;
    char err[128];
    mixed(&f);
    CHECK(cp_trace_parse(f.b, 10, &t, err, sizeof err) == -1);
    CHECK(strstr(err, "not a cuprobe trace") != NULL);
    f.b[8] = 9;                                                       /* version 9 */
    CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) == -1);
    CHECK(strstr(err, "version") != NULL);
    mixed(&f);
    f.b[CP_TRACE_HEADER_SIZE + 2] = 3;                                /* a record size not a multiple of 8 */
    f.b[CP_TRACE_HEADER_SIZE + 3] = 0;
    CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) == -1);
    /* a kernel record shorter than a kernel */
    put_hdr(&f, 1);
    unsigned char *r = f.b + f.n;
    memset(r, 0, 16);
    r[0] = CP_TREC_KERNEL;
    r[2] = 16;
    f.n += 16;
    CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) == -1);
    CHECK(strstr(err, "shorter") != NULL);
    /* an unknown record type is skipped */
    put_hdr(&f, 1);
    r = f.b + f.n;
    memset(r, 0, 24);
    r[0] = 99;
    r[2] = 24;
    f.n += 24;
    put(&f, kern(1, 2, 0));
    CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) == 0);
    CHECK_I64(t.n, 1);
    cp_trace_free(&t);
    /* a time no clock gives is left out; a record longer than the bound is cut */
    put_hdr(&f, 1);
    put(&f, kern(-5, 2, 0));
    put(&f, kern(1, CP_TRACE_MAX_TIME + 1, 0));
    put(&f, kern(0, CP_TRACE_MAX_TIME, 0));
    CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) == 0);
    CHECK_I64(t.n, 1);
    CHECK_I64(t.skipped, 2);
    CHECK_I64(t.recs[0].end, CP_TRACE_MAX_DURATION);
    cp_trace_free(&t);
    /* a string over the limit is refused by the writer */
    static char big[CP_TRACE_MAX_STRING + 2];
    memset(big, 'a', sizeof big - 1);
    CHECK_I64(cp_trace_encode_string(f.b, sizeof f.b, 1, big, strlen(big)), 0);
    CHECK_I64(cp_trace_encode_string(f.b, sizeof f.b, 0, "x", 1), 0);
    cp_trace_rec none = { .type = 42 };
    CHECK_I64(cp_trace_encode_rec(f.b, sizeof f.b, &none), 0);
    CHECK_I64(cp_trace_encode_rec(f.b, 4, &(cp_trace_rec){ .type = CP_TREC_KERNEL }), 8 + CP_TREC_KERNEL_BODY);
}

static void analyze(fbuf *f, cp_trace *t, cp_trace_report *r)
{
    char err[128];
    CHECK(cp_trace_parse(f->b, f->n, t, err, sizeof err) == 0);
    CHECK(cp_trace_analyze(t, 1, NULL, r) == 0);
}

static void test_breakdown(void)
{
    static fbuf f;
    cp_trace t;
    cp_trace_report r;
    mixed(&f);
    analyze(&f, &t, &r);
    CHECK_I64(r.ngpus, 1);
    CHECK_I64(r.dropped, 3);
    const cp_trace_gpu *g = &r.gpus[0];
    CHECK_I64(g->span_start, 10);
    CHECK_I64(g->span_ns, 1590);
    CHECK_I64(g->startup_ns, 10);
    CHECK_I64(g->tail_ns, 400);
    CHECK_I64(g->busy_ns, 600);
    CHECK_I64(g->kernel_ns, 300);
    CHECK_I64(g->pageable_ns, 200);
    CHECK_I64(g->idle_launch_ns, 5);
    CHECK_I64(g->idle_sync_ns, 280);
    CHECK_I64(g->idle_host_ns, 705);
    CHECK_I64(g->busy_ns + g->idle_launch_ns + g->idle_sync_ns + g->idle_host_ns, g->span_ns);
    CHECK_I64(g->kernels, 3);
    CHECK_I64(g->copies, 2);
    CHECK(fabs(g->pageable_gbps - 10.0) < 1e-9);
    CHECK(fabs(g->pinned_gbps - 100.0) < 1e-9);
    CHECK_I64(g->verdict, CP_TV_HOST_BOUND);
    CHECK_I64(g->nk, 1);
    CHECK_STR(g->ktab[0].label, "gemm");
    CHECK_I64(g->ktab[0].count, 3);
    CHECK_I64(g->ktab[0].total_ns, 300);
    CHECK_I64(g->ktab[0].mean_ns, 100);
    CHECK(fabs(g->ktab[0].share - 1.0) < 1e-12);
    CHECK_I64(g->ngaps, 4);
    CHECK_I64(g->gaps[0].start, 215);
    CHECK_I64(g->gaps[0].end, 600);
    CHECK_I64(g->gaps[0].kind, 's');
    CHECK_STR(g->gaps[0].api, "cudaDeviceSynchronize");
    CHECK_I64(g->gaps[1].start, 700);
    CHECK_I64(g->gaps[1].kind, 'h');
    CHECK(g->gaps[1].api == NULL);
    CHECK_I64(g->gaps[2].start, 1200);
    CHECK_I64(g->gaps[3].start, 110);
    CHECK_I64(g->gaps[3].kind, 'l');
    CHECK_I64(g->nwin, 10);
    static const int64_t win[10] = { 154, 46, 0, 46, 54, 0, 123, 77, 0, 100 };
    for (int w = 0; w < 10; w++) {
        CHECK_I64(g->win[w].start, 10 + 159 * w);
        CHECK_I64(g->win[w].busy_ns, win[w]);
    }
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* One trace per verdict, each by its largest share. */
static void test_verdicts(void)
{
    static fbuf f;
    cp_trace t;
    cp_trace_report r;
    /* GPU-bound: 95 of 100 ns busy */
    put_hdr(&f, 1);
    put(&f, api(0, 3, 0));
    put(&f, kern(3, 98, 0));
    put(&f, api(99, 100, 0));
    analyze(&f, &t, &r);
    CHECK_I64(r.gpus[0].verdict, CP_TV_GPU_BOUND);
    CHECK_STR(r.gpus[0].ktab[0].label, "?");
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* launch-bound: 100 kernels of 1 us, 2 us apart */
    put_hdr(&f, 1);
    for (int i = 0; i < 100; i++) put(&f, kern(i * 3000, i * 3000 + 1000, 0));
    analyze(&f, &t, &r);
    CHECK_I64(r.gpus[0].verdict, CP_TV_LAUNCH_BOUND);
    CHECK_I64(r.gpus[0].idle_launch_ns, 99 * 2000);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* sync-bound: a stream-sync record covers every gap */
    put_hdr(&f, 1);
    for (int i = 0; i < 10; i++) {
        put(&f, kern(i * 100000, i * 100000 + 10000, 0));
        put(&f, (cp_trace_rec){ .type = CP_TREC_SYNC, .start = i * 100000 + 10000, .end = i * 100000 + 100000,
                                .sync_type = CP_SYNC_STREAM_SYNC });
    }
    analyze(&f, &t, &r);
    CHECK_I64(r.gpus[0].verdict, CP_TV_SYNC_BOUND);
    CHECK_I64(r.gpus[0].idle_sync_ns, 810000);      /* the last sync, after the last kernel, is the tail */
    CHECK_I64(r.gpus[0].idle_host_ns, 0);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* the GPU ran dry while the host waited: the whole gap is the sync's, the time the host
     * took to launch again after it included (.item() per step) */
    put_hdr(&f, 1);
    put_str(&f, 1, "cudaStreamSynchronize");
    put(&f, kern(0, 100, 0));
    put(&f, api(50, 150, 1));
    put(&f, kern(400, 500, 0));
    analyze(&f, &t, &r);
    CHECK_I64(r.gpus[0].idle_sync_ns, 300);
    CHECK_I64(r.gpus[0].idle_host_ns, 0);
    CHECK_I64(r.gpus[0].verdict, CP_TV_SYNC_BOUND);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* a blocking cudaMemcpy waits too; its Async form does not */
    put_hdr(&f, 1);
    put_str(&f, 1, "cudaMemcpy_v3020");
    put_str(&f, 2, "cudaMemcpyAsync_v3020");
    put(&f, kern(0, 100, 0));
    put(&f, api(100, 1000, 1));
    put(&f, kern(1000, 1100, 0));
    put(&f, api(1100, 2000, 2));
    put(&f, kern(2000, 2100, 0));
    analyze(&f, &t, &r);
    CHECK_I64(r.gpus[0].idle_sync_ns, 900);
    CHECK_I64(r.gpus[0].idle_launch_ns, 900);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* the H200's PyTorch GEMM script: a sync after the set-up kernels, then cuBLAS starts
     * (dlopen, cuInit, 880 cuGetProcAddress, cuLibraryLoadData: an 85.8 ms gap there, 29 ms of
     * it in the loads) before the GEMMs: library start-up, not the sync's price, and the
     * verdict is judged without it */
    put_hdr(&f, 1);
    put_str(&f, 1, "cudaDeviceSynchronize");
    put_str(&f, 2, "cuLibraryLoadData");
    put(&f, kern(0, 100, 0));
    put(&f, api(50, 110, 1));
    put(&f, api(120, 920, 2));
    for (int i = 0; i < 10; i++) put(&f, kern(1000 + i * 400, 1400 + i * 400, 0));
    analyze(&f, &t, &r);
    CHECK_I64(r.gpus[0].idle_load_ns, 890);
    CHECK_I64(r.gpus[0].idle_sync_ns, 10);          /* the host's own wait, 100-110 */
    CHECK_I64(r.gpus[0].idle_host_ns, 0);
    CHECK_I64(r.gpus[0].busy_ns + r.gpus[0].idle_load_ns + r.gpus[0].idle_sync_ns, r.gpus[0].span_ns);
    CHECK_I64(r.gpus[0].verdict, CP_TV_GPU_BOUND);  /* 4100 of 5000 ns busy, of 4200 without loading */
    CHECK_I64(r.gpus[0].gaps[0].kind, 'm');
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* a window marked with cudaProfilerStart .. Stop: only what runs in it counts */
    put_hdr(&f, 1);
    put_str(&f, 1, "cudaProfilerStart");
    put_str(&f, 2, "cudaProfilerStop");
    put(&f, kern(0, 100, 0));                        /* set-up, before the window */
    put(&f, api(5000, 5010, 1));
    put(&f, kern(5100, 5900, 0));
    put(&f, kern(5950, 6500, 0));                    /* cut at the stop */
    put(&f, api(6400, 6410, 2));
    put(&f, kern(9000, 9100, 0));                    /* after it */
    analyze(&f, &t, &r);
    CHECK_I64(r.gpus[0].window_start, 5010);
    CHECK_I64(r.gpus[0].window_end, 6400);
    CHECK_I64(r.gpus[0].span_ns, 1300);
    CHECK_I64(r.gpus[0].busy_ns, 1250);
    CHECK_I64(r.gpus[0].startup_ns, 90);
    CHECK_I64(r.gpus[0].kernels, 2);
    CHECK_I64(r.gpus[0].kernel_ns, 1250);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* pageable-copy-bound: busy the whole span, but copying pageable memory */
    put_hdr(&f, 1);
    put(&f, copy(0, 900, 9000, CP_MEM_PAGEABLE));
    put(&f, kern(900, 1000, 0));
    analyze(&f, &t, &r);
    CHECK_I64(r.gpus[0].verdict, CP_TV_PAGEABLE_BOUND);
    CHECK_I64(r.gpus[0].busy_ns, 1000);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* no GPU work at all, and two GPUs in one process */
    put_hdr(&f, 1);
    put(&f, api(0, 10, 0));
    analyze(&f, &t, &r);
    CHECK_I64(r.ngpus, 0);
    CHECK_I64(r.api_calls, 1);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    put_hdr(&f, 1);
    cp_trace_rec k1 = kern(0, 10, 0);
    k1.device = 3;
    put(&f, k1);
    put(&f, kern(10, 20, 0));
    analyze(&f, &t, &r);
    CHECK_I64(r.ngpus, 2);
    CHECK_I64(r.gpus[0].device, 0);
    CHECK_I64(r.gpus[1].device, 3);
    CHECK_I64(r.gpus[1].busy_ns, 10);
    CHECK_I64(r.gpus[1].span_ns, 10);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

static void test_renderers(void)
{
    static fbuf f;
    cp_trace t;
    cp_trace_report r;
    mixed(&f);
    put_str(&f, 1, "gemm<\x1b[31m&\">");               /* a hostile kernel name replaces the first */
    analyze(&f, &t, &r);
    char *s = render(0, &r, &t);
    CHECK(s && strstr(s, "process 7, GPU 0: busy 37.7 % of 1.6 us; verdict: host-bound") != NULL);
    CHECK(s && strstr(s, "idle: host in synchronising calls    280 ns   17.6 %") != NULL);
    CHECK(s && strstr(s, "pageable copies: 2000 bytes in 200 ns (10.00 GB/s)") != NULL);
    CHECK(s && strstr(s, "cudaDeviceSynchronize") != NULL);
    CHECK(s && strstr(s, "some activity records were dropped") != NULL);
    CHECK(s && !strchr(s, '\x1b'));
    free(s);
    s = render(1, &r, &t);
    CHECK(s && json_ok(s));
    CHECK(s && strstr(s, "\"idle_sync_ns\": 280") != NULL);
    CHECK(s && strstr(s, "\"verdict\": \"host-bound\"") != NULL);
    static char schema[16384];
    CHECK(schema_load("docs/trace.schema.json", schema, sizeof schema));
    static const char *const keys[] = { "\"schema\"", "\"processes\"", "\"dropped\"", "\"gpus\"", "\"verdict\"",
                                        "\"busy_pct\"", "\"idle_host_ns\"", "\"idle_launch_ns\"", "\"idle_sync_ns\"",
                                        "\"pageable_ns\"", "\"kernel_table\"", "\"gaps\"", "\"phases\"",
                                        "\"pageable_copies\"", "\"pinned_copies\"", "\"advice\"", "\"startup_ns\"",
                                        "\"tail_ns\"", "\"process_list\"", "\"end_signal\"", "\"api_ns\"",
                                        "\"sync_ns\"", "\"unattributed\"", "\"streams\"", NULL };
    for (int i = 0; keys[i]; i++) {
        CHECK(strstr(s, keys[i]) != NULL);
        CHECK(strstr(schema, keys[i]) != NULL);
    }
    CHECK(strstr(schema, "\"enum\": [\"no-gpu-work\", \"gpu-bound\", \"sync-bound\", \"launch-bound\", \"host-bound\", "
                         "\"pageable-copy-bound\"]") != NULL);
    free(s);
    s = render(2, &r, &t);
    CHECK(s && json_ok(s));
    CHECK(s && strstr(s, "\"name\": \"cudaDeviceSynchronize\", \"cat\": \"api\", \"ph\": \"X\", \"ts\": 0.220") != NULL);
    free(s);
    s = render(3, &r, &t);
    CHECK(s && strstr(s, "<svg") && strstr(s, "<script>"));
    CHECK(s && !strstr(s, "http://www.w3.org/1999") && !strstr(s, "src=") && !strstr(s, "https:"));
    CHECK(s && strstr(s, "gemm&lt;") != NULL);
    free(s);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* Host threads: each one's API time (nested calls once), sync time, the
 * work its calls launched (by correlation id) and the streams it ran on;
 * the END record read back as how the process ended. */
static void test_threads(void)
{
    static fbuf f;
    cp_trace t;
    cp_trace_report r;
    put_hdr(&f, 9);
    put_str(&f, 2, "cudaStreamSynchronize");
    put_str(&f, 3, "cudaLaunchKernel");
    put_str(&f, 4, "cuLaunchKernel");
    cp_trace_rec a = api(100, 200, 3);                 /* thread 5: a launch, the driver call inside it */
    a.tid = 5; a.corr = 1;
    put(&f, a);
    a = api(120, 180, 4);
    a.tid = 5; a.corr = 1; a.domain = CP_API_DRIVER;
    put(&f, a);
    a = api(300, 400, 3);
    a.tid = 5; a.corr = 2;
    put(&f, a);
    a = api(400, 900, 2);                              /* and a sync of 500 */
    a.tid = 5;
    put(&f, a);
    a = api(50, 60, 3);                                /* thread 6, first to call: listed first */
    a.tid = 6; a.corr = 3;
    put(&f, a);
    cp_trace_rec k = kern(210, 300, 0);
    k.corr = 1; k.stream = 11;
    put(&f, k);
    k = kern(410, 500, 0);
    k.corr = 2; k.stream = 12;
    put(&f, k);
    k = kern(510, 600, 0);
    k.corr = 3; k.stream = 13;
    put(&f, k);
    k = kern(610, 700, 0);                             /* no call launched it */
    k.corr = 99;
    put(&f, k);
    put(&f, copy(700, 800, 64, CP_MEM_PINNED));        /* corr 0: none either */
    put(&f, (cp_trace_rec){ .type = CP_TREC_END, .start = 1000, .signal = 11 });
    analyze(&f, &t, &r);
    CHECK(t.ended && t.end_signal == 11);
    CHECK_I64(r.nprocs, 1);
    const cp_trace_proc *p = &r.procs[0];
    CHECK_I64(p->pid, 9);
    CHECK(p->ended && p->end_signal == 11);
    CHECK_I64(p->gpus, 1);
    CHECK_I64(p->kernels, 4);
    CHECK_I64(p->copies, 1);
    CHECK_I64(p->unattributed, 2);
    CHECK_I64(p->nthreads, 2);
    if (p->nthreads == 2) {
        const cp_trace_thread *x = &p->threads[0], *y = &p->threads[1];
        CHECK(x->tid == 6 && x->api_calls == 1 && x->api_ns == 10 && x->sync_ns == 0 && x->kernels == 1 &&
              x->streams == 1);
        CHECK(y->tid == 5 && y->api_calls == 4);
        CHECK_I64(y->api_ns, 100 + 600);               /* 100-200 (120-180 inside it), 300-900 */
        CHECK_I64(y->sync_ns, 500);
        CHECK(y->kernels == 2 && y->copies == 0 && y->streams == 2);
    }
    char *s = render(0, &r, &t);
    CHECK(s && strstr(s, "process 9: 1 GPU(s), 4 kernels, 1 copies/memsets, 2 thread(s); killed by signal 11 (") != NULL);
    CHECK(s && strstr(s, "2 of its kernels and copies have no recorded launching call") != NULL);
    free(s);
    s = render(1, &r, &t);
    CHECK(s && json_ok(s));
    CHECK(s && strstr(s, "{\"pid\": 9, \"end\": \"signal\", \"end_signal\": 11, \"truncated\": false, \"gpus\": 1, "
                         "\"kernels\": 4, \"copies\": 1, \"unattributed\": 2, \"threads\": [{\"tid\": 6, ") != NULL);
    CHECK(s && strstr(s, "{\"tid\": 5, \"api_calls\": 4, \"api_ns\": 700, \"sync_ns\": 500, \"kernels\": 2, "
                         "\"copies\": 0, \"streams\": 2}") != NULL);
    free(s);
    s = render(3, &r, &t);
    CHECK(s && strstr(s, "<p class=\"end end-signal\">") && strstr(s, "<table class=\"threads\"") != NULL);
    CHECK(s && strstr(s, "data-timeline") != NULL);
    free(s);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* without an END record: no end said; a normal exit's END: signal 0 */
    put_hdr(&f, 10);
    analyze(&f, &t, &r);
    CHECK(r.nprocs == 1 && !r.procs[0].ended && r.procs[0].nthreads == 0 && r.ngpus == 0);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    put(&f, (cp_trace_rec){ .type = CP_TREC_END, .start = 5 });
    analyze(&f, &t, &r);
    CHECK(r.nprocs == 1 && r.procs[0].ended && r.procs[0].end_signal == 0);
    s = render(1, &r, &t);
    CHECK(s && strstr(s, "\"end\": \"exit\", \"end_signal\": null") != NULL);
    free(s);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* Every allocation of parse and analysis may fail: reported, nothing leaks. */
static void test_alloc_failures(void)
{
    static fbuf f;
    mixed(&f);
    CHECK(alloc_sweep(200, parse_analyze_run, &(sweep_trace){ &f, NULL }) > 0);
}

static void test_load_dir(void)
{
    static fbuf f;
    char dir[] = "/tmp/cuprobe-trace-XXXXXX", path[256], err[256];
    CHECK(mkdtemp(dir) != NULL);
    mixed(&f);
    snprintf(path, sizeof path, "%s/7%s", dir, CP_TRACE_SUFFIX);
    FILE *o = fopen(path, "wb");
    CHECK(o && fwrite(f.b, 1, f.n, o) == f.n);
    if (o) fclose(o);
    cp_trace *t;
    CHECK_I64(cp_trace_load_dir(dir, &t, err, sizeof err), 1);
    CHECK_I64(t[0].pid, 7);
    cp_trace_free_all(t, 1);
    o = fopen(path, "wb");
    CHECK(o && fwrite("junk", 1, 4, o) == 4);
    if (o) fclose(o);
    CHECK_I64(cp_trace_load_dir(dir, &t, err, sizeof err), -1);
    CHECK(strstr(err, "not a cuprobe trace") != NULL);
    unlink(path);
    CHECK_I64(cp_trace_load_dir(dir, &t, err, sizeof err), 0);
    rmdir(dir);
    CHECK_I64(cp_trace_load_dir(dir, &t, err, sizeof err), -1);
}

int main(void)
{
    RUN(test_encode_sizes);
    RUN(test_roundtrip);
    RUN(test_bad_files);
    RUN(test_breakdown);
    RUN(test_verdicts);
    RUN(test_renderers);
    RUN(test_threads);
    RUN(test_alloc_failures);
    RUN(test_load_dir);
    return TEST_END();
}
