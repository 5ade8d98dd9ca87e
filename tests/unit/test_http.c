/* The exporter's HTTP request parser (cp_http_parse): what a scrape sends,
 * what arrives in pieces, and what is refused. */
#include <string.h>

#include "cuprobe/telemetry.h"
#include "test.h"

static int parse(const char *s, cp_http_req *r)
{
    return cp_http_parse(s, strlen(s), r);
}

static void test_scrape(void)
{
    cp_http_req r;
    const char *s = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9400\r\nUser-Agent: Prometheus/2.42.0\r\n"
                    "Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5\r\n"
                    "X-Prometheus-Scrape-Timeout-Seconds: 10\r\n\r\n";
    CHECK_I64(parse(s, &r), CP_HTTP_OK);
    CHECK_STR(r.method, "GET");
    CHECK_STR(r.path, "/metrics");
    CHECK_I64(r.minor, 1);
    CHECK_I64(r.keep_alive, 1);
    CHECK_I64(r.consumed, strlen(s));
    CHECK_I64(parse("HEAD /metrics?name[]=x HTTP/1.0\nConnection: keep-alive\n\n", &r), CP_HTTP_OK);
    CHECK_STR(r.method, "HEAD");
    CHECK_STR(r.path, "/metrics");
    CHECK_I64(r.keep_alive, 1);
    CHECK_I64(parse("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", &r), CP_HTTP_OK);
    CHECK_I64(r.keep_alive, 0);
}

/* Every cut of a whole request is incomplete, never bad. */
static void test_pieces(void)
{
    const char *s = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
    cp_http_req r;
    for (size_t n = 0; n < strlen(s); n++)
        CHECK_I64(cp_http_parse(s, n, &r), CP_HTTP_INCOMPLETE);
    CHECK_I64(cp_http_parse(s, strlen(s), &r), CP_HTTP_OK);
}

static void test_refused(void)
{
    cp_http_req r;
    CHECK_I64(parse("GARBAGE\r\n\r\n", &r), CP_HTTP_BAD);
    CHECK_I64(parse("GET metrics HTTP/1.1\r\n\r\n", &r), CP_HTTP_BAD);          /* not '/' */
    CHECK_I64(parse("GET /metrics HTTP/2.0\r\n\r\n", &r), CP_HTTP_BAD);
    CHECK_I64(parse("GET /metrics HTTP/1.1 \r\n\r\n", &r), CP_HTTP_BAD);
    CHECK_I64(parse("GET  /metrics HTTP/1.1\r\n\r\n", &r), CP_HTTP_BAD);
    CHECK_I64(parse("GET /metrics HTTP/1.1\r\nHost : x\r\n\r\n", &r), CP_HTTP_BAD);  /* space before ':' */
    CHECK_I64(parse("GET /metrics HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", &r), CP_HTTP_BAD);
    CHECK_I64(parse("GET /metrics HTTP/1.1\r\nHost: a\001b\r\n\r\n", &r), CP_HTTP_BAD);
    CHECK_I64(cp_http_parse("GET /\0 HTTP/1.1\r\n\r\n", 19, &r), CP_HTTP_BAD);
    char big[CP_HTTP_MAX_REQUEST + 16];
    memset(big, 'a', sizeof big);
    memcpy(big, "GET /metrics HTTP/1.1\r\nX: ", 26);
    CHECK_I64(cp_http_parse(big, sizeof big, &r), CP_HTTP_TOO_LARGE);
    char path[400] = "GET /";
    memset(path + 5, 'p', 300);
    memcpy(path + 305, " HTTP/1.1\r\n\r\n", 14);
    CHECK_I64(parse(path, &r), CP_HTTP_TOO_LARGE);
}

int main(void)
{
    RUN(test_scrape);
    RUN(test_pieces);
    RUN(test_refused);
    return TEST_END();
}
