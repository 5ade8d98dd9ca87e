/*
 * Private to src/lib/fatbin: the renderers of cp_arch_report (arch_render.c),
 * called by the walk over files and folders (arch_report.c).
 */
#ifndef CP_FATBIN_ARCH_INT_H
#define CP_FATBIN_ARCH_INT_H

#include <stdio.h>
#include "cuprobe/arch.h"

/* A file a folder walk left out, and why (a static string). */
typedef struct {
    char *path;
    const char *why;
} cp_arch_skip;

/* One report in progress. */
typedef struct {
    const cp_arch_opts *o;
    FILE *out;
    int files_shown;          /* JSON: a comma before every file but the first */
    int no_code;              /* files met in folders that carry no GPU code */
    int worst;                /* exit code so far */
    cp_arch_skip *skipped;    /* files the walks left out, in walk order */
    size_t nskipped, capskipped;
} cp_arch_run;

/* Raise r->worst to code when it is worse. */
static inline void cp_arch_worse(cp_arch_run *r, int code)
{
    if (code > r->worst) r->worst = code;
}

/* The report's head (JSON: the targets and the opening of "files"). */
void cp_arch_render_begin(cp_arch_run *r);
/* One scanned file, judged against every target (r->worst raised by the
 * verdicts); with err, a file that could not be scanned (JSON only: the
 * text report leaves that to the problem callback). */
void cp_arch_render_file(cp_arch_run *r, const char *path, const cp_arch_summary *s, const char *err);
/* The report's tail: files without GPU code, the files skipped and why, the
 * no-GPU note, (JSON) the exit code. */
void cp_arch_render_end(cp_arch_run *r);

#endif
