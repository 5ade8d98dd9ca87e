/*
 * Private to the file-system door: the record kept for `cuprobe snapshot`,
 * shared by fs.c (reads, listings, recording), record.c and snap.c (writing
 * a snapshot back out), and the sorted folder listing that fs.c and the
 * walker (walk.c) both use.  Nothing outside src/lib/fs/ includes this.
 */
#ifndef CP_FS_INT_H
#define CP_FS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <dirent.h>
#include "fs/fs.h"

/* What a recorded path was seen as. */
enum rec_kind { REC_PLACEHOLDER, REC_FILE, REC_DIR, REC_LINK };

typedef struct {
    char *path;               /* machine path, "/proc/modules" */
    enum rec_kind kind;
    char *data;               /* file bytes or link target (NUL-terminated) */
    size_t len;
} cp_rec;

struct cp_fs {
    char *root;               /* as given, for cp_fs_root */
    char *prefix;             /* root without trailing '/', "" when live */
    bool live;
    bool record;
    bool record_oom;          /* a record was dropped: the snapshot is incomplete */
    long fail_countdown;      /* fault injection: the read that takes it to 0 fails */
    long fail_write_countdown; /* fault injection: the write that takes it to 0 fails */
    cp_rec *recs;
    size_t nrec, caprec;
};

/* The empty file a snapshot writer leaves in a recorded folder that has no
 * recorded entries, so that version control (git keeps no empty folders)
 * does not lose it; listings of a snapshot never show it. */
#define CP_FS_KEEP_NAME ".cuprobe-keep"

/* Record what the view saw at machine path `path` (resolved, so nothing is
 * recorded below a link's name): a file's bytes or a link's target in
 * data/len, nothing for a folder or a stat-only placeholder.  Does nothing
 * when the view does not record; an entry that cannot be stored sets
 * record_oom, so the snapshot writer refuses an incomplete record
 * (record.c). */
void cp_fs_rec_put(cp_fs *fs, const char *path, enum rec_kind kind, const char *data, size_t len);

/* Every name of an open folder except ".", "..", `skip` (NULL: none) and,
 * with skip_hidden, names starting with '.', sorted bytewise so results
 * never depend on directory order.  *out is an allocated array of allocated
 * names, freed with cp_fs_names_free.  Returns 0, or -errno (-ENOMEM, or
 * what readdir reported). */
int cp_fs_dir_names(DIR *d, const char *skip, bool skip_hidden, char ***out, size_t *count);
void cp_fs_names_free(char **names, size_t n);

/* True when a path has a ".." component. */
bool cp_fs_has_dotdot(const char *path);

#endif
