/*
 * libcuprobe: see the CUDA stack of a Linux machine one layer at a time.
 *
 *     cp_observe_opts o = CP_OBSERVE_DEFAULTS;
 *     cp_session *s;
 *     char err[256];
 *     if (cp_observe(&o, &s, err, sizeof err) != 0) { fprintf(stderr, "%s\n", err); ... }
 *     cp_report r;
 *     cp_doctor(cp_session_facts(s), 1, &r);
 *     cp_render_text(&r, cp_session_facts(s), stdout, 0, 0);
 *     cp_report_free(&r);
 *     cp_session_free(s);
 */
#ifndef CUPROBE_H
#define CUPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include "cuprobe/facts.h"
#include "cuprobe/report.h"

const char *cp_version(void);

/* Sources that can be taken live even while replaying a snapshot (tests
 * combine a captured machine with fake vendor libraries this way). */
enum { CP_LIVE_CUDA = 1, CP_LIVE_NVML = 2, CP_LIVE_ENV = 4 };

typedef struct {
    const char *from_dir;     /* replay this snapshot folder; NULL = observe live */
    const char *root;         /* live only: read OS files under this root ("/") */
    unsigned live_mask;       /* with from_dir: CP_LIVE_* sources observed live anyway */
    int timeout_ms;           /* deadline for each driver/NVML probe */
    bool record;              /* keep what was read, for cp_snapshot_write */
    long fail_read_at;        /* test hook: the Nth file read fails (0 = never) */
    const char *python;       /* also examine this Python interpreter's environment, or NULL */
    long fail_write_at;       /* test hook: cp_snapshot_write's Nth write fails, ENOSPC (0 = never) */
    int level;                /* 1: no GPU work; 2: the libcuda probe also runs level 2's steps on
                                 every visible device (when libcuda is asked live; a replay has what was
                                 recorded) */
} cp_observe_opts;

#define CP_OBSERVE_DEFAULTS { NULL, "/", 0, CP_TIMEOUT_DEFAULT_MS, false, 0, NULL, 0, 1 }

/* The probe deadline: its default, and the floor below which no driver can
 * be told from a cut-short step (a shorter timeout_ms is raised to it). */
#define CP_TIMEOUT_DEFAULT_MS 5000
#define CP_TIMEOUT_MIN_MS 100
/* At level 2 the libcuda probe's deadline is level 1's plus a budget for
 * the level-2 steps as long again (default 5 + 5 s): a healthy GPU needs a
 * few hundred ms for them, a hung one is cut at the deadline and named by
 * the step it was in.  NVML keeps level 1's deadline. */
#define CP_LEVEL2_DEADLINE_MS(level1_ms) (2 * (level1_ms))

typedef struct cp_session cp_session;

/* Observe the machine (or replay a snapshot) into a new session.  Returns 0
 * and *out; or -1 with err filled (e.g. "'DIR' is not a cuprobe snapshot")
 * and *out NULL.  Problems of the machine are facts, not errors. */
int cp_observe(const cp_observe_opts *opts, cp_session **out, char *err, size_t errcap);

/* The facts of a session; valid until cp_session_free. */
const cp_facts *cp_session_facts(const cp_session *s);

/* Write a snapshot folder: root/ (the raw files read, when the session was
 * observed with record=true), answers.txt (driver, NVML, device nodes,
 * environment with secret-looking values redacted and the redactions
 * listed, meta), readable by its owner only (answers.txt 0600, a new
 * folder 0700; an existing folder keeps its mode).  dir must not exist, or
 * be an empty folder ("." included).  Everything is written into a
 * temporary folder first and renamed into place at the end, so a failure
 * (a full disk) leaves nothing behind.  Returns 0, or -1 with err filled. */
int cp_snapshot_write(const cp_session *s, const char *dir, char *err, size_t errcap);

/* Free a session; probe children that have finished exiting are reaped
 * (one still exiting is left to init once the caller exits). */
void cp_session_free(cp_session *s);

#endif
