/* cuprobe explain output: text for people and JSON (see explain.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "cuprobe/explain.h"
#include "explain_int.h"
#include "util/json.h"
#include "util/text.h"

static void human_bytes(FILE *out, int64_t b)
{
    if (b < 0) fputs("N/A", out);
    else if (b >= 1073741824) fprintf(out, "%.2f GiB", (double)b / 1073741824.0);
    else if (b >= 1048576) fprintf(out, "%.2f MiB", (double)b / 1048576.0);
    else fprintf(out, "%lld bytes", (long long)b);
}

static int has_oom(const cp_explain_signal *s)
{
    return s->requested_bytes >= 0 || s->free_bytes >= 0 || s->total_bytes >= 0;
}

static void text_values(const cp_explain_signal *s, FILE *out)
{
    if (has_oom(s)) {
        fputs("  values:   requested ", out);
        human_bytes(out, s->requested_bytes);
        fputs(", free ", out);
        human_bytes(out, s->free_bytes);
        fputs(", total ", out);
        human_bytes(out, s->total_bytes);
        if (s->gpu >= 0) fprintf(out, ", GPU %d", s->gpu);
        fputc('\n', out);
    }
    if (s->error_enum) fprintf(out, "  values:   %s %d\n", s->error_enum, s->error_number);
    if (s->xid >= 0) {
        fprintf(out, "  values:   XID %d on PCI ", s->xid);
        cp_text_put_line(out, s->pci[0] ? s->pci : "N/A");
        fputc('\n', out);
    }
    if (s->soname[0]) {
        fputs("  values:   missing ", out);
        cp_text_put_line(out, s->soname);
        fputs(" (version ", out);
        cp_text_put_line(out, s->soname_version[0] ? s->soname_version : "N/A");
        fputs(")\n", out);
    }
}

static void text_here(const cp_here *h, FILE *out)
{
    if (h->verdict == CP_HERE_NOT_ASKED) return;
    fprintf(out, "  here:     %s", cp_here_verdict_name(h->verdict));
    if (h->summary[0]) {
        fputs(": ", out);
        cp_text_put_line(out, h->summary);
    }
    fputc('\n', out);
    for (int k = 0; k < h->nfiles && k < CP_HERE_MAX_FILES; k++) {
        fputs("  library:  ", out);
        cp_text_put_line(out, h->files[k].path);
        fputs(": ", out);
        cp_text_put_line(out, h->files[k].verdict);
        fputs(" (", out);
        cp_text_put_line(out, h->files[k].why);
        fputs(")\n", out);
    }
}

/* --check: what the machine chose, before the signals. */
static void text_here_lead(const cp_explain_result *r, FILE *out)
{
    const cp_here_root *root = &r->here_root;
    const cp_explain_signal *s0 = &r->signals[0];
    int confirmed = cp_here_part(s0) == 0;
    /* a failure below the first reading comes first: above a broken layer the readings matter little
     * (a warning, or a fault above, is in doctor's report and here_root, not in the way) */
    if (root->check && root->status == CP_FAIL && root->layer < s0->layer) {
        fprintf(out, "here: the %s layer fails first on this machine: ", cp_layer_name(root->layer));
        cp_text_put_line(out, root->summary);
        fprintf(out, " (cuprobe doctor: %s); fix that first\n", root->check);
    }
    if (confirmed) {
        fprintf(out, "here: this machine confirms [%s] ", cp_layer_name(s0->layer));
        cp_text_put_line(out, s0->code);
        fputs(r->nsignals > 1 ? ", listed first\n" : "\n", out);
    } else if (cp_here_part(s0) == 2) {
        fputs("here: this machine shows none of these causes; the text may come from another machine or "
              "an earlier state\n", out);
    }
}

/* Render for people; see explain.h. */
void cp_explain_render_text(const cp_explain_result *r, FILE *out, int color)
{
    const char *b = color ? "\033[1m" : "", *y = color ? "\033[33m" : "", *z = color ? "\033[0m" : "";
    if (!r || r->nsignals == 0) {
        fputs("no known signal in the text\n", out);
        return;
    }
    if (r->signals[0].named)                   /* the last tier speaks only where nothing else did */
        fputs(r->nsignals == 1 ? "no known message in the text; a failing line names this component:\n"
                               : "no known message in the text; failing lines name these components:\n", out);
    else
        fprintf(out, "%d known signal%s in the text\n", r->nsignals, r->nsignals == 1 ? "" : "s");
    int checked = r->here_root.asked;
    static const char *const part_head[] = { "confirmed on this machine:", "this machine cannot tell:",
                                             "not seen on this machine (the cause lies elsewhere, or has passed):" };
    if (checked) text_here_lead(r, out);
    for (int i = 0; i < r->nsignals; i++) {
        const cp_explain_signal *s = &r->signals[i];
        if (checked && r->nsignals > 1 && (i == 0 || cp_here_part(s) != cp_here_part(&r->signals[i - 1])))
            fprintf(out, "\n%s\n", part_head[cp_here_part(s)]);
        else if (!checked && s->alternative && (i == 0 || !r->signals[i - 1].alternative))
            fputs("\nor, where the text does not say which (the other common reading of a line above):\n", out);
        fprintf(out, "\n%s[%s]%s %s", y, cp_layer_name(s->layer), z, b);
        cp_text_put_line(out, s->code);
        fprintf(out, "%s  (line %ld", z, s->first_line);
        if (s->count > 1) fprintf(out, ", %ld lines", s->count);
        if (checked && s->alternative) fputs(", the other common reading of its line", out);
        fputs(")\n  cause:    ", out);
        cp_text_put_line(out, s->cause);
        fputs("\n  fix:      ", out);
        cp_text_put_line(out, s->fix);
        fputc('\n', out);
        if (s->check) fprintf(out, "  check:    cuprobe doctor (%s)\n", s->check);
        text_values(s, out);
        fputs("  evidence: ", out);
        cp_text_put_line(out, s->evidence);
        fputc('\n', out);
        text_here(&s->here, out);
    }
}

static void json_values(const cp_explain_signal *s, FILE *out)
{
    int first = 1;
    fputs(", \"values\": {", out);
    cp_json_member_i64(out, "requested_bytes", s->requested_bytes, &first);
    cp_json_member_i64(out, "free_bytes", s->free_bytes, &first);
    cp_json_member_i64(out, "total_bytes", s->total_bytes, &first);
    cp_json_member_i64(out, "gpu", s->gpu, &first);
    cp_json_member_i64(out, "xid", s->xid, &first);
    cp_json_member_str(out, "pci", s->pci, &first);
    cp_json_member_str(out, "soname", s->soname, &first);
    cp_json_member_str(out, "version", s->soname_version, &first);
    cp_json_member_str(out, "error_enum", s->error_enum, &first);
    if (s->error_enum) cp_json_member_i64(out, "error_number", s->error_number, &first);
    fputc('}', out);
}

static void json_here(const cp_here *h, FILE *out)
{
    if (h->verdict == CP_HERE_NOT_ASKED) return;
    static const char *const words[] = { "", "confirmed", "not_seen", "unknown", "no_check" };
    fprintf(out, ", \"here\": {\"verdict\": \"%s\", \"check_status\": ", words[h->verdict]);
    cp_json_str(out, h->status);
    fputs(", \"summary\": ", out);
    cp_json_str(out, h->summary);
    fputs(", \"libraries\": [", out);
    for (int k = 0; k < h->nfiles && k < CP_HERE_MAX_FILES; k++) {
        fputs(k ? ", {\"path\": " : "{\"path\": ", out);
        cp_json_str(out, h->files[k].path);
        fputs(", \"verdict\": ", out);
        cp_json_str(out, h->files[k].verdict);
        fputs(", \"why\": ", out);
        cp_json_str(out, h->files[k].why);
        fputc('}', out);
    }
    fputs("]}", out);
}

/* Render as JSON; see explain.h. */
void cp_explain_render_json(const cp_explain_result *r, FILE *out)
{
    fputs("{\"signals\": [", out);
    for (int i = 0; r && i < r->nsignals; i++) {
        const cp_explain_signal *s = &r->signals[i];
        fputs(i ? ",\n  {" : "\n  {", out);
        fprintf(out, "\"layer\": \"%s\", \"code\": ", cp_layer_name(s->layer));
        cp_json_str(out, s->code);
        fputs(", \"cause\": ", out);
        cp_json_str(out, s->cause);
        fputs(", \"fix\": ", out);
        cp_json_str(out, s->fix);
        fputs(", \"check\": ", out);
        cp_json_str(out, s->check);
        fputs(", \"evidence\": ", out);
        cp_json_str(out, s->evidence);
        fprintf(out, ", \"count\": %ld, \"first_line\": %ld", s->count, s->first_line);
        if (s->named) fputs(", \"named\": true", out);
        if (s->alternative) fputs(", \"alternative\": true", out);
        json_values(s, out);
        json_here(&s->here, out);
        fputc('}', out);
    }
    fputs(r && r->nsignals ? "\n]" : "]", out);
    if (r && r->here_root.asked) {             /* --check: the machine's own first fault, or null */
        fputs(", \"here_root\": ", out);
        if (!r->here_root.check) fputs("null", out);
        else {
            fprintf(out, "{\"layer\": \"%s\", \"check\": ", cp_layer_name(r->here_root.layer));
            cp_json_str(out, r->here_root.check);
            fputs(", \"status\": ", out);
            cp_json_str(out, cp_status_name(r->here_root.status));
            fputs(", \"summary\": ", out);
            cp_json_str(out, r->here_root.summary);
            fputc('}', out);
        }
    }
    fputs("}\n", out);
}
