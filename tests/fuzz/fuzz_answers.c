/* Fuzz the answers parser (snapshot answers.txt and the probe children's
 * replies): any bytes must load or be refused, never crash or over-read. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cuprobe/facts.h"
#include "facts/facts_kv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cp_facts f;
    char err[256];
    char *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    cp_facts_init(&f);
    cp_facts_load(copy, size, &f, err, sizeof err);
    cp_facts_init(&f);
    cp_facts_load_snapshot(copy, size, &f, err, sizeof err);   /* the strict framing of snapshots */
    free(copy);
    return 0;
}
