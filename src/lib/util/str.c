/* Bounded strings, paths and lists (str.h). */
#include <string.h>
#include "util/str.h"

/* src into dst, cut short to fit. */
bool cp_str_copy(char *dst, size_t cap, const char *src)
{
    return cp_str_copy_n(dst, cap, src ? src : "", (size_t)-1);
}

/* At most n bytes of src into dst, cut short to fit. */
bool cp_str_copy_n(char *dst, size_t cap, const char *src, size_t n)
{
    if (cap == 0) return false;
    size_t len = 0;
    if (src) while (len < n && src[len]) len++;
    bool fit = len < cap;
    if (!fit) len = cap - 1;
    if (len) memcpy(dst, src, len);
    dst[len] = '\0';
    return fit;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* A span with its surrounding white space left out, into dst. */
bool cp_str_copy_trim(char *dst, size_t cap, const char *src, size_t n)
{
    size_t len = 0;
    if (src) while (len < n && src[len]) len++;
    while (len && is_space(*src)) { src++; len--; }
    while (len && is_space(src[len - 1])) len--;
    return cp_str_copy_n(dst, cap, src, len);
}

/* Append sep and s, all or nothing. */
bool cp_str_append(char *dst, size_t cap, const char *sep, const char *s)
{
    size_t len = strlen(dst), n = (len && sep) ? strlen(sep) : 0, m = strlen(s);
    if (len + n + m >= cap) return false;
    memcpy(dst + len, sep, n);
    memcpy(dst + len + n, s, m + 1);
    return true;
}

/* True when s starts with prefix. */
bool cp_str_starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* True when s ends with suffix. */
bool cp_str_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* dir/name into out. */
int cp_path_join(char *out, size_t cap, const char *dir, const char *name)
{
    if (cap == 0) return -1;
    size_t d = strlen(dir), m = strlen(name);
    size_t slash = (d && dir[d - 1] == '/') ? 0 : 1;
    if (d + slash + m >= cap) { out[0] = '\0'; return -1; }
    memmove(out, dir, d);          /* dir may be out itself */
    if (slash) out[d] = '/';
    memcpy(out + d + slash, name, m);
    out[d + slash + m] = '\0';
    return 0;
}

/* Cut the last component off a path in place. */
void cp_path_parent(char *path)
{
    char *s = strrchr(path, '/');
    if (!s) return;
    if (s == path) path[1] = '\0';
    else *s = '\0';
}

/* The last component of a path. */
const char *cp_path_base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The next entry of a separated list. */
bool cp_list_next(const char **p, char sep, char *out, size_t cap)
{
    if (!*p || !**p) return false;
    const char *e = strchr(*p, sep);
    size_t n = e ? (size_t)(e - *p) : strlen(*p);
    if (n < cap) cp_str_copy_n(out, cap, *p, n);
    else if (cap) out[0] = '\0';
    *p = e ? e + 1 : *p + n;
    return true;
}

/* The next line of a text. */
bool cp_line_next(const char *text, size_t len, size_t *pos, cp_span *line)
{
    if (*pos >= len) return false;
    const char *start = text + *pos;
    const char *nl = memchr(start, '\n', len - *pos);
    size_t n = nl ? (size_t)(nl - start) : len - *pos;
    line->p = start;
    line->n = n;
    *pos += n + (nl ? 1 : 0);
    return true;
}

/* True when a span equals a string. */
bool cp_span_equals(cp_span s, const char *str)
{
    size_t n = str ? strlen(str) : 0;
    return s.n == n && (n == 0 || memcmp(s.p, str, n) == 0);
}

/* See str.h. */
const char *cp_str_errno(int e, char *out, size_t cap)
{
    if (!cp_str_copy(out, cap, strerror(e)) && cap == 0) return out;
    if (out[0] >= 'A' && out[0] <= 'Z') out[0] = (char)(out[0] - 'A' + 'a');
    return out;
}
