/*
 * The file-system door's record of what a view saw, kept for `cuprobe
 * snapshot` (snap.c writes it back out): one entry per machine path, the
 * strongest evidence winning.
 */
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "fs/fs_int.h"

static cp_rec *rec_find(cp_fs *fs, const char *path)
{
    for (size_t i = 0; i < fs->nrec; i++)
        if (strcmp(fs->recs[i].path, path) == 0)
            return &fs->recs[i];
    return NULL;
}

static cp_rec *rec_add(cp_fs *fs, const char *path)
{
    if (fs->nrec == fs->caprec) {
        size_t ncap = fs->caprec ? fs->caprec * 2 : 64;
        cp_rec *n = cp_realloc(fs->recs, ncap * sizeof *n);
        if (!n)
            return NULL;
        fs->recs = n;
        fs->caprec = ncap;
    }
    char *p = cp_strdup(path);
    if (!p)
        return NULL;
    cp_rec *r = &fs->recs[fs->nrec++];
    memset(r, 0, sizeof *r);
    r->path = p;
    r->kind = REC_PLACEHOLDER;
    return r;
}

/* See fs_int.h.  Stronger evidence replaces weaker: placeholder < folder <
 * link < file.  A listing records a link to a folder as a folder; an
 * explicit readlink then says it is a link (the writer still makes it a
 * folder when children were recorded under that name).  data may be NULL. */
void cp_fs_rec_put(cp_fs *fs, const char *path, enum rec_kind kind, const char *data, size_t len)
{
    if (!fs->record)
        return;
    cp_rec *r = rec_find(fs, path);
    if (r) {
        if (kind == REC_PLACEHOLDER || (kind == REC_DIR && r->kind != REC_PLACEHOLDER))
            return;
        if (kind == REC_LINK && r->kind == REC_FILE)
            return;
    } else if (!(r = rec_add(fs, path))) {
        fs->record_oom = true;
        return;
    }
    if (kind == REC_DIR || kind == REC_PLACEHOLDER) {
        free(r->data);
        r->data = NULL;
        r->len = 0;
        r->kind = kind;
        return;
    }
    char *copy = cp_malloc(len + 1);
    if (!copy) {
        fs->record_oom = true;
        return;
    }
    if (len)
        memcpy(copy, data, len);
    copy[len] = '\0';
    free(r->data);
    r->data = copy;
    r->len = len;
    r->kind = kind;
}

