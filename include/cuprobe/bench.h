/*
 * cuprobe bench: measurements on the GPU, each beside its ceiling.
 *
 *     cp_bench_opts o = CP_BENCH_DEFAULTS;
 *     cp_bench_result *r = NULL;
 *     char err[256];
 *     if (cp_bench_run(&o, cp_session_facts(s), &r, err, sizeof err) != 0) ...   // usage-level error
 *     cp_bench_ceilings(cp_session_facts(s), r);
 *     cp_bench_render_text(r, stdout, color);
 *     cp_bench_free(r);
 *
 * The GPU work runs in a probe child under a deadline, like doctor's probes:
 * a hung or faulting GPU becomes a row in state CP_BENCH_FAILED with the
 * call and the driver's error name, never a hung cuprobe.  A measurement
 * that cannot run here (one GPU for a peer copy, no cuBLASLt) is a row in
 * state CP_BENCH_SKIPPED with the reason.
 *
 * Counting: a copy's rate is the bytes copied once per second (a
 * device-local copy of N bytes counts N, as nvbandwidth does; its
 * read+write traffic is 2N, which is what PyTorch's figure counts); a
 * bidirectional copy's rate is the sum of both directions.  Rates are
 * medians of event-timed repeats after a warm-up.
 */
#ifndef CUPROBE_BENCH_H
#define CUPROBE_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "cuprobe/facts.h"

#define CP_BENCH_MAX_ROWS 256   /* 8 GPUs: 19 rows each, 2 per pair (56), NCCL */
#define CP_BENCH_MAX_POINTS 24

typedef enum {
    CP_BENCH_OK = 0,
    CP_BENCH_SKIPPED,     /* could not run here: detail says why */
    CP_BENCH_FAILED       /* ran and failed: detail names the call and the error */
} cp_bench_state;

/* The ceiling a row is measured against. */
typedef enum {
    CP_CEIL_NONE = 0,     /* no ceiling known (launch latency, unknown GPU) */
    CP_CEIL_LINK,         /* theoretical rate of the link (PCIe generation x width, NVLink lanes) */
    CP_CEIL_DATASHEET,    /* the GPU model's datasheet peak (HBM bandwidth, dense tensor rate) */
    CP_CEIL_MEASURED      /* a rate measured in the same run (device-local copy vs HBM read) */
} cp_bench_ceiling_kind;

typedef struct {
    char id[40];          /* stable key: "copy.h2d.pinned.ce", "gemm.bf16", "launch.graph" */
    char title[80];       /* "host to device, pinned, copy engine" */
    char unit[12];        /* "GB/s", "us", "TFLOP/s" */
    int device;           /* CUDA ordinal (as the probe saw it) */
    int peer;             /* the other device of a peer copy, else -1 */
    int64_t size;         /* bytes per copy; n for an n x n x n GEMM; kernels per graph */
    cp_bench_state state;
    double value;         /* the median, in unit; NAN unless state is OK */
    double spread;        /* (max - min) / median of the repeats, 0-1; NAN when unknown */
    int repeats;
    bool higher_is_better;
    double ceiling;       /* in unit; NAN when kind is CP_CEIL_NONE */
    cp_bench_ceiling_kind ceiling_kind;
    char ceiling_what[80]; /* "PCIe Gen5 x16", "H200 HBM3e datasheet", "" */
    char detail[200];     /* skipped/failed: why ("cuMemcpyPeerAsync: CUDA_ERROR_..."); OK: a note or "" */
    int npoints;          /* --sweep: the rate at each size, sizes ascending */
    int64_t point_size[CP_BENCH_MAX_POINTS];
    double point_value[CP_BENCH_MAX_POINTS];
} cp_bench_row;

typedef struct {
    int nrows;
    cp_bench_row row[CP_BENCH_MAX_ROWS];
    int ndevices;             /* devices the probe measured */
    char skip_reason[200];    /* non-empty: nothing could run (no libcuda, cuInit failed, no GPU) */
    double wall_ms;           /* the whole run, parent's clock */
    int64_t child_maxrss_kb;  /* peak RSS of the bench child (CP_UNKNOWN when not known) */
    int64_t libs_rss_kb;      /* of which loading and initialising cuBLASLt / NCCL took (CP_UNKNOWN) */
    int64_t self_maxrss_kb;   /* peak RSS of the calling process */
    bool sweep;
} cp_bench_result;

typedef struct {
    int device;               /* -1: every visible device */
    int64_t size;             /* bytes per copy; 0: the default (256 MiB) */
    int iters;                /* timed repeats per measurement; 0: the default */
    bool sweep;               /* also measure the copies at every size from 4 KiB to `size` (x4 steps) */
    const char *only;         /* NULL, or a comma list of id prefixes: "copy,gemm.bf16" */
    int timeout_ms;           /* deadline of the whole child; 0: the default (60 s) */
} cp_bench_opts;

#define CP_BENCH_DEFAULTS { -1, 0, 0, false, NULL, 0 }
#define CP_BENCH_DEFAULT_SIZE (256ll << 20)
#define CP_BENCH_MIN_SIZE (4ll << 10)
#define CP_BENCH_MAX_ITERS 10000

/* Run the measurements.  f: the facts of a level-1 observe of this machine
 * (for the devices' PCI links and the GPU model), or NULL.  Returns 0 with
 * *out (free with cp_bench_free) even when nothing could run (then
 * skip_reason says why); -1 with err only for an invalid opts (a device not
 * visible, a size below CP_BENCH_MIN_SIZE or past the device's memory,
 * iters < 1 or > CP_BENCH_MAX_ITERS) or no memory. */
int cp_bench_run(const cp_bench_opts *o, const cp_facts *f, cp_bench_result **out, char *err, size_t errcap);

/* Fill every row's ceiling, kind and what from the facts (PCIe link of the
 * row's device, GPU model datasheet peaks, the run's own rows for measured
 * ceilings).  f may be NULL: only measured ceilings are filled.  Pure. */
void cp_bench_ceilings(const cp_facts *f, cp_bench_result *r);

/* value / ceiling as a percentage (for a lower-is-better row, ceiling /
 * value); NAN when either is unknown or not positive.  Pure. */
double cp_bench_pct(const cp_bench_row *row);

void cp_bench_free(cp_bench_result *r);

/* The table: one line per row, value, ceiling, percentage and what the
 * ceiling is; skipped and failed rows with their reason; with a sweep, a
 * small chart per series in the terminal.  color: ANSI colours. */
void cp_bench_render_text(const cp_bench_result *r, FILE *out, int color);
/* The same as one JSON document (docs/bench.schema.json). */
void cp_bench_render_json(const cp_bench_result *r, FILE *out);
/* Write the sweep as an SVG line chart (rate against size, log scale, one
 * line per series, ceilings dashed).  Returns 0, or -1 with errno set. */
int cp_bench_write_svg(const cp_bench_result *r, const char *path);

#endif
