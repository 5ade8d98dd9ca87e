/*
 * NCCL's collectives in a trace: on each process's GPU, its NCCL kernels
 * (ncclKernel_*, ncclDevKernel_*) told apart from the compute, and across
 * the processes of one trace, a data-parallel job's ranks, how long each
 * waited for the slowest.  Every rank launches the same collectives in the
 * same order, and a collective's kernel runs on every rank until the last
 * one has joined: the k-th NCCL kernels of the ranks are one collective,
 * the shortest of them is the work itself (the slowest rank came last and
 * waited for nobody), and what each rank's lasts beyond that it spent
 * waiting.  The ranks are matched in order while the kernels' names agree;
 * durations are each GPU's own, so the ranks' clocks need not agree.
 */
#include <stdlib.h>
#include <string.h>
#include "util/alloc.h"
#include "cuprobe/trace.h"
#include "sum.h"

static int is_nccl(const char *name)
{
    return name && (strncmp(name, "ncclKernel", 10) == 0 || strncmp(name, "ncclDevKernel", 13) == 0);
}

/* Is x an NCCL kernel of g's device within g's span? */
static int nccl_of(const cp_trace *t, const cp_trace_gpu *g, const cp_trace_rec *x)
{
    return x->type == CP_TREC_KERNEL && x->device == g->device && x->start >= g->span_start &&
           x->end <= g->span_end && is_nccl(cp_trace_str(t, x->name));
}

/* One rank's NCCL kernels in the order they started, and its trace. */
typedef struct {
    const cp_trace *t;
    const cp_trace_rec **k;
    size_t n;
} rank_list;

static int by_rec_start(const void *a, const void *b)
{
    const cp_trace_rec *x = *(const cp_trace_rec *const *)a, *y = *(const cp_trace_rec *const *)b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static const cp_trace *trace_of(const cp_trace *traces, size_t n, uint32_t pid)
{
    for (size_t i = 0; i < n; i++)
        if (traces[i].pid == pid) return &traces[i];
    return NULL;
}

/* See trace.h. */
int cp_trace_collectives(const cp_trace *traces, size_t n, cp_trace_report *r)
{
    memset(&r->coll, 0, sizeof r->coll);
    rank_list *ranks = r->ngpus ? cp_calloc(r->ngpus, sizeof *ranks) : NULL;
    if (r->ngpus && !ranks) return -1;
    int rc = -1;
    size_t nranks = 0, most = 0;
    for (size_t i = 0; i < r->ngpus; i++) {
        cp_trace_gpu *g = &r->gpus[i];
        g->nccl_kernels = 0;
        g->nccl_ns = g->nccl_wait_ns = 0;
        const cp_trace *t = trace_of(traces, n, g->pid);
        if (!t) continue;
        size_t cnt = 0;
        for (size_t j = 0; j < t->n; j++) cnt += nccl_of(t, g, &t->recs[j]);
        if (!cnt) continue;
        ranks[i].t = t;
        ranks[i].k = cp_malloc(cnt * sizeof *ranks[i].k);
        if (!ranks[i].k) goto out;
        for (size_t j = 0; j < t->n; j++) {
            const cp_trace_rec *x = &t->recs[j];
            if (!nccl_of(t, g, x)) continue;
            ranks[i].k[ranks[i].n++] = x;
            g->nccl_ns = cp_trace_sat_add(g->nccl_ns, x->end - x->start);
        }
        qsort(ranks[i].k, ranks[i].n, sizeof *ranks[i].k, by_rec_start);
        g->nccl_kernels = ranks[i].n;
        nranks++;
        if (ranks[i].n > most) most = ranks[i].n;
    }
    r->coll.ranks = nranks;
    if (nranks >= 2) {
        size_t k = 0;
        for (; k < most; k++) {
            const char *name = NULL;
            int64_t least = INT64_MAX;
            int agree = 1, all = 1;
            for (size_t i = 0; i < r->ngpus && agree; i++) {
                if (!ranks[i].n) continue;
                if (k >= ranks[i].n) { all = 0; break; }
                const char *nm = cp_trace_str(ranks[i].t, ranks[i].k[k]->name);
                if (name && (!nm || strcmp(nm, name) != 0)) agree = 0;
                if (!name) name = nm;
                int64_t d = ranks[i].k[k]->end - ranks[i].k[k]->start;
                if (d < least) least = d;
            }
            if (!agree || !all) break;           /* the sequences part here: match no further */
            for (size_t i = 0; i < r->ngpus; i++)
                if (ranks[i].n)
                    r->gpus[i].nccl_wait_ns = cp_trace_sat_add(r->gpus[i].nccl_wait_ns,
                                                               ranks[i].k[k]->end - ranks[i].k[k]->start - least);
        }
        r->coll.matched = k;
        int64_t most_wait = 0;
        for (size_t i = 0; i < r->ngpus; i++)
            if (ranks[i].n && r->gpus[i].nccl_wait_ns > most_wait) most_wait = r->gpus[i].nccl_wait_ns;
        if (k && most_wait > 0) {
            /* the slowest rank: the one that waited least (balanced ranks have none) */
            size_t best = SIZE_MAX;
            for (size_t i = 0; i < r->ngpus; i++)
                if (ranks[i].n && (best == SIZE_MAX || r->gpus[i].nccl_wait_ns < r->gpus[best].nccl_wait_ns)) best = i;
            r->coll.slowest = best;
            r->coll.has_slowest = 1;
        }
    }
    rc = 0;
out:
    for (size_t i = 0; i < r->ngpus; i++) free(ranks[i].k);
    free(ranks);
    return rc;
}
