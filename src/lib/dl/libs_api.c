/*
 * The symbol tables of the CUDA libraries level 2 runs (libs_api.h).  As
 * in cuda_api.c: REQ or OPT, the field, and the exported names when the
 * header #defines the name to a versioned symbol (then only those).
 */
#include "dl/libs_api.h"

#define SYM(api, req, field, ...) \
    { .name = #field, .required = (req), .alt = { __VA_ARGS__ }, .offset = offsetof(api, field) }

#define REQ(field, ...) SYM(cp_cublas_api, true, field, __VA_ARGS__)
#define OPT(field, ...) SYM(cp_cublas_api, false, field, __VA_ARGS__)
static const cp_dl_sym cublas_syms[] = {
    REQ(cublasCreate, "cublasCreate_v2"),
    REQ(cublasDestroy, "cublasDestroy_v2"),
    REQ(cublasSetStream, "cublasSetStream_v2"),
    REQ(cublasSgemm, "cublasSgemm_v2"),
    OPT(cublasGetStatusName, NULL),
    { .name = NULL },
};
#undef REQ
#undef OPT

#define REQ(field, ...) SYM(cp_cufft_api, true, field, __VA_ARGS__)
static const cp_dl_sym cufft_syms[] = {
    REQ(cufftPlan1d, NULL),
    REQ(cufftExecC2C, NULL),
    REQ(cufftDestroy, NULL),
    { .name = NULL },
};
#undef REQ

#define REQ(field, ...) SYM(cp_cudnn_api, true, field, __VA_ARGS__)
#define OPT(field, ...) SYM(cp_cudnn_api, false, field, __VA_ARGS__)
static const cp_dl_sym cudnn_syms[] = {
    REQ(cudnnCreate, NULL),
    REQ(cudnnDestroy, NULL),
    OPT(cudnnGetErrorString, NULL),
    REQ(cudnnCreateTensorDescriptor, NULL),
    REQ(cudnnSetTensor4dDescriptor, NULL),
    REQ(cudnnDestroyTensorDescriptor, NULL),
    REQ(cudnnCreateFilterDescriptor, NULL),
    REQ(cudnnSetFilter4dDescriptor, NULL),
    REQ(cudnnDestroyFilterDescriptor, NULL),
    REQ(cudnnCreateConvolutionDescriptor, NULL),
    REQ(cudnnSetConvolution2dDescriptor, NULL),
    REQ(cudnnDestroyConvolutionDescriptor, NULL),
    REQ(cudnnConvolutionForward, NULL),
    { .name = NULL },
};
#undef REQ
#undef OPT

#define REQ(field, ...) SYM(cp_nvrtc_api, true, field, __VA_ARGS__)
#define OPT(field, ...) SYM(cp_nvrtc_api, false, field, __VA_ARGS__)
static const cp_dl_sym nvrtc_syms[] = {
    REQ(nvrtcCreateProgram, NULL),
    REQ(nvrtcCompileProgram, NULL),
    REQ(nvrtcGetPTXSize, NULL),
    REQ(nvrtcGetPTX, NULL),
    OPT(nvrtcGetProgramLogSize, NULL),
    OPT(nvrtcGetProgramLog, NULL),
    REQ(nvrtcDestroyProgram, NULL),
    OPT(nvrtcGetErrorString, NULL),
    { .name = NULL },
};
#undef REQ
#undef OPT

#define REQ(field, ...) SYM(cp_nccl_api, true, field, __VA_ARGS__)
#define OPT(field, ...) SYM(cp_nccl_api, false, field, __VA_ARGS__)
static const cp_dl_sym nccl_syms[] = {
    REQ(ncclCommInitAll, NULL),
    REQ(ncclCommDestroy, NULL),
    REQ(ncclAllReduce, NULL),
    REQ(ncclGroupStart, NULL),
    REQ(ncclGroupEnd, NULL),
    OPT(ncclGetErrorString, NULL),
    { .name = NULL },
};
#undef REQ
#undef OPT

const cp_dl_lib cp_cublas_lib = { "libcublas.so.13", "CUPROBE_LIBCUBLAS", cublas_syms, sizeof(cp_cublas_api) };
const cp_dl_lib cp_cufft_lib = { "libcufft.so.12", "CUPROBE_LIBCUFFT", cufft_syms, sizeof(cp_cufft_api) };
const cp_dl_lib cp_cudnn_lib = { "libcudnn.so.9", "CUPROBE_LIBCUDNN", cudnn_syms, sizeof(cp_cudnn_api) };
const cp_dl_lib cp_nvrtc_lib = { "libnvrtc.so.13", "CUPROBE_LIBNVRTC", nvrtc_syms, sizeof(cp_nvrtc_api) };
const cp_dl_lib cp_nccl_lib = { "libnccl.so.2", "CUPROBE_LIBNCCL", nccl_syms, sizeof(cp_nccl_api) };
