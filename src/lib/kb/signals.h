/*
 * The explain knowledge base: one row per error signal a person may paste.
 * Private to libcuprobe (src/lib/explain reads it).
 */
#ifndef CP_SIGNALS_H
#define CP_SIGNALS_H

#include <stddef.h>
#include "cuprobe/report.h"

/* What to take from the first matching line. */
typedef enum {
    CP_EXTRACT_NONE,
    CP_EXTRACT_OOM,           /* PyTorch OOM: requested, free, total, GPU */
    CP_EXTRACT_XID,           /* NVRM Xid line: number and PCI address; layer from the XID table */
    CP_EXTRACT_SONAME         /* loader: "libX.so.N" and N */
} cp_extract_kind;

/* What the value must be for a row that reads a "Key : Value" line of
 * `nvidia-smi -q` (its health sections).  Such a row's phrase is the key:
 * it must open the line (after indentation) and be followed by spaces, a
 * colon and a value of this kind, so the same section with healthy values
 * ("No", "0", "Not Active", "N/A") stays silent. */
typedef enum {
    CP_VALUE_ANY,             /* no value condition: the phrase alone counts */
    CP_VALUE_YES,             /* "Yes" */
    CP_VALUE_NONZERO,         /* a whole number above 0 */
    CP_VALUE_ZERO,            /* the number 0 (kubectl's "nvidia.com/gpu:  0": none to hand out) */
    CP_VALUE_ACTIVE,          /* "Active" (a clock-event reason engaged) */
    CP_VALUE_RECOVERY,        /* "Yes", or a recovery action: "Reset", "Reboot", "Drain..." */
    CP_VALUE_ARCHS_MISS,      /* not a "Key : Value" line: a build's list of CUDA architectures after
                                 the phrase (ggml's "CUDA : ARCHS = 600,610,700") whose lowest is above
                                 the compute capability of a GPU an earlier line named ("compute
                                 capability 5.2"): no code of the build can run on that GPU */
    CP_VALUE_XID_ALSO,        /* not a "Key : Value" line: an NVRM XID line whose XID the XID table
                                 says may also be this row's layer (cp_xid_info.also_layer) */
    CP_VALUE_OOM_OTHERS,      /* not a "Key : Value" line: PyTorch's out-of-memory sizes, read as a
                                 whole: the GPU's total less its free memory less what this process
                                 holds (its own use, or what PyTorch reserved) is over half the GPU
                                 and 1 GiB at least, so other processes hold most of it */
    CP_VALUE_SMI_FIELD,       /* not a "Key : Value" line: what follows the phrase, past blanks and a
                                 quote, is a value nvidia-smi or NVML gives for a field the GPU does
                                 not report ("[N/A]", "[Not Supported]", "[Insufficient Permissions]")
                                 or a driver version of three parts ("545.29.06"): a program failed to
                                 read it as a number */
    CP_VALUE_SMI_FIELD_BARE   /* the same, for such a value as `nvidia-smi -q -x` gives it, without
                                 brackets ("N/A", "Not Supported", "Insufficient Permissions"), or
                                 cut by the program ("N/", "Insufficient"): words other programs
                                 print too, so its row asks for a text about the GPU */
} cp_value_cond;

/* What a text shows of where it ran, read from anywhere in it: a row that
 * needs a context counts only in a text that shows it. */
enum {
    CP_CONTEXT_CONTAINER = 1u << 0,    /* docker, compose, Kubernetes, podman, enroot... */
    CP_CONTEXT_GPU = 1u << 1,          /* NVIDIA, CUDA or a GPU named anywhere */
    CP_CONTEXT_BLACKWELL = 1u << 2,    /* a Blackwell GPU named (RTX 50, B200, sm_120): it needs the
                                          open kernel modules */
    CP_CONTEXT_SERVING_KERNELS = 1u << 3,  /* a serving framework or kernel package that brings its own
                                              CUDA kernels (llama.cpp's ggml-cuda, vLLM, ollama, flash
                                              attention): a kernel fault there is the framework's */
    CP_CONTEXT_OTHER_DKMS_MODULE = 1u << 4 /* DKMS points at the build log of a module other than
                                              nvidia's (v4l2loopback, zfs, virtualbox): its failure
                                              is that module's */
};

#define CP_SIGNAL_MAX_MATCH 32
#define CP_SIGNAL_MAX_ALSO 8

/* The CUDA runtime's "driver too old" error in its words (cuda.insufficient_driver and its
 * other readings share the list). */
#define CP_PHRASES_INSUFFICIENT_DRIVER "CUDA driver version is insufficient for CUDA runtime version", \
    "cudaErrorInsufficientDriver"

/* CUDA's 804 (a compat libcuda on a GPU without forward compatibility) and 801 (not supported) in their
 * words: each row and its other reading share the list. */
#define CP_PHRASES_COMPAT_UNSUPPORTED "forward compatibility was attempted on non supported HW", \
    "cudaErrorCompatNotSupportedOnDevice", "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"
#define CP_PHRASES_NOT_SUPPORTED "CUDA error: operation not supported", "cudaErrorNotSupported", \
    "CUDA_ERROR_NOT_SUPPORTED", "operation not supported (" /* TensorRT-LLM's CUDA runtime error */, \
    "failed: \"operation not supported", "failed: \\\"operation not supported" /* sppark's CUDA call, quoted */
/* ...on a line that names CUDA (TensorRT-LLM's and sppark's forms only say which call failed) */
#define CP_ALSO_NOT_SUPPORTED "cuda", "cuMem"

/* "unknown error" at a program's first CUDA call, as torch (THCudaCheck and the runtime's number, 30 or
 * 999) and nccl-tests ("Test CUDA failure common.cu:1045 'unknown error'") print it: cuda.unknown and the
 * kernel module's reading (kernel.uvm_maybe) share the list. */
#define CP_PHRASES_FIRST_CALL_UNKNOWN_ERROR "error=30 : unknown error", "runtime error (30) : unknown error", \
    "error=999 : unknown error", "runtime error (999) : unknown error", "'unknown error'"

typedef struct {
    const char *id;                             /* stable, in JSON as "code": "cuda.no_kernel_image" */
    cp_layer layer;
    const char *match[CP_SIGNAL_MAX_MATCH];     /* any of these, case-insensitive, >= 4 bytes; NULL ends */
    const char *also[CP_SIGNAL_MAX_ALSO];       /* if set, the line must also hold one of these */
    const char *unless;                         /* if set, a line holding this does not count */
    const char *cause;
    const char *fix;
    const char *check;                          /* doctor check id that confirms it; NULL when
                                                   no check can see it from this machine */
    cp_extract_kind extract;
    cp_value_cond value;                        /* a "Key : Value" row: what the value must be */
    int notice;                                 /* 1: the line only reports another fault or a
                                                   recovery (a module loaded, a remap recorded):
                                                   its signal ranks after the faults */
    int cu_code;                                /* CUresult this row explains, so that name gets
                                                   no generic row; 0 for none */
    int nvml_code;                              /* the same for an nvmlReturn_t; 0 for none */
    int rt_code;                                /* a cudaError_t without a CUresult twin; 0 for none */
    unsigned marks;                             /* a context marker: its phrases set these CP_CONTEXT_
                                                   bits and give no signal of their own */
    unsigned context;                           /* counts only in a text with these CP_CONTEXT_ bits */
    unsigned context_absent;                    /* counts only in a text without these CP_CONTEXT_ bits */
    int replaces_line;                          /* 1: the signals of higher layers first found on its
                                                   line are dropped (it says what they mean there) */
    int informational;                          /* 1: says nothing is wrong (the module's load line):
                                                   kept only beside a signal that does */
    int fallback;                               /* 1: a tool's error form in general, dropped where
                                                   a row first found on its line says more (for a
                                                   replacing row: a row of its layer or a lower one) */
    int last_resort;                            /* 1: a component's name, counted only where its line
                                                   or the next to it says something failed
                                                   (cp_failure_words) and the text has no other
                                                   signal; then only the lowest layer's of those most
                                                   closely confirmed (its own line first) are kept */
    int alternative;                            /* 1: the other common reading, in another layer, of a
                                                   line another row explains, where the text does not
                                                   settle which (it does not show a container): kept
                                                   only beside that row's signal on the same line, of
                                                   another layer, and listed after every other signal */
} cp_signal;

/* The tables, each ending with a row whose id is NULL (signals_*.c). */
extern const cp_signal cp_signals_cuda[];
extern const cp_signal cp_signals_stack[];
extern const cp_signal cp_signals_ops[];
extern const cp_signal cp_signals_libs[];
extern const cp_signal cp_signals_frameworks[];
extern const cp_signal cp_signals_health[];
extern const cp_signal cp_signals_build[];
extern const cp_signal cp_signals_ecosystem[];
extern const cp_signal cp_signals_vocab[];

/* The words that say a line reports a failure, for last_resort rows:
 * lowercase, NULL-terminated (signals_vocab.c). */
extern const char *const cp_failure_words[];

/* Phrases that make a line no failure line for last_resort rows (an
 * informational log level, a program's own Python error): lowercase,
 * NULL-terminated (signals_vocab.c). */
extern const char *const cp_not_failure_phrases[];

/* Every row of every table, in a fixed order: curated rows first, then one
 * generic row per CUresult and nvmlReturn_t name of kb/errors.c not claimed
 * by a curated row (its id is the name, its cause the kb text, its layer
 * from a rule table).
 * Writes at most cap rows into rows; returns the total count (call with
 * cap 0 to size the array).  Pure, no allocation. */
size_t cp_signals_all(cp_signal *rows, size_t cap);

/* The row that explains CUresult `code` (nvml 0) or nvmlReturn_t `code`
 * (nvml 1): the curated row that claims it, else its generic row; the
 * same row `cuprobe explain NAME` prints, so doctor and explain word an
 * error alike.  Returns 0 and fills *out, or -1 for 0 (success) and codes
 * without a name.  Pure. */
int cp_signal_for_code(int code, int nvml, cp_signal *out);

/* The layer the rule table gives a CUresult code (for generic rows). */
cp_layer cp_signal_cu_layer(int code);

#endif
