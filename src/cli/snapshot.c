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
    o.record = true;
    for (int i = 0; i < argc; i++) {
        int m;
        if ((m = opt_match(argc, argv, &i, "--timeout", &v)) > 0) {
            if ((o.timeout_ms = opt_seconds_ms(v)) < 0)
                return cli_usage_error("--timeout takes seconds (0 < s <= 3600), not '%s'", v);
        } else if (m < 0) return CP_EXIT_USAGE;
        else if ((m = opt_match(argc, argv, &i, "--root", &v)) > 0) o.root = v;
        else if (m < 0) return CP_EXIT_USAGE;
        else if (argv[i][0] == '-') return cli_usage_error("unknown option '%s'", argv[i]);
        else if (dir) return cli_usage_error("snapshot takes one folder, got '%s' too", argv[i]);
        else dir = argv[i];
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
