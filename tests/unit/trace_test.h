/* What the trace tests (test_trace*.c) share. */
#ifndef CUPROBE_TRACE_TEST_H
#define CUPROBE_TRACE_TEST_H

#include <stdio.h>
#include <string.h>
#include "test.h"
#include "cuprobe/trace.h"
#include "util/alloc.h"

/* A trace file built in memory: the header, then strings and records. */
typedef struct {
    unsigned char b[1 << 16];
    size_t n;
} fbuf;

static inline void put_hdr(fbuf *f, uint32_t pid)
{
    f->n = cp_trace_encode_header(f->b, sizeof f->b, pid, 1700000000000000000LL);
}

static inline void put_str(fbuf *f, uint32_t id, const char *s)
{
    f->n += cp_trace_encode_string(f->b + f->n, sizeof f->b - f->n, id, s, strlen(s));
}

static inline void put(fbuf *f, cp_trace_rec r)
{
    size_t k = cp_trace_encode_rec(f->b + f->n, sizeof f->b - f->n, &r);
    CHECK(k > 0 && k <= sizeof f->b - f->n);
    f->n += k;
}


/* One run of an allocation-failure sweep: arm cp_alloc_fail_at(n) where
 * failures may begin (after the set-up that is not under test), do the
 * work, free all of it, and say how it went. */
enum { SWEEP_REFUSED, SWEEP_THROUGH, SWEEP_SHORT };  /* an error said; done, nothing refused; done, something refused */
typedef int (*sweep_run)(void *ctx, long n);

/* Fail the n-th allocation, n = 1, 2, ... below max, until a run goes
 * through with nothing refused.  Returns how many runs were refused (an
 * error said), or -1 when no run went through.  Disarms the failure after
 * every run. */
static inline int alloc_sweep(long max, sweep_run run, void *ctx)
{
    int refused = 0;
    for (long n = 1; n < max; n++) {
        int how = run(ctx, n);
        cp_alloc_fail_at(0);
        if (how == SWEEP_THROUGH) return refused;
        refused += how == SWEEP_REFUSED;
    }
    return -1;
}

/* A sweep over parsing one trace file and analysing it, with an optional
 * step between the two (0 for done). */
typedef struct {
    const fbuf *f;
    int (*between)(cp_trace *t);
} sweep_trace;

static inline int parse_analyze_run(void *ctx, long n)
{
    const sweep_trace *w = ctx;
    char err[128];
    cp_trace t;
    cp_trace_report r;
    cp_alloc_fail_at(n);
    if (cp_trace_parse(w->f->b, w->f->n, &t, err, sizeof err) < 0) {
        CHECK(strstr(err, "out of memory") != NULL);
        return SWEEP_REFUSED;
    }
    int how = SWEEP_REFUSED;
    if ((!w->between || w->between(&t) == 0) && cp_trace_analyze(&t, 1, NULL, &r) == 0) {
        how = cp_alloc_refused() == 0 ? SWEEP_THROUGH : SWEEP_SHORT;
        cp_trace_report_free(&r);
    }
    cp_trace_free(&t);
    return how;
}

/* One renderer's output in a fresh string (0 text, 1 JSON, 2 Chrome trace, 3 HTML; one trace). */
static inline char *render(int which, const cp_trace_report *r, const cp_trace *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    int rc = which == 0 ? cp_trace_render_text(m, r) : which == 1 ? cp_trace_render_json(m, r)
             : which == 2 ? cp_trace_render_chrome(m, t, 1) : cp_trace_render_html(m, r, t, 1);
    fclose(m);
    CHECK_I64(rc, 0);
    return buf;
}

#endif
