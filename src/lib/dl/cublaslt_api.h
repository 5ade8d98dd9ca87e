/*
 * The subset of cuBLASLt (libcublasLt.so.13) that `cuprobe bench` calls for
 * its GEMM rate, as a struct of function pointers filled by the loader.
 *
 * Our own declarations, following the CUDA 13.0 cublasLt.h on LP64 Linux:
 * the descriptors are opaque pointers, cublasStatus_t, cudaDataType_t,
 * cublasComputeType_t and the attribute enums are passed as ints, and the
 * heuristic result is the header's 96-byte struct.  test_abi compares the
 * struct and the values with the official header where one is installed.
 */
#ifndef CP_DL_CUBLASLT_API_H
#define CP_DL_CUBLASLT_API_H

#include <stddef.h>
#include <stdint.h>

#include "dl/cuda_types.h"
#include "dl/loader.h"

typedef int cp_lt_status;                   /* cublasStatus_t; 0 is CUBLAS_STATUS_SUCCESS */
typedef struct cp_lt_ctx *cp_lt_handle;     /* cublasLtHandle_t */
typedef void *cp_lt_matmul_desc;            /* cublasLtMatmulDesc_t */
typedef void *cp_lt_layout;                 /* cublasLtMatrixLayout_t */
typedef void *cp_lt_pref;                   /* cublasLtMatmulPreference_t */

typedef struct { uint64_t data[8]; } cp_lt_algo;   /* cublasLtMatmulAlgo_t */

/* cublasLtMatmulHeuristicResult_t */
typedef struct {
    cp_lt_algo algo;
    size_t workspace_size;
    cp_lt_status state;
    float waves_count;
    int reserved[4];
} cp_lt_heuristic;

/* The values cuprobe passes (library_types.h, cublas_api.h, cublasLt.h). */
enum {
    CP_LT_R_32F = 0,                        /* cudaDataType_t CUDA_R_32F */
    CP_LT_R_16F = 2,                        /* CUDA_R_16F */
    CP_LT_R_16BF = 14,                      /* CUDA_R_16BF */
    CP_LT_COMPUTE_32F = 68,                 /* cublasComputeType_t CUBLAS_COMPUTE_32F */
    CP_LT_COMPUTE_32F_FAST_TF32 = 77,       /* CUBLAS_COMPUTE_32F_FAST_TF32 */
    CP_LT_OP_N = 0,                         /* cublasOperation_t CUBLAS_OP_N */
    CP_LT_DESC_TRANSA = 3,                  /* CUBLASLT_MATMUL_DESC_TRANSA */
    CP_LT_DESC_TRANSB = 4,                  /* CUBLASLT_MATMUL_DESC_TRANSB */
    CP_LT_PREF_MAX_WORKSPACE_BYTES = 1      /* CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES (uint64_t) */
};

typedef cp_lt_status (*cp_cublasLtCreate_fn)(cp_lt_handle *h);
typedef cp_lt_status (*cp_cublasLtDestroy_fn)(cp_lt_handle h);
typedef size_t (*cp_cublasLtGetVersion_fn)(void);
typedef cp_lt_status (*cp_cublasLtMatmulDescCreate_fn)(cp_lt_matmul_desc *d, int compute_type, int scale_type);
typedef cp_lt_status (*cp_cublasLtMatmulDescDestroy_fn)(cp_lt_matmul_desc d);
typedef cp_lt_status (*cp_cublasLtMatmulDescSetAttribute_fn)(cp_lt_matmul_desc d, int attr, const void *buf,
                                                             size_t bytes);
typedef cp_lt_status (*cp_cublasLtMatrixLayoutCreate_fn)(cp_lt_layout *l, int type, uint64_t rows, uint64_t cols,
                                                         int64_t ld);
typedef cp_lt_status (*cp_cublasLtMatrixLayoutDestroy_fn)(cp_lt_layout l);
typedef cp_lt_status (*cp_cublasLtMatmulPreferenceCreate_fn)(cp_lt_pref *p);
typedef cp_lt_status (*cp_cublasLtMatmulPreferenceDestroy_fn)(cp_lt_pref p);
typedef cp_lt_status (*cp_cublasLtMatmulPreferenceSetAttribute_fn)(cp_lt_pref p, int attr, const void *buf,
                                                                   size_t bytes);
typedef cp_lt_status (*cp_cublasLtMatmulAlgoGetHeuristic_fn)(cp_lt_handle h, cp_lt_matmul_desc d, cp_lt_layout a,
                                                             cp_lt_layout b, cp_lt_layout c, cp_lt_layout dd,
                                                             cp_lt_pref p, int requested, cp_lt_heuristic *results,
                                                             int *returned);
typedef cp_lt_status (*cp_cublasLtMatmul_fn)(cp_lt_handle h, cp_lt_matmul_desc d, const void *alpha, const void *a,
                                             cp_lt_layout al, const void *b, cp_lt_layout bl, const void *beta,
                                             const void *c, cp_lt_layout cl, void *dd, cp_lt_layout dl,
                                             const cp_lt_algo *algo, void *workspace, size_t workspace_bytes,
                                             CUstream s);
typedef const char *(*cp_cublasLtGetStatusName_fn)(cp_lt_status s);

typedef struct {
    cp_cublasLtCreate_fn cublasLtCreate;
    cp_cublasLtDestroy_fn cublasLtDestroy;
    cp_cublasLtMatmulDescCreate_fn cublasLtMatmulDescCreate;
    cp_cublasLtMatmulDescDestroy_fn cublasLtMatmulDescDestroy;
    cp_cublasLtMatmulDescSetAttribute_fn cublasLtMatmulDescSetAttribute;
    cp_cublasLtMatrixLayoutCreate_fn cublasLtMatrixLayoutCreate;
    cp_cublasLtMatrixLayoutDestroy_fn cublasLtMatrixLayoutDestroy;
    cp_cublasLtMatmulPreferenceCreate_fn cublasLtMatmulPreferenceCreate;
    cp_cublasLtMatmulPreferenceDestroy_fn cublasLtMatmulPreferenceDestroy;
    cp_cublasLtMatmulPreferenceSetAttribute_fn cublasLtMatmulPreferenceSetAttribute;
    cp_cublasLtMatmulAlgoGetHeuristic_fn cublasLtMatmulAlgoGetHeuristic;
    cp_cublasLtMatmul_fn cublasLtMatmul;
    /* optional */
    cp_cublasLtGetVersion_fn cublasLtGetVersion;
    cp_cublasLtGetStatusName_fn cublasLtGetStatusName;   /* CUDA >= 11.4 */
} cp_cublaslt_api;

/* libcublasLt.so.13, overridden by $CUPROBE_LIBCUBLASLT; fills a cp_cublaslt_api. */
extern const cp_dl_lib cp_cublaslt_lib;

#endif
