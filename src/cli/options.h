/*
 * The option parser, driven by the option table (cli_options, usage.c): a
 * command accepts exactly the rows of its name and the "" rows, by any name
 * of a row ("-v" or "--verbose"), with a value as "--from DIR" or
 * "--from=DIR".  "--" ends the options; "-" alone is an operand.  --help,
 * --version, --man, --checks-md and --bash-completion are done here for
 * every command.
 *
 *     cli_parser p;
 *     const char *v;
 *     int id;
 *     cli_parser_init(&p, "doctor", argc, argv, 0);
 *     while ((id = cli_next(&p, &v)) != CLI_END) {
 *         switch (id) {
 *         case CLI_STOP: return p.status;            (help printed, or a usage error reported)
 *         case CLI_OPERAND: ... v ...; break;
 *         case OPT_JSON: json = 1; break;
 *         ...
 *         default: return cli_unhandled(&p);
 *         }
 *     }
 */
#ifndef CP_CLI_OPTIONS_H
#define CP_CLI_OPTIONS_H

#include "cli.h"
#include "cuprobe/cuprobe.h"
#include "cuprobe/telemetry.h"

/* What cli_next returns besides an option id (cli_opt, > 0). */
enum { CLI_END = 0, CLI_OPERAND = -1, CLI_STOP = -2 };

/* cli_parser_init flags. */
enum {
    CLI_DASH_WORDS = 1    /* a word with one leading '-' that names no option is an operand (explain's text) */
};

typedef struct {
    const char *command;  /* the rows that apply: this command's and the "" rows */
    int argc;
    char **argv;
    int next;             /* index of the next argument */
    unsigned flags;
    int operands_only;    /* after "--" */
    const char *arg;      /* the argument of the last option returned, as given ("--from=DIR") */
    int status;           /* after CLI_STOP: the exit code (0 after --help, CP_EXIT_USAGE after an error) */
} cli_parser;

/* Start parsing argv[0..argc) (the arguments after the command name) for
 * command; flags are CLI_* bits.  Nothing is allocated. */
void cli_parser_init(cli_parser *p, const char *command, int argc, char **argv, unsigned flags);

/* The next option's id, with its value in *value (NULL for a switch);
 * CLI_OPERAND with the word in *value; CLI_END when done; CLI_STOP when the
 * command must return p->status now: --help, --version, --man,
 * --checks-md or --bash-completion was printed (status 0), or a usage error (an unknown option, a
 * missing value) was reported on stderr (status CP_EXIT_USAGE). */
int cli_next(cli_parser *p, const char **value);

/* For an id the command's loop has no case for (a table row without its
 * code): reports it as a usage error and returns CP_EXIT_USAGE. */
int cli_unhandled(const cli_parser *p);

/* Does argv[0..argc), before any "--", ask for help (-h, --help)? */
int cli_asks_help(int argc, char **argv);

/* The options that say what to observe: --from, --python, --timeout,
 * --live, --root into o.  Returns 1 when id is one of them (o updated), 0
 * when it is not, -1 on a bad value (reported on stderr). */
int cli_observe_option(int id, const char *value, cp_observe_opts *o);

/* After the parse, the observe options as a whole (every command that takes
 * them calls it): --python must name an executable file of the machine
 * observed (live: a relative path is resolved against the current folder,
 * a bare name looked up on PATH; --root: under the root; --from: a path the
 * snapshot holds).  Returns 0 (o->python may now point to the resolved
 * path, static storage), or CP_EXIT_USAGE after naming the path on stderr. */
int cli_observe_done(cp_observe_opts *o);

/* --level's value (doctor, snapshot): 1 or 2; anything else prints the
 * usage error and returns -1 (the caller exits CP_EXIT_USAGE). */
int cli_level(const char *v);

/* Colour, decided once for every command.  cli_color_option takes
 * --color WHEN and --no-color (the same as --color never) into *when
 * (CLI_COLOR_*; start with CLI_COLOR_AUTO): 1 when id is one of them, 0
 * when not, -1 on a bad WHEN (reported).  cli_use_color says whether to
 * paint stdout: always; or auto on a terminal without NO_COLOR set. */
enum { CLI_COLOR_AUTO, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER };
int cli_color_option(int id, const char *value, int *when);
int cli_use_color(int when);

/* A number of seconds from lo to hi for option opt ("--interval") into
 * *out: 0, or -1 after printing the usage error. */
int cli_seconds(const char *opt, const char *v, double lo, double hi, double *out);

/* The NVML sampler of monitor, top and exporter: a tick's deadline is the
 * shorter of the interval and --timeout (timeout_ms, also the deadline of
 * a new child's start).  NULL when out of memory. */
cp_tele *cli_sampler(double interval_s, int timeout_ms);

#endif
