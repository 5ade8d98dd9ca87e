/*
 * The few calls of the CUDA libraries that doctor --level 2 runs: cuBLAS,
 * cuFFT, cuDNN, NVRTC and NCCL.  Our own declarations (no vendor header at
 * build time), one symbol table per library for the one loader (loader.h).
 * Each type matches the CUDA 13.0 header named beside it (cublas_api.h,
 * cufft.h, cudnn_graph_v9.h / cudnn_ops_v9.h / cudnn_cnn_v9.h for cuDNN 9,
 * nvrtc.h, nccl.h); the vendor's enums are passed like ints, so they are
 * ints here, and a cudaStream_t is a pointer (NULL: the legacy default
 * stream).  The versioned names the headers #define (cublasCreate ->
 * cublasCreate_v2) are looked up by their versioned name.
 *
 * The soname in each cp_dl_lib is what the dynamic loader would be asked
 * for; the level-2 probe runs the copy the libraries layer says a program
 * gets (its path), through a copy of the descriptor.
 */
#ifndef CP_DL_LIBS_API_H
#define CP_DL_LIBS_API_H

#include <stddef.h>
#include "dl/loader.h"

typedef void *cp_cuda_stream_t;          /* cudaStream_t (struct CUstream_st *) */

/* ------------------------------------------------ cuBLAS (cublas_api.h) -- */
typedef int cublasStatus_t;              /* 0 CUBLAS_STATUS_SUCCESS */
typedef struct cublasContext *cublasHandle_t;
enum { CP_CUBLAS_OP_N = 0 };             /* cublasOperation_t */

typedef struct {
    cublasStatus_t (*cublasCreate)(cublasHandle_t *handle);                        /* cublasCreate_v2 */
    cublasStatus_t (*cublasDestroy)(cublasHandle_t handle);                        /* cublasDestroy_v2 */
    cublasStatus_t (*cublasSetStream)(cublasHandle_t handle, cp_cuda_stream_t s);  /* cublasSetStream_v2 */
    cublasStatus_t (*cublasSgemm)(cublasHandle_t handle, int transa, int transb,  /* cublasSgemm_v2 */
                                  int m, int n, int k, const float *alpha, const float *A, int lda,
                                  const float *B, int ldb, const float *beta, float *C, int ldc);
    const char *(*cublasGetStatusName)(cublasStatus_t status);                     /* optional */
} cp_cublas_api;
extern const cp_dl_lib cp_cublas_lib;    /* libcublas.so.13, $CUPROBE_LIBCUBLAS */

/* ------------------------------------------------------ cuFFT (cufft.h) -- */
typedef int cufftResult;                 /* 0 CUFFT_SUCCESS */
typedef int cufftHandle;
typedef struct { float x, y; } cp_cufft_complex;   /* cufftComplex = cuFloatComplex, float2 */
enum { CP_CUFFT_C2C = 0x29, CP_CUFFT_FORWARD = -1 };

typedef struct {
    cufftResult (*cufftPlan1d)(cufftHandle *plan, int nx, int type, int batch);
    cufftResult (*cufftExecC2C)(cufftHandle plan, cp_cufft_complex *idata, cp_cufft_complex *odata,
                                int direction);
    cufftResult (*cufftDestroy)(cufftHandle plan);
} cp_cufft_api;
extern const cp_dl_lib cp_cufft_lib;     /* libcufft.so.12, $CUPROBE_LIBCUFFT */

/* --------------------------------------------- cuDNN 9 (cudnn_*_v9.h) -- */
typedef int cudnnStatus_t;               /* 0 CUDNN_STATUS_SUCCESS (cudnn_graph_v9.h) */
typedef struct cudnnContext *cudnnHandle_t;
typedef struct cudnnTensorStruct *cudnnTensorDescriptor_t;
typedef struct cudnnFilterStruct *cudnnFilterDescriptor_t;
typedef struct cudnnConvolutionStruct *cudnnConvolutionDescriptor_t;
enum {
    CP_CUDNN_DATA_FLOAT = 0,             /* cudnnDataType_t */
    CP_CUDNN_TENSOR_NCHW = 0,            /* cudnnTensorFormat_t */
    CP_CUDNN_CROSS_CORRELATION = 1,      /* cudnnConvolutionMode_t */
    CP_CUDNN_FWD_ALGO_IMPLICIT_GEMM = 0  /* cudnnConvolutionFwdAlgo_t: needs no workspace */
};

typedef struct {
    cudnnStatus_t (*cudnnCreate)(cudnnHandle_t *handle);                              /* graph */
    cudnnStatus_t (*cudnnDestroy)(cudnnHandle_t handle);
    const char *(*cudnnGetErrorString)(cudnnStatus_t status);
    cudnnStatus_t (*cudnnCreateTensorDescriptor)(cudnnTensorDescriptor_t *d);          /* ops */
    cudnnStatus_t (*cudnnSetTensor4dDescriptor)(cudnnTensorDescriptor_t d, int format, int dataType,
                                                int n, int c, int h, int w);
    cudnnStatus_t (*cudnnDestroyTensorDescriptor)(cudnnTensorDescriptor_t d);
    cudnnStatus_t (*cudnnCreateFilterDescriptor)(cudnnFilterDescriptor_t *d);
    cudnnStatus_t (*cudnnSetFilter4dDescriptor)(cudnnFilterDescriptor_t d, int dataType, int format,
                                                int k, int c, int h, int w);
    cudnnStatus_t (*cudnnDestroyFilterDescriptor)(cudnnFilterDescriptor_t d);
    cudnnStatus_t (*cudnnCreateConvolutionDescriptor)(cudnnConvolutionDescriptor_t *d);  /* cnn */
    cudnnStatus_t (*cudnnSetConvolution2dDescriptor)(cudnnConvolutionDescriptor_t d, int pad_h, int pad_w,
                                                     int u, int v, int dilation_h, int dilation_w, int mode,
                                                     int computeType);
    cudnnStatus_t (*cudnnDestroyConvolutionDescriptor)(cudnnConvolutionDescriptor_t d);
    cudnnStatus_t (*cudnnConvolutionForward)(cudnnHandle_t handle, const void *alpha,
                                             cudnnTensorDescriptor_t xDesc, const void *x,
                                             cudnnFilterDescriptor_t wDesc, const void *w,
                                             cudnnConvolutionDescriptor_t convDesc, int algo, void *workSpace,
                                             size_t workSpaceSizeInBytes, const void *beta,
                                             cudnnTensorDescriptor_t yDesc, void *y);
} cp_cudnn_api;
extern const cp_dl_lib cp_cudnn_lib;     /* libcudnn.so.9, $CUPROBE_LIBCUDNN */

/* ------------------------------------------------------ NVRTC (nvrtc.h) -- */
typedef int nvrtcResult;                 /* 0 NVRTC_SUCCESS */
typedef struct _nvrtcProgram *nvrtcProgram;

typedef struct {
    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *prog, const char *src, const char *name, int numHeaders,
                                      const char *const *headers, const char *const *includeNames);
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram prog, int numOptions, const char *const *options);
    nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram prog, size_t *ptxSizeRet);
    nvrtcResult (*nvrtcGetPTX)(nvrtcProgram prog, char *ptx);
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram prog, size_t *logSizeRet);
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram prog, char *log);
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *prog);
    const char *(*nvrtcGetErrorString)(nvrtcResult result);
} cp_nvrtc_api;
extern const cp_dl_lib cp_nvrtc_lib;     /* libnvrtc.so.13, $CUPROBE_LIBNVRTC */

/* -------------------------------------------------------- NCCL (nccl.h) -- */
typedef int ncclResult_t;                /* 0 ncclSuccess */
typedef struct ncclComm *ncclComm_t;
enum { CP_NCCL_FLOAT32 = 7, CP_NCCL_SUM = 0 };   /* ncclDataType_t, ncclRedOp_t */

typedef struct {
    ncclResult_t (*ncclCommInitAll)(ncclComm_t *comm, int ndev, const int *devlist);
    ncclResult_t (*ncclCommDestroy)(ncclComm_t comm);
    ncclResult_t (*ncclAllReduce)(const void *sendbuff, void *recvbuff, size_t count, int datatype, int op,
                                  ncclComm_t comm, cp_cuda_stream_t stream);
    ncclResult_t (*ncclGroupStart)(void);
    ncclResult_t (*ncclGroupEnd)(void);
    const char *(*ncclGetErrorString)(ncclResult_t result);
} cp_nccl_api;
extern const cp_dl_lib cp_nccl_lib;      /* libnccl.so.2, $CUPROBE_LIBNCCL */

#endif
