/*
 * cuprobe findings, diagnosis and rendering.
 *
 * A check reads facts and yields one finding; the diagnosis picks the root
 * cause (the first failure of the lowest failing layer, else the first
 * warning of the lowest warning layer) and marks every layer above a failing
 * root cause as blocked.
 */
#ifndef CUPROBE_REPORT_H
#define CUPROBE_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "cuprobe/facts.h"

/* The stack, bottom up.  Names are part of the JSON schema. */
typedef enum {
    CP_LAYER_HARDWARE, CP_LAYER_KERNEL, CP_LAYER_SYSTEM, CP_LAYER_DRIVER,
    CP_LAYER_RUNTIME, CP_LAYER_LIBRARIES, CP_LAYER_FRAMEWORK, CP_LAYER_APPLICATION,
    CP_LAYER_COUNT
} cp_layer;

typedef enum { CP_PASS, CP_WARN, CP_FAIL, CP_SKIP, CP_BLOCKED } cp_status;

typedef struct {
    const char *check;        /* "kernel.nvidia_module" (static storage) */
    const char *title;        /* "nvidia kernel module" */
    cp_layer layer;
    cp_status status;         /* pass, warn, fail or skip */
    bool headline;            /* this check sums up its layer when the layer passes */
    char summary[256];        /* one line, for people */
    char evidence[1536];      /* lines separated by '\n': paths, versions, numbers */
    char fix[512];            /* for warn and fail: what to do; "" otherwise */
} cp_finding;

typedef struct {
    cp_finding *findings;     /* owned; cp_report_free releases */
    int nfindings;
    int level;
    cp_status layer_status[CP_LAYER_COUNT];
    int layer_summary[CP_LAYER_COUNT];   /* index of the finding that speaks for the layer, -1 */
    int root;                 /* index of the root-cause finding, -1 when healthy */
} cp_report;

/* Exit codes of `cuprobe doctor`, documented in docs/cuprobe.1. */
enum {
    CP_EXIT_HEALTHY = 0,      /* every check passed or was skipped */
    CP_EXIT_WARN = 1,         /* warnings, no failure */
    CP_EXIT_FAIL = 2,         /* at least one failure: see root_cause */
    CP_EXIT_ERROR = 3,        /* cuprobe could not do its job (bad snapshot, I/O error) */
    CP_EXIT_USAGE = 64        /* bad command line */
};

/* Run every check of `level` (1 = no GPU work) over the facts and diagnose.
 * Returns 0, or -1 when out of memory. */
int cp_doctor(const cp_facts *f, int level, cp_report *out);

/* One doctor check as a user sees it; the list is docs/checks.md. */
typedef struct {
    const char *id;           /* "kernel.nvidia_module": stable, part of the JSON output */
    const char *title;        /* "nvidia kernel module" */
    cp_layer layer;
    const char *meaning;      /* one line: what it looks at, when it warns or fails */
} cp_check_info;

/* The checks cp_doctor runs, in diagnosis order (bottom layer first), ending
 * with a row whose id is NULL.  Static storage; never fails. */
const cp_check_info *cp_check_list(void);

/* Free what cp_doctor allocated; the report may be reused. */
void cp_report_free(cp_report *r);

/* CP_EXIT_HEALTHY, CP_EXIT_WARN or CP_EXIT_FAIL for a report. */
int cp_report_exit_code(const cp_report *r);

/* "hardware"..."application"; "pass", "warn", "fail", "skip", "blocked". */
const char *cp_layer_name(cp_layer l);
const char *cp_status_name(cp_status s);

/* The stack picture, the root cause and the findings, for people.  color:
 * use ANSI colours; verbose: evidence of passing checks too. */
void cp_render_text(const cp_report *r, const cp_facts *f, FILE *out, int color, int verbose);

/* Write s to out as text safe for a terminal: control bytes, C1 controls
 * and broken UTF-8 escaped, newlines kept (the library's one rule, util/
 * text.h).  The tool prints every value it did not write itself (a path in
 * an error message, a word of the command line) through it. */
void cp_text_put(FILE *out, const char *s);

/* The report as JSON (schema in docs/doctor.schema.json, version
 * CP_JSON_SCHEMA_VERSION). */
#define CP_JSON_SCHEMA_VERSION 1
void cp_render_json(const cp_report *r, const cp_facts *f, FILE *out);

#endif
