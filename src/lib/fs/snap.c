/*
 * Writing a snapshot's root/ folder from what a cp_fs recorded: files with
 * the bytes read, folders, links as links, stat-only files as empty
 * placeholders; nothing is ever written outside the chosen folder.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/str.h"
#include "fs/fs_int.h"


static void set_err(char *errbuf, size_t cap, const char *what, const char *path, int err)
{
    if (!errbuf || cap == 0)
        return;
    char msg[128];
    snprintf(errbuf, cap, "cannot %s '%s': %s", what, path, cp_str_errno(err, msg, sizeof msg));
}

/* The fail-write test hook: true when this write is the one to fail. */
static bool write_fails(cp_fs *fs)
{
    return fs && fs->fail_write_countdown > 0 && --fs->fail_write_countdown == 0;
}

/* Write len bytes to fd, then close it.  Returns 0 or -errno. */
static int write_close(int fd, const char *data, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            close(fd);
            return -e;
        }
        off += (size_t)w;
    }
    return close(fd) == 0 ? 0 : -errno;
}

/* Write the bytes at the end of an opened path. */
static int write_file_at(cp_fs *fs, int dfd, const char *name, const cp_rec *r)
{
    if (write_fails(fs))
        return -ENOSPC;
    int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return -errno;
    return write_close(fd, r->data, r->len);
}

/* See fs.h. */
int cp_fs_write_file(cp_fs *fs, const char *path, const void *data, size_t len, int mode)
{
    if (!path || (!data && len))
        return -EINVAL;
    if (write_fails(fs))
        return -ENOSPC;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
    if (fd < 0)
        return -errno;
    return write_close(fd, data, len);
}

static int rm_entry(int dfd, const char *name, int depth);

/* Remove everything inside the open folder fd (closed here). */
static int rm_inside(int fd, int depth)
{
    DIR *d = fdopendir(fd);
    if (!d) {
        int e = -errno;
        close(fd);
        return e;
    }
    char **names = NULL;
    size_t n = 0;
    int rc = cp_fs_dir_names(d, NULL, false, &names, &n);
    for (size_t i = 0; i < n; i++) {
        int r = rm_entry(dirfd(d), names[i], depth + 1);
        if (r && !rc)
            rc = r;
    }
    cp_fs_names_free(names, n);
    closedir(d);
    return rc;
}

/* Remove one entry of the folder dfd, a folder with what it holds. */
static int rm_entry(int dfd, const char *name, int depth)
{
    if (unlinkat(dfd, name, 0) == 0)
        return 0;
    if ((errno != EISDIR && errno != EPERM) || depth > 256)
        return -errno;
    int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = rm_inside(fd, depth);
    if (unlinkat(dfd, name, AT_REMOVEDIR) != 0 && !rc)
        rc = -errno;
    return rc;
}

/* See fs.h. */
int cp_fs_remove_tree(const char *dir)
{
    if (!dir || !*dir)
        return -EINVAL;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = rm_inside(fd, 0);
    if (rmdir(dir) != 0 && !rc)
        rc = -errno;
    return rc;
}

/* See fs.h. */
void cp_fs_fail_write_at(cp_fs *fs, long n)
{
    if (fs)
        fs->fail_write_countdown = n > 0 ? n : 0;
}

static int write_link_at(cp_fs *fs, int dfd, const char *name, const char *target)
{
    if (write_fails(fs))
        return -ENOSPC;
    if (symlinkat(target, dfd, name) == 0)
        return 0;
    if (errno != EEXIST)
        return -errno;
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return -errno;
    /* a folder recorded at the same path holds children: keep it */
    if (S_ISDIR(st.st_mode))
        return 0;
    if (unlinkat(dfd, name, 0) != 0 || symlinkat(target, dfd, name) != 0)
        return -errno;
    return 0;
}

/* Create one recorded item below the folder rootfd, walking each component
 * with O_NOFOLLOW so nothing is written outside it. */
static int write_one(cp_fs *fs, int rootfd, const cp_rec *r)
{
    char comp[NAME_MAX + 1];
    const char *p = r->path;
    int dfd = dup(rootfd);
    if (dfd < 0)
        return -errno;
    int rc = 0;
    for (;;) {
        while (*p == '/')
            p++;
        const char *e = p;
        while (*e && *e != '/')
            e++;
        size_t n = (size_t)(e - p);
        if (n == 0)
            break;                    /* the root itself */
        if (n > NAME_MAX) {
            rc = -ENAMETOOLONG;
            break;
        }
        memcpy(comp, p, n);
        comp[n] = '\0';
        if (strcmp(comp, "..") == 0) {
            rc = -EINVAL;
            break;
        }
        const char *rest = e;
        while (*rest == '/')
            rest++;
        bool last = *rest == '\0';
        if (strcmp(comp, ".") == 0) {
            p = e;
            if (last)
                break;
            continue;
        }
        if (last && r->kind != REC_DIR) {
            rc = r->kind == REC_LINK ? write_link_at(fs, dfd, comp, r->data ? r->data : "")
                                     : write_file_at(fs, dfd, comp, r);
            break;
        }
        if (mkdirat(dfd, comp, 0755) == 0) {
            if (write_fails(fs)) {
                rc = -ENOSPC;
                break;
            }
        } else if (errno != EEXIST) {
            rc = -errno;
            break;
        }
        int nfd = openat(dfd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (nfd < 0) {
            rc = -errno;
            break;
        }
        close(dfd);
        dfd = nfd;
        if (last)
            break;
        p = e;
    }
    close(dfd);
    return rc;
}

/* Leave CP_FS_KEEP_NAME in a written folder that is still empty. */
static int keep_if_empty(cp_fs *fs, int rootfd, const char *path)
{
    while (*path == '/')
        path++;
    int fd = *path ? openat(rootfd, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                   : dup(rootfd);
    if (fd < 0)
        return errno == ENOTDIR || errno == ELOOP || errno == ENOENT ? 0 : -errno;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -errno;
    }
    int empty = 1;
    struct dirent *de;
    while (empty && (de = readdir(d)) != NULL)
        empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
    int rc = 0;
    if (empty && write_fails(fs)) {
        rc = -ENOSPC;
    } else if (empty) {
        int k = openat(dirfd(d), CP_FS_KEEP_NAME, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (k < 0) rc = -errno;
        else close(k);
    }
    closedir(d);
    return rc;
}

static int cmp_recs(const void *a, const void *b)
{
    return strcmp((*(const cp_rec *const *)a)->path, (*(const cp_rec *const *)b)->path);
}

/* mkdir -p for the snapshot folder itself (a path the user chose). */
static int mkdir_p(const char *dir)
{
    char buf[PATH_MAX];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof buf)
        return -ENAMETOOLONG;
    memcpy(buf, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char c = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return -errno;
        buf[i] = c;
    }
    return 0;
}

/* Write the record below dir (created if needed).  Every component is
 * opened with O_NOFOLLOW, so a link in dir cannot lead the write outside it;
 * folders win over links recorded at the same path.  Returns 0 or -errno
 * with errbuf naming the path. */
int cp_fs_write_snapshot(cp_fs *fs, const char *dir, char *errbuf, size_t errcap)
{
    if (errbuf && errcap)
        errbuf[0] = '\0';
    if (!fs || !dir || !*dir) {
        set_err(errbuf, errcap, "write snapshot to", dir ? dir : "", EINVAL);
        return -EINVAL;
    }
    if (fs->record_oom) {
        set_err(errbuf, errcap, "record files for", dir, ENOMEM);
        return -ENOMEM;
    }
    int rc = mkdir_p(dir);
    int rootfd = rc ? -1 : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (rc || rootfd < 0) {
        rc = rc ? rc : -errno;
        set_err(errbuf, errcap, "create", dir, -rc);
        return rc;
    }
    const cp_rec **order = cp_malloc((fs->nrec ? fs->nrec : 1) * sizeof *order);
    if (!order) {
        close(rootfd);
        set_err(errbuf, errcap, "write snapshot to", dir, ENOMEM);
        return -ENOMEM;
    }
    for (size_t i = 0; i < fs->nrec; i++)
        order[i] = &fs->recs[i];
    qsort(order, fs->nrec, sizeof *order, cmp_recs);
    /* folders and files first, links last: a link never stands where a
     * folder with recorded children must go */
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        for (size_t i = 0; i < fs->nrec && rc == 0; i++) {
            const cp_rec *r = order[i];
            if ((r->kind == REC_LINK) != (pass == 1))
                continue;
            if (cp_fs_has_dotdot(r->path))
                rc = -EINVAL;
            else
                rc = write_one(fs, rootfd, r);
            if (rc)
                set_err(errbuf, errcap, "write the snapshot's copy of", r->path, -rc);
        }
    }
    for (size_t i = 0; i < fs->nrec && rc == 0; i++)
        if (order[i]->kind == REC_DIR)
            rc = keep_if_empty(fs, rootfd, order[i]->path);
    if (rc && errbuf && errcap && !errbuf[0])
        set_err(errbuf, errcap, "write the snapshot's folder", dir, -rc);
    free(order);
    close(rootfd);
    return rc;
}
