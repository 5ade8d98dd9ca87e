/*
 * doctor --level 2's libraries: one tiny run of cuBLAS, cuFFT, cuDNN,
 * NVRTC and NCCL, each checked against a CPU reference (libs_l2.c).  It
 * runs in a probe child of its own, started beside the libcuda child, so
 * its cuInit and the libraries' loading overlap level 2's GPU steps.
 */
#ifndef CP_PROBE_LIBS_L2_H
#define CP_PROBE_LIBS_L2_H

#include <stdbool.h>
#include "cuprobe/facts.h"
#include "probe/deadline.h"

/* What the child is given (it is forked after the libraries layer's
 * discovery, so libs stays valid in it). */
typedef struct {
    const cp_libraries_facts *libs;   /* which copy of each library a program gets */
    bool use_paths;                   /* run that copy (the machine itself); else ask the
                                         dynamic loader for the soname (a replay) */
} cp_libs_l2_arg;

/* The probe child (a cp_probe_fn, arg a cp_libs_l2_arg): cuInit, the
 * primary context of device 0 through rt/, then each library in turn:
 * load, initialise, run on fresh random data with the output poisoned
 * first, compare with the CPU.  Writes the "libl2." block, each library's
 * step as it begins and its record as it ends, so a hang names the
 * library and the step; ends with "libl2.end ok".  Sets
 * NCCL_NVLS_ENABLE=0 in its own environment unless it is set. */
void cp_libs_l2_child(cp_probe_out *out, void *arg);

#endif
