/* The growable buffer (buf.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/alloc.h"
#include "util/buf.h"

static bool buf_reserve(cp_buf *b, size_t extra)
{
    if (b->failed) return false;
    if (extra > SIZE_MAX - b->len - 1) { b->failed = true; return false; }
    if (b->len + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) {
        if (cap > SIZE_MAX / 2) { b->failed = true; return false; }
        cap *= 2;
    }
    char *p = cp_realloc(b->data, cap);
    if (!p) { b->failed = true; return false; }
    b->data = p;
    b->cap = cap;
    return true;
}

/* Append n bytes of s; keeps the buffer NUL-terminated. */
void cp_buf_append(cp_buf *b, const char *s, size_t n)
{
    if (!buf_reserve(b, n)) return;
    if (n) memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

/* printf into the buffer. */
void cp_buf_printf(cp_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) { b->failed = true; return; }
    if ((size_t)n < sizeof small) { cp_buf_append(b, small, (size_t)n); return; }
    if (!buf_reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* Free the buffer's memory and reset it to empty. */
void cp_buf_free(cp_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}
