/*
 * cuprobe bench's renderers: the text table (with a small chart per sweep
 * series), the JSON document (docs/bench.schema.json) and the SVG chart
 * cuprobe writes itself.  Every string of a row goes out through
 * cp_text_put (text), the one JSON writer (JSON) or the XML escape below
 * (SVG).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cuprobe/bench.h"
#include "util/json.h"
#include "util/str.h"
#include "util/text.h"

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_RED "\033[31m"
#define C_YELLOW "\033[33m"

/* A rate under this share of a link's theoretical rate is flagged. */
#define LOW_PCT 80.0

/* The groups of the table, in order: a row's group is its id's first word. */
static const struct {
    const char *prefix, *name;
} groups[] = {
    { "copy.", "copies" }, { "hbm.", "memory" }, { "peer.", "peer" }, { "launch.", "launch" },
    { "gemm.", "GEMM" }, { "nccl.", "collectives" }, { "", "other" },
};
#define NGROUPS (int)(sizeof groups / sizeof groups[0])

static int group_of(const char *id)
{
    for (int g = 0; g < NGROUPS - 1; g++)
        if (cp_str_starts_with(id, groups[g].prefix)) return g;
    return NGROUPS - 1;
}

/* A collective spans the devices: it is shown once, apart from them. */
static bool spans_devices(const cp_bench_row *row)
{
    return cp_str_starts_with(row->id, "nccl.");
}

static int nrows_of(const cp_bench_result *r)
{
    return r->nrows < 0 ? 0 : r->nrows > CP_BENCH_MAX_ROWS ? CP_BENCH_MAX_ROWS : r->nrows;
}

static int npoints_of(const cp_bench_row *row)
{
    return row->npoints < 0 ? 0 : row->npoints > CP_BENCH_MAX_POINTS ? CP_BENCH_MAX_POINTS : row->npoints;
}

/* Under LOW_PCT of a link ceiling.  Pageable copies are left out: they pass
 * through a pinned staging buffer, so the CPU's memcpy, not the link, bounds
 * them (docs/bench.md). */
static bool flagged(const cp_bench_row *row)
{
    double pct = cp_bench_pct(row);
    return isfinite(pct) && pct < LOW_PCT && row->ceiling_kind == CP_CEIL_LINK && !strstr(row->id, ".pageable");
}

/* A number for people: 4 significant figures or so; "N/A" when unknown. */
static void fmt_num(double v, char *buf, size_t cap)
{
    if (!isfinite(v)) snprintf(buf, cap, "N/A");
    else if (fabs(v) >= 1000) snprintf(buf, cap, "%.0f", v);
    else if (fabs(v) >= 100) snprintf(buf, cap, "%.1f", v);
    else if (fabs(v) >= 1 || v == 0) snprintf(buf, cap, "%.2f", v);
    else if (fabs(v) >= 0.01) snprintf(buf, cap, "%.3g", v);
    else snprintf(buf, cap, "%.1e", v);   /* keeps the column's width: 2.9e-04, not 0.000286 */
}

/* Bytes as "4 KiB", "256 MiB", "1.5 GiB"; compact ("4K") for the chart's axis. */
static void fmt_bytes(int64_t b, bool compact, char *buf, size_t cap)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    static const char *const shorts[] = { "", "K", "M", "G", "T" };
    double v = (double)b;
    int u = 0;
    while (v >= 1024 && u < 4) { v /= 1024; u++; }
    const char *sep = compact ? "" : " ";
    const char *unit = compact ? shorts[u] : units[u];
    if (v == floor(v)) snprintf(buf, cap, "%.0f%s%s", v, sep, unit);
    else snprintf(buf, cap, "%.1f%s%s", v, sep, unit);
}

/* The size column: bytes for a rate in GB/s, n for a GEMM, kernels for a graph. */
static void fmt_size(const cp_bench_row *row, char *buf, size_t cap)
{
    if (!CP_KNOWN(row->size) || row->size <= 0) snprintf(buf, cap, "-");
    else if (strcmp(row->unit, "GB/s") == 0) fmt_bytes(row->size, false, buf, cap);
    else if (cp_str_starts_with(row->id, "gemm.")) snprintf(buf, cap, "n=%lld", (long long)row->size);
    else if (strcmp(row->id, "launch.graph") == 0) snprintf(buf, cap, "%lld/graph", (long long)row->size);
    else snprintf(buf, cap, "%lld", (long long)row->size);
}

/* s (from the row, so from the machine) in a column of width w: cut, or padded. */
static void put_col(FILE *out, const char *s, int w, bool right)
{
    size_t n = strlen(s);
    if (n > (size_t)w) n = (size_t)w;
    if (right) fprintf(out, "%*s", w - (int)n, "");
    cp_text_put_n(out, s, n, 0);
    if (!right) fprintf(out, "%*s", w - (int)n, "");
}

#define W_WHAT 36
#define W_SIZE 9
#define W_VALUE 15
#define W_CEIL 14

static void put_row(FILE *out, const cp_bench_row *row, int color)
{
    char size[32], buf[64], num[32];
    fputs("    ", out);
    put_col(out, row->title[0] ? row->title : row->id, W_WHAT, false);
    fmt_size(row, size, sizeof size);
    fputc(' ', out);
    put_col(out, size, W_SIZE, true);
    if (row->state != CP_BENCH_OK) {
        bool failed = row->state == CP_BENCH_FAILED;
        fprintf(out, "  %s%s%s: ", color ? (failed ? C_RED : C_YELLOW) : "", failed ? "FAILED" : "SKIPPED",
                color ? C_RESET : "");
        cp_text_put_line(out, row->detail[0] ? row->detail : "no reason given");
        fputc('\n', out);
        return;
    }
    fmt_num(row->value, num, sizeof num);
    snprintf(buf, sizeof buf, "%s %s", num, row->unit);
    fputc(' ', out);
    put_col(out, buf, W_VALUE, true);
    if (isfinite(row->ceiling)) {
        fmt_num(row->ceiling, num, sizeof num);
        snprintf(buf, sizeof buf, "%s %s", num, row->unit);
    } else {
        snprintf(buf, sizeof buf, "-");
    }
    fputc(' ', out);
    put_col(out, buf, W_CEIL, true);
    double pct = cp_bench_pct(row);
    bool low = flagged(row);
    if (isfinite(pct)) fprintf(out, " %s%6.1f%s%s", low && color ? C_YELLOW : "", pct, low ? "!" : " ",
                               low && color ? C_RESET : "");
    else fprintf(out, " %6s ", "-");
    fputs("  ", out);
    if (row->ceiling_what[0]) cp_text_put_line(out, row->ceiling_what);
    else if (!row->higher_is_better) fputs("(lower is better)", out);
    fputc('\n', out);
    if (row->detail[0]) {
        fprintf(out, "    %*s", W_WHAT, "");
        fputs("  note: ", out);
        cp_text_put_line(out, row->detail);
        fputc('\n', out);
    }
}

/* ---------------------------------------------------------- the chart -- */

#define CH_ROWS 8      /* rate lines */
#define CH_COLS 60     /* columns of the plot at most; with the labels a line stays under 80 */
#define CH_LABEL 9

/* One sweep series as an ASCII chart: rate up, size across on a log2 axis
 * (3 columns a doubling while that fits), '*' a point, '-' the ceiling. */
static void put_chart(FILE *out, const cp_bench_row *row)
{
    int n = npoints_of(row);
    double lo = 0, hi = 0, ymax = 0;
    int valid = 0;
    for (int i = 0; i < n; i++) {
        if (row->point_size[i] <= 0 || !isfinite(row->point_value[i]) || row->point_value[i] < 0) continue;
        double l = log2((double)row->point_size[i]);
        if (!valid || l < lo) lo = l;
        if (!valid || l > hi) hi = l;
        if (row->point_value[i] > ymax) ymax = row->point_value[i];
        valid++;
    }
    /* the title cut so the line fits 80 columns with the unit */
    const char *title = row->title[0] ? row->title : row->id;
    size_t tn = strlen(title), room = 80 - 4 - 2 - strlen(" against size") - (strlen(row->unit) < 12 ? strlen(row->unit) : 12);
    fputs("\n    ", out);
    cp_text_put_n(out, title, tn < room ? tn : room, 0);
    fputs(", ", out);
    cp_text_put_line(out, row->unit);
    fputs(" against size\n", out);
    if (!valid) {
        fputs("      (no size of the sweep was measured)\n", out);
        return;
    }
    bool ceil_known = isfinite(row->ceiling) && row->ceiling > 0;
    if (ceil_known && row->ceiling > ymax) ymax = row->ceiling;
    if (ymax <= 0) ymax = 1;
    double span = hi - lo, scale = span > 0 ? fmin(3.0, (CH_COLS - 1) / span) : 0;
    int width = (int)lround(span * scale) + 1;
    char grid[CH_ROWS][CH_COLS + 1];
    for (int y = 0; y < CH_ROWS; y++) {
        memset(grid[y], ' ', (size_t)width);
        grid[y][width] = '\0';
    }
    int ceil_row = ceil_known ? (int)lround(row->ceiling / ymax * (CH_ROWS - 1)) : -1;
    if (ceil_row >= 0)
        for (int x = 0; x < width; x++) grid[ceil_row][x] = '-';
    for (int i = 0; i < n; i++) {
        if (row->point_size[i] <= 0 || !isfinite(row->point_value[i]) || row->point_value[i] < 0) continue;
        int x = (int)lround((log2((double)row->point_size[i]) - lo) * scale);
        int y = (int)lround(row->point_value[i] / ymax * (CH_ROWS - 1));
        grid[y][x] = '*';
    }
    char label[32];
    for (int y = CH_ROWS - 1; y >= 0; y--) {
        label[0] = '\0';
        if (y == CH_ROWS - 1) fmt_num(ymax, label, sizeof label);
        else if (y == ceil_row) fmt_num(row->ceiling, label, sizeof label);
        else if (y == 0) snprintf(label, sizeof label, "0");
        fprintf(out, "  %*s |%s\n", CH_LABEL, label, grid[y]);
    }
    fprintf(out, "  %*s +", CH_LABEL, "");
    for (int x = 0; x < width; x++) fputc('-', out);
    fputc('\n', out);
    /* size labels under the axis at the powers of four, where they fit */
    char axis[CH_COLS + 16];
    memset(axis, ' ', sizeof axis - 1);
    axis[sizeof axis - 1] = '\0';
    int end = 0;
    for (int e = (int)ceil(lo); e <= (int)floor(hi) && e < 63; e++) {
        if (e % 2 && !(e == (int)ceil(lo) && span < 2)) continue;
        int x = (int)lround((e - lo) * scale);
        fmt_bytes((int64_t)1 << e, true, label, sizeof label);
        size_t len = strlen(label);
        if (x < end || x + (int)len > (int)sizeof axis - 1) continue;
        memcpy(axis + x, label, len);
        end = x + (int)len + 1;
    }
    axis[end > 0 ? end : 0] = '\0';
    fprintf(out, "  %*s  %s\n", CH_LABEL, "", axis);
    fprintf(out, "  %*s  size (log2; K M G = KiB MiB GiB)%s\n", CH_LABEL, "", ceil_known ? ", - - ceiling" : "");
}

/* ------------------------------------------------------------ the text -- */

static void put_rss(FILE *out, const char *what, int64_t kb)
{
    char b[32];
    fputs(what, out);
    if (CP_KNOWN(kb) && kb >= 0) { fmt_bytes(kb * 1024, false, b, sizeof b); fputs(b, out); }
    else fputs("N/A", out);
}

static void put_header(FILE *out)
{
    fprintf(out, "    %-*s %*s %*s %*s %7s  %s\n", W_WHAT, "", W_SIZE, "size", W_VALUE, "value", W_CEIL, "ceiling",
            "% of it", "the ceiling");
}

/* The rows of one device (or the cross-device ones, device < -1), by group;
 * their sweeps' charts after them. */
static void put_section(const cp_bench_result *r, FILE *out, int color, int device, bool across)
{
    int nr = nrows_of(r);
    for (int g = 0; g < NGROUPS; g++) {
        bool head = false;
        for (int i = 0; i < nr; i++) {
            const cp_bench_row *row = &r->row[i];
            if (spans_devices(row) != across || (!across && row->device != device) || group_of(row->id) != g) continue;
            if (!head) { fprintf(out, "  %s\n", groups[g].name); head = true; }
            put_row(out, row, color);
        }
    }
    for (int i = 0; i < nr; i++) {
        const cp_bench_row *row = &r->row[i];
        if (spans_devices(row) == across && (across || row->device == device) && npoints_of(row) > 0)
            put_chart(out, row);
    }
}

/* See bench.h. */
void cp_bench_render_text(const cp_bench_result *r, FILE *out, int color)
{
    if (!r || !out) return;
    int nr = nrows_of(r);
    fprintf(out, "%scuprobe bench%s: %d device%s", color ? C_BOLD : "", color ? C_RESET : "", r->ndevices,
            r->ndevices == 1 ? "" : "s");
    if (isfinite(r->wall_ms) && r->wall_ms >= 0) fprintf(out, ", %.1f s", r->wall_ms / 1000.0);
    fputc('\n', out);
    if (r->skip_reason[0]) {
        fputs("nothing was measured: ", out);
        cp_text_put_line(out, r->skip_reason);
        fputc('\n', out);
    }
    put_rss(out, "peak RSS: bench child ", r->child_maxrss_kb);
    put_rss(out, " (loading the libraries ", r->libs_rss_kb);
    put_rss(out, "), cuprobe ", r->self_maxrss_kb);
    fputc('\n', out);
    if (nr == 0) {
        if (!r->skip_reason[0]) fputs("no measurement was asked for\n", out);
        return;
    }
    /* devices in the order their first row comes */
    int seen[CP_BENCH_MAX_ROWS], ndev = 0;
    bool any_across = false, any_low = false;
    for (int i = 0; i < nr; i++) {
        const cp_bench_row *row = &r->row[i];
        any_low |= flagged(row) && row->state == CP_BENCH_OK;
        if (spans_devices(row)) { any_across = true; continue; }
        int k = 0;
        while (k < ndev && seen[k] != row->device) k++;
        if (k == ndev) seen[ndev++] = row->device;
    }
    for (int k = 0; k < ndev; k++) {
        fprintf(out, "\n%sdevice %d%s\n", color ? C_BOLD : "", seen[k], color ? C_RESET : "");
        put_header(out);
        put_section(r, out, color, seen[k], false);
    }
    if (any_across) {
        fprintf(out, "\n%sacross the devices%s\n", color ? C_BOLD : "", color ? C_RESET : "");
        put_header(out);
        put_section(r, out, color, -1, true);
    }
    if (any_low)
        fprintf(out, "\n%s!%s under %.0f %% of the link's theoretical rate\n", color ? C_YELLOW : "",
                color ? C_RESET : "", LOW_PCT);
}

/* ------------------------------------------------------------ the JSON -- */

static const char *state_word(cp_bench_state s)
{
    return s == CP_BENCH_OK ? "ok" : s == CP_BENCH_SKIPPED ? "skipped" : "failed";
}

static const char *kind_word(cp_bench_ceiling_kind k)
{
    switch (k) {
    case CP_CEIL_LINK: return "link";
    case CP_CEIL_DATASHEET: return "datasheet";
    case CP_CEIL_MEASURED: return "measured";
    default: return "none";
    }
}

static void json_row(FILE *out, const cp_bench_row *row)
{
    fputs("{\"id\":", out);
    cp_json_str(out, row->id);
    fputs(",\"title\":", out);
    cp_json_str(out, row->title);
    fputs(",\"unit\":", out);
    cp_json_str(out, row->unit);
    fprintf(out, ",\"device\":%d,\"peer\":", row->device);
    cp_json_i64(out, row->peer >= 0 ? row->peer : CP_UNKNOWN);
    fputs(",\"size\":", out);
    cp_json_i64(out, row->size);
    fprintf(out, ",\"state\":\"%s\",\"value\":", state_word(row->state));
    cp_json_double(out, row->state == CP_BENCH_OK ? row->value : NAN);
    fputs(",\"spread\":", out);
    cp_json_double(out, row->spread);
    fprintf(out, ",\"repeats\":%d,\"higher_is_better\":%s,\"ceiling\":", row->repeats,
            row->higher_is_better ? "true" : "false");
    cp_json_double(out, row->ceiling);
    fprintf(out, ",\"ceiling_kind\":\"%s\",\"ceiling_what\":", kind_word(row->ceiling_kind));
    cp_json_str_or_null(out, row->ceiling_what);
    fputs(",\"pct\":", out);
    cp_json_double(out, cp_bench_pct(row));
    fprintf(out, ",\"flagged\":%s,\"detail\":", flagged(row) ? "true" : "false");
    cp_json_str_or_null(out, row->detail);
    fputs(",\"points\":[", out);
    for (int i = 0; i < npoints_of(row); i++) {
        fprintf(out, "%s{\"size\":", i ? "," : "");
        cp_json_i64(out, row->point_size[i]);
        fputs(",\"value\":", out);
        cp_json_double(out, row->point_value[i]);
        fputc('}', out);
    }
    fputs("]}", out);
}

static void json_rss(FILE *out, const char *key, int64_t kb)
{
    fprintf(out, ",\"%s\":", key);
    cp_json_i64(out, CP_KNOWN(kb) && kb >= 0 ? kb : CP_UNKNOWN);
}

/* See bench.h. */
void cp_bench_render_json(const cp_bench_result *r, FILE *out)
{
    if (!r || !out) return;
    fprintf(out, "{\"ndevices\":%d,\"sweep\":%s,\"skip_reason\":", r->ndevices, r->sweep ? "true" : "false");
    cp_json_str_or_null(out, r->skip_reason);
    fputs(",\"wall_ms\":", out);
    cp_json_double(out, r->wall_ms);
    json_rss(out, "child_maxrss_kb", r->child_maxrss_kb);
    json_rss(out, "libs_rss_kb", r->libs_rss_kb);
    json_rss(out, "self_maxrss_kb", r->self_maxrss_kb);
    fputs(",\"rows\":[", out);
    for (int i = 0; i < nrows_of(r); i++) {
        fputs(i ? ",\n" : "\n", out);
        json_row(out, &r->row[i]);
    }
    fputs("]}\n", out);
}

/* ------------------------------------------------------------- the SVG -- */


static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                       "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22" };
#define NPALETTE (int)(sizeof palette / sizeof palette[0])

#define SVG_W 900
#define PX0 80.0
#define PX1 600.0
#define LEGEND_X 620.0
#define LEGEND_STEP 34

static bool svg_point_ok(const cp_bench_row *row, int i)
{
    return row->point_size[i] > 0 && isfinite(row->point_value[i]) && row->point_value[i] >= 0;
}

/* A tick step of 1, 2 or 5 times a power of ten, about five ticks to ymax. */
static double nice_step(double ymax)
{
    double raw = ymax / 5, mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* A panel's height: room for the plot, and for the legend of its series. */
static int panel_height(const cp_bench_result *r, const char *unit)
{
    int nseries = 0;
    for (int i = 0; i < nrows_of(r); i++)
        if (npoints_of(&r->row[i]) > 0 && strcmp(r->row[i].unit, unit) == 0) nseries++;
    int height = 120 + nseries * LEGEND_STEP;
    return height < 420 ? 420 : height;
}

/* One panel: every sweep series of one unit, from y = top; returns its height. */
static int svg_panel(FILE *out, const cp_bench_result *r, const char *unit, int top)
{
    int nr = nrows_of(r);
    double lo = 12, hi = 30, ymax = 0;   /* the axis spans 4 KiB .. 1 GiB at least */
    char devices[160] = "";
    for (int i = 0; i < nr; i++) {
        const cp_bench_row *row = &r->row[i];
        if (npoints_of(row) == 0 || strcmp(row->unit, unit) != 0) continue;
        char d[16];
        snprintf(d, sizeof d, "%d", row->device);
        bool have = false;
        for (const char *p = devices; *p;) {
            char one[16];
            if (cp_list_next(&p, ',', one, sizeof one) && strcmp(one, d) == 0) have = true;
        }
        if (!have) cp_str_append(devices, sizeof devices, ",", d);
        if (isfinite(row->ceiling) && row->ceiling > ymax) ymax = row->ceiling;
        for (int k = 0; k < npoints_of(row); k++) {
            if (!svg_point_ok(row, k)) continue;
            double l = log2((double)row->point_size[k]);
            if (l < lo) lo = floor(l);
            if (l > hi) hi = ceil(l);
            if (row->point_value[k] > ymax) ymax = row->point_value[k];
        }
    }
    if (ymax <= 0) ymax = 1;
    double step = nice_step(ymax), ytop = ceil(ymax / step) * step;
    int height = panel_height(r, unit);
    double py0 = top + 50.0, py1 = top + height - 60.0;
#define XS(l) (PX0 + ((l) - lo) / (hi - lo) * (PX1 - PX0))
#define YS(v) (py1 - (v) / ytop * (py1 - py0))
    fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"16\" font-weight=\"bold\">cuprobe bench: ", PX0, top + 25);
    cp_xml_text(out, unit);
    fputs(strchr(devices, ',') ? " against size, devices " : " against size, device ", out);
    cp_xml_text(out, devices);
    fputs("</text>\n", out);
    /* axes, grid and ticks */
    fprintf(out, "<g stroke=\"#000\" stroke-width=\"1\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/></g>\n", PX0, py1, PX1, py1, PX0, py0, PX0, py1);
    for (int e = (int)lo; e <= (int)hi && e < 63; e++) {
        if (e % 2) continue;
        char b[32];
        fmt_bytes((int64_t)1 << e, false, b, sizeof b);
        double x = XS(e);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n",
                x, py0, x, py1, x, py1 + 16, b);
    }
    for (double v = 0; v <= ytop + step / 2; v += step) {
        double y = YS(v);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n",
                PX0, y, PX1, y, PX0 - 6, y + 4, v);
    }
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">bytes per copy (log scale)"
            "</text>\n", (PX0 + PX1) / 2, py1 + 36);
    fprintf(out, "<text x=\"20\" y=\"%.1f\" font-size=\"12\" transform=\"rotate(-90 20 %.1f)\" "
            "text-anchor=\"middle\">", (py0 + py1) / 2, (py0 + py1) / 2);
    cp_xml_text(out, unit);
    fputs("</text>\n", out);
    /* the series, their ceilings dashed, and the legend */
    int s = 0;
    for (int i = 0; i < nr; i++) {
        const cp_bench_row *row = &r->row[i];
        if (npoints_of(row) == 0 || strcmp(row->unit, unit) != 0) continue;
        const char *c = palette[s % NPALETTE];
        fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
        for (int k = 0, first = 1; k < npoints_of(row); k++) {
            if (!svg_point_ok(row, k)) continue;
            fprintf(out, "%s%.1f,%.1f", first ? "" : " ", XS(log2((double)row->point_size[k])),
                    YS(row->point_value[k]));
            first = 0;
        }
        fputs("\"/>\n", out);
        for (int k = 0; k < npoints_of(row); k++)
            if (svg_point_ok(row, k))
                fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
                        XS(log2((double)row->point_size[k])), YS(row->point_value[k]), c);
        if (isfinite(row->ceiling) && row->ceiling > 0)
            fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\" "
                    "stroke-dasharray=\"6 4\"/>\n", PX0, YS(row->ceiling), PX1, YS(row->ceiling), c);
        double ly = py0 + s * LEGEND_STEP;
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">", LEGEND_X, ly, LEGEND_X + 24, ly, c,
                LEGEND_X + 30, ly + 4);
        cp_xml_text(out, row->id);
        fprintf(out, ", device %d</text>\n", row->device);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#555\">", LEGEND_X + 30, ly + 17);
        if (isfinite(row->ceiling) && row->ceiling > 0) {
            char num[32];
            fmt_num(row->ceiling, num, sizeof num);
            fprintf(out, "- - ceiling %s: ", num);
            cp_xml_text(out, row->ceiling_what);
        } else {
            fputs("no ceiling known", out);
        }
        fputs("</text>\n", out);
        s++;
    }
#undef XS
#undef YS
    return height;
}

static void svg_write(const cp_bench_result *r, FILE *out)
{
    int nr = nrows_of(r);
    const char *units[CP_BENCH_MAX_ROWS];
    int nunits = 0, height = 0;
    for (int i = 0; i < nr; i++) {
        if (npoints_of(&r->row[i]) == 0) continue;
        int k = 0;
        while (k < nunits && strcmp(units[k], r->row[i].unit) != 0) k++;
        if (k == nunits) units[nunits++] = r->row[i].unit;
    }
    for (int k = 0; k < nunits; k++) height += panel_height(r, units[k]);
    if (nunits == 0) height = 100;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
            SVG_W, height, SVG_W, height);
    if (nunits == 0)
        fputs("<text x=\"40\" y=\"60\" font-size=\"16\">cuprobe bench: this run measured no sweep "
              "(run with --sweep)</text>\n", out);
    for (int k = 0, top = 0; k < nunits; k++) top += svg_panel(out, r, units[k], top);
    fputs("</svg>\n", out);
}

/* See bench.h. */
int cp_bench_write_svg(const cp_bench_result *r, const char *path)
{
    if (!r || !path || !path[0]) { errno = EINVAL; return -1; }
    FILE *out = fopen(path, "w");
    if (!out) return -1;
    svg_write(r, out);
    int bad = ferror(out), e = errno;
    if (fclose(out) != 0) return -1;
    if (bad) { errno = e ? e : EIO; return -1; }
    return 0;
}
