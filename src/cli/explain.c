/* cuprobe explain: say what a pasted error message or log means. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/cuprobe.h"
#include "cuprobe/explain.h"

#define STDIN_MAX ((size_t)64 << 20)

/* All of stdin into *buf (owned by the caller), at most STDIN_MAX bytes.
 * Returns 0, or CP_EXIT_ERROR after saying why on stderr. */
static int read_stdin(char **buf, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    if (!b) { fputs("cuprobe: out of memory\n", stderr); return CP_EXIT_ERROR; }
    for (;;) {
        if (n == cap) {
            if (cap > STDIN_MAX) break;
            char *nb = realloc(b, cap * 2);
            if (!nb) { free(b); fputs("cuprobe: out of memory\n", stderr); return CP_EXIT_ERROR; }
            b = nb;
            cap *= 2;
        }
        size_t got = fread(b + n, 1, cap - n, stdin);
        n += got;
        if (got == 0) break;
    }
    if (ferror(stdin)) {
        fprintf(stderr, "cuprobe: cannot read standard input: %s\n", strerror(errno));
        free(b);
        return CP_EXIT_ERROR;
    }
    if (n > STDIN_MAX) {
        fprintf(stderr, "cuprobe: standard input is larger than %zu MB; pass the relevant part\n", STDIN_MAX >> 20);
        free(b);
        return CP_EXIT_ERROR;
    }
    *buf = b;
    *len = n;
    return 0;
}

/* The message words joined with single spaces, into *buf (owned by caller). */
static int join_args(int n, const char **words, char **buf, size_t *len)
{
    size_t total = 1;
    for (int i = 0; i < n; i++) total += strlen(words[i]) + 1;
    char *b = malloc(total);
    if (!b) { fputs("cuprobe: out of memory\n", stderr); return CP_EXIT_ERROR; }
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(words[i]);
        if (i) b[k++] = ' ';
        memcpy(b + k, words[i], l);
        k += l;
    }
    b[k] = '\0';
    *buf = b;
    *len = k;
    return 0;
}

/* --check: observe this machine (or replay a snapshot), run doctor's checks
 * and let them confirm or not each signal.  Returns 0 or CP_EXIT_ERROR. */
static int confirm_here(cp_explain_result *r, const char *text, size_t len, const cp_observe_opts *o)
{
    cp_session *s;
    char err[512] = "";
    if (cp_observe(o, &s, err, sizeof err) != 0) {
        fprintf(stderr, "cuprobe: %s\n", err);
        return CP_EXIT_ERROR;
    }
    cp_report rep;
    if (cp_doctor(cp_session_facts(s), 1, &rep) != 0) {
        fputs("cuprobe: out of memory\n", stderr);
        cp_session_free(s);
        return CP_EXIT_ERROR;
    }
    cp_explain_confirm(r, text, len, cp_session_facts(s), &rep);
    cp_report_free(&rep);
    cp_session_free(s);
    return 0;
}

/* `cuprobe explain MESSAGE... | -`: see cli.h. */
int cmd_explain(int argc, char **argv)
{
    int json = 0, use_stdin = 0, nwords = 0, check = 0, color = CLI_COLOR_AUTO, id, m;
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    const char *v;
    const char **words = calloc((size_t)argc + 1, sizeof *words);
    if (!words) { fputs("cuprobe: out of memory\n", stderr); return CP_EXIT_ERROR; }
    cli_parser p;
    cli_parser_init(&p, "explain", argc, argv, CLI_DASH_WORDS);
    while ((id = cli_next(&p, &v)) != CLI_END) {
        if (id == CLI_STOP) { free(words); return p.status; }
        if (id == CLI_OPERAND && strcmp(v, "-") == 0 && !p.operands_only) use_stdin = 1;
        else if (id == CLI_OPERAND) words[nwords++] = v;
        else if (id == OPT_JSON) json = 1;
        else if (id == OPT_CHECK) check = 1;
        else if ((m = cli_observe_option(id, v, &o)) == 0 && (m = cli_color_option(id, v, &color)) == 0) {
            free(words);
            return cli_unhandled(&p);
        } else if (m < 0) {
            free(words);
            return CP_EXIT_USAGE;
        }
    }
    if ((o.from_dir || o.python || o.live_mask) && !check) {
        free(words);
        return cli_usage_error("--from, --python and --live only make sense with --check");
    }
    if (o.live_mask && !o.from_dir) {
        free(words);
        return cli_usage_error("--live only makes sense with --from");
    }
    if (use_stdin == (nwords > 0)) {
        free(words);
        return cli_usage_error(use_stdin ? "give the text as arguments or '-' for standard input, not both"
                                         : "explain needs the text: cuprobe explain \"MESSAGE\" or ... | cuprobe explain -");
    }
    char *text = NULL;
    size_t len = 0;
    int rc = use_stdin ? read_stdin(&text, &len) : join_args(nwords, words, &text, &len);
    free(words);
    if (rc != 0) return rc;
    cp_explain_result r;
    if (cp_explain_text(text, len, &r) != 0) {
        free(text);
        fputs("cuprobe: out of memory\n", stderr);
        return CP_EXIT_ERROR;
    }
    if (check && r.nsignals && (rc = confirm_here(&r, text, len, &o)) != 0) {
        free(text);
        cp_explain_free(&r);
        return rc;
    }
    free(text);
    if (json) cp_explain_render_json(&r, stdout);
    else cp_explain_render_text(&r, stdout, cli_use_color(color));
    int code = r.nsignals ? 0 : CP_EXIT_NO_SIGNAL;
    cp_explain_free(&r);
    return code;
}
