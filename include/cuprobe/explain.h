/*
 * cuprobe explain: find the known error signals in a pasted message or log.
 *
 *     cp_explain_result r;
 *     if (cp_explain_text(text, len, &r) != 0) { ... out of memory ... }
 *     if (r.nsignals == 0) puts("no known signal in the text");
 *     else cp_explain_render_text(&r, stdout, 0);
 *     cp_explain_free(&r);
 *
 * The text may be anything: multi-line logs, tracebacks, ANSI colour codes,
 * CRLF line ends, very long lines, NUL and other binary bytes.  Matching is
 * case-insensitive substring search against the knowledge base
 * (src/lib/kb/signals*.c); repeats of one signal are grouped (per XID number,
 * and per missing library for the loader signals).
 */
#ifndef CUPROBE_EXPLAIN_H
#define CUPROBE_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cuprobe/report.h"

/* Exit code of `cuprobe explain` when the text holds no known signal
 * (0: signals found, 3: unreadable input, 64: bad command line). */
#define CP_EXIT_NO_SIGNAL 4

/* What this machine says about one explanation (`explain --check`). */
typedef enum {
    CP_HERE_NOT_ASKED,        /* --check was not given */
    CP_HERE_CONFIRMED,        /* the confirming check fails or warns here, or a named library cannot run here */
    CP_HERE_NOT_SEEN,         /* the check passes here: the cause lies elsewhere (another machine, another time) */
    CP_HERE_UNKNOWN,          /* the check was skipped or blocked by a lower layer */
    CP_HERE_NO_CHECK          /* no check on this machine can see this signal */
} cp_here_verdict;

#define CP_HERE_MAX_FILES 8

/* A library the text names, scanned for GPU code against this machine's GPUs. */
typedef struct {
    char path[256];
    char verdict[24];         /* cp_run_verdict_name, or "unreadable" */
    char why[320];            /* the code that decides, and the GPU */
} cp_here_file;

typedef struct {
    cp_here_verdict verdict;
    const char *status;       /* the check's status name ("fail", "pass", "blocked"...), NULL when none */
    char summary[256];        /* the check's one line */
    int nfiles;
    cp_here_file files[CP_HERE_MAX_FILES];
} cp_here;

/* One signal found in the text, with its repeats grouped. */
typedef struct {
    char code[64];            /* knowledge-base id: "torch.oom", "xid.79", "CUDA_ERROR_INVALID_VALUE" */
    cp_layer layer;
    const char *cause;        /* static storage, one line for people */
    const char *fix;          /* static storage, what to do */
    const char *check;        /* the doctor check that confirms it: "driver.cuinit" */
    char evidence[201];       /* the first matching line, cleaned (escapes, borders, its timestamp,
                                 level and rank prefixes gone) and trimmed to 200 bytes; a phrase
                                 across a wrap shows both pieces, joined by " ⏎ " (U+23CF) */
    long first_line;          /* 1-based line number of the first match */
    long count;               /* lines that matched */
    /* Values taken from the first matching line; -1 / "" when absent. */
    int64_t requested_bytes;  /* OOM: what the allocation asked for */
    int64_t free_bytes;       /* OOM: free memory on the GPU */
    int64_t total_bytes;      /* OOM: the GPU's total capacity */
    int gpu;                  /* OOM: GPU index */
    int xid;                  /* kernel log: XID number */
    char pci[32];             /* kernel log: "0000:9b:00" */
    char soname[64];          /* loader: "libcudart.so.12" */
    char soname_version[16];  /* loader: "12", "11.0" */
    const char *error_enum;   /* "CUresult", "cudaError_t" or "nvmlReturn_t" when the signal is one
                                 error code (the runtime shares the driver's numbers since CUDA
                                 10.1, so a CUresult number is the cudaError_t one too); NULL otherwise */
    int error_number;         /* that code's number; -1 when none */
    int notice;               /* 1: the line only reports a recovery or another fault's outcome
                                 (XID 154, 63, 64; the module's load line); ranked after faults */
    int named;                /* 1: no known message matched; a component was named on a line that
                                 says it failed (the last tier: the text has no other signal;
                                 every layer named, the lowest first) */
    int alternative;          /* 1: the other common reading of a line another signal explains, in
                                 another layer, where the text does not settle which (a container it
                                 does not show); listed after every other signal */
    cp_here here;             /* filled by cp_explain_confirm */
} cp_explain_signal;

/* This machine's own first fault beside the text's readings (`explain --check`):
 * doctor's root-cause finding. */
typedef struct {
    int asked;                /* 1: cp_explain_confirm ran */
    const char *check;        /* the root finding's check ("hardware.pci_gpu"), NULL when none */
    cp_status status;         /* CP_FAIL or CP_WARN */
    cp_layer layer;
    char summary[256];        /* its one line */
} cp_here_root;

typedef struct {
    cp_explain_signal *signals;   /* owned, ordered by first_line, notices after the faults
                                     (a notice must not outrank the fault it reports), the
                                     alternative readings last; named components (only where
                                     nothing else was found) by layer, the lowest first, then
                                     by first_line; after cp_explain_confirm,
                                     by what the machine says (see there);
                                     cp_explain_free releases */
    int nsignals;
    long lines;                   /* lines scanned */
    cp_here_root here_root;       /* filled by cp_explain_confirm */
} cp_explain_result;

/* Scan `len` bytes of `text` (need not be NUL-terminated; may hold NULs) for
 * every known signal and fill *out.  Returns 0 (out->nsignals may be 0), or
 * -1 when out of memory, with *out empty.  Pure: no I/O, no global state,
 * safe to call from several threads. */
int cp_explain_text(const char *text, size_t len, cp_explain_result *out);

/* `explain --check`: for every signal of r, read its confirming check in
 * `doctor`'s report of this machine (rep, made by cp_doctor over f) and set
 * signal.here.  For signals about GPU code that cannot run (check
 * framework.arch), also scan the libraries the text names (absolute paths
 * to .so files, and the packages of site-packages paths, read from this
 * machine's file system) against the GPUs in f: a library that cannot run
 * here confirms the explanation.  For a library the loader could not find,
 * the facts decide: whether this machine's loader (or a framework's RUNPATH)
 * would find that soname.  Reads files; never loads them.
 * Then the machine chooses between the readings: the signals are reordered,
 * those it confirms first (faults before notices, the lowest layer first:
 * the lowest broken layer is the one to fix), then those it cannot tell,
 * then those it does not see (each part keeping its order), and r->here_root
 * takes doctor's root cause (the text renderer says it first where it fails
 * below the first reading).
 * Where memory runs out the order stays as it was. */
void cp_explain_confirm(cp_explain_result *r, const char *text, size_t len, const cp_facts *f,
                        const cp_report *rep);

/* "confirmed", "not seen here", "cannot tell", "no check". */
const char *cp_here_verdict_name(cp_here_verdict v);

/* Release what cp_explain_text allocated; *r becomes empty.  NULL is fine. */
void cp_explain_free(cp_explain_result *r);

/* Each signal for people: layer, code, cause, fix, check, values, evidence.
 * color: ANSI colours.  Prints "no known signal in the text" when empty. */
void cp_explain_render_text(const cp_explain_result *r, FILE *out, int color);

/* {"signals": [{"layer","code","cause","fix","check","evidence","count",
 * "first_line","values"}]} on one object, then a newline. */
void cp_explain_render_json(const cp_explain_result *r, FILE *out);

#endif
