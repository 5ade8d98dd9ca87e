/*
 * Probes that call into the NVIDIA libraries.  cp_*_probe_fill run in the
 * calling process and may hang inside the driver: the observe step runs them
 * in a child process under a deadline (deadline.c) and never calls them
 * directly.  They fill every field they can, never print, never exit.
 */
#ifndef CP_PROBE_H
#define CP_PROBE_H

#include "cuprobe/facts.h"

/* Load libcuda.so.1 (or $CUPROBE_LIBCUDA), cuInit(0), driver version, and
 * per-device name, CC, memory, PCI bus id, UUID, SMs, compute mode.  No
 * context is created.  out->run is left for the caller. */
void cp_cuda_probe_fill(cp_cuda_facts *out);

/* Load libnvidia-ml.so.1 (or $CUPROBE_LIBNVML), nvmlInit_v2, versions and the
 * per-device state listed in cp_nvml_device.  Calls nvmlShutdown at the end. */
void cp_nvml_probe_fill(cp_nvml_facts *out);

#endif
