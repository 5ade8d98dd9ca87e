/* Fuzz the fatbin reader: ELF section table, containers, entries. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cuprobe/arch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* exactly size bytes: an over-read is caught by ASan */
    unsigned char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    cp_arch_summary s;
    char err[256], why[256];
    if (cp_arch_scan_bytes(buf, size, &s, err, sizeof err) == 0) {
        if (s.ncodes < 0 || s.ncodes > CP_ARCH_MAX_CODES || s.entries < s.unknown_entries)
            abort();
        int64_t n = s.unknown_entries;
        for (int i = 0; i < s.ncodes; i++)
            n += s.codes[i].count;
        if (n != s.entries)
            abort();
        (void)cp_arch_verdict(&s, 9, 0, 13000, why, sizeof why);
        (void)cp_arch_verdict(&s, 12, 1, 0, why, sizeof why);
    } else if (!err[0]) {
        abort();
    }
    free(buf);
    return 0;
}
