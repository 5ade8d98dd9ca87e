/*
 * What a check is and the helpers checks share.  A check reads facts and
 * fills exactly one finding; it never prints and never touches the machine.
 * Its needs are declared in its row (checks.def) and checked once by the
 * runner, which turns an unmet need into a skip with its reason.
 */
#ifndef CP_CHECK_H
#define CP_CHECK_H

#include "cuprobe/facts.h"
#include "cuprobe/report.h"
#include "util/num.h"
#include "util/version.h"

enum {
    NEED_GPU_ON_BUS = 1 << 0,   /* an NVIDIA GPU on the PCI bus */
    NEED_CUDA_INIT = 1 << 1,    /* cuInit succeeded */
    NEED_NVML = 1 << 2,         /* nvmlInit_v2 succeeded */
    NEED_LEVEL2 = 1 << 3,       /* doctor --level 2 (GPU work) */
    HEADLINE = 1 << 8           /* not a need: this check sums up its layer when all pass */
};

typedef void (*cp_check_fn)(const cp_facts *f, cp_finding *out);

typedef struct {
    const char *id;             /* "layer.name", stable: part of the JSON output */
    const char *title;
    cp_layer layer;
    unsigned needs;
    cp_check_fn fn;
} cp_check;

/* The table, NULL-terminated, in diagnosis order (checks.c, from checks.def). */
extern const cp_check cp_checks[];

/* Set status and summary.  printf-style; truncated to fit. */
void cp_set(cp_finding *o, cp_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Add one line of evidence. */
void cp_evidence(cp_finding *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Set the fix (warn and fail must have one). */
void cp_fix(cp_finding *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Wording helpers shared by checks. */
const char *cp_probe_state_words(cp_probe_state s);
/* "143771 MiB" style. */
const char *cp_mib(int64_t bytes, char *buf, int cap);

/* Every number a check prints goes through cp_num, cp_mode or cp_cc
 * (util/num.h): an unknown value reads "N/A". */

/* Per-layer XID check: reports kernel-log XIDs whose table layer is the
 * finding's layer (the runner sets out->layer before calling). */
void cp_check_xid(const cp_facts *f, cp_finding *out);

/* The checks, one per row of checks.def (which says how to add one); each
 * in the file of its layer.  A function named by several rows (cp_check_xid)
 * is declared once per row, which C allows. */
#define CP_CHECK(id, title, layer, needs, fn, meaning) void fn(const cp_facts *, cp_finding *);
#include "checks.def"
#undef CP_CHECK

#endif
