/*
 * The text and JSON of cp_arch_report (arch.h).  JSON goes through the one
 * writer (util/json.h), so a file name that is not UTF-8 still gives valid
 * JSON; its layout (no spaces, one file a line) is docs/arch.schema.json's
 * and is kept byte for byte.
 */
#include <stdio.h>
#include <string.h>
#include "cuprobe/report.h"
#include "fatbin/arch_int.h"
#include "util/json.h"
#include "util/text.h"
#include "util/version.h"

/* A file that runs only partly is judged by the modules that run: a library
 * that picks its kernels by GPU carries modules for other GPUs on purpose
 * (cuBLAS, cuDNN, NCCL all do), which is no warning; the coverage line says it. */
static int verdict_code(cp_run_verdict v, const cp_arch_cover *c)
{
    if (v == CP_RUN_PARTLY) return c->jit > 0 ? CP_EXIT_WARN : 0;
    return v == CP_RUN_PTX_JIT ? CP_EXIT_WARN : v == CP_RUN_CANNOT ? CP_EXIT_FAIL : 0;
}

/* One file against one target, for both renderers: the verdict, its
 * coverage and why, and the run's exit code made no better than it. */
static cp_run_verdict judge_target(cp_arch_run *r, const cp_arch_summary *s, const cp_arch_target *t,
                                   cp_arch_cover *c, char *why, size_t whycap)
{
    cp_run_verdict v = cp_arch_judge(s, t->major, t->minor, t->driver_cuda, c, why, whycap);
    cp_arch_worse(r, verdict_code(v, c));
    return v;
}

/* "sm_75 sm_80 x3" or "compute_120 (PTX 8.8)" lists for one kind. */
static void code_list(const cp_arch_summary *s, cp_code_kind kind, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->ncodes && n + 1 < cap; i++) {
        const cp_code *c = &s->codes[i];
        if (c->kind != kind) continue;
        char nm[32], isa[32] = "", cnt[32] = "";
        if (kind == CP_CODE_PTX) snprintf(isa, sizeof isa, " (PTX %d.%d)", c->ptx_major, c->ptx_minor);
        if (c->count > 1) snprintf(cnt, sizeof cnt, " x%lld", (long long)c->count);
        int w = snprintf(buf + n, cap - n, "%s%s%s%s", n ? " " : "", cp_code_name(c, nm, sizeof nm), isa, cnt);
        if (w < 0) break;
        n += (size_t)w < cap - n ? (size_t)w : cap - n - 1;
    }
    if (!n) snprintf(buf, cap, "none");
}

static void text_file(cp_arch_run *r, const char *path, const cp_arch_summary *s)
{
    FILE *out = r->out;
    char list[2048];
    int64_t zs = 0, zp = 0;
    for (int i = 0; i < s->ncodes; i++)
        *(s->codes[i].kind == CP_CODE_SASS ? &zs : &zp) += s->codes[i].compressed;
    cp_text_put(out, path);   /* a file name may hold any byte but '/' and NUL */
    if (s->format == CP_ARCH_CUBIN || s->format == CP_ARCH_PTX)
        fprintf(out, " (%s, 1 module)\n", s->format == CP_ARCH_CUBIN ? "cubin" : "PTX");
    else
        fprintf(out, " (%s%.0lld%s, %lld fatbin container%s, %lld entr%s)\n",
                s->format == CP_ARCH_ARCHIVE ? "archive, " : s->format == CP_ARCH_FATBIN ? "fatbin" : "ELF",
                s->format == CP_ARCH_ARCHIVE ? (long long)s->members : 0LL,
                s->format == CP_ARCH_ARCHIVE ? (s->members == 1 ? " member" : " members") : "",
                (long long)s->containers, s->containers == 1 ? "" : "s", (long long)s->entries,
                s->entries == 1 ? "y" : "ies");
    if (s->entries == 0) {
        fprintf(out, "  no GPU code\n");
        return;
    }
    code_list(s, CP_CODE_SASS, list, sizeof list);
    fprintf(out, "  SASS: %s\n", list);
    code_list(s, CP_CODE_PTX, list, sizeof list);
    fprintf(out, "  PTX:  %s\n", list);
    fprintf(out, "  compressed entries: %lld of %lld (SASS %lld, PTX %lld)\n", (long long)(zs + zp),
            (long long)s->entries, (long long)zs, (long long)zp);
    if (s->unknown_entries)
        fprintf(out, "  entries of unknown kind: %lld\n", (long long)s->unknown_entries);
    if (s->lto_entries)
        fprintf(out, "  LTO IR entries: %lld (linked at run time by nvJitLink, not run as is)\n",
                (long long)s->lto_entries);
    if (s->referenced)
        fprintf(out, "  containers outside the fatbin sections, found through relocations: %lld\n",
                (long long)s->referenced);
    for (int i = 0; i < r->o->ntargets; i++) {
        const cp_arch_target *t = &r->o->targets[i];
        char why[768];
        cp_arch_cover c;
        cp_run_verdict v = judge_target(r, s, t, &c, why, sizeof why);
        fprintf(out, "  on CC %d.%d (", t->major, t->minor);
        cp_text_put(out, t->label);   /* a GPU name, from the driver */
        fprintf(out, "): %s\n    %s\n", cp_run_verdict_name(v), why);
        if (c.total > 1)
            fprintf(out, "    modules: %lld of %lld run (%lld natively, %lld by PTX JIT), %lld cannot\n",
                    (long long)(c.native + c.jit), (long long)c.total, (long long)c.native,
                    (long long)c.jit, (long long)c.none);
    }
}

static void json_codes(FILE *out, const cp_arch_summary *s)
{
    fputs("\"codes\":[", out);
    for (int i = 0; i < s->ncodes; i++) {
        const cp_code *c = &s->codes[i];
        char nm[32], v[2] = { c->variant, 0 };
        fprintf(out, "%s{\"name\":", i ? "," : "");
        cp_json_str(out, cp_code_name(c, nm, sizeof nm));
        fprintf(out, ",\"kind\":\"%s\",\"sm\":%d,\"variant\":", c->kind == CP_CODE_SASS ? "sass" : "ptx", c->sm);
        cp_json_str_or_null(out, v);
        if (c->kind == CP_CODE_PTX) fprintf(out, ",\"ptx_isa\":\"%d.%d\"", c->ptx_major, c->ptx_minor);
        else fputs(",\"ptx_isa\":null", out);
        fprintf(out, ",\"count\":%lld,\"compressed\":%lld,\"bytes\":%lld}", (long long)c->count,
                (long long)c->compressed, (long long)c->bytes);
    }
    fputc(']', out);
}

static void json_file(cp_arch_run *r, const char *path, const cp_arch_summary *s, const char *err)
{
    FILE *out = r->out;
    fprintf(out, "%s\n{\"path\":", r->files_shown++ ? "," : "");
    cp_json_str(out, path);
    if (err) {
        fputs(",\"error\":", out);
        cp_json_str(out, err);
        fputc('}', out);
        return;
    }
    fprintf(out, ",\"format\":\"%s\",\"containers\":%lld,\"entries\":%lld,\"unknown_entries\":%lld,"
            "\"lto_entries\":%lld,\"referenced_containers\":%lld,",
            cp_arch_format_name(s->format), (long long)s->containers, (long long)s->entries,
            (long long)s->unknown_entries, (long long)s->lto_entries, (long long)s->referenced);
    json_codes(out, s);
    fputs(",\"verdicts\":[", out);
    for (int i = 0; i < r->o->ntargets; i++) {
        const cp_arch_target *t = &r->o->targets[i];
        char why[768];
        cp_arch_cover c;
        cp_run_verdict v = judge_target(r, s, t, &c, why, sizeof why);
        fprintf(out, "%s{\"target\":%d,\"verdict\":", i ? "," : "", i);
        cp_json_str(out, cp_run_verdict_name(v));
        fputs(",\"why\":", out);
        cp_json_str(out, why);
        fprintf(out, ",\"coverage\":{\"modules\":%lld,\"native\":%lld,\"ptx_jit\":%lld,\"none\":%lld}}",
                (long long)c.total, (long long)c.native, (long long)c.jit, (long long)c.none);
    }
    fputs("],\"error\":null}", out);
}

/* See arch_int.h. */
void cp_arch_render_file(cp_arch_run *r, const char *path, const cp_arch_summary *s, const char *err)
{
    if (r->o->json) json_file(r, path, s, err);
    else if (!err) text_file(r, path, s);
}

/* See arch_int.h. */
void cp_arch_render_begin(cp_arch_run *r)
{
    FILE *out = r->out;
    if (!r->o->json) return;
    fputs("{\"targets\":[", out);
    for (int i = 0; i < r->o->ntargets; i++) {
        const cp_arch_target *t = &r->o->targets[i];
        char v[32];
        fprintf(out, "%s{\"label\":", i ? "," : "");
        cp_json_str(out, t->label);
        fprintf(out, ",\"cc\":\"%d.%d\",\"driver_cuda\":", t->major, t->minor);
        cp_json_str(out, t->driver_cuda > 0 ? cp_cuda_version_str(t->driver_cuda, v, sizeof v) : NULL);
        fputc('}', out);
    }
    fputs("],\"files\":[", out);
}

/* "skipped 5 files (--json lists them):" and one line per reason with its count. */
static void text_skipped(cp_arch_run *r)
{
    FILE *out = r->out;
    if (!r->nskipped) return;
    fprintf(out, "skipped %zu file%s (--json lists them):\n", r->nskipped, r->nskipped == 1 ? "" : "s");
    for (size_t i = 0; i < r->nskipped; i++) {
        size_t n = 0, j = 0;
        while (j < i && strcmp(r->skipped[j].why, r->skipped[i].why) != 0) j++;
        if (j < i) continue;   /* this reason was counted at its first file */
        for (j = i; j < r->nskipped; j++)
            n += strcmp(r->skipped[j].why, r->skipped[i].why) == 0;
        fprintf(out, "  %zu: %s\n", n, r->skipped[i].why);
    }
}

/* See arch_int.h. */
void cp_arch_render_end(cp_arch_run *r)
{
    FILE *out = r->out;
    const char *note = r->o->ntargets > 0 ? NULL : "no GPU here: give --sm to judge";
    if (r->o->json) {
        fprintf(out, "\n],\"files_without_gpu_code\":%d,\"skipped\":[", r->no_code);
        for (size_t i = 0; i < r->nskipped; i++) {
            fprintf(out, "%s{\"path\":", i ? "," : "");
            cp_json_str(out, r->skipped[i].path);
            fputs(",\"why\":", out);
            cp_json_str(out, r->skipped[i].why);
            fputc('}', out);
        }
        fputs("],\"note\":", out);
        cp_json_str(out, note);
        fprintf(out, ",\"exit_code\":%d}\n", r->worst);
        return;
    }
    if (r->no_code)
        fprintf(out, "%d other ELF file%s carr%s no GPU code\n", r->no_code, r->no_code == 1 ? "" : "s",
                r->no_code == 1 ? "ies" : "y");
    text_skipped(r);
    if (note) fprintf(out, "%s\n", note);
}
