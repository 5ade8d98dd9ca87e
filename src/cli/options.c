/* The option parser, driven by the option table (options.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "options.h"
#include "cli.h"
#include "cuprobe/cuprobe.h"

/* Does arg name the option of row o?  flag lists the names separated by
 * ", ".  Returns the length of the name matched (arg is "NAME" or, for an
 * option with a value, "NAME=V"), or 0. */
static size_t names_match(const cli_option *o, const char *arg)
{
    const char *n = o->flag;
    while (*n) {
        const char *end = strstr(n, ", ");
        size_t len = end ? (size_t)(end - n) : strlen(n);
        if (strncmp(arg, n, len) == 0 && (arg[len] == '\0' || (arg[len] == '=' && o->arg)))
            return len;
        n += len;
        if (*n) n += 2;
    }
    return 0;
}

/* The row for arg among the rows of command (and the "" rows), or NULL;
 * *len is the length of the name matched. */
static const cli_option *find_row(const char *command, const char *arg, size_t *len)
{
    for (const cli_option *o = cli_options; o->flag; o++) {
        if (o->command[0] && strcmp(o->command, command) != 0) continue;
        if ((*len = names_match(o, arg)) > 0) return o;
    }
    return NULL;
}

/* Start a parse; see options.h. */
void cli_parser_init(cli_parser *p, const char *command, int argc, char **argv, unsigned flags)
{
    memset(p, 0, sizeof *p);
    p->command = command;
    p->argc = argc;
    p->argv = argv;
    p->flags = flags;
}

static int stop(cli_parser *p, int status)
{
    p->status = status;
    p->next = p->argc;
    return CLI_STOP;
}

/* The next option or operand; see options.h. */
int cli_next(cli_parser *p, const char **value)
{
    *value = NULL;
    while (p->next < p->argc) {
        const char *a = p->argv[p->next++];
        p->arg = a;
        if (!p->operands_only && strcmp(a, "--") == 0) {
            p->operands_only = 1;
            continue;
        }
        if (p->operands_only || a[0] != '-' || a[1] == '\0') {
            *value = a;
            return CLI_OPERAND;
        }
        size_t len;
        const cli_option *o = find_row(p->command, a, &len);
        if (!o) {
            if ((p->flags & CLI_DASH_WORDS) && a[1] != '-') {
                *value = a;
                return CLI_OPERAND;
            }
            return stop(p, cli_usage_error("unknown option '%s'", a));
        }
        if (o->arg) {
            if (a[len] == '=') *value = a + len + 1;
            else if (p->next < p->argc) *value = p->argv[p->next++];
            else return stop(p, cli_usage_error("option '%.*s' needs a value", (int)len, a));
        }
        switch (o->id) {
        case OPT_HELP: cli_print_help(stdout, p->command); return stop(p, 0);
        case OPT_VERSION: printf("cuprobe %s\n", cp_version()); return stop(p, 0);
        case OPT_MAN: cli_print_man(stdout); return stop(p, 0);
        case OPT_CHECKS_MD: cli_print_checks_md(stdout); return stop(p, 0);
        default: return (int)o->id;
        }
    }
    return CLI_END;
}

/* A table row the command does not handle; see options.h. */
int cli_unhandled(const cli_parser *p)
{
    return cli_usage_error("option '%s' is not handled by %s", p->arg ? p->arg : "?", p->command);
}

/* Is help asked for; see options.h. */
int cli_asks_help(int argc, char **argv)
{
    size_t len;
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const cli_option *o = find_row("", argv[i], &len);
        if (o && o->id == OPT_HELP) return 1;
    }
    return 0;
}

/* "5" / "0.5" seconds as milliseconds; -1 when not a number in (0, 3600]. */
static int seconds_ms(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v > 0) || v > 3600) return -1;
    return (int)(v * 1000 + 0.5) > 0 ? (int)(v * 1000 + 0.5) : 1;
}

/* --live's "cuda,nvml,env" as CP_LIVE_* bits; -1 on an unknown word. */
static int live_mask(const char *s, unsigned *mask)
{
    static const struct { const char *word; unsigned bit; } words[] = {
        { "cuda", CP_LIVE_CUDA }, { "nvml", CP_LIVE_NVML }, { "env", CP_LIVE_ENV },
    };
    *mask = 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        size_t k = 0;
        while (k < sizeof words / sizeof words[0] && !(strlen(words[k].word) == n && strncmp(s, words[k].word, n) == 0))
            k++;
        if (n && k == sizeof words / sizeof words[0]) return -1;
        if (n) *mask |= words[k].bit;
        s += n;
        if (*s) s++;
    }
    return 0;
}

/* The observe options; see options.h. */
int cli_observe_option(int id, const char *v, cp_observe_opts *o)
{
    switch (id) {
    case OPT_FROM: o->from_dir = v; return 1;
    case OPT_PYTHON: o->python = v; return 1;
    case OPT_ROOT: o->root = v; return 1;
    case OPT_TIMEOUT:
        if ((o->timeout_ms = seconds_ms(v)) < 0) {
            cli_usage_error("--timeout takes seconds (0 < s <= 3600), not '%s'", v);
            return -1;
        }
        return 1;
    case OPT_LIVE:
        if (live_mask(v, &o->live_mask) != 0) {
            cli_usage_error("--live takes cuda,nvml,env, not '%s'", v);
            return -1;
        }
        return 1;
    default:
        return 0;
    }
}

/* --color and --no-color; see options.h. */
int cli_color_option(int id, const char *v, int *when)
{
    if (id == OPT_NO_COLOR) {
        *when = CLI_COLOR_NEVER;
        return 1;
    }
    if (id != OPT_COLOR) return 0;
    if (strcmp(v, "auto") == 0) *when = CLI_COLOR_AUTO;
    else if (strcmp(v, "always") == 0) *when = CLI_COLOR_ALWAYS;
    else if (strcmp(v, "never") == 0) *when = CLI_COLOR_NEVER;
    else {
        cli_usage_error("--color takes auto, always or never, not '%s'", v);
        return -1;
    }
    return 1;
}

/* The colour decision; see options.h. */
int cli_use_color(int when)
{
    return when == CLI_COLOR_ALWAYS || (when == CLI_COLOR_AUTO && isatty(1) && !getenv("NO_COLOR"));
}
