/* cuprobe bench: measurements on the GPU, each beside its ceiling. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/bench.h"
#include "cuprobe/cuprobe.h"

/* "268435456", "4K", "4M", "1G", "2T" (binary multiples; "4MiB" and "4MB"
 * read the same); -1 when s is not a size. */
static long long parse_size(const char *s)
{
    char *end;
    errno = 0;
    if (!s[0] || s[0] == '-' || s[0] == '+') return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno == ERANGE) return -1;
    int shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    case '\0': break;
    default: return -1;
    }
    if (shift) {
        end++;
        if (*end == 'i') end++;
        if (*end == 'B') end++;
    }
    if (*end || v > (unsigned long long)INT64_MAX >> shift) return -1;
    return (long long)(v << shift);
}

/* A whole number in [lo, hi], else -1 (lo >= 0). */
static long long parse_count(const char *s, long long lo, long long hi)
{
    char *end;
    errno = 0;
    if (!s[0] || s[0] == '+' || s[0] == ' ') return -1;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno == ERANGE || v < lo || v > hi) return -1;
    return v;
}

/* Exit code of a result: a failed row fails; skipped rows, or nothing that
 * could run here, count as doctor's skipped checks do. */
static int exit_code(const cp_bench_result *r)
{
    for (int i = 0; i < r->nrows; i++)
        if (r->row[i].state == CP_BENCH_FAILED) return CP_EXIT_FAIL;
    return CP_EXIT_HEALTHY;
}

/* `cuprobe bench`: observe, measure, compare with the ceilings, render; see cli.h. */
int cmd_bench(int argc, char **argv)
{
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    cp_bench_opts b = CP_BENCH_DEFAULTS;
    const char *svg = NULL, *v;
    int json = 0, color = CLI_COLOR_AUTO, id, m, timeout_given = 0;
    long long n;
    cli_parser p;
    cli_parser_init(&p, "bench", argc, argv, 0);
    while ((id = cli_next(&p, &v)) != CLI_END) {
        switch (id) {
        case CLI_STOP: return p.status;
        case CLI_OPERAND: return cli_usage_error("unexpected argument '%s'", v);
        case OPT_JSON: json = 1; break;
        case OPT_SWEEP: b.sweep = true; break;
        case OPT_SVG: svg = v; break;
        case OPT_ONLY:
            if (!v[0]) return cli_usage_error("--only needs a comma list of measurements (copy, hbm, launch, gemm.bf16, ...)");
            b.only = v;
            break;
        case OPT_DEVICE:
            if ((n = parse_count(v, 0, 1 << 20)) < 0)
                return cli_usage_error("--device takes a CUDA device ordinal (0, 1, ...), not '%s'", v);
            b.device = (int)n;
            break;
        case OPT_SIZE:
            if ((n = parse_size(v)) < 0)
                return cli_usage_error("--size takes bytes, or a size such as 4K, 256M or 1G, not '%s'", v);
            if (n < CP_BENCH_MIN_SIZE)
                return cli_usage_error("--size %s is below the smallest copy measured (4K)", v);
            b.size = n;
            break;
        case OPT_ITERS:
            if ((n = parse_count(v, 1, CP_BENCH_MAX_ITERS)) < 0)
                return cli_usage_error("--iters takes a number of repeats from 1 to %d, not '%s'", CP_BENCH_MAX_ITERS, v);
            b.iters = (int)n;
            break;
        default:
            timeout_given |= id == OPT_TIMEOUT;
            if ((m = cli_observe_option(id, v, &o)) == 0) m = cli_color_option(id, v, &color);
            if (m < 0) return CP_EXIT_USAGE;
            if (m == 0) return cli_unhandled(&p);
        }
    }
    if (svg && !b.sweep) return cli_usage_error("--svg draws the sweep: it needs --sweep");
    if (cli_observe_done(&o) != 0) return CP_EXIT_USAGE;
    /* --timeout bounds the whole run too; without it the run gets bench's
     * own default (60 s and 30 s per further GPU), not level 1's 5 s */
    if (timeout_given) b.timeout_ms = o.timeout_ms;
    o.level = 1;

    cp_session *s;
    char err[512] = "";
    if (cp_observe(&o, &s, err, sizeof err) != 0) return cli_error(CP_EXIT_ERROR, "%s", err);
    const cp_facts *f = cp_session_facts(s);
    cp_bench_result *r = NULL;
    if (cp_bench_run(&b, f, &r, err, sizeof err) != 0) {
        cp_session_free(s);
        if (strcmp(err, "out of memory") == 0) return cli_error(CP_EXIT_ERROR, "%s", err);
        return cli_usage_error("%s", err);
    }
    if (r->nrows == 0 && !r->skip_reason[0] && b.only) {
        cp_bench_free(r);
        cp_session_free(s);
        return cli_usage_error("--only '%s' selects no measurement (copy, hbm, launch, gemm, nccl, or a longer id)", b.only);
    }
    cp_bench_ceilings(f, r);
    if (json) cp_bench_render_json(r, stdout);
    else cp_bench_render_text(r, stdout, cli_use_color(color));
    int code = exit_code(r);
    if (svg && cp_bench_write_svg(r, svg) != 0) {
        int e = errno;
        cli_flush_stdout();
        fputs("cuprobe: cannot write the chart to '", stderr);
        cp_text_put(stderr, svg);
        fprintf(stderr, "': %s\n", strerror(e));
        code = CP_EXIT_ERROR;
    }
    if (r->skip_reason[0]) {   /* said on stderr too, for a script that reads only the exit code and stderr */
        fputs("cuprobe: bench skipped: ", stderr);
        cp_text_put(stderr, r->skip_reason);
        fputc('\n', stderr);
    }
    cp_bench_free(r);
    cli_flush_stdout();
    cp_session_free(s);
    return code;
}
