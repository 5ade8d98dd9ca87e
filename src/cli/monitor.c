/* cuprobe monitor: every GPU's telemetry, a sample every --interval, as
 * CSV, JSON lines or Prometheus text (optionally a node_exporter textfile,
 * rewritten atomically). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/cuprobe.h"
#include "cuprobe/telemetry.h"

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Sleep until the monotonic time `until`, or a signal. */
static void sleep_until(double until)
{
    struct timespec t;
    t.tv_sec = (time_t)until;
    t.tv_nsec = (long)((until - (double)t.tv_sec) * 1e9);
    if (t.tv_nsec >= 1000000000L) t.tv_nsec = 999999999L;
    while (!cli_stop_now && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR) {}
}

static void list_fields(void)
{
    int n;
    const cp_tele_metric *m = cp_tele_metric_table(&n);
    for (int i = 0; i < n; i++)
        printf("%-30s %-8s %s\n", m[i].name, m[i].unit, m[i].help);
    printf("%-30s %-8s %s\n", "clock_event_reasons", "words",
           "why the clocks are held down now, in words (csv, jsonl; the exporter: gpu_clock_event_reason)");
    printf("%-30s %-8s %s\n", "xid_last", "", "the last XID seen since monitor started (csv)");
}

/* Write the exposition to FILE through FILE.tmp.PID and a rename, so a
 * reader (node_exporter) sees the old file or the new one, never half. */
static int write_textfile(const char *path, const cp_tele_frame *f, const cp_tele_fields *fl)
{
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    FILE *out = fopen(tmp, "w");
    if (!out) return -1;
    cp_tele_prom(out, f, fl, NULL);
    int bad = fflush(out) != 0 || ferror(out) || fsync(fileno(out)) != 0;
    int e = errno;
    if (fclose(out) != 0 && !bad) { bad = 1; e = errno; }
    if (!bad && rename(tmp, path) != 0) { bad = 1; e = errno; }
    if (bad) {
        unlink(tmp);
        errno = e;
        return -1;
    }
    return 0;
}

enum { FMT_CSV, FMT_JSONL, FMT_PROM };

/* `cuprobe monitor`; see cli.h. */
int cmd_monitor(int argc, char **argv)
{
    double interval = 1, duration = -1;
    cp_observe_opts obs = CP_OBSERVE_DEFAULTS;   /* its --timeout, parsed the one way */
    long long count = -1;
    int format = FMT_CSV;
    const char *fields = NULL, *textfile = NULL, *v;
    int id;
    cli_parser p;
    cli_parser_init(&p, "monitor", argc, argv, 0);
    while ((id = cli_next(&p, &v)) != CLI_END) {
        if (id == CLI_STOP) return p.status;
        if (id == CLI_OPERAND) return cli_usage_error("monitor takes no operand, got '%s'", v);
        if (id == OPT_INTERVAL) {
            if (cli_seconds("--interval", v, 0.05, 86400, &interval) != 0) return CP_EXIT_USAGE;
        } else if (id == OPT_DURATION) {
            if (cli_seconds("--duration", v, 0.001, 1e9, &duration) != 0) return CP_EXIT_USAGE;
        } else if (id == OPT_COUNT) {
            char *end;
            errno = 0;
            count = strtoll(v, &end, 10);
            if (errno || end == v || *end || count < 1)
                return cli_usage_error("--count wants a positive whole number, got '%s'", v);
        } else if (id == OPT_FORMAT) {
            if (strcmp(v, "csv") == 0) format = FMT_CSV;
            else if (strcmp(v, "jsonl") == 0) format = FMT_JSONL;
            else if (strcmp(v, "prom") == 0) format = FMT_PROM;
            else return cli_usage_error("--format is csv, jsonl or prom, got '%s'", v);
        } else if (id == OPT_FIELDS) {
            fields = v;
        } else if (id == OPT_TEXTFILE) {
            textfile = v;
        } else if (id == OPT_LIST_FIELDS) {
            list_fields();
            return 0;
        } else if (id == OPT_TIMEOUT) {
            if (cli_observe_option(id, v, &obs) < 0) return CP_EXIT_USAGE;
        } else {
            return cli_unhandled(&p);
        }
    }
    if (textfile && format != FMT_PROM)
        return cli_usage_error("--textfile writes Prometheus text: use it with --format prom");
    cp_tele_fields fl;
    char err[160];
    if (cp_tele_fields_parse(fields, &fl, err, sizeof err) != 0) return cli_usage_error("%s", err);

    cp_tele *t = cli_sampler(interval, obs.timeout_ms);
    if (!t) return cli_error(CP_EXIT_ERROR, "out of memory");
    cli_catch_stop();

    int rc = 0;
    char last_error[256] = "";
    double t0 = mono_s();
    if (format == FMT_CSV && !textfile) cp_tele_csv_header(stdout, &fl);
    for (long long n = 0; !cli_stop_now && (count < 0 || n < count); n++) {
        double due = t0 + (double)n * interval;
        if (duration >= 0 && due - t0 >= duration) break;
        sleep_until(due);
        if (cli_stop_now) break;
        const cp_tele_frame *f = cp_tele_tick(t);
        if (strcmp(f->error, last_error) != 0) {
            if (f->error[0]) cli_error(0, "NVML: %s", f->error);
            snprintf(last_error, sizeof last_error, "%s", f->error);
        }
        if (textfile) {
            if (write_textfile(textfile, f, &fl) != 0) {
                rc = cli_error(CP_EXIT_ERROR, "cannot write '%s': %s", textfile, strerror(errno));
                break;
            }
            continue;
        }
        if (format == FMT_CSV) cp_tele_csv(stdout, f, &fl);
        else if (format == FMT_JSONL) cp_tele_jsonl(stdout, f, &fl);
        else cp_tele_prom(stdout, f, &fl, NULL);
        cli_flush_stdout();
        if (ferror(stdout)) break;   /* a closed pipe: main reports the write error */
    }
    cp_tele_close(t);
    return rc;
}
