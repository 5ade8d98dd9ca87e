/*
 * cuprobe fields: each device record declared once.
 *
 * Every list below is an X-macro (jq's libm.h): one row per field, and the
 * caller passes the two row macros.
 *
 *     I(name, unit, help)        a number: int64_t, CP_UNKNOWN when unknown
 *     S(name, size, help)        a string: char[size], "" when unknown
 *
 * The rows generate the struct members (facts.h), the unknown-init that
 * both cp_facts_init and the probes use (facts.c), and the answers table
 * (src/lib/facts/facts_kv.c); a sampler will generate its Prometheus names,
 * CSV columns and `top` labels from the same rows, so unit and help are
 * written for a reader of those:
 *
 *   unit     "bytes", "milliwatts", "celsius", "percent", "count" (a counter
 *            or a number of things), "lanes", "generation" (PCIe), "bool"
 *            (0/1), "enum" (a vendor enumeration, named in help), "bitmask"
 *            (bits named in help), "MT/s" (PCIe link speed), "MB/s" (a
 *            copy rate, 10^6 bytes a second), "microseconds", "" (an id or
 *            version number), "megahertz", "millijoules", "KB/s" (NVML's
 *            PCIe throughput, 1024 bytes a second)
 *   help     what the value is, lowercase, no final full stop; where it
 *            comes from when that is not obvious from the name
 *
 * The field name is also the answers key (nvml.dev.0.power_mw): a snapshot
 * stores it, so a committed name is never renamed, only added.
 *
 * To add an NVML value: its function pointer and symbol row
 * (src/lib/dl/nvml_api.h, nvml_api.c), one I or S row in the inventory or
 * the sample list here, the call in src/lib/probe/nvml_probe.c; then the
 * fake (tests/fakes/fake_nvml.c, its scenario key in fake_common.h) and a
 * test.  Nothing else lists fields.
 */
#ifndef CUPROBE_FIELDS_H
#define CUPROBE_FIELDS_H

/* Struct members from rows: `typedef struct { LIST(CP_FIELD_MEMBER_I,
 * CP_FIELD_MEMBER_S) } x;`. */
#define CP_FIELD_MEMBER_I(name, unit, help) int64_t name;
#define CP_FIELD_MEMBER_S(name, size, help) char name[size];

/* ------------------------------------------------------------------ NVML --
 * Inventory: what a GPU is, read once.  Its modes (persistence, compute,
 * MIG, ECC) are here too: they are configuration an administrator sets and
 * that changes rarely (MIG and ECC only take effect at a reset or reboot,
 * hence current/pending), not a measure of load; a sampler re-reads the
 * inventory when it is told the configuration changed, not every tick.
 * The power limit is here for the same reason (nvidia-smi -pl sets it). */
#define CP_NVML_INVENTORY_FIELDS(I, S) \
    S(name, 96, "product name, e.g. NVIDIA H200") \
    S(uuid, 96, "GPU UUID, GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx") \
    S(pci_bus_id, 32, "PCI bus id, normalised to 0000:00:06.0") \
    I(cc_major, "", "compute capability, major") \
    I(cc_minor, "", "compute capability, minor") \
    I(persistence, "bool", "persistence mode") \
    I(compute_mode, "enum", "compute mode, nvmlComputeMode_t: 0 default, 1 exclusive thread, " \
                            "2 prohibited, 3 exclusive process") \
    I(mig_current, "bool", "MIG mode now") \
    I(mig_pending, "bool", "MIG mode after the next GPU reset") \
    I(mem_total_bytes, "bytes", "device memory, total") \
    I(ecc_current, "bool", "ECC mode now") \
    I(ecc_pending, "bool", "ECC mode after the next reboot") \
    I(pcie_gen_max, "generation", "highest PCIe generation the GPU and the system both support") \
    I(pcie_width_max, "lanes", "widest PCIe link the GPU and the system both support") \
    I(power_limit_mw, "milliwatts", "enforced power limit, after every limiter")

/* Samples: what a GPU is doing, read every tick.  The error counters and
 * the remap/retire flags are samples: they move when errors happen, and a
 * monitor wants to see them move.  The current PCIe link is a sample: it
 * drops to a lower generation at idle. */
#define CP_NVML_SAMPLE_FIELDS(I, S) \
    I(mem_used_bytes, "bytes", "device memory used (reserved + allocated)") \
    I(mem_free_bytes, "bytes", "device memory free") \
    I(nprocs_total, "count", "compute processes running") \
    I(remap_correctable, "count", "rows remapped for correctable errors") \
    I(remap_uncorrectable, "count", "rows remapped for uncorrectable errors") \
    I(remap_pending, "bool", "a row remap waits for a GPU reset") \
    I(remap_failure, "bool", "a row remap failed") \
    I(retired_pending, "bool", "pages wait to be retired at the next reset (before Ampere)") \
    I(ecc_uncorrected_volatile, "count", "uncorrected ECC errors since the driver loaded") \
    I(ecc_corrected_volatile, "count", "corrected ECC errors since the driver loaded") \
    I(clock_event_reasons, "bitmask", "why clocks are held down now, nvmlClocksEventReason* bits") \
    I(pcie_gen_cur, "generation", "PCIe link generation now") \
    I(pcie_width_cur, "lanes", "PCIe link width now") \
    I(temperature_c, "celsius", "GPU temperature") \
    I(power_mw, "milliwatts", "power draw of the GPU and its board " \
                             "(a 1 s average on Ampere and newer)") \
    I(util_gpu_pct, "percent", "share of the last sample period in which a kernel ran") \
    I(util_mem_pct, "percent", "share of the last sample period in which device memory " \
                               "was read or written") \
    CP_NVML_TELEMETRY_FIELDS(I, S)

/* The sample rows only the sampler fills (src/lib/telemetry/, not doctor's
 * probe: PCIe throughput alone costs a 20 ms window per call).  GPM values
 * need two samples, so they are unknown on a sampler's first tick; XIDs
 * are counted by the sampler's parent since it started. */
#define CP_NVML_TELEMETRY_FIELDS(I, S) \
    I(clock_sm_mhz, "megahertz", "SM clock now") \
    I(clock_sm_max_mhz, "megahertz", "SM clock, the most the GPU can run") \
    I(clock_mem_mhz, "megahertz", "memory clock now") \
    I(clock_mem_max_mhz, "megahertz", "memory clock, the most the GPU can run") \
    I(energy_mj, "millijoules", "energy used since the driver loaded (Volta and newer)") \
    I(pcie_tx_kbs, "KB/s", "PCIe bytes sent by the GPU, over a 20 ms window") \
    I(pcie_rx_kbs, "KB/s", "PCIe bytes received by the GPU, over a 20 ms window") \
    I(gpm_sm_active_pct, "percent", "share of time the SMs were busy, averaged over all SMs " \
                                    "(GPM, Hopper and newer)") \
    I(gpm_sm_occupancy_pct, "percent", "resident warps against the most the SMs can hold " \
                                       "(GPM, Hopper and newer)") \
    I(gpm_tensor_active_pct, "percent", "share of time the SMs ran tensor-core instructions " \
                                        "(GPM, Hopper and newer)") \
    I(gpm_dram_bw_pct, "percent", "DRAM bandwidth used against the theoretical peak " \
                                  "(GPM, Hopper and newer)") \
    I(xid_events, "count", "XID events seen since the sampler started (NVML event API)") \
    I(xid_last, "", "the last XID seen since the sampler started") \
    I(mem_reserved_bytes, "bytes", "device memory the driver reserves for itself " \
                                   "(nvmlDeviceGetMemoryInfo_v2)")

/* One compute process on a GPU (nvmlDeviceGetComputeRunningProcesses). */
#define CP_GPU_PROCESS_FIELDS(I, S) \
    I(pid, "", "process id") \
    I(used_bytes, "bytes", "device memory the process uses") \
    I(sm_util_pct, "percent", "share of the last tick in which the process had a kernel on the " \
                              "GPU (the sampler only; unknown when NVML kept no sample of it)")

/* ------------------------------------------------------------------ CUDA --
 * All inventory: libcuda without a context answers only what a GPU is
 * (free memory and clocks need a context, which level 1 never creates). */
#define CP_CUDA_DEVICE_FIELDS(I, S) \
    S(name, 128, "product name as libcuda reports it") \
    I(cc_major, "", "compute capability, major") \
    I(cc_minor, "", "compute capability, minor") \
    I(total_mem_bytes, "bytes", "device memory, total (cuDeviceTotalMem_v2)") \
    S(pci_bus_id, 32, "PCI bus id, normalised to 0000:00:06.0") \
    S(uuid, 48, "GPU UUID, GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx") \
    I(sm_count, "count", "streaming multiprocessors") \
    I(compute_mode, "enum", "compute mode, CUcomputemode: 0 default, 2 prohibited, " \
                            "3 exclusive process")

/* Level 2 (doctor --level 2): what the steps run on one device inside the
 * libcuda probe child found (src/lib/probe/level2.c).  Each step that
 * failed names the Driver API call, its CUresult and the driver's name for
 * it in <step>_call, <step>_result, <step>_error; the answers keys are
 * cuda.dev.N.l2.NAME and are written only when level 2 ran. */
#define CP_CUDA_L2_FIELDS(I, S) \
    S(step, 16, "the level-2 step begun last: context, memory, compute, streams, copy, done") \
    S(ctx_call, 48, "driver API call that failed retaining the primary context") \
    I(ctx_result, "enum", "its CUresult (0 when the context was retained)") \
    S(ctx_error, 48, "its error name, CUDA_ERROR_...") \
    I(mem_free_bytes, "bytes", "device memory free, from the context (cuMemGetInfo_v2)") \
    I(mem_total_bytes, "bytes", "device memory total, from the context (cuMemGetInfo_v2)") \
    S(mem_call, 48, "driver API call that failed asking for free memory") \
    I(mem_result, "enum", "its CUresult") \
    S(mem_error, 48, "its error name") \
    S(compute_call, 48, "driver API call that failed in the compute step") \
    I(compute_result, "enum", "its CUresult (0 when every call of the step succeeded)") \
    S(compute_error, 48, "its error name") \
    I(seed, "", "random seed of the fill and of the fma input (from the clock)") \
    I(elements, "count", "elements each kernel computed and the CPU checked") \
    I(wrong, "count", "elements that differ from the CPU twins, fill and fma together") \
    S(wrong_kernel, 16, "the kernel of the first wrong element: cp_k_fill_u32 or cp_k_fma_f32") \
    I(wrong_index, "", "index of the first wrong element") \
    I(wrong_expected, "", "what the CPU twin computed there, as 32 bits") \
    I(wrong_got, "", "what the GPU returned there, as 32 bits") \
    S(streams_call, 48, "driver API call that failed in the streams step") \
    I(streams_result, "enum", "its CUresult (0 when every call of the step succeeded)") \
    S(streams_error, 48, "its error name") \
    I(copy_engines, "count", "copy engines (CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT)") \
    I(t_copy_us, "microseconds", "a host-to-device copy alone on one stream, event-timed") \
    I(t_kernel_us, "microseconds", "cp_k_spin alone on the other stream, event-timed") \
    I(t_both_us, "microseconds", "both queued at once on their two streams, event-timed") \
    I(overlap_pct, "percent", "(t_copy + t_kernel - t_both) / min(t_copy, t_kernel), kept to 0-100") \
    S(copy_call, 48, "driver API call that failed in the copy-rate step") \
    I(copy_result, "enum", "its CUresult (0 when every call of the step succeeded)") \
    S(copy_error, 48, "its error name") \
    I(copy_bytes, "bytes", "bytes of each timed copy") \
    I(h2d_pinned_mbs, "MB/s", "host-to-device rate from page-locked memory, median of the repeats") \
    I(d2h_pinned_mbs, "MB/s", "device-to-host rate into page-locked memory, median of the repeats") \
    I(h2d_pageable_mbs, "MB/s", "host-to-device rate from pageable memory, median of the repeats") \
    I(d2h_pageable_mbs, "MB/s", "device-to-host rate into pageable memory, median of the repeats") \
    I(pinned_numa_node, "", "NUMA node the page-locked copy buffer sat on (move_pages); unknown without NUMA") \
    I(wall_us, "microseconds", "wall time of every level-2 step on this device")

/* ------------------------------------------------------------------- PCI --
 * One PCI function of vendor 0x10de, from /sys/bus/pci/devices/ADDR. */
#define CP_PCI_FUNCTION_FIELDS(I, S) \
    S(addr, 16, "PCI address, 0000:00:06.0") \
    I(vendor, "", "PCI vendor id, 0x10de") \
    I(device, "", "PCI device id, e.g. 0x2335") \
    I(class_code, "", "PCI class: 0x03xxxx a GPU, 0x0680xx an NVSwitch bridge") \
    I(subsys_vendor, "", "PCI subsystem vendor id") \
    I(subsys_device, "", "PCI subsystem device id") \
    I(revision, "", "PCI revision") \
    I(numa_node, "", "NUMA node, -1 when the platform has no NUMA") \
    I(cur_speed_mts, "MT/s", "PCIe link speed now, 32.0 GT/s PCIe -> 32000") \
    I(max_speed_mts, "MT/s", "fastest PCIe link speed") \
    I(cur_width, "lanes", "PCIe link width now") \
    I(max_width, "lanes", "widest PCIe link") \
    S(driver, 32, "bound kernel driver (nvidia, nouveau, vfio-pci), empty if none")

#endif
