/* Fuzz the trace file reader, and the analysis and renderers over what it read. */
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
