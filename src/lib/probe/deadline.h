/*
 * Run a probe in a child process under a deadline.  A GPU that fell off the
 * bus makes cuInit and NVML hang inside the kernel; the child takes that
 * risk, the parent never blocks past the deadline.
 *
 *     cp_probe_job jobs[2];
 *     cp_probe_start(&jobs[0], cuda_child, &arg, "cuda.end ok");   // both run at once
 *     cp_probe_start(&jobs[1], nvml_child, &arg, "nvml.end ok");
 *     cp_probe_wait(jobs, 2, 5000);                  // then read jobs[i].out
 *
 * Each child leads its own process group, so whatever the vendor library
 * starts in it (a helper that inherits the answer pipe) goes with it: the
 * group is killed at the deadline and as soon as the answer is complete.
 * An answer is complete when its last line is the job's end marker (the
 * answers format ends each block with "<block>.end ok"), whether or not
 * the pipe has reached EOF: a helper holding the pipe open cannot turn a
 * complete answer into a timeout.
 */
#ifndef CP_DEADLINE_H
#define CP_DEADLINE_H

#include <sys/types.h>
#include "cuprobe/facts.h"
#include "facts/kv.h"

/* What a child writes to: answers text collects in buf and goes to the
 * parent when the child returns, or earlier with cp_probe_flush. */
typedef struct {
    cp_buf buf;
    int fd;
} cp_probe_out;

/* Runs in the child: write answers text into out->buf.  Its stdout and
 * stderr go to /dev/null. */
typedef void (*cp_probe_fn)(cp_probe_out *out, void *arg);

/* In the child: send what out->buf holds now (before a call that may hang). */
void cp_probe_flush(cp_probe_out *out);

typedef struct {
    pid_t pid;                /* the child, leader of its own process group */
    int fd;
    double t0_ms;
    int eof;
    int complete;             /* the end marker arrived */
    const char *marker;       /* the answer's last line, or NULL (then EOF ends it) */
    cp_buf out;               /* what the child wrote; owned by the job */
    cp_probe_run run;         /* how it ended, filled by cp_probe_wait */
    pid_t unreaped;           /* answered but still exiting: reap with cp_probe_reap, or -1 */
} cp_probe_job;

/* Fork a child that runs fn(out, arg) in a process group of its own and
 * sends the result back through a pipe; marker (a static string, or NULL)
 * is the line that ends a complete answer.  The child is killed (SIGKILL)
 * if this process dies first.  Returns 0, or -1 (run.state =
 * CP_PROBE_ERROR, run.detail says why). */
int cp_probe_start(cp_probe_job *job, cp_probe_fn fn, void *arg, const char *marker);

/* Wait for every started job until all finished (end marker or EOF) or
 * timeout_ms passed since the first job started (work done between start
 * and wait is free: what is already in a pipe is read before the deadline
 * is judged); then kills each job's process group (SIGKILL) and never
 * waits for a child stuck in the kernel.  Fills each job's run.  A job
 * whose marker arrived is CP_PROBE_DONE however its process ended.  A child
 * that reached EOF but is still exiting is CP_PROBE_DONE with its pid in
 * job->unreaped: the caller checks the answer is whole and reaps it later.
 * Free the outputs with cp_buf_free(&job->out). */
void cp_probe_wait(cp_probe_job *jobs, int n, int timeout_ms);

/* Kill the process groups of the children cp_probe_wait left (job.unreaped;
 * pids <= 0 are skipped) once more and reap them, waiting at most max_ms in
 * all: a killed child takes tens of ms to leave the driver, and one left
 * unreaped becomes a zombie that a container's init may never reap.  A child
 * stuck in the kernel past max_ms is left (CP_PROBE_REAP_MS bounds what
 * that costs).  Returns how many were left. */
#define CP_PROBE_REAP_MS 1000
int cp_probe_reap(const pid_t *pids, int n, int max_ms);

/* Monotonic milliseconds, for timing probes and commands. */
double cp_now_ms(void);

#endif
