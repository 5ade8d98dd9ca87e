/* The one JSON writer (json.h). */
#include <math.h>
#include <string.h>
#include "util/json.h"

/* Length of the well-formed UTF-8 sequence at s, or 0 (RFC 3629 table 3-7). */
int cp_utf8_len(const unsigned char *s, size_t n)
{
    if (n == 0) return 0;
    unsigned c = s[0];
    if (c < 0x80) return 1;
    int len;
    unsigned lo = 0x80, hi = 0xbf;   /* range of the second byte */
    if (c >= 0xc2 && c <= 0xdf) len = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        if (c == 0xe0) lo = 0xa0;         /* overlong */
        else if (c == 0xed) hi = 0x9f;    /* surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        if (c == 0xf0) lo = 0x90;         /* overlong */
        else if (c == 0xf4) hi = 0x8f;    /* above U+10FFFF */
    } else return 0;
    if ((size_t)len > n || s[1] < lo || s[1] > hi) return 0;
    for (int k = 2; k < len; k++)
        if ((s[k] & 0xc0) != 0x80) return 0;
    return len;
}

/* n bytes as a JSON string. */
void cp_json_str_n(FILE *out, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    for (size_t i = 0; i < n; i++) {
        unsigned c = p[i];
        if (c == '"' || c == '\\') { fputc('\\', out); fputc((int)c, out); }
        else if (c == '\n') fputs("\\n", out);
        else if (c == '\t') fputs("\\t", out);
        else if (c < 0x20 || c == 0x7f) fprintf(out, "\\u%04x", c);
        else if (c < 0x80) fputc((int)c, out);
        else {
            int l = cp_utf8_len(p + i, n - i);
            if (l) { fwrite(p + i, 1, (size_t)l, out); i += (size_t)l - 1; }
            else fputs("\\ufffd", out);
        }
    }
    fputc('"', out);
}

/* A NUL-terminated string as JSON; NULL is null. */
void cp_json_str(FILE *out, const char *s)
{
    if (!s) { fputs("null", out); return; }
    cp_json_str_n(out, s, strlen(s));
}

/* A string, or null when NULL or empty. */
void cp_json_str_or_null(FILE *out, const char *s)
{
    if (s && *s) cp_json_str(out, s);
    else fputs("null", out);
}

/* A number, or null for INT64_MIN. */
void cp_json_i64(FILE *out, int64_t v)
{
    if (v == INT64_MIN) fputs("null", out);
    else fprintf(out, "%lld", (long long)v);
}

/* A number with 10 significant digits; NAN and infinities write null. */
void cp_json_double(FILE *out, double v)
{
    if (!isfinite(v)) fputs("null", out);
    else fprintf(out, "%.10g", v);
}

/* `"key": ` with its separator. */
void cp_json_key(FILE *out, const char *key, int *first)
{
    if (!*first) fputs(", ", out);
    *first = 0;
    cp_json_str(out, key);
    fputs(": ", out);
}

/* A string member, absent when v is NULL or "". */
void cp_json_member_str(FILE *out, const char *key, const char *v, int *first)
{
    if (!v || !v[0]) return;
    cp_json_key(out, key, first);
    cp_json_str(out, v);
}

/* A number member, absent when v is negative. */
void cp_json_member_i64(FILE *out, const char *key, int64_t v, int *first)
{
    if (v < 0) return;
    cp_json_key(out, key, first);
    cp_json_i64(out, v);
}
