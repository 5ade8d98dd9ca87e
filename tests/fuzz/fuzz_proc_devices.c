/* Fuzz the /proc/devices parser. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "host/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cp_proc_devices d;
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    cp_parse_proc_devices(buf, size, &d);
    if (d.n < 0 || d.n > CP_MAX_DEVMAJORS || d.total < d.n)
        abort();
    for (int i = 0; i < d.n; i++)
        if (d.m[i].major < 0 || d.m[i].major > 4095 || !d.m[i].name[0] ||
            memchr(d.m[i].name, '\0', sizeof d.m[i].name) == NULL)
            abort();
    free(buf);
    return 0;
}
