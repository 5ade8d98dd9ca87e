/* libFuzzer target for cp_parse_version_json (src/lib/host/versionjson.c).
 * The input is copied into a buffer of exactly its size so ASan sees any
 * read past len.  Corpus: tests/fuzz/corpus/version_json/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/host.h"
#include "installed/installed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    char out[32];
    if (cp_parse_version_json(buf, size, out, sizeof out) == 0) {
        /* a success is a plausible, terminated version string */
        size_t n = strlen(out);
        if (n == 0 || n >= sizeof out || out[0] < '0' || out[0] > '9')
            abort();
    } else if (out[0] != '\0') {
        abort();
    }
    char tiny[4];
    cp_parse_version_json(buf, size, tiny, sizeof tiny);
    free(buf);
    return 0;
}
