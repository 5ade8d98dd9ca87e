/* Fuzz the dynamic-section reader: ELF header, both header tables, the
 * Elf64_Dyn array and the string table. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fatbin/elfdyn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* exactly size bytes: an over-read is caught by ASan */
    unsigned char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    cp_elf_dyn d;
    char err[256];
    if (cp_elf_dynamic_bytes(buf, size, &d, err, sizeof err) == 0) {
        if (d.nneeded < 0 || d.nneeded > CP_ELF_MAX_NEEDED || d.needed_total < d.nneeded)
            abort();
        for (int i = 0; i < d.nneeded; i++)
            if (memchr(d.needed[i], '\0', sizeof d.needed[i]) == NULL)
                abort();
        if (!memchr(d.runpath, '\0', sizeof d.runpath) || !memchr(d.rpath, '\0', sizeof d.rpath))
            abort();
    } else if (!err[0]) {
        abort();
    }
    free(buf);
    return 0;
}
