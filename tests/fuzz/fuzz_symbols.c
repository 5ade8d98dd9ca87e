/* Fuzz where in the program's readers of outside files: the ELF symbol
 * tables (a module's file, read after the run) and the perf map's lines. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cuprobe/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* exactly size bytes: an over-read is caught by ASan */
    unsigned char *buf = malloc(size ? size : 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    char name[128];
    uint64_t off = 0;
    static const uint64_t probes[] = { 0, 1, 0x1000, 0x1139, 0x401000, UINT64_MAX };
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        memset(name, 'x', sizeof name);
        if (cp_trace_elf_symbol(buf, size, probes[i], name, sizeof name, &off) == 0 && !memchr(name, '\0', sizeof name))
            abort();
        if (cp_trace_elf_symbol(buf, size, probes[i], name, sizeof name, &off) == 0 && off > probes[i]) abort();
    }
    cp_trace t;
    memset(&t, 0, sizeof t);
    int n = cp_trace_perfmap_parse(&t, (const char *)buf, size);
    if (n >= 0 && (size_t)n != t.nperf) abort();
    for (size_t i = 1; i < t.nperf; i++)
        if (t.perf[i - 1].start > t.perf[i].start || !t.perf[i].size) abort();
    cp_trace_free(&t);
    free(buf);
    return 0;
}
