/*
 * Our own declarations of the CUDA Driver API types cuprobe uses, so the
 * tool builds with no CUDA header (DESIGN rule 3).  Layouts and sizes follow
 * the CUDA 13.0 cuda.h on x86-64 / aarch64 Linux (LP64); tests/unit/test_abi.c
 * compares them with the official header wherever one is installed.
 *
 * The official header makes CUresult and the attribute type enums; an enum
 * whose values are all non-negative is passed exactly like an int, so plain
 * ints are ABI-identical here.
 */
#ifndef CP_DL_CUDA_TYPES_H
#define CP_DL_CUDA_TYPES_H

#include <stdint.h>

typedef int CUresult;                       /* enum cudaError_enum */
typedef int CUdevice;                       /* CUdevice_v1: an ordinal, not a handle */
typedef int CUdevice_attribute;             /* enum CUdevice_attribute_enum */
typedef int CUdriverProcAddressQueryResult; /* enum, CUDA >= 12.0 */
typedef uint64_t cuuint64_t;
typedef unsigned long long CUdeviceptr;     /* CUdeviceptr_v2: 64-bit since CUDA 3.2 */
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef int CUstreamCaptureMode;            /* enum CUstreamCaptureMode_enum */
typedef struct CUuuid_st { char bytes[16]; } CUuuid;

#endif
