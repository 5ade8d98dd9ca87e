/*
 * The other files that hold GPU code, beside ELF files with fatbin
 * sections and bare fatbins (fatbin.c): static archives (`ar`, such as
 * libcudadevrt.a: ELF objects with .nv_fatbin sections) and PTX text
 * (`nvcc -ptx`).  Like elf.c this file only finds things and reads their
 * headers; what a member holds is the caller's (fatbin.c), so nothing here
 * calls upwards.
 */
#include <stdio.h>
#include <string.h>
#include "fatbin/fatbin_int.h"

#define AR_MAGIC "!<arch>\n"
#define AR_MAGIC_LEN 8u
#define AR_HDR 60u

/* The decimal size field of a member header (10 bytes, space padded).
 * Returns -1 when it is not a number. */
static int ar_size(const unsigned char *f, uint64_t *out)
{
    uint64_t v = 0;
    int digits = 0;
    for (int i = 0; i < 10; i++) {
        if (f[i] == ' ') break;
        if (f[i] < '0' || f[i] > '9') return -1;
        v = v * 10 + (uint64_t)(f[i] - '0');
        digits++;
    }
    *out = v;
    return digits ? 0 : -1;
}

/* The member's name for messages: "name" of the header up to its '/', or
 * "/123" looked up in the long-name table [lt_off, lt_off + lt_len). */
static void ar_name(cp_src *src, const unsigned char *h, uint64_t lt_off, uint64_t lt_len, char *buf,
                    size_t cap)
{
    size_t n = 0;
    if (h[0] == '/' && h[1] >= '0' && h[1] <= '9' && lt_len) {
        uint64_t at = 0;
        for (int i = 1; i < 16 && h[i] >= '0' && h[i] <= '9'; i++) at = at * 10 + (uint64_t)(h[i] - '0');
        unsigned char tmp[128];
        size_t want = sizeof tmp;
        if (at < lt_len) {
            if (lt_len - at < want) want = (size_t)(lt_len - at);
            if (cp_src_copy(src, lt_off + at, tmp, want) == 0)
                while (n < want && n + 1 < cap && tmp[n] != '/' && tmp[n] != '\n') { buf[n] = (char)tmp[n]; n++; }
        }
    } else {
        while (n < 16 && n + 1 < cap && h[n] != '/' && h[n] != ' ') { buf[n] = (char)h[n]; n++; }
    }
    buf[n] = '\0';
    if (!n) snprintf(buf, cap, "?");
}

/* See fatbin_int.h. */
int cp_ar_is(cp_src *src)
{
    const unsigned char *m = src->len >= AR_MAGIC_LEN ? cp_src_at(src, 0, AR_MAGIC_LEN) : NULL;
    return m && memcmp(m, AR_MAGIC, AR_MAGIC_LEN) == 0;
}

/* See fatbin_int.h. */
int cp_ar_members(cp_src *src, cp_ar_member_fn fn, void *arg, char *err, size_t errcap)
{
    uint64_t pos = AR_MAGIC_LEN, lt_off = 0, lt_len = 0;
    int rc = 0;
    while (rc == 0 && pos < src->len) {
        if (src->len - pos < AR_HDR) {
            cp_fatbin_err(err, errcap, "'%s': archive member header at 0x%llx is truncated", src->name,
                          (unsigned long long)pos);
            return -1;
        }
        const unsigned char *p = cp_src_at(src, pos, AR_HDR);
        if (!p) return cp_src_read_failed(src, pos, err, errcap);
        unsigned char h[AR_HDR];
        memcpy(h, p, sizeof h);
        uint64_t size;
        if (h[58] != '`' || h[59] != '\n' || ar_size(h + 48, &size) != 0 || size > src->len - pos - AR_HDR) {
            cp_fatbin_err(err, errcap, "'%s': archive member at 0x%llx has a bad header", src->name,
                          (unsigned long long)pos);
            return -1;
        }
        uint64_t data = pos + AR_HDR;
        if (h[0] == '/' && h[1] == '/') {            /* the long-name table */
            lt_off = data;
            lt_len = size;
        } else if (!(h[0] == '/' && (h[1] == ' ' || memcmp(h, "/SYM64/", 7) == 0))) {   /* not a symbol table */
            char name[128];
            ar_name(src, h, lt_off, lt_len, name, sizeof name);
            rc = fn(src, data, size, name, arg, err, errcap);
        }
        pos = data + size + (size & 1);   /* members start on even offsets */
    }
    return rc;
}

/* Skip blanks (not newlines). */
static const char *blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    return p;
}

/* See fatbin_int.h. */
int cp_ptx_head(const char *text, size_t n, int *major, int *minor, int *sm, char *variant)
{
    const char *end = text + n;
    int have_v = 0, have_t = 0;
    for (const char *line = text; line < end && !(have_v && have_t);) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        const char *le = nl ? nl : end;
        const char *p = blanks(line, le);
        if ((size_t)(le - p) > 9 && memcmp(p, ".version", 8) == 0 && (p[8] == ' ' || p[8] == '\t')) {
            int a = 0, b = 0, da = 0, db = 0;
            p = blanks(p + 8, le);
            while (p < le && *p >= '0' && *p <= '9' && da < 3) { a = a * 10 + (*p++ - '0'); da++; }
            if (p < le && *p == '.') p++;
            while (p < le && *p >= '0' && *p <= '9' && db < 3) { b = b * 10 + (*p++ - '0'); db++; }
            if (!da || !db) return -1;
            *major = a;
            *minor = b;
            have_v = 1;
        } else if ((size_t)(le - p) > 8 && memcmp(p, ".target", 7) == 0 && (p[7] == ' ' || p[7] == '\t')) {
            int v = 0, d = 0;
            p = blanks(p + 7, le);
            if ((size_t)(le - p) < 4 || memcmp(p, "sm_", 3) != 0) return -1;
            p += 3;
            while (p < le && *p >= '0' && *p <= '9' && d < 4) { v = v * 10 + (*p++ - '0'); d++; }
            if (d < 2 || v < 10) return -1;
            *sm = v;
            *variant = p < le && (*p == 'a' || *p == 'f') ? *p : 0;
            have_t = 1;
        } else if (p < le && *p != '/' && *p != '\r' && !have_v) {
            return -1;   /* before .version only comments and blank lines */
        }
        line = nl ? nl + 1 : end;
    }
    return have_v && have_t ? 0 : -1;
}
