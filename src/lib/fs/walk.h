/*
 * The one folder walker: every folder tree the library scans on the real
 * file system (`cuprobe arch DIR`, the package folders of `explain --check`)
 * is walked by cp_walk, so one set of rules holds everywhere:
 *
 *   - entries in strcmp order, so output never depends on directory order;
 *   - bounded depth, and optionally a bounded number of entries;
 *   - a symbolic link to a folder is never followed (a library folder can
 *     link back to its parent), so a walk cannot loop; a link to a regular
 *     file is visited only when the caller asks for it;
 *   - only regular files are handed over: FIFOs, sockets and device nodes
 *     are skipped without being opened (and, with report_skipped, named as
 *     skipped, with why).
 *
 * Paths here are the caller's paths (relative ones stay relative), not the
 * machine paths of a cp_fs: this is for trees a person names, read live.
 */
#ifndef CP_FS_WALK_H
#define CP_FS_WALK_H

#include <stdbool.h>

typedef enum {
    CP_WALK_FILE,             /* a regular file (or, with follow_file_links, a link to one) */
    CP_WALK_UNREADABLE,       /* a folder that cannot be listed; err is the errno */
    CP_WALK_TOO_DEEP,         /* a folder below max_depth, not entered */
    CP_WALK_TOO_LONG,         /* folder + "/" + name does not fit in PATH_MAX; path is the folder */
    CP_WALK_SKIPPED           /* with report_skipped: an entry not handed over; why says what it is */
} cp_walk_event;

typedef struct {
    cp_walk_event event;
    const char *path;         /* the entry: "DIR/NAME" as given (no doubled '/') */
    const char *name;         /* its last component (the name that did not fit, for TOO_LONG) */
    int depth;                /* 0 for the entries of the folder given, 1 below it, ... */
    int err;                  /* errno, for CP_WALK_UNREADABLE */
    const char *why;          /* CP_WALK_SKIPPED: "a symbolic link, not followed", "a FIFO, never opened" */
} cp_walk_entry;

/* Return 0 to go on, anything else to stop the walk (cp_walk returns it). */
typedef int (*cp_walk_fn)(const cp_walk_entry *e, void *arg);

typedef struct {
    int max_depth;            /* folders entered below the start: 0 lists the start only */
    long max_entries;         /* entries looked at in all (once per pass with files_first),
                               * then the walk stops; 0 = no limit */
    bool files_first;         /* a folder's files before its subfolders (else one name order) */
    bool skip_hidden;         /* leave out names starting with '.' */
    bool follow_file_links;   /* hand over links to regular files too (as the link's path) */
    bool report_skipped;      /* say which entries (links, special files) were left out */
    /* May the subfolder `name` at `path` be entered?  NULL: every one. */
    bool (*enter)(const char *path, const char *name, void *arg);
} cp_walk_opts;

/* What a file of this st_mode is, for messages: "a FIFO", "a folder",
 * "a character device", ... */
const char *cp_file_kind(unsigned mode);

/* Walk the folder dir, calling fn for each event above with arg.  Returns 0
 * when the walk ran to its end (or to max_entries), or fn's non-zero value.
 * A folder that cannot be listed (dir itself included), or whose listing
 * runs out of memory, is a CP_WALK_UNREADABLE event, not an error of the
 * walk.  Entries that vanish during the walk are skipped.  Nothing is
 * printed; memory is the listing of one folder per level, freed on return. */
int cp_walk(const char *dir, const cp_walk_opts *o, cp_walk_fn fn, void *arg);

#endif
