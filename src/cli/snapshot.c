/* cuprobe snapshot DIR: capture what doctor sees, for replay with --from. */
#include <stdio.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/cuprobe.h"

/* `cuprobe snapshot DIR`: observe with recording on and write DIR; see cli.h. */
int cmd_snapshot(int argc, char **argv)
{
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    const char *dir = NULL, *v;
    int id, m;
    o.record = true;
    cli_parser p;
    cli_parser_init(&p, "snapshot", argc, argv, 0);
    while ((id = cli_next(&p, &v)) != CLI_END) {
        if (id == CLI_STOP) return p.status;
        if (id == CLI_OPERAND) {
            if (dir) return cli_usage_error("snapshot takes one folder, got '%s' too", v);
            dir = v;
        } else if ((m = cli_observe_option(id, v, &o)) < 0) return CP_EXIT_USAGE;
        else if (m == 0) return cli_unhandled(&p);
    }
    if (!dir) return cli_usage_error("snapshot needs a folder to write: cuprobe snapshot DIR");
    cp_session *s;
    char err[512] = "";
    if (cp_observe(&o, &s, err, sizeof err) != 0 || cp_snapshot_write(s, dir, err, sizeof err) != 0) {
        fprintf(stderr, "cuprobe: %s\n", err);
        return CP_EXIT_ERROR;
    }
    cp_session_free(s);
    fprintf(stderr, "cuprobe: snapshot written to '%s'; replay it with: cuprobe doctor --from %s\n", dir, dir);
    return 0;
}
