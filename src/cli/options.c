/* Option parsing shared by the subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "cli.h"
#include "cuprobe/cuprobe.h"

/* Match argv[*i] against flag; take its value from "--flag=V" or the next
 * argument.  Returns 1 matched (value in *val when wanted), 0 not this flag,
 * -1 usage error already reported. */
int opt_match(int argc, char **argv, int *i, const char *flag, const char **val)
{
    const char *a = argv[*i];
    size_t n = strlen(flag);
    if (strncmp(a, flag, n) != 0) return 0;
    if (!val) return a[n] == '\0' ? 1 : 0;
    if (a[n] == '=') { *val = a + n + 1; return 1; }
    if (a[n] != '\0') return 0;
    if (*i + 1 >= argc) { cli_usage_error("option '%s' needs a value", flag); return -1; }
    *val = argv[++*i];
    return 1;
}

/* Parse "5" / "0.5" seconds into milliseconds; -1 when not a number in (0, 3600]. */
int opt_seconds_ms(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v > 0) || v > 3600) return -1;
    return (int)(v * 1000 + 0.5) > 0 ? (int)(v * 1000 + 0.5) : 1;
}

/* Parse --live's "cuda,nvml,env" into CP_LIVE_* bits; -1 on an unknown word. */
int opt_live_mask(const char *s, unsigned *mask)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    *mask = 0;
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        if (strcmp(t, "cuda") == 0) *mask |= CP_LIVE_CUDA;
        else if (strcmp(t, "nvml") == 0) *mask |= CP_LIVE_NVML;
        else if (strcmp(t, "env") == 0) *mask |= CP_LIVE_ENV;
        else return -1;
    }
    return 0;
}

/* The options that say what to observe, shared by doctor and explain
 * --check: --from DIR, --python PATH, --timeout SECONDS, --live LIST.
 * Returns 1 matched (o updated), 0 not one of them, -1 usage error already
 * reported. */
int opt_observe(int argc, char **argv, int *i, cp_observe_opts *o)
{
    const char *v;
    int m;
    if ((m = opt_match(argc, argv, i, "--from", &v))) {
        if (m > 0) o->from_dir = v;
        return m;
    }
    if ((m = opt_match(argc, argv, i, "--python", &v))) {
        if (m > 0) o->python = v;
        return m;
    }
    if ((m = opt_match(argc, argv, i, "--timeout", &v))) {
        if (m > 0 && (o->timeout_ms = opt_seconds_ms(v)) < 0) {
            cli_usage_error("--timeout takes seconds (0 < s <= 3600), not '%s'", v);
            return -1;
        }
        return m;
    }
    if ((m = opt_match(argc, argv, i, "--live", &v))) {
        if (m > 0 && opt_live_mask(v, &o->live_mask) != 0) {
            cli_usage_error("--live takes cuda,nvml,env, not '%s'", v);
            return -1;
        }
        return m;
    }
    return 0;
}
