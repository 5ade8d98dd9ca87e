/* The diagnosis: which finding speaks for each layer, the root cause, what it
 * blocks; and the exit code of a report (report.h, diagnose.h). */
#include <stdlib.h>
#include <string.h>
#include "diagnose.h"

static int severity(cp_status s)
{
    switch (s) {
    case CP_FAIL: return 3;
    case CP_WARN: return 2;
    case CP_PASS: return 1;
    default: return 0;
    }
}

/* Diagnose a report's findings; see diagnose.h. */
void cp_diagnose(cp_report *r)
{
    /* a passing layer is summed up by its headline check, not by whichever passed first */
    r->root = -1;
    for (int l = 0; l < CP_LAYER_COUNT; l++) { r->layer_status[l] = CP_SKIP; r->layer_summary[l] = -1; }
    for (int i = 0; i < r->nfindings; i++) {
        const cp_finding *x = &r->findings[i];
        int l = x->layer, cur = r->layer_summary[l];
        int better = cur < 0 || severity(x->status) > severity(r->findings[cur].status) ||
                     (x->status == CP_PASS && r->findings[cur].status == CP_PASS && x->headline
                      && !r->findings[cur].headline);
        if (better) {
            r->layer_summary[l] = i;
            r->layer_status[l] = x->status;
        }
    }
    for (int want = CP_FAIL; want >= CP_WARN && r->root < 0; want--)
        for (int l = 0; l < CP_LAYER_COUNT && r->root < 0; l++)
            if (r->layer_status[l] == (cp_status)want) r->root = r->layer_summary[l];
    if (r->root >= 0 && r->findings[r->root].status == CP_FAIL)
        for (int l = r->findings[r->root].layer + 1; l < CP_LAYER_COUNT; l++) r->layer_status[l] = CP_BLOCKED;
}

/* Exit code of a report; see report.h. */
int cp_report_exit_code(const cp_report *r)
{
    if (r->root < 0) return CP_EXIT_HEALTHY;
    return r->findings[r->root].status == CP_FAIL ? CP_EXIT_FAIL : CP_EXIT_WARN;
}

/* Free a report's findings; see report.h. */
void cp_report_free(cp_report *r)
{
    free(r->findings);
    memset(r, 0, sizeof *r);
}
