/* libFuzzer target for cp_parse_dist_info (src/lib/installed/pyenv.c), the
 * one parser of wheel metadata folder names.  Exactly-sized input buffer;
 * every span must lie inside it.  Corpus: tests/fuzz/corpus/dist_info/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "installed/installed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int inside(cp_span s, const char *buf, size_t size)
{
    return s.p >= buf && s.p + s.n <= buf + size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    cp_dist_info d;
    if (cp_parse_dist_info(buf, size, &d) == 0) {
        if (d.name.n == 0 || !inside(d.name, buf, size) || !inside(d.version, buf, size) ||
            d.base.p != d.name.p || d.base.n > d.name.n || d.release.p != d.version.p ||
            d.release.n > d.version.n || memchr(d.name.p, '-', d.name.n))
            abort();
        if (d.base.n < d.name.n && (d.cuda_major == CP_UNKNOWN || d.cuda_major < 0))
            abort();   /* a base shorter than the name means a _cuNN suffix was read */
        for (size_t i = 0; i < d.release.n; i++)
            if (!((d.release.p[i] >= '0' && d.release.p[i] <= '9') || d.release.p[i] == '.'))
                abort();
    }
    free(buf);
    return 0;
}
