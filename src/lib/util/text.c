/* Safe text for a terminal (text.h). */
#include <string.h>
#include "util/json.h"
#include "util/text.h"

/* Length of the safe unit at p: a printable byte or well-formed UTF-8
 * sequence that is not a C1 control; 0 when it must be escaped. */
static size_t safe_len(const unsigned char *p, size_t n, int keep_newline)
{
    unsigned c = p[0];
    if (c == '\n') return keep_newline ? 1 : 0;
    if (c == '\t') return 1;
    if (c < 0x20 || c == 0x7f) return 0;
    if (c < 0x80) return 1;
    int l = cp_utf8_len(p, n);
    if (l == 2 && c == 0xc2 && p[1] < 0xa0) return 0;   /* C1 controls */
    return (size_t)l;
}

/* See text.h. */
void cp_text_put_n(FILE *out, const char *s, size_t n, int keep_newline)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t l = safe_len(p + i, n - i, keep_newline);
        if (l) {
            fwrite(p + i, 1, l, out);
            i += l;
        } else if (p[i] == '\n') {
            fputs("\\n", out);
            i++;
        } else if (p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] < 0xa0) {
            fprintf(out, "\\u%04x", p[i + 1]);   /* one C1 control, one escape */
            i += 2;
        } else {
            fprintf(out, "\\x%02x", p[i]);
            i++;
        }
    }
}

/* See text.h. */
void cp_text_put(FILE *out, const char *s)
{
    if (s) cp_text_put_n(out, s, strlen(s), 1);
}

/* See text.h. */
void cp_text_put_line(FILE *out, const char *s)
{
    if (s) cp_text_put_n(out, s, strlen(s), 0);
}

/* See text.h. */
int cp_text_needs_escape(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t l = safe_len(p + i, n - i, 1);
        if (!l) return 1;
        i += l;
    }
    return 0;
}

/* Text for XML 1.0: the five specials as entities, well-formed UTF-8 kept,
 * every byte that is not (and U+FFFE, U+FFFF) as U+FFFD, control bytes as
 * spaces: no C0 control is allowed in XML, even escaped. */
void cp_xml_text(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    while (n > 0) {
        int len = cp_utf8_len(p, n);
        if (len == 0 || (len == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe)) {
            fputs("\xef\xbf\xbd", out);
            len = len ? len : 1;
        } else if (len > 1) {
            fwrite(p, 1, (size_t)len, out);
        } else if (*p < 0x20 || *p == 0x7f) {
            fputc(' ', out);
        } else {
            switch (*p) {
            case '&': fputs("&amp;", out); break;
            case '<': fputs("&lt;", out); break;
            case '>': fputs("&gt;", out); break;
            case '"': fputs("&quot;", out); break;
            case '\'': fputs("&#39;", out); break;
            default: fputc(*p, out);
            }
        }
        p += len;
        n -= (size_t)len;
    }
}
