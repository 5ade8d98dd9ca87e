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
 *            copy rate, 10^6 bytes a second), "microseconds", "kHz", "MHz"
 *            (clocks), "bits" (a bus width), "millijoules", "KB/s" (NVML's
 *            PCIe throughput, 1024 bytes a second), "" (an id or version number)
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
    I(power_limit_mw, "milliwatts", "enforced power limit, after every limiter") \
    I(max_sm_clock_mhz, "MHz", "highest SM clock (nvmlDeviceGetMaxClockInfo, NVML_CLOCK_SM)") \
    I(max_mem_clock_mhz, "MHz", "highest memory clock (nvmlDeviceGetMaxClockInfo, NVML_CLOCK_MEM)") \
    S(nvlink_state, 24, "nvmlDeviceGetNvLinkState of links 0-17, one character each: 1 active, " \
                        "0 inactive, - no such link (the first - ends the list)") \
    S(nvlink_remote, 256, "PCI bus id at the far end of each link (nvmlDeviceGetNvLinkRemotePciInfo_v2), " \
                          "comma-separated in link order, empty for a link not active") \
    I(nvlink_version, "", "NVLink version of link 0 (nvmlDeviceGetNvLinkVersion: 4 on Hopper)") \
    S(p2p_read, 40, "nvmlDeviceGetP2PStatus(NVML_P2P_CAPS_INDEX_READ) to every NVML index, one " \
                    "character each: 1 ok, 0 not supported, - itself, ? the call failed")

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
    I(clock_sm_mhz, "MHz", "SM clock now (the most it can run: max_sm_clock_mhz)") \
    I(clock_mem_mhz, "MHz", "memory clock now (the most it can run: max_mem_clock_mhz)") \
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
                                   "(nvmlDeviceGetMemoryInfo_v2)") \
    I(util_gpu_period_us, "microseconds", "the device's own sample period behind util_gpu_pct: " \
                                          "the spacing of the GPU-utilisation samples NVML keeps " \
                                          "(1/6 s to 1 s, by product); unknown until two were seen") \
    I(util_gpu_samples, "count", "NVML's samples util_gpu_pct is the mean of, since the last " \
                                 "tick; 0: none came, it is nvmlDeviceGetUtilizationRates' " \
                                 "last period")

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
                            "3 exclusive process") \
    CP_CUDA_ATTR_FIELDS(CP_CUDA_ATTR_AS_I, I) \
    S(peer_access, 40, "cuDeviceCanAccessPeer to every CUDA ordinal, one character each: " \
                       "1 yes, 0 no, - itself, ? the call failed")

/* The device attributes `cuprobe info` shows (deviceQuery's set), asked
 * with cuDeviceGetAttribute without a context:
 *     A(I, name, unit, CU_DEVICE_ATTRIBUTE_ suffix, its number, help)
 * The number is checked against the official cuda.h (tests/unit/test_abi.c)
 * and the help names the enum; the rows are cuda.dev.N.NAME answers like
 * the others (CP_CUDA_DEVICE_FIELDS includes them). */
#define CP_CUDA_ATTR_AS_I(I, name, unit, e, num, help) I(name, unit, help " (CU_DEVICE_ATTRIBUTE_" #e ")")
#define CP_CUDA_ATTR_FIELDS(A, I) \
    A(I, clock_khz, "kHz", CLOCK_RATE, 13, "peak SM clock") \
    A(I, mem_clock_khz, "kHz", MEMORY_CLOCK_RATE, 36, "peak memory clock") \
    A(I, mem_bus_bits, "bits", GLOBAL_MEMORY_BUS_WIDTH, 37, "global memory bus width") \
    A(I, l2_cache_bytes, "bytes", L2_CACHE_SIZE, 38, "L2 cache size") \
    A(I, const_mem_bytes, "bytes", TOTAL_CONSTANT_MEMORY, 9, "constant memory") \
    A(I, smem_block_bytes, "bytes", MAX_SHARED_MEMORY_PER_BLOCK, 8, "shared memory per block") \
    A(I, smem_block_optin_bytes, "bytes", MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 97, \
      "shared memory per block a kernel may opt in to") \
    A(I, smem_sm_bytes, "bytes", MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 81, "shared memory per SM") \
    A(I, regs_block, "count", MAX_REGISTERS_PER_BLOCK, 12, "32-bit registers per block") \
    A(I, regs_sm, "count", MAX_REGISTERS_PER_MULTIPROCESSOR, 82, "32-bit registers per SM") \
    A(I, warp_size, "count", WARP_SIZE, 10, "threads in a warp") \
    A(I, threads_block, "count", MAX_THREADS_PER_BLOCK, 1, "threads per block at most") \
    A(I, threads_sm, "count", MAX_THREADS_PER_MULTIPROCESSOR, 39, "resident threads per SM at most") \
    A(I, blocks_sm, "count", MAX_BLOCKS_PER_MULTIPROCESSOR, 106, "resident blocks per SM at most") \
    A(I, block_x, "count", MAX_BLOCK_DIM_X, 2, "block dimension x at most") \
    A(I, block_y, "count", MAX_BLOCK_DIM_Y, 3, "block dimension y at most") \
    A(I, block_z, "count", MAX_BLOCK_DIM_Z, 4, "block dimension z at most") \
    A(I, grid_x, "count", MAX_GRID_DIM_X, 5, "grid dimension x at most") \
    A(I, grid_y, "count", MAX_GRID_DIM_Y, 6, "grid dimension y at most") \
    A(I, grid_z, "count", MAX_GRID_DIM_Z, 7, "grid dimension z at most") \
    A(I, async_engines, "count", ASYNC_ENGINE_COUNT, 40, "copy engines that run beside kernels") \
    A(I, ecc_enabled, "bool", ECC_ENABLED, 32, "ECC on device memory enabled") \
    A(I, concurrent_kernels, "bool", CONCURRENT_KERNELS, 31, "kernels of one context may run at once") \
    A(I, unified_addressing, "bool", UNIFIED_ADDRESSING, 41, "one address space with the host") \
    A(I, managed_memory, "bool", MANAGED_MEMORY, 83, "managed memory can be allocated") \
    A(I, pageable_access, "bool", PAGEABLE_MEMORY_ACCESS, 88, \
      "kernels read pageable host memory coherently (HMM or ATS)") \
    A(I, can_map_host, "bool", CAN_MAP_HOST_MEMORY, 19, "host memory can be mapped into the device") \
    A(I, integrated, "bool", INTEGRATED, 18, "an integrated GPU sharing host memory") \
    A(I, exec_timeout, "bool", KERNEL_EXEC_TIMEOUT, 17, "a watchdog limits a kernel's run time") \
    A(I, preemption, "bool", COMPUTE_PREEMPTION_SUPPORTED, 90, "compute preemption") \
    A(I, cooperative_launch, "bool", COOPERATIVE_LAUNCH, 95, "cooperative kernels can be launched") \
    A(I, multi_gpu_board, "bool", MULTI_GPU_BOARD, 84, "the device is on a multi-GPU board") \
    A(I, mps_enabled, "bool", MPS_ENABLED, 133, "contexts are shared through MPS") \
    A(I, host_numa_id, "", HOST_NUMA_ID, 134, "NUMA node of the host closest to the device, -1 without NUMA")

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

/* Level 2's libraries (doctor --level 2): one tiny run of each CUDA
 * library, in a probe child of its own beside the libcuda one
 * (src/lib/probe/libs_l2.c), checked against a CPU reference on fresh
 * random data.  One record per library (cublas, cufft, cudnn, nvrtc,
 * nccl); the answers keys are libl2.NAME.FIELD, written only when level 2
 * ran.  The RSS figures are the child's VmRSS before the library was
 * loaded, after its load and initialisation, and after its run, so what
 * each library's own loading costs shows apart from the rest. */
#define CP_LIB_L2_FIELDS(I, S) \
    S(step, 16, "the step begun last: load, init, run, done") \
    S(result, 16, "ok, missing (no such file), load (dlopen or a symbol failed), call (a call " \
                  "failed), wrong (an element differs from the CPU's), skip") \
    S(path, CP_PATH_MAX, "the file run, its real path (or the name given to dlopen when it was not loaded)") \
    S(error, 256, "dlerror(), the missing symbol, or the skip's reason") \
    S(call, 48, "the call that failed: the library's (cublasSgemm_v2) or the runtime's (cuMemAlloc_v2)") \
    I(status, "enum", "its status: cublasStatus_t, cufftResult, cudnnStatus_t, nvrtcResult, " \
                      "ncclResult_t, or the CUresult of a runtime call") \
    S(status_name, 64, "the library's name for that status (CUBLAS_STATUS_..., ...)") \
    I(ranks, "count", "GPUs the run used (NCCL: ranks of the communicator, one per visible GPU)") \
    I(elements, "count", "output elements checked against the CPU reference") \
    I(wrong, "count", "output elements outside the tolerance of the CPU reference") \
    I(wrong_index, "", "index of the first wrong element") \
    S(wrong_expected, 32, "what the CPU reference computed there") \
    S(wrong_got, 32, "what the library returned there") \
    I(load_us, "microseconds", "dlopen and the symbol table") \
    I(init_us, "microseconds", "the library's initialisation: handle, plan, compile or communicator") \
    I(run_us, "microseconds", "the run: inputs in, the call, results back") \
    I(rss_before_bytes, "bytes", "the child's resident memory (VmRSS) before the library was loaded") \
    I(rss_loaded_bytes, "bytes", "VmRSS after the library's load and initialisation") \
    I(rss_after_bytes, "bytes", "VmRSS after its run") \
    I(hwm_after_bytes, "bytes", "the child's peak resident memory (VmHWM) after its run")

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
    S(local_cpulist, 128, "CPUs nearest the function, as the kernel lists them: 0-31,64-95") \
    I(cur_speed_mts, "MT/s", "PCIe link speed now, 32.0 GT/s PCIe -> 32000") \
    I(max_speed_mts, "MT/s", "fastest PCIe link speed") \
    I(cur_width, "lanes", "PCIe link width now") \
    I(max_width, "lanes", "widest PCIe link") \
    S(driver, 32, "bound kernel driver (nvidia, nouveau, vfio-pci), empty if none")

#endif
