/*
 * The exporter's HTTP request parser: a pure function over the bytes a
 * client sent so far (fuzzed: tests/fuzz/fuzz_http.c).  Only what a
 * Prometheus scrape needs: the request line and the end of the headers;
 * the headers are checked for shape and Connection is read.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "cuprobe/telemetry.h"

static int is_tchar(unsigned char c)
{
    return isalnum(c) || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* The end of the line starting at p (at '\n'), or NULL when not yet in. */
static const char *line_end(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl;
}

/* One header line [p, e) without its line break: "Name: value". */
static int header(const char *p, const char *e, cp_http_req *r)
{
    const char *colon = p;
    while (colon < e && is_tchar((unsigned char)*colon))
        colon++;
    if (colon == p || colon >= e || *colon != ':')
        return -1;   /* no name, a space before the colon, or a folded line */
    for (const char *q = colon + 1; q < e; q++)
        if ((unsigned char)*q < 0x20 && *q != '\t')
            return -1;
    const char *v = colon + 1;
    while (v < e && (*v == ' ' || *v == '\t'))
        v++;
    size_t vn = (size_t)(e - v);
    while (vn && (v[vn - 1] == ' ' || v[vn - 1] == '\t'))
        vn--;
    if ((size_t)(colon - p) == 10 && strncasecmp(p, "connection", 10) == 0) {
        if (vn == 5 && strncasecmp(v, "close", 5) == 0)
            r->keep_alive = 0;
        else if (vn == 10 && strncasecmp(v, "keep-alive", 10) == 0)
            r->keep_alive = 1;
    }
    return 0;
}

/* Parse a request; see telemetry.h. */
int cp_http_parse(const char *buf, size_t len, cp_http_req *r)
{
    memset(r, 0, sizeof *r);
    const char *p = buf, *end = buf + (len > CP_HTTP_MAX_REQUEST ? CP_HTTP_MAX_REQUEST : len);
    const char *e = line_end(p, end);
    if (!e)
        return len >= CP_HTTP_MAX_REQUEST ? CP_HTTP_TOO_LARGE : CP_HTTP_INCOMPLETE;
    const char *le = e > p && e[-1] == '\r' ? e - 1 : e;
    /* METHOD SP TARGET SP HTTP/1.D */
    const char *m = p;
    while (m < le && is_tchar((unsigned char)*m))
        m++;
    size_t mn = (size_t)(m - p);
    if (mn == 0 || mn >= sizeof r->method || m >= le || *m != ' ')
        return CP_HTTP_BAD;
    memcpy(r->method, p, mn);
    const char *t = m + 1, *te = t;
    while (te < le && (unsigned char)*te > 0x20 && (unsigned char)*te < 0x7f)
        te++;
    size_t tn = (size_t)(te - t);
    if (tn == 0 || te >= le || *te != ' ' || *t != '/')
        return CP_HTTP_BAD;
    if (tn >= sizeof r->path)
        return CP_HTTP_TOO_LARGE;
    const char *v = te + 1;
    if (le - v != 8 || memcmp(v, "HTTP/1.", 7) != 0 || (v[7] != '0' && v[7] != '1'))
        return CP_HTTP_BAD;
    r->minor = v[7] - '0';
    r->keep_alive = r->minor == 1;
    size_t pn = 0;   /* the query does not choose the page */
    while (pn < tn && t[pn] != '?' && t[pn] != '#')
        pn++;
    memcpy(r->path, t, pn);
    /* headers up to an empty line */
    p = e + 1;
    for (;;) {
        e = line_end(p, end);
        if (!e)
            return len >= CP_HTTP_MAX_REQUEST ? CP_HTTP_TOO_LARGE : CP_HTTP_INCOMPLETE;
        le = e > p && e[-1] == '\r' ? e - 1 : e;
        if (le == p) {
            r->consumed = (size_t)(e + 1 - buf);
            return CP_HTTP_OK;
        }
        if (header(p, le, r) != 0)
            return CP_HTTP_BAD;
        p = e + 1;
    }
}
