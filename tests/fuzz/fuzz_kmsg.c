/* Fuzz the kernel log parser (kmsg and dmesg forms, their timestamps) and
 * the /proc/uptime parser beside it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "host/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cp_kernel_log k;
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    cp_parse_kernel_log(buf, size, &k);
    if (k.nxid < 0 || k.nxid > CP_MAX_XIDS || k.xid_total < k.nxid)
        abort();
    for (int i = 0; i < k.nxid; i++)
        if (strlen(k.xids[i].text) >= sizeof k.xids[i].text ||
            strlen(k.xids[i].pci) >= sizeof k.xids[i].pci ||
            (k.xids[i].at_s < 0 && k.xids[i].at_s != CP_UNKNOWN))
            abort();
    if ((k.fell_off_bus_at_s < 0 && k.fell_off_bus_at_s != CP_UNKNOWN) ||
        (k.fell_off_bus == 0 && k.fell_off_bus_at_s != CP_UNKNOWN))
        abort();
    int64_t up = cp_parse_uptime(buf, size);
    if (up < 0 && up != CP_UNKNOWN)
        abort();
    free(buf);
    return 0;
}
