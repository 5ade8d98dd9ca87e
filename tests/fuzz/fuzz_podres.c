/* Fuzz the ListPodResourcesResponse decoder (cp_parse_podres): bounded
 * counts, terminated strings, no "::" replica suffix left on an id. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "host/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cp_podres_map m;
    uint8_t *buf = malloc(size ? size : 1);   /* exactly size bytes: an over-read is caught */
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    int rc = cp_parse_podres(buf, size, &m);
    if ((rc != 0 && rc != -1) || m.n < 0 || m.n > CP_PODRES_MAX_DEVICES || m.total < m.n)
        abort();
    for (int i = 0; i < m.n; i++) {
        const cp_podres_dev *d = &m.dev[i];
        if (!memchr(d->device_id, '\0', sizeof d->device_id) || !memchr(d->pod, '\0', sizeof d->pod) ||
            !memchr(d->ns, '\0', sizeof d->ns) || !memchr(d->container, '\0', sizeof d->container) ||
            !d->device_id[0] || strstr(d->device_id, "::"))
            abort();
        if (cp_podres_find(&m, d->device_id) == NULL)
            abort();
    }
    free(buf);
    return 0;
}
