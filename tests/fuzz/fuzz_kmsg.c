/* Fuzz the kernel log parser (kmsg and dmesg forms). */
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
            strlen(k.xids[i].pci) >= sizeof k.xids[i].pci)
            abort();
    free(buf);
    return 0;
}
