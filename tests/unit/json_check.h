/* A small JSON syntax checker (RFC 8259 grammar, no semantics) for the
 * tests of the JSON renderers.  Header-only: each test program that
 * includes it gets its own static copy. */
#ifndef CP_TEST_JSON_CHECK_H
#define CP_TEST_JSON_CHECK_H

#include <string.h>

static const char *ws(const char *p) { while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++; return p; }
static const char *value(const char *p, int depth);

static const char *string(const char *p)
{
    if (*p++ != '"') return NULL;
    while (*p && *p != '"') {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20) return NULL;
        if (c == '\\') {
            p++;
            if (*p == 'u') { for (int i = 1; i <= 4; i++) if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i]) return NULL; p += 5; continue; }
            if (!*p || !strchr("\"\\/bfnrt", *p)) return NULL;
        }
        p++;
    }
    return *p == '"' ? p + 1 : NULL;
}

static const char *number(const char *p)
{
    const char *s = p;
    if (*p == '-') p++;
    while (*p >= '0' && *p <= '9') p++;
    return p > s ? p : NULL;
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

static int json_ok(const char *text)
{
    const char *end = value(text, 0);
    return end && *ws(end) == '\0';
}

#endif
