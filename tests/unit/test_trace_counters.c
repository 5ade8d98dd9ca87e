/*
 * Hardware counters in a trace (`cuprobe trace --counters`): the COUNTERS and
 * SAMPLE records through the writer and reader, the samples weighed on the
 * kernels they overlap (exact means), the labels, the clock found by lining
 * samples up with kernels, the reasons counters are missing, the renderers
 * (JSON beside docs/trace.schema.json), and every allocation failure.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "json_check.h"
#include "trace_test.h"
#include "cuprobe/trace.h"
#include "util/alloc.h"

static cp_trace_rec kern(int64_t s, int64_t e, uint32_t name)
{
    return (cp_trace_rec){ .type = CP_TREC_KERNEL, .start = s, .end = e, .name = name };
}

static cp_trace_rec sample(int64_t s, int64_t e, int32_t sm, int32_t dram)
{
    return (cp_trace_rec){ .type = CP_TREC_SAMPLE, .start = s, .end = e, .sm_cpct = sm, .dram_cpct = dram };
}

static cp_trace_rec config(uint32_t dev, uint32_t status, int64_t now, int64_t real, int64_t mono)
{
    return (cp_trace_rec){ .type = CP_TREC_COUNTERS, .device = dev, .ctr_status = status, .start = now, .end = now,
                           .clk_real = real, .clk_mono = mono, .bytes = 500,
                           .ctr_metric = { CP_TRACE_COUNTER_STRINGS, CP_TRACE_COUNTER_STRINGS + 2, 0 } };
}

/* Kernels from base on: fma 0-1000, triad 1000-2000, chase 2000-2500, fma
 * 3000-4000, solo 5000-5100, unseen 6000-6100; samples at base - shift. */
static void three(fbuf *f, int64_t base, int64_t shift, cp_trace_rec cfg)
{
    put_hdr(f, 9);
    put_str(f, 1, "fma");
    put_str(f, 2, "triad");
    put_str(f, 3, "chase");
    put_str(f, 4, "solo");
    put_str(f, 5, "unseen");
    put_str(f, CP_TRACE_COUNTER_STRINGS, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
    put_str(f, CP_TRACE_COUNTER_STRINGS + 2, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
    put(f, cfg);
    static const struct { int64_t s, e; uint32_t n; } k[] = {
        { 0, 1000, 1 }, { 1000, 2000, 2 }, { 2000, 2500, 3 }, { 3000, 4000, 1 }, { 5000, 5100, 4 }, { 6000, 6100, 5 } };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) put(f, kern(base + k[i].s, base + k[i].e, k[i].n));
    static const struct { int64_t s, e; int32_t sm, dram; } s[] = {
        { 0, 500, 9000, 1000 }, { 500, 1000, 9400, 600 }, { 1000, 1500, 2000, 9000 }, { 1500, 2000, 3000, 8000 },
        { 2000, 2500, 200, 300 }, { 2500, 3000, 0, 0 }, { 3000, 4000, 8800, 1400 },
        { 5000, 5100, 7000, CP_CTR_NO_VALUE } };
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        put(f, sample(base - shift + s[i].s, base - shift + s[i].e, s[i].sm, s[i].dram));
}

static void analyze(fbuf *f, cp_trace *t, cp_trace_report *r)
{
    char err[128];
    CHECK(cp_trace_parse(f->b, f->n, t, err, sizeof err) == 0);
    CHECK(cp_trace_analyze(t, 1, NULL, r) == 0);
    CHECK_I64(r->ngpus, 1);
}

static const cp_trace_kernel_row *row(const cp_trace_gpu *g, const char *name)
{
    for (size_t i = 0; i < g->nk; i++)
        if (strcmp(g->ktab[i].label, name) == 0) return &g->ktab[i];
    CHECK(!"a kernel row is missing");
    return &g->ktab[0];
}

static void test_roundtrip(void)
{
    unsigned char b[256];
    cp_trace_rec c = config(3, CP_CTR_PRIVILEGES, 123456, 1700000000000000000LL, 987654321);
    c.name = CP_TRACE_COUNTER_STRINGS + 8;
    c.ctr_metric[2] = 77;
    size_t n = cp_trace_encode_header(b, sizeof b, 1, 0);
    size_t k = cp_trace_encode_rec(b + n, sizeof b - n, &c);
    CHECK_I64(k, 8 + CP_TREC_COUNTERS_BODY);
    n += k;
    k = cp_trace_encode_rec(b + n, sizeof b - n, &(cp_trace_rec){ .type = CP_TREC_SAMPLE, .start = 5, .end = 9, .device = 2,
                                                                   .sm_cpct = 9123, .dram_cpct = CP_CTR_NO_VALUE });
    CHECK_I64(k, 8 + CP_TREC_SAMPLE_BODY);
    n += k;
    cp_trace t;
    char err[128];
    CHECK(cp_trace_parse(b, n, &t, err, sizeof err) == 0);
    CHECK_I64(t.n, 2);
    const cp_trace_rec *a = &t.recs[0], *s = &t.recs[1];
    CHECK_I64(a->type, CP_TREC_COUNTERS);
    CHECK_I64(a->device, 3);
    CHECK_I64(a->ctr_status, CP_CTR_PRIVILEGES);
    CHECK_I64(a->start, 123456);
    CHECK_I64(a->clk_real, 1700000000000000000LL);
    CHECK_I64(a->clk_mono, 987654321);
    CHECK_I64(a->bytes, 500);
    CHECK_I64(a->name, CP_TRACE_COUNTER_STRINGS + 8);
    CHECK_I64(a->ctr_metric[0], CP_TRACE_COUNTER_STRINGS);
    CHECK_I64(a->ctr_metric[1], CP_TRACE_COUNTER_STRINGS + 2);
    CHECK_I64(a->ctr_metric[2], 77);
    CHECK_I64(s->type, CP_TREC_SAMPLE);
    CHECK_I64(s->start, 5);
    CHECK_I64(s->end, 9);
    CHECK_I64(s->device, 2);
    CHECK_I64(s->sm_cpct, 9123);
    CHECK_I64(s->dram_cpct, CP_CTR_NO_VALUE);
    cp_trace_free(&t);
}

/* The worked example of docs/trace-format.md's counters part. */
static void test_attribution(void)
{
    static fbuf f;
    cp_trace t;
    cp_trace_report r;
    three(&f, 1000000, 0, config(0, CP_CTR_OK, 1000000, 0, 0));
    analyze(&f, &t, &r);
    const cp_trace_gpu *g = &r.gpus[0];
    CHECK(g->ctr.asked);
    CHECK_I64(g->ctr.status, CP_CTR_OK);
    CHECK_STR(g->ctr.sm_metric, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
    CHECK_STR(g->ctr.dram_metric, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
    CHECK(g->ctr.dram_metric2 == NULL);
    CHECK_STR(g->ctr.clock, "cupti");
    CHECK_I64(g->ctr.samples, 8);
    CHECK_I64(g->ctr.interval_ns, 512);             /* the samples' mean length */
    CHECK_I64(g->ctr.asked_interval_ns, 500);
    CHECK_I64(g->ctr.sampled_kernel_ns, 3600);       /* every kernel but unseen's 100 ns */
    CHECK_I64(g->kernel_ns, 3700);
    /* the span is the kernels' alone: the counters' records are on their own clock */
    CHECK_I64(g->span_ns, 6100);
    CHECK_I64(g->startup_ns, 0);
    const cp_trace_kernel_row *fma = row(g, "fma"), *triad = row(g, "triad"), *chase = row(g, "chase"),
                              *solo = row(g, "solo"), *unseen = row(g, "unseen");
    CHECK(fabs(fma->sm_pct - 90.0) < 1e-9);           /* (90*500 + 94*500 + 88*1000) / 2000 */
    CHECK(fabs(fma->dram_pct - 11.0) < 1e-9);
    CHECK_I64(fma->sampled_ns, 2000);
    CHECK_I64(fma->bound, CP_BOUND_COMPUTE);
    CHECK(fabs(triad->sm_pct - 25.0) < 1e-9);
    CHECK(fabs(triad->dram_pct - 85.0) < 1e-9);
    CHECK_I64(triad->bound, CP_BOUND_MEMORY);
    CHECK(fabs(chase->sm_pct - 2.0) < 1e-9);
    CHECK(fabs(chase->dram_pct - 3.0) < 1e-9);
    CHECK_I64(chase->bound, CP_BOUND_NEITHER);
    CHECK(fabs(solo->sm_pct - 70.0) < 1e-9);          /* no DRAM figure: SM alone names it */
    CHECK(isnan(solo->dram_pct));
    CHECK_I64(solo->bound, CP_BOUND_COMPUTE);
    CHECK(isnan(unseen->sm_pct) && isnan(unseen->dram_pct));
    CHECK_I64(unseen->sampled_ns, 0);
    CHECK_I64(unseen->bound, CP_BOUND_UNMEASURED);
    CHECK_STR(cp_trace_bound_name(CP_BOUND_MEMORY), "memory-bound");
    CHECK_STR(cp_trace_bound_name((cp_trace_bound)9), "?");
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* Concurrent kernels share the samples that overlap both; the threshold. */
static void test_concurrent_and_threshold(void)
{
    static fbuf f;
    cp_trace t;
    cp_trace_report r;
    put_hdr(&f, 9);
    put_str(&f, 1, "a");
    put_str(&f, 2, "b");
    put(&f, config(0, CP_CTR_OK, 0, 0, 0));
    put(&f, kern(0, 1000, 1));
    put(&f, kern(200, 400, 2));                        /* inside a: both get the 200-400 samples */
    put(&f, kern(1000, 1100, 2));
    put(&f, sample(0, 200, 6000, 5999));
    put(&f, sample(200, 400, 1000, 8000));
    put(&f, sample(400, 1000, 6000, 0));
    put(&f, sample(1000, 1100, 5999, 6000));
    analyze(&f, &t, &r);
    const cp_trace_gpu *g = &r.gpus[0];
    const cp_trace_kernel_row *a = row(g, "a"), *b = row(g, "b");
    CHECK(fabs(a->sm_pct - (60.0 * 800 + 10.0 * 200) / 1000) < 1e-9);   /* 50 */
    CHECK(fabs(a->dram_pct - (59.99 * 200 + 80.0 * 200) / 1000) < 1e-9); /* 27.998 */
    CHECK_I64(a->bound, CP_BOUND_NEITHER);
    CHECK(fabs(b->sm_pct - (10.0 * 200 + 59.99 * 100) / 300) < 1e-9);
    CHECK(fabs(b->dram_pct - (80.0 * 200 + 60.0 * 100) / 300) < 1e-9);
    CHECK_I64(b->bound, CP_BOUND_MEMORY);
    CHECK_I64(g->ctr.sampled_kernel_ns, 1300);         /* overlaps counted per kernel */
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* Samples on CLOCK_MONOTONIC: the COUNTERS record's readings move them. */
static void test_clock(void)
{
    static fbuf f;
    cp_trace t;
    cp_trace_report r;
    /* CUPTI read 6e9 when CLOCK_MONOTONIC read 1e9: monotonic + 5e9 is CUPTI's clock */
    three(&f, 10000000000LL, 5000000000LL, config(0, CP_CTR_OK, 6000000000LL, 1700000000000000000LL, 1000000000LL));
    analyze(&f, &t, &r);
    const cp_trace_gpu *g = &r.gpus[0];
    CHECK_STR(g->ctr.clock, "monotonic");
    CHECK(fabs(row(g, "fma")->sm_pct - 90.0) < 1e-9);
    CHECK_I64(row(g, "triad")->bound, CP_BOUND_MEMORY);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* readings out of bounds are not used (no shift can wrap) */
    three(&f, 10000000000LL, 0, config(0, CP_CTR_OK, 6000000000LL, INT64_MAX, -1));
    analyze(&f, &t, &r);
    CHECK_STR(r.gpus[0].ctr.clock, "cupti");
    CHECK(fabs(row(&r.gpus[0], "fma")->sm_pct - 90.0) < 1e-9);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* Why counters are missing: said per GPU; another GPU's record is not this one's. */
static void test_missing(void)
{
    static fbuf f;
    cp_trace t;
    cp_trace_report r;
    put_hdr(&f, 9);
    put_str(&f, CP_TRACE_COUNTER_STRINGS + 8, "no permission to read GPU counters");
    cp_trace_rec c = config(0, CP_CTR_PRIVILEGES, 0, 0, 0);
    c.name = CP_TRACE_COUNTER_STRINGS + 8;
    put(&f, c);
    put(&f, kern(0, 100, 0));
    put(&f, sample(0, 100, 9000, 9000));               /* ignored: the status says missing */
    analyze(&f, &t, &r);
    CHECK(r.gpus[0].ctr.asked);
    CHECK_I64(r.gpus[0].ctr.status, CP_CTR_PRIVILEGES);
    CHECK_STR(r.gpus[0].ctr.reason, "no permission to read GPU counters");
    CHECK(isnan(r.gpus[0].ktab[0].sm_pct));
    CHECK_STR(cp_trace_ctr_status_name(r.gpus[0].ctr.status), "no-permission");
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* one record for every device, without a reason string, and an unknown status */
    put_hdr(&f, 9);
    put(&f, config(CP_CTR_ALL_DEVICES, 77, 0, 0, 0));
    put(&f, kern(0, 100, 0));
    analyze(&f, &t, &r);
    CHECK_I64(r.gpus[0].ctr.status, CP_CTR_FAILED);
    CHECK_STR(r.gpus[0].ctr.reason, "the counters could not be set up");
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* GPU 1's record says nothing of GPU 0; without any, counters were not asked for */
    put_hdr(&f, 9);
    put(&f, config(1, CP_CTR_UNSUPPORTED, 0, 0, 0));
    put(&f, kern(0, 100, 0));
    analyze(&f, &t, &r);
    CHECK(!r.gpus[0].ctr.asked);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* asked and set up, but no sample came: every kernel unmeasured */
    put_hdr(&f, 9);
    put(&f, config(0, CP_CTR_OK, 0, 0, 0));
    put(&f, kern(0, 100, 0));
    analyze(&f, &t, &r);
    CHECK_I64(r.gpus[0].ctr.samples, 0);
    CHECK_I64(r.gpus[0].ktab[0].bound, CP_BOUND_UNMEASURED);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

static void test_renderers(void)
{
    static fbuf f;
    cp_trace t;
    cp_trace_report r;
    three(&f, 1000000, 0, config(0, CP_CTR_OK, 1000000, 0, 0));
    analyze(&f, &t, &r);
    char *s = render(0, &r, &t);
    CHECK(s && strstr(s, "hardware counters: PM sampling every 512 ns, 8 samples over 97.3 % of kernel time") != NULL);
    CHECK(s && strstr(s, "    54.1%   90.0   11.0  compute-bound  fma\n") != NULL);
    CHECK(s && strstr(s, "    27.0%   25.0   85.0  memory-bound   triad\n") != NULL);
    CHECK(s && strstr(s, "    13.5%    2.0    3.0  neither        chase\n") != NULL);
    CHECK(s && strstr(s, "     2.7%   70.0      -  compute-bound  solo\n") != NULL);
    CHECK(s && strstr(s, "unmeasured     unseen\n") != NULL);
    free(s);
    s = render(1, &r, &t);
    CHECK(s && json_ok(s));
    CHECK(s && strstr(s, "\"sm_pct\": 90, \"dram_pct\": 11, \"sampled_ns\": 2000, \"bound\": \"compute-bound\"") != NULL);
    CHECK(s && strstr(s, "\"dram_pct\": null") != NULL);
    CHECK(s && strstr(s, "\"counters\": {\"status\": \"ok\", \"reason\": null, \"method\": \"pm-sampling\"") != NULL);
    static char schema[32768];
    CHECK(schema_load("docs/trace.schema.json", schema, sizeof schema));
    static const char *const keys[] = { "\"counters\"", "\"status\"", "\"reason\"", "\"method\"", "\"sm_metric\"",
                                        "\"dram_metrics\"", "\"clock\"", "\"interval_ns\"", "\"samples\"",
                                        "\"sampled_kernel_ns\"", "\"bound_pct\"", "\"sm_pct\"", "\"dram_pct\"",
                                        "\"sampled_ns\"", "\"bound\"", NULL };
    for (int i = 0; keys[i]; i++) {
        CHECK(s && strstr(s, keys[i]) != NULL);
        CHECK(strstr(schema, keys[i]) != NULL);
    }
    CHECK(strstr(schema, "\"enum\": [\"compute-bound\", \"memory-bound\", \"neither\", \"unmeasured\"]") != NULL);
    CHECK(strstr(schema, "\"enum\": [\"ok\", \"unsupported\", \"no-permission\", \"busy\", \"no-api\", \"failed\"]") != NULL);
    free(s);
    s = render(2, &r, &t);                             /* the timeline leaves the counters' records out */
    CHECK(s && json_ok(s));
    CHECK(s && !strstr(s, "\"name\": \"?\""));
    free(s);
    s = render(3, &r, &t);
    CHECK(s && strstr(s, "<th>SM %</th><th>DRAM %</th><th>bound</th>") != NULL);
    CHECK(s && strstr(s, "<td>90.0</td><td>11.0</td><td>compute-bound</td>") != NULL);
    free(s);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
    /* missing: one line with the reason, in every renderer */
    put_hdr(&f, 9);
    put_str(&f, CP_TRACE_COUNTER_STRINGS + 8, "this GPU or driver has no PM sampling <\x1b[1m>");
    cp_trace_rec c = config(0, CP_CTR_UNSUPPORTED, 0, 0, 0);
    c.name = CP_TRACE_COUNTER_STRINGS + 8;
    put(&f, c);
    put(&f, kern(0, 100, 0));
    analyze(&f, &t, &r);
    s = render(0, &r, &t);
    CHECK(s && strstr(s, "  hardware counters missing: this GPU or driver has no PM sampling") != NULL);
    CHECK(s && !strchr(s, '\x1b'));
    free(s);
    s = render(1, &r, &t);
    CHECK(s && json_ok(s));
    CHECK(s && strstr(s, "\"status\": \"unsupported\"") != NULL);
    CHECK(s && !strstr(s, "\"sm_pct\""));
    free(s);
    s = render(3, &r, &t);
    CHECK(s && strstr(s, "<p>Hardware counters missing: this GPU or driver has no PM sampling &lt;") != NULL);
    free(s);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* Every allocation of the attribution may fail: reported, nothing leaks. */
static void test_alloc_failures(void)
{
    static fbuf f;
    three(&f, 1000000, 0, config(0, CP_CTR_OK, 1000000, 0, 0));
    CHECK(alloc_sweep(400, parse_analyze_run, &(sweep_trace){ &f, NULL }) > 0);
}

int main(void)
{
    RUN(test_roundtrip);
    RUN(test_attribution);
    RUN(test_concurrent_and_threshold);
    RUN(test_clock);
    RUN(test_missing);
    RUN(test_renderers);
    RUN(test_alloc_failures);
    return TEST_END();
}
