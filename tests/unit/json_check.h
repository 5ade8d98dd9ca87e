/* A small JSON syntax checker (RFC 8259 grammar, no semantics) for the
 * tests of the JSON renderers.  Header-only: each test program that
 * includes it gets its own static copy. */
#ifndef CP_TEST_JSON_CHECK_H
#define CP_TEST_JSON_CHECK_H

#include <stdio.h>
#include <string.h>

static const char *ws(const char *p) { while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++; return p; }
static const char *value(const char *p, int depth);

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * form, no surrogate, nothing above U+10FFFF), 0 when it is not one.
 * Written here again on purpose: the checker must not trust the writer's. */
static int utf8_seq(const unsigned char *p)
{
    unsigned long cp;
    int n;
    if (p[0] < 0x80) return 1;
    if ((p[0] & 0xe0) == 0xc0) { n = 2; cp = p[0] & 0x1f; }
    else if ((p[0] & 0xf0) == 0xe0) { n = 3; cp = p[0] & 0x0f; }
    else if ((p[0] & 0xf8) == 0xf0) { n = 4; cp = p[0] & 0x07; }
    else return 0;
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (p[i] & 0x3f);
    }
    static const unsigned long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return n;
}

static long hex4(const char *p)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        if (!p[i] || !strchr("0123456789abcdefABCDEF", p[i])) return -1;
        v = v * 16 + (p[i] <= '9' ? p[i] - '0' : (p[i] | 0x20) - 'a' + 10);
    }
    return v;
}

/* A string: RFC 8259 escapes, strictly valid UTF-8, and a \u escape of a
 * surrogate only as a high-low pair. */
static const char *string(const char *p)
{
    if (*p++ != '"') return NULL;
    while (*p && *p != '"') {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20) return NULL;
        if (c >= 0x80) {
            int n = utf8_seq((const unsigned char *)p);
            if (!n) return NULL;
            p += n;
            continue;
        }
        if (c == '\\') {
            p++;
            if (*p == 'u') {
                long u = hex4(p + 1);
                if (u < 0 || (u >= 0xdc00 && u <= 0xdfff)) return NULL;
                p += 5;
                if (u >= 0xd800 && u <= 0xdbff) {
                    long lo = p[0] == '\\' && p[1] == 'u' ? hex4(p + 2) : -1;
                    if (lo < 0xdc00 || lo > 0xdfff) return NULL;
                    p += 6;
                }
                continue;
            }
            if (!*p || !strchr("\"\\/bfnrt", *p)) return NULL;
        }
        p++;
    }
    return *p == '"' ? p + 1 : NULL;
}

/* RFC 8259's number: an integer part, then a fraction and an exponent if any. */
static int digit(char c) { return c >= '0' && c <= '9'; }
static const char *number(const char *p)
{
    if (*p == '-') p++;
    if (!digit(*p)) return NULL;
    while (digit(*p)) p++;
    if (*p == '.') {
        if (!digit(*++p)) return NULL;
        while (digit(*p)) p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!digit(*p)) return NULL;
        while (digit(*p)) p++;
    }
    return p;
}

static const char *value(const char *p, int depth)
{
    p = ws(p);
    if (depth > 64) return NULL;
    if (*p == '"') return string(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = ws(p + 1);
        if (*p == close) return p + 1;
        for (;;) {
            if (close == '}') { p = string(ws(p)); if (!p) return NULL; p = ws(p); if (*p++ != ':') return NULL; }
            p = value(p, depth + 1);
            if (!p) return NULL;
            p = ws(p);
            if (*p == ',') { p++; continue; }
            return *p == close ? p + 1 : NULL;
        }
    }
    if (!strncmp(p, "true", 4)) return p + 4;
    if (!strncmp(p, "false", 5)) return p + 5;
    if (!strncmp(p, "null", 4)) return p + 4;
    return number(p);
}

/* Text safe for a terminal: strictly valid UTF-8, no control byte but
 * '\n' and '\t', no C1 control (U+0080-U+009F). */
static inline int text_safe(const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        int n = utf8_seq(p);
        if (!n || (*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f || (p[0] == 0xc2 && p[1] < 0xa0)) return 0;
        p += n;
    }
    return 1;
}

static int json_ok(const char *text)
{
    const char *end = value(text, 0);
    return end && *ws(end) == '\0';
}

/* Does every object holding first_key also hold each of keys?  Checked on
 * the flat text: each occurrence of first_key starts an object whose
 * members run to the next occurrence. */
static inline int members_everywhere(const char *json, const char *first_key, const char *const *keys)
{
    char want[64];
    snprintf(want, sizeof want, "\"%s\":", first_key);
    int objects = 0;
    for (const char *p = strstr(json, want); p; objects++) {
        const char *next = strstr(p + 1, want);
        for (int k = 0; keys[k]; k++) {
            char m[64];
            snprintf(m, sizeof m, "\"%s\":", keys[k]);
            const char *at = strstr(p, m);
            if (!at || (next && at > next)) {
                fprintf(stderr, "  object at offset %ld lacks %s\n", (long)(p - json), m);
                return 0;
            }
        }
        p = next;
    }
    return objects;
}

/* Read a JSON schema (docs/NAME.schema.json, from the tree's root) into buf:
 * true when it was read whole, is valid JSON and names draft 2020-12. */
static inline int schema_load(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n < cap - 1 && json_ok(buf) && strstr(buf, "draft/2020-12") != NULL;
}

#endif
