/* The doctor report as JSON (schema: docs/doctor.schema.json). */
#include <stdio.h>
#include <string.h>
#include "cuprobe/cuprobe.h"

static void jstr(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", out);
        else if (*p == '\t') fputs("\\t", out);
        else if (*p < 0x20 || *p == 0x7f) fprintf(out, "\\u%04x", *p);
        else if (*p >= 0x80) {
            /* keep valid UTF-8 sequences whole, replace stray bytes */
            int n = (*p & 0xe0) == 0xc0 ? 1 : (*p & 0xf0) == 0xe0 ? 2 : (*p & 0xf8) == 0xf0 ? 3 : -1;
            int ok = n > 0;
            for (int k = 1; ok && k <= n; k++) ok = (p[k] & 0xc0) == 0x80;
            if (ok) { fwrite(p, 1, (size_t)n + 1, out); p += n; }
            else fputs("\\ufffd", out);
        } else fputc(*p, out);
    }
    fputc('"', out);
}

static void jnum(FILE *out, int64_t v)
{
    if (CP_KNOWN(v)) fprintf(out, "%lld", (long long)v);
    else fputs("null", out);
}

static void jstr_or_null(FILE *out, const char *s)
{
    if (s && *s) jstr(out, s);
    else fputs("null", out);
}

static void put_evidence(FILE *out, const char *ev)
{
    fputc('[', out);
    const char *p = ev;
    int first = 1;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[1600];
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        fputs(first ? "" : ", ", out);
        jstr(out, line);
        first = 0;
        p += n + (nl ? 1 : 0);
    }
    fputc(']', out);
}

static void put_devices(FILE *out, const cp_facts *f)
{
    fputs("  \"devices\": [", out);
    for (int i = 0; i < f->cuda.ndev; i++) {
        const cp_cuda_device *d = &f->cuda.dev[i];
        fprintf(out, "%s\n    {\"cuda_ordinal\": %d, \"name\": ", i ? "," : "", i);
        jstr(out, d->name);
        fputs(", \"pci_bus_id\": ", out);
        jstr_or_null(out, d->pci_bus_id);
        fputs(", \"uuid\": ", out);
        jstr_or_null(out, d->uuid);
        fputs(", \"cc_major\": ", out);
        jnum(out, d->cc_major);
        fputs(", \"cc_minor\": ", out);
        jnum(out, d->cc_minor);
        fputs(", \"mem_total_bytes\": ", out);
        jnum(out, d->total_mem_bytes);
        fputs(", \"sm_count\": ", out);
        jnum(out, d->sm_count);
        fputc('}', out);
    }
    fputs(f->cuda.ndev ? "\n  ],\n" : "],\n", out);
}

static void put_versions(FILE *out, const cp_facts *f)
{
    fputs("  \"versions\": {\"kernel_module\": ", out);
    jstr_or_null(out, f->host.procfs.version);
    fputs(", \"libcuda\": ", out);
    jstr_or_null(out, f->cuda.lib.version_from_path);
    fputs(", \"libcuda_path\": ", out);
    jstr_or_null(out, f->cuda.lib.path);
    fputs(", \"nvml_driver\": ", out);
    jstr_or_null(out, f->nvml.driver_version);
    fputs(", \"cuda_driver\": ", out);
    jnum(out, f->cuda.driver_version);
    fputs(", \"toolkits\": [", out);
    for (int i = 0; i < f->runtime.ntk; i++) {
        fprintf(out, "%s{\"path\": ", i ? ", " : "");
        jstr(out, f->runtime.tk[i].path);
        fputs(", \"version\": ", out);
        jstr_or_null(out, f->runtime.tk[i].version);
        fputc('}', out);
    }
    fputs("]},\n", out);
}

static void put_libraries(FILE *out, const cp_facts *f)
{
    fputs("  \"libraries\": [", out);
    for (int i = 0; i < f->libraries.nlib; i++) {
        const cp_library *l = &f->libraries.lib[i];
        fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
        jstr(out, l->name);
        fputs(", \"soname\": ", out);
        jstr(out, l->soname);
        fputs(", \"path\": ", out);
        jstr(out, l->path);
        fputs(", \"found_by\": ", out);
        jstr(out, l->found_by);
        fputs(", \"version\": ", out);
        jstr_or_null(out, l->version);
        fputs(", \"cuda_major\": ", out);
        jnum(out, l->cuda_major);
        fprintf(out, ", \"would_load\": %s}", l->would_load ? "true" : "false");
    }
    fputs(f->libraries.nlib ? "\n  ],\n" : "],\n", out);
}

static void put_frameworks(FILE *out, const cp_facts *f)
{
    fputs("  \"frameworks\": [", out);
    for (int i = 0; i < f->frameworks.nfw; i++) {
        const cp_framework *x = &f->frameworks.fw[i];
        fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
        jstr(out, x->name);
        fputs(", \"version\": ", out);
        jstr_or_null(out, x->version);
        fputs(", \"package_dir\": ", out);
        jstr_or_null(out, x->package_dir);
        fputs(", \"cuda_version\": ", out);
        jstr_or_null(out, x->cuda_version);
        fputs(", \"gpu_lib\": ", out);
        jstr_or_null(out, x->gpu_lib);
        fputs(", \"codes\": [", out);
        for (int c = 0; c < x->ncodes && c < CP_MAX_FW_CODES; c++) {
            fputs(c ? ", " : "", out);
            jstr(out, x->codes[c]);
        }
        fputs("], \"problem\": ", out);
        jstr_or_null(out, x->problem);
        fputc('}', out);
    }
    fputs(f->frameworks.nfw ? "\n  ],\n" : "],\n", out);
}

/* Render the report as JSON; see report.h. */
void cp_render_json(const cp_report *r, const cp_facts *f, FILE *out)
{
    fprintf(out, "{\n  \"schema_version\": %d,\n  \"tool\": {\"name\": \"cuprobe\", \"version\": ", CP_JSON_SCHEMA_VERSION);
    jstr(out, cp_version());
    fprintf(out, "},\n  \"command\": \"doctor\",\n  \"level\": %d,\n  \"origin\": ", r->level);
    jstr(out, f->origin);
    fputs(",\n  \"captured_at\": ", out);
    jstr_or_null(out, f->captured_at);
    fprintf(out, ",\n  \"exit_code\": %d,\n  \"healthy\": %s,\n", cp_report_exit_code(r), r->root < 0 ? "true" : "false");
    fputs("  \"layers\": [\n", out);
    for (int l = 0; l < CP_LAYER_COUNT; l++) {
        int idx = r->layer_summary[l];
        fprintf(out, "    {\"name\": \"%s\", \"status\": \"%s\", \"summary\": ", cp_layer_name((cp_layer)l),
                cp_status_name(r->layer_status[l]));
        jstr_or_null(out, idx >= 0 ? r->findings[idx].summary : NULL);
        fprintf(out, "}%s\n", l + 1 < CP_LAYER_COUNT ? "," : "");
    }
    fputs("  ],\n  \"findings\": [\n", out);
    for (int i = 0; i < r->nfindings; i++) {
        const cp_finding *x = &r->findings[i];
        fprintf(out, "    {\"check\": \"%s\", \"layer\": \"%s\", \"status\": \"%s\", \"summary\": ", x->check,
                cp_layer_name(x->layer), cp_status_name(x->status));
        jstr(out, x->summary);
        fputs(", \"evidence\": ", out);
        put_evidence(out, x->evidence);
        fputs(", \"fix\": ", out);
        jstr_or_null(out, x->fix);
        fprintf(out, "}%s\n", i + 1 < r->nfindings ? "," : "");
    }
    fputs("  ],\n", out);
    put_devices(out, f);
    put_versions(out, f);
    put_libraries(out, f);
    put_frameworks(out, f);
    fputs("  \"root_cause\": ", out);
    if (r->root < 0) fputs("null\n", out);
    else {
        const cp_finding *x = &r->findings[r->root];
        fprintf(out, "{\"layer\": \"%s\", \"check\": \"%s\", \"status\": \"%s\", \"summary\": ", cp_layer_name(x->layer),
                x->check, cp_status_name(x->status));
        jstr(out, x->summary);
        fputs(", \"fix\": ", out);
        jstr(out, x->fix);
        fputs(", \"blocks\": [", out);
        int first = 1;
        for (int l = 0; l < CP_LAYER_COUNT; l++)
            if (r->layer_status[l] == CP_BLOCKED) { fprintf(out, "%s\"%s\"", first ? "" : ", ", cp_layer_name((cp_layer)l)); first = 0; }
        fputs("]}\n", out);
    }
    fputs("}\n", out);
}
