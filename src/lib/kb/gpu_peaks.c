/*
 * Datasheet peaks per GPU model (gpu_peaks.h says what each column is).
 *
 * Sources: NVIDIA's datasheets, named per row.  Where a sheet gives a
 * tensor rate "with sparsity" (marked * on Ampere, Ada, Hopper and
 * Blackwell sheets: "Specifications are one-half lower without
 * sparsity"), the dense figure here is that figure halved.  NVLink: the
 * sheets give the total of both directions of every link ("900 GB/s");
 * a peer copy runs one way, so a row keeps lanes x the one-way rate of a
 * link (NVLink 2, 3 and 4: 25 GB/s; NVLink 5: 50 GB/s).
 *
 * To add a GPU: one row, its names exactly as nvidia-smi prints them, the
 * datasheet in `source`, dense figures only; leave a rate 0 when the sheet
 * has none.  docs/bench.md lists the rows for people.
 */
#include <ctype.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "gpu_peaks.h"

/* Datasheets (nvidia.com):
 *   H200: "NVIDIA H200 Tensor Core GPU" datasheet (H200 SXM and H200 NVL columns)
 *   H100: "NVIDIA H100 Tensor Core GPU" datasheet (H100 SXM, H100 NVL columns) and the
 *         H100 PCIe product brief PB-11133-001
 *   A100: "NVIDIA A100 Tensor Core GPU" datasheet (nvidia-a100-datasheet-us-nvidia-1758950-r4)
 *   L40S, L4, A10, T4: their one-page datasheets
 *   V100: "NVIDIA Tesla V100 GPU Accelerator" datasheet (SXM2 and PCIe columns; no sparsity on Volta)
 *   B200: HGX B200 datasheet / Blackwell architecture technical brief, per GPU at 1000 W
 *   GB200: GB200 NVL72 datasheet / Blackwell technical brief, per GPU (1200 W) */
static const cp_gpu_peaks table[] = {
    /* model, names, memory, GB/s, bf16, fp16, tf32, fp32, lanes, GB/s a lane one way, on board, source */
    { "H200 SXM", { "NVIDIA H200", NULL }, "HBM3e", 4800, 989.5, 989.5, 494.5, 67, 18, 25, true,
      "NVIDIA H200 datasheet: 4.8 TB/s; BF16/FP16 1,979 and TF32 989 TFLOPS with sparsity; FP32 67; NVLink 900 GB/s" },
    { "H200 NVL", { "NVIDIA H200 NVL", NULL }, "HBM3e", 4800, 835.5, 835.5, 417.5, 60, 18, 25, false,
      "NVIDIA H200 datasheet: 4.8 TB/s; BF16/FP16 1,671 and TF32 835 TFLOPS with sparsity; FP32 60; NVLink bridge 900 GB/s" },
    { "H100 SXM", { "NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5 80GB", NULL }, "HBM3", 3350, 989.5, 989.5, 494.5, 67,
      18, 25, true,
      "NVIDIA H100 datasheet: 3.35 TB/s; BF16/FP16 1,979 and TF32 989 TFLOPS with sparsity; FP32 67; NVLink 900 GB/s" },
    { "H100 NVL", { "NVIDIA H100 NVL", NULL }, "HBM3", 3900, 835.5, 835.5, 417.5, 60, 12, 25, false,
      "NVIDIA H100 datasheet: 3.9 TB/s; BF16/FP16 1,671 and TF32 835 TFLOPS with sparsity; FP32 60; NVLink bridge 600 GB/s" },
    { "H100 PCIe", { "NVIDIA H100 PCIe", NULL }, "HBM2e", 2000, 756.5, 756.5, 378, 51, 12, 25, false,
      "NVIDIA H100 PCIe product brief: 2 TB/s; BF16/FP16 1,513 and TF32 756 TFLOPS with sparsity; FP32 51; "
      "NVLink bridge 600 GB/s" },
    { "A100 SXM4 40GB", { "NVIDIA A100-SXM4-40GB", NULL }, "HBM2", 1555, 312, 312, 156, 19.5, 12, 25, true,
      "NVIDIA A100 datasheet: 1,555 GB/s; BF16/FP16 312, TF32 156 TFLOPS dense (624/312 with sparsity); FP32 19.5; "
      "NVLink 600 GB/s" },
    { "A100 SXM4 80GB", { "NVIDIA A100-SXM4-80GB", NULL }, "HBM2e", 2039, 312, 312, 156, 19.5, 12, 25, true,
      "NVIDIA A100 datasheet: 2,039 GB/s; BF16/FP16 312, TF32 156 TFLOPS dense; FP32 19.5; NVLink 600 GB/s" },
    { "A100 PCIe 40GB", { "NVIDIA A100-PCIE-40GB", NULL }, "HBM2", 1555, 312, 312, 156, 19.5, 12, 25, false,
      "NVIDIA A100 datasheet: 1,555 GB/s; BF16/FP16 312, TF32 156 TFLOPS dense; FP32 19.5; NVLink bridge 600 GB/s" },
    { "A100 PCIe 80GB", { "NVIDIA A100 80GB PCIe", NULL }, "HBM2e", 1935, 312, 312, 156, 19.5, 12, 25, false,
      "NVIDIA A100 datasheet: 1,935 GB/s; BF16/FP16 312, TF32 156 TFLOPS dense; FP32 19.5; NVLink bridge 600 GB/s" },
    { "L40S", { "NVIDIA L40S", NULL }, "GDDR6", 864, 362.05, 362.05, 183, 91.6, 0, 0, false,
      "NVIDIA L40S datasheet: 864 GB/s; BF16/FP16 362.05 (733 with sparsity), TF32 183 (366) TFLOPS; FP32 91.6; "
      "no NVLink" },
    { "L4", { "NVIDIA L4", NULL }, "GDDR6", 300, 121, 121, 60, 30.3, 0, 0, false,
      "NVIDIA L4 datasheet: 300 GB/s; BF16/FP16 242 and TF32 120 TFLOPS with sparsity; FP32 30.3; no NVLink" },
    { "A10", { "NVIDIA A10", NULL }, "GDDR6", 600, 125, 125, 62.5, 31.2, 0, 0, false,
      "NVIDIA A10 datasheet: 600 GB/s; BF16/FP16 125 (250 with sparsity), TF32 62.5 (125) TFLOPS; FP32 31.2; no NVLink" },
    { "T4", { "Tesla T4", "NVIDIA T4", NULL }, "GDDR6", 320, 0, 65, 0, 8.1, 0, 0, false,
      "NVIDIA T4 datasheet: 320 GB/s; mixed-precision FP16/FP32 65 TFLOPS; FP32 8.1; no BF16, no TF32, no NVLink" },
    { "V100 SXM2", { "Tesla V100-SXM2-16GB", "Tesla V100-SXM2-32GB", NULL }, "HBM2", 900, 0, 125, 0, 15.7, 6, 25,
      true, "NVIDIA V100 datasheet (SXM2): 900 GB/s; tensor (FP16) 125 TFLOPS; FP32 15.7; NVLink 300 GB/s" },
    { "V100 PCIe", { "Tesla V100-PCIE-16GB", "Tesla V100-PCIE-32GB", NULL }, "HBM2", 900, 0, 112, 0, 14, 0, 0, false,
      "NVIDIA V100 datasheet (PCIe): 900 GB/s; tensor (FP16) 112 TFLOPS; FP32 14; no NVLink" },
    { "B200", { "NVIDIA B200", NULL }, "HBM3e", 8000, 2250, 2250, 1100, 80, 18, 50, true,
      "NVIDIA HGX B200 datasheet, per GPU: 8 TB/s; BF16/FP16 4.5 and TF32 2.2 PFLOPS with sparsity; FP32 80; "
      "NVLink 1.8 TB/s" },
    { "GB200", { "NVIDIA GB200", NULL }, "HBM3e", 8000, 2500, 2500, 1250, 90, 18, 50, true,
      "NVIDIA GB200 NVL72 datasheet, per GPU: 8 TB/s; BF16/FP16 5 and TF32 2.5 PFLOPS with sparsity; FP32 90; "
      "NVLink 1.8 TB/s" },
};

/* Lowercase s into out without an "nvidia " / "tesla " prefix and without
 * ' ', '-', '_'; false when it does not fit. */
static bool fold(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (int again = 1; again;) {
        again = 0;
        if (strncasecmp(s, "nvidia ", 7) == 0) { s += 7; again = 1; }
        else if (strncasecmp(s, "tesla ", 6) == 0) { s += 6; again = 1; }
    }
    for (; *s; s++) {
        if (*s == ' ' || *s == '-' || *s == '_') continue;
        if (n + 1 >= cap) return false;
        out[n++] = (char)tolower((unsigned char)*s);
    }
    out[n] = '\0';
    return n > 0;
}

/* See gpu_peaks.h. */
const cp_gpu_peaks *cp_gpu_peaks_lookup(const char *name)
{
    char want[128], have[128];
    if (!name || !fold(name, want, sizeof want)) return NULL;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        for (int k = 0; k < 4 && table[i].names[k]; k++)
            if (fold(table[i].names[k], have, sizeof have) && strcmp(want, have) == 0) return &table[i];
    return NULL;
}

/* See gpu_peaks.h. */
const cp_gpu_peaks *cp_gpu_peaks_at(size_t i)
{
    return i < sizeof table / sizeof table[0] ? &table[i] : NULL;
}
