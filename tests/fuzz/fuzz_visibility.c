/* Fuzz the visibility variables: the input is split at NUL bytes into
 * CUDA_VISIBLE_DEVICES, NVIDIA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER; a part
 * that is not there stays unset. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "host/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cp_visibility v;
    const char *part[3] = { NULL, NULL, NULL };
    /* each part in its own allocation of exactly its length plus the NUL
     * the environment would give it */
    char *copy[3] = { NULL, NULL, NULL };
    size_t start = 0;
    for (int i = 0; i < 3 && start <= size; i++) {
        const uint8_t *nul = memchr(data + start, '\0', size - start);
        size_t end = nul ? (size_t)(nul - data) : size;
        copy[i] = malloc(end - start + 1);
        if (!copy[i])
            break;
        memcpy(copy[i], data + start, end - start);
        copy[i][end - start] = '\0';
        part[i] = copy[i];
        if (!nul)
            break;
        start = end + 1;
    }
    cp_parse_visibility(part[0], part[1], part[2], &v);
    if (v.cuda.n < 0 || v.cuda.n > CP_MAX_VIS || v.cuda.first_invalid >= v.cuda.n ||
        (v.cuda.first_invalid >= 0 && v.cuda.first_invalid != v.cuda.n - 1))
        abort();
    for (int i = 0; i < 3; i++)
        free(copy[i]);
    return 0;
}
