/* The cuprobe tool: subcommands and the one option table help and man share. */
#ifndef CP_CLI_H
#define CP_CLI_H

#include <stdio.h>

typedef struct {
    const char *name;           /* "doctor" */
    const char *args;           /* "[options]" */
    const char *summary;        /* one line */
    int (*run)(int argc, char **argv);
} cli_command;

typedef struct {
    const char *command;        /* "doctor", "snapshot", or "" for every command */
    const char *flag;           /* "--json" */
    const char *arg;            /* "DIR" or NULL */
    const char *help;
    int hidden;                 /* test-only: not in --help or the man page */
} cli_option;

extern const cli_command cli_commands[];
extern const cli_option cli_options[];

/* --help text for the whole tool (cmd NULL) or one command. */
void cli_print_help(FILE *out, const char *cmd);
/* The man page, in roff, from the same tables. */
void cli_print_man(FILE *out);
/* "cuprobe: MSG (see 'cuprobe --help')" on stderr; returns CP_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The subcommands: argv holds the arguments after the command name.  Each
 * returns the process exit code (report.h's CP_EXIT_*). */
int cmd_doctor(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_arch(int argc, char **argv);
int cmd_explain(int argc, char **argv);

#endif
