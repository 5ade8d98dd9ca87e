/* cuprobe trace's renderers: text, JSON (docs/trace.schema.json), the Chrome
 * trace event timeline, and one self-contained HTML page. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuprobe/trace.h"
#include "util/json.h"
#include "util/text.h"

static void dur(FILE *out, int64_t ns)
{
    double v = (double)ns;
    if (ns >= 1000000000) fprintf(out, "%.3f s", v / 1e9);
    else if (ns >= 1000000) fprintf(out, "%.3f ms", v / 1e6);
    else if (ns >= 1000) fprintf(out, "%.1f us", v / 1e3);
    else fprintf(out, "%" PRId64 " ns", ns);
}

static double pct(int64_t a, int64_t b) { return b > 0 ? 100.0 * (double)a / (double)b : 0.0; }

static void line(FILE *out, const char *what, int64_t ns, int64_t span)
{
    fprintf(out, "    %-36s ", what);
    dur(out, ns);
    fprintf(out, "  %5.1f %%\n", pct(ns, span));
}

static void rate(FILE *out, const char *what, uint64_t bytes, int64_t ns, double gbps)
{
    fprintf(out, "  %s copies: %" PRIu64 " bytes in ", what, bytes);
    dur(out, ns);
    if (isnan(gbps)) fputs(", rate N/A\n", out);
    else fprintf(out, " (%.2f GB/s)\n", gbps);
}

/* How a process's trace ended, in words (html: the signal's name escaped for a page). */
static void ending_in(FILE *out, const cp_trace_proc *p, int html)
{
    if (p->ended && !p->end_signal) fputs("exited; its trace is whole", out);
    else if (p->ended) {
        fprintf(out, "killed by signal %" PRIu32 " (", p->end_signal);
        if (html) cp_xml_text(out, strsignal((int)p->end_signal));
        else cp_text_put(out, strsignal((int)p->end_signal));
        fputs("); its buffers were flushed at the signal", out);
    } else
        fputs("its trace has no end mark: the process ended without the exit flush (SIGKILL, _exit, exec, "
              "or a library older than this one), so up to its last second of work may be missing", out);
    if (p->truncated) fputs("; its file ends inside a record", out);
}

static void ending(FILE *out, const cp_trace_proc *p) { ending_in(out, p, 0); }
static void html_ending(FILE *out, const cp_trace_proc *p) { ending_in(out, p, 1); }

static const char *end_kind(const cp_trace_proc *p) { return !p->ended ? "none" : p->end_signal ? "signal" : "exit"; }

/* Every process, how it ended, and each of its host threads. */
static void text_procs(FILE *out, const cp_trace_report *r)
{
    if (!r->nprocs) return;
    fputs("\nprocesses and their host threads (API time: the union of the thread's CUDA calls; sync: of its "
          "synchronising calls; launches: the kernels and copies it queued)\n", out);
    for (size_t i = 0; i < r->nprocs; i++) {
        const cp_trace_proc *p = &r->procs[i];
        fprintf(out, "  process %" PRIu32 ": %zu GPU(s), %" PRIu64 " kernels, %" PRIu64 " copies/memsets, %zu thread(s); ",
                p->pid, p->gpus, p->kernels, p->copies, p->nthreads);
        ending(out, p);
        fputc('\n', out);
        if (p->unattributed)
            fprintf(out, "    %" PRIu64 " of its kernels and copies have no recorded launching call\n", p->unattributed);
        if (p->nthreads)
            fprintf(out, "    %20s %9s %12s %12s %9s %9s %7s\n", "thread", "calls", "API time", "sync time", "kernels",
                    "copies", "streams");
        for (size_t k = 0; k < p->nthreads; k++) {
            const cp_trace_thread *x = &p->threads[k];
            char a[32], b[32];
            snprintf(a, sizeof a, "%.3f ms", (double)x->api_ns / 1e6);
            snprintf(b, sizeof b, "%.3f ms", (double)x->sync_ns / 1e6);
            fprintf(out, "    %20" PRIu64 " %9" PRIu64 " %12s %12s %9" PRIu64 " %9" PRIu64 " %7" PRIu32 "\n", x->tid,
                    x->api_calls, a, b, x->kernels, x->copies, x->streams);
        }
    }
}

static const char *gap_kind(char k)
{
    return k == 'l' ? "launch" : k == 's' ? "sync" : k == 'm' ? "load" : "host";
}

/* Busy % of the span without the one-off loading of GPU code, which the
 * verdict is judged on. */
static double steady_pct(const cp_trace_gpu *g)
{
    return pct(g->busy_ns, g->span_ns - g->idle_load_ns);
}
static void counters_text(FILE *out, const cp_trace_gpu *g, int top)
{
    const cp_trace_counters *c = &g->ctr;
    if (!c->asked) return;
    if (c->status != CP_CTR_OK) {
        fputs("  hardware counters missing: ", out);
        cp_text_put(out, c->reason);
        fputc('\n', out);
        return;
    }
    fprintf(out, "  hardware counters: PM sampling every ");
    dur(out, c->interval_ns);
    fprintf(out, ", %" PRIu64 " samples over %.1f %% of kernel time (SM: ", c->samples, pct(c->sampled_kernel_ns, g->kernel_ns));
    cp_text_put(out, c->sm_metric ? c->sm_metric : "?");
    fputs("; DRAM: ", out);
    cp_text_put(out, c->dram_metric ? c->dram_metric : "?");
    if (c->dram_metric2) {
        fputs(" + ", out);
        cp_text_put(out, c->dram_metric2);
    }
    fputs(")\n", out);
    if (!g->nk) return;
    fprintf(out, "    %6s %6s %6s  %-13s  name\n", "share", "SM %", "DRAM %", "bound");
    for (size_t k = 0; k < g->nk && k < (size_t)top; k++) {
        const cp_trace_kernel_row *row = &g->ktab[k];
        char a[16] = "-", b[16] = "-";
        if (!isnan(row->sm_pct)) snprintf(a, sizeof a, "%.1f", row->sm_pct);
        if (!isnan(row->dram_pct)) snprintf(b, sizeof b, "%.1f", row->dram_pct);
        fprintf(out, "    %5.1f%% %6s %6s  %-13s  ", 100.0 * row->share, a, b, cp_trace_bound_name(row->bound));
        cp_text_put(out, row->label);
        fputc('\n', out);
    }
    fprintf(out, "    (bound: SM or DRAM throughput at least %.0f %% of peak; neither: latency, occupancy or the "
                 "launch configuration holds it back)\n", CP_TRACE_BOUND_PCT);
}


#define TOP_SITES 5

/* Where the program waited: the sync idle time by place, as text. */
static void text_sites(FILE *out, const cp_trace_gpu *g, uint64_t stacks)
{
    if (!g->idle_sync_ns) return;
    int64_t idle = g->span_ns - g->busy_ns;
    fputs("  where the program waited (synchronisation by the call's place; the program's innermost frame)\n", out);
    for (size_t k = 0; k < g->nsites && k < TOP_SITES; k++) {
        const cp_trace_site *s = &g->sites[k];
        fprintf(out, "    %5.1f %% of idle time: synchronisation from ", pct(s->ns, idle));
        cp_text_put(out, s->where ? s->where : "a place not recorded");
        fputs(" (", out);
        cp_text_put(out, s->api ? s->api : "no API call named");
        fprintf(out, "), %" PRIu64 " gap(s)", s->gaps);
        if (s->where && s->calls > s->sampled)      /* sampling: the calls without a stack, shared out */
            fprintf(out, ", %" PRIu64 " of %" PRIu64 " calls' stacks taken: the rest shared out as those", s->sampled,
                    s->calls);
        fputc('\n', out);
    }
    if (g->nsites > TOP_SITES) fprintf(out, "    ... and %zu more places\n", g->nsites - TOP_SITES);
    if (!stacks)
        fputs("    no call stack was recorded (a trace without stacks, CUPTI's callback API held by another tool, "
              "or CUPROBE_TRACE_STACKS=0)\n", out);
}

/* See trace.h. */
int cp_trace_render_text(FILE *out, const cp_trace_report *r)
{
    fprintf(out, "cuprobe trace: %zu process(es), %zu GPU(s) with work, %" PRIu64 " dropped record(s)\n",
            r->processes, r->ngpus, r->dropped);
    if (r->dropped) fputs("  some activity records were dropped: the figures below miss part of the run\n", out);
    if (r->truncated) fputs("  a trace file ends inside a record (the process was killed): read up to there\n", out);
    if (!r->ngpus) fputs("no kernel or copy was recorded: the program did no GPU work while traced\n", out);
    for (size_t i = 0; i < r->ngpus; i++) {
        const cp_trace_gpu *g = &r->gpus[i];
        fprintf(out, "\nprocess %" PRIu32 ", GPU %" PRIu32 ": busy %.1f %% of ", g->pid, g->device,
                pct(g->busy_ns, g->span_ns));
        dur(out, g->span_ns);
        if (g->idle_load_ns > 0) fprintf(out, " (%.1f %% without library start-up)", steady_pct(g));
        fprintf(out, "; verdict: %s\n  %s\n", cp_trace_verdict_name(g->verdict), cp_trace_verdict_advice(g->verdict));
        if (g->window_end > g->window_start) {
            fputs("  in the window the program marked (cudaProfilerStart .. cudaProfilerStop, ", out);
            dur(out, g->window_end - g->window_start);
            fputs("); the rest of the run is left out\n", out);
        }
        fprintf(out, "  %" PRIu64 " kernels, %" PRIu64 " copies, %" PRIu64 " memsets\n", g->kernels, g->copies,
                g->memsets);
        fputs("  the span runs from the GPU's first work to its last; before it ", out);
        dur(out, g->startup_ns);
        fputs(" of start-up (context creation, loading), after it ", out);
        dur(out, g->tail_ns);
        fputc('\n', out);
        fputs("  where the span went\n", out);
        line(out, "GPU busy (kernels, copies, memsets)", g->busy_ns, g->span_ns);
        line(out, "  of it pageable copies alone", g->pageable_ns, g->span_ns);
        line(out, "idle: host not submitting work", g->idle_host_ns, g->span_ns);
        char lg[64];
        snprintf(lg, sizeof lg, "idle: launch gaps (< %.0f us)", (double)r->opts.launch_gap_ns / 1e3);
        line(out, lg, g->idle_launch_ns, g->span_ns);
        line(out, "idle: host in synchronising calls", g->idle_sync_ns, g->span_ns);
        line(out, "idle: library start-up, code loading", g->idle_load_ns, g->span_ns);
        text_sites(out, g, r->stacks);
        if (g->pageable_bytes || g->pinned_bytes) {
            rate(out, "pageable", g->pageable_bytes, g->pageable_copy_ns, g->pageable_gbps);
            rate(out, "pinned", g->pinned_bytes, g->pinned_copy_ns, g->pinned_gbps);
        }
        if (g->nccl_kernels) {
            fprintf(out, "  NCCL collectives: %" PRIu64 " kernels, ", g->nccl_kernels);
            dur(out, g->nccl_ns);
            fprintf(out, " (%.1f %% of the busy time)", pct(g->nccl_ns, g->busy_ns));
            if (r->coll.matched) {
                fputs("; waiting for the slowest rank ", out);
                dur(out, g->nccl_wait_ns);
                fprintf(out, " (%.1f %% of the span)", pct(g->nccl_wait_ns, g->span_ns));
            }
            fputc('\n', out);
        }
        if (g->nk) fprintf(out, "  kernels (heaviest first)\n    %8s %12s %12s %6s  name\n", "count", "total", "mean", "share");
        for (size_t k = 0; k < g->nk && k < (size_t)r->opts.top_kernels; k++) {
            const cp_trace_kernel_row *row = &g->ktab[k];
            char a[32], b[32];
            snprintf(a, sizeof a, "%.3f ms", (double)row->total_ns / 1e6);
            snprintf(b, sizeof b, "%.1f us", (double)row->mean_ns / 1e3);
            fprintf(out, "    %8" PRIu64 " %12s %12s %5.1f%%  ", row->count, a, b, 100.0 * row->share);
            cp_text_put(out, row->label);
            fputc('\n', out);
        }
        if (g->nk > (size_t)r->opts.top_kernels)
            fprintf(out, "    ... and %zu more kernel names\n", g->nk - (size_t)r->opts.top_kernels);
        counters_text(out, g, r->opts.top_kernels);
        if (g->ngaps) fputs("  longest idle gaps (start after the span's start, length, why, API call in progress)\n", out);
        for (size_t k = 0; k < g->ngaps; k++) {
            const cp_trace_gap *gp = &g->gaps[k];
            fputs("    +", out);
            dur(out, gp->start - g->span_start);
            fputs("  ", out);
            dur(out, gp->end - gp->start);
            fprintf(out, "  %-6s  ", gap_kind(gp->kind));
            cp_text_put(out, gp->api ? gp->api : "(no API call in progress)");
            if (gp->where) {
                fputs(" from ", out);
                cp_text_put(out, gp->where);
            }
            fputc('\n', out);
        }
        if (g->nwin) {
            fputs("  phases: busy % per window of ", out);
            dur(out, g->span_ns / (int64_t)g->nwin);
            fputs("\n   ", out);
            for (size_t w = 0; w < g->nwin; w++)
                fprintf(out, " %3.0f", pct(g->win[w].busy_ns, g->win[w].end - g->win[w].start));
            fputc('\n', out);
        }
    }
    if (r->coll.ranks >= 2) {
        fprintf(out, "\nranks: %zu GPU(s) ran NCCL collectives, %zu matched across them in order", r->coll.ranks,
                r->coll.matched);
        if (r->coll.has_slowest) {
            const cp_trace_gpu *s = &r->gpus[r->coll.slowest];
            int64_t others = 0;
            for (size_t i = 0; i < r->ngpus; i++) others = i == r->coll.slowest ? others : others + r->gpus[i].nccl_wait_ns;
            fprintf(out, "; the slowest: process %" PRIu32 " on GPU %" PRIu32 ", the others waited for it ", s->pid,
                    s->device);
            dur(out, others);
            fputs(" in all (balance the work or the data across ranks, look for what delays that one: its input, "
                  "its host, its GPU's clocks)", out);
        } else if (r->coll.matched) fputs("; the ranks are balanced: none waited for another", out);
        fputc('\n', out);
    }
    text_procs(out, r);
    return ferror(out) ? -1 : 0;
}

static void jnum(FILE *out, const char *key, int64_t v, int *first)
{
    cp_json_key(out, key, first);
    cp_json_i64(out, v);
}

static void jdbl(FILE *out, const char *key, double v, int *first)
{
    cp_json_key(out, key, first);
    cp_json_double(out, v);
}

static void jcopies(FILE *out, const char *key, uint64_t bytes, int64_t ns, double gbps, int *first)
{
    int f = 1;
    cp_json_key(out, key, first);
    fputc('{', out);
    jnum(out, "bytes", (int64_t)bytes, &f);
    jnum(out, "ns", ns, &f);
    jdbl(out, "gbps", gbps, &f);
    fputc('}', out);
}

static void counters_json(FILE *out, const cp_trace_counters *c, int *first)
{
    int f = 1;
    cp_json_key(out, "counters", first);
    fputc('{', out);
    cp_json_member_str(out, "status", cp_trace_ctr_status_name(c->status), &f);
    cp_json_key(out, "reason", &f);
    cp_json_str(out, c->reason);
    cp_json_member_str(out, "method", "pm-sampling", &f);
    cp_json_key(out, "sm_metric", &f);
    cp_json_str(out, c->sm_metric);
    cp_json_key(out, "dram_metrics", &f);
    fputc('[', out);
    if (c->dram_metric) cp_json_str(out, c->dram_metric);
    if (c->dram_metric && c->dram_metric2) fputs(", ", out);
    if (c->dram_metric2) cp_json_str(out, c->dram_metric2);
    fputc(']', out);
    cp_json_key(out, "clock", &f);
    cp_json_str(out, c->clock);
    jnum(out, "interval_ns", c->interval_ns, &f);
    jnum(out, "asked_interval_ns", c->asked_interval_ns, &f);
    jnum(out, "samples", (int64_t)c->samples, &f);
    jnum(out, "sampled_kernel_ns", c->sampled_kernel_ns, &f);
    jdbl(out, "bound_pct", CP_TRACE_BOUND_PCT, &f);
    fputc('}', out);
}

/* See trace.h. */
int cp_trace_render_json(FILE *out, const cp_trace_report *r)
{
    int f = 1;
    fputc('{', out);
    cp_json_member_str(out, "schema", "cuprobe-trace/1", &f);
    jnum(out, "processes", (int64_t)r->processes, &f);
    jnum(out, "dropped", (int64_t)r->dropped, &f);
    cp_json_key(out, "truncated", &f);
    fputs(r->truncated ? "true" : "false", out);
    jnum(out, "api_calls", (int64_t)r->api_calls, &f);
    jnum(out, "stacks", (int64_t)r->stacks, &f);
    jnum(out, "launch_gap_ns", r->opts.launch_gap_ns, &f);
    cp_json_key(out, "gpus", &f);
    fputs("[\n", out);
    for (size_t i = 0; i < r->ngpus; i++) {
        const cp_trace_gpu *g = &r->gpus[i];
        int h = 1;
        fputs(i ? ",\n {" : " {", out);
        jnum(out, "pid", g->pid, &h);
        jnum(out, "device", g->device, &h);
        cp_json_member_str(out, "verdict", cp_trace_verdict_name(g->verdict), &h);
        cp_json_member_str(out, "advice", cp_trace_verdict_advice(g->verdict), &h);
        jnum(out, "span_ns", g->span_ns, &h);
        jnum(out, "startup_ns", g->startup_ns, &h);
        jnum(out, "tail_ns", g->tail_ns, &h);
        jnum(out, "busy_ns", g->busy_ns, &h);
        jdbl(out, "busy_pct", pct(g->busy_ns, g->span_ns), &h);
        jdbl(out, "steady_busy_pct", steady_pct(g), &h);
        cp_json_key(out, "window", &h);
        if (g->window_end > g->window_start) {
            int w = 1;
            fputc('{', out);
            cp_json_member_str(out, "from", "cudaProfilerStart", &w);
            jnum(out, "ns", g->window_end - g->window_start, &w);
            fputc('}', out);
        } else fputs("null", out);
        jnum(out, "kernel_ns", g->kernel_ns, &h);
        jnum(out, "pageable_ns", g->pageable_ns, &h);
        jnum(out, "idle_host_ns", g->idle_host_ns, &h);
        jnum(out, "idle_launch_ns", g->idle_launch_ns, &h);
        jnum(out, "idle_sync_ns", g->idle_sync_ns, &h);
        jnum(out, "idle_load_ns", g->idle_load_ns, &h);
        jnum(out, "kernels", (int64_t)g->kernels, &h);
        jnum(out, "copies", (int64_t)g->copies, &h);
        jnum(out, "memsets", (int64_t)g->memsets, &h);
        cp_json_key(out, "nccl", &h);
        {
            int e = 1;
            fputc('{', out);
            jnum(out, "kernels", (int64_t)g->nccl_kernels, &e);
            jnum(out, "ns", g->nccl_ns, &e);
            jnum(out, "wait_ns", g->nccl_wait_ns, &e);
            fputc('}', out);
        }
        jcopies(out, "pageable_copies", g->pageable_bytes, g->pageable_copy_ns, g->pageable_gbps, &h);
        jcopies(out, "pinned_copies", g->pinned_bytes, g->pinned_copy_ns, g->pinned_gbps, &h);
        cp_json_key(out, "kernel_table", &h);
        fputc('[', out);
        for (size_t k = 0; k < g->nk; k++) {
            int e = 1;
            fputs(k ? ", {" : "{", out);
            cp_json_key(out, "name", &e);
            cp_json_str(out, g->ktab[k].label);
            jnum(out, "count", (int64_t)g->ktab[k].count, &e);
            jnum(out, "total_ns", g->ktab[k].total_ns, &e);
            jnum(out, "mean_ns", g->ktab[k].mean_ns, &e);
            jdbl(out, "share", g->ktab[k].share, &e);
            if (g->ctr.asked && g->ctr.status == CP_CTR_OK) {
                jdbl(out, "sm_pct", g->ktab[k].sm_pct, &e);
                jdbl(out, "dram_pct", g->ktab[k].dram_pct, &e);
                jnum(out, "sampled_ns", g->ktab[k].sampled_ns, &e);
                cp_json_member_str(out, "bound", cp_trace_bound_name(g->ktab[k].bound), &e);
            }
            fputc('}', out);
        }
        fputc(']', out);
        if (g->ctr.asked) counters_json(out, &g->ctr, &h);
        cp_json_key(out, "gaps", &h);
        fputc('[', out);
        for (size_t k = 0; k < g->ngaps; k++) {
            int e = 1;
            fputs(k ? ", {" : "{", out);
            jnum(out, "start_ns", g->gaps[k].start - g->span_start, &e);
            jnum(out, "ns", g->gaps[k].end - g->gaps[k].start, &e);
            cp_json_member_str(out, "kind", gap_kind(g->gaps[k].kind), &e);
            cp_json_key(out, "api", &e);
            cp_json_str(out, g->gaps[k].api);
            cp_json_key(out, "where", &e);
            cp_json_str(out, g->gaps[k].where);
            cp_json_key(out, "stack", &e);
            cp_json_str(out, g->gaps[k].stack);
            fputc('}', out);
        }
        fputc(']', out);
        cp_json_key(out, "sync_sites", &h);
        fputc('[', out);
        for (size_t k = 0; k < g->nsites; k++) {
            int e = 1;
            fputs(k ? ", {" : "{", out);
            cp_json_key(out, "where", &e);
            cp_json_str(out, g->sites[k].where);
            cp_json_key(out, "api", &e);
            cp_json_str(out, g->sites[k].api);
            jnum(out, "ns", g->sites[k].ns, &e);
            jdbl(out, "idle_share", g->span_ns > g->busy_ns ? (double)g->sites[k].ns / (double)(g->span_ns - g->busy_ns) : 0.0, &e);
            jnum(out, "gaps", (int64_t)g->sites[k].gaps, &e);
            jnum(out, "sampled", (int64_t)g->sites[k].sampled, &e);
            jnum(out, "calls", (int64_t)g->sites[k].calls, &e);
            fputc('}', out);
        }
        fputc(']', out);
        cp_json_key(out, "phases", &h);
        fputc('[', out);
        for (size_t k = 0; k < g->nwin; k++) {
            int e = 1;
            fputs(k ? ", {" : "{", out);
            jnum(out, "start_ns", g->win[k].start - g->span_start, &e);
            jnum(out, "ns", g->win[k].end - g->win[k].start, &e);
            jnum(out, "busy_ns", g->win[k].busy_ns, &e);
            fputc('}', out);
        }
        fputs("]}", out);
    }
    fputs("\n]", out);
    cp_json_key(out, "collectives", &f);
    {
        int e = 1;
        fputc('{', out);
        jnum(out, "ranks", (int64_t)r->coll.ranks, &e);
        jnum(out, "matched", (int64_t)r->coll.matched, &e);
        cp_json_key(out, "slowest", &e);
        if (r->coll.has_slowest) {
            int s = 1;
            fputc('{', out);
            jnum(out, "pid", r->gpus[r->coll.slowest].pid, &s);
            jnum(out, "device", r->gpus[r->coll.slowest].device, &s);
            fputc('}', out);
        } else fputs("null", out);
        fputc('}', out);
    }
    cp_json_key(out, "process_list", &f);
    fputs("[\n", out);
    for (size_t i = 0; i < r->nprocs; i++) {
        const cp_trace_proc *p = &r->procs[i];
        int h = 1;
        fputs(i ? ",\n {" : " {", out);
        jnum(out, "pid", p->pid, &h);
        cp_json_member_str(out, "end", end_kind(p), &h);
        cp_json_key(out, "end_signal", &h);
        if (p->ended && p->end_signal) cp_json_i64(out, p->end_signal);
        else fputs("null", out);
        cp_json_key(out, "truncated", &h);
        fputs(p->truncated ? "true" : "false", out);
        jnum(out, "gpus", (int64_t)p->gpus, &h);
        jnum(out, "kernels", (int64_t)p->kernels, &h);
        jnum(out, "copies", (int64_t)p->copies, &h);
        jnum(out, "unattributed", (int64_t)p->unattributed, &h);
        cp_json_key(out, "threads", &h);
        fputc('[', out);
        for (size_t k = 0; k < p->nthreads; k++) {
            const cp_trace_thread *x = &p->threads[k];
            int e = 1;
            fputs(k ? ", {" : "{", out);
            jnum(out, "tid", (int64_t)x->tid, &e);
            jnum(out, "api_calls", (int64_t)x->api_calls, &e);
            jnum(out, "api_ns", x->api_ns, &e);
            jnum(out, "sync_ns", x->sync_ns, &e);
            jnum(out, "kernels", (int64_t)x->kernels, &e);
            jnum(out, "copies", (int64_t)x->copies, &e);
            jnum(out, "streams", x->streams, &e);
            fputc('}', out);
        }
        fputs("]}", out);
    }
    fputs("\n]}\n", out);
    return ferror(out) ? -1 : 0;
}

static int64_t first_time(const cp_trace *t, size_t n)
{
    int64_t s = INT64_MAX;
    for (size_t p = 0; p < n; p++)
        for (size_t i = 0; i < t[p].n; i++)
            if (t[p].recs[i].type >= CP_TREC_KERNEL && t[p].recs[i].type <= CP_TREC_OVERHEAD && t[p].recs[i].start < s)
                s = t[p].recs[i].start;
    return s == INT64_MAX ? 0 : s;
}

static const char *rec_cat(const cp_trace_rec *r)
{
    static const char *const c[] = { "", "", "kernel", "memcpy", "memset", "sync", "api", "overhead", "" };
    return r->type < sizeof c / sizeof c[0] ? c[r->type] : "";
}

/* See trace.h. */
int cp_trace_render_chrome(FILE *out, const cp_trace *t, size_t n)
{
    static const char *const sync_names[] = { "sync", "cudaEventSynchronize", "cudaStreamWaitEvent",
                                              "cudaStreamSynchronize", "cudaDeviceSynchronize" };
    int64_t t0 = first_time(t, n);
    int first = 1;
    fputs("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n", out);
    for (size_t p = 0; p < n; p++) {
        for (size_t i = 0; i < t[p].n; i++) {
            const cp_trace_rec *r = &t[p].recs[i];
            if (r->type == CP_TREC_DROPPED || r->type == CP_TREC_COUNTERS || r->type == CP_TREC_SAMPLE) continue;
            const char *name = cp_trace_str(&t[p], r->name);
            char buf[64];
            if (r->type == CP_TREC_MEMCPY) {
                snprintf(buf, sizeof buf, "memcpy kind %u (%s)", r->copy_kind,
                         r->src_kind == CP_MEM_PAGEABLE || r->dst_kind == CP_MEM_PAGEABLE ? "pageable" : "pinned/device");
                name = buf;
            } else if (r->type == CP_TREC_MEMSET) name = "memset";
            else if (r->type == CP_TREC_SYNC) name = sync_names[r->sync_type < 5 ? r->sync_type : 0];
            else if (r->type == CP_TREC_OVERHEAD) name = "CUPTI overhead";
            uint64_t tid = r->type == CP_TREC_API ? r->tid
                           : r->type == CP_TREC_SYNC || r->type == CP_TREC_OVERHEAD ? 0
                           : 1000000000ull + (uint64_t)r->device * 100000ull + r->stream;
            fputs(first ? "{" : ",\n{", out);
            first = 0;
            fputs("\"name\": ", out);
            cp_json_str(out, name ? name : "?");
            fprintf(out, ", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, \"pid\": %" PRIu32
                         ", \"tid\": %" PRIu64, rec_cat(r), (double)(r->start - t0) / 1e3,
                    (double)(r->end - r->start) / 1e3, t[p].pid, tid);
            if (r->type == CP_TREC_MEMCPY || r->type == CP_TREC_MEMSET)
                fprintf(out, ", \"args\": {\"bytes\": %" PRIu64 ", \"device\": %" PRIu32 "}", r->bytes, r->device);
            else if (r->type == CP_TREC_KERNEL)
                fprintf(out, ", \"args\": {\"device\": %" PRIu32 ", \"grid\": [%d, %d, %d], \"block\": [%d, %d, %d]}",
                        r->device, r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2]);
            fputc('}', out);
        }
    }
    fputs("\n]}\n", out);
    return ferror(out) ? -1 : 0;
}

#define HW 1100
#define HX 150

/* The busy intervals of one process on one GPU, merged to the pixel. */
static void html_row(FILE *out, const cp_trace *t, const cp_trace_gpu *g, int y, int api)
{
    double scale = g->span_ns > 0 ? (double)(HW - HX - 10) / (double)g->span_ns : 0;
    double cur0 = -1, cur1 = -1;
    for (int pass = 0; pass < 2; pass++) {     /* kernels and copies apart: blue and orange */
        cur0 = cur1 = -1;
        const char *fill = api ? (pass ? "#d62728" : "#9aa") : pass ? "#ff7f0e" : "#1f77b4";
        for (size_t i = 0; i <= t->n; i++) {
            const cp_trace_rec *r = i < t->n ? &t->recs[i] : NULL;
            int take = r && (api ? r->type == CP_TREC_API || r->type == CP_TREC_SYNC
                                 : (r->type == CP_TREC_KERNEL || r->type == CP_TREC_MEMCPY || r->type == CP_TREC_MEMSET) &&
                                       r->device == g->device);
            if (r && !take) continue;
            int is2 = r && (api ? r->type == CP_TREC_SYNC || (cp_trace_str(t, r->name) &&
                                                                strstr(cp_trace_str(t, r->name), "Synchronize"))
                                : r->type != CP_TREC_KERNEL);
            if (r && is2 != pass) continue;
            double a = r ? HX + (double)(r->start - g->span_start) * scale : 1e18;
            double b = r ? HX + (double)(r->end - g->span_start) * scale : 1e18;
            if (cur0 >= 0 && a <= cur1 + 0.5) {
                if (b > cur1) cur1 = b;
                continue;
            }
            if (cur0 >= 0)
                fprintf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"%s\"/>\n", cur0, y,
                        cur1 - cur0 < 0.5 ? 0.5 : cur1 - cur0, fill);
            cur0 = a;
            cur1 = b;
        }
    }
}

/* See trace.h. */
int cp_trace_render_html(FILE *out, const cp_trace_report *r, const cp_trace *t, size_t n)
{
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>cuprobe trace</title>\n"
          "<style>body{font:14px sans-serif;margin:20px}pre{background:#f6f6f6;padding:8px}"
          "#tip{position:fixed;background:#ffe;border:1px solid #999;padding:2px 6px;display:none}</style>\n"
          "</head><body>\n<h1>cuprobe trace</h1>\n", out);
    if (!r->ngpus) fputs("<p>No kernel or copy was recorded.</p>\n", out);
    for (size_t i = 0; i < r->ngpus; i++) {
        const cp_trace_gpu *g = &r->gpus[i];
        const cp_trace *tp = NULL;
        for (size_t p = 0; p < n; p++)
            if (t[p].pid == g->pid) tp = &t[p];
        fprintf(out, "<h2>process %" PRIu32 ", GPU %" PRIu32 ": busy %.1f %% &mdash; %s</h2>\n<p>", g->pid, g->device,
                pct(g->busy_ns, g->span_ns), cp_trace_verdict_name(g->verdict));
        cp_xml_text(out, cp_trace_verdict_advice(g->verdict));
        fputs("</p>\n", out);
        struct { const char *what, *fill; int64_t ns; } part[] = {
            { "busy", "#1f77b4", g->busy_ns - g->pageable_ns }, { "pageable copies", "#ff7f0e", g->pageable_ns },
            { "idle: host", "#bbb", g->idle_host_ns }, { "idle: launch gaps", "#9467bd", g->idle_launch_ns },
            { "idle: sync", "#d62728", g->idle_sync_ns }, { "idle: library start-up", "#8c564b", g->idle_load_ns } };
        fprintf(out, "<svg class=\"bd\" width=\"%d\" height=\"60\" xmlns=\"http://www.w3.org/2000/svg\">\n", HW);
        double x = HX;
        for (size_t k = 0; k < sizeof part / sizeof part[0]; k++) {
            double w = g->span_ns > 0 ? (double)(HW - HX - 10) * (double)part[k].ns / (double)g->span_ns : 0;
            fprintf(out, "<rect x=\"%.1f\" y=\"4\" width=\"%.1f\" height=\"22\" fill=\"%s\" data-tip=\"%s %.1f %%\"/>\n",
                    x, w, part[k].fill, part[k].what, pct(part[k].ns, g->span_ns));
            fprintf(out, "<rect x=\"%d\" y=\"38\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"48\">%s %.1f%%</text>\n",
                    HX + (int)k * 150, part[k].fill, HX + 14 + (int)k * 150, part[k].what, pct(part[k].ns, g->span_ns));
            x += w;
        }
        fputs("<text x=\"0\" y=\"20\">where time went</text></svg>\n", out);
        fprintf(out, "<svg class=\"tl\" width=\"%d\" height=\"70\" xmlns=\"http://www.w3.org/2000/svg\">\n"
                     "<text x=\"0\" y=\"17\">GPU (kernels, copies)</text><text x=\"0\" y=\"47\">host API (syncs red)</text>\n", HW);
        if (tp) {
            html_row(out, tp, g, 4, 0);
            html_row(out, tp, g, 34, 1);
        }
        fprintf(out, "<text x=\"%d\" y=\"66\">0</text><text x=\"%d\" y=\"66\" text-anchor=\"end\">%.3f ms</text></svg>\n", HX,
                HW - 10, (double)g->span_ns / 1e6);
        int ctr = g->ctr.asked && g->ctr.status == CP_CTR_OK;
        if (g->ctr.asked && !ctr) {
            fputs("<p>Hardware counters missing: ", out);
            cp_xml_text(out, g->ctr.reason);
            fputs("</p>\n", out);
        }
        fprintf(out, "<h3>kernels</h3>\n<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr><th>count</th><th>total ms</th>"
                     "<th>mean us</th><th>share</th>%s<th>name</th></tr>\n",
                ctr ? "<th>SM %</th><th>DRAM %</th><th>bound</th>" : "");
        for (size_t k = 0; k < g->nk && k < (size_t)r->opts.top_kernels; k++) {
            fprintf(out, "<tr><td>%" PRIu64 "</td><td>%.3f</td><td>%.1f</td><td>%.1f %%</td>", g->ktab[k].count,
                    (double)g->ktab[k].total_ns / 1e6, (double)g->ktab[k].mean_ns / 1e3, 100.0 * g->ktab[k].share);
            if (ctr) {
                if (isnan(g->ktab[k].sm_pct)) fputs("<td>-</td>", out);
                else fprintf(out, "<td>%.1f</td>", g->ktab[k].sm_pct);
                if (isnan(g->ktab[k].dram_pct)) fputs("<td>-</td>", out);
                else fprintf(out, "<td>%.1f</td>", g->ktab[k].dram_pct);
                fprintf(out, "<td>%s</td>", cp_trace_bound_name(g->ktab[k].bound));
            }
            fputs("<td>", out);
            cp_xml_text(out, g->ktab[k].label);
            fputs("</td></tr>\n", out);
        }
        fputs("</table>\n<h3>longest idle gaps</h3>\n<ul>\n", out);
        for (size_t k = 0; k < g->ngaps; k++) {
            fprintf(out, "<li>+%.3f ms: %.3f ms, %s, ", (double)(g->gaps[k].start - g->span_start) / 1e6,
                    (double)(g->gaps[k].end - g->gaps[k].start) / 1e6, gap_kind(g->gaps[k].kind));
            cp_xml_text(out, g->gaps[k].api ? g->gaps[k].api : "no API call in progress");
            if (g->gaps[k].where) {
                fputs(" from <b data-tip=\"", out);
                cp_xml_text(out, g->gaps[k].stack ? g->gaps[k].stack : "");
                fputs("\">", out);
                cp_xml_text(out, g->gaps[k].where);
                fputs("</b>", out);
            }
            fputs("</li>\n", out);
        }
        fputs("</ul>\n", out);
        if (g->idle_sync_ns) {
            fputs("<h3>where the program waited</h3>\n<ul>\n", out);
            int64_t idle = g->span_ns - g->busy_ns;
            for (size_t k = 0; k < g->nsites && k < TOP_SITES; k++) {
                fprintf(out, "<li>%.1f %% of idle time: synchronisation from ", pct(g->sites[k].ns, idle));
                cp_xml_text(out, g->sites[k].where ? g->sites[k].where : "a place not recorded (no call stack)");
                fputs(" (", out);
                cp_xml_text(out, g->sites[k].api ? g->sites[k].api : "no API call named");
                fputs(")</li>\n", out);
            }
            fputs("</ul>\n", out);
        }
    }
    if (r->nprocs)
        fputs("<h2>processes and host threads</h2>\n<p>API time: the union of a thread's CUDA calls; sync: of its "
              "synchronising calls; kernels and copies: the work it queued.</p>\n", out);
    for (size_t i = 0; i < r->nprocs; i++) {
        const cp_trace_proc *p = &r->procs[i];
        fprintf(out, "<h3>process %" PRIu32 "</h3>\n<p class=\"end end-%s\">%zu GPU(s), %" PRIu64 " kernels, %" PRIu64
                     " copies/memsets, %zu thread(s): ", p->pid, end_kind(p), p->gpus, p->kernels, p->copies, p->nthreads);
        html_ending(out, p);
        fputs("</p>\n", out);
        if (!p->nthreads) continue;
        fputs("<table class=\"threads\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr><th>thread</th><th>calls</th>"
              "<th>API ms</th><th>sync ms</th><th>kernels</th><th>copies</th><th>streams</th></tr>\n", out);
        for (size_t k = 0; k < p->nthreads; k++) {
            const cp_trace_thread *x = &p->threads[k];
            fprintf(out, "<tr><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%.3f</td><td>%.3f</td><td>%" PRIu64 "</td><td>%" PRIu64
                         "</td><td>%" PRIu32 "</td></tr>\n", x->tid, x->api_calls, (double)x->api_ns / 1e6,
                    (double)x->sync_ns / 1e6, x->kernels, x->copies, x->streams);
        }
        fputs("</table>\n", out);
    }
    /* the script marks the page once it ran (data-timeline: the timeline's bars), for tests/html.sh */
    fputs("<div id=\"tip\"></div>\n<script>\n"
          "var tip=document.getElementById('tip');\n"
          "document.querySelectorAll('[data-tip]').forEach(function(e){\n"
          " e.addEventListener('mousemove',function(ev){tip.textContent=e.getAttribute('data-tip');"
          "tip.style.left=(ev.clientX+12)+'px';tip.style.top=(ev.clientY+12)+'px';tip.style.display='block';});\n"
          " e.addEventListener('mouseleave',function(){tip.style.display='none';});});\n"
          "document.body.setAttribute('data-timeline','drawn '+document.querySelectorAll('svg.tl rect').length);\n"
          "</script>\n</body></html>\n", out);
    return ferror(out) ? -1 : 0;
}
