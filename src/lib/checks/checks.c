/*
 * The check table and the runner.  The rows come from checks.def, the one
 * list of checks (it says how to add one); the diagnosis that follows the
 * run is report/diagnose.c.
 */
#include <stdlib.h>
#include <string.h>
#include "util/alloc.h"
#include "report/diagnose.h"
#include "check.h"

const cp_check cp_checks[] = {
#define CP_CHECK(id, title, layer, needs, fn, meaning) { id, title, CP_LAYER_##layer, needs, fn },
#include "checks.def"
#undef CP_CHECK
    { NULL, NULL, CP_LAYER_HARDWARE, 0, NULL }
};

static const cp_check_info check_info[] = {
#define CP_CHECK(id, title, layer, needs, fn, meaning) { id, title, CP_LAYER_##layer, meaning },
#include "checks.def"
#undef CP_CHECK
    { NULL, NULL, CP_LAYER_HARDWARE, NULL }
};

/* The checks as users see them; see report.h. */
const cp_check_info *cp_check_list(void)
{
    return check_info;
}

/* An unmet need becomes a skip with this reason; NULL when all are met. */
static const char *unmet(const cp_facts *f, unsigned needs)
{
    if ((needs & NEED_GPU_ON_BUS) && cp_gpus_on_bus(f) == 0 && f->host.procfs.ngpus == 0)
        return "no NVIDIA GPU on the PCI bus";
    if ((needs & NEED_NVML) && !cp_nvml_ok(f)) return "NVML did not initialise (see driver.nvml)";
    if ((needs & NEED_CUDA_INIT) && !cp_cuda_ok(f)) return "cuInit did not succeed (see driver.cuinit)";
    return NULL;
}

/* Run the checks and diagnose; see report.h. */
int cp_doctor(const cp_facts *f, int level, cp_report *r)
{
    int n = 0;
    while (cp_checks[n].id) n++;
    memset(r, 0, sizeof *r);
    r->findings = cp_calloc((size_t)n, sizeof *r->findings);
    if (!r->findings) return -1;
    r->level = level;
    for (int i = 0; i < n; i++) {
        const cp_check *c = &cp_checks[i];
        /* a level-2 check is not part of a level-1 report at all (not even
         * as a skip): level 1's output stays what it was */
        if ((c->needs & NEED_LEVEL2) && level < 2) continue;
        cp_finding *o = &r->findings[r->nfindings++];
        o->check = c->id;
        o->title = c->title;
        o->layer = c->layer;
        o->headline = (c->needs & HEADLINE) != 0;
        const char *why = unmet(f, c->needs);
        if (why) { cp_set(o, CP_SKIP, "%s", why); continue; }
        c->fn(f, o);
        if ((o->status == CP_WARN || o->status == CP_FAIL) && !o->fix[0])
            cp_fix(o, "see the evidence");   /* never leave a person without a next step */
    }
    cp_diagnose(r);
    return 0;
}
