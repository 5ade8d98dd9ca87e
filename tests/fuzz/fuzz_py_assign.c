/* libFuzzer target for cp_parse_py_assign (src/lib/installed/pytext.c): the
 * `name = 'x'` lines of torch/version.py, jax/version.py, cupy/_version.py.
 * Exactly-sized input buffer.  Corpus: tests/fuzz/corpus/py_assign/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "installed/installed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"__version__", "cuda", "_version", "git_version"};
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char out[48], tiny[1];
        int r = cp_parse_py_assign(buf, size, names[i], out, sizeof out);
        if (r < -1 || r > 1 || strlen(out) >= sizeof out || (r != 1 && out[0]))
            abort();
        for (const char *p = out; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == '\\')
                abort();   /* one line, no escapes */
        cp_parse_py_assign(buf, size, names[i], tiny, sizeof tiny);
        if (tiny[0])
            abort();       /* one byte holds only the empty string */
    }
    free(buf);
    return 0;
}
