/*
 * Parser of a CUDA toolkit's version.json (CUDA 11.1 and later):
 *
 *   {
 *      "cuda" : { "name" : "CUDA SDK", "version" : "13.0.2" },
 *      "cuda_cudart" : { "name" : "CUDA Runtime (cudart)", "version" : "13.0.96" },
 *      ...
 *   }
 *
 * Only the top-level "cuda" member's "version" is wanted, so this is a
 * bounded scanner rather than a JSON library: it never reads past len, never
 * recurses, and gives up (-1) on anything it does not understand.  Fuzzed by
 * tests/fuzz/fuzz_version_json.c.
 */
#include <stdint.h>
#include <string.h>

#include "host/host.h"
#include "installed/installed.h"
/* ---------------------------------------------------------- scanner -- */

/* A bounded, non-recursive scanner: just enough JSON to walk the members of
 * two nested objects and skip any value, whatever its depth. */
typedef struct {
    const char *s;
    size_t n, i;
} jscan;

static void jws(jscan *j)
{
    while (j->i < j->n && (j->s[j->i] == ' ' || j->s[j->i] == '\t' ||
                           j->s[j->i] == '\n' || j->s[j->i] == '\r'))
        j->i++;
}

static int jpeek(const jscan *j)
{
    return j->i < j->n ? (unsigned char)j->s[j->i] : -1;
}

/* Consume a string at j->i.  Its content (escapes decoded, \u as '?') goes
 * to out when out is not NULL.  Returns the length, -1 for bad syntax, -2
 * when it did not fit (the string is still consumed). */
static int jstring(jscan *j, char *out, size_t cap)
{
    size_t w = 0;
    int fit = 1;
    if (jpeek(j) != '"')
        return -1;
    j->i++;
    while (j->i < j->n) {
        char c = j->s[j->i++];
        if (c == '"') {
            if (out && cap)
                out[w] = '\0';
            return fit ? (int)w : -2;
        }
        if ((unsigned char)c < 0x20)
            return -1;
        if (c == '\\') {
            if (j->i >= j->n)
                return -1;
            c = j->s[j->i++];
            if (c == 'u') {
                if (j->n - j->i < 4)
                    return -1;
                j->i += 4;
                c = '?';
            } else if (c == 'n' || c == 't' || c == 'r' || c == 'b' || c == 'f') {
                c = ' ';
            }
        }
        if (out && w + 1 < cap && w < (size_t)INT32_MAX)
            out[w++] = c;
        else if (out)
            fit = 0;
    }
    return -1;
}

static int jscalar_char(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '+' || c == '-' || c == '.';
}

/* Skip one value of any kind.  Nesting is counted, not recursed into, so a
 * hostile depth costs nothing.  Returns 0 or -1. */
static int jskip(jscan *j)
{
    jws(j);
    int c = jpeek(j);
    if (c == '"')
        return jstring(j, NULL, 0) == -1 ? -1 : 0;
    if (c == '{' || c == '[') {
        size_t depth = 0;
        while (j->i < j->n) {
            c = jpeek(j);
            if (c == '"') {
                if (jstring(j, NULL, 0) == -1)
                    return -1;
                continue;
            }
            j->i++;
            if (c == '{' || c == '[')
                depth++;
            else if ((c == '}' || c == ']') && --depth == 0)
                return 0;
        }
        return -1;
    }
    size_t start = j->i;
    while (j->i < j->n && jscalar_char(j->s[j->i]))
        j->i++;
    return j->i > start ? 0 : -1;
}

/* At an object: walk its members until `key`.  Returns 1 with j->i at that
 * member's value, 0 when the object ends without it, -1 on bad syntax. */
static int jfind(jscan *j, const char *key)
{
    jws(j);
    if (jpeek(j) != '{')
        return -1;
    j->i++;
    jws(j);
    if (jpeek(j) == '}')
        return 0;
    for (;;) {
        char k[32];
        jws(j);
        int r = jstring(j, k, sizeof k);
        if (r == -1)
            return -1;
        jws(j);
        if (jpeek(j) != ':')
            return -1;
        j->i++;
        jws(j);
        if (r >= 0 && strcmp(k, key) == 0)
            return 1;
        if (jskip(j) < 0)
            return -1;
        jws(j);
        if (jpeek(j) == '}')
            return 0;
        if (jpeek(j) != ',')
            return -1;
        j->i++;
    }
}

/* A version we are willing to pass on: starts with a digit, then digits,
 * letters and . - + _ only (it ends up in text and JSON output). */
static int plausible_version(const char *v)
{
    if (!(v[0] >= '0' && v[0] <= '9'))
        return 0;
    for (const char *p = v; *p; p++)
        if (!jscalar_char(*p) && *p != '_')
            return 0;
    return 1;
}

/* Find {"cuda": {"version": "13.0.2"}} at the top level of a version.json.
 * Returns 0 with out filled, or -1 (out = "") when absent, not plausible,
 * too long for cap, or the text is not JSON enough to tell. */
int cp_parse_version_json(const char *text, size_t len, char *out, size_t cap)
{
    char v[64];
    if (!out || cap == 0)
        return -1;
    out[0] = '\0';
    if (!text)
        return -1;
    jscan j = {text, len, 0};
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        j.i = 3;   /* a UTF-8 byte-order mark some editors add */
    if (jfind(&j, "cuda") != 1 || jfind(&j, "version") != 1)
        return -1;
    int r = jstring(&j, v, sizeof v);
    if (r <= 0 || (size_t)r >= cap || !plausible_version(v))
        return -1;
    memcpy(out, v, (size_t)r + 1);
    return 0;
}
