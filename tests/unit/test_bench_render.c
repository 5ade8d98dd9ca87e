/*
 * cuprobe bench's renderers (src/lib/bench/render.c): the text table and
 * its terminal charts, the JSON document against docs/bench.schema.json,
 * and the SVG file (well-formed XML, checked by a small reader below), on
 * hand-made results: a typical run, all-unknown values, skipped rows only,
 * no rows, CP_BENCH_MAX_ROWS rows and CP_BENCH_MAX_POINTS points.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuprobe/bench.h"
#include "json_check.h"
#include "test.h"

static cp_bench_result R;

static cp_bench_row *row(const char *id, const char *title, const char *unit, int device, double value,
                         double ceiling, cp_bench_ceiling_kind kind, const char *what)
{
    cp_bench_row *w = &R.row[R.nrows++];
    memset(w, 0, sizeof *w);
    snprintf(w->id, sizeof w->id, "%s", id);
    snprintf(w->title, sizeof w->title, "%s", title);
    snprintf(w->unit, sizeof w->unit, "%s", unit);
    w->device = device;
    w->peer = -1;
    w->size = 256ll << 20;
    w->state = CP_BENCH_OK;
    w->value = value;
    w->spread = 0.02;
    w->repeats = 10;
    w->higher_is_better = strcmp(unit, "us") != 0;
    w->ceiling = ceiling;
    w->ceiling_kind = kind;
    snprintf(w->ceiling_what, sizeof w->ceiling_what, "%s", what);
    return w;
}

static void reset(void)
{
    memset(&R, 0, sizeof R);
    R.ndevices = 1;
    R.wall_ms = 8123.0;
    R.child_maxrss_kb = 512 * 1024;
    R.libs_rss_kb = 300 * 1024;
    R.self_maxrss_kb = 20 * 1024;
}

/* x4 steps from 4 KiB: 4K 16K ... 1G (10 sizes) */
static void sweep(cp_bench_row *w, int n, int step_log2, double top)
{
    w->npoints = n;
    for (int i = 0; i < n; i++) {
        w->point_size[i] = (int64_t)1 << (12 + step_log2 * i);
        w->point_value[i] = top * (1 - exp(-0.6 * i));
    }
    R.sweep = true;
}

static void typical(void)
{
    reset();
    cp_bench_row *w = row("copy.h2d.pinned.ce", "host to device, pinned, copy engine", "GB/s", 0, 55.2, 63.015,
                          CP_CEIL_LINK, "PCIe Gen5 x16 (63.0 GB/s)");
    sweep(w, 10, 2, 55.2);
    w = row("copy.d2h.pinned.ce", "device to host, pinned, copy engine", "GB/s", 0, 30.1, 63.015, CP_CEIL_LINK,
            "PCIe Gen5 x16 (63.0 GB/s)");
    snprintf(w->detail, sizeof w->detail, "downtrained: Gen5 x8 of Gen5 x16");
    sweep(w, 10, 2, 30.1);
    row("copy.h2d.pageable.ce", "host to device, pageable, copy engine", "GB/s", 0, 20.0, 63.015, CP_CEIL_LINK,
        "PCIe Gen5 x16 (63.0 GB/s)");
    row("copy.d2d.ce", "device to device, copy engine", "GB/s", 0, 2100, 2400, CP_CEIL_DATASHEET,
        "half of H200 SXM HBM3e 4800 GB/s (read + write)");
    row("hbm.read", "memory read, our kernel", "GB/s", 0, 4200, 4800, CP_CEIL_DATASHEET,
        "H200 SXM HBM3e datasheet (4800 GB/s)");
    w = row("launch.graph", "kernel launch in a graph", "us", 0, 1.25, NAN, CP_CEIL_NONE, "");
    w->size = 100;
    w = row("gemm.bf16", "GEMM bf16", "TFLOP/s", 0, 760, 989.5, CP_CEIL_DATASHEET, "H200 SXM dense BF16 datasheet peak");
    w->size = 8192;
    w = row("gemm.tf32", "GEMM tf32", "TFLOP/s", 0, NAN, NAN, CP_CEIL_NONE, "");
    w->state = CP_BENCH_FAILED;
    snprintf(w->detail, sizeof w->detail, "cublasLtMatmul: CUBLAS_STATUS_EXECUTION_FAILED");
    w = row("peer.0-1.read", "device 0 to 1, read", "GB/s", 1, NAN, NAN, CP_CEIL_NONE, "");
    w->state = CP_BENCH_SKIPPED;
    w->peer = 0;
    snprintf(w->detail, sizeof w->detail, "one GPU: no peer");
    row("hbm.read", "memory read, our kernel", "GB/s", 1, 4300, 4800, CP_CEIL_DATASHEET,
        "H200 SXM HBM3e datasheet (4800 GB/s)");
    w = row("nccl.allreduce", "NCCL all-reduce, bus bandwidth", "GB/s", 0, 100, 450, CP_CEIL_LINK,
            "slowest link: NVLink 18 x 25 GB/s (H200 SXM datasheet)");
    R.ndevices = 2;
}

static char *render_text(int color)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    cp_bench_render_text(&R, f, color);
    fclose(f);
    return buf;
}

static char *render_json(void)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    cp_bench_render_json(&R, f);
    fclose(f);
    return buf;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + strlen(what), what)) n++;
    return n;
}

/* The longest line, in characters (UTF-8 continuation bytes not counted). */
static int widest(const char *s)
{
    int w = 0, cur = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\n') { cur = 0; continue; }
        if ((*p & 0xc0) != 0x80) cur++;
        if (cur > w) w = cur;
    }
    return w;
}

/* The lines of the chart whose title starts with title, from its title
 * line to the blank line after it or the end, into buf; false when none. */
static bool chart_of(const char *text, const char *title, char *buf, size_t cap)
{
    char want[128];
    snprintf(want, sizeof want, "\n\n    %s", title);
    const char *c = strstr(text, want);
    if (!c) return false;
    const char *end = strstr(c + 1, "\n\n");
    size_t n = end ? (size_t)(end - c) : strlen(c);
    if (n >= cap) n = cap - 1;
    memcpy(buf, c, n);
    buf[n] = '\0';
    return true;
}

static void test_text_table(void)
{
    typical();
    char *t = render_text(0);
    CHECK(strstr(t, "cuprobe bench: 2 devices, 8.1 s\n") != NULL);
    CHECK(strstr(t, "peak RSS: bench child 512 MiB (loading the libraries 300 MiB), cuprobe 20 MiB\n") != NULL);
    CHECK(strstr(t, "\ndevice 0\n") != NULL);
    CHECK(strstr(t, "\ndevice 1\n") != NULL);
    CHECK(strstr(t, "\nacross the devices\n") != NULL);
    /* groups in order within a device */
    const char *copies = strstr(t, "  copies\n"), *mem = strstr(t, "  memory\n"), *launch = strstr(t, "  launch\n"),
               *gemm = strstr(t, "  GEMM\n");
    CHECK(copies && mem && launch && gemm && copies < mem && mem < launch && launch < gemm);
    /* value, ceiling, percentage, what the ceiling is */
    CHECK(strstr(t, "host to device, pinned, copy engine    256 MiB      55.20 GB/s     63.02 GB/s   87.6   "
                    "PCIe Gen5 x16 (63.0 GB/s)\n") != NULL);
    /* under 80 % of a link: flagged, with the legend; pageable copies are not */
    CHECK(strstr(t, "   47.8!  PCIe Gen5 x16") != NULL);
    CHECK(strstr(t, "   31.7   PCIe Gen5 x16") != NULL);
    CHECK(strstr(t, "\n! under 80 % of the link's theoretical rate\n") != NULL);
    CHECK(strstr(t, "note: downtrained: Gen5 x8 of Gen5 x16\n") != NULL);
    CHECK(strstr(t, "   87.5   half of H200 SXM HBM3e 4800 GB/s (read + write)\n") != NULL);
    /* a latency: no ceiling, lower is better; its size is kernels per graph */
    CHECK(strstr(t, "100/graph         1.25 us") != NULL);
    CHECK(strstr(t, "(lower is better)\n") != NULL);
    CHECK(strstr(t, "n=8192") != NULL);
    CHECK(strstr(t, "FAILED: cublasLtMatmul: CUBLAS_STATUS_EXECUTION_FAILED\n") != NULL);
    CHECK(strstr(t, "SKIPPED: one GPU: no peer\n") != NULL);
    CHECK(strstr(t, "slowest link: NVLink 18 x 25 GB/s (H200 SXM datasheet)\n") != NULL);
    CHECK(strstr(t, "\033[") == NULL);
    CHECK(text_safe(t));
    free(t);
    t = render_text(1);
    CHECK(strstr(t, "\033[33m  47.8!\033[0m") != NULL);
    CHECK(strstr(t, "\033[31mFAILED\033[0m") != NULL);
    CHECK(strstr(t, "\033[33mSKIPPED\033[0m") != NULL);
    free(t);
}

/* The chart of a series: ASCII, within 80 columns, one '*' per size, the
 * ceiling drawn with '-' and labelled, sizes along the axis. */
static void test_text_chart(void)
{
    typical();
    char *t = render_text(0);
    char chart[4096];
    bool found = chart_of(t, "host to device, pinned, copy engine", chart, sizeof chart);
    CHECK(found);
    if (found) {
        CHECK_I64(count(chart, "*"), 10);
        CHECK(strstr(chart, "GB/s against size\n") != NULL);
        CHECK(strstr(chart, "     63.02 |-----") != NULL);        /* the ceiling's line, labelled */
        CHECK(strstr(chart, "         0 |*") != NULL);            /* 4 KiB: the first point, at the bottom */
        CHECK(strstr(chart, "4K    16K   64K   256K  1M    4M    16M   64M   256M  1G") != NULL);
        CHECK(strstr(chart, "- - ceiling") != NULL);
        CHECK(widest(chart) <= 80);
        for (const char *p = chart; *p; p++) CHECK((unsigned char)*p < 0x80);
    }
    CHECK(widest(t) < 200);
    free(t);
}

/* Whatever the row holds, the text is safe for a terminal. */
static void test_text_hostile(void)
{
    reset();
    cp_bench_row *w = row("copy.h2d.pinned.ce", "evil \033]0;title\007 \xff", "GB/s", 0, 1, 2, CP_CEIL_LINK,
                          "what\033[2J");
    snprintf(w->detail, sizeof w->detail, "line one\nline two \x9b");
    sweep(w, 3, 2, 1);
    w = row("copy.d2h.pinned.ce", "x", "GB/s", 0, NAN, NAN, CP_CEIL_NONE, "");
    w->state = CP_BENCH_FAILED;
    snprintf(w->detail, sizeof w->detail, "\033[31mred");
    snprintf(R.skip_reason, sizeof R.skip_reason, "nope\n\033");
    char *t = render_text(0);
    CHECK(text_safe(t));
    CHECK(strchr(t, '\033') == NULL);
    CHECK(strstr(t, "line one\\nline two") != NULL);
    free(t);
    char *j = render_json();
    CHECK(json_ok(j));
    free(j);
}

/* ------------------------------------------------------------ the JSON -- */

static const char *const top_keys[] = { "ndevices", "sweep", "skip_reason", "wall_ms", "child_maxrss_kb",
                                        "libs_rss_kb", "self_maxrss_kb", "rows", NULL };
static const char *const row_keys[] = { "id", "title", "unit", "device", "peer", "size", "state", "value",
                                        "spread", "repeats", "higher_is_better", "ceiling", "ceiling_kind",
                                        "ceiling_what", "pct", "flagged", "detail", "points", NULL };


static void test_json(void)
{
    typical();
    char *j = render_json();
    CHECK(json_ok(j));
    CHECK_I64(members_everywhere(j, "ndevices", top_keys), 1);
    CHECK_I64(members_everywhere(j, "id", row_keys), R.nrows);
    CHECK(strstr(j, "{\"id\":\"copy.h2d.pinned.ce\",\"title\":\"host to device, pinned, copy engine\","
                    "\"unit\":\"GB/s\",\"device\":0,\"peer\":null,\"size\":268435456,\"state\":\"ok\","
                    "\"value\":55.2,\"spread\":0.02,\"repeats\":10,\"higher_is_better\":true,\"ceiling\":63.015,"
                    "\"ceiling_kind\":\"link\",\"ceiling_what\":\"PCIe Gen5 x16 (63.0 GB/s)\",\"pct\":87.5981909"
                    ) != NULL);
    CHECK(strstr(j, "\"points\":[{\"size\":4096,\"value\":0},{\"size\":16384,\"value\":24.90559769}") != NULL);
    CHECK(strstr(j, "\"state\":\"failed\",\"value\":null") != NULL);
    CHECK(strstr(j, "\"detail\":\"cublasLtMatmul: CUBLAS_STATUS_EXECUTION_FAILED\"") != NULL);
    CHECK(strstr(j, "\"peer\":0,") != NULL);
    CHECK(strstr(j, "\"higher_is_better\":false,\"ceiling\":null,\"ceiling_kind\":\"none\",\"ceiling_what\":null,"
                    "\"pct\":null,\"flagged\":false,\"detail\":null,\"points\":[]}") != NULL);
    CHECK(strstr(j, "\"flagged\":true") != NULL);
    CHECK(strstr(j, "{\"ndevices\":2,\"sweep\":true,\"skip_reason\":null,\"wall_ms\":8123,\"child_maxrss_kb\":524288,"
                    "\"libs_rss_kb\":307200,\"self_maxrss_kb\":20480,\"rows\":[\n") == j);
    free(j);
}

/* docs/bench.schema.json requires exactly the members the renderer writes. */
static void test_schema(void)
{
    static char schema[32768];
    int loaded = schema_load("docs/bench.schema.json", schema, sizeof schema);
    CHECK(loaded);
    if (!loaded) return;
    const char *const *lists[] = { top_keys, row_keys };
    for (int l = 0; l < 2; l++) {
        char req[1024] = "\"required\": [";
        for (int k = 0; lists[l][k]; k++) {
            size_t at = strlen(req);
            snprintf(req + at, sizeof req - at, "%s\"%s\"", k ? ", " : "", lists[l][k]);
        }
        size_t at = strlen(req);
        snprintf(req + at, sizeof req - at, "]");
        if (!strstr(schema, req)) fprintf(stderr, "  schema lacks %s\n", req);
        CHECK(strstr(schema, req) != NULL);
    }
    CHECK(strstr(schema, "\"required\": [\"size\", \"value\"]") != NULL);
    CHECK(strstr(schema, "\"enum\": [\"none\", \"link\", \"datasheet\", \"measured\"]") != NULL);
    CHECK(strstr(schema, "\"enum\": [\"ok\", \"skipped\", \"failed\"]") != NULL);
    char m[64];
    snprintf(m, sizeof m, "\"maxItems\": %d", CP_BENCH_MAX_ROWS);
    CHECK(strstr(schema, m) != NULL);
    snprintf(m, sizeof m, "\"maxItems\": %d", CP_BENCH_MAX_POINTS);
    CHECK(strstr(schema, m) != NULL);
}

/* ------------------------------------------------------------- the SVG -- */

/* A small well-formedness reader for what the SVG writer produces: one
 * prolog, elements that nest and close by name, attributes quoted, text
 * and attribute values without '<' and with '&' only in an entity,
 * strictly valid UTF-8, no control byte but '\n'. */
static int xml_name(const char **p, char *out, size_t cap)
{
    size_t n = 0;
    while ((**p >= 'a' && **p <= 'z') || (**p >= 'A' && **p <= 'Z') || (**p >= '0' && **p <= '9') || **p == '-' ||
           **p == ':' || **p == '_') {
        if (n + 1 < cap) out[n++] = **p;
        (*p)++;
    }
    out[n] = '\0';
    return n > 0;
}

static int xml_entity(const char **p)
{
    static const char *const ok[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#39;", NULL };
    for (int i = 0; ok[i]; i++)
        if (strncmp(*p, ok[i], strlen(ok[i])) == 0) { *p += strlen(ok[i]); return 1; }
    return 0;
}

static int xml_ok(const char *s)
{
    if (!text_safe(s) || strchr(s, '\t')) return 0;
    const char *prolog = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    if (strncmp(s, prolog, strlen(prolog)) != 0) return 0;
    const char *p = s + strlen(prolog);
    char stack[64][32];
    int depth = 0, roots = 0;
    while (*p) {
        if (*p == '&') { if (!xml_entity(&p)) return 0; continue; }
        if (*p == '>') return 0;
        if (*p != '<') { if (depth == 0 && *p != '\n') return 0; p++; continue; }
        p++;
        char name[32];
        if (*p == '/') {
            p++;
            if (!xml_name(&p, name, sizeof name) || *p++ != '>' || depth == 0) return 0;
            if (strcmp(stack[--depth], name) != 0) return 0;
            continue;
        }
        if (!xml_name(&p, name, sizeof name)) return 0;
        if (depth == 0 && roots++) return 0;
        for (;;) {
            char attr[32];
            if (*p == '/' && p[1] == '>') { p += 2; break; }
            if (*p == '>') {
                p++;
                if (depth == 64) return 0;
                snprintf(stack[depth++], sizeof stack[0], "%s", name);
                break;
            }
            if (*p++ != ' ' || !xml_name(&p, attr, sizeof attr) || *p++ != '=' || *p++ != '"') return 0;
            while (*p && *p != '"') {
                if (*p == '<') return 0;
                if (*p == '&') { if (!xml_entity(&p)) return 0; continue; }
                p++;
            }
            if (*p++ != '"') return 0;
        }
    }
    return depth == 0 && roots == 1;
}

static char *write_svg(int *rc)
{
    char path[] = "/tmp/cuprobe-test-svg-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return NULL;
    close(fd);
    *rc = cp_bench_write_svg(&R, path);
    FILE *f = fopen(path, "r");
    static char buf[1 << 20];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = '\0';
    unlink(path);
    CHECK(n < sizeof buf - 1);
    return strdup(buf);
}

static void test_xml_checker(void)
{
    CHECK(xml_ok("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a x=\"1\"><b/>t &amp; u</a>\n"));
    CHECK(!xml_ok("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a><b></a></b>\n"));
    CHECK(!xml_ok("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>x & y</a>\n"));
    CHECK(!xml_ok("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a t=\"<\"/>\n"));
    CHECK(!xml_ok("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>\x01</a>\n"));
    CHECK(!xml_ok("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a/><b/>\n"));
    CHECK(!xml_ok("<a/>"));
}

static void test_svg(void)
{
    typical();
    snprintf(R.row[0].id, sizeof R.row[0].id, "copy<&>\"'\x01\xff");
    int rc = -1;
    char *s = write_svg(&rc);
    CHECK_I64(rc, 0);
    if (!s) return;
    CHECK(xml_ok(s));
    CHECK(strstr(s, "<svg xmlns=\"http://www.w3.org/2000/svg\"") != NULL);
    CHECK_I64(count(s, "<polyline"), 2);
    CHECK_I64(count(s, "stroke-dasharray=\"6 4\""), 2);       /* each series' ceiling, dashed */
    CHECK(strstr(s, "copy&lt;&amp;&gt;&quot;&#39; \xef\xbf\xbd, device 0</text>") != NULL);
    CHECK(strstr(s, ">4 KiB</text>") != NULL);
    CHECK(strstr(s, ">1 GiB</text>") != NULL);
    CHECK(strstr(s, "bytes per copy (log scale)") != NULL);
    CHECK(strstr(s, "cuprobe bench: GB/s against size, device 0</text>") != NULL);
    CHECK(strstr(s, "- - ceiling 63.02: PCIe Gen5 x16 (63.0 GB/s)") != NULL);
    free(s);
    R.row[1].device = 3;                      /* a second device in the panel */
    s = write_svg(&rc);
    CHECK(s && strstr(s, "cuprobe bench: GB/s against size, devices 0,3</text>") != NULL);
    free(s);
    /* where it cannot be written: -1 and errno */
    errno = 0;
    CHECK_I64(cp_bench_write_svg(&R, "/nonexistent-dir/x.svg"), -1);
    CHECK_I64(errno, ENOENT);
    errno = 0;
    CHECK_I64(cp_bench_write_svg(&R, NULL), -1);
    CHECK_I64(errno, EINVAL);
    CHECK_I64(cp_bench_write_svg(NULL, "/tmp/x.svg"), -1);
}

/* ------------------------------------------------- every renderer, edges -- */

static void all_renderers(const char *what, int want_svg_lines)
{
    char *t = render_text(0);
    CHECK(t && text_safe(t));
    char *t1 = render_text(1);
    CHECK(t1 != NULL);
    char *j = render_json();
    CHECK(j && json_ok(j));
    if (j && !json_ok(j)) fprintf(stderr, "  %s: JSON not valid\n", what);
    CHECK_I64(members_everywhere(j, "ndevices", top_keys), 1);
    int nr = R.nrows < 0 ? 0 : R.nrows > CP_BENCH_MAX_ROWS ? CP_BENCH_MAX_ROWS : R.nrows;
    CHECK_I64(members_everywhere(j, "id", row_keys), nr);
    int rc = -1;
    char *s = write_svg(&rc);
    CHECK_I64(rc, 0);
    CHECK(s && xml_ok(s));
    if (s && !xml_ok(s)) fprintf(stderr, "  %s: SVG not well-formed\n", what);
    if (s && want_svg_lines >= 0) CHECK_I64(count(s, "<polyline"), want_svg_lines);
    free(t);
    free(t1);
    free(j);
    free(s);
}

static void test_no_rows(void)
{
    reset();
    snprintf(R.skip_reason, sizeof R.skip_reason, "no GPU: cuInit answered CUDA_ERROR_NO_DEVICE");
    R.ndevices = 0;
    all_renderers("no rows", 0);
    char *t = render_text(0);
    CHECK(strstr(t, "nothing was measured: no GPU: cuInit answered CUDA_ERROR_NO_DEVICE\n") != NULL);
    free(t);
    char *j = render_json();
    CHECK(strstr(j, "\"skip_reason\":\"no GPU: cuInit answered CUDA_ERROR_NO_DEVICE\"") != NULL);
    CHECK(strstr(j, "\"rows\":[]}\n") != NULL);
    free(j);
    R.skip_reason[0] = '\0';
    t = render_text(0);
    CHECK(strstr(t, "no measurement was asked for\n") != NULL);
    free(t);
}

/* Nothing known: no value, no ceiling, no RSS, no wall time. */
static void test_all_unknown(void)
{
    reset();
    R.wall_ms = NAN;
    R.child_maxrss_kb = R.libs_rss_kb = R.self_maxrss_kb = CP_UNKNOWN;
    cp_bench_row *w = row("copy.h2d.pinned.ce", "h2d", "GB/s", 0, NAN, NAN, CP_CEIL_NONE, "");
    w->spread = NAN;
    w->size = CP_UNKNOWN;
    w->npoints = 3;
    for (int i = 0; i < 3; i++) { w->point_size[i] = CP_UNKNOWN; w->point_value[i] = NAN; }
    w = row("launch.plain", "launch", "us", 0, NAN, NAN, CP_CEIL_NONE, "");
    w->spread = NAN;
    all_renderers("all unknown", 1);
    char *t = render_text(0);
    CHECK(strstr(t, "peak RSS: bench child N/A (loading the libraries N/A), cuprobe N/A\n") != NULL);
    CHECK(strstr(t, "       N/A GB/s") != NULL);
    CHECK(strstr(t, "(no size of the sweep was measured)") != NULL);
    CHECK(strstr(t, " s\n") == NULL);                  /* no wall time */
    free(t);
    char *j = render_json();
    CHECK(strstr(j, "\"wall_ms\":null,\"child_maxrss_kb\":null,\"libs_rss_kb\":null,\"self_maxrss_kb\":null") != NULL);
    CHECK(strstr(j, "\"size\":null,\"state\":\"ok\",\"value\":null,\"spread\":null") != NULL);
    CHECK(strstr(j, "{\"size\":null,\"value\":null}") != NULL);
    free(j);
}

static void test_skipped_only(void)
{
    reset();
    static const char *const ids[] = { "copy.h2d.pinned.ce", "gemm.bf16", "nccl.allreduce", "peer.0-1.read" };
    for (int i = 0; i < 4; i++) {
        cp_bench_row *w = row(ids[i], ids[i], i == 1 ? "TFLOP/s" : "GB/s", 0, NAN, NAN, CP_CEIL_NONE, "");
        w->state = CP_BENCH_SKIPPED;
        snprintf(w->detail, sizeof w->detail, "not here: reason %d", i);
    }
    all_renderers("skipped only", 0);
    char *t = render_text(0);
    CHECK_I64(count(t, "SKIPPED: not here: reason"), 4);
    CHECK(strstr(t, "!") == NULL);
    free(t);
    char *j = render_json();
    CHECK_I64(count(j, "\"state\":\"skipped\",\"value\":null"), 4);
    free(j);
}

/* Every row the result can hold, every point a row can hold, on many
 * devices; and counts past the arrays, which the renderers must clamp. */
static void test_full(void)
{
    reset();
    static const char *const ids[] = { "copy.h2d.pinned.ce", "copy.d2h.pinned.sm", "hbm.write", "peer.3-4.write",
                                       "launch.roundtrip", "gemm.fp16", "nccl.allreduce", "other.thing" };
    static const char *const units[] = { "GB/s", "GB/s", "GB/s", "GB/s", "us", "TFLOP/s", "GB/s", "GB/s" };
    for (int i = 0; i < CP_BENCH_MAX_ROWS; i++) {
        int k = i % 8;
        cp_bench_row *w = row(ids[k], "a title that is longer than the column it is given in the table",
                              units[k], i / 8, 10.0 + i, i % 3 ? 50.0 + i : NAN, i % 3 ? CP_CEIL_LINK : CP_CEIL_NONE,
                              "a ceiling described at the full length of its field, 79 characters long......");
        sweep(w, CP_BENCH_MAX_POINTS, 1, 10.0 + i);
        snprintf(w->detail, sizeof w->detail, "%0199d", 7);
    }
    R.ndevices = CP_BENCH_MAX_ROWS / 8;
    all_renderers("full", CP_BENCH_MAX_ROWS);
    char *t = render_text(0);
    /* a chart of 24 points over 23 doublings still fits 80 columns */
    char chart[4096];
    bool found = chart_of(t, "a title that is longer than the column it is given", chart, sizeof chart);
    CHECK(found);
    if (found) {
        CHECK(widest(chart) <= 80);
        CHECK(count(chart, "*") >= 20);      /* neighbours may share a column at 2 columns a doubling */
    }
    CHECK_I64(count(t, "\ndevice "), CP_BENCH_MAX_ROWS / 8);
    free(t);
    R.nrows = CP_BENCH_MAX_ROWS + 10;
    for (int i = 0; i < CP_BENCH_MAX_ROWS; i++) R.row[i].npoints = CP_BENCH_MAX_POINTS + 5;
    all_renderers("counts past the arrays", CP_BENCH_MAX_ROWS);
    R.nrows = -1;
    all_renderers("negative count", 0);
    cp_bench_render_text(NULL, stdout, 0);
    cp_bench_render_json(NULL, stdout);
}

/* One point, a sweep with equal sizes, values of zero. */
static void test_chart_degenerate(void)
{
    reset();
    cp_bench_row *w = row("copy.d2d.ce", "one point", "GB/s", 0, 5, NAN, CP_CEIL_NONE, "");
    w->npoints = 1;
    w->point_size[0] = 1 << 20;
    w->point_value[0] = 5;
    w = row("copy.d2d.sm", "all zero", "GB/s", 0, 0, 10, CP_CEIL_MEASURED, "the copy engine, this run");
    w->npoints = 2;
    w->point_size[0] = w->point_size[1] = 4096;
    w->point_value[0] = w->point_value[1] = 0;
    w = row("copy.bidir.pinned.ce", "the largest size there is", "GB/s", 0, 5, NAN, CP_CEIL_NONE, "");
    w->npoints = 2;
    w->point_size[0] = 1;
    w->point_size[1] = INT64_MAX;           /* log2 rounds up to 63: no 1 << 63 on the axis */
    w->point_value[0] = w->point_value[1] = 5;
    all_renderers("degenerate", 3);
    char *t = render_text(0);
    CHECK(strstr(t, "1M") != NULL);
    CHECK(widest(t) < 200);
    free(t);
}

int main(void)
{
    RUN(test_text_table);
    RUN(test_text_chart);
    RUN(test_text_hostile);
    RUN(test_json);
    RUN(test_schema);
    RUN(test_xml_checker);
    RUN(test_svg);
    RUN(test_no_rows);
    RUN(test_all_unknown);
    RUN(test_skipped_only);
    RUN(test_full);
    RUN(test_chart_degenerate);
    return TEST_END();
}
