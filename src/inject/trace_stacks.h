/*
 * The call-stack capture of libcuprobe-trace.so (trace_stacks.c): a CUPTI
 * callback subscription whose handler takes the host's native stack at the
 * exit of synchronising API calls (always) and of other calls (sampled, when
 * CUPROBE_TRACE_STACK_EVERY asks), and the
 * map of loaded objects that lets the stacks be symbolised after the
 * process is gone.  It encodes STACK and MODULE records
 * (docs/trace-format.md) into bytes that trace_inject.c writes with the rest
 * (cps_take, or cp_inject_offer when they pile up).
 */
#ifndef CUPROBE_TRACE_STACKS_H
#define CUPROBE_TRACE_STACKS_H

#include <stddef.h>
#include <cupti.h>

/* Record the loaded objects and enable, on the library's one CUPTI
 * subscriber (cp_inject_subscriber) through the libcupti handle cupti, the
 * callbacks of the synchronising runtime and driver calls (the whole two
 * API domains when CUPROBE_TRACE_STACK_EVERY=N > 0 asks for sampled
 * stacks).  Returns 1 when stacks are captured, 0 when not
 * (CUPROBE_TRACE_STACKS=0, another tool holds the one subscription, or
 * CUPTI refuses the callbacks: said once on stderr); the activity trace
 * goes on either way. */
int cps_start(void *cupti);
/* The subscriber's handler for the runtime and driver API domains (other
 * domains are ignored): at a call's exit, its stack where it is due. */
void cps_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data);
/* The bytes encoded and not yet handed over (malloc'ed, the caller's), or
 * NULL; *len their count. */
unsigned char *cps_take(size_t *len);
/* At exit: record objects loaded since, and take no more stacks. */
void cps_stop(void);
/* In a forked child: take no stacks (the child is untraced). */
void cps_child(void);

#endif
