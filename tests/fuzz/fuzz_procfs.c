/* Fuzz the /proc/driver/nvidia parsers: version banner and GPU information. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "host/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cp_procfs_nvidia p;
    cp_procfs_gpu g;
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    cp_parse_nvidia_version(buf, size, &p);
    cp_parse_nvidia_gpu_info(buf, size, &g);
    if (strlen(p.version) >= sizeof p.version || strlen(p.banner) >= sizeof p.banner ||
        strlen(g.model) >= sizeof g.model || strlen(g.bus) >= sizeof g.bus)
        abort();
    free(buf);
    return 0;
}
