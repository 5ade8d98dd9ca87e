/* cuprobe snapshot DIR: capture what doctor sees, for replay with --from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/cuprobe.h"

/* Print path for a POSIX shell: as it is when it holds only characters no
 * shell treats specially, otherwise in single quotes (a quote inside as
 * '\''); a control byte is written escaped (cp_text_put), never raw. */
static void put_shell_word(FILE *out, const char *path)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./+-:,@%=";
    if (path[0] && path[0] != '-' && strspn(path, plain) == strlen(path) && !strchr("=~", path[0])) {
        fputs(path, out);
        return;
    }
    fputc('\'', out);
    for (const char *p = path; *p;) {
        char part[4096];
        size_t n = strcspn(p, "'");
        snprintf(part, sizeof part, "%.*s", (int)n, p);
        cp_text_put(out, part);
        p += n;
        if (*p == '\'') {
            fputs("'\\''", out);
            p++;
        }
    }
    fputc('\'', out);
}

/* Test hook for fault injection: CUPROBE_TEST_FAIL_WRITE=N fails the Nth
 * write of the snapshot with ENOSPC, as a full disk would. */
static long fail_write_at(void)
{
    const char *s = getenv("CUPROBE_TEST_FAIL_WRITE");
    return s ? strtol(s, NULL, 10) : 0;
}

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
        } else if (id == OPT_LEVEL) {
            if ((o.level = cli_level(v)) < 0) return CP_EXIT_USAGE;
        } else if ((m = cli_observe_option(id, v, &o)) < 0) return CP_EXIT_USAGE;
        else if (m == 0) return cli_unhandled(&p);
    }
    if (!dir) return cli_usage_error("snapshot needs a folder to write: cuprobe snapshot DIR");
    if (cli_observe_done(&o) != 0) return CP_EXIT_USAGE;
    o.fail_write_at = fail_write_at();
    cp_session *s;
    char err[512] = "";
    if (cp_observe(&o, &s, err, sizeof err) != 0) {
        return cli_error(CP_EXIT_ERROR, "%s", err);
    }
    int rc = cp_snapshot_write(s, dir, err, sizeof err);
    cp_session_free(s);
    if (rc != 0) {
        return cli_error(CP_EXIT_ERROR, "%s", err);
    }
    fputs("cuprobe: snapshot written to '", stderr);
    cp_text_put(stderr, dir);
    fputs("'; replay it with: cuprobe doctor --from ", stderr);
    put_shell_word(stderr, dir);
    fputc('\n', stderr);
    return 0;
}
