/* libFuzzer target for cp_parse_version_txt (src/lib/installed/toolkit.c).
 * The input is copied into a buffer of exactly its size so ASan sees any
 * read past len.  Corpus: tests/fuzz/corpus/version_txt/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "installed/installed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    char out[32] = "";
    if (cp_parse_version_txt(buf, size, out, sizeof out) == 0) {
        /* a success is digits and dots, starting with a digit, not ending in a dot */
        size_t n = strlen(out);
        if (n == 0 || n >= sizeof out || out[0] < '0' || out[0] > '9' || out[n - 1] == '.' ||
            strspn(out, "0123456789.") != n)
            abort();
    }
    char tiny[2];
    cp_parse_version_txt(buf, size, tiny, sizeof tiny);
    cp_parse_version_txt(buf, size, tiny, 0);
    free(buf);
    return 0;
}
