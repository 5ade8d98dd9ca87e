/* libFuzzer target for cp_parse_ldcache (src/lib/host/ldcache.c).  The
 * input is copied into a buffer of exactly its size so ASan sees any read
 * past len; the callback touches every byte of each string it gets.
 * Corpus: tests/fuzz/corpus/ldcache/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/host.h"
#include "installed/installed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int touch(const char *soname, const char *path, void *arg)
{
    size_t *sum = arg;
    *sum += strlen(soname) + strlen(path);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    size_t sum = 0;
    int n = cp_parse_ldcache(buf, size, touch, &sum);
    /* each entry is at least 24 bytes of table */
    if (n > 0 && (size_t)n > size / 24)
        abort();
    free(buf);
    return 0;
}
