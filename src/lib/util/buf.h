/*
 * A growable byte buffer, always NUL-terminated.  Zero-initialise; free with
 * cp_buf_free.  On allocation failure it sets `failed` and drops further
 * appends, so callers check once at the end.
 */
#ifndef CP_UTIL_BUF_H
#define CP_UTIL_BUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *data;
    size_t len, cap;
    bool failed;
} cp_buf;

/* Append n bytes of s (which may hold NULs). */
void cp_buf_append(cp_buf *b, const char *s, size_t n);
/* printf into the buffer. */
void cp_buf_printf(cp_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Free the memory and reset the buffer to empty (failed cleared too). */
void cp_buf_free(cp_buf *b);

#endif
