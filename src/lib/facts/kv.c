/* The answers format (kv.h): escaping and a parser. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/alloc.h"
#include "cuprobe/facts.h"
#include "kv.h"

/* Append "key value\n", escaping the value. */
void cp_kv_put_str(cp_buf *b, const char *key, const char *value)
{
    cp_buf_append(b, key, strlen(key));
    cp_buf_append(b, " ", 1);
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        char esc[5];
        if (*p == '\\') cp_buf_append(b, "\\\\", 2);
        else if (*p == '\n') cp_buf_append(b, "\\n", 2);
        else if (*p == '\t') cp_buf_append(b, "\\t", 2);
        else if (*p < 0x20 || *p >= 0x7f) {
            snprintf(esc, sizeof esc, "\\x%02x", *p);
            cp_buf_append(b, esc, 4);
        } else cp_buf_append(b, (const char *)p, 1);
    }
    cp_buf_append(b, "\n", 1);
}

/* Append "key N\n", "?" for unknown. */
void cp_kv_put_i64(cp_buf *b, const char *key, int64_t v)
{
    if (v == CP_UNKNOWN) cp_buf_printf(b, "%s ?\n", key);
    else cp_buf_printf(b, "%s %lld\n", key, (long long)v);
}

/* Parse a decimal or 0x-hex integer, or "?" for unknown. */
bool cp_kv_i64(const char *s, int64_t *out)
{
    if (s[0] == '?' && s[1] == '\0') { *out = CP_UNKNOWN; return true; }
    if (!*s) return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 0);
    if (errno || *end || end == s) return false;
    *out = v;
    return true;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Unescape src[0..n) into dst (cap >= n+1 always suffices). */
static void unescape(const char *src, size_t n, char *dst)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char c = src[i];
        if (c == '\\' && i + 1 < n) {
            char e = src[i + 1];
            if (e == 'n') { dst[o++] = '\n'; i++; continue; }
            if (e == 't') { dst[o++] = '\t'; i++; continue; }
            if (e == '\\') { dst[o++] = '\\'; i++; continue; }
            if (e == 'x' && i + 3 < n && hexval(src[i + 2]) >= 0 && hexval(src[i + 3]) >= 0) {
                int v = hexval(src[i + 2]) * 16 + hexval(src[i + 3]);
                if (v == 0) v = '?';   /* a NUL would cut the value short */
                dst[o++] = (char)v;
                i += 3;
                continue;
            }
        }
        dst[o++] = c ? c : '?';
    }
    dst[o] = '\0';
}

/* Parse answers text; see kv.h. */
int cp_kv_parse(const char *text, size_t len, cp_kv_cb cb, void *arg)
{
    int malformed = 0;
    size_t i = 0;
    char *value = NULL;
    size_t vcap = 0;
    while (i < len) {
        size_t start = i;
        while (i < len && text[i] != '\n') i++;
        size_t end = i;
        if (i < len) i++;                      /* skip the newline */
        if (end > start && text[end - 1] == '\r') end--;
        if (end == start || text[start] == '#') continue;
        size_t sp = start;
        while (sp < end && text[sp] != ' ' && text[sp] != '\0') sp++;
        if (sp == end || text[sp] != ' ' || sp - start > 127) { malformed++; continue; }
        char key[128];
        memcpy(key, text + start, sp - start);
        key[sp - start] = '\0';
        size_t vlen = end - sp - 1;
        if (vlen + 1 > vcap) {
            char *p = cp_realloc(value, vlen + 1);
            if (!p) { free(value); return -1; }
            value = p;
            vcap = vlen + 1;
        }
        unescape(text + sp + 1, vlen, value);
        if (cb(key, value, arg)) { free(value); return -1; }
    }
    free(value);
    return malformed;
}
