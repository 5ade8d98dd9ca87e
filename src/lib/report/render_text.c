/* The doctor report for people: a picture of the stack, then the findings. */
#include <stdio.h>
#include <string.h>
#include "cuprobe/cuprobe.h"
#include "util/text.h"

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_DIM "\033[2m"
#define C_RED "\033[31m"
#define C_GREEN "\033[32m"
#define C_YELLOW "\033[33m"
#define C_MAGENTA "\033[35m"

static const char *status_color(cp_status s)
{
    switch (s) {
    case CP_PASS: return C_GREEN;
    case CP_WARN: return C_YELLOW;
    case CP_FAIL: return C_RED;
    case CP_BLOCKED: return C_MAGENTA;
    default: return C_DIM;
    }
}

static const char *status_word(cp_status s)
{
    switch (s) {
    case CP_PASS: return "ok";
    case CP_WARN: return "WARN";
    case CP_FAIL: return "FAIL";
    case CP_BLOCKED: return "blocked";
    default: return "skip";
    }
}

static void put_status(FILE *out, cp_status s, int color, int width)
{
    if (color) fprintf(out, "%s%-*s%s", status_color(s), width, status_word(s), C_RESET);
    else fprintf(out, "%-*s", width, status_word(s));
}

/* Print each line of text after `indent`, as safe text. */
static void put_lines(FILE *out, const char *text, const char *indent)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        fputs(indent, out);
        cp_text_put_n(out, p, n, 0);
        fputc('\n', out);
        p += n + (nl ? 1 : 0);
    }
}

static void put_stack(const cp_report *r, FILE *out, int color)
{
    int root_layer = r->root >= 0 ? (int)r->findings[r->root].layer : -1;
    for (int l = CP_LAYER_COUNT - 1; l >= 0; l--) {
        cp_status s = r->layer_status[l];
        int idx = r->layer_summary[l];
        fprintf(out, "  %-12s ", cp_layer_name((cp_layer)l));
        put_status(out, s, color, 8);
        if (s == CP_BLOCKED) fprintf(out, "by %s\n", cp_layer_name((cp_layer)root_layer));
        else {
            cp_text_put_line(out, idx >= 0 ? r->findings[idx].summary : "");
            fprintf(out, "%s\n", l == root_layer ? (color ? C_BOLD "   <- root cause" C_RESET : "   <- root cause") : "");
        }
    }
}

/* Render the report for people; see report.h. */
void cp_render_text(const cp_report *r, const cp_facts *f, FILE *out, int color, int verbose)
{
    fprintf(out, "%scuprobe %s%s  doctor, level %d, %s", color ? C_BOLD : "", cp_version(),
            color ? C_RESET : "", r->level, strcmp(f->origin, "live") == 0 ? "this machine" : "snapshot ");
    if (strcmp(f->origin, "live") != 0) cp_text_put_line(out, f->origin);
    fputs("\n\n", out);
    put_stack(r, out, color);
    fputc('\n', out);
    if (r->root >= 0) {
        const cp_finding *x = &r->findings[r->root];
        fprintf(out, "%sroot cause%s: %s: ", color ? C_BOLD : "", color ? C_RESET : "", cp_layer_name(x->layer));
        cp_text_put_line(out, x->summary);
        fputs("\n  fix: ", out);
        cp_text_put_line(out, x->fix);
        fputs("\n\n", out);
    } else {
        fprintf(out, "%shealthy%s: every layer examined works\n\n", color ? C_BOLD C_GREEN : "", color ? C_RESET : "");
    }
    fprintf(out, "findings\n");
    for (int l = 0; l < CP_LAYER_COUNT; l++)
        for (int i = 0; i < r->nfindings; i++) {
            const cp_finding *x = &r->findings[i];
            if ((int)x->layer != l) continue;
            fprintf(out, "  ");
            put_status(out, x->status, color, 5);
            fprintf(out, "%-24s ", x->check);
            cp_text_put_line(out, x->summary);
            fputc('\n', out);
            int detail = verbose || x->status == CP_WARN || x->status == CP_FAIL;
            if (detail && x->evidence[0]) put_lines(out, x->evidence, "         | ");
            if ((x->status == CP_WARN || x->status == CP_FAIL) && i != r->root) {
                fputs("         fix: ", out);
                cp_text_put_line(out, x->fix);
                fputc('\n', out);
            }
        }
}
