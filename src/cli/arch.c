/*
 * cuprobe arch [--sm CC]... [--json] FILE|DIR...: which GPU code each binary
 * carries, and whether the target GPUs (--sm, else this machine's) can run
 * it natively, only through the driver's PTX JIT, or not at all.  The walk,
 * the verdicts and both renderings are the library's (cp_arch_report,
 * cuprobe/arch.h); this file reads the command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/arch.h"
#include "cuprobe/cuprobe.h"

typedef struct {
    cp_arch_target t[CP_MAX_GPUS];
    int nt;
    int json;
    cp_observe_opts observe;  /* for this machine's GPUs, when no --sm is given */
} arch_args;

/* This machine's GPUs as targets, from an observed session.  Returns how
 * many (0 without a GPU or a working driver). */
static int machine_targets(arch_args *a)
{
    cp_session *s;
    char err[512];
    if (cp_observe(&a->observe, &s, err, sizeof err) != 0)
        return 0;
    a->nt = cp_arch_machine_targets(cp_session_facts(s), a->t, CP_MAX_GPUS);
    cp_session_free(s);
    return a->nt;
}

/* Parse the command line into a and the list of paths.  Returns 0, or -1
 * with *status the exit code to return now (--help printed: 0; a usage
 * error reported: CP_EXIT_USAGE). */
static int parse_args(int argc, char **argv, arch_args *a, const char **paths, int *npaths, int *status)
{
    const char *v;
    int id, m;
    cli_parser p;
    cli_parser_init(&p, "arch", argc, argv, 0);
    while ((id = cli_next(&p, &v)) != CLI_END) {
        if (id == CLI_STOP) {
            *status = p.status;
            return -1;
        }
        *status = CP_EXIT_USAGE;
        if (id == CLI_OPERAND) {
            paths[(*npaths)++] = v;
        } else if (id == OPT_SM) {
            if (a->nt >= CP_MAX_GPUS) {
                cli_usage_error("at most %d --sm targets", CP_MAX_GPUS);
                return -1;
            }
            if (cp_arch_target_sm(v, &a->t[a->nt]) != 0) {
                cli_usage_error("--sm takes a compute capability like 90, 9.0 or 90a, not '%s'", v);
                return -1;
            }
            a->nt++;
        } else if (id == OPT_JSON) {
            a->json = 1;
        } else if ((m = cli_observe_option(id, v, &a->observe)) <= 0) {
            if (m == 0) cli_unhandled(&p);   /* a row of the table without its case here */
            return -1;
        }
    }
    if (*npaths == 0) {
        *status = cli_usage_error("arch needs a file or folder: cuprobe arch [--sm 90] FILE|DIR...");
        return -1;
    }
    return 0;
}

/* A problem names a path from the machine: written as safe text. */
static void print_problem(const char *msg, void *arg)
{
    (void)arg;
    cli_error(0, "%s", msg);
}

/* `cuprobe arch`: see the top of this file and cli.h.  Exit 0 when every
 * file runs natively on every target, 1 when some only through PTX JIT, 2
 * when some cannot run, 3 when a file could not be read, 64 on usage. */
int cmd_arch(int argc, char **argv)
{
    static arch_args a;
    static const cp_observe_opts defaults = CP_OBSERVE_DEFAULTS;
    int npaths = 0, rc;
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    if (!paths) return CP_EXIT_ERROR;
    memset(&a, 0, sizeof a);
    a.observe = defaults;
    if (parse_args(argc, argv, &a, paths, &npaths, &rc) != 0) {
        free(paths);
        return rc;
    }
    if (a.nt == 0) machine_targets(&a);
    cp_arch_opts o = { .targets = a.t, .ntargets = a.nt, .json = a.json != 0, .problem = print_problem };
    rc = cp_arch_report(&o, paths, npaths, stdout);
    free(paths);
    return rc;
}
