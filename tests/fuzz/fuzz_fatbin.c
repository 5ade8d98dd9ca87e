/* Fuzz the fatbin reader: ELF section table, the relocations that point at
 * containers, containers, entries, cubins, archives and PTX heads, and the
 * coverage of the modules. */
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
        int64_t n = s.unknown_entries + s.lto_entries;
        for (int i = 0; i < s.ncodes; i++)
            n += s.codes[i].count;
        if (n != s.entries)
            abort();
        (void)cp_arch_verdict(&s, 9, 0, 13000, why, sizeof why);
        (void)cp_arch_verdict(&s, 12, 1, 0, why, sizeof why);
        cp_arch_cover c;
        (void)cp_arch_judge(&s, 9, 0, 13000, &c, why, sizeof why);
        int64_t m = s.modules_ungrouped;
        for (int i = 0; i < s.nsets; i++)
            m += s.sets[i].modules;
        if (c.native + c.jit + c.none != c.total || c.total != m || m > s.containers ||
            s.referenced > s.containers)
            abort();
    } else if (!err[0]) {
        abort();
    }
    free(buf);
    return 0;
}
