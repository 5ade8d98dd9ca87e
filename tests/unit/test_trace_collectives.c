/*
 * NCCL's collectives in a trace (src/lib/trace/collectives.c): a job's
 * ranks, one process each, matched collective by collective in order while
 * the kernels' names agree; each rank's wait beyond the shortest; the
 * slowest rank; one rank alone; the renderers; every allocation failure.
 */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "trace_test.h"
#include "cuprobe/trace.h"
#include "util/alloc.h"

#define AR "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"

static cp_trace_rec kern(int64_t s, int64_t e, uint32_t name)
{
    return (cp_trace_rec){ .type = CP_TREC_KERNEL, .start = s, .end = e, .name = name };
}

/* A rank: a GEMM, then collectives of the given lengths (ns), the last of
 * name id `last` (1 all-reduce, 3 broadcast, 4 all-gather); its clock is
 * off by `skew` (each rank's durations are its GPU's own). */
static void rank(fbuf *f, uint32_t pid, int64_t skew, const int64_t *len, size_t n, uint32_t last)
{
    put_hdr(f, pid);
    put_str(f, 1, AR);
    put_str(f, 2, "gemm");
    put_str(f, 3, "ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<4096ul>)");
    put_str(f, 4, "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)");
    int64_t t = skew + 1000;
    put(f, kern(t, t + 5000, 2));
    t += 5000;
    for (size_t i = 0; i < n; i++) {
        put(f, kern(t, t + len[i], i + 1 == n ? last : 1));
        t += len[i] + 100;
    }
}

static void parse3(fbuf *f, cp_trace *t, size_t n)
{
    char err[128];
    for (size_t i = 0; i < n; i++) CHECK(cp_trace_parse(f[i].b, f[i].n, &t[i], err, sizeof err) == 0);
}

static const cp_trace_gpu *of(const cp_trace_report *r, uint32_t pid)
{
    for (size_t i = 0; i < r->ngpus; i++)
        if (r->gpus[i].pid == pid) return &r->gpus[i];
    CHECK(!"a rank is missing");
    return &r->gpus[0];
}

static void three_ranks(fbuf *f)
{
    /* collective 1: 500, 200, 400 (rank 12 came last); 2: 600, 100, 350; 3: the names part */
    static const int64_t a[] = { 500, 600, 50 }, b[] = { 200, 100, 50 }, c[] = { 400, 350, 50 };
    rank(&f[0], 11, 0, a, 3, 3);
    rank(&f[1], 12, 777777, b, 3, 4);
    rank(&f[2], 13, -5000, c, 3, 3);
}

static void test_three_ranks(void)
{
    static fbuf f[3];
    cp_trace t[3];
    cp_trace_report r;
    three_ranks(f);
    parse3(f, t, 3);
    CHECK(cp_trace_analyze(t, 3, NULL, &r) == 0);
    CHECK_I64(r.ngpus, 3);
    CHECK_I64(r.coll.ranks, 3);
    CHECK_I64(r.coll.matched, 2);                   /* the third collective's names differ */
    CHECK_I64(of(&r, 11)->nccl_kernels, 3);
    CHECK_I64(of(&r, 11)->nccl_ns, 1150);
    CHECK_I64(of(&r, 11)->nccl_wait_ns, 300 + 500);
    CHECK_I64(of(&r, 12)->nccl_wait_ns, 0);
    CHECK_I64(of(&r, 13)->nccl_wait_ns, 200 + 250);
    CHECK(r.coll.has_slowest);
    CHECK_I64(r.gpus[r.coll.slowest].pid, 12);
    char *s = render(0, &r, &t[0]);
    CHECK(s && strstr(s, "  NCCL collectives: 3 kernels, 1.1 us (18.7 % of the busy time); waiting for the slowest "
                         "rank 800 ns (12.6 % of the span)\n") != NULL);   /* 1150 of 6150 busy; 800 of 6350 */
    CHECK(s && strstr(s, "ranks: 3 GPU(s) ran NCCL collectives, 2 matched across them in order; the slowest: "
                         "process 12 on GPU 0") != NULL);
    free(s);
    s = render(1, &r, &t[0]);
    CHECK(s && strstr(s, "\"nccl\": {\"kernels\": 3, \"ns\": 1150, \"wait_ns\": 800}") != NULL);
    CHECK(s && strstr(s, "\"collectives\": {\"ranks\": 3, \"matched\": 2, \"slowest\": {\"pid\": 12, \"device\": 0}}") != NULL);
    free(s);
    cp_trace_report_free(&r);
    for (int i = 0; i < 3; i++) cp_trace_free(&t[i]);
}

static void test_alone_and_none(void)
{
    static fbuf f[2];
    static const int64_t a[] = { 500, 600 };
    rank(&f[0], 21, 0, a, 2, 1);
    rank(&f[1], 22, 0, a, 0, 1);                    /* no collectives: compute alone */
    cp_trace t[2];
    cp_trace_report r;
    parse3(f, t, 2);
    CHECK(cp_trace_analyze(t, 2, NULL, &r) == 0);
    CHECK_I64(r.coll.ranks, 1);
    CHECK_I64(r.coll.matched, 0);
    CHECK(!r.coll.has_slowest);
    CHECK_I64(of(&r, 21)->nccl_ns, 1100);
    CHECK_I64(of(&r, 21)->nccl_wait_ns, 0);
    CHECK_I64(of(&r, 22)->nccl_kernels, 0);
    char *s = render(0, &r, &t[0]);
    CHECK(s && strstr(s, "  NCCL collectives: 2 kernels") != NULL && strstr(s, "waiting for the slowest") == NULL &&
          strstr(s, "\nranks:") == NULL);
    free(s);
    s = render(1, &r, &t[0]);
    CHECK(s && strstr(s, "\"collectives\": {\"ranks\": 1, \"matched\": 0, \"slowest\": null}") != NULL);
    free(s);
    cp_trace_report_free(&r);
    for (int i = 0; i < 2; i++) cp_trace_free(&t[i]);
}

static int analyze3_run(void *ctx, long n)
{
    fbuf *f = ctx;
    cp_trace t[3];
    cp_trace_report r;
    parse3(f, t, 3);
    cp_alloc_fail_at(n);
    int how = SWEEP_REFUSED;
    if (cp_trace_analyze(t, 3, NULL, &r) == 0) {
        how = cp_alloc_refused() == 0 ? SWEEP_THROUGH : SWEEP_SHORT;
        CHECK(how == SWEEP_THROUGH || r.coll.ranks == 3);   /* a refusal is an error, never a quiet zero */
        cp_trace_report_free(&r);
    }
    for (int i = 0; i < 3; i++) cp_trace_free(&t[i]);
    return how;
}

static void test_alloc_failures(void)
{
    static fbuf f[3];
    three_ranks(f);
    CHECK(alloc_sweep(400, analyze3_run, f) > 0);
}

int main(void)
{
    RUN(test_three_ranks);
    RUN(test_alone_and_none);
    RUN(test_alloc_failures);
    return TEST_END();
}
