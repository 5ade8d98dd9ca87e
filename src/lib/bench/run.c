/*
 * cuprobe bench's run (bench.h): check the options against the facts, run
 * the measurements in a probe child under a deadline (child.c), and turn
 * its answers into rows.  A child that hangs is killed at the deadline and
 * the row it was measuring becomes a FAILED row saying so; one that dies
 * leaves a FAILED row with its signal.  The parent never blocks past the
 * deadline (cp_probe_wait) and reaps the child (cp_probe_reap).
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench/bench_int.h"
#include "facts/kv.h"
#include "util/alloc.h"
#include "util/str.h"

#define DEFAULT_TIMEOUT_MS 60000
#define PER_EXTRA_GPU_MS 30000

/* What each row is: its title, unit and direction, by id. */
static const struct {
    const char *id, *title, *unit;
    bool higher;
} kinds[] = {
    { "context", "context, kernels, streams, events", "", true },
    { "copy.h2d.pinned.ce", "H2D, pinned, copy engine", "GB/s", true },
    { "copy.d2h.pinned.ce", "D2H, pinned, copy engine", "GB/s", true },
    { "copy.bidir.pinned.ce", "both ways, pinned, copy engines", "GB/s", true },
    { "copy.h2d.pageable.ce", "H2D, pageable, copy engine", "GB/s", true },
    { "copy.d2h.pageable.ce", "D2H, pageable, copy engine", "GB/s", true },
    { "copy.h2d.pinned.sm", "H2D, pinned, SM kernel", "GB/s", true },
    { "copy.d2h.pinned.sm", "D2H, pinned, SM kernel", "GB/s", true },
    { "copy.bidir.pinned.sm", "both ways, pinned, SM kernels", "GB/s", true },
    { "copy.d2d.ce", "device-local copy, copy engine", "GB/s", true },
    { "copy.d2d.sm", "device-local copy, SM kernel", "GB/s", true },
    { "hbm.read", "HBM read, our kernel", "GB/s", true },
    { "hbm.write", "HBM write, our kernel", "GB/s", true },
    { "peer", "peer copies", "GB/s", true },
    { "launch.plain", "launch, host cost per kernel", "us", false },
    { "launch.roundtrip", "launch to completion, round trip", "us", false },
    { "launch.graph", "launch in a CUDA graph, per kernel", "us", false },
    { "gemm.bf16", "bf16 GEMM, fp32 accumulate", "TFLOP/s", true },
    { "gemm.fp16", "fp16 GEMM, fp32 accumulate", "TFLOP/s", true },
    { "gemm.tf32", "tf32 GEMM, fp32 data", "TFLOP/s", true },
    { "gemm.fp32", "fp32 GEMM, no tensor cores", "TFLOP/s", true },
    { "nccl.allreduce", "NCCL all-reduce, bus bandwidth", "GB/s", true },
    { "bench", "the measurements", "", true },
};

static void describe(cp_bench_row *r)
{
    if (cp_str_starts_with(r->id, "peer.") && (cp_str_ends_with(r->id, ".write") || cp_str_ends_with(r->id, ".read"))) {
        bool w = cp_str_ends_with(r->id, ".write");
        snprintf(r->title, sizeof r->title, "GPU %d %s GPU %d's memory", r->device, w ? "writes" : "reads",
                 r->peer);
        cp_str_copy(r->unit, sizeof r->unit, "GB/s");
        r->higher_is_better = true;
        return;
    }
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i].id, r->id) == 0) {
            cp_str_copy(r->title, sizeof r->title, kinds[i].title);
            cp_str_copy(r->unit, sizeof r->unit, kinds[i].unit);
            r->higher_is_better = kinds[i].higher;
            return;
        }
    cp_str_copy(r->title, sizeof r->title, r->id);
    r->higher_is_better = true;
}

static void row_blank(cp_bench_row *r)
{
    memset(r, 0, sizeof *r);
    r->device = -1;
    r->peer = -1;
    r->size = CP_UNKNOWN;
    r->value = r->spread = r->ceiling = NAN;
    r->state = CP_BENCH_FAILED;
    r->ceiling_kind = CP_CEIL_NONE;
}

/* ---- the answers ---- */

typedef struct {
    cp_bench_result *r;
    bool seen[CP_BENCH_MAX_ROWS];
    bool stated[CP_BENCH_MAX_ROWS];
    bool end;
    char stage[16];
} parse_ctx;

static double to_double(const char *v)
{
    char *end;
    double d = strtod(v, &end);
    return end != v && *end == '\0' ? d : NAN;
}

static void parse_points(cp_bench_row *row, const char *v)
{
    const char *p = v;
    char tok[64];
    row->npoints = 0;
    while (cp_list_next(&p, ',', tok, sizeof tok) && row->npoints < CP_BENCH_MAX_POINTS) {
        char *colon = strchr(tok, ':'), *end;
        if (!colon) continue;
        *colon = '\0';
        long long sz = strtoll(tok, &end, 10);
        double val = to_double(colon + 1);
        if (*end != '\0' || sz <= 0) continue;
        row->point_size[row->npoints] = sz;
        row->point_value[row->npoints++] = val;
    }
}

static int on_kv(const char *key, const char *value, void *arg)
{
    parse_ctx *c = arg;
    cp_bench_result *r = c->r;
    int64_t i64;
    if (strcmp(key, "bench.skip") == 0) { cp_str_copy(r->skip_reason, sizeof r->skip_reason, value); return 0; }
    if (strcmp(key, "bench.end") == 0) { c->end = true; return 0; }
    if (strcmp(key, "bench.stage") == 0) { cp_str_copy(c->stage, sizeof c->stage, value); return 0; }
    if (strcmp(key, "bench.maxrss_kb") == 0) { if (cp_kv_i64(value, &i64)) r->child_maxrss_kb = i64; return 0; }
    if (strcmp(key, "bench.libs_rss_kb") == 0) { if (cp_kv_i64(value, &i64)) r->libs_rss_kb = i64; return 0; }
    if (strcmp(key, "bench.ndevices") == 0) { if (cp_kv_i64(value, &i64)) r->ndevices = (int)i64; return 0; }
    if (!cp_str_starts_with(key, "bench.")) return 0;
    char *end;
    long n = strtol(key + 6, &end, 10);
    if (end == key + 6 || *end != '.' || n < 0 || n >= CP_BENCH_MAX_ROWS) return 0;
    const char *field = end + 1;
    cp_bench_row *row = &r->row[n];
    if (!c->seen[n]) {
        row_blank(row);
        c->seen[n] = true;
    }
    if (strcmp(field, "id") == 0) cp_str_copy(row->id, sizeof row->id, value);
    else if (strcmp(field, "device") == 0 && cp_kv_i64(value, &i64)) row->device = (int)i64;
    else if (strcmp(field, "peer") == 0 && cp_kv_i64(value, &i64)) row->peer = (int)i64;
    else if (strcmp(field, "size") == 0 && cp_kv_i64(value, &i64)) row->size = i64;
    else if (strcmp(field, "value") == 0) row->value = to_double(value);
    else if (strcmp(field, "spread") == 0) row->spread = to_double(value);
    else if (strcmp(field, "repeats") == 0 && cp_kv_i64(value, &i64)) row->repeats = (int)i64;
    else if (strcmp(field, "detail") == 0) cp_str_copy(row->detail, sizeof row->detail, value);
    else if (strcmp(field, "points") == 0) parse_points(row, value);
    else if (strcmp(field, "state") == 0) {
        c->stated[n] = true;
        row->state = strcmp(value, "ok") == 0 ? CP_BENCH_OK : strcmp(value, "skipped") == 0 ? CP_BENCH_SKIPPED
                                                                                            : CP_BENCH_FAILED;
    }
    return 0;
}

/* Why the child's answer stops where it does, for the row it cut. */
static void cut_reason(const cp_probe_job *job, int timeout_ms, bool ended, const char *where, char *out, size_t cap)
{
    if (job->run.state == CP_PROBE_TIMEOUT)
        snprintf(out, cap, "did not finish within the %d s deadline: the GPU or its driver hung%s (the probe was killed)",
                 (timeout_ms + 999) / 1000, where);
    else if (job->run.state == CP_PROBE_CRASHED && job->run.signal != CP_UNKNOWN)
        snprintf(out, cap, "the probe process died of signal %lld (%s)%s", (long long)job->run.signal,
                 strsignal((int)job->run.signal), where);
    else if (job->run.state == CP_PROBE_ERROR)
        snprintf(out, cap, "cuprobe could not run the probe: %s", job->run.detail);
    else if (!ended)
        snprintf(out, cap, "the probe process ended without a complete answer%s", where);
    else
        out[0] = '\0';
}

/* Fold the child's answers into r: rows in the order they were announced. */
static void collect(cp_bench_result *r, const cp_probe_job *job, int timeout_ms, int job_device)
{
    parse_ctx *c = cp_calloc(1, sizeof *c);
    if (!c) return;
    c->r = r;
    if (job->out.len) (void)cp_kv_parse(job->out.data, job->out.len, on_kv, c);
    char why[200], why_start[200];
    cut_reason(job, timeout_ms, c->end, " here", why, sizeof why);
    cut_reason(job, timeout_ms, c->end, "", why_start, sizeof why_start);
    int n = 0;
    bool cut_named = false;
    for (int i = 0; i < CP_BENCH_MAX_ROWS; i++) {
        if (!c->seen[i]) continue;
        cp_bench_row *row = &r->row[i];
        if (!c->stated[i]) {   /* announced, never answered: what the hang or crash cut */
            row->state = CP_BENCH_FAILED;
            row->value = NAN;
            row->npoints = 0;
            cp_str_copy(row->detail, sizeof row->detail, why[0] ? why : "no answer for this measurement");
            cut_named = true;
        }
        describe(row);
        if (n != i) r->row[n] = *row;
        n++;
    }
    r->nrows = n;
    /* cut before any row: cuInit or the library load hung or crashed */
    if (why[0] && !cut_named && !r->skip_reason[0] && n < CP_BENCH_MAX_ROWS) {
        cp_bench_row *row = &r->row[r->nrows++];
        row_blank(row);
        cp_str_copy(row->id, sizeof row->id, "bench");
        const char *pre = strcmp(c->stage, "init") == 0 ? "in cuInit: " : c->stage[0] ? "" : "loading libcuda: ";
        cp_str_copy(row->detail, sizeof row->detail, pre);
        cp_str_append(row->detail, sizeof row->detail, "", why_start);
        row->device = job_device >= 0 ? job_device : 0;
        describe(row);
    }
    free(c);
}

/* ---- options ---- */

static int bad(char *err, size_t cap, const char *fmt, long long a, long long b)
{
    snprintf(err, cap, fmt, a, b);
    return -1;
}

/* The options against the machine: 0, or -1 with err. */
static int check_opts(const cp_bench_opts *o, const cp_facts *f, cp_bench_job *job, char *err, size_t cap)
{
    job->device = o->device;
    job->size = o->size ? o->size : CP_BENCH_DEFAULT_SIZE;
    job->iters = o->iters ? o->iters : CP_BENCH_DEFAULT_ITERS;
    job->sweep = o->sweep;
    cp_str_copy(job->only, sizeof job->only, o->only ? o->only : "");
    if (o->iters < 0 || o->iters > CP_BENCH_MAX_ITERS)
        return bad(err, cap, "--iters %lld is out of range (1 to %lld)", o->iters, CP_BENCH_MAX_ITERS);
    if (job->size < CP_BENCH_MIN_SIZE)
        return bad(err, cap, "--size %lld is below the smallest copy measured (%lld bytes)", (long long)job->size,
                   CP_BENCH_MIN_SIZE);
    if (job->size % 16)
        return bad(err, cap, "--size %lld is not a multiple of 16 bytes (the SM kernels copy 16 bytes at a time)%.0lld",
                   (long long)job->size, 0);
    if (o->device < -1) return bad(err, cap, "--device %lld is not a device ordinal%.0lld", o->device, 0);
    if (!f || f->cuda.run.state != CP_PROBE_DONE || f->cuda.init_result != 0) return 0;   /* the child finds out */
    int ndev = f->cuda.ndev;
    if (o->device >= ndev)
        return bad(err, cap, "--device %lld is not visible here (CUDA devices visible: %lld)", o->device, ndev);
    for (int d = 0; d < ndev; d++) {
        int64_t total = f->cuda.dev[d].total_mem_bytes;
        if ((o->device < 0 || o->device == d) && total != CP_UNKNOWN && total > 0 && job->size > total) {
            snprintf(err, cap, "--size %lld is past the memory of GPU %d (%lld bytes)", (long long)job->size, d,
                     (long long)total);
            return -1;
        }
    }
    return 0;
}

/* ---- the run ---- */

/* Run the measurements in the probe child (bench.h). */
int cp_bench_run(const cp_bench_opts *o, const cp_facts *f, cp_bench_result **out, char *err, size_t errcap)
{
    cp_bench_job job;
    *out = NULL;
    if (check_opts(o, f, &job, err, errcap) != 0) return -1;
    cp_bench_result *r = cp_calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    r->child_maxrss_kb = r->libs_rss_kb = r->self_maxrss_kb = CP_UNKNOWN;
    r->sweep = o->sweep;
    int ndev = f && f->cuda.run.state == CP_PROBE_DONE && f->cuda.init_result == 0 ? f->cuda.ndev : 1;
    int timeout_ms = o->timeout_ms > 0 ? o->timeout_ms
                     : DEFAULT_TIMEOUT_MS + (o->device < 0 && ndev > 1 ? (ndev - 1) * PER_EXTRA_GPU_MS : 0);
    double t0 = cp_now_ms();
    cp_probe_job pj;
    if (cp_probe_start(&pj, cp_bench_child, &job, "bench.end ok") == 0) cp_probe_wait(&pj, 1, timeout_ms);
    collect(r, &pj, timeout_ms, job.device);
    if (r->child_maxrss_kb == CP_UNKNOWN) r->child_maxrss_kb = pj.run.maxrss_kb;
    cp_buf_free(&pj.out);
    if (pj.unreaped > 0) (void)cp_probe_reap(&pj.unreaped, 1, CP_PROBE_REAP_MS);
    r->wall_ms = cp_now_ms() - t0;
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) r->self_maxrss_kb = ru.ru_maxrss;
    *out = r;
    return 0;
}

/* Free a result (bench.h); NULL does nothing. */
void cp_bench_free(cp_bench_result *r)
{
    free(r);
}
