/*
 * Datasheet peaks of NVIDIA data-centre GPUs, as data: memory bandwidth,
 * dense tensor and FP32 rates, NVLink lanes.  cuprobe bench measures each
 * result against these (src/lib/bench/ceilings.c).  Pure lookups, no I/O.
 */
#ifndef CP_KB_GPU_PEAKS_H
#define CP_KB_GPU_PEAKS_H

#include <stdbool.h>
#include <stddef.h>

/* One GPU model.  Every rate is the datasheet's own figure (boost clock),
 * DENSE: where NVIDIA prints a rate "with sparsity" (Ampere and later),
 * the figure here is half of it, as the datasheets' footnote says.  0 means
 * the datasheet lists no such rate (no BF16 on Volta and Turing). */
typedef struct {
    const char *model;        /* short name for people: "H200 SXM" */
    const char *names[4];     /* device names as NVML and libcuda report them, NULL-terminated */
    const char *mem_kind;     /* "HBM3e", "GDDR6" */
    double mem_gbs;           /* memory bandwidth, GB/s (1e9 bytes a second) */
    double bf16_tflops;       /* dense BF16 tensor rate, TFLOP/s */
    double fp16_tflops;       /* dense FP16 tensor rate (FP32 accumulate where the sheet says) */
    double tf32_tflops;       /* dense TF32 tensor rate */
    double fp32_tflops;       /* FP32 without tensor cores (SGEMM's ceiling) */
    int nvlink_lanes;         /* NVLink links of one GPU; 0: none */
    double nvlink_lane_gbs;   /* GB/s of one link in one direction */
    bool nvlink_on_board;     /* SXM: the links are wired on the baseboard; false: an optional bridge */
    const char *source;       /* the datasheet the figures come from */
} cp_gpu_peaks;

/* The row for a device name ("NVIDIA H200", "Tesla T4", "NVIDIA
 * A100-SXM4-80GB"): compared without case, an "NVIDIA " or "Tesla "
 * prefix and the separators ' ', '-', '_' ignored, so "NVIDIA
 * A100-SXM4-80GB" and "a100 sxm4 80gb" match; every other name (a MIG
 * slice, a model not in the table) gives NULL: no figure is guessed. */
const cp_gpu_peaks *cp_gpu_peaks_lookup(const char *name);

/* The i-th row of the table, NULL past the last (tests and docs). */
const cp_gpu_peaks *cp_gpu_peaks_at(size_t i);

#endif
