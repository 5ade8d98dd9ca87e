/*
 * Knowledge as data: names and meanings of NVIDIA error codes, XIDs, and the
 * version tables that tie toolkits to drivers.  Pure lookups, no I/O.
 */
#ifndef CP_KB_H
#define CP_KB_H

#include <stddef.h>
#include <stdint.h>
#include "util/version.h"

/* CUresult -> "CUDA_ERROR_NO_DEVICE" / a short text; NULL for unknown codes. */
const char *cp_cuda_error_name(int64_t code);
const char *cp_cuda_error_text(int64_t code);

/* The cudaError_t codes that have no CUresult of the same number (the
 * others share the driver's number and meaning): the i-th one's name, with
 * its code and a short text; NULL past the last. */
const char *cp_cudart_only_error(size_t i, int64_t *code, const char **text);

/* nvmlReturn_t -> "NVML_ERROR_LIB_RM_VERSION_MISMATCH" / text; NULL if unknown. */
const char *cp_nvml_error_name(int64_t code);
const char *cp_nvml_error_text(int64_t code);

/* Compare dotted versions numerically ("580.95.05" < "580.159.04").  Missing
 * components count as 0; non-digits end a component.  Returns <0, 0, >0. */
int cp_version_cmp(const char *a, const char *b);

/* Split "13.0.2" / "13.0" / "13" into numbers (CP_UNKNOWN where absent).
 * Returns the count of components parsed, 0 for garbage. */
int cp_version_split(const char *s, int64_t *major, int64_t *minor, int64_t *patch);

/* Minimum Linux driver for a CUDA toolkit major.minor to run at all (minor
 * version compatibility): 11.x -> "450.80.02", 12.x -> "525.60.13",
 * 13.x -> "580.65.06"... NULL when the major is unknown to this table. */
const char *cp_cuda_min_driver(int64_t major);
/* The driver a toolkit release was bundled with ("12.4" -> "550.54.14"),
 * i.e. the driver that supports every feature of it; NULL when unknown. */
const char *cp_cuda_bundled_driver(int64_t major, int64_t minor);


typedef enum { CP_XID_SEV_INFO, CP_XID_SEV_WARN, CP_XID_SEV_FAIL } cp_xid_severity;

typedef struct {
    int xid;
    const char *mnemonic;     /* "GPU_HAS_FALLEN_OFF_THE_BUS" */
    const char *meaning;      /* one line, for people */
    const char *layer;        /* "hardware", "driver", "application", ... */
    cp_xid_severity severity;
    const char *action;       /* what to do */
    const char *also_layer;   /* the layer its other common cause lies in (31 and 32: "driver", a
                                 driver bug), read by explain as a second reading; NULL for none */
} cp_xid_info;

/* Look up an XID; NULL when not in the table. */
const cp_xid_info *cp_xid_lookup(int64_t xid);

/* 1 when an XID only reports a recovery or the outcome of another fault
 * (43 and 45 follow the fault that stopped the work, 63/64 record a row
 * remap, 154 changes the recovery action), so a report ranks it after the
 * fault itself; 0 otherwise. */
int cp_xid_is_notice(int64_t xid);

/* Clock-event (throttle) reason bits -> words: "hw thermal slowdown, sw power
 * cap" into buf; "none" when 0.  Returns buf. */
const char *cp_clock_events_str(int64_t bits, char *buf, int cap);

/* The same table row by row, for a renderer that gives each reason its own
 * series (the exporter): row i's bit and words; 0 past the last row. */
int cp_clock_event_reason(int i, int64_t *bit, const char **word);

#endif
