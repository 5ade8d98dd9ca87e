/*
 * The symbol table of libcublasLt.so.13 (cublaslt_api.h).  cublasLt.h
 * #defines none of these names to versioned symbols.
 */
#include "dl/cublaslt_api.h"

#define SYM(req, field) { .name = #field, .required = (req), .alt = { NULL }, \
                          .offset = offsetof(cp_cublaslt_api, field) }
#define REQ(field) SYM(true, field)
#define OPT(field) SYM(false, field)

static const cp_dl_sym cublaslt_syms[] = {
    REQ(cublasLtCreate),
    REQ(cublasLtDestroy),
    REQ(cublasLtMatmulDescCreate),
    REQ(cublasLtMatmulDescDestroy),
    REQ(cublasLtMatmulDescSetAttribute),
    REQ(cublasLtMatrixLayoutCreate),
    REQ(cublasLtMatrixLayoutDestroy),
    REQ(cublasLtMatmulPreferenceCreate),
    REQ(cublasLtMatmulPreferenceDestroy),
    REQ(cublasLtMatmulPreferenceSetAttribute),
    REQ(cublasLtMatmulAlgoGetHeuristic),
    REQ(cublasLtMatmul),
    OPT(cublasLtGetVersion),
    OPT(cublasLtGetStatusName),
    { .name = NULL },
};

const cp_dl_lib cp_cublaslt_lib = {
    .soname = "libcublasLt.so.13",
    .env = "CUPROBE_LIBCUBLASLT",
    .syms = cublaslt_syms,
    .table_size = sizeof(cp_cublaslt_api),
};
