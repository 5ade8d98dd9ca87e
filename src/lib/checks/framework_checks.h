/*
 * Helpers of the framework layer's checks (framework.c) that tests call;
 * the checks themselves are rows of checks.def, which declares them.
 */
#ifndef CP_FRAMEWORK_CHECKS_H
#define CP_FRAMEWORK_CHECKS_H

/* Parse a code name as cp_code_name writes it: "sm_90" -> SASS 90,
 * "sm_90a" -> variant 'a', "compute_120f" -> PTX 120 'f'.  Fills *is_ptx,
 * *sm and *variant (0, 'a' or 'f').  Returns 0, or -1 for anything else
 * (then the outputs are untouched). */
int cp_fw_parse_code(const char *name, int *is_ptx, int *sm, char *variant);

#endif
