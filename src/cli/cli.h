/* The cuprobe tool: subcommands and the one option table that the parser,
 * --help and the man page share. */
#ifndef CP_CLI_H
#define CP_CLI_H

#include <signal.h>
#include <stdio.h>

typedef struct {
    const char *name;           /* "doctor" */
    const char *args;           /* "[options]" */
    const char *summary;        /* one line */
    int (*run)(int argc, char **argv);
} cli_command;

/* What an option is, whatever name it was given by and whichever command's
 * row matched: rows of several commands share an id (--json). */
typedef enum {
    OPT_HELP = 1, OPT_VERSION, OPT_MAN, OPT_CHECKS_MD, OPT_COMPLETION,   /* print and stop: options.c does these */
    OPT_LEVEL, OPT_JSON, OPT_VERBOSE, OPT_COLOR, OPT_NO_COLOR,
    OPT_FROM, OPT_PYTHON, OPT_TIMEOUT, OPT_ROOT, OPT_LIVE,
    OPT_SM, OPT_CHECK, OPT_FILE,
    OPT_DEVICE, OPT_SIZE, OPT_ITERS, OPT_SWEEP, OPT_SVG, OPT_ONLY,
    OPT_INTERVAL, OPT_DURATION, OPT_COUNT, OPT_FORMAT, OPT_FIELDS, OPT_TEXTFILE, OPT_LIST_FIELDS,
    OPT_LISTEN, OPT_DOCTOR_EVERY, OPT_MAX_CLIENTS, OPT_POD_RESOURCES,
    OPT_OUT, OPT_ANALYZE, OPT_HTML, OPT_CHROME, OPT_COUNTERS
} cli_opt;

typedef struct {
    cli_opt id;
    const char *command;        /* "doctor", "snapshot", or "" for every command */
    const char *flag;           /* "--json", or "-v, --verbose": every name it answers to */
    const char *arg;            /* "DIR": takes a value (--from DIR, --from=DIR); NULL: a switch */
    const char *help;
    int hidden;                 /* tests and generators: parsed, but not in --help or the man page */
} cli_option;

extern const cli_command cli_commands[];
extern const cli_option cli_options[];

/* --help text for the whole tool (cmd NULL) or one command. */
void cli_print_help(FILE *out, const char *cmd);
/* The man page, in roff, from the same tables. */
void cli_print_man(FILE *out);
/* The bash completion (docs/cuprobe.bash), from the same tables. */
void cli_print_completion(FILE *out);
/* docs/checks.md, in Markdown, from the library's check table. */
void cli_print_checks_md(FILE *out);
/* "cuprobe: MSG (see 'cuprobe --help')" on stderr; returns CP_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "cuprobe: MSG" on stderr, the message written as safe text (cp_text_put:
 * it names paths and words the tool did not write); returns code. */
int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* SIGINT and SIGTERM set cli_stop_now instead of ending the process (no
 * SA_RESTART: a sleep or a poll is cut short), for the commands that run
 * until told to stop (monitor, exporter). */
extern volatile sig_atomic_t cli_stop_now;
void cli_catch_stop(void);
/* Flush stdout now (a command whose last step is slow sends its output
 * first); a failure is kept for main's write-error exit. */
void cli_flush_stdout(void);

/* The subcommands: argv holds the arguments after the command name.  Each
 * returns the process exit code (report.h's CP_EXIT_*). */
int cmd_doctor(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_arch(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_exporter(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_trace(int argc, char **argv);

#endif
