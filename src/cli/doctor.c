/* cuprobe doctor: walk every layer, find the root cause, say what to do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/cuprobe.h"

/* Test hook for fault injection: CUPROBE_TEST_FAIL_READ=N fails the Nth read. */
static long fail_read_at(void)
{
    const char *s = getenv("CUPROBE_TEST_FAIL_READ");
    return s ? strtol(s, NULL, 10) : 0;
}

/* `cuprobe doctor`: observe (or replay), run the checks, render; see cli.h. */
int cmd_doctor(int argc, char **argv)
{
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    int json = 0, verbose = 0, level = 1, color = CLI_COLOR_AUTO, id, m;
    const char *v;
    cli_parser p;
    cli_parser_init(&p, "doctor", argc, argv, 0);
    while ((id = cli_next(&p, &v)) != CLI_END) {
        switch (id) {
        case CLI_STOP: return p.status;
        case CLI_OPERAND: return cli_usage_error("unexpected argument '%s'", v);
        case OPT_JSON: json = 1; break;
        case OPT_VERBOSE: verbose = 1; break;
        case OPT_LEVEL:
            if ((level = cli_level(v)) < 0) return CP_EXIT_USAGE;
            break;
        default:
            if ((m = cli_observe_option(id, v, &o)) == 0) m = cli_color_option(id, v, &color);
            if (m < 0) return CP_EXIT_USAGE;
            if (m == 0) return cli_unhandled(&p);
        }
    }
    if (o.live_mask && !o.from_dir) return cli_usage_error("--live only makes sense with --from");
    if (cli_observe_done(&o) != 0) return CP_EXIT_USAGE;
    o.fail_read_at = fail_read_at();
    o.level = level;

    cp_session *s;
    char err[512] = "";
    if (cp_observe(&o, &s, err, sizeof err) != 0) {
        return cli_error(CP_EXIT_ERROR, "%s", err);
    }
    const cp_facts *f = cp_session_facts(s);
    cp_report r;
    if (cp_doctor(f, level, &r) != 0) {
        fprintf(stderr, "cuprobe: out of memory\n");
        cp_session_free(s);
        return CP_EXIT_ERROR;
    }
    if (json) cp_render_json(&r, f, stdout);
    else cp_render_text(&r, f, stdout, cli_use_color(color), verbose);
    int code = cp_report_exit_code(&r);
    if (getenv("CUPROBE_BENCH_RUSAGE")) {   /* bench/l1_vs_floor.sh: peak memory of us and the probes */
        struct rusage self;
        getrusage(RUSAGE_SELF, &self);
        const struct { const char *name; int64_t kb; } probes[] = {
            { "cuda_probe", f->cuda.run.maxrss_kb }, { "nvml_probe", f->nvml.run.maxrss_kb },
            { "libs_l2_probe", f->libs_l2.run.maxrss_kb },   /* unknown at level 1: that child does not run */
        };
        fprintf(stderr, "rusage: cuprobe_maxrss=%ldkB", self.ru_maxrss);
        for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
            if (CP_KNOWN(probes[i].kb)) fprintf(stderr, " %s_maxrss=%lldkB", probes[i].name, (long long)probes[i].kb);
            else fprintf(stderr, " %s_maxrss=N/A", probes[i].name);
        }
        fputc('\n', stderr);
    }
    cp_report_free(&r);
    /* the report goes out now: freeing the session waits for the probe
     * children to leave the driver (tens of ms), so none is left a zombie */
    cli_flush_stdout();
    cp_session_free(s);
    return code;
}
