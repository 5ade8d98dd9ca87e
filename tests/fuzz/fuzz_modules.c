/* Fuzz the /proc/modules parser. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "host/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    cp_module mods[CP_MOD_COUNT];
    cp_parse_modules(buf, size, mods);
    for (int i = 0; i < CP_MOD_COUNT; i++)
        if (memchr(mods[i].name, '\0', sizeof mods[i].name) == NULL ||
            memchr(mods[i].state, '\0', sizeof mods[i].state) == NULL)
            abort();
    free(buf);
    return 0;
}
