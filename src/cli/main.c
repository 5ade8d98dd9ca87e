/* cuprobe: see the CUDA stack one layer at a time.  The tool is a plain
 * client of libcuprobe (include/cuprobe/). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/cuprobe.h"
#include "cuprobe/report.h"

/* The subcommands.  To add one: write cmd_NAME in src/cli/NAME.c, declare it
 * in cli.h, add a row here and its options to cli_options (usage.c). */
const cli_command cli_commands[] = {
    { "doctor", "[options]", "walk every layer, find the root cause, say what to do (the default)", cmd_doctor },
    { "arch", "[--sm CC] FILE|DIR...", "which GPU code a binary carries (SASS, PTX) and whether the GPUs here (or --sm) can run it", cmd_arch },
    { "explain", "MESSAGE...|-", "say what a pasted CUDA error message or log means: layer, cause, fix, the check that confirms it", cmd_explain },
    { "info", "[options]", "what the GPUs are (deviceQuery's set), the Driver and Runtime API versions, P2P and NVLink between GPUs", cmd_info },
    { "bench", "[options]", "measure copies, memory, launches and GEMMs on the GPU, each beside its ceiling", cmd_bench },
    { "monitor", "[options]",
      "sample every GPU's telemetry (what kernel-active and SM activity really say) as CSV, JSON lines or Prometheus text",
      cmd_monitor },
    { "top", "[--interval SECONDS]", "a live view of every GPU: bars, history, throttle reasons, XIDs, processes; ? says what each number means", cmd_top },
    { "exporter", "[options]", "serve the same telemetry and cuprobe's verdicts to Prometheus over HTTP", cmd_exporter },
    { "trace", "[options] -- CMD ARGS...",
      "run a program traced (CUPTI) and say whether its GPU is busy or waiting on the host, why, and what to change, "
      "per process and host thread; it ends as the program did (its exit status, or the signal that killed it)",
      cmd_trace },
    { "snapshot", "DIR [options]", "save what doctor sees into DIR, for a bug report or `doctor --from DIR`", cmd_snapshot },
    { NULL, NULL, NULL, NULL }
};

static int run(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "help") == 0 || cli_asks_help(1, argv + 1))) {
        cli_print_help(stdout, argc >= 3 && strcmp(argv[1], "help") == 0 ? argv[2] : NULL);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "version") == 0) {
        printf("cuprobe %s\n", cp_version());
        return 0;
    }
    if (argc < 2 || argv[1][0] == '-')       /* bare `cuprobe [options]` is doctor (and --version, --man) */
        return cmd_doctor(argc - 1, argv + 1);
    for (const cli_command *c = cli_commands; c->name; c++) {
        if (strcmp(argv[1], c->name) != 0) continue;
        if (cli_asks_help(argc - 2, argv + 2)) {      /* `cuprobe CMD ... --help`, even after a bad option */
            cli_print_help(stdout, c->name);
            return 0;
        }
        return c->run(argc - 2, argv + 2);
    }
    return cli_usage_error("unknown command '%s'", argv[1]);
}

volatile sig_atomic_t cli_stop_now;

static void on_stop(int sig)
{
    (void)sig;
    cli_stop_now = 1;
}

/* SIGINT and SIGTERM ask to stop; see cli.h. */
void cli_catch_stop(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* Every command's output reaches its reader or the exit code says it did
 * not: `cuprobe arch ... > /dev/full` used to exit 0.  stdout is flushed
 * and closed here, after the command, and a failure of any write to it is
 * "write error: WHY" on stderr and exit 3, whatever the command found. */
static int stdout_errno;   /* the first failed flush's reason */

/* Flush stdout now, keeping why it failed for main; see cli.h. */
void cli_flush_stdout(void)
{
    errno = 0;
    if (fflush(stdout) != 0 && !stdout_errno) stdout_errno = errno;
}

int main(int argc, char **argv)
{
    int rc = run(argc, argv);
    cli_flush_stdout();
    int bad = ferror(stdout) != 0 || stdout_errno != 0;
    int e = stdout_errno;
    bad |= ferror(stdout) != 0;
    errno = 0;
    if (fclose(stdout) != 0) {
        bad = 1;
        if (!e) e = errno;
    }
    if (!bad)
        return rc;
    fprintf(stderr, "cuprobe: write error: %s\n", e ? strerror(e) : "output error");
    return CP_EXIT_ERROR;
}
