/* Fuzz the exporter's HTTP request parser (cp_http_parse). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cuprobe/telemetry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* exactly size bytes, no terminator: an over-read is caught by ASan */
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    cp_http_req r;
    int rc = cp_http_parse(buf, size, &r);
    if (rc < CP_HTTP_INCOMPLETE || rc > CP_HTTP_TOO_LARGE)
        abort();
    if (rc == CP_HTTP_OK) {
        /* what the exporter relies on: a bounded, terminated, '/'-led path */
        if (r.consumed == 0 || r.consumed > size || r.path[0] != '/' ||
            memchr(r.path, '\0', sizeof r.path) == NULL || memchr(r.method, '\0', sizeof r.method) == NULL)
            abort();
    }
    free(buf);
    return 0;
}
