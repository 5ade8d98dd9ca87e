/* cuprobe explain output: text for people and JSON (see explain.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "cuprobe/explain.h"

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
    if (s->xid >= 0) fprintf(out, "  values:   XID %d on PCI %s\n", s->xid, s->pci[0] ? s->pci : "N/A");
    if (s->soname[0])
        fprintf(out, "  values:   missing %s (version %s)\n", s->soname, s->soname_version[0] ? s->soname_version : "N/A");
}

static void text_here(const cp_here *h, FILE *out)
{
    if (h->verdict == CP_HERE_NOT_ASKED) return;
    fprintf(out, "  here:     %s", cp_here_verdict_name(h->verdict));
    if (h->summary[0]) fprintf(out, ": %s", h->summary);
    fputc('\n', out);
    for (int k = 0; k < h->nfiles; k++)
        fprintf(out, "  library:  %s: %s (%s)\n", h->files[k].path, h->files[k].verdict, h->files[k].why);
}

/* Render for people; see explain.h. */
void cp_explain_render_text(const cp_explain_result *r, FILE *out, int color)
{
    const char *b = color ? "\033[1m" : "", *y = color ? "\033[33m" : "", *z = color ? "\033[0m" : "";
    if (!r || r->nsignals == 0) {
        fputs("no known signal in the text\n", out);
        return;
    }
    fprintf(out, "%d known signal%s in the text\n", r->nsignals, r->nsignals == 1 ? "" : "s");
    for (int i = 0; i < r->nsignals; i++) {
        const cp_explain_signal *s = &r->signals[i];
        fprintf(out, "\n%s[%s]%s %s%s%s  (line %ld", y, cp_layer_name(s->layer), z, b, s->code, z, s->first_line);
        if (s->count > 1) fprintf(out, ", %ld lines", s->count);
        fprintf(out, ")\n  cause:    %s\n  fix:      %s\n", s->cause, s->fix);
        if (s->check) fprintf(out, "  check:    cuprobe doctor (%s)\n", s->check);
        text_values(s, out);
        fprintf(out, "  evidence: %s\n", s->evidence);
        text_here(&s->here, out);
    }
}

/* Length of a valid UTF-8 sequence at s (at most n bytes), 0 when invalid. */
static int utf8_len(const unsigned char *s, size_t n)
{
    int len = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
    if (!len || (size_t)len > n) return 0;
    for (int k = 1; k < len; k++)
        if ((s[k] & 0xc0) != 0x80) return 0;
    return len;
}

/* A JSON string; invalid UTF-8 becomes U+FFFD so the output always parses. */
static void json_str(FILE *out, const char *s)
{
    if (!s) { fputs("null", out); return; }
    fputc('"', out);
    for (size_t i = 0, n = strlen(s); i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c < 0x20 || c == 0x7f) fprintf(out, "\\u%04x", c);
        else if (c < 0x80) fputc(c, out);
        else {
            int l = utf8_len((const unsigned char *)s + i, n - i);
            if (l) { fwrite(s + i, 1, (size_t)l, out); i += (size_t)l - 1; }
            else fputs("\\ufffd", out);
        }
    }
    fputc('"', out);
}

static void json_int(FILE *out, const char *key, int64_t v, int *first)
{
    if (v < 0) return;
    fprintf(out, "%s\"%s\": %lld", *first ? "" : ", ", key, (long long)v);
    *first = 0;
}

/* A string member; absent when v is NULL or empty. */
static void json_text(FILE *out, const char *key, const char *v, int *first)
{
    if (!v || !v[0]) return;
    fprintf(out, "%s\"%s\": ", *first ? "" : ", ", key);
    json_str(out, v);
    *first = 0;
}

static void json_values(const cp_explain_signal *s, FILE *out)
{
    int first = 1;
    fputs(", \"values\": {", out);
    json_int(out, "requested_bytes", s->requested_bytes, &first);
    json_int(out, "free_bytes", s->free_bytes, &first);
    json_int(out, "total_bytes", s->total_bytes, &first);
    json_int(out, "gpu", s->gpu, &first);
    json_int(out, "xid", s->xid, &first);
    json_text(out, "pci", s->pci, &first);
    json_text(out, "soname", s->soname, &first);
    json_text(out, "version", s->soname_version, &first);
    json_text(out, "error_enum", s->error_enum, &first);
    if (s->error_enum) json_int(out, "error_number", s->error_number, &first);
    fputc('}', out);
}

static void json_here(const cp_here *h, FILE *out)
{
    if (h->verdict == CP_HERE_NOT_ASKED) return;
    static const char *const words[] = { "", "confirmed", "not_seen", "unknown", "no_check" };
    fprintf(out, ", \"here\": {\"verdict\": \"%s\", \"check_status\": ", words[h->verdict]);
    json_str(out, h->status);
    fputs(", \"summary\": ", out);
    json_str(out, h->summary);
    fputs(", \"libraries\": [", out);
    for (int k = 0; k < h->nfiles; k++) {
        fputs(k ? ", {\"path\": " : "{\"path\": ", out);
        json_str(out, h->files[k].path);
        fputs(", \"verdict\": ", out);
        json_str(out, h->files[k].verdict);
        fputs(", \"why\": ", out);
        json_str(out, h->files[k].why);
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
        json_str(out, s->code);
        fputs(", \"cause\": ", out);
        json_str(out, s->cause);
        fputs(", \"fix\": ", out);
        json_str(out, s->fix);
        fputs(", \"check\": ", out);
        json_str(out, s->check);
        fputs(", \"evidence\": ", out);
        json_str(out, s->evidence);
        fprintf(out, ", \"count\": %ld, \"first_line\": %ld", s->count, s->first_line);
        json_values(s, out);
        json_here(&s->here, out);
        fputc('}', out);
    }
    fputs(r && r->nsignals ? "\n]}\n" : "]}\n", out);
}
