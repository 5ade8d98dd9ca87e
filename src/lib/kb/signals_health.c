/*
 * Explain rows for a GPU's health as nvidia-smi and the kernel driver report
 * it: nvidia-smi's errors for one sick GPU among healthy ones, the health
 * sections of `nvidia-smi -q` read by their values (row remapping, retired
 * pages, ECC counts, clock-event reasons, reset status), and the GSP
 * firmware's time-outs, boot and RPC failures in NVRM lines.
 *
 * A `-q` row's phrases are the keys of that section and .value says what
 * the value must be (signals.h), so "Pending : Yes" fires and the same
 * section of a healthy GPU ("Pending : No") does not; the line, value
 * included, is the evidence.  Older drivers' names of a key are listed too
 * ("Clocks Throttle Reasons" became "Clocks Event Reasons", "Pending" of
 * Retired Pages became "Pending Page Blacklist").
 *
 * To add a row: see signals_cuda.c.
 */
#include "signals.h"

#define HW CP_LAYER_HARDWARE
#define KE CP_LAYER_KERNEL
#define SY CP_LAYER_SYSTEM
#define DR CP_LAYER_DRIVER

#define F_RESET_MEM "drain the GPU and reset it (nvidia-smi -r -i N) or reboot so the remap takes effect, " \
                    "then check that `nvidia-smi -q -d ROW_REMAPPER,PAGE_RETIREMENT` shows Pending: No; if " \
                    "remaps keep coming or one fails, RMA the GPU"
/* A program's failure to read a value as a number, as Python and bash word it. */
#define SMI_VALUE_PARSE_SAYS "could not convert string to float:", "invalid literal for float():", \
    "invalid literal for int() with base 10:", "syntax error: operand expected (error token is"
#define C_SMI_VALUE_PARSE "a program reading nvidia-smi's or NVML's values took one for a number that is none: a " \
    "field this GPU does not report ([N/A], [Not Supported], or [Insufficient Permissions] for a MIG " \
    "instance's memory; common on vGPUs, MIG, laptops and boards without that sensor) or the driver " \
    "version, which has three parts (545.29.06); the GPU and driver are fine"
#define F_SMI_VALUE_PARSE "update the tool, or report it to its authors: N/A, Not Supported and Insufficient " \
    "Permissions mean unknown, a MIG instance's memory comes from its own device, and a driver version " \
    "compares part by part (or as NVML's numbers); meanwhile query only the fields this GPU reports " \
    "(`nvidia-smi --query-gpu=FIELDS --format=csv` shows which are [N/A])"

/* An exit status as Python (subprocess) and Go (exec) word it. */
#define SMI_EXIT(n) "returned non-zero exit status " #n, "exit status " #n

#define F_GSP "reset the GPU or reboot; if it repeats, move to a newer driver branch (GSP firmware fixes " \
              "come with the driver), and on a pre-Blackwell GPU try the proprietary module with " \
              "NVreg_EnableGpuFirmware=0"

const cp_signal cp_signals_health[] = {
    /* nvidia-smi's table and errors */
    { .id = "hardware.smi_no_handle", .layer = HW,
      .match = { "Unable to determine the device handle for GPU", "Unable to determine the device handle for" },
      /* "GPU is lost" is hardware.fallen_off_bus's; permissions are the system's */
      .also = { "Unknown Error", "requires reset", "requires restart", "External Power" },
      .cause = "NVML cannot reach one GPU while it lists the others: the GPU stopped answering (it fell off "
               "the bus, overheated, lost power, or is stuck after an uncorrectable error)",
      .fix = "read `dmesg | grep -i -e NVRM -e AER` for the XID or PCIe errors of that bus id; drain and "
             "reset the GPU or reboot; check its cooling, power cables and seating; if it repeats, RMA",
      .check = "hardware.pci_gpu" },
    /* a miner's or monitor's sensor read answered with NVML's Unknown Error (999) */
    { .id = "hardware.sensor_read_unknown", .layer = HW,
      .match = { "cannot get fan speed", "cannot get gpu temperature", "cannot get temperature", "cannot get power usage",
                 "failed to get fan speed", "failed to get temperature" },
      .also = { "999", "Unknown Error" },
      .cause = "the driver got no answer from the GPU to a sensor read (NVML's Unknown Error, 999): most often an "
               "overclock, undervolt or power limit the board cannot hold, or a GPU that is starting to fail (an XID 79 "
               "or 62 in the kernel log)",
      .fix = "return the clocks, voltage and power limit to stock (the miner's --oc options, Afterburner, nvidia-smi -rgc) "
             "and watch whether it recurs; sudo dmesg | grep -i xid; if it follows the GPU at stock settings, reseat it "
             "and check its power cables, then RMA",
      .check = "hardware.xid" },
    { .id = "hardware.smi_err_value", .layer = HW, .match = { "ERR!" },
      .also = { "|" },                          /* a cell of nvidia-smi's table */
      .cause = "nvidia-smi shows ERR! where a sensor value belongs: NVML could not read that sensor (power, "
               "fan, temperature) of this GPU",
      .fix = "query the GPU again (nvidia-smi -q -i N); if the reading stays ERR! or the GPU misbehaves, "
             "reset it and check its power cables and cooling; a sensor that keeps failing is a board fault (RMA)",
      .check = "hardware.pci_gpu" },
    { .id = "hardware.inforom_corrupted", .layer = HW,
      .match = { "infoROM is corrupted" },     /* nvidia-smi: "WARNING: infoROM is corrupted at gpu 0000:..." */
      .unless = "Return code",                 /* nvidia-smi's man page: "Return code 14 - infoROM is corrupted" */
      .cause = "the GPU's infoROM (its persistent store of ECC, page-retirement and power data) failed its "
               "checksum: ECC and retirement records cannot be trusted",
      .fix = "update the driver and reset the GPU; if the warning stays, have the infoROM reflashed by the "
             "vendor or RMA the GPU",
      .check = "hardware.memory_health" },

    /* nvidia-smi -q, read by value */
    { .id = "hardware.smi_remap_pending", .layer = HW, .value = CP_VALUE_YES,
      .match = { "Pending", "Pending Page Blacklist" },
      .cause = "memory errors left a row remap (or page retirement) pending: the GPU keeps using the bad "
               "memory until it is reset",
      .fix = F_RESET_MEM, .check = "hardware.memory_health" },
    { .id = "hardware.smi_remap_failure", .layer = HW, .value = CP_VALUE_YES,
      .match = { "Remapping Failure Occurred" },
      .cause = "a row remap failed: a memory bank has no spare rows left, so bad memory can no longer be "
               "masked",
      .fix = "drain the GPU and RMA it; until then keep jobs off it", .check = "hardware.memory_health" },
    { .id = "hardware.smi_uncorrectable", .layer = HW, .value = CP_VALUE_NONZERO,
      .match = { "Uncorrectable Error", "DRAM Uncorrectable", "SRAM Uncorrectable", "SRAM Uncorrectable Parity",
                 "SRAM Uncorrectable SEC-DED", "Double Bit ECC" },
      .cause = "the GPU counted uncorrectable (double-bit) memory errors: rows were remapped or pages "
               "retired, and running jobs may have read bad data",
      .fix = "check Remapped Rows / Retired Pages for a pending or failed remap and reset the GPU if one is "
             "pending; if the count keeps rising, drain the GPU and RMA it",
      .check = "hardware.memory_health" },
    { .id = "hardware.smi_sram_threshold", .layer = HW, .value = CP_VALUE_YES,
      .match = { "SRAM Threshold Exceeded" },
      .cause = "the GPU's on-chip SRAM has logged more errors than NVIDIA's threshold for a healthy part",
      .fix = "drain the GPU and contact NVIDIA support (RMA)", .check = "hardware.memory_health" },
    { .id = "hardware.smi_reset_required", .layer = HW, .value = CP_VALUE_RECOVERY,
      .match = { "Reset Required", "Drain and Reset Recommended", "GPU Recovery Action" },
      .cause = "the driver marked the GPU as needing a reset (or a drain and reset, or a reboot) after an "
               "unrecoverable error",
      .fix = "drain the GPU's jobs, then do the action named (nvidia-smi -r -i N, or reboot the node); read "
             "the kernel log for the XID that caused it",
      .check = "hardware.xid" },
    { .id = "hardware.smi_thermal_slowdown", .layer = HW, .value = CP_VALUE_ACTIVE,
      .match = { "HW Thermal Slowdown", "SW Thermal Slowdown" },
      .cause = "the GPU is too hot and its clocks are cut to cool it",
      .fix = "check the fans, airflow and the temperature in `nvidia-smi -q -d TEMPERATURE`; clean or fix the "
             "cooling (a passively cooled GPU needs server airflow)",
      .check = "hardware.clocks" },
    { .id = "hardware.smi_hw_slowdown", .layer = HW, .value = CP_VALUE_ACTIVE,
      .match = { "HW Slowdown", "HW Power Brake Slowdown" },
      .cause = "the GPU's hardware slowdown is engaged (clocks cut by half or more): it is overheating, or "
               "the board's power-brake signal is asserted (power supply, or a server that does not "
               "recognise the GPU)",
      .fix = "if HW Thermal Slowdown is not active, check the power supply and cables and the server's "
             "firmware support for this GPU; else fix the cooling",
      .check = "hardware.clocks" },

    /* GSP firmware (kernel module side) */
    { .id = "kernel.gsp_timeout", .layer = KE,
      .match = { "GSP RM heartbeat timed out", "LibOS heartbeat timed out", "_kgspIsHeartbeatTimedOut",
                 "_kgspLogRpcTimeout", "_kgspLogXid119", "rpcRecvPoll timedout", "Timeout waiting for GSP",
                 "waiting for RPC response from GPU",
                 "GSP task watchdog timeout", "GSP-CrashCat Report" /* the firmware's own crash report */,
                 "GSP core unresponsive", "Received signal from GSP that PMU has halted" },
      .unless = "NVRM: Xid",                    /* kernel.xid explains the XID 119 line */
      .cause = "the GPU's GSP firmware stopped answering the kernel driver (heartbeat or RPC time-out) or "
               "crashed (a GSP-CrashCat report, a task watchdog): a firmware hang, usually a driver bug, "
               "sometimes a GPU fault",
      .fix = F_GSP, .check = "driver.xid" },
    { .id = "kernel.gsp_boot_failed", .layer = KE,
      .match = { "Failed to boot GSP", "GSP boot failed", "Cannot initialize GSP firmware RM",
                 "cannot initialize GSP-RM", "failed to execute Booter Load" },
      .cause = "the kernel driver could not start the GPU's GSP firmware (at load or on resume): a driver "
               "bug for this GPU or kernel, a firmware file that does not match the module, or a GPU fault",
      .fix = "install the firmware of the same driver version (/lib/firmware/nvidia/VERSION) and try "
             "another driver branch; on resume failures, try NVreg_PreserveVideoMemoryAllocations=1 and "
             "the nvidia-suspend services; if every driver fails, test the GPU in another machine",
      .check = "kernel.gpu_bound" },
    { .id = "kernel.gsp_suspend_failed", .layer = KE,
      .match = { "GSP unload failed at suspend", "nv_pmops_suspend [nvidia] returns",
                 "gpuPowerManagementEnter:", "gpuPowerManagementResume:" },
      .cause = "the kernel driver could not put the GPU's GSP firmware to sleep (or wake it) at suspend: the "
               "nvidia device refuses to suspend and the machine fails to sleep or wakes to a dead GPU; a "
               "driver power-management bug, often without the video-memory save set up",
      .fix = "enable the driver's suspend path (NVreg_PreserveVideoMemoryAllocations=1 with the "
             "nvidia-suspend, nvidia-hibernate and nvidia-resume services, NVreg_TemporaryFilePath on a disk "
             "with room for the GPU memory), try another driver branch, or use s2idle instead of deep sleep",
      .check = "driver.xid" },
    { .id = "kernel.gsp_rpc_failed", .layer = KE,
      .match = { "GspRmAlloc failed", "GspRmControl failed", "GspRmFree failed", "rpcSendMessage failed" },
      .cause = "a request to the GSP firmware failed; alone it is often harmless (a control this GPU does "
               "not support), beside time-outs or resets it shows the firmware has failed",
      .fix = "read its status and the NVRM lines around it; if GPU work fails, reset the GPU or reboot",
      .check = "driver.xid", .notice = 1 },
    { .id = "hardware.gpu_reset_required", .layer = HW,
      .match = { "NV_ERR_RESET_REQUIRED" },
      .cause = "the driver refuses work on a GPU that needs a reset after an unrecoverable error",
      .fix = "drain the GPU and reset it (nvidia-smi -r -i N) or reboot; read the kernel log for the XID "
             "that caused it; if it repeats, RMA",
      .check = "hardware.xid" },
    { .id = "hardware.bad_register_read", .layer = HW,
      .match = { "Possible bad register read" },
      .cause = "reads of the GPU's registers return error patterns (0xbadf...): the GPU is not answering "
               "properly on PCIe or inside the chip",
      .fix = "cold-boot the machine (power off); reseat the GPU and its power; if it persists in another "
             "slot or machine, RMA the GPU",
      .check = "hardware.pci_gpu" },
    { .id = "hardware.pcie_fatal", .layer = CP_LAYER_HARDWARE,
      .match = { "severity=Uncorrected (Fatal)", "Uncorrected (Fatal) error received", "AER: device recovery failed" },
      .cause = "the PCIe link to the GPU (or the switch or root port above it) reported a fatal uncorrectable error "
               "(a completion timeout, a malformed packet) and the link could not be recovered: the GPU falls off "
               "the bus",
      .fix = "reseat the GPU and its riser or cable, check its power connectors and the slot's link speed setting "
             "(a forced Gen setting in the BIOS), update the BIOS; if it follows the GPU to another slot, replace "
             "the GPU",
      .check = "hardware.pcie_link" },
    { .id = "driver.smi_product_unknown", .layer = CP_LAYER_DRIVER, .match = { ": Unknown Error" },
      .also = { "Product Name" },
      .cause = "`nvidia-smi -q` cannot name the GPU (Product Name: Unknown Error): the installed driver release "
               "does not know this board, usually a GPU newer than the driver",
      .fix = "install a driver release that supports this GPU (NVIDIA's driver search, or the distribution's newest "
             "branch), then reboot",
      .check = "driver.devices" },
    /* nvidia-smi's exit status as a program that ran it reports it (Python's CalledProcessError, Go's
     * exec): its man page's RETURN VALUE list, each code in the layer it names */
    { .id = "kernel.smi_exit_no_driver", .layer = KE, .match = { SMI_EXIT(9) }, .also = { "nvidia-smi" },
      .cause = "nvidia-smi exited with 9, \"NVIDIA driver is not loaded\": the nvidia kernel module is not loaded "
               "(not installed for this kernel, failed to load, or a machine without an NVIDIA GPU)",
      .fix = "run nvidia-smi by hand and `lsmod | grep nvidia`; load or reinstall the module for this kernel "
             "(`sudo modprobe nvidia`, DKMS); on a machine with no NVIDIA GPU the program should take the "
             "failure as no GPU",
      .check = "kernel.nvidia_module" },
    { .id = "driver.smi_exit_no_nvml", .layer = DR, .match = { SMI_EXIT(12) }, .also = { "nvidia-smi" },
      .cause = "nvidia-smi exited with 12, \"NVML Shared Library couldn't be found or loaded\": "
               "libnvidia-ml.so.1 of the driver is missing or off the loader's path",
      .fix = "install the driver's user-space libraries (libnvidia-ml.so.1 of the module's version); in a "
             "container, start it through the NVIDIA Container Toolkit so the runtime mounts them",
      .check = "driver.nvml" },
    { .id = "system.smi_exit_no_permission", .layer = SY, .match = { SMI_EXIT(4) }, .also = { "nvidia-smi" },
      .cause = "nvidia-smi exited with 4: the user may not open the GPU's device nodes or do what was asked "
               "(a setting that needs root)",
      .fix = "check /dev/nvidia* permissions and the user's groups; settings (clocks, persistence, MIG) need root",
      .check = "system.devnode_access" },
    { .id = "system.smi_exit_not_found", .layer = SY, .match = { SMI_EXIT(6) }, .also = { "nvidia-smi" },
      .cause = "nvidia-smi exited with 6, \"a query to find an object was unsuccessful\": the GPU asked for "
               "(-i N, a UUID, a MIG instance) is not among those this process sees, or none is",
      .fix = "compare the query with `nvidia-smi -L` in the same environment; check CUDA_VISIBLE_DEVICES, the "
             "job's GPU allocation (--gres, --gpus) and the container's devices",
      .check = "system.visibility" },
    { .id = "hardware.smi_exit_gpu_fault", .layer = HW,
      .match = { SMI_EXIT(8), SMI_EXIT(10), SMI_EXIT(14), SMI_EXIT(15) }, .also = { "nvidia-smi" },
      .cause = "nvidia-smi's exit status names a GPU fault: 8, its external power cables are not attached "
               "properly; 10, an interrupt issue with a GPU; 14, the infoROM is corrupted; 15, the GPU has "
               "fallen off the bus",
      .fix = "read `sudo dmesg | grep -iE 'nvrm|xid'` and `nvidia-smi -q` for the GPU; reseat its power "
             "cables (8), reset or reboot (10, 15); a corrupted infoROM (14) is a warning the GPU often still "
             "runs with, but scripts that check the exit status stop (the GPU operator's validator): the "
             "board needs an infoROM reflash or an RMA",
      .check = "hardware.pci_gpu" },
    /* a monitoring tool or a program's GPU picker parsing nvidia-smi's or NVML's values (GPUtil, gpustack,
     * sacred, ignite's GpuInfo); in a shell script, bash's arithmetic test on the value */
    { .id = "application.smi_value_parse", .layer = CP_LAYER_APPLICATION, .value = CP_VALUE_SMI_FIELD,
      .match = { SMI_VALUE_PARSE_SAYS }, .cause = C_SMI_VALUE_PARSE, .fix = F_SMI_VALUE_PARSE, .check = NULL },
    { .id = "application.smi_xml_value_parse", .layer = CP_LAYER_APPLICATION, .value = CP_VALUE_SMI_FIELD_BARE,
      .context = CP_CONTEXT_GPU, .match = { SMI_VALUE_PARSE_SAYS }, .cause = C_SMI_VALUE_PARSE,
      .fix = F_SMI_VALUE_PARSE, .check = NULL },
    /* the same NVML error, read from the package that called NVML (dask, dask-cuda, a monitoring library) */
    { .id = "framework.nvml_caller_maybe", .layer = CP_LAYER_FRAMEWORK, .alternative = 1,
      .match = { "NVMLError_NoPermission", "NVMLError_Unknown", "NVMLError_NotSupported",
                 "NVMLError_FunctionNotFound", "NVMLError_NoData" },
      .cause = "or the package that called NVML asked for what this GPU or platform does not answer: WSL, MIG "
               "instances and vGPUs give fewer NVML queries (running processes, a parent GPU's memory, some "
               "sensors), and the package must treat that as unknown",
      .fix = "update the package (dask and dask-cuda handle WSL and MIG in later releases), or turn its NVML "
             "monitoring off; `nvidia-smi -q` in the same place shows what NVML answers",
      .check = NULL },
    { .id = "driver.smi_field_unknown", .layer = CP_LAYER_DRIVER, .match = { "[Unknown Error]" },
      .cause = "nvidia-smi's query printed [Unknown Error] for a field: NVML answered that one query with an "
               "unknown error while the GPU otherwise answers, most often a field this driver release fails to "
               "read on this board (after a driver update), or a driver whose libraries and module differ",
      .fix = "reboot after a driver update so library and module match (`cuprobe doctor`); compare the other "
             "fields (`nvidia-smi -q -d POWER,CLOCK`); if only that field fails, use another driver release; "
             "if every field fails, treat the GPU as sick (kernel log, XIDs)",
      .check = "driver.version_match" },
    { .id = NULL }
};
