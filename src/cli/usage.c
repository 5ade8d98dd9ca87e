/* The option table, and --help, the man page and docs/checks.md generated
 * from the tables. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "cuprobe/cuprobe.h"
#include "cuprobe/telemetry.h"

/* The options: the parser (options.c) accepts exactly these, for the command
 * of each row ("" rows for every command), and --help and the man page list
 * every row that is not hidden.  To add an option: a row here (an OPT_ id in
 * cli.h when it is a new one) and its case in the command's parse loop. */
const cli_option cli_options[] = {
    { OPT_LEVEL, "doctor", "--level", "N", "1: no GPU work, fast (the default); 2: also GPU work: context, kernels, streams, memory, copies", 0 },
    { OPT_JSON, "doctor", "--json", NULL, "print the report as JSON (docs/doctor.schema.json)", 0 },
    { OPT_FROM, "doctor", "--from", "DIR", "replay a snapshot taken with `cuprobe snapshot DIR`, on any machine", 0 },
    { OPT_PYTHON, "doctor", "--python", "PATH", "also examine this Python interpreter's environment (frameworks, wheels)", 0 },
    { OPT_COLOR, "doctor", "--color", "WHEN", "auto (a terminal without NO_COLOR), always or never", 0 },
    { OPT_NO_COLOR, "doctor", "--no-color", NULL, "the same as --color never", 0 },
    { OPT_VERBOSE, "doctor", "-v, --verbose", NULL, "show the evidence of passing checks too", 0 },
    { OPT_SM, "arch", "--sm", "CC", "judge for a GPU of this compute capability (90, 9.0, 90a; repeatable) instead of the GPUs here", 0 },
    { OPT_JSON, "arch", "--json", NULL, "print what each file carries and the verdicts as JSON", 0 },
    { OPT_JSON, "explain", "--json", NULL, "print the signals found as JSON (docs/explain.schema.json)", 0 },
    { OPT_FILE, "explain", "--file", "FILE",
      "read the text from FILE ('-': standard input); without a message or --file, explain reads standard input "
      "when it is not a terminal; at most 64 MB of text", 0 },
    { OPT_CHECK, "explain", "--check", NULL,
      "also run each signal's confirming check on this machine, list what it confirms first, and scan the libraries the text names for this GPU's code", 0 },
    { OPT_FROM, "explain", "--from", "DIR", "with --check: judge against a snapshot taken with `cuprobe snapshot DIR` instead of this machine", 0 },
    { OPT_PYTHON, "explain", "--python", "PATH", "with --check: also examine this Python interpreter's environment", 0 },
    { OPT_COLOR, "explain", "--color", "WHEN", "auto (a terminal without NO_COLOR), always or never", 0 },
    { OPT_NO_COLOR, "explain", "--no-color", NULL, "the same as --color never", 0 },
    { OPT_JSON, "info", "--json", NULL, "print the devices and the topology as JSON (docs/info.schema.json)", 0 },
    { OPT_FROM, "info", "--from", "DIR", "show a snapshot taken with `cuprobe snapshot DIR` instead of this machine", 0 },
    { OPT_DEVICE, "info", "--device", "N", "show device N only (its row of the topology too)", 0 },
    { OPT_LIVE, "info", "--live", "LIST", "with --from: take cuda,nvml,env from this machine (tests)", 1 },
    { OPT_DEVICE, "bench", "--device", "N", "measure only this CUDA device (default: every visible one, and the peer copies between them)", 0 },
    { OPT_SIZE, "bench", "--size", "BYTES", "bytes per copy: a number or 4K, 256M, 1G (default 256M, at least 4K)", 0 },
    { OPT_ITERS, "bench", "--iters", "N", "timed repeats of each measurement, after a warm-up (1 to 10000, default 10)", 0 },
    { OPT_SWEEP, "bench", "--sweep", NULL, "also measure the copies at every size from 4K to --size (x4 steps) and chart them", 0 },
    { OPT_SVG, "bench", "--svg", "FILE", "with --sweep: write the chart as an SVG file", 0 },
    { OPT_ONLY, "bench", "--only", "LIST", "only these measurements: a comma list of id prefixes (copy, hbm, launch, gemm.bf16, ...)", 0 },
    { OPT_JSON, "bench", "--json", NULL, "print the results as JSON (docs/bench.schema.json)", 0 },
    { OPT_COLOR, "bench", "--color", "WHEN", "auto (a terminal without NO_COLOR), always or never", 0 },
    { OPT_NO_COLOR, "bench", "--no-color", NULL, "the same as --color never", 0 },
    { OPT_INTERVAL, "monitor", "--interval", "SECONDS", "time between two samples (default 1; at least 0.05)", 0 },
    { OPT_DURATION, "monitor", "--duration", "SECONDS", "stop after this long (default: until interrupted)", 0 },
    { OPT_COUNT, "monitor", "--count", "N", "stop after N samples", 0 },
    { OPT_FORMAT, "monitor", "--format", "FORMAT",
      "csv (the default: a header, then a row per GPU a sample), jsonl (an object a sample) or prom (Prometheus text)", 0 },
    { OPT_FIELDS, "monitor", "--fields", "LIST",
      "only these metrics, comma-separated (--list-fields names them; the GPU's ids always come)", 0 },
    { OPT_TEXTFILE, "monitor", "--textfile", "FILE",
      "with --format prom: rewrite FILE each sample, atomically, for node_exporter's textfile collector", 0 },
    { OPT_LIST_FIELDS, "monitor", "--list-fields", NULL, "print every metric with its unit and what it means, and stop", 0 },
    { OPT_INTERVAL, "top", "--interval", "SECONDS", "time between two samples (default 1)", 0 },
    { OPT_LISTEN, "exporter", "--listen", "ADDR:PORT",
      "where to serve Prometheus metrics (default 127.0.0.1:9400; another address only when asked)", 0 },
    { OPT_INTERVAL, "exporter", "--interval", "SECONDS", "time between two samples (default 1)", 0 },
    { OPT_DOCTOR_EVERY, "exporter", "--doctor-every", "MINUTES",
      "run cuprobe's level-1 diagnosis at start and every MINUTES (default 10; 0: only at start)", 0 },
    { OPT_MAX_CLIENTS, "exporter", "--max-clients", "N", "at most N connections at once (default 64)", 0 },
    { OPT_POD_RESOURCES, "exporter", "--pod-resources", "SOCKET",
      "the kubelet's pod-resources socket: each GPU's series get labels pod, namespace and container "
      "(default " CP_PODRES_SOCKET ", asked every 10 s; '' turns it off)", 0 },
    { OPT_FIELDS, "exporter", "--fields", "LIST",
      "only these metrics, comma-separated (cuprobe monitor --list-fields names them)", 0 },
    { OPT_OUT, "trace", "--out", "DIR", "keep the trace files in DIR (made if missing; default: ./cuprobe-trace-PID)", 0 },
    { OPT_ANALYZE, "trace", "--analyze", "DIR", "analyse a trace recorded before (no program is run; no GPU needed)", 0 },
    { OPT_JSON, "trace", "--json", NULL, "print the analysis as JSON (docs/trace.schema.json)", 0 },
    { OPT_HTML, "trace", "--html", "FILE", "also write one self-contained HTML report: the timeline and where the idle time went", 0 },
    { OPT_CHROME, "trace", "--chrome", "FILE", "also write the timeline as Chrome trace / Perfetto JSON (ui.perfetto.dev)", 0 },
    { OPT_COUNTERS, "trace", "--counters", NULL,
      "also read the GPU's hardware counters (CUPTI PM sampling): each heavy kernel's SM and DRAM throughput as a share "
      "of peak, so it is labelled compute-bound, memory-bound or neither", 0 },
    { OPT_TIMEOUT, "", "--timeout", "SECONDS", "deadline for each call into the driver or NVML (default 5)", 0 },
    { OPT_ROOT, "doctor", "--root", "DIR", "read OS files under DIR instead of / (tests)", 1 },
    { OPT_LEVEL, "snapshot", "--level", "N", "2: run level 2's GPU steps too and keep their results (doctor --level 2 replays them)", 0 },
    { OPT_PYTHON, "snapshot", "--python", "PATH", "also examine this Python interpreter's environment and keep it in the snapshot", 0 },
    { OPT_ROOT, "snapshot", "--root", "DIR", "read OS files under DIR instead of / (tests)", 1 },
    { OPT_LIVE, "doctor", "--live", "LIST", "with --from: take cuda,nvml,env from this machine (tests)", 1 },
    { OPT_LIVE, "explain", "--live", "LIST", "with --check --from: take cuda,nvml,env from this machine (tests)", 1 },
    { OPT_MAN, "", "--man", NULL, "print the man page (make man writes docs/cuprobe.1)", 1 },
    { OPT_CHECKS_MD, "", "--checks-md", NULL, "print the list of checks (make checks-md writes docs/checks.md)", 1 },
    { OPT_COMPLETION, "", "--bash-completion", NULL, "print the bash completion (make completion writes docs/cuprobe.bash)", 1 },
    { OPT_HELP, "", "-h, --help", NULL, "show this help", 0 },
    { OPT_VERSION, "", "--version", NULL, "print the version", 0 },
    { 0, NULL, NULL, NULL, NULL, 0 }
};

static const char *const exit_codes[][2] = {
    { "0", "healthy: every check passed or was skipped" },
    { "1", "warnings, no failure" },
    { "2", "a failure: the root cause names the lowest broken layer" },
    { "3", "cuprobe could not do its job (unreadable or damaged snapshot, I/O error)" },
    { "4", "explain: no known signal in the text" },
    { "64", "bad command line" },
};

static int option_applies(const cli_option *o, const char *cmd)
{
    return !o->hidden && (!cmd || !o->command[0] || strcmp(o->command, cmd) == 0);
}

/* Print --help; see cli.h. */
void cli_print_help(FILE *out, const char *cmd)
{
    fprintf(out, "usage: cuprobe [COMMAND] [options]\n\n"
                 "cuprobe sees the CUDA stack one layer at a time (hardware, kernel, system, driver,\n"
                 "runtime, libraries, framework, application), says what works, the lowest layer\n"
                 "that is broken and what to do.  It never changes the machine.\n\ncommands:\n");
    for (const cli_command *c = cli_commands; c->name; c++)
        fprintf(out, "  %-9s %-14s %s\n", c->name, c->args, c->summary);
    fputs("\noptions:\n", out);
    for (const cli_option *o = cli_options; o->flag; o++) {
        if (!option_applies(o, cmd)) continue;
        char lhs[64];
        snprintf(lhs, sizeof lhs, "%s%s%s", o->flag, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(out, "  %-20s %s%s%s%s\n", lhs, o->help, o->command[0] ? "  [" : "", o->command, o->command[0] ? "]" : "");
    }
    fputs("\nexit codes:\n", out);
    for (size_t i = 0; i < sizeof exit_codes / sizeof exit_codes[0]; i++)
        fprintf(out, "  %-3s %s\n", exit_codes[i][0], exit_codes[i][1]);
}

static void man_escape(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '-') fputs("\\-", out);
        else if (*s == '\\') fputs("\\\\", out);
        else if (*s == '`') fputc('\'', out);
        else fputc(*s, out);
    }
}

/* Print the man page; see cli.h. */
void cli_print_man(FILE *out)
{
    fprintf(out, ".TH CUPROBE 1 \"\" \"cuprobe %s\" \"User Commands\"\n.SH NAME\ncuprobe \\- see the CUDA stack "
                 "one layer at a time\n.SH SYNOPSIS\n.B cuprobe\n[\\fICOMMAND\\fR] [\\fIoptions\\fR]\n.SH DESCRIPTION\n"
                 "cuprobe walks the CUDA stack of a Linux machine from the bottom up (hardware, kernel, system, "
                 "driver, runtime, libraries, framework, application), says what works, the lowest layer that is "
                 "broken and what to do.  Every call into the driver runs under a deadline; it never changes "
                 "the machine.\n.SH COMMANDS\n", cp_version());
    for (const cli_command *c = cli_commands; c->name; c++) {
        fprintf(out, ".TP\n.B %s %s\n", c->name, c->args);
        man_escape(out, c->summary);
        fputc('\n', out);
    }
    fputs(".SH OPTIONS\n", out);
    for (const cli_option *o = cli_options; o->flag; o++) {
        if (o->hidden) continue;
        fputs(".TP\n.B ", out);
        man_escape(out, o->flag);
        if (o->arg) fprintf(out, " \\fI%s\\fR", o->arg);
        fputc('\n', out);
        man_escape(out, o->help);
        if (o->command[0]) fprintf(out, " (%s)", o->command);
        fputc('\n', out);
    }
    fputs(".SH EXIT STATUS\n", out);
    for (size_t i = 0; i < sizeof exit_codes / sizeof exit_codes[0]; i++)
        fprintf(out, ".TP\n.B %s\n%s\n", exit_codes[i][0], exit_codes[i][1]);
    fputs(".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nno colours in the text report\n.TP\n.B CUPROBE_LIBCUDA, CUPROBE_LIBNVML\n"
          "load this file instead of libcuda.so.1 / libnvidia\\-ml.so.1\n"
          ".TP\n.B CUPROBE_TRACE_LIB, CUPROBE_CUPTI\n"
          "trace: the injection library to use, and the libcupti it loads (else libcupti.so.13 from the loader, "
          "$CUDA_HOME or /usr/local/cuda)\n"
          ".TP\n.B CUPROBE_TRACE_COUNTERS_US\n"
          "trace \\-\\-counters: the PM sampling interval in microseconds (default 100)\n", out);
    fputs(".TP\n.B CUPROBE_TRACE_STACKS=0\ntrace without host call stacks (trace)\n.TP\n.B CUPROBE_TRACE_STACK_EVERY=N\n"
          "also take the stack of one in N API calls that do not synchronise (default 0: none; N > 0 makes CUPTI call "
          "back at every API call, which costs the program time at each) (trace)\n.TP\n"
          ".B PYTHONPERFSUPPORT\nset to 1 for the traced program unless set already, so that CPython 3.12+ names its "
          "functions in /tmp/perf\\-PID.map (kept in the trace folder) (trace)\n", out);
}

/* "cuprobe: " and the message, as safe text: the words it names come from
 * the command line or the machine. */
static void put_message(const char *fmt, va_list ap)
{
    char msg[2048];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fputs("cuprobe: ", stderr);
    cp_text_put(stderr, msg);
}

/* Every name of the visible options of cmd ("" rows too), space-separated. */
static void completion_words(FILE *out, const char *cmd)
{
    const char *sep = "";
    for (const cli_option *o = cli_options; o->flag; o++) {
        if (o->hidden || (o->command[0] && strcmp(o->command, cmd) != 0)) continue;
        for (const char *n = o->flag; *n;) {
            size_t len = strcspn(n, ",");
            fprintf(out, "%s%.*s", sep, (int)len, n);
            sep = " ";
            n += len;
            while (*n == ',' || *n == ' ') n++;
        }
    }
}

/* Does a visible row before o have o's spelling and one of these values? */
static int completion_seen(const cli_option *o, const char *const *args)
{
    for (const cli_option *e = cli_options; e < o; e++)
        for (const char *const *a = args; *a; a++)
            if (!e->hidden && e->arg && strcmp(e->arg, *a) == 0 && strcmp(e->flag, o->flag) == 0) return 1;
    return 0;
}

/* A case pattern of the visible options whose value is one of args (NULL
 * ends the list; args NULL: any value not named in `named`), then action. */
static void completion_case(FILE *out, const char *const *args, const char *const *named, const char *action)
{
    int n = 0;
    for (const cli_option *o = cli_options; o->flag; o++) {
        if (o->hidden || !o->arg) continue;
        int hit = 0;
        for (const char *const *a = args ? args : named; *a; a++) hit |= strcmp(o->arg, *a) == 0;
        if (args ? !hit || completion_seen(o, args) : hit) continue;
        int seen = 0;
        for (const cli_option *e = cli_options; !args && e < o; e++) seen |= !e->hidden && !strcmp(e->flag, o->flag);
        if (!seen) fprintf(out, "%s%s", n++ ? "|" : "    ", o->flag);
    }
    if (n) fprintf(out, ") %s ;;\n", action);
}

/* Print the bash completion; see cli.h. */
void cli_print_completion(FILE *out)
{
    static const char *const dirs[] = { "DIR", NULL }, *const files[] = { "PATH", "FILE", NULL },
                             *const when[] = { "WHEN", NULL }, *const all[] = { "DIR", "PATH", "FILE", "WHEN", NULL };
    fputs("# bash completion for cuprobe: generated by `cuprobe --bash-completion` (make completion) from\n"
          "# the option table in src/cli/usage.c; edit that table, not this file.\n"
          "_cuprobe()\n{\n    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=doctor i\n"
          "    for ((i = 1; i < COMP_CWORD; i++)); do\n        case ${COMP_WORDS[i]} in\n        ", out);
    for (const cli_command *c = cli_commands; c->name; c++) fprintf(out, "%s%s", c == cli_commands ? "" : "|", c->name);
    fputs(") cmd=${COMP_WORDS[i]}; break ;;\n        esac\n    done\n    case $prev in\n", out);
    completion_case(out, dirs, NULL, "COMPREPLY=($(compgen -d -- \"$cur\")); return");
    completion_case(out, files, NULL, "COMPREPLY=($(compgen -f -- \"$cur\")); return");
    completion_case(out, when, NULL, "COMPREPLY=($(compgen -W \"auto always never\" -- \"$cur\")); return");
    completion_case(out, NULL, all, "return");   /* a value to type: nothing to offer */
    fputs("    esac\n    if [[ $cur == -* ]]; then\n        case $cmd in\n", out);
    for (const cli_command *c = cli_commands; c->name; c++) {
        fprintf(out, "        %s) COMPREPLY=($(compgen -W \"", c->name);
        completion_words(out, c->name);
        fputs("\" -- \"$cur\")) ;;\n", out);
    }
    fputs("        esac\n    elif ((COMP_CWORD == 1)); then\n        COMPREPLY=($(compgen -W \"", out);
    for (const cli_command *c = cli_commands; c->name; c++) fprintf(out, "%s ", c->name);
    fputs("help version\" -- \"$cur\"))\n    else\n        COMPREPLY=($(compgen -f -- \"$cur\"))\n    fi\n}\n"
          "complete -F _cuprobe cuprobe\n", out);
}

/* Report a usage error; see cli.h. */
int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_message(fmt, ap);
    va_end(ap);
    fputs(" (see 'cuprobe --help')\n", stderr);
    return CP_EXIT_USAGE;
}

/* Report an error; see cli.h. */
int cli_error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_message(fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

/* Print docs/checks.md; see cli.h. */
void cli_print_checks_md(FILE *out)
{
    const cp_check_info *c = cp_check_list();
    fputs("# cuprobe checks\n\n"
          "<!-- generated by `cuprobe --checks-md` (make checks-md) from src/lib/checks/checks.def; "
          "edit that list, not this file -->\n\n"
          "`cuprobe doctor` runs these checks, bottom layer first, and each yields one finding: pass, warn,\n"
          "fail or skip (it could not check, and says why: a check that needs NVML or a GPU on the bus\n"
          "skips without one).  A finding names its check by id, in the text report and in the JSON\n"
          "report (`findings[].check`, `root_cause.check`, docs/doctor.schema.json).  Ids are stable:\n"
          "scripts may match on them.  The root cause is the first failure of the lowest failing layer\n"
          "(else the first warning of the lowest warning layer); every layer above a failing root cause\n"
          "is blocked.\n", out);
    for (int l = 0; l < CP_LAYER_COUNT; l++) {
        int shown = 0;
        for (const cp_check_info *x = c; x->id; x++) {
            if (x->layer != (cp_layer)l) continue;
            if (!shown++)
                fprintf(out, "\n## %s\n\n| id | title | what it looks at |\n|---|---|---|\n", cp_layer_name((cp_layer)l));
            fprintf(out, "| `%s` | %s | %s |\n", x->id, x->title, x->meaning);
        }
    }
}
