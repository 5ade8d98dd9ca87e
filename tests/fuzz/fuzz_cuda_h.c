/* libFuzzer target for cp_parse_cuda_h (src/lib/installed/toolkit.c): the
 * CUDA_VERSION define of include/cuda.h.  Exactly-sized input buffer, so
 * ASan sees any read past len.  Corpus: tests/fuzz/corpus/cuda_h/. */
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
    char out[16] = "";
    if (cp_parse_cuda_h(buf, size, out, sizeof out) == 0) {
        /* "13.0": a major, a dot, a minor */
        size_t n = strlen(out);
        if (n < 3 || n >= sizeof out || !strchr(out, '.') || strspn(out, "0123456789.") != n)
            abort();
    }
    char tiny[3];
    cp_parse_cuda_h(buf, size, tiny, sizeof tiny);
    cp_parse_cuda_h(buf, size, tiny, 0);
    free(buf);
    return 0;
}
