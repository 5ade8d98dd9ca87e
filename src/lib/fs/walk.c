/* The one folder walker (walk.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fs/fs_int.h"
#include "fs/walk.h"
#include "util/alloc.h"
#include "util/str.h"

typedef struct {
    const cp_walk_opts *o;
    cp_walk_fn fn;
    void *arg;
    long seen;                /* entries looked at, against max_entries */
} walk_state;

/* The sorted names of dir, "." and ".." (and hidden ones when asked) left
 * out.  Returns 0, or an errno. */
static int list_names(const char *dir, bool skip_hidden, char ***out, size_t *count)
{
    DIR *d = opendir(dir);
    if (!d)
        return errno;
    int rc = cp_fs_dir_names(d, NULL, skip_hidden, out, count);
    closedir(d);
    return -rc;
}

static int emit(walk_state *w, cp_walk_event ev, const char *path, const char *name, int depth, int err)
{
    cp_walk_entry e = { ev, path, name, depth, err, NULL };
    return w->fn(&e, w->arg);
}

static int skipped(walk_state *w, const char *path, const char *name, int depth, const char *why)
{
    if (!w->o->report_skipped) return 0;
    cp_walk_entry e = { CP_WALK_SKIPPED, path, name, depth, 0, why };
    return w->fn(&e, w->arg);
}

/* See walk.h. */
const char *cp_file_kind(unsigned mode)
{
    return S_ISDIR(mode) ? "a folder" : S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ? "a character device"
         : S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket" : S_ISLNK(mode) ? "a symbolic link"
         : S_ISREG(mode) ? "a regular file" : "a special file";
}

static int walk_dir(walk_state *w, const char *dir, int depth);

/* One entry of dir; pass 0 takes files (and, without files_first,
 * folders too), pass 1 folders only.  *stop is set when the entry limit
 * is reached. */
static int visit(walk_state *w, const char *dir, const char *name, int depth, int pass, bool *stop)
{
    const cp_walk_opts *o = w->o;
    char path[PATH_MAX];
    struct stat st;
    if (o->max_entries > 0 && w->seen >= o->max_entries) {
        *stop = true;
        return 0;
    }
    w->seen++;
    if (cp_path_join(path, sizeof path, dir, name) != 0)
        return pass == 0 ? emit(w, CP_WALK_TOO_LONG, dir, name, depth, 0) : 0;
    if (lstat(path, &st) != 0)
        return 0;  /* gone since the listing */
    if (S_ISDIR(st.st_mode)) {
        if (o->files_first && pass == 0)
            return 0;
        if (o->enter && !o->enter(path, name, w->arg))
            return 0;
        if (depth + 1 > o->max_depth)
            return emit(w, CP_WALK_TOO_DEEP, path, name, depth, 0);
        return walk_dir(w, path, depth + 1);
    }
    if (o->files_first && pass == 1)
        return 0;
    /* A link is looked through only to a regular file: never to a folder
     * (no loops) nor to a FIFO or device (never opened). */
    if (S_ISLNK(st.st_mode) && !o->follow_file_links)
        return skipped(w, path, name, depth, "a symbolic link, not followed");
    if (S_ISLNK(st.st_mode) && stat(path, &st) != 0)
        return skipped(w, path, name, depth, "a dangling symbolic link");
    if (!S_ISREG(st.st_mode)) {
        const char *k = cp_file_kind(st.st_mode);
        return skipped(w, path, name, depth,
                       strcmp(k, "a FIFO") == 0 ? "a FIFO, never opened"
                       : strcmp(k, "a socket") == 0 ? "a socket, never opened"
                       : strcmp(k, "a folder") == 0 ? "a symbolic link to a folder, not followed"
                       : "a device node, never opened");
    }
    return emit(w, CP_WALK_FILE, path, name, depth, 0);
}

/* The entries of dir (at depth), in order; see walk.h. */
static int walk_dir(walk_state *w, const char *dir, int depth)
{
    char **names = NULL;
    size_t n = 0;
    int e = list_names(dir, w->o->skip_hidden, &names, &n);
    if (e)
        return emit(w, CP_WALK_UNREADABLE, dir, cp_path_base(dir), depth, e);
    int rc = 0;
    bool stop = false;
    /* With files_first the listing is used twice, so each entry is counted
     * against max_entries once per pass it is looked at in. */
    for (int pass = 0; pass < (w->o->files_first ? 2 : 1) && !rc && !stop; pass++)
        for (size_t i = 0; i < n && !rc && !stop; i++)
            rc = visit(w, dir, names[i], depth, pass, &stop);
    cp_fs_names_free(names, n);
    return rc;
}

/* See walk.h. */
int cp_walk(const char *dir, const cp_walk_opts *o, cp_walk_fn fn, void *arg)
{
    walk_state w = { o, fn, arg, 0 };
    return walk_dir(&w, dir, 0);
}
