/* Fuzz the PCI sysfs parsers: link speed, integers (hex and decimal), CPU lists. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "host/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* exactly size bytes, no terminator: an over-read is caught by ASan */
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    int64_t s = cp_parse_link_speed(buf, size);
    int64_t h = cp_parse_sysfs_int(buf, size, 1);
    int64_t d = cp_parse_sysfs_int(buf, size, 0);
    char list[16];
    cp_parse_cpulist(buf, size, list, sizeof list);
    if (strlen(list) >= sizeof list)
        abort();
    if (s != CP_UNKNOWN && s < 0)
        abort();
    (void)h;
    (void)d;
    free(buf);
    return 0;
}
