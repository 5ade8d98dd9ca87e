/* libFuzzer target for cp_parse_tf_build_info (src/lib/installed/pytext.c):
 * TensorFlow's python/platform/build_info.py.  Exactly-sized input buffer.
 * Corpus: tests/fuzz/corpus/tf_build_info/. */
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
    cp_tf_build_info bi;
    cp_parse_tf_build_info(buf, size, &bi);
    if (bi.ncodes < 0 || bi.ncodes > CP_MAX_FW_CODES || strlen(bi.cuda_version) >= sizeof bi.cuda_version)
        abort();
    if (bi.cpu_only && (bi.ncodes || bi.cuda_version[0]))
        abort();   /* a CPU build says nothing more */
    for (int i = 0; i < bi.ncodes; i++)
        if (strncmp(bi.codes[i], "sm_", 3) != 0 && strncmp(bi.codes[i], "compute_", 8) != 0)
            abort();
    free(buf);
    return 0;
}
