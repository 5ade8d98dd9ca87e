/* Fuzz the explain engine and both renderers on arbitrary bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuprobe/explain.h"
#include "explain/explain_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size ? size : 1);      /* exact size: ASan sees any overread */
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    cp_explain_result r;
    if (cp_explain_text(buf, size, &r) == 0) {
        for (int i = 0; i < r.nsignals; i++) {
            const cp_explain_signal *s = &r.signals[i];
            if (strlen(s->evidence) > 200 || s->count < 1 || s->first_line < 1 || !s->cause || !s->fix)
                abort();
            if ((s->error_enum == NULL) != (s->error_number < 0))
                abort();
            /* a named component (the last tier) only where nothing else was found */
            if (s->named != r.signals[0].named)
                abort();
            /* by first line (named components: by layer, the lowest first, then by first line), the
             * notices after the faults, the alternative readings last */
            int rank = s->alternative ? 2 : s->notice ? 1 : 0;
            int prev = i > 0 ? (r.signals[i - 1].alternative ? 2 : r.signals[i - 1].notice ? 1 : 0) : 0;
            if (i > 0 && prev > rank)
                abort();
            if (i > 0 && s->named && (s->layer < r.signals[i - 1].layer ||
                                      (s->layer == r.signals[i - 1].layer && s->first_line < r.signals[i - 1].first_line)))
                abort();
            if (i > 0 && !s->named && prev == rank && s->first_line < r.signals[i - 1].first_line)
                abort();
            /* an alternative reading only beside a signal of another layer on its line */
            if (s->alternative) {
                int beside = 0;
                for (int j = 0; j < r.nsignals; j++)
                    beside |= !r.signals[j].alternative && r.signals[j].first_line == s->first_line &&
                              r.signals[j].layer != s->layer;
                if (!beside || s->named)
                    abort();
            }
        }
        FILE *null = fopen("/dev/null", "w");
        if (null) {
            cp_explain_render_text(&r, null, 1);
            cp_explain_render_json(&r, null);
            fclose(null);
        }
        cp_explain_free(&r);
    }
    char paths[CP_EXPLAIN_MAX_PATHS][256];
    int n = cp_explain_paths(buf, size, paths);
    if (n < 0 || n > CP_EXPLAIN_MAX_PATHS)
        abort();
    for (int i = 0; i < n; i++)
        if (paths[i][0] != '/' || strlen(paths[i]) >= 256 || !memmem(buf, size, paths[i], strlen(paths[i])))
            abort();
    free(buf);
    return 0;
}
