/*
 * XID codes (NVIDIA kernel-driver error reports) and NVML clock-event bits,
 * as data.  Source: REFERENCE 6.2 (NVIDIA's XID catalog as copied by
 * leptonai/gpud) and 2.5.
 *
 * Layer words follow DESIGN.md's stack: "hardware" (GPU, memory/ECC, NVLink,
 * PCIe, power), "kernel" (the nvidia kernel module and the firmware it runs:
 * RM, GSP, PMU), "system" (platform or fabric configuration) and
 * "application" (a program's bug; the GPU stays healthy).  Where the catalog
 * says "app or driver" the row names the more common cause.
 *
 * Severity: INFO needs no action, WARN needs the application restarted or a
 * trend watched, FAIL takes the GPU (or node) out until reset, reboot or RMA.
 *
 * Mnemonics are the catalog's, except the copy-engine and video-engine rows,
 * whose names are ours (the catalog has one row per engine instance).
 *
 * To add an XID: insert a row in numeric order.
 */
#include <stdio.h>
#include <stddef.h>

#include "cuprobe/facts.h"
#include "kb.h"

#define HW "hardware"
#define KM "kernel"
#define SYS "system"
#define APP "application"
#define DRV "driver"

#define A_RESTART_APP "restart the application; if it repeats, debug the program (compute-sanitizer)"
#define A_RESET_GPU "drain the GPU and reset it (nvidia-smi -r) or reboot the node"
#define A_REBOOT "drain and reboot the node; check PCIe seating, power and cooling"
#define A_RMA "drain the GPU and reset it; if it repeats, contact NVIDIA support (RMA)"
#define A_NONE "no action needed; informational"
#define A_CE "restart the application; if it repeats on a healthy program, contact NVIDIA support"
#define A_VIDEO "restart the application that uses the video engine"
#define A_NVLINK "drain the GPU, reset it and check the NVLink/NVSwitch fabric (fabric manager, cabling)"

#define CE(x, n) {x, "CE" #n "_ERROR", "copy engine " #n " exception", APP, CP_XID_SEV_WARN, A_CE, NULL}
#define VID(x) {x, "VIDEO_ENGINE_ERROR", "video engine (NVDEC/NVJPG/OFA) exception", APP, CP_XID_SEV_WARN, A_VIDEO, NULL}

static const cp_xid_info xids[] = {
    {8, "FIFO_ERROR_IDLE_TIMEOUT", "GPU stopped processing work (channel idle timeout)", APP, CP_XID_SEV_WARN, A_RESTART_APP, NULL},
    {13, "GR_EXCEPTION", "graphics/compute engine exception: out-of-range access, illegal instruction or device trap", APP, CP_XID_SEV_WARN, A_RESTART_APP, NULL},
    {31, "FIFO_ERROR_MMU_ERR_FLT", "GPU memory page fault: a kernel used a bad address (pairs with CUDA error 700)", APP, CP_XID_SEV_WARN, A_RESTART_APP, DRV},
    {32, "PBDMA_ERROR", "invalid or corrupted push-buffer stream", APP, CP_XID_SEV_WARN, A_RESTART_APP, DRV},
    {38, "FECS_ERR_WATCHDOG_TIMEOUT", "driver firmware watchdog timeout", KM, CP_XID_SEV_WARN, "watch for repeats; if it repeats, update the driver and contact NVIDIA support", NULL},
    CE(39, 0), CE(40, 1), CE(41, 2),
    {43, "RESETCHANNEL_VERIF_ERROR", "GPU stopped a channel after a fault (usually follows XID 13/31 or a killed process)", APP, CP_XID_SEV_WARN, A_RESTART_APP, NULL},
    {44, "GR_FAULT_DURING_CTXSW", "fault during a context switch", KM, CP_XID_SEV_WARN, "watch for repeats; if it repeats, update the driver and contact NVIDIA support", NULL},
    {45, "PREEMPTIVE_REMOVAL", "work removed after an earlier error (process killed or hit by another fault)", APP, CP_XID_SEV_INFO, "look at the XID logged before it; alone it needs no action", NULL},
    {46, "GPU_TIMEOUT_ERROR", "GPU stopped processing", KM, CP_XID_SEV_FAIL, A_RESET_GPU, NULL},
    {48, "GPU_ECC_DBE", "double-bit (uncorrectable) ECC memory error", HW, CP_XID_SEV_FAIL, "drain the GPU and reset it so the bad row is remapped; if it repeats, RMA", NULL},
    {61, "PMU_BREAKPOINT", "internal micro-controller breakpoint (unused on Ampere and later)", KM, CP_XID_SEV_WARN, "if it repeats, contact NVIDIA support", NULL},
    {62, "PMU_HALT_ERROR", "internal micro-controller halted", KM, CP_XID_SEV_FAIL, A_RMA, NULL},
    {63, "INFOROM_DRAM_RETIREMENT_EVENT", "a memory row remap or page retirement was recorded (applied at the next reset)", HW, CP_XID_SEV_INFO, "reset the GPU when convenient so the remap takes effect", NULL},
    {64, "INFOROM_DRAM_RETIREMENT_FAILURE", "a memory row remap or page retirement failed", HW, CP_XID_SEV_FAIL, A_RMA, NULL},
    {68, "NVDEC0_ERROR", "video decoder exception", APP, CP_XID_SEV_WARN, A_VIDEO, NULL},
    {69, "GR_CLASS_ERROR", "graphics/compute engine class error", APP, CP_XID_SEV_WARN, A_RESTART_APP, NULL},
    CE(70, 3), CE(71, 4), CE(72, 5),
    {74, "NVLINK_ERROR", "NVLink error", HW, CP_XID_SEV_FAIL, A_NVLINK, NULL},
    CE(75, 6), CE(76, 7), CE(77, 8),
    {79, "GPU_HAS_FALLEN_OFF_THE_BUS", "the GPU is no longer reachable over PCIe", HW, CP_XID_SEV_FAIL, A_REBOOT, NULL},
    VID(82), VID(83), VID(84), CE(85, 9), VID(86), VID(87), VID(88), VID(89),
    {92, "EXCESSIVE_SBE_INTERRUPTS", "high rate of single-bit (corrected) ECC errors", HW, CP_XID_SEV_WARN, "watch the ECC counters; if the rate stays high, contact NVIDIA support", NULL},
    {94, "CONTAINED_ERROR", "contained memory error: only the affected process was killed", HW, CP_XID_SEV_WARN, "restart the application; reset the GPU when convenient to remap the row", NULL},
    {95, "UNCONTAINED_ERROR", "uncontained memory error: all work on the GPU is affected", HW, CP_XID_SEV_FAIL, A_RESET_GPU, NULL},
    VID(96), VID(97), VID(98), VID(99), VID(100), VID(101), VID(102), VID(103), VID(104), VID(105),
    {109, "CTXSW_TIMEOUT_ERROR", "context-switch timeout", APP, CP_XID_SEV_FAIL, A_RESET_GPU, NULL},
    {110, "SEC_FAULT_ERROR", "security fault in the GPU firmware", KM, CP_XID_SEV_FAIL, A_RESET_GPU, NULL},
    {119, "GSP_RPC_TIMEOUT", "the GSP firmware did not answer a driver request in time", KM, CP_XID_SEV_FAIL, "reset the GPU or reboot; if it repeats, update the driver", NULL},
    {120, "GSP_ERROR", "GSP firmware error", KM, CP_XID_SEV_FAIL, "reset the GPU or reboot; if it repeats, update the driver", NULL},
    {121, "C2C_ERROR", "chip-to-chip (C2C) link error", HW, CP_XID_SEV_WARN, "watch for repeats; if it repeats, contact NVIDIA support", NULL},
    CE(126, 10), CE(127, 11), CE(128, 12), CE(129, 13), CE(130, 14),
    CE(131, 15), CE(132, 16), CE(133, 17), CE(134, 18), CE(135, 19),
    {136, "ALI_TRAINING_FAIL", "NVLink training failed", HW, CP_XID_SEV_FAIL, A_NVLINK, NULL},
    {137, "NVLINK_PRIV_ERR", "NVLink privilege error", HW, CP_XID_SEV_WARN, "if it repeats, check the NVLink fabric and contact NVIDIA support", NULL},
    VID(139),
    {140, "UNRECOVERABLE_ECC_ERROR_ESCAPE", "an ECC error escaped recovery", HW, CP_XID_SEV_FAIL, A_RMA, NULL},
    {143, "GPU_INIT_ERROR", "the GPU failed to initialise", HW, CP_XID_SEV_FAIL, A_RMA, NULL},
    {144, "NVLINK_SAW_ERROR", "NVLink5 SAW unit error", HW, CP_XID_SEV_FAIL, A_NVLINK, NULL},
    {145, "NVLINK_RLW_ERROR", "NVLink5 RLW unit error", HW, CP_XID_SEV_FAIL, A_NVLINK, NULL},
    {146, "NVLINK_TLW_ERROR", "NVLink5 TLW unit error", HW, CP_XID_SEV_FAIL, A_NVLINK, NULL},
    {147, "NVLINK_TREX_ERROR", "NVLink5 TREX unit error", HW, CP_XID_SEV_FAIL, A_NVLINK, NULL},
    {148, "NVLINK_NVLPW_CTRL_ERROR", "NVLink5 NVLPW control error", HW, CP_XID_SEV_FAIL, A_NVLINK, NULL},
    {149, "NVLINK_NETIR_ERROR", "NVLink5 NETIR unit error", HW, CP_XID_SEV_FAIL, A_NVLINK, NULL},
    {150, "NVLINK_MSE_ERROR", "NVLink5 MSE unit error", HW, CP_XID_SEV_FAIL, A_NVLINK, NULL},
    {151, "KEY_ROTATION_ERROR", "confidential-computing key rotation failed", KM, CP_XID_SEV_FAIL, "restart the VM; if it repeats, contact NVIDIA support", NULL},
    {154, "GPU_RECOVERY_ACTION_CHANGED", "the driver changed the GPU's recovery action (none, reset, reboot, drain)", SYS, CP_XID_SEV_INFO, "do the recovery action the line names", NULL},
    {155, "NVLINK_SW_DEFINED_ERROR", "NVLink software-defined error", HW, CP_XID_SEV_FAIL, A_NVLINK, NULL},
    {156, "RESOURCE_RETIREMENT_EVENT", "a GPU resource was retired", HW, CP_XID_SEV_WARN, "reset the GPU when convenient", NULL},
    {157, "RESOURCE_RETIREMENT_FAILURE", "retiring a GPU resource failed", HW, CP_XID_SEV_FAIL, A_RMA, NULL},
    {158, "GPU_FATAL_TIMEOUT", "fatal GPU timeout", HW, CP_XID_SEV_FAIL, A_RMA, NULL},
    {159, "CHI_NON_DATA_ERROR", "CHI interconnect non-data error", HW, CP_XID_SEV_WARN, "check unified-memory (UVM) use; if it repeats, contact NVIDIA support", NULL},
    {162, "PSHC_STATUS", "power-smoothing circuitry status report", HW, CP_XID_SEV_INFO, A_NONE, NULL},
    {163, "PSHC_STATUS", "power-smoothing circuitry status report", HW, CP_XID_SEV_INFO, A_NONE, NULL},
    {164, "PSHC_LIFETIME", "power-smoothing circuitry lifetime report", HW, CP_XID_SEV_WARN, "plan service for the power-smoothing circuitry", NULL},
    {165, "PSHC_LIFETIME", "power-smoothing circuitry lifetime report", HW, CP_XID_SEV_WARN, "plan service for the power-smoothing circuitry", NULL},
    {167, "PCIE_FATAL_TIMEOUT", "fatal PCIe timeout", HW, CP_XID_SEV_FAIL, A_REBOOT, NULL},
    {168, "REDUCED_GPU_MEMORY_CAPACITY", "errors in the write-protected memory region reduced the usable memory", HW, CP_XID_SEV_FAIL, A_RMA, NULL},
    {171, "UNCORRECTABLE_DRAM_ERROR", "detail of an uncorrectable error in DRAM (follows XID 48)", HW, CP_XID_SEV_FAIL, "drain the GPU and reset it; if it repeats, RMA", NULL},
    {172, "UNCORRECTABLE_SRAM_ERROR", "detail of an uncorrectable error in on-chip SRAM (follows XID 48)", HW, CP_XID_SEV_FAIL, "drain the GPU and reset it; if it repeats, RMA", NULL},
};

/* Look up an XID number; NULL when it is not in the table. */
const cp_xid_info *cp_xid_lookup(int64_t xid)
{
    for (size_t i = 0; i < sizeof(xids) / sizeof(xids[0]); i++)
        if (xids[i].xid == xid)
            return &xids[i];
    return NULL;
}

/* XIDs that report on another fault or on recovery; see kb.h. */
int cp_xid_is_notice(int64_t xid)
{
    static const int notices[] = { 43, 45, 63, 64, 154 };
    for (size_t i = 0; i < sizeof notices / sizeof notices[0]; i++)
        if (notices[i] == xid)
            return 1;
    return 0;
}

/* nvmlClocksEventReason* bits (REFERENCE 2.5), lowest bit first. */
static const struct {
    int64_t bit;
    const char *word;
} clock_bits[] = {
    {0x1, "gpu idle"},
    {0x2, "applications clocks setting"},
    {0x4, "sw power cap"},
    {0x8, "hw slowdown"},
    {0x10, "sync boost"},
    {0x20, "sw thermal slowdown"},
    {0x40, "hw thermal slowdown"},
    {0x80, "hw power brake slowdown"},
    {0x100, "display clock setting"},
};

/* Append s to buf (capacity cap, current length *used), truncating safely. */
static void append(char *buf, int cap, int *used, const char *s)
{
    if (*used >= cap - 1)
        return;
    int n = snprintf(buf + *used, (size_t)(cap - *used), "%s", s);
    if (n > 0)
        *used = (*used + n < cap - 1) ? *used + n : cap - 1;
}

/* Clock-event bits -> "hw thermal slowdown, sw power cap"; 0 -> "none",
 * CP_UNKNOWN -> "N/A", bits this table does not know -> "other 0x...".
 * A short buffer truncates the words.  Returns buf. */
const char *cp_clock_events_str(int64_t bits, char *buf, int cap)
{
    if (!buf || cap <= 0)
        return buf;
    buf[0] = '\0';
    if (bits == CP_UNKNOWN || bits < 0) {
        snprintf(buf, (size_t)cap, "N/A");
        return buf;
    }
    if (bits == 0) {
        snprintf(buf, (size_t)cap, "none");
        return buf;
    }
    int used = 0;
    int64_t rest = bits;
    for (size_t i = 0; i < sizeof(clock_bits) / sizeof(clock_bits[0]); i++) {
        if (!(bits & clock_bits[i].bit))
            continue;
        if (used > 0)
            append(buf, cap, &used, ", ");
        append(buf, cap, &used, clock_bits[i].word);
        rest &= ~clock_bits[i].bit;
    }
    if (rest) {
        char other[32];
        /* Newer drivers may add bits; show them rather than hide them. */
        snprintf(other, sizeof other, "other 0x%llx", (unsigned long long)rest);
        if (used > 0)
            append(buf, cap, &used, ", ");
        append(buf, cap, &used, other);
    }
    return buf;
}

/* Row i of the clock-event table (lowest bit first): its bit into *bit and
 * its words into *word; 0 past the last row. */
int cp_clock_event_reason(int i, int64_t *bit, const char **word)
{
    if (i < 0 || (size_t)i >= sizeof(clock_bits) / sizeof(clock_bits[0]))
        return 0;
    *bit = clock_bits[i].bit;
    *word = clock_bits[i].word;
    return 1;
}
