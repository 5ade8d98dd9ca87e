/* Fuzz the secret classifier of snapshot environments (facts/secret.h):
 * "NAME=VALUE" bytes, any of them, must come back NUL-terminated within
 * the cap, never crash or over-read; a kept value is the value itself. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "facts/secret.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    char *eq = strchr(copy, '=');
    const char *name = eq ? copy : "", *value = eq ? eq + 1 : copy;
    if (eq) *eq = '\0';
    static const size_t caps[] = { 1, 11, 64, 4096 };
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        char *out = malloc(caps[i]), why[256];
        if (!out) break;
        int r = cp_secret_redact(name, value, out, caps[i], why, sizeof why);
        size_t n = strnlen(out, caps[i]);
        if (n >= caps[i] || strnlen(why, sizeof why) >= sizeof why) abort();
        if (r == 0 && strlen(value) < caps[i] && strcmp(out, value) != 0) abort();
        free(out);
    }
    free(copy);
    return 0;
}
