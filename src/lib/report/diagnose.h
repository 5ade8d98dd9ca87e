/*
 * The diagnosis over a report's findings (diagnose.c), called by the check
 * runner (checks/checks.c) once every check has filled its finding.
 */
#ifndef CP_REPORT_DIAGNOSE_H
#define CP_REPORT_DIAGNOSE_H

#include "cuprobe/report.h"

/* Fill r->layer_status, r->layer_summary and r->root from r->findings (in
 * diagnosis order, bottom layer first): a layer is spoken for by its worst
 * finding (a passing layer by its headline finding); the root cause is the
 * first failure of the lowest failing layer, else the first warning of the
 * lowest warning layer (-1 when healthy); every layer above a failing root
 * cause is CP_BLOCKED.  Cannot fail. */
void cp_diagnose(cp_report *r);

#endif
