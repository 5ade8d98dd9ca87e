/* The option parser, driven by the option table (options.h). */
#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
        case OPT_COMPLETION: cli_print_completion(stdout); return stop(p, 0);
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

/* "5" / "0.5" seconds as milliseconds; -1 when not a number in (0, 3600],
 * -2 when below the floor CP_TIMEOUT_MIN_MS. */
static int seconds_ms(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v > 0) || v > 3600) return -1;
    if (v * 1000 < CP_TIMEOUT_MIN_MS) return -2;
    return (int)(v * 1000 + 0.5);
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
        if ((o->timeout_ms = seconds_ms(v)) == -2) {
            cli_usage_error("--timeout must be at least %g s (no driver step can be judged in less), not '%s'",
                            CP_TIMEOUT_MIN_MS / 1000.0, v);
            return -1;
        }
        if (o->timeout_ms < 0) {
            cli_usage_error("--timeout takes seconds (%g <= s <= 3600), not '%s'", CP_TIMEOUT_MIN_MS / 1000.0, v);
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

/* Is path (a machine path, under root when root is not "/") an executable
 * file?  0, or the reason it is not. */
static const char *not_executable(const char *root, const char *path)
{
    char full[PATH_MAX];
    struct stat st;
    int n = snprintf(full, sizeof full, "%s%s", root && strcmp(root, "/") != 0 ? root : "", path);
    if (n < 0 || (size_t)n >= sizeof full) return "the path is too long";
    /* under another root a link leads into that root, which only the
     * library's view follows: there, the path must merely be present */
    if (root) return lstat(full, &st) != 0 ? strerror(errno) : NULL;
    if (stat(full, &st) != 0) return strerror(errno);
    if (!S_ISREG(st.st_mode)) return "not a file";
    if (!(st.st_mode & 0111) || access(full, X_OK) != 0) return "not executable";
    return NULL;
}

/* The first executable `name` in $PATH, into out; 0 or -1. */
static int on_path(const char *name, char *out, size_t cap)
{
    const char *p = getenv("PATH");
    while (p && *p) {
        size_t n = strcspn(p, ":");
        int w = snprintf(out, cap, "%.*s/%s", (int)n, p, name);
        if (n && p[0] == '/' && w > 0 && (size_t)w < cap && !not_executable(NULL, out)) return 0;
        p += n + (p[n] == ':');
    }
    return -1;
}

/* The observe options as a whole; see options.h. */
int cli_observe_done(cp_observe_opts *o)
{
    static char resolved[PATH_MAX];
    const char *py = o->python, *why;
    if (!py) return 0;
    if (!py[0]) return cli_usage_error("--python needs a path to a Python interpreter");
    if (o->from_dir) {
        /* a path inside the snapshot: its own links lead into the snapshot, which the library follows */
        char full[PATH_MAX];
        struct stat st;
        if (py[0] != '/') return cli_usage_error("--python with --from takes the interpreter's absolute path on the "
                                                 "machine of the snapshot, not '%s'", py);
        int n = snprintf(full, sizeof full, "%s/root%s", o->from_dir, py);
        if (n < 0 || (size_t)n >= sizeof full || lstat(full, &st) != 0)
            return cli_usage_error("--python '%s' is not in the snapshot '%s'", py, o->from_dir);
        return 0;
    }
    const char *root = o->root && strcmp(o->root, "/") != 0 ? o->root : NULL;
    if (!strchr(py, '/')) {           /* a bare name: the first on PATH, as a shell finds it */
        if (!root && on_path(py, resolved, sizeof resolved) != 0)
            return cli_usage_error("--python '%s' is not an executable on PATH", py);
        return 0;
    }
    if (py[0] != '/') {               /* relative: against the current folder */
        char cwd[PATH_MAX];
        int n = getcwd(cwd, sizeof cwd) ? snprintf(resolved, sizeof resolved, "%s/%s", cwd, py) : -1;
        if (n < 0 || (size_t)n >= sizeof resolved)
            return cli_usage_error("--python '%s': cannot resolve it against the current folder", py);
        py = resolved;
    }
    if ((why = not_executable(root, py)) != NULL)
        return cli_usage_error("--python '%s': %s", o->python, why);
    o->python = py;
    return 0;
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

/* --level's value: 1 or 2, or -1 after the usage message; see options.h. */
int cli_level(const char *v)
{
    if (strcmp(v, "1") == 0) return 1;
    if (strcmp(v, "2") == 0) return 2;
    cli_usage_error("--level takes 1 or 2, not '%s'", v);
    return -1;
}

/* A number of seconds in [lo, hi] for option opt; see options.h. */
int cli_seconds(const char *opt, const char *v, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (errno || end == v || *end || !(d >= lo) || d > hi) {
        cli_usage_error("%s wants seconds from %g to %g, got '%s'", opt, lo, hi, v);
        return -1;
    }
    *out = d;
    return 0;
}

/* The sampler of monitor, top and exporter; see options.h. */
cp_tele *cli_sampler(double interval_s, int timeout_ms)
{
    /* a tick never outlasts its interval: its deadline is the shorter one */
    double deadline_ms = timeout_ms < interval_s * 1000 ? timeout_ms : interval_s * 1000;
    cp_tele_opts o = { (int)ceil(deadline_ms), timeout_ms, NULL };
    if (o.deadline_ms < CP_TIMEOUT_MIN_MS) o.deadline_ms = CP_TIMEOUT_MIN_MS;
    return cp_tele_open(&o);
}
