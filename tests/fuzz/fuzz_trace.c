/* Fuzz the trace file reader, and the symbolisation, analysis and renderers
 * over what it read (the same bytes read as a perf map too). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuprobe/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cp_trace t;
    char err[128];
    if (cp_trace_parse(data, size, &t, err, sizeof err) < 0) {
        if (memchr(err, '\0', sizeof err) == NULL) abort();
        return 0;
    }
    if (cp_trace_perfmap_parse(&t, (const char *)data, size) < 0 || cp_trace_symbolise(&t) < 0) {
        cp_trace_free(&t);
        return 0;
    }
    for (size_t i = 0; i < t.nstacks; i++)
        if (t.stacks[i].depth > CP_TRACE_MAX_DEPTH || t.stacks[i].first + t.stacks[i].depth > t.npcs) abort();
    cp_trace_report r;
    if (cp_trace_analyze(&t, 1, NULL, &r) == 0) {
        FILE *null = fopen("/dev/null", "w");
        if (null) {
            cp_trace_render_text(null, &r);
            cp_trace_render_json(null, &r);
            cp_trace_render_chrome(null, &t, 1);
            cp_trace_render_html(null, &r, &t, 1);
            fclose(null);
        }
        int64_t sum = 0;
        for (size_t i = 0; i < r.ngpus; i++) {
            const cp_trace_gpu *g = &r.gpus[i];
            sum = g->busy_ns + g->idle_host_ns + g->idle_launch_ns + g->idle_sync_ns;
            (void)sum;
        }
        cp_trace_report_free(&r);
    }
    cp_trace_free(&t);
    return 0;
}
