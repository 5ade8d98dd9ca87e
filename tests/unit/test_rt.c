/*
 * The runtime on the Driver API (rt/) against the fake libcuda, which
 * carries its calls out over host memory: every call, each failure the
 * scenarios make (cuda.rt.*, a dropped symbol) named as rt.h says, and a
 * round trip through a launched probe kernel checked against its CPU twin.
 *
 * Fakes are found as in test_loader (fake_libs.h); without them the test
 * reports a skip.  A scenario that hangs runs in a child, killed after a
 * short wait.
 */
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dl/cuda_api.h"
#include "dl/loader.h"
#include "kernels/kernels.h"
#include "rt/rt.h"
#include "util/alloc.h"
#include "fake_libs.h"
#include "test.h"

#define H200_MEM 150754820096ULL
#define OTHERS_USED 645922816ULL    /* nvml.dev0.mem_used of healthy-1gpu */

static char scenarios[PATH_MAX], fake_cuda[PATH_MAX];
static char scen[] = "/tmp/cuprobe-rt-scenario-XXXXXX";
static cp_cuda_api api;

/* No embedded kernels needed: the fake takes any image with the fatbin magic. */
static const unsigned char image[16] = { 0x50, 0xED, 0x55, 0xBA, 1, 0, 0x10, 0 };

/* healthy-1gpu plus extra lines, then cuInit (the fake re-reads and resets). */
static bool scenario(const char *extra)
{
    FILE *fp = fopen(scen, "w");
    if (!fp)
        return false;
    fprintf(fp, "include=%s/healthy-1gpu.txt\n%s\n", scenarios, extra);
    if (fclose(fp) != 0)
        return false;
    setenv("CUPROBE_FAKE_SCENARIO", scen, 1);
    return api.cuInit(0) == CP_CUDA_SUCCESS;
}

/* The last error is call / result / name. */
static bool failed_with(const cp_rt *rt, const char *call, int result, const char *name)
{
    const cp_rt_error *e = cp_rt_last_error(rt);
    if (e && strcmp(e->call, call) == 0 && e->result == result && strcmp(e->name, name) == 0)
        return true;
    fprintf(stderr, "  last error: %s %d %s (expected %s %d %s)\n", e ? e->call : "(none)", e ? e->result : 0,
            e ? e->name : "", call, result, name);
    return false;
}

static cp_rt *open_ok(void)
{
    cp_rt *rt = NULL;
    CHECK(cp_rt_open(&api, 0, &rt) == 0);
    CHECK(rt != NULL && cp_rt_last_error(rt) == NULL);
    return rt;
}

static void test_open_and_mem_info(void)
{
    size_t free_b = 0, total_b = 0;
    CHECK(scenario(""));
    cp_rt *rt = open_ok();
    CHECK(cp_rt_mem_info(rt, &free_b, &total_b) == 0);
    CHECK_I64(total_b, H200_MEM);
    CHECK_I64(free_b, H200_MEM - OTHERS_USED);
    CHECK(cp_rt_sync(rt) == 0);
    cp_rt_close(rt);
    cp_rt_close(NULL);
    CHECK(cp_rt_last_error(NULL) == NULL);

    /* a device that is not there */
    CHECK(cp_rt_open(&api, 3, &rt) == -1);
    CHECK(rt != NULL);
    CHECK(failed_with(rt, "cuDeviceGet", CP_CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE"));
    cp_rt_close(rt);
}

/* cuda.rt.ctx_fail: a GPU another process holds in exclusive mode, say. */
static void test_ctx_fail(void)
{
    cp_rt *rt = NULL;
    CHECK(scenario("cuda.rt.ctx_fail=46"));
    CHECK(cp_rt_open(&api, 0, &rt) == -1);
    CHECK(failed_with(rt, "cuDevicePrimaryCtxRetain", CP_CUDA_ERROR_DEVICE_UNAVAILABLE,
                      "CUDA_ERROR_DEVICE_UNAVAILABLE"));
    cp_rt_close(rt);              /* nothing to release */
    /* a name the driver does not know stays "" */
    CHECK(scenario("cuda.rt.ctx_fail=12345"));
    CHECK(cp_rt_open(&api, 0, &rt) == -1);
    CHECK(failed_with(rt, "cuDevicePrimaryCtxRetain", 12345, ""));
    cp_rt_close(rt);
}

static void test_memory_and_copies(void)
{
    enum { N = 1024 };
    static uint32_t in[N], out[N];
    size_t free0 = 0, free1 = 0, total = 0;
    cp_rt_dptr a = 0, b = 0;
    void *pinned = NULL;
    cp_rt_stream *s = NULL;
    CHECK(scenario(""));
    cp_rt *rt = open_ok();
    CHECK(cp_rt_mem_info(rt, &free0, &total) == 0);
    CHECK(cp_rt_alloc(rt, N * 4, &a) == 0 && a != 0);
    CHECK(cp_rt_alloc(rt, N * 4, &b) == 0 && b != 0 && b != a);
    CHECK(cp_rt_mem_info(rt, &free1, &total) == 0);
    CHECK_I64(free0 - free1, 2 * N * 4);
    CHECK(cp_rt_host_alloc(rt, N * 4, &pinned) == 0 && pinned != NULL);
    CHECK(cp_rt_stream_create(rt, &s) == 0 && s != NULL);

    for (uint32_t i = 0; i < N; i++)
        in[i] = i * 2654435761u;
    /* synchronous, then on a stream */
    CHECK(cp_rt_copy_htod(rt, a, in, sizeof in, NULL) == 0);
    CHECK(cp_rt_copy_dtod(rt, b, a, sizeof in, NULL) == 0);
    CHECK(cp_rt_copy_dtoh(rt, out, b, sizeof out, NULL) == 0);
    CHECK(memcmp(in, out, sizeof in) == 0);
    CHECK(cp_rt_memset32(rt, a, 0xA5A5A5A5u, N, s) == 0);
    CHECK(cp_rt_copy_dtod(rt, b, a, sizeof in, s) == 0);
    CHECK(cp_rt_copy_dtoh(rt, pinned, b, sizeof out, s) == 0);
    CHECK(cp_rt_stream_sync(rt, s) == 0);
    CHECK(pinned && ((uint32_t *)pinned)[0] == 0xA5A5A5A5u && ((uint32_t *)pinned)[N - 1] == 0xA5A5A5A5u);
    CHECK(cp_rt_copy_htod(rt, a, in, sizeof in, s) == 0);
    CHECK(cp_rt_memset32(rt, b, 7, N, NULL) == 0);
    CHECK(cp_rt_copy_dtoh(rt, out, a, sizeof out, s) == 0);
    CHECK(cp_rt_stream_sync(rt, NULL) == 0);
    CHECK(memcmp(in, out, sizeof in) == 0);

    /* a copy past the allocation's end is refused by the driver */
    CHECK(cp_rt_copy_htod(rt, a, in, sizeof in + 4, NULL) == -1);
    CHECK(failed_with(rt, "cuMemcpyHtoD_v2", CP_CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"));
    CHECK(cp_rt_copy_dtoh(rt, out, b + 4, sizeof out, s) == -1);
    CHECK(failed_with(rt, "cuMemcpyDtoHAsync_v2", CP_CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"));
    CHECK(cp_rt_free(rt, a + 8) == -1);
    CHECK(failed_with(rt, "cuMemFree_v2", CP_CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"));

    CHECK(cp_rt_free(rt, a) == 0);
    CHECK(cp_rt_free(rt, b) == 0);
    CHECK(cp_rt_host_free(rt, pinned) == 0);
    CHECK(cp_rt_stream_destroy(rt, s) == 0);
    CHECK(cp_rt_stream_destroy(rt, NULL) == 0);
    CHECK(cp_rt_mem_info(rt, &free1, &total) == 0);
    CHECK_I64(free1, free0);
    cp_rt_close(rt);
}

/* What the caller leaves is freed by cp_rt_close: device memory shows in
 * the free figure (the fake never frees on release), and the runtime's own
 * records of the rest would leak in the ASan run. */
static void test_close_frees_leftovers(void)
{
    size_t free0 = 0, free1 = 0, total = 0;
    cp_rt_dptr d;
    void *h;
    cp_rt_stream *s;
    cp_rt_event *e;
    cp_rt_module *m;
    cp_rt_func f;
    cp_rt_graph *g;
    CHECK(scenario(""));
    cp_rt *rt = open_ok();
    CHECK(cp_rt_mem_info(rt, &free0, &total) == 0);
    CHECK(cp_rt_alloc(rt, 1 << 20, &d) == 0);
    CHECK(cp_rt_alloc(rt, 4096, &d) == 0);
    CHECK(cp_rt_host_alloc(rt, 4096, &h) == 0);
    CHECK(cp_rt_stream_create(rt, &s) == 0);
    CHECK(cp_rt_event_create(rt, &e) == 0);
    CHECK(cp_rt_module_load(rt, image, &m) == 0);
    CHECK(cp_rt_function(rt, m, "cp_k_fill_u32", &f) == 0);
    CHECK(cp_rt_capture_begin(rt, s) == 0);
    CHECK(cp_rt_capture_end(rt, s, &g) == 0);
    cp_rt_close(rt);
    rt = open_ok();
    CHECK(cp_rt_mem_info(rt, &free1, &total) == 0);
    CHECK_I64(free1, free0);
    cp_rt_close(rt);
}

static void test_oom(void)
{
    cp_rt_dptr a = 0, b = 0;
    CHECK(scenario("cuda.rt.oom_at=2"));
    cp_rt *rt = open_ok();
    CHECK(cp_rt_alloc(rt, 4096, &a) == 0);
    CHECK(cp_rt_alloc(rt, 4096, &b) == -1);
    CHECK(b == 0);
    CHECK(failed_with(rt, "cuMemAlloc_v2", CP_CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY"));
    CHECK(cp_rt_alloc(rt, 4096, &b) == 0);      /* only the second */
    cp_rt_close(rt);

    /* more than is free: what other processes hold counts */
    CHECK(scenario("nvml.dev0.mem_used=150000000000"));
    rt = open_ok();
    CHECK(cp_rt_alloc(rt, 1000000000, &a) == -1);
    CHECK(failed_with(rt, "cuMemAlloc_v2", CP_CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY"));
    cp_rt_close(rt);
}

/* The runtime's own bookkeeping out of memory: named, nothing allocated. */
static void test_host_out_of_memory(void)
{
    cp_rt_dptr a = 1;
    cp_rt_stream *s = NULL;
    CHECK(scenario(""));
    cp_rt *rt = open_ok();
    cp_alloc_fail_at(1);
    CHECK(cp_rt_alloc(rt, 4096, &a) == -1);
    CHECK(a == 0);
    CHECK(failed_with(rt, "malloc", CP_RT_NO_HOST_MEMORY, ""));
    CHECK(cp_rt_stream_create(rt, &s) == -1 && s == NULL);
    cp_alloc_fail_at(0);
    cp_rt_close(rt);
    cp_alloc_fail_at(1);
    CHECK(cp_rt_open(&api, 0, &rt) == -1);
    CHECK(rt == NULL);
    cp_alloc_fail_at(0);
}

/* Allocate, fill through a launched kernel, copy back, compare with the twin. */
static void test_round_trip(void)
{
    enum { N = 10000 };
    static uint32_t got[N], want[N];
    cp_rt_module *m = NULL;
    cp_rt_func fill = NULL;
    cp_rt_dptr d = 0;
    uint64_t n = N;
    uint32_t seed = 0x1234abcdu;
    void *args[] = { &d, &n, &seed };
    CHECK(scenario(""));
    cp_rt *rt = open_ok();
    CHECK(cp_rt_module_load(rt, image, &m) == 0 && m != NULL);
    CHECK(cp_rt_function(rt, m, "cp_k_fill_u32", &fill) == 0 && fill != NULL);
    CHECK(cp_rt_alloc(rt, sizeof got, &d) == 0);
    CHECK(cp_rt_memset32(rt, d, 0xDEADBEEFu, N, NULL) == 0);   /* poisoned first */
    CHECK(cp_rt_launch(rt, fill, 40, 256, 0, NULL, args) == 0);
    CHECK(cp_rt_sync(rt) == 0);
    CHECK(cp_rt_copy_dtoh(rt, got, d, sizeof got, NULL) == 0);
    cp_k_fill_u32_cpu(want, N, seed);
    CHECK(memcmp(got, want, sizeof got) == 0);
    CHECK(got[0] != 0xDEADBEEFu);
    cp_rt_close(rt);
}

/* The other probe kernels run too: fma, burn, copy, read, write, spin. */
static void test_other_kernels(void)
{
    enum { N = 256 };
    static float x[N], y[N], want[N], got[N];
    static uint32_t words[N * 4];
    cp_rt_module *m;
    cp_rt_func fma_k, burn, copy, rd, wr, spin;
    cp_rt_dptr dx, dy, dsink;
    cp_rt_stream *s;
    uint64_t n = N, n128 = N, cycles = 1000;
    float a = 1.5f, b = 0.25f;
    int iters = 8;
    uint32_t v = 0x11223344u, sink = 0;
    CHECK(scenario(""));
    cp_rt *rt = open_ok();
    CHECK(cp_rt_module_load(rt, image, &m) == 0);
    CHECK(cp_rt_function(rt, m, "cp_k_fma_f32", &fma_k) == 0);
    CHECK(cp_rt_function(rt, m, "cp_k_burn_f32", &burn) == 0);
    CHECK(cp_rt_function(rt, m, "cp_k_copy_u128", &copy) == 0);
    CHECK(cp_rt_function(rt, m, "cp_k_read_u128", &rd) == 0);
    CHECK(cp_rt_function(rt, m, "cp_k_write_u128", &wr) == 0);
    CHECK(cp_rt_function(rt, m, "cp_k_spin", &spin) == 0);
    CHECK(cp_rt_stream_create(rt, &s) == 0);
    CHECK(cp_rt_alloc(rt, N * 16, &dx) == 0 && cp_rt_alloc(rt, N * 16, &dy) == 0);
    CHECK(cp_rt_alloc(rt, 4, &dsink) == 0);
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = want[i] = 1.0f / (float)(i + 1);
    }
    CHECK(cp_rt_copy_htod(rt, dx, x, sizeof x, s) == 0);
    CHECK(cp_rt_copy_htod(rt, dy, y, sizeof y, s) == 0);
    void *fa[] = { &dy, &dx, &a, &n };
    CHECK(cp_rt_launch(rt, fma_k, 1, 256, 0, s, fa) == 0);
    CHECK(cp_rt_copy_dtoh(rt, got, dy, sizeof got, s) == 0);
    CHECK(cp_rt_stream_sync(rt, s) == 0);
    cp_k_fma_f32_cpu(want, x, a, N);
    CHECK(memcmp(got, want, sizeof got) == 0);

    void *ba[] = { &dy, &n, &iters, &a, &b };
    CHECK(cp_rt_launch(rt, burn, 1, 256, 0, NULL, ba) == 0);
    CHECK(cp_rt_copy_dtoh(rt, got, dy, sizeof got, NULL) == 0);
    cp_k_burn_f32_cpu(want, N, iters, a, b);
    CHECK(memcmp(got, want, sizeof got) == 0);

    void *wa[] = { &dx, &n128, &v };
    CHECK(cp_rt_launch(rt, wr, 4, 64, 0, s, wa) == 0);
    void *ca[] = { &dy, &dx, &n128 };
    CHECK(cp_rt_launch(rt, copy, 4, 64, 0, s, ca) == 0);
    CHECK(cp_rt_copy_dtoh(rt, words, dy, sizeof words, s) == 0);
    CHECK(cp_rt_stream_sync(rt, s) == 0);
    CHECK(words[0] == v && words[N * 4 - 1] == v);
    CHECK(cp_rt_memset32(rt, dsink, 0, 1, NULL) == 0);
    void *ra[] = { &dy, &n128, &dsink };
    CHECK(cp_rt_launch(rt, rd, 4, 64, 0, NULL, ra) == 0);
    CHECK(cp_rt_copy_dtoh(rt, &sink, dsink, 4, NULL) == 0);
    CHECK(sink == 0);                                   /* an even count of equal words */
    CHECK(cp_rt_memset32(rt, dsink, 0, 1, NULL) == 0);
    void *sa[] = { &cycles, &dsink };
    CHECK(cp_rt_launch(rt, spin, 1, 1, 0, s, sa) == 0);
    CHECK(cp_rt_copy_dtoh(rt, &sink, dsink, 4, s) == 0);
    CHECK(cp_rt_stream_sync(rt, s) == 0);
    CHECK(sink == 1);

    /* a kernel's pointer outside every allocation is refused */
    cp_rt_dptr wild = dx + N * 16;
    void *bad[] = { &wild, &n128, &v };
    CHECK(cp_rt_launch(rt, wr, 4, 64, 0, NULL, bad) == -1);
    CHECK(failed_with(rt, "cuLaunchKernel", CP_CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"));
    cp_rt_close(rt);
}

static void test_module_failures(void)
{
    static const unsigned char not_code[16] = "not a fatbin";
    cp_rt_module *m = NULL;
    cp_rt_func f = &f;
    CHECK(scenario(""));
    cp_rt *rt = open_ok();
    CHECK(cp_rt_module_load(rt, not_code, &m) == -1 && m == NULL);
    CHECK(failed_with(rt, "cuModuleLoadData", 200, "CUDA_ERROR_INVALID_IMAGE"));
    CHECK(cp_rt_module_load(rt, image, &m) == 0);
    CHECK(cp_rt_function(rt, m, "no_such_kernel", &f) == -1 && f == NULL);
    CHECK(failed_with(rt, "cuModuleGetFunction", 500, "CUDA_ERROR_NOT_FOUND"));
    cp_rt_close(rt);
}

/* Launch the fill kernel over n elements; the copy back in got. */
static bool fill_once(cp_rt *rt, cp_rt_stream *s, uint32_t *got, uint64_t n, uint32_t seed)
{
    cp_rt_module *m;
    cp_rt_func fill;
    cp_rt_dptr d;
    void *args[] = { &d, &n, &seed };
    if (cp_rt_module_load(rt, image, &m) != 0 || cp_rt_function(rt, m, "cp_k_fill_u32", &fill) != 0 ||
        cp_rt_alloc(rt, n * 4, &d) != 0 || cp_rt_launch(rt, fill, 4, 256, 0, s, args) != 0 ||
        cp_rt_copy_dtoh(rt, got, d, n * 4, s) != 0)
        return false;
    return true;
}

static void test_wrong_element(void)
{
    enum { N = 1000 };
    static uint32_t got[N], want[N];
    CHECK(scenario("cuda.rt.wrong_element=17"));
    cp_rt *rt = open_ok();
    CHECK(fill_once(rt, NULL, got, N, 99));
    cp_k_fill_u32_cpu(want, N, 99);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        if (got[i] != want[i]) {
            CHECK_I64(i, 17);
            wrong++;
        }
    CHECK_I64(wrong, 1);
    cp_rt_close(rt);
}

static void test_launch_fail(void)
{
    static uint32_t got[64];
    CHECK(scenario("cuda.rt.launch_fail=1"));
    cp_rt *rt = open_ok();
    CHECK(!fill_once(rt, NULL, got, 64, 1));
    CHECK(failed_with(rt, "cuLaunchKernel", CP_CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED"));
    cp_rt_close(rt);
}

static void test_illegal_address(void)
{
    static uint32_t got[64];
    cp_rt_stream *s;
    CHECK(scenario("cuda.rt.illegal_address=1"));
    cp_rt *rt = open_ok();
    CHECK(fill_once(rt, NULL, got, 64, 1));              /* the default stream: no fault */
    CHECK(cp_rt_stream_create(rt, &s) == 0);
    CHECK(fill_once(rt, s, got, 64, 1));                 /* queued without complaint */
    CHECK(cp_rt_stream_sync(rt, s) == -1);
    CHECK(failed_with(rt, "cuStreamSynchronize", CP_CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS"));
    CHECK(cp_rt_stream_sync(rt, s) == 0);
    cp_rt_close(rt);
}

static void test_events(void)
{
    cp_rt_event *a = NULL, *b = NULL;
    cp_rt_stream *s;
    float ms = -1;
    CHECK(scenario(""));
    cp_rt *rt = open_ok();
    CHECK(cp_rt_stream_create(rt, &s) == 0);
    CHECK(cp_rt_event_create(rt, &a) == 0 && cp_rt_event_create(rt, &b) == 0);
    CHECK(cp_rt_event_elapsed_ms(rt, a, b, &ms) == -1);     /* neither recorded yet */
    CHECK(failed_with(rt, "cuEventElapsedTime_v2", 400, "CUDA_ERROR_INVALID_HANDLE"));
    CHECK(cp_rt_event_record(rt, a, s) == 0);
    struct timespec t = { 0, 2000000 };
    nanosleep(&t, NULL);
    CHECK(cp_rt_event_record(rt, b, NULL) == 0);
    CHECK(cp_rt_event_sync(rt, b) == 0);
    CHECK(cp_rt_event_elapsed_ms(rt, a, b, &ms) == 0);
    CHECK(ms >= 1.5f && ms < 1000.0f);
    CHECK(cp_rt_event_destroy(rt, a) == 0);
    CHECK(cp_rt_event_destroy(rt, NULL) == 0);
    cp_rt_close(rt);              /* b and s are freed here */
}

/* A capture records the launches without running them; a launch replays. */
static void test_graph(void)
{
    enum { N = 512 };
    static uint32_t got[N], want[N];
    cp_rt_module *m;
    cp_rt_func fill;
    cp_rt_stream *s;
    cp_rt_graph *g = NULL;
    cp_rt_dptr d;
    uint64_t n = N;
    uint32_t seed = 7;
    void *args[] = { &d, &n, &seed };
    CHECK(scenario(""));
    cp_rt *rt = open_ok();
    CHECK(cp_rt_module_load(rt, image, &m) == 0 && cp_rt_function(rt, m, "cp_k_fill_u32", &fill) == 0);
    CHECK(cp_rt_alloc(rt, sizeof got, &d) == 0);
    CHECK(cp_rt_memset32(rt, d, 0, N, NULL) == 0);
    CHECK(cp_rt_stream_create(rt, &s) == 0);
    CHECK(cp_rt_capture_begin(rt, s) == 0);
    CHECK(cp_rt_launch(rt, fill, 2, 256, 0, s, args) == 0);
    seed = 8;                     /* the value at capture time stays in the graph */
    CHECK(cp_rt_capture_end(rt, s, &g) == 0 && g != NULL);
    CHECK(cp_rt_copy_dtoh(rt, got, d, sizeof got, NULL) == 0);
    CHECK(got[0] == 0 && got[N - 1] == 0);
    CHECK(cp_rt_graph_launch(rt, g, s) == 0);
    CHECK(cp_rt_stream_sync(rt, s) == 0);
    CHECK(cp_rt_copy_dtoh(rt, got, d, sizeof got, NULL) == 0);
    cp_k_fill_u32_cpu(want, N, 7);
    CHECK(memcmp(got, want, sizeof got) == 0);
    CHECK(cp_rt_graph_destroy(rt, g) == 0);
    CHECK(cp_rt_graph_destroy(rt, NULL) == 0);

    /* the legacy stream cannot be captured */
    CHECK(cp_rt_capture_begin(rt, NULL) == -1);
    CHECK(failed_with(rt, "cuStreamBeginCapture_v2", 900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"));
    /* ending a capture never begun */
    CHECK(cp_rt_capture_end(rt, s, &g) == -1 && g == NULL);
    CHECK(failed_with(rt, "cuStreamEndCapture", CP_CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"));
    cp_rt_close(rt);
}

/* Which sync: 0 context, 1 stream, 2 event. */
static void hang_child(int which)
{
    cp_rt *rt;
    cp_rt_stream *s;
    cp_rt_event *e;
    if (api.cuInit(0) != CP_CUDA_SUCCESS || cp_rt_open(&api, 0, &rt) != 0 ||
        cp_rt_stream_create(rt, &s) != 0 || cp_rt_event_create(rt, &e) != 0 || cp_rt_event_record(rt, e, s) != 0)
        _exit(2);
    if (which == 0)
        (void)cp_rt_sync(rt);
    else if (which == 1)
        (void)cp_rt_stream_sync(rt, s);
    else
        (void)cp_rt_event_sync(rt, e);
    _exit(3);                     /* returned: not what the scenario says */
}

/* True when the child is still running after ms milliseconds; it is killed. */
static bool still_running(pid_t pid, int ms)
{
    int st;
    struct timespec t = { 0, 10000000 };
    for (int waited = 0; waited < ms; waited += 10) {
        if (waitpid(pid, &st, WNOHANG) == pid)
            return false;
        nanosleep(&t, NULL);
    }
    kill(pid, SIGKILL);
    return waitpid(pid, &st, 0) == pid && WIFSIGNALED(st);
}

static void test_sync_hang(void)
{
    CHECK(scenario("cuda.rt.sync_hang=1"));
    for (int which = 0; which < 3; which++) {
        fflush(NULL);
        pid_t pid = fork();
        CHECK(pid >= 0);
        if (pid == 0)
            hang_child(which);
        if (pid > 0)
            CHECK(still_running(pid, 300));
    }
}

/* A driver without a call: CP_RT_NO_SYMBOL naming the versioned symbol;
 * cuEventElapsedTime_v2 missing falls back to the plain name. */
/* bench's calls: mapped pinned memory a kernel copies from, and the peer
 * copies between two devices' contexts. */
static void test_mapped_and_peers(void)
{
    FILE *fp = fopen(scen, "w");
    CHECK(fp != NULL);
    if (!fp)
        return;
    fprintf(fp, "include=%s/healthy-2gpu.txt\ncuda.p2p=1\n", scenarios);
    CHECK(fclose(fp) == 0);
    setenv("CUPROBE_FAKE_SCENARIO", scen, 1);
    CHECK(api.cuInit(0) == CP_CUDA_SUCCESS);
    cp_rt *a = NULL, *b = NULL;
    CHECK(cp_rt_open(&api, 0, &a) == 0);
    CHECK(cp_rt_open(&api, 1, &b) == 0);   /* b is current now */
    cp_rt_dptr da, db, hd;
    void *h = NULL;
    int can = -1;
    CHECK(cp_rt_alloc(b, 64, &db) == 0);
    CHECK(cp_rt_make_current(a) == 0);
    CHECK(cp_rt_alloc(a, 64, &da) == 0);
    CHECK(cp_rt_host_alloc_mapped(a, 64, &h, &hd) == 0 && h != NULL && hd != 0);
    memset(h, 0x5a, 64);
    /* a kernel copies the mapped host memory into the device */
    cp_rt_module *m;
    cp_rt_func copy;
    CHECK(cp_rt_module_load(a, image, &m) == 0 && cp_rt_function(a, m, "cp_k_copy_u128", &copy) == 0);
    uint64_t n = 4;
    void *args[] = { &da, &hd, &n };
    CHECK(cp_rt_launch(a, copy, 1, 32, 0, NULL, args) == 0 && cp_rt_sync(a) == 0);
    unsigned char back[64] = { 0 };
    CHECK(cp_rt_copy_dtoh(a, back, da, 64, NULL) == 0 && back[0] == 0x5a && back[63] == 0x5a);
    /* peers: asked, enabled (twice is fine), copied both ways on a stream */
    CHECK(cp_rt_can_access_peer(a, b, &can) == 0 && can == 1);
    CHECK(cp_rt_can_access_peer(a, a, &can) == -1 && can == 0);   /* a device and itself: the driver says 1 */
    CHECK(failed_with(a, "cuDeviceCanAccessPeer", 1, "CUDA_ERROR_INVALID_VALUE"));
    CHECK(cp_rt_enable_peer(a, b) == 0 && cp_rt_enable_peer(a, b) == 0);
    cp_rt_stream *s;
    CHECK(cp_rt_stream_create(a, &s) == 0 && cp_rt_stream_handle(s) != NULL && cp_rt_stream_handle(NULL) == NULL);
    CHECK(cp_rt_copy_peer(a, db, b, da, a, 64, s) == 0 && cp_rt_stream_sync(a, s) == 0);
    memset(back, 0, sizeof back);
    CHECK(cp_rt_make_current(b) == 0 && cp_rt_copy_dtoh(b, back, db, 64, NULL) == 0 && back[17] == 0x5a);
    CHECK(cp_rt_copy_peer(b, da, a, db, b, 1 << 20, NULL) == -1);   /* past the allocation */
    CHECK(failed_with(b, "cuMemcpyPeerAsync", 1, "CUDA_ERROR_INVALID_VALUE"));
    /* mapped memory goes back like any pinned block */
    CHECK(cp_rt_make_current(a) == 0 && cp_rt_host_free(a, h) == 0);
    cp_rt_close(b);
    cp_rt_close(a);
}

static void test_dropped_symbols(void)
{
    char dir[] = "/tmp/cuprobe-rt-drop-XXXXXX", lib[PATH_MAX];
    cp_cuda_api keep = api, dropped;
    cp_lib_load rec;
    CHECK(mkdtemp(dir) != NULL);
    snprintf(lib, sizeof lib, "%s/libcuda.so.1", dir);
    CHECK(copy_file(fake_cuda, lib));
    CHECK(scenario("cuda.drop=cuMemHostAlloc,cuEventElapsedTime_v2,cuStreamBeginCapture_v2,cuMemcpyDtoDAsync_v2,"
                   "cuMemHostGetDevicePointer_v2,cuMemcpyPeerAsync"));
    setenv("CUPROBE_LIBCUDA", lib, 1);
    void *h = cp_dl_load(&cp_cuda_lib, &dropped, &rec);
    CHECK(h != NULL);
    if (!h)
        return;
    api = dropped;
    CHECK(api.cuInit(0) == CP_CUDA_SUCCESS);
    cp_rt *rt = open_ok();
    void *p = &p;
    cp_rt_stream *s;
    cp_rt_event *a, *b;
    cp_rt_dptr d;
    float ms = -1;
    CHECK(cp_rt_host_alloc(rt, 64, &p) == -1 && p == NULL);
    CHECK(failed_with(rt, "cuMemHostAlloc", CP_RT_NO_SYMBOL, ""));
    cp_rt_dptr hd = 1;
    CHECK(cp_rt_host_alloc_mapped(rt, 64, &p, &hd) == -1 && hd == 0);
    CHECK(failed_with(rt, "cuMemHostGetDevicePointer_v2", CP_RT_NO_SYMBOL, ""));
    CHECK(cp_rt_stream_create(rt, &s) == 0);
    CHECK(cp_rt_capture_begin(rt, s) == -1);
    CHECK(failed_with(rt, "cuStreamBeginCapture_v2", CP_RT_NO_SYMBOL, ""));
    CHECK(cp_rt_alloc(rt, 64, &d) == 0);
    CHECK(cp_rt_copy_dtod(rt, d, d, 64, NULL) == 0);    /* the synchronous one is there */
    CHECK(cp_rt_copy_dtod(rt, d, d, 64, s) == -1);
    CHECK(failed_with(rt, "cuMemcpyDtoDAsync_v2", CP_RT_NO_SYMBOL, ""));
    CHECK(cp_rt_event_create(rt, &a) == 0 && cp_rt_event_create(rt, &b) == 0);
    CHECK(cp_rt_event_record(rt, a, NULL) == 0 && cp_rt_event_record(rt, b, NULL) == 0);
    CHECK(api.cuEventElapsedTime == NULL && api.cuEventElapsedTime_v1 != NULL);
    CHECK(cp_rt_event_elapsed_ms(rt, b, a, &ms) == -1 || ms <= 0.0f);
    CHECK(cp_rt_event_elapsed_ms(rt, a, b, &ms) == 0 && ms >= 0.0f);
    cp_rt_close(rt);

    /* neither name: the versioned one is named */
    api.cuEventElapsedTime_v1 = NULL;
    rt = open_ok();
    CHECK(cp_rt_event_create(rt, &a) == 0 && cp_rt_event_record(rt, a, NULL) == 0);
    CHECK(cp_rt_event_elapsed_ms(rt, a, a, &ms) == -1);
    CHECK(failed_with(rt, "cuEventElapsedTime_v2", CP_RT_NO_SYMBOL, ""));
    cp_rt_close(rt);

    /* kept loaded (cuInit ran in it); the first fake again */
    api = keep;
    setenv("CUPROBE_LIBCUDA", fake_cuda, 1);
    unlink(lib);
    rmdir(dir);
}

int main(void)
{
    char fakes[PATH_MAX];
    cp_lib_load rec;
    snprintf(fakes, sizeof fakes, "%s", env_or("CUPROBE_TEST_FAKES", own_fakes()));
    /* include= is relative to the scenario's folder (/tmp): the real path */
    if (!realpath(env_or("CUPROBE_TEST_SCENARIOS", "tests/fakes/scenarios"), scenarios)) {
        printf("cannot find the scenarios\n");
        return 1;
    }
    snprintf(fake_cuda, sizeof fake_cuda, "%.*s/libcuda.so.1", PATH_MAX - 20, fakes);
    if (!exists(fake_cuda)) {
        printf("skip: fake libcuda not found in '%s' (set CUPROBE_TEST_FAKES)\n", fakes);
        return TEST_END();
    }
    int fd = mkstemp(scen);
    if (fd < 0 || close(fd) != 0) {
        printf("cannot make a scenario file\n");
        return 1;
    }
    unsetenv("CUDA_VISIBLE_DEVICES");
    setenv("CUPROBE_LIBCUDA", fake_cuda, 1);
    if (!cp_dl_load(&cp_cuda_lib, &api, &rec)) {
        printf("cannot load '%s': %s\n", fake_cuda, rec.error);
        return 1;
    }
    RUN(test_open_and_mem_info);
    RUN(test_ctx_fail);
    RUN(test_memory_and_copies);
    RUN(test_close_frees_leftovers);
    RUN(test_oom);
    RUN(test_host_out_of_memory);
    RUN(test_round_trip);
    RUN(test_other_kernels);
    RUN(test_module_failures);
    RUN(test_wrong_element);
    RUN(test_launch_fail);
    RUN(test_illegal_address);
    RUN(test_events);
    RUN(test_graph);
    RUN(test_sync_hang);
    RUN(test_mapped_and_peers);
    RUN(test_dropped_symbols);
    unlink(scen);
    return TEST_END();
}
