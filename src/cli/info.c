/* cuprobe info: what the GPUs are (deviceQuery's set), the versions side by
 * side and the topology between the GPUs, live or from a snapshot. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/cuprobe.h"
#include "cuprobe/info.h"

/* --device's value: a decimal ordinal 0..CP_MAX_GPUS-1, else -1. */
static int device_arg(const char *v)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || end == v || *end || n < 0 || n >= CP_MAX_GPUS || v[0] == '+' || v[0] == ' ') return -1;
    return (int)n;
}

/* `cuprobe info`: observe (or replay), render; see cli.h. */
int cmd_info(int argc, char **argv)
{
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    int json = 0, device = -1, id, m;
    const char *v, *device_text = NULL;
    cli_parser p;
    cli_parser_init(&p, "info", argc, argv, 0);
    while ((id = cli_next(&p, &v)) != CLI_END) {
        switch (id) {
        case CLI_STOP: return p.status;
        case CLI_OPERAND: return cli_usage_error("unexpected argument '%s'", v);
        case OPT_JSON: json = 1; break;
        case OPT_DEVICE:
            if ((device = device_arg(v)) < 0) return cli_usage_error("--device wants a device index (0, 1, ...), not '%s'", v);
            device_text = v;
            break;
        default:
            if ((m = cli_observe_option(id, v, &o)) < 0) return CP_EXIT_USAGE;
            if (m == 0) return cli_unhandled(&p);
        }
    }
    if (o.live_mask && !o.from_dir) return cli_usage_error("--live only makes sense with --from");
    if (cli_observe_done(&o) != 0) return CP_EXIT_USAGE;

    cp_session *s;
    char err[512] = "";
    if (cp_observe(&o, &s, err, sizeof err) != 0) return cli_error(CP_EXIT_ERROR, "%s", err);
    const cp_facts *f = cp_session_facts(s);
    int n = cp_info_ndevices(f);
    if (device >= n) {
        cp_session_free(s);
        return cli_usage_error("no device %s: %s %d device%s", device_text, o.from_dir ? "the snapshot shows" : "this machine shows",
                               n, n == 1 ? "" : "s");
    }
    if (json) cp_info_render_json(f, device, stdout);
    else cp_info_render_text(f, device, stdout);
    cli_flush_stdout();
    cp_session_free(s);
    return 0;
}
