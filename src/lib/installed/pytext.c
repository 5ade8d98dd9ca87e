/*
 * Parsers of the Python source files the framework layer reads instead of
 * running Python: version assignments (torch/version.py, jax/version.py,
 * cupy/_version.py) and TensorFlow's build_info.py.  Pure: text and length
 * in, bounds-checked for any bytes (NULs, no final newline, long lines).
 */
#include <stdio.h>
#include <string.h>

#include "installed/installed.h"

/* The quoted string at p ('x' or "x", one line, no escapes) into out.
 * Returns the bytes consumed, or -1 (out "") when there is none or it does
 * not fit. */
static int quoted(const char *p, const char *end, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    if (p >= end || (*p != '\'' && *p != '"')) return -1;
    for (const char *s = p + 1; s < end; s++) {
        if (*s == *p) { out[n] = '\0'; return (int)(s - p + 1); }
        if ((unsigned char)*s < 0x20 || *s == '\\' || n + 1 >= cap) break;
        out[n++] = *s;
    }
    out[0] = '\0';
    return -1;
}

/* See installed.h. */
int cp_parse_py_assign(const char *text, size_t len, const char *name, char *out, size_t cap)
{
    size_t nl = strlen(name), pos = 0;
    cp_span line;
    out[0] = '\0';
    while (cp_line_next(text, len, &pos, &line)) {
        const char *p = line.p + nl, *eol = line.p + line.n;
        if (line.n <= nl || memcmp(line.p, name, nl) != 0 || (*p != ' ' && *p != '=' && *p != ':'))
            continue;
        if (*p == ':')
            p = memchr(p, '=', (size_t)(eol - p));   /* skip the annotation */
        while (p && p < eol && *p == ' ') p++;
        if (p && p + 1 < eol && p[0] == '=' && p[1] != '=') {
            for (p++; p < eol && *p == ' '; p++) {}
            if (eol - p >= 4 && memcmp(p, "None", 4) == 0) return 0;
            if (quoted(p, eol, out, cap) > 0) return 1;
        }
    }
    out[0] = '\0';
    return -1;
}

/* Where the value of a quoted key starts in a dict or pair list, the two
 * forms TensorFlow's build_info.py has used: {'k': v} and [('k', v)].
 * NULL when the key is absent. */
static const char *py_key(const char *t, size_t len, const char *key)
{
    char pat[64];
    const char *end = t + len;
    for (int q = 0; q < 2; q++) {
        snprintf(pat, sizeof pat, q ? "\"%s\"" : "'%s'", key);
        const char *p = memmem(t, len, pat, strlen(pat));
        if (!p) continue;
        for (p += strlen(pat); p < end && *p == ' '; p++) {}
        if (p < end && (*p == ':' || *p == ',')) p++;
        for (; p < end && *p == ' '; p++) {}
        return p < end ? p : NULL;
    }
    return NULL;
}

static void add_code(cp_tf_build_info *out, const char *code)
{
    for (int i = 0; i < out->ncodes; i++)
        if (strcmp(out->codes[i], code) == 0) return;
    if (out->ncodes < CP_MAX_FW_CODES && cp_str_copy(out->codes[out->ncodes], sizeof out->codes[0], code))
        out->ncodes++;
}

/* See installed.h. */
void cp_parse_tf_build_info(const char *text, size_t len, cp_tf_build_info *out)
{
    char v[16];
    const char *end = text + len, *p = py_key(text, len, "is_cuda_build");
    memset(out, 0, sizeof *out);
    if (p && end - p >= 5 && memcmp(p, "False", 5) == 0) { out->cpu_only = true; return; }
    if ((p = py_key(text, len, "cuda_version")) && quoted(p, end, v, sizeof v) > 0)
        cp_str_copy(out->cuda_version, sizeof out->cuda_version, v);
    if (!(p = py_key(text, len, "cuda_compute_capabilities")) || *p != '[') return;
    for (p++; p < end && *p != ']' && *p != '\n';) {
        int n = quoted(p, end, v, sizeof v);
        if (n < 0) { p++; continue; }
        if (strncmp(v, "sm_", 3) == 0 || strncmp(v, "compute_", 8) == 0) add_code(out, v);
        p += n;
    }
}
