/* cuprobe explain output: text for people and JSON (see explain.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "cuprobe/explain.h"
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
    for (int i = 0; i < r->nsignals; i++) {
        const cp_explain_signal *s = &r->signals[i];
        if (s->alternative && (i == 0 || !r->signals[i - 1].alternative))
            fputs("\nor, where the text does not say which (the other common reading of a line above):\n", out);
        fprintf(out, "\n%s[%s]%s %s", y, cp_layer_name(s->layer), z, b);
        cp_text_put_line(out, s->code);
        fprintf(out, "%s  (line %ld", z, s->first_line);
        if (s->count > 1) fprintf(out, ", %ld lines", s->count);
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
    fputs(r && r->nsignals ? "\n]}\n" : "]}\n", out);
}
