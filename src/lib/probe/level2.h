/*
 * doctor --level 2's steps on one device (level2.c), run by the libcuda
 * probe inside its child, after cuInit and the level-1 queries.
 */
#ifndef CP_LEVEL2_H
#define CP_LEVEL2_H

#include "cuprobe/facts.h"
#include "dl/cuda_api.h"

/* Called as each step begins ("context", "memory", "compute", "streams",
 * "copy", then "done"), so the probe child can send it before a call that
 * may hang. */
typedef void (*cp_l2_step_fn)(int ordinal, const char *step, void *arg);

/* Retain device ordinal's primary context, read free and total memory,
 * fill and fma on fresh random data checked element by element against the
 * CPU twins, time a copy against cp_k_spin on two streams, time 64 MiB
 * pinned and pageable copies both ways; fill o (reset first).  A failed
 * step records its call, CUresult and error name and ends the run.
 * Releases the context.  step may be NULL. */
void cp_level2_device(const cp_cuda_api *api, int ordinal, cp_cuda_l2 *o, cp_l2_step_fn step, void *arg);

/* A fresh 32-bit seed from the clock and the pid, never 0: the random
 * data of level 2's steps and library runs. */
uint32_t cp_level2_seed(void);

#endif
