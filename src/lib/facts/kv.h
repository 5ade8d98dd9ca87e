/*
 * The answers format: what the driver probes send back from their child
 * process and what a snapshot stores for everything that is not a plain file
 * (driver and NVML answers, device-node stats, the environment).
 *
 * One "key value" pair per line; the key has no spaces; the value is the
 * rest of the line with \\, \n, \t and bytes outside printable ASCII written
 * as \\, \n, \t and \xHH.  Unknown numbers are written as "?".
 *
 *     cuda.init_result 0
 *     cuda.dev.0.name NVIDIA H200
 *     nvml.dev.0.power_mw ?
 */
#ifndef CP_KV_H
#define CP_KV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/buf.h"

/* Append "key value\n" with the value escaped. */
void cp_kv_put_str(cp_buf *b, const char *key, const char *value);
/* Append "key N\n", or "key ?\n" for CP_UNKNOWN. */
void cp_kv_put_i64(cp_buf *b, const char *key, int64_t v);

/* Called once per well-formed line with the key and the unescaped value
 * (both NUL-terminated, valid only during the call).  Return non-zero to stop. */
typedef int (*cp_kv_cb)(const char *key, const char *value, void *arg);

/* Parse `len` bytes of answers text.  Lines that are empty or start with '#'
 * are skipped; a line without a space, or with a key over 127 bytes, counts
 * as malformed.  Returns the number of malformed lines (0 = clean), or -1
 * when cb stopped the parse. */
int cp_kv_parse(const char *text, size_t len, cp_kv_cb cb, void *arg);

/* "123" -> 123, "-1" -> -1, "0x10" -> 16, "?" -> CP_UNKNOWN.  Returns false
 * (and leaves *out alone) for anything else, including overflow. */
bool cp_kv_i64(const char *s, int64_t *out);

#endif
