/*
 * Hardware counters of a trace (`cuprobe trace --counters`): PM sampling's
 * samples are time intervals, each with SM and DRAM throughput as a share
 * of peak; each kernel name gets the mean of the samples that overlap its
 * runs, weighted by the overlap, and a label: compute-bound, memory-bound or
 * neither.  Samples where nothing ran are left out; a sample that overlaps
 * two concurrent kernels counts for both (PM sampling sees the whole GPU).
 * The samples' clock is CPU-based like CUPTI's activity timestamps; should it
 * be another (CLOCK_REALTIME or CLOCK_MONOTONIC), the COUNTERS record's pair
 * of readings moves it, and the clock that lines the samples up with the
 * kernels best is the one used (docs/trace-format.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cuprobe/trace.h"
#include "util/alloc.h"
#include "sum.h"

typedef struct {
    int64_t s, e;
    size_t row;
} kspan;

static int by_kstart(const void *a, const void *b)
{
    const kspan *x = a, *y = b;
    return x->s < y->s ? -1 : x->s > y->s ? 1 : (x->e > y->e) - (x->e < y->e);
}

typedef struct {
    double sm_w, sm_sum, dram_w, dram_sum;
    int64_t ns;
} acc;

/* Call visit for every kernel span overlapping [s, e); kernels sorted by
 * start, pmax[i] the latest end among 0..i.  Returns the overlap in all. */
static int64_t sweep(const kspan *k, const int64_t *pmax, size_t n, int64_t s, int64_t e, acc *rows,
                     int32_t sm, int32_t dram)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {                       /* the first i whose pmax passes s */
        size_t mid = lo + (hi - lo) / 2;
        if (pmax[mid] > s) hi = mid;
        else lo = mid + 1;
    }
    int64_t all = 0;
    for (size_t i = lo; i < n && k[i].s < e; i++) {
        int64_t a = k[i].s > s ? k[i].s : s, b = k[i].e < e ? k[i].e : e;
        if (b <= a) continue;
        int64_t w = b - a;
        all = cp_trace_sat_add(all, w);
        if (!rows) continue;
        acc *r = &rows[k[i].row];
        r->ns = cp_trace_sat_add(r->ns, w);
        if (sm >= 0) { r->sm_w += (double)w; r->sm_sum += (double)w * sm / 100.0; }
        if (dram >= 0) { r->dram_w += (double)w; r->dram_sum += (double)w * dram / 100.0; }
    }
    return all;
}

static cp_trace_bound bound_of(double sm, double dram)
{
    if (isnan(sm) && isnan(dram)) return CP_BOUND_UNMEASURED;
    double a = isnan(sm) ? 0 : sm, b = isnan(dram) ? 0 : dram;
    if (a >= CP_TRACE_BOUND_PCT && a >= b) return CP_BOUND_COMPUTE;
    if (b >= CP_TRACE_BOUND_PCT) return CP_BOUND_MEMORY;
    return CP_BOUND_NEITHER;
}

/* See trace.h. */
int cp_trace_counters_attribute(const cp_trace *t, cp_trace_gpu *g)
{
    const cp_trace_rec *cfg = NULL;
    size_t nk = 0, ns = 0;
    int64_t covered = 0;                    /* the samples' lengths, summed */
    for (size_t i = 0; i < g->nk; i++) {
        g->ktab[i].sm_pct = g->ktab[i].dram_pct = NAN;
        g->ktab[i].bound = CP_BOUND_UNMEASURED;
        g->ktab[i].sampled_ns = 0;
    }
    for (size_t i = 0; i < t->n; i++) {
        const cp_trace_rec *r = &t->recs[i];
        if (r->type == CP_TREC_COUNTERS && (r->device == g->device || (r->device == CP_CTR_ALL_DEVICES && !cfg)))
            cfg = r;                            /* this device's own record wins over an all-devices one */
        if (r->type == CP_TREC_KERNEL && r->device == g->device) nk++;
        if (r->type == CP_TREC_SAMPLE && r->device == g->device) {
            ns++;
            covered = cp_trace_sat_add(covered, r->end - r->start);
        }
    }
    cp_trace_counters *c = &g->ctr;
    memset(c, 0, sizeof *c);
    if (!cfg) return 0;
    c->asked = 1;
    c->status = cfg->ctr_status < CP_CTR_STATUSES ? (cp_ctr_status)cfg->ctr_status : CP_CTR_FAILED;
    c->asked_interval_ns = cfg->bytes <= (uint64_t)CP_TRACE_MAX_DURATION ? (int64_t)cfg->bytes : 0;
    c->interval_ns = ns ? covered / (int64_t)ns : c->asked_interval_ns;   /* the trigger's own, as sampled */
    if (c->status != CP_CTR_OK) {
        c->reason = cp_trace_str(t, cfg->name);
        if (!c->reason) c->reason = "the counters could not be set up";
        return 0;
    }
    c->sm_metric = cp_trace_str(t, cfg->ctr_metric[0]);
    c->dram_metric = cp_trace_str(t, cfg->ctr_metric[1]);
    c->dram_metric2 = cp_trace_str(t, cfg->ctr_metric[2]);
    c->samples = ns;
    c->clock = "cupti";
    if (!ns || !nk || !g->nk) return 0;

    /* kernel spans by start, each with its row; a map from name id to row */
    size_t nid = t->nstrings + 1;
    size_t *row_of = cp_calloc(nid, sizeof *row_of);
    kspan *k = cp_malloc(nk * sizeof *k);
    int64_t *pmax = cp_malloc(nk * sizeof *pmax);
    acc *rows = cp_calloc(g->nk, sizeof *rows);
    int rc = -1;
    if (!row_of || !k || !pmax || !rows) goto out;
    for (size_t i = 0; i < g->nk; i++)
        if (g->ktab[i].name < nid) row_of[g->ktab[i].name] = i;
    size_t m = 0;
    for (size_t i = 0; i < t->n; i++) {
        const cp_trace_rec *r = &t->recs[i];
        if (r->type != CP_TREC_KERNEL || r->device != g->device) continue;
        size_t id = r->name < t->nstrings ? r->name : t->nstrings;   /* as the kernel table counts them */
        k[m++] = (kspan){ r->start, r->end, row_of[id] };
    }
    qsort(k, m, sizeof *k, by_kstart);
    for (size_t i = 0; i < m; i++) pmax[i] = i && pmax[i - 1] > k[i].e ? pmax[i - 1] : k[i].e;

    /* the clock: the shift that lines the samples up with the kernels best */
    static const char *const clocks[] = { "cupti", "realtime", "monotonic" };
    int64_t shift[3] = { 0, 0, 0 };
    int have[3] = { 1, cfg->clk_real > 0 && cfg->clk_real <= CP_TRACE_MAX_TIME,
                    cfg->clk_mono > 0 && cfg->clk_mono <= CP_TRACE_MAX_TIME };   /* no shift can wrap */
    if (have[1]) shift[1] = cfg->start - cfg->clk_real;
    if (have[2]) shift[2] = cfg->start - cfg->clk_mono;
    int best = 0;
    int64_t most = -1;
    for (int ci = 0; ci < 3; ci++) {
        if (!have[ci]) continue;
        int64_t sum = 0;
        for (size_t i = 0; i < t->n; i++) {
            const cp_trace_rec *r = &t->recs[i];
            if (r->type == CP_TREC_SAMPLE && r->device == g->device)
                sum = cp_trace_sat_add(sum, sweep(k, pmax, m, r->start + shift[ci], r->end + shift[ci], NULL, 0, 0));
        }
        if (sum > most) { most = sum; best = ci; }
    }
    c->clock = clocks[best];
    for (size_t i = 0; i < t->n; i++) {
        const cp_trace_rec *r = &t->recs[i];
        if (r->type == CP_TREC_SAMPLE && r->device == g->device)
            c->sampled_kernel_ns = cp_trace_sat_add(c->sampled_kernel_ns,
                                                    sweep(k, pmax, m, r->start + shift[best], r->end + shift[best],
                                                          rows, r->sm_cpct, r->dram_cpct));
    }
    for (size_t i = 0; i < g->nk; i++) {
        cp_trace_kernel_row *row = &g->ktab[i];
        row->sampled_ns = rows[i].ns;
        row->sm_pct = rows[i].sm_w > 0 ? rows[i].sm_sum / rows[i].sm_w : NAN;
        row->dram_pct = rows[i].dram_w > 0 ? rows[i].dram_sum / rows[i].dram_w : NAN;
        row->bound = bound_of(row->sm_pct, row->dram_pct);
    }
    rc = 0;
out:
    free(row_of);
    free(k);
    free(pmax);
    free(rows);
    return rc;
}

/* See trace.h. */
const char *cp_trace_bound_name(cp_trace_bound b)
{
    static const char *const n[] = { "unmeasured", "compute-bound", "memory-bound", "neither" };
    return (unsigned)b < sizeof n / sizeof n[0] ? n[b] : "?";
}

/* See trace.h. */
const char *cp_trace_ctr_status_name(cp_ctr_status s)
{
    static const char *const n[] = { "ok", "unsupported", "no-permission", "busy", "no-api", "failed" };
    return (unsigned)s < sizeof n / sizeof n[0] ? n[s] : "failed";
}
