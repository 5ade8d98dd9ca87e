/* doctor --level 2's libraries over facts: the "libl2." answers' round trip
 * (what snapshots carry, keyed by library name), a cut block told as
 * truncated, and libraries.run's verdicts for the paths the fakes do not
 * reach (the child's own skip, a child that could not start or died, every
 * library missing), and level 1 listing no such check. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "cuprobe/report.h"
#include "facts/facts_kv.h"

static void ok_lib(cp_lib_l2 *l, const char *path)
{
    snprintf(l->step, sizeof l->step, "done");
    snprintf(l->result, sizeof l->result, "ok");
    snprintf(l->path, sizeof l->path, "%s", path);
    l->ranks = 1;
    l->elements = 4096;
    l->wrong = 0;
    l->load_us = 81000;
    l->init_us = 120500;
    l->run_us = 900;
    l->rss_before_bytes = 200ll << 20;
    l->rss_loaded_bytes = 900ll << 20;
    l->rss_after_bytes = 910ll << 20;
    l->hwm_after_bytes = 950ll << 20;
}

static cp_facts *healthy(void)
{
    cp_facts *f = malloc(sizeof *f);
    cp_facts_init(f);
    snprintf(f->origin, sizeof f->origin, "live");
    f->cuda.run.state = CP_PROBE_DONE;
    f->cuda.init_result = 0;
    f->cuda.ndev = 1;
    f->cuda.device_count = 1;
    f->cuda.l2_level = 2;
    cp_libs_l2_facts *L = &f->libs_l2;
    L->level = 2;
    L->run.state = CP_PROBE_DONE;
    L->device = 0;
    L->rss_start_bytes = 3ll << 20;
    L->rss_ctx_bytes = 180ll << 20;
    L->hwm_bytes = 1500ll << 20;
    for (int i = 0; i < CP_L2_NLIBS; i++) ok_lib(&L->lib[i], "/usr/lib/libx.so");
    return f;
}

/* The status of libraries.run at level, its summary|evidence|fix in ev. */
static int status_of(const cp_facts *f, int level, char *ev, size_t cap)
{
    cp_report r;
    if (cp_doctor(f, level, &r) != 0) return -2;
    int s = -1;
    for (int i = 0; i < r.nfindings; i++)
        if (strcmp(r.findings[i].check, "libraries.run") == 0) {
            s = (int)r.findings[i].status;
            snprintf(ev, cap, "%s|%s|%s", r.findings[i].summary, r.findings[i].evidence, r.findings[i].fix);
        }
    cp_report_free(&r);
    return s;
}

static void test_round_trip(void)
{
    cp_facts *a = healthy(), *b = malloc(sizeof *b);
    cp_lib_l2 *l = &a->libs_l2.lib[CP_L2_CUDNN];
    snprintf(l->result, sizeof l->result, "wrong");
    l->wrong = 2;
    l->wrong_index = 5;
    snprintf(l->wrong_expected, sizeof l->wrong_expected, "-23");
    snprintf(l->wrong_got, sizeof l->wrong_got, "-21.5");
    a->libs_l2.lib[CP_L2_NCCL].ranks = 8;
    snprintf(a->libs_l2.run.stage, sizeof a->libs_l2.run.stage, "done");
    cp_buf buf = { 0 };
    cp_facts_put_libs_l2(&buf, &a->libs_l2);
    CHECK(!buf.failed);
    CHECK(strstr(buf.data, "libl2.cudnn.wrong_got -21.5\n") != NULL);
    CHECK(strstr(buf.data, "libl2.nccl.ranks 8\n") != NULL);
    CHECK(strstr(buf.data, "libl2.end ok\n") != NULL);
    cp_facts_init(b);
    char err[160];
    CHECK_I64(cp_facts_load(buf.data, buf.len, b, err, sizeof err), CP_KV_LIBL2);
    CHECK_I64(b->libs_l2.level, 2);
    CHECK_I64(b->libs_l2.hwm_bytes, 1500ll << 20);
    CHECK_STR(b->libs_l2.run.stage, "done");
    CHECK_STR(b->libs_l2.lib[CP_L2_CUDNN].result, "wrong");
    CHECK_I64(b->libs_l2.lib[CP_L2_CUDNN].wrong_index, 5);
    CHECK_I64(b->libs_l2.lib[CP_L2_NCCL].ranks, 8);
    CHECK_I64(b->libs_l2.lib[CP_L2_CUBLAS].rss_loaded_bytes, 900ll << 20);
    /* a bad number is refused */
    CHECK_I64(cp_facts_load("libl2.cublas.load_us x\n", 23, b, err, sizeof err), -1);
    cp_buf_free(&buf);
    /* not asked: nothing written */
    cp_libs_l2_facts_init(&a->libs_l2);
    cp_facts_put_libs_l2(&buf, &a->libs_l2);
    CHECK_I64((int64_t)buf.len, 0);
    cp_buf_free(&buf);
    free(a);
    free(b);
}

static void test_snapshot_cut(void)
{
    cp_facts *f = malloc(sizeof *f);
    cp_facts_init(f);
    static const char cut[] = "answers.blocks meta host cuda nvml fw libs\nmeta.end ok\nhost.end ok\ncuda.end ok\n"
                              "nvml.end ok\nfw.end ok\nlibs.end ok\nlibl2.level 2\nlibl2.cublas.result ok\n";
    char err[200];
    CHECK_I64(cp_facts_load_snapshot(cut, sizeof cut - 1, f, err, sizeof err), -1);
    CHECK(strstr(err, "the 'libl2' answers are incomplete") != NULL);
    static const char whole[] = "answers.blocks meta host cuda nvml fw libs\nmeta.end ok\nhost.end ok\ncuda.end ok\n"
                                "nvml.end ok\nfw.end ok\nlibs.end ok\nlibl2.level 2\nlibl2.end ok\n";
    CHECK(cp_facts_load_snapshot(whole, sizeof whole - 1, f, err, sizeof err) > 0);
    CHECK_I64(f->libs_l2.level, 2);
    free(f);
}

static void test_verdicts(void)
{
    char ev[8192];
    cp_facts *f = healthy();
    CHECK_I64(status_of(f, 1, ev, sizeof ev), -1);            /* level 1 lists no level-2 check */
    CHECK_I64(status_of(f, 2, ev, sizeof ev), CP_PASS);
    CHECK(strstr(ev, "cuBLAS, cuFFT, cuDNN, NVRTC, NCCL computed the CPU's answers") != NULL);
    CHECK(strstr(ev, "cuDNN: load 81.0 ms, init 120.5 ms, run 0.9 ms; RSS 200 MiB -> 900 MiB loaded and "
                     "initialised (+700 MiB), 910 MiB after the run (+10 MiB), peak 950 MiB") != NULL);
    CHECK(strstr(ev, "VmRSS 3 MiB at start, 180 MiB after cuInit and the primary context, peak 1500 MiB") != NULL);
    /* a run that gives memory back reads as a fall, not "+-2" (NCCL on the H200) */
    cp_lib_l2 *nccl = &f->libs_l2.lib[CP_L2_NCCL];
    int64_t saved = nccl->rss_after_bytes;
    nccl->rss_after_bytes = nccl->rss_loaded_bytes - (2 << 20);
    CHECK_I64(status_of(f, 2, ev, sizeof ev), CP_PASS);
    CHECK(strstr(ev, " MiB after the run (-2 MiB)") != NULL);
    CHECK(strstr(ev, "+-") == NULL);
    nccl->rss_after_bytes = saved;

    /* every library missing: a skip, not a failure */
    for (int i = 0; i < CP_L2_NLIBS; i++) {
        snprintf(f->libs_l2.lib[i].result, sizeof f->libs_l2.lib[i].result, "missing");
        snprintf(f->libs_l2.lib[i].error, sizeof f->libs_l2.lib[i].error, "no such file");
    }
    CHECK_I64(status_of(f, 2, ev, sizeof ev), CP_SKIP);
    CHECK(strstr(ev, "none of cuBLAS, cuFFT, cuDNN, NVRTC and NCCL is installed here") != NULL);

    /* the child died in cuDNN's init: named, later libraries not reached */
    free(f);
    f = healthy();
    f->libs_l2.run.state = CP_PROBE_CRASHED;
    snprintf(f->libs_l2.run.detail, sizeof f->libs_l2.run.detail, "killed by signal 11");
    for (int i = CP_L2_CUDNN; i < CP_L2_NLIBS; i++) cp_lib_l2_init(&f->libs_l2.lib[i]);
    snprintf(f->libs_l2.lib[CP_L2_CUDNN].step, sizeof f->libs_l2.lib[CP_L2_CUDNN].step, "init");
    CHECK_I64(status_of(f, 2, ev, sizeof ev), CP_FAIL);
    CHECK(strstr(ev, "the probe process died in cuDNN's init step") != NULL);
    CHECK(strstr(ev, "cuDNN: the probe process died in the init step (killed by signal 11)") != NULL);
    CHECK(strstr(ev, "NVRTC: not reached") != NULL);

    /* the child's own cuInit failed; the child could not start; not asked */
    free(f);
    f = healthy();
    snprintf(f->libs_l2.skip, sizeof f->libs_l2.skip, "cuInit did not succeed");
    CHECK_I64(status_of(f, 2, ev, sizeof ev), CP_SKIP);
    CHECK(strstr(ev, "the libraries did not run: cuInit did not succeed") != NULL);
    f->libs_l2.skip[0] = '\0';
    f->libs_l2.run.state = CP_PROBE_ERROR;
    snprintf(f->libs_l2.run.detail, sizeof f->libs_l2.run.detail, "fork: out of memory");
    CHECK_I64(status_of(f, 2, ev, sizeof ev), CP_SKIP);
    CHECK(strstr(ev, "could not be started: fork: out of memory") != NULL);
    f->libs_l2.level = CP_UNKNOWN;
    CHECK_I64(status_of(f, 2, ev, sizeof ev), CP_SKIP);
    CHECK(strstr(ev, "the libraries were not run (libcuda was not asked)") != NULL);

    /* two failures: the first named, the rest counted */
    free(f);
    f = healthy();
    cp_lib_l2 *b = &f->libs_l2.lib[CP_L2_CUBLAS], *n = &f->libs_l2.lib[CP_L2_NCCL];
    snprintf(b->result, sizeof b->result, "call");
    snprintf(b->call, sizeof b->call, "cuMemAlloc_v2");
    b->status = 2;
    snprintf(b->status_name, sizeof b->status_name, "CUDA_ERROR_OUT_OF_MEMORY");
    snprintf(n->result, sizeof n->result, "load");
    snprintf(n->error, sizeof n->error, "libfoo.so: cannot open");
    CHECK_I64(status_of(f, 2, ev, sizeof ev), CP_FAIL);
    CHECK(strstr(ev, "cuBLAS: cuMemAlloc_v2 failed (2 CUDA_ERROR_OUT_OF_MEMORY), and 1 more library failed") != NULL);
    CHECK(strstr(ev, "NCCL (/usr/lib/libx.so): does not load: libfoo.so: cannot open") != NULL);
    free(f);
}

/* Every row unknown after init, and every row of every library out as
 * libl2.NAME.<row> and back. */
static void test_every_row(void)
{
    static cp_facts a, b;
    char err[128];
    memset(&a, 0x5a, sizeof a);
    cp_facts_init(&a);
#define NUM(n, u, h) CHECK_I64(d->n, CP_UNKNOWN);
#define STR(n, sz, h) CHECK_STR(d->n, "");
    for (int i = 0; i < CP_L2_NLIBS; i++) { const cp_lib_l2 *d = &a.libs_l2.lib[i]; CP_LIB_L2_FIELDS(NUM, STR) }
#undef NUM
#undef STR
    CHECK_I64(a.libs_l2.level, CP_UNKNOWN);
    a.libs_l2.level = 2;
    int64_t v = 1000;
#define SET_I(n, u, h) d->n = v++;
#define SET_S(n, sz, h) snprintf(d->n, sizeof d->n, "s%lld", (long long)v++);
    for (int i = 0; i < CP_L2_NLIBS; i++) { cp_lib_l2 *d = &a.libs_l2.lib[i]; CP_LIB_L2_FIELDS(SET_I, SET_S) }
#undef SET_I
#undef SET_S
    cp_buf buf = { 0 };
    cp_facts_put_libs_l2(&buf, &a.libs_l2);
    CHECK(!buf.failed);
    cp_facts_init(&b);
    CHECK_I64(cp_facts_load(buf.data, buf.len, &b, err, sizeof err), CP_KV_LIBL2);
    CHECK(memcmp(a.libs_l2.lib, b.libs_l2.lib, sizeof a.libs_l2.lib) == 0);
    cp_buf_free(&buf);
}

int main(void)
{
    RUN(test_every_row);
    RUN(test_round_trip);
    RUN(test_snapshot_cut);
    RUN(test_verdicts);
    return TEST_END();
}
