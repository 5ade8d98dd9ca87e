/*
 * Libraries layer checks (libraries.c): the CUDA libraries a program could
 * load, against the driver and against each other.  Each reads facts only
 * and fills one finding, like every check (check.h).
 */
#ifndef CP_LIBRARIES_CHECKS_H
#define CP_LIBRARIES_CHECKS_H

#include "check.h"

/* Pass listing, per library, the copy the loader hands out (and wheel or
 * toolkit copies of libraries the loader does not know); skip when no copy
 * of any CUDA library was found. */
void cp_check_libraries_load(const cp_facts *f, cp_finding *o);
void cp_check_libraries_found(const cp_facts *f, cp_finding *o);

/* Fail for each copy built for a newer CUDA major than the driver supports;
 * skip when the driver's CUDA version or every copy's CUDA major is unknown. */
void cp_check_libraries_driver(const cp_facts *f, cp_finding *o);

/* Warn when the copy the loader hands out for a soname hides another copy
 * of a different version on the loader path or in the default toolkit, or
 * when an LD_LIBRARY_PATH copy overrides a wheel's copy (LD_LIBRARY_PATH
 * wins over a framework's RUNPATH); pass otherwise, skip with no library. */
void cp_check_libraries_shadow(const cp_facts *f, cp_finding *o);

#endif
