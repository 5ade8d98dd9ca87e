/* The doctor report as JSON (schema: docs/doctor.schema.json). */
#include <stdio.h>
#include <string.h>
#include "cuprobe/cuprobe.h"
#include "util/json.h"

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
        cp_json_str(out, line);
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
        cp_json_str(out, d->name);
        fputs(", \"pci_bus_id\": ", out);
        cp_json_str_or_null(out, d->pci_bus_id);
        fputs(", \"uuid\": ", out);
        cp_json_str_or_null(out, d->uuid);
        fputs(", \"cc_major\": ", out);
        cp_json_i64(out, d->cc_major);
        fputs(", \"cc_minor\": ", out);
        cp_json_i64(out, d->cc_minor);
        fputs(", \"mem_total_bytes\": ", out);
        cp_json_i64(out, d->total_mem_bytes);
        fputs(", \"sm_count\": ", out);
        cp_json_i64(out, d->sm_count);
        fputc('}', out);
    }
    fputs(f->cuda.ndev ? "\n  ],\n" : "],\n", out);
}

static void put_versions(FILE *out, const cp_facts *f)
{
    fputs("  \"versions\": {\"kernel_module\": ", out);
    cp_json_str_or_null(out, f->host.procfs.version);
    fputs(", \"libcuda\": ", out);
    cp_json_str_or_null(out, f->cuda.lib.version_from_path);
    fputs(", \"libcuda_path\": ", out);
    cp_json_str_or_null(out, f->cuda.lib.path);
    fputs(", \"nvml_driver\": ", out);
    cp_json_str_or_null(out, f->nvml.driver_version);
    fputs(", \"cuda_driver\": ", out);
    cp_json_i64(out, f->cuda.driver_version);
    fputs(", \"toolkits\": [", out);
    for (int i = 0; i < f->runtime.ntk; i++) {
        fprintf(out, "%s{\"path\": ", i ? ", " : "");
        cp_json_str(out, f->runtime.tk[i].path);
        fputs(", \"version\": ", out);
        cp_json_str_or_null(out, f->runtime.tk[i].version);
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
        cp_json_str(out, l->name);
        fputs(", \"soname\": ", out);
        cp_json_str(out, l->soname);
        fputs(", \"path\": ", out);
        cp_json_str(out, l->path);
        fputs(", \"found_by\": ", out);
        cp_json_str(out, l->found_by);
        fputs(", \"version\": ", out);
        cp_json_str_or_null(out, l->version);
        fputs(", \"cuda_major\": ", out);
        cp_json_i64(out, l->cuda_major);
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
        cp_json_str(out, x->name);
        fputs(", \"version\": ", out);
        cp_json_str_or_null(out, x->version);
        fputs(", \"package_dir\": ", out);
        cp_json_str_or_null(out, x->package_dir);
        fputs(", \"cuda_version\": ", out);
        cp_json_str_or_null(out, x->cuda_version);
        fputs(", \"gpu_lib\": ", out);
        cp_json_str_or_null(out, x->gpu_lib);
        fputs(", \"codes\": [", out);
        for (int c = 0; c < x->ncodes && c < CP_MAX_FW_CODES; c++) {
            fputs(c ? ", " : "", out);
            cp_json_str(out, x->codes[c]);
        }
        fputs("], \"problem\": ", out);
        cp_json_str_or_null(out, x->problem);
        fputc('}', out);
    }
    fputs(f->frameworks.nfw ? "\n  ],\n" : "],\n", out);
}

/* Render the report as JSON; see report.h. */
void cp_render_json(const cp_report *r, const cp_facts *f, FILE *out)
{
    fprintf(out, "{\n  \"schema_version\": %d,\n  \"tool\": {\"name\": \"cuprobe\", \"version\": ", CP_JSON_SCHEMA_VERSION);
    cp_json_str(out, cp_version());
    fprintf(out, "},\n  \"command\": \"doctor\",\n  \"level\": %d,\n  \"origin\": ", r->level);
    cp_json_str(out, f->origin);
    fputs(",\n  \"captured_at\": ", out);
    cp_json_str_or_null(out, f->captured_at);
    fprintf(out, ",\n  \"exit_code\": %d,\n  \"healthy\": %s,\n", cp_report_exit_code(r), r->root < 0 ? "true" : "false");
    fputs("  \"layers\": [\n", out);
    for (int l = 0; l < CP_LAYER_COUNT; l++) {
        int idx = r->layer_summary[l];
        fprintf(out, "    {\"name\": \"%s\", \"status\": \"%s\", \"summary\": ", cp_layer_name((cp_layer)l),
                cp_status_name(r->layer_status[l]));
        cp_json_str_or_null(out, idx >= 0 ? r->findings[idx].summary : NULL);
        fprintf(out, "}%s\n", l + 1 < CP_LAYER_COUNT ? "," : "");
    }
    fputs("  ],\n  \"findings\": [\n", out);
    for (int i = 0; i < r->nfindings; i++) {
        const cp_finding *x = &r->findings[i];
        fprintf(out, "    {\"check\": \"%s\", \"layer\": \"%s\", \"status\": \"%s\", \"summary\": ", x->check,
                cp_layer_name(x->layer), cp_status_name(x->status));
        cp_json_str(out, x->summary);
        fputs(", \"evidence\": ", out);
        put_evidence(out, x->evidence);
        fputs(", \"fix\": ", out);
        cp_json_str_or_null(out, x->fix);
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
        cp_json_str(out, x->summary);
        fputs(", \"fix\": ", out);
        cp_json_str(out, x->fix);
        fputs(", \"blocks\": [", out);
        int first = 1;
        for (int l = 0; l < CP_LAYER_COUNT; l++)
            if (r->layer_status[l] == CP_BLOCKED) { fprintf(out, "%s\"%s\"", first ? "" : ", ", cp_layer_name((cp_layer)l)); first = 0; }
        fputs("]}\n", out);
    }
    fputs("}\n", out);
}
