/* cuprobe explain: say what a pasted error message or log means. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/cuprobe.h"
#include "cuprobe/explain.h"

/* The most text explain reads (a file or standard input): documented in
 * the --file row of the option table (usage.c). */
#define INPUT_MAX ((size_t)64 << 20)

/* All of `in` (called `name` in messages) into *buf (owned by the caller),
 * at most INPUT_MAX bytes.  Returns 0, or CP_EXIT_ERROR after saying why on
 * stderr (a text over the limit is refused, not cut). */
static int read_all(FILE *in, const char *name, char **buf, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    if (!b) return cli_error(CP_EXIT_ERROR, "out of memory");
    for (;;) {
        if (n == cap) {
            if (cap > INPUT_MAX) break;          /* holds INPUT_MAX + 1: one byte past the limit tells */
            size_t ncap = cap * 2 > INPUT_MAX ? INPUT_MAX + 1 : cap * 2;
            char *nb = realloc(b, ncap);
            if (!nb) { free(b); return cli_error(CP_EXIT_ERROR, "out of memory"); }
            b = nb;
            cap = ncap;
        }
        size_t got = fread(b + n, 1, cap - n, in);
        n += got;
        if (got == 0) break;
    }
    if (ferror(in)) {
        int e = errno;
        free(b);
        return cli_error(CP_EXIT_ERROR, "cannot read %s: %s", name, strerror(e));
    }
    if (n > INPUT_MAX) {
        free(b);
        return cli_error(CP_EXIT_ERROR, "%s holds more than %zu MB, explain's limit; pass the relevant part "
                         "(e.g. tail -n 100000)", name, INPUT_MAX >> 20);
    }
    *buf = b;
    *len = n;
    return 0;
}

/* The text of --file PATH ("-": standard input) into *buf. */
static int read_file(const char *path, char **buf, size_t *len)
{
    if (strcmp(path, "-") == 0) return read_all(stdin, "standard input", buf, len);
    FILE *in = fopen(path, "rb");
    if (!in) return cli_error(CP_EXIT_ERROR, "cannot open '%s': %s", path, strerror(errno));
    char name[PATH_MAX + 8];
    snprintf(name, sizeof name, "'%s'", path);
    int rc = read_all(in, name, buf, len);
    fclose(in);
    return rc;
}

/* The message words joined with single spaces, into *buf (owned by caller). */
static int join_args(int n, const char **words, char **buf, size_t *len)
{
    size_t total = 1;
    for (int i = 0; i < n; i++) total += strlen(words[i]) + 1;
    char *b = malloc(total);
    if (!b) return cli_error(CP_EXIT_ERROR, "out of memory");
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
    if (cp_observe(o, &s, err, sizeof err) != 0) return cli_error(CP_EXIT_ERROR, "%s", err);
    cp_report rep;
    if (cp_doctor(cp_session_facts(s), 1, &rep) != 0) {
        cp_session_free(s);
        return cli_error(CP_EXIT_ERROR, "out of memory");
    }
    cp_explain_confirm(r, text, len, cp_session_facts(s), &rep);
    cp_report_free(&rep);
    cp_session_free(s);
    return 0;
}

/* Where the text comes from: the words, `-` or --file (or, with none of
 * them, standard input when it is not a terminal).  Returns 0 with *text,
 * or the exit code after saying why. */
static int take_text(int nwords, const char **words, int use_stdin, const char *file, char **text, size_t *len)
{
    int sources = (nwords > 0) + use_stdin + (file != NULL);
    if (sources > 1)
        return cli_usage_error("give the text one way: as arguments, '-' or --file FILE");
    if (nwords) return join_args(nwords, words, text, len);
    if (use_stdin) return read_all(stdin, "standard input", text, len);
    if (file) return read_file(file, text, len);
    const char *need = "explain needs the text: cuprobe explain \"MESSAGE\", --file FILE, or ... | cuprobe explain";
    if (isatty(0)) return cli_usage_error("%s", need);
    int rc = read_all(stdin, "standard input", text, len);
    if (rc == 0 && *len == 0) {        /* nothing piped in (</dev/null, a closed stdin): as no text at all */
        free(*text);
        *text = NULL;
        return cli_usage_error("%s", need);
    }
    return rc;
}

/* `cuprobe explain MESSAGE... | - | --file FILE`: see cli.h. */
int cmd_explain(int argc, char **argv)
{
    int json = 0, use_stdin = 0, nwords = 0, check = 0, color = CLI_COLOR_AUTO, id, m;
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    const char *v, *file = NULL;
    const char **words = calloc((size_t)argc + 1, sizeof *words);
    if (!words) return cli_error(CP_EXIT_ERROR, "out of memory");
    cli_parser p;
    cli_parser_init(&p, "explain", argc, argv, CLI_DASH_WORDS);
    while ((id = cli_next(&p, &v)) != CLI_END) {
        if (id == CLI_STOP) { free(words); return p.status; }
        if (id == CLI_OPERAND && strcmp(v, "-") == 0 && !p.operands_only) use_stdin = 1;
        else if (id == CLI_OPERAND) words[nwords++] = v;
        else if (id == OPT_JSON) json = 1;
        else if (id == OPT_CHECK) check = 1;
        else if (id == OPT_FILE) {
            if (file) { free(words); return cli_usage_error("--file is given twice"); }
            file = v;
        } else if ((m = cli_observe_option(id, v, &o)) == 0 && (m = cli_color_option(id, v, &color)) == 0) {
            free(words);
            return cli_unhandled(&p);
        } else if (m < 0) {
            free(words);
            return CP_EXIT_USAGE;
        }
    }
    int rc = 0;
    if ((o.from_dir || o.python || o.live_mask) && !check)
        rc = cli_usage_error("--from, --python and --live only make sense with --check");
    else if (o.live_mask && !o.from_dir)
        rc = cli_usage_error("--live only makes sense with --from");
    else if (cli_observe_done(&o) != 0)
        rc = CP_EXIT_USAGE;
    const char *words0 = nwords ? words[0] : NULL;
    int nfile_words = nwords;
    char *text = NULL;
    size_t len = 0;
    if (rc == 0) rc = take_text(nwords, words, use_stdin, file, &text, &len);
    free(words);
    if (rc != 0) return rc;
    cp_explain_result r;
    if (cp_explain_text(text, len, &r) != 0) {
        free(text);
        return cli_error(CP_EXIT_ERROR, "out of memory");
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
    struct stat st;
    if (!r.nsignals && nfile_words == 1 && stat(words0, &st) == 0 && S_ISREG(st.st_mode))
        cli_error(0, "'%s' was read as the message; to read the file: cuprobe explain --file '%s'", words0, words0);
    cp_explain_free(&r);
    return code;
}
