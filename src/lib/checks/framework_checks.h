/*
 * Framework layer checks (framework.c): PyTorch, JAX, CuPy and TensorFlow
 * against the driver and the GPUs.  Rows in the table in checks.c:
 * framework.found, framework.cuda, framework.arch, framework.conflicts.
 */
#ifndef CP_FRAMEWORK_CHECKS_H
#define CP_FRAMEWORK_CHECKS_H

#include "cuprobe/facts.h"
#include "cuprobe/report.h"

/* Which frameworks are installed where; warns on broken installs. */
void cp_check_framework_found(const cp_facts *f, cp_finding *o);
/* Can the driver run the CUDA each framework was built for? */
void cp_check_framework_cuda(const cp_facts *f, cp_finding *o);
/* Does each framework carry GPU code every CUDA device can run? */
void cp_check_framework_arch(const cp_facts *f, cp_finding *o);
/* Do frameworks in one environment need different CUDA majors? */
void cp_check_framework_libs(const cp_facts *f, cp_finding *o);
void cp_check_framework_conflicts(const cp_facts *f, cp_finding *o);

/* Parse a code name as cp_code_name writes it: "sm_90" -> SASS 90,
 * "sm_90a" -> variant 'a', "compute_120f" -> PTX 120 'f'.  Fills *is_ptx,
 * *sm and *variant (0, 'a' or 'f').  Returns 0, or -1 for anything else
 * (then the outputs are untouched). */
int cp_fw_parse_code(const char *name, int *is_ptx, int *sm, char *variant);

#endif
