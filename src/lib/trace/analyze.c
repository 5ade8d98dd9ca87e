/*
 * The analysis of recorded traces: per process and GPU, the busy time (the
 * union of kernel, copy and memset intervals) over the span from the GPU's
 * first work to its last (the start-up before it, context creation and
 * loading, and the tail after it are told apart), and the rest of the span
 * split by why the GPU waited:
 *   launch  a gap shorter than launch_gap_ns between two kernels in which
 *           the host made no synchronising call (the host cannot launch
 *           fast enough: CUDA graphs, fusion, bigger batches);
 *   sync    a gap that began while the host was in a synchronising call
 *           (SYNCHRONIZATION records, *Synchronize API calls, copies
 *           without Async: cudaMemcpy waits for the work queued before it)
 *           is the price of that sync, all of it: the host had queued
 *           nothing, so the GPU waits until it launches again (.item() per
 *           step); of any other gap, the part the host spent in such a call;
 *   load    a gap in which the host started a library or loaded GPU code
 *           (cuInit, cuGetProcAddress, cuLibraryLoadData, cuModuleLoad*,
 *           cuLink*: a library's first call, lazy loading): all of it but
 *           the host's own wait in a synchronising call, since the library's
 *           start-up on the host (dlopen, its tables) runs between those
 *           calls too.  It happens once per library or module, so the
 *           verdict is judged on the span without it;
 *   host    the rest: the host was not submitting work.
 * A program that marks its steady state with cudaProfilerStart/Stop (the
 * range nsys --capture-range=cudaProfilerApi uses) is analysed in that
 * window only.
 * Pageable copies are busy time of a slow kind: the part of their time that
 * no other work overlaps is counted on its own.  See docs/trace-format.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cuprobe/trace.h"
#include "util/alloc.h"
#include "sum.h"

typedef struct {
    int64_t s, e;
    int kernel;      /* holds a kernel */
} ival;

typedef struct {
    ival *v;
    size_t n, cap;
    int failed;
} ivec;

/* v (n used of *cap elements of size bytes) with room for one more, doubled
 * from 256 where full; NULL when out of memory (v is still valid then). */
static void *grown(void *v, size_t n, size_t *cap, size_t size)
{
    if (v && n < *cap) return v;
    size_t c = *cap ? *cap * 2 : 256;
    void *p = cp_realloc(v, c * size);
    if (p) *cap = c;
    return p;
}

static void push(ivec *a, int64_t s, int64_t e, int kernel)
{
    if (a->failed) return;
    ival *v = grown(a->v, a->n, &a->cap, sizeof *v);
    if (!v) { a->failed = 1; return; }
    a->v = v;
    a->v[a->n++] = (ival){ s, e, kernel };
}

static int by_start(const void *a, const void *b)
{
    const ival *x = a, *y = b;
    return x->s < y->s ? -1 : x->s > y->s ? 1 : (x->e < y->e ? -1 : x->e > y->e);
}

/* Sort and merge in place: touching intervals join. */
static void merge(ivec *a)
{
    if (!a->n) return;
    qsort(a->v, a->n, sizeof *a->v, by_start);
    size_t k = 0;
    for (size_t i = 1; i < a->n; i++) {
        if (a->v[i].s <= a->v[k].e) {
            if (a->v[i].e > a->v[k].e) a->v[k].e = a->v[i].e;
            a->v[k].kernel |= a->v[i].kernel;
        } else a->v[++k] = a->v[i];
    }
    a->n = k + 1;
}

static int64_t total(const ivec *a)
{
    int64_t t = 0;
    for (size_t i = 0; i < a->n; i++) t += a->v[i].e - a->v[i].s;
    return t;
}

/* Overlap of [s, e) with a merged set, from index *from on (moved forward:
 * the callers ask in increasing s). */
static int64_t overlap(const ivec *a, size_t *from, int64_t s, int64_t e)
{
    while (*from < a->n && a->v[*from].e <= s) (*from)++;
    int64_t t = 0;
    for (size_t i = *from; i < a->n && a->v[i].s < e; i++) {
        int64_t lo = a->v[i].s > s ? a->v[i].s : s, hi = a->v[i].e < e ? a->v[i].e : e;
        if (hi > lo) t += hi - lo;
    }
    return t;
}


static int is_sync_api(const cp_trace *t, const cp_trace_rec *r)
{
    const char *n = cp_trace_str(t, r->name);
    return n && cp_trace_is_sync_name(n);
}

/* A library starting (cuInit, its driver table through cuGetProcAddress)
 * or GPU code loading (a module's first use, lazy loading). */
static int is_load_api(const cp_trace *t, const cp_trace_rec *r)
{
    const char *n = cp_trace_str(t, r->name);
    return n && (strstr(n, "LibraryLoad") || strstr(n, "ModuleLoad") || strncmp(n, "cuLink", 6) == 0 ||
                 strncmp(n, "cuInit", 6) == 0 || strncmp(n, "cuGetProcAddress", 16) == 0);
}

static int api_named(const cp_trace *t, const cp_trace_rec *r, const char *a, const char *b)
{
    const char *n = r->type == CP_TREC_API ? cp_trace_str(t, r->name) : NULL;
    return n && (strcmp(n, a) == 0 || strcmp(n, b) == 0);
}

/* The window a program marked with cudaProfilerStart .. cudaProfilerStop
 * (or the driver's cuProfiler*): from the end of the first start to the
 * beginning of the last stop after it (the end of the trace without one).
 * Returns 0 without a start. */
static int profiler_window(const cp_trace *t, int64_t end, int64_t *w0, int64_t *w1)
{
    int64_t s = INT64_MAX, e = INT64_MIN;
    for (size_t i = 0; i < t->n; i++)
        if (api_named(t, &t->recs[i], "cudaProfilerStart", "cuProfilerStart") && t->recs[i].end < s) s = t->recs[i].end;
    if (s == INT64_MAX) return 0;
    for (size_t i = 0; i < t->n; i++)
        if (api_named(t, &t->recs[i], "cudaProfilerStop", "cuProfilerStop") && t->recs[i].start >= s &&
            t->recs[i].start > e)
            e = t->recs[i].start;
    *w0 = s;
    *w1 = e == INT64_MIN ? end : e;
    return 1;
}

static int is_pageable(const cp_trace_rec *r)
{
    return r->type == CP_TREC_MEMCPY && (r->src_kind == CP_MEM_PAGEABLE || r->dst_kind == CP_MEM_PAGEABLE);
}

static int is_pinned_host(const cp_trace_rec *r)
{
    return r->type == CP_TREC_MEMCPY && (r->copy_kind == CP_COPY_HTOD || r->copy_kind == CP_COPY_DTOH) &&
           (r->src_kind == CP_MEM_PINNED || r->dst_kind == CP_MEM_PINNED) && !is_pageable(r);
}

static int on_gpu(const cp_trace_rec *r)
{
    return r->type == CP_TREC_KERNEL || r->type == CP_TREC_MEMCPY || r->type == CP_TREC_MEMSET;
}

static int by_gap_len(const void *a, const void *b)
{
    const cp_trace_gap *x = a, *y = b;
    int64_t lx = x->end - x->start, ly = y->end - y->start;
    return lx > ly ? -1 : lx < ly ? 1 : (x->start < y->start ? -1 : x->start > y->start);
}

static int by_total(const void *a, const void *b)
{
    const cp_trace_kernel_row *x = a, *y = b;
    return x->total_ns > y->total_ns ? -1 : x->total_ns < y->total_ns ? 1 : (x->name > y->name) - (x->name < y->name);
}

static int kernel_table(const cp_trace *t, uint32_t dev, cp_trace_gpu *g)
{
    /* one row per name id: count the ids first */
    size_t nid = t->nstrings + 1;
    cp_trace_kernel_row *rows = cp_calloc(nid, sizeof *rows);
    if (!rows) return -1;
    int64_t all = 0;
    for (size_t i = 0; i < t->n; i++) {
        const cp_trace_rec *r = &t->recs[i];
        if (r->type != CP_TREC_KERNEL || r->device != dev) continue;
        size_t id = r->name < t->nstrings ? r->name : t->nstrings;   /* unnamed ones share the last row */
        rows[id].name = (uint32_t)id;
        rows[id].count++;
        rows[id].total_ns = cp_trace_sat_add(rows[id].total_ns, r->end - r->start);
        all = cp_trace_sat_add(all, r->end - r->start);
    }
    size_t k = 0;
    for (size_t i = 0; i < nid; i++) {
        if (!rows[i].count) continue;
        rows[k] = rows[i];
        const char *l = i < t->nstrings ? cp_trace_str(t, (uint32_t)i) : NULL;
        rows[k].label = l ? l : "?";
        rows[k].mean_ns = rows[k].total_ns / (int64_t)rows[k].count;
        rows[k].share = all > 0 ? (double)rows[k].total_ns / (double)all : 0.0;
        k++;
    }
    qsort(rows, k, sizeof *rows, by_total);
    g->ktab = rows;
    g->nk = k;
    return 0;
}

/* Stacks by correlation id, for the lookups below. */
typedef struct {
    uint32_t corr;
    const cp_trace_stack *s;
} stack_key;

static int by_stack_corr(const void *a, const void *b)
{
    const stack_key *x = a, *y = b;
    return x->corr < y->corr ? -1 : x->corr > y->corr;
}

static const cp_trace_stack *stack_of(const stack_key *k, size_t n, uint32_t corr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k[mid].corr < corr) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && k[lo].corr == corr ? k[lo].s : NULL;
}

/* The API call (of any thread) that overlaps [s, e) most into gap->api, and
 * of those with a stack, the one that overlaps most into where and stack. */
static void api_during(const cp_trace *t, const stack_key *k, size_t nk, cp_trace_gap *gap)
{
    int64_t most = 0, most_st = 0, s = gap->start, e = gap->end;
    for (size_t i = 0; i < t->n; i++) {
        const cp_trace_rec *r = &t->recs[i];
        if (r->type != CP_TREC_API) continue;
        int64_t lo = r->start > s ? r->start : s, hi = r->end < e ? r->end : e;
        if (hi - lo > most) {
            most = hi - lo;
            gap->api = cp_trace_str(t, r->name);
        }
        const cp_trace_stack *st = hi - lo > most_st && nk ? stack_of(k, nk, r->corr) : NULL;
        if (st && (st->where || st->frames)) {
            most_st = hi - lo;
            gap->where = st->where;
            gap->stack = st->frames;
        }
    }
}

/* A synchronising API call, for the sweep over the gaps. */
typedef struct {
    int64_t s, e;
    const cp_trace_rec *r;
} call;

static int by_call_start(const void *a, const void *b)
{
    const call *x = a, *y = b;
    return x->s < y->s ? -1 : x->s > y->s;
}

/* Append c to *v (n used of cap); 0, or -1 (out of memory). */
static int push_call(call **v, size_t *n, size_t *cap, call c)
{
    call *q = grown(*v, *n, cap, sizeof *q);
    if (!q) return -1;
    *v = q;
    (*v)[(*n)++] = c;
    return 0;
}

static int same(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

static int by_site_ns(const void *a, const void *b)
{
    const cp_trace_site *x = a, *y = b;
    return x->ns > y->ns ? -1 : x->ns < y->ns;
}

/* Sync idle time by (place, API call, host thread) before the calls without
 * a stack are shared out: where NULL is such calls. */
typedef struct {
    const char *where, *api;
    uint64_t tid;
    int64_t ns;
    uint64_t gaps, calls;    /* calls: distinct synchronising calls (with a stack, where set) */
    int64_t sh_ns;           /* shares of the calls without a stack that this one took */
    uint64_t sh_gaps, sh_calls;
} part;

/* Add a gap's ns to the part (where, api, tid), a new call if fresh; 0, or -1 (out of memory). */
static int add_part(part **v, size_t *n, size_t *cap, const char *where, const char *api, uint64_t tid,
                    int64_t ns, int fresh)
{
    for (size_t i = 0; i < *n; i++) {
        part *p = &(*v)[i];
        if (same(p->where, where) && same(p->api, api) && p->tid == tid) {
            p->ns = cp_trace_sat_add(p->ns, ns);
            p->gaps++;
            p->calls += (uint64_t)fresh;
            return 0;
        }
    }
    part *q = grown(*v, *n, cap, sizeof *q);
    if (!q) return -1;
    *v = q;
    (*v)[(*n)++] = (part){ where, api, tid, ns, 1, (uint64_t)fresh, 0, 0, 0 };
    return 0;
}

/* x * w / sum without overflow (w <= sum, sum > 0). */
static int64_t share_of(int64_t x, uint64_t w, uint64_t sum)
{
    return (x / (int64_t)sum) * (int64_t)w + (int64_t)((uint64_t)(x % (int64_t)sum) * w / sum);
}

/* Share the unrecorded part u out over the recorded parts of its API call in
 * its thread (all: in any thread), in proportion to their calls; integer
 * shares, the remainder to the one with the most calls.  1 if it was shared. */
static int share_out(part *v, size_t n, const part *u, int all)
{
    uint64_t sum = 0;
    size_t big = n;
    for (size_t i = 0; i < n; i++)
        if (v[i].where && v[i].calls && same(v[i].api, u->api) && (all || v[i].tid == u->tid)) {
            sum += v[i].calls;
            if (big == n || v[i].calls > v[big].calls) big = i;
        }
    if (!sum) return 0;
    int64_t ns = 0;
    uint64_t gaps = 0, calls = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].where && v[i].calls && same(v[i].api, u->api) && (all || v[i].tid == u->tid)) {
            int64_t a = share_of(u->ns, v[i].calls, sum);
            uint64_t b = (uint64_t)share_of((int64_t)u->gaps, v[i].calls, sum);
            uint64_t c = (uint64_t)share_of((int64_t)u->calls, v[i].calls, sum);
            v[i].sh_ns += a;
            v[i].sh_gaps += b;
            v[i].sh_calls += c;
            ns += a;
            gaps += b;
            calls += c;
        }
    v[big].sh_ns += u->ns - ns;
    v[big].sh_gaps += u->gaps - gaps;
    v[big].sh_calls += u->calls - calls;
    return 1;
}

/* Add to the site (where, api); 0, or -1 (out of memory). */
static int add_site(cp_trace_gpu *g, size_t *cap, const char *where, const char *api, int64_t ns, uint64_t gaps,
                    uint64_t sampled, uint64_t calls)
{
    for (size_t i = 0; i < g->nsites; i++) {
        cp_trace_site *s = &g->sites[i];
        if (same(s->where, where) && same(s->api, api)) {
            s->ns = cp_trace_sat_add(s->ns, ns);
            s->gaps += gaps;
            s->sampled += sampled;
            s->calls += calls;
            return 0;
        }
    }
    cp_trace_site *p = grown(g->sites, g->nsites, cap, sizeof *p);
    if (!p) return -1;
    g->sites = p;
    g->sites[g->nsites++] = (cp_trace_site){ where, api, ns, gaps, sampled, calls };
    return 0;
}

/* The sites from the parts: the time of synchronising calls without a stack
 * is sampling's, shared out as the recorded calls of the same API in the same
 * thread (else in any thread) were; where none of that API has a stack, it
 * stays "a place not recorded".  The sites' ns add up to the parts'. */
static int sites_of(cp_trace_gpu *g, part *v, size_t n)
{
    size_t cap = 0;
    for (size_t i = 0; i < n; i++)
        if (!v[i].where && (share_out(v, n, &v[i], 0) || share_out(v, n, &v[i], 1))) v[i].ns = -1;
    for (size_t i = 0; i < n; i++) {
        const part *p = &v[i];
        if (p->ns < 0) continue;     /* shared out */
        int rc = p->where ? add_site(g, &cap, p->where, p->api, cp_trace_sat_add(p->ns, p->sh_ns), p->gaps + p->sh_gaps,
                                     p->calls, p->calls + p->sh_calls)
                          : add_site(g, &cap, NULL, p->api, p->ns, p->gaps, 0, p->calls);
        if (rc < 0) return -1;
    }
    if (g->sites) qsort(g->sites, g->nsites, sizeof *g->sites, by_site_ns);
    return 0;
}

static cp_trace_verdict verdict_of(const cp_trace_gpu *g)
{
    if (g->busy_ns <= 0) return CP_TV_NO_WORK;
    int64_t compute = g->busy_ns - g->pageable_ns;
    if ((double)compute >= 0.9 * (double)(g->span_ns - g->idle_load_ns)) return CP_TV_GPU_BOUND;
    cp_trace_verdict v = CP_TV_HOST_BOUND;
    int64_t most = g->idle_host_ns;
    if (g->idle_sync_ns > most) { most = g->idle_sync_ns; v = CP_TV_SYNC_BOUND; }
    if (g->idle_launch_ns > most) { most = g->idle_launch_ns; v = CP_TV_LAUNCH_BOUND; }
    if (g->pageable_ns > most) v = CP_TV_PAGEABLE_BOUND;
    return v;
}

static int analyze_gpu(const cp_trace *t, uint32_t dev, int64_t s0, int64_t s1, const cp_trace_opts *o,
                       cp_trace_gpu *g)
{
    ivec all = { 0 }, np = { 0 }, sync = { 0 }, load = { 0 };
    cp_trace_gap *gaps = NULL;
    size_t ngaps = 0, capg = 0, ncalls = 0, capc = 0, nact = 0, capa = 0, nparts = 0, capp = 0, nkeys = 0;
    call *calls = NULL, *act = NULL;
    part *parts = NULL;
    const cp_trace_rec *last = NULL;
    stack_key *keys = NULL;
    int rc = -1;
    memset(g, 0, sizeof *g);
    g->pid = t->pid;
    g->device = dev;
    g->pageable_gbps = g->pinned_gbps = NAN;
    for (size_t i = 0; i < t->n; i++) {
        const cp_trace_rec *r = &t->recs[i];
        if (r->type == CP_TREC_SYNC || (r->type == CP_TREC_API && is_sync_api(t, r))) {
            push(&sync, r->start, r->end, 0);
            if (r->type == CP_TREC_API && push_call(&calls, &ncalls, &capc, (call){ r->start, r->end, r }) < 0) goto out;
            continue;
        }
        if (r->type == CP_TREC_API && is_load_api(t, r)) {
            push(&load, r->start, r->end, 0);
            continue;
        }
        if (!on_gpu(r) || r->device != dev) continue;
        if (r->end <= s0 || r->start >= s1) continue;   /* outside the window */
        int64_t rs = r->start > s0 ? r->start : s0, re = r->end < s1 ? r->end : s1;
        int k = r->type == CP_TREC_KERNEL;
        push(&all, rs, re, k);
        if (!is_pageable(r)) push(&np, rs, re, k);
        if (k) g->kernels++;
        else if (r->type == CP_TREC_MEMSET) g->memsets++;
        else g->copies++;
        if (is_pageable(r)) { g->pageable_bytes += r->bytes; g->pageable_copy_ns = cp_trace_sat_add(g->pageable_copy_ns, r->end - r->start); }
        if (is_pinned_host(r)) { g->pinned_bytes += r->bytes; g->pinned_copy_ns = cp_trace_sat_add(g->pinned_copy_ns, r->end - r->start); }
    }
    if (all.failed || np.failed || sync.failed || load.failed) goto out;
    merge(&all);
    merge(&np);
    merge(&sync);
    merge(&load);
    if (all.n) {                      /* the span: first to last GPU work; before and after it apart */
        g->span_start = all.v[0].s;
        g->span_end = all.v[all.n - 1].e;
    } else g->span_start = g->span_end = s0;
    g->span_ns = g->span_end - g->span_start;
    g->startup_ns = g->span_start - s0;
    g->tail_ns = s1 > g->span_end ? s1 - g->span_end : 0;
    s0 = g->span_start;
    s1 = g->span_end;
    g->busy_ns = total(&all);
    g->pageable_ns = g->busy_ns - total(&np);
    {
        ivec kern = { 0 };
        for (size_t i = 0; i < t->n; i++) {
            const cp_trace_rec *r = &t->recs[i];
            if (r->type == CP_TREC_KERNEL && r->device == dev && r->end > s0 && r->start < s1)
                push(&kern, r->start > s0 ? r->start : s0, r->end < s1 ? r->end : s1, 1);
        }
        if (kern.failed) { free(kern.v); goto out; }
        merge(&kern);
        g->kernel_ns = total(&kern);
        free(kern.v);
    }
    if (g->pageable_copy_ns > 0) g->pageable_gbps = (double)g->pageable_bytes / (double)g->pageable_copy_ns;
    if (g->pinned_copy_ns > 0) g->pinned_gbps = (double)g->pinned_bytes / (double)g->pinned_copy_ns;

    if (calls) qsort(calls, ncalls, sizeof *calls, by_call_start);
    if (t->nstacks) {
        keys = cp_malloc(t->nstacks * sizeof *keys);
        if (!keys) goto out;
        for (size_t i = 0; i < t->nstacks; i++) keys[i] = (stack_key){ t->stacks[i].corr, &t->stacks[i] };
        qsort(keys, t->nstacks, sizeof *keys, by_stack_corr);
        nkeys = t->nstacks;
    }

    /* the gaps between two busy intervals */
    size_t from = 0, from_load = 0, next_call = 0;
    for (size_t i = 1; i < all.n; i++) {
        int64_t gs = all.v[i - 1].e, ge = all.v[i].s;
        if (ge <= gs) continue;
        int64_t len = ge - gs;
        char kind;
        int64_t ld = overlap(&load, &from_load, gs, ge);
        int64_t sy = overlap(&sync, &from, gs, ge);
        if (ld > 0) ld = len - sy;    /* a library starting: all but the host's own wait */
        else if (sy > 0 && from < sync.n && sync.v[from].s <= gs && gs < sync.v[from].e)
            sy = len;                 /* the host was waiting when the GPU ran dry: it had queued nothing */
        if (sy == 0 && ld == 0 && all.v[i - 1].kernel && all.v[i].kernel && len < o->launch_gap_ns) {
            g->idle_launch_ns += len;
            kind = 'l';
        } else {
            int64_t ho = len - sy - ld;
            g->idle_sync_ns += sy;
            g->idle_load_ns += ld;
            g->idle_host_ns += ho;
            kind = ld >= sy && ld >= ho ? 'm' : sy >= ho ? 's' : 'h';
        }
        /* the synchronising calls around this gap: which one waited, and where in the program */
        while (next_call < ncalls && calls[next_call].s < ge)
            if (push_call(&act, &nact, &capa, calls[next_call++]) < 0) goto out;
        for (size_t a = 0; a < nact;)
            if (act[a].e <= gs) act[a] = act[--nact];
            else a++;
        if (kind != 'l' && sy > 0) {
            const call *best = NULL;
            int64_t most = -1;
            for (size_t a = 0; a < nact; a++) {
                int64_t lo = act[a].s > gs ? act[a].s : gs, hi = act[a].e < ge ? act[a].e : ge;
                int64_t ov = hi - lo + (act[a].s <= gs ? len : 0);     /* the one the GPU ran dry in first */
                if (ov > most) { most = ov; best = &act[a]; }
            }
            const cp_trace_stack *st = best && nkeys ? stack_of(keys, nkeys, best->r->corr) : NULL;
            const char *where = !st ? NULL : st->where ? st->where : CP_TRACE_NO_PROGRAM_FRAME;
            int fresh = best && best->r != last;      /* a call waits across the gaps it spans: counted once */
            if (best) last = best->r;
            if (add_part(&parts, &nparts, &capp, where, best ? cp_trace_str(t, best->r->name) : NULL,
                         best ? best->r->tid : 0, sy, fresh) < 0)
                goto out;
        }
        cp_trace_gap *gv = grown(gaps, ngaps, &capg, sizeof *gv);
        if (!gv) goto out;
        gaps = gv;
        gaps[ngaps++] = (cp_trace_gap){ gs, ge, kind, NULL, NULL, NULL };
    }
    if (sites_of(g, parts, nparts) < 0) goto out;
    if (gaps) qsort(gaps, ngaps, sizeof *gaps, by_gap_len);
    if (ngaps > (size_t)o->top_gaps) ngaps = (size_t)(o->top_gaps > 0 ? o->top_gaps : 0);
    for (size_t i = 0; i < ngaps; i++) api_during(t, keys, nkeys, &gaps[i]);
    g->gaps = gaps;
    g->ngaps = ngaps;
    gaps = NULL;

    /* phases: fixed windows over the span */
    size_t nw = o->windows > 0 && g->span_ns > 0 ? (size_t)o->windows : 0;
    if (nw) {
        g->win = cp_calloc(nw, sizeof *g->win);
        if (!g->win) goto out;
        g->nwin = nw;
        size_t f2 = 0;
        for (size_t w = 0; w < nw; w++) {
            int64_t ws = s0 + (int64_t)((double)g->span_ns * (double)w / (double)nw);
            int64_t we = w + 1 == nw ? s1 : s0 + (int64_t)((double)g->span_ns * (double)(w + 1) / (double)nw);
            g->win[w] = (cp_trace_window){ ws, we, overlap(&all, &f2, ws, we) };
        }
    }
    if (kernel_table(t, dev, g) < 0 || cp_trace_counters_attribute(t, g) < 0) goto out;
    g->verdict = verdict_of(g);
    rc = 0;
out:
    free(all.v);
    free(np.v);
    free(sync.v);
    free(load.v);
    free(gaps);
    free(calls);
    free(act);
    free(parts);
    free(keys);
    return rc;
}

static void gpu_free(cp_trace_gpu *g)
{
    free(g->ktab);
    free(g->gaps);
    free(g->win);
    free(g->sites);
}

/* ------------------------------------------------ processes, threads -- */

typedef struct {
    uint64_t tid;
    int64_t s, e;
    uint32_t corr;
    int sync;
} api_call;

static int by_tid_start(const void *a, const void *b)
{
    const api_call *x = a, *y = b;
    if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
    return x->s < y->s ? -1 : x->s > y->s;
}

typedef struct {
    uint32_t corr, thread;
} corr_map;

static int by_corr(const void *a, const void *b)
{
    const corr_map *x = a, *y = b;
    return x->corr < y->corr ? -1 : x->corr > y->corr ? 1 : (x->thread > y->thread) - (x->thread < y->thread);
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int by_first(const void *a, const void *b)
{
    const cp_trace_thread *x = a, *y = b;
    if (x->first != y->first) return x->first < y->first ? -1 : 1;
    return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The union of the sorted-by-start intervals [s, e) fed one by one. */
typedef struct {
    int64_t s, e, sum;
    int open;
} running_union;

static void ru_add(running_union *u, int64_t s, int64_t e)
{
    if (u->open && s <= u->e) {
        if (e > u->e) u->e = e;
        return;
    }
    if (u->open) u->sum = cp_trace_sat_add(u->sum, u->e - u->s);
    u->s = s;
    u->e = e;
    u->open = 1;
}

static int64_t ru_total(running_union *u)
{
    return u->open ? cp_trace_sat_add(u->sum, u->e - u->s) : u->sum;
}

/* p's host threads from t's API calls, and the work each launched (its
 * kernels' and copies' correlation ids are those of the calls). */
static int analyze_proc(const cp_trace *t, cp_trace_proc *p)
{
    size_t na = 0;
    for (size_t i = 0; i < t->n; i++) na += t->recs[i].type == CP_TREC_API;
    api_call *calls = na ? cp_malloc(na * sizeof *calls) : NULL;
    corr_map *map = na ? cp_malloc(na * sizeof *map) : NULL;
    uint64_t *pairs = NULL;
    size_t npairs = 0, nmap = 0, capp = 0;
    int rc = -1;
    if (na && (!calls || !map)) goto out;
    size_t k = 0;
    for (size_t i = 0; i < t->n; i++) {
        const cp_trace_rec *r = &t->recs[i];
        if (r->type == CP_TREC_API) calls[k++] = (api_call){ r->tid, r->start, r->end, r->corr, is_sync_api(t, r) };
    }
    if (na) qsort(calls, na, sizeof *calls, by_tid_start);
    size_t nt = 0;
    for (size_t i = 0; i < na; i++) nt += i == 0 || calls[i].tid != calls[i - 1].tid;
    p->threads = nt ? cp_calloc(nt, sizeof *p->threads) : NULL;
    if (nt && !p->threads) goto out;
    p->nthreads = nt;
    running_union api = { 0 }, sync = { 0 };
    for (size_t i = 0, th = 0; i < na; i++) {
        if (i == 0 || calls[i].tid != calls[i - 1].tid) {
            if (i) {
                p->threads[th - 1].api_ns = ru_total(&api);
                p->threads[th - 1].sync_ns = ru_total(&sync);
            }
            p->threads[th].tid = calls[i].tid;
            p->threads[th].first = calls[i].s;
            th++;
            memset(&api, 0, sizeof api);
            memset(&sync, 0, sizeof sync);
        }
        cp_trace_thread *x = &p->threads[th - 1];
        x->api_calls++;
        ru_add(&api, calls[i].s, calls[i].e);
        if (calls[i].sync) ru_add(&sync, calls[i].s, calls[i].e);
        if (calls[i].corr) map[nmap++] = (corr_map){ calls[i].corr, (uint32_t)(th - 1) };
    }
    if (nt) {
        p->threads[nt - 1].api_ns = ru_total(&api);
        p->threads[nt - 1].sync_ns = ru_total(&sync);
    }
    if (nmap) qsort(map, nmap, sizeof *map, by_corr);
    for (size_t i = 0; i < t->n; i++) {
        const cp_trace_rec *r = &t->recs[i];
        if (!on_gpu(r)) continue;
        int kern = r->type == CP_TREC_KERNEL;
        if (kern) p->kernels++;
        else p->copies++;
        corr_map key = { r->corr, 0 }, *m = NULL;
        if (r->corr && nmap) {
            size_t lo = 0, hi = nmap;                 /* the first entry of that id */
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (map[mid].corr < key.corr) lo = mid + 1;
                else hi = mid;
            }
            if (lo < nmap && map[lo].corr == key.corr) m = &map[lo];
        }
        if (!m) { p->unattributed++; continue; }
        cp_trace_thread *x = &p->threads[m->thread];
        if (kern) x->kernels++;
        else x->copies++;
        uint64_t *pv = grown(pairs, npairs, &capp, sizeof *pv);
        if (!pv) goto out;
        pairs = pv;
        pairs[npairs++] = (uint64_t)m->thread << 32 | r->stream;
    }
    if (npairs) qsort(pairs, npairs, sizeof *pairs, by_u64);
    for (size_t i = 0; i < npairs; i++)
        if (i == 0 || pairs[i] != pairs[i - 1]) p->threads[pairs[i] >> 32].streams++;
    if (nt) qsort(p->threads, nt, sizeof *p->threads, by_first);
    rc = 0;
out:
    free(calls);
    free(map);
    free(pairs);
    return rc;
}

/* See trace.h. */
int cp_trace_analyze(const cp_trace *traces, size_t n, const cp_trace_opts *o, cp_trace_report *r)
{
    static const cp_trace_opts dflt = CP_TRACE_OPTS_DEFAULT;
    memset(r, 0, sizeof *r);
    r->opts = o ? *o : dflt;
    r->processes = n;
    r->procs = n ? cp_calloc(n, sizeof *r->procs) : NULL;
    if (n && !r->procs) goto fail;
    r->nprocs = n;
    for (size_t p = 0; p < n; p++) {
        const cp_trace *t = &traces[p];
        cp_trace_proc *pr = &r->procs[p];
        pr->pid = t->pid;
        pr->truncated = t->truncated;
        pr->ended = t->ended;
        pr->end_signal = t->end_signal;
        if (analyze_proc(t, pr) < 0) goto fail;
        r->dropped += t->dropped;
        r->stacks += t->nstacks;
        r->truncated |= t->truncated;
        int64_t s0 = INT64_MAX, s1 = INT64_MIN;
        uint32_t devs[64];
        size_t nd = 0;
        for (size_t i = 0; i < t->n; i++) {
            const cp_trace_rec *x = &t->recs[i];
            if (x->type == CP_TREC_DROPPED || x->type == CP_TREC_COUNTERS || x->type == CP_TREC_SAMPLE)
                continue;                        /* counters: on their own clock, no part of the span */
            if (x->type == CP_TREC_API) r->api_calls++;
            if (x->type == CP_TREC_OVERHEAD) r->overhead_records++;
            if (x->start < s0) s0 = x->start;
            if (x->end > s1) s1 = x->end;
            if (!on_gpu(x)) continue;
            size_t d = 0;
            while (d < nd && devs[d] != x->device) d++;
            if (d == nd && nd < sizeof devs / sizeof devs[0]) {
                size_t k = nd++;                 /* kept sorted */
                while (k > 0 && devs[k - 1] > x->device) { devs[k] = devs[k - 1]; k--; }
                devs[k] = x->device;
            }
        }
        pr->gpus = nd;
        if (!nd) continue;
        int64_t w0 = 0, w1 = 0;
        int windowed = profiler_window(t, s1, &w0, &w1);
        if (windowed) { s0 = w0; s1 = w1; }
        cp_trace_gpu *gs = cp_realloc(r->gpus, (r->ngpus + nd) * sizeof *gs);
        if (!gs) goto fail;
        r->gpus = gs;
        for (size_t d = 0; d < nd; d++) {
            if (analyze_gpu(t, devs[d], s0, s1, &r->opts, &r->gpus[r->ngpus]) < 0) {
                gpu_free(&r->gpus[r->ngpus]);
                goto fail;
            }
            if (windowed) { r->gpus[r->ngpus].window_start = w0; r->gpus[r->ngpus].window_end = w1; }
            r->ngpus++;
        }
    }
    if (cp_trace_collectives(traces, n, r) < 0) goto fail;
    return 0;
fail:
    cp_trace_report_free(r);
    return -1;
}

/* See trace.h. */
void cp_trace_report_free(cp_trace_report *r)
{
    for (size_t i = 0; i < r->ngpus; i++) gpu_free(&r->gpus[i]);
    free(r->gpus);
    for (size_t i = 0; i < r->nprocs; i++) free(r->procs[i].threads);
    free(r->procs);
    memset(r, 0, sizeof *r);
}

/* See trace.h. */
const char *cp_trace_verdict_name(cp_trace_verdict v)
{
    static const char *const n[] = { "no-gpu-work", "gpu-bound", "sync-bound", "launch-bound", "host-bound",
                                     "pageable-copy-bound" };
    return (unsigned)v < sizeof n / sizeof n[0] ? n[v] : "?";
}

/* See trace.h. */
const char *cp_trace_verdict_advice(cp_trace_verdict v)
{
    switch (v) {
    case CP_TV_NO_WORK: return "no kernel or copy ran on this GPU while the program was traced";
    case CP_TV_GPU_BOUND:
        return "the GPU is busy: faster comes from the kernels themselves (the heaviest ones below; "
               "mixed precision, better libraries) or a bigger GPU";
    case CP_TV_SYNC_BOUND:
        return "the host waits in synchronising calls while the GPU idles: sync less often (no .item(), "
               ".cpu() or cudaDeviceSynchronize every step; read losses every N steps), and queue the next "
               "step's work before waiting";
    case CP_TV_LAUNCH_BOUND:
        return "kernels are too small for their launch cost: capture the step in a CUDA graph "
               "(torch.compile mode=\"reduce-overhead\", cudaGraphLaunch), fuse kernels, use bigger batches";
    case CP_TV_HOST_BOUND:
        return "the host is not submitting work: overlap data loading and preprocessing with the GPU "
               "(DataLoader workers, prefetch), move host work off the step's path, use bigger batches";
    case CP_TV_PAGEABLE_BOUND:
        return "copies from pageable host memory are slow and staged: pin host memory (cudaHostAlloc, "
               "pin_memory=True) and overlap the copies with compute on their own streams (non_blocking=True)";
    }
    return "?";
}
