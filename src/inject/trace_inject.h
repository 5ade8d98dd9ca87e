/*
 * What the injection library's files (trace_inject.c, trace_counters.c)
 * share: the way into the trace file and the one-line complaint.
 */
#ifndef CUPROBE_TRACE_INJECT_H
#define CUPROBE_TRACE_INJECT_H

#include <stddef.h>
#include <cupti.h>

/* Queue n encoded bytes (whole records) for the writer thread; dropped when
 * the library is not writing (untraced, after fork, out of memory). */
void cp_inject_write(const unsigned char *data, size_t n);
/* One line "cuprobe-trace: what: detail" on stderr (never stdout). */
void cp_inject_say(const char *what, const char *detail);

/* Hardware counters (trace_counters.c), on when CUPROBE_TRACE_COUNTERS=1:
 * start with the dlopen'ed libcupti (returns 1 when PM sampling was set up
 * to start on each GPU as its first context is made, 0 when counters are
 * missing: the reason is written to the trace and said on stderr), and stop
 * before the trace is flushed at exit (decoding what is left). */
int cp_counters_start(void *libcupti);
void cp_counters_stop(void);
/* The resource callback that starts a GPU's sampling at its first context
 * (CUPTI_CBID_RESOURCE_CONTEXT_CREATED; other ids are ignored).  CUPTI takes
 * one subscriber per process: cp_counters_start subscribes with it, and
 * another part of the library that subscribes must forward to it instead. */
void cp_counters_callback(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const void *data);

#endif
