/*
 * Version numbers as people read them: the one formatter for each scheme.
 */
#ifndef CP_UTIL_VERSION_H
#define CP_UTIL_VERSION_H

#include <stddef.h>
#include <stdint.h>

/* A CUDA version integer (1000*major + 10*minor: cuDriverGetVersion,
 * CUDA_VERSION, NVML's CUDA version) as "13.0".  INT64_MIN (CP_UNKNOWN) and
 * negative values give "N/A".  Returns buf ("" is written for cap 0). */
const char *cp_cuda_version_str(int64_t v, char *buf, size_t cap);

/* A library version integer of the form major*10000 + minor*100 + patch
 * (cuBLAS, cuDNN 9, NCCL 2.x) as "13.1.0"; 0, negative or unknown values
 * give "".  Returns buf. */
const char *cp_mmp_version_str(int64_t v, char *buf, size_t cap);

#endif
