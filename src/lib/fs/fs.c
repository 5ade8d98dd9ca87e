/*
 * The file-system door: root prefixing, bounded reads (including record by
 * record reads of character devices such as /dev/kmsg), sorted listings, and
 * the in-memory record that `cuprobe snapshot` writes back out.
 *
 * Everything lives in the cp_fs struct; there is no global state, so several
 * views (a live one and a replayed snapshot) can coexist.
 */
#include "util/alloc.h"
#include "util/str.h"
#include "fs/fs.h"
#include "cuprobe/facts.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fs/fs_int.h"

/* Largest single /dev/kmsg record the kernel hands out (a record that does
 * not fit the read buffer fails with EINVAL, so the buffer must hold one). */
#define KMSG_RECORD_MAX 8192

/* A ".." component would let a path leave the root; "." and "//" are
 * harmless.  Shared with the snapshot writer (fs_int.h). */
bool cp_fs_has_dotdot(const char *path)
{
    const char *p = path;
    while (*p) {
        while (*p == '/')
            p++;
        const char *e = p;
        while (*e && *e != '/')
            e++;
        if (e - p == 2 && p[0] == '.' && p[1] == '.')
            return true;
        p = e;
    }
    return false;
}

/* A machine path fit for the view: absolute-looking, no ".." component.
 * Returns 0 or -errno. */
static int check_path(const char *path)
{
    if (!path || !*path)
        return -EINVAL;
    if (cp_fs_has_dotdot(path))
        return -EINVAL;
    return 0;
}

/* The path below the root for a machine path: prefix + path.  Returns 0 or
 * -ENAMETOOLONG. */
static int prefixed(const cp_fs *fs, const char *mpath, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s%s%s", fs->prefix, mpath[0] == '/' ? "" : "/", mpath);
    if (n < 0 || (size_t)n >= cap)
        return -ENAMETOOLONG;
    return 0;
}

/* The one path resolver: every symbolic link in the machine path `path` is
 * followed as the machine would, inside the view (an absolute link starts
 * again at the view's root, so a snapshot's /usr/local/cuda -> /usr/local/
 * cuda-13.0 never reaches the machine doing the replay, and ".." never
 * climbs above the root).  Like git's strbuf_realpath with "many missing":
 * a component that does not exist, or cannot be read as a link, is kept as
 * written and the walk goes on.  "." and ".." are folded after the links
 * before them are followed, as the kernel does.  follow_last: follow a link
 * in the final component too (readlink does not).  Each link met is recorded
 * as a link when recording, so a snapshot keeps it.  The resolved machine
 * path goes to out.  Returns 0 or -errno (-ELOOP past 40 links,
 * -ENAMETOOLONG). */
static int walk(cp_fs *fs, const char *path, char *out, size_t cap, bool follow_last)
{
    char todo[PATH_MAX], done[PATH_MAX] = "", full[PATH_MAX], target[PATH_MAX], next[PATH_MAX];
    int hops = 0;
    if (!cp_str_copy(todo, sizeof todo, path))
        return -ENAMETOOLONG;
    const char *p = todo;
    for (;;) {
        while (*p == '/')
            p++;
        if (!*p)
            break;
        const char *e = p;
        while (*e && *e != '/')
            e++;
        size_t n = (size_t)(e - p);
        const char *rest = e;
        while (*rest == '/')
            rest++;
        if (n == 1 && p[0] == '.') { p = e; continue; }
        if (n == 2 && p[0] == '.' && p[1] == '.') {      /* never above the root */
            char *slash = strrchr(done, '/');
            if (slash) *slash = '\0';
            p = e;
            continue;
        }
        size_t dl = strlen(done);
        if (dl + 1 + n >= sizeof done)
            return -ENAMETOOLONG;
        done[dl] = '/';
        memcpy(done + dl + 1, p, n);
        done[dl + 1 + n] = '\0';
        if (*rest || follow_last) {
            if (prefixed(fs, done, full, sizeof full) != 0)
                return -ENAMETOOLONG;
            ssize_t t = readlink(full, target, sizeof target - 1);
            if (t >= 0) {
                target[t] = '\0';
                if (++hops > 40)
                    return -ELOOP;                      /* as the kernel counts */
                cp_fs_rec_put(fs, done, REC_LINK, target, (size_t)t);
                done[dl] = '\0';                        /* the link itself is replaced */
                if (target[0] == '/')
                    done[0] = '\0';
                if (snprintf(next, sizeof next, "%s/%s", target, rest) >= (int)sizeof next)
                    return -ENAMETOOLONG;
                memcpy(todo, next, strlen(next) + 1);
                p = todo;
                continue;
            }
        }
        p = e;
    }
    if (!cp_str_copy(out, cap, done[0] ? done : "/"))
        return -ENAMETOOLONG;
    return 0;
}

/* Where a machine path is: *mpath gets it with its links resolved (the name
 * it is recorded under), full the path below the root to open.  On the live
 * machine, when nothing is recorded, the kernel follows the links itself and
 * the path is only checked.  Returns 0 or -errno (-EINVAL for a path with a
 * ".." component). */
static int locate(cp_fs *fs, const char *path, char *mpath, char *full, size_t cap, bool follow_last)
{
    int rc = check_path(path);
    if (rc)
        return rc;
    if (fs->live && !fs->record) {
        if (!cp_str_copy(mpath, cap, path))
            return -ENAMETOOLONG;
    } else if ((rc = walk(fs, path, mpath, cap, follow_last)) != 0) {
        return rc;
    }
    return prefixed(fs, mpath, full, cap);
}

/* See fs.h. */
int cp_fs_realpath(cp_fs *fs, const char *path, char *out, size_t cap)
{
    if (!fs || !path || path[0] != '/' || !out || cap == 0)
        return -EINVAL;
    out[0] = '\0';
    int rc = walk(fs, path, out, cap, true);
    if (rc)
        out[0] = '\0';
    return rc;
}

/* See fs.h. */
int cp_fs_host_path(cp_fs *fs, const char *path, char *out, size_t cap)
{
    char mpath[PATH_MAX];
    if (!fs || !out || cap == 0)
        return -EINVAL;
    out[0] = '\0';
    int rc = cp_fs_realpath(fs, path, mpath, sizeof mpath);
    if (rc)
        return rc;
    /* the root as given, so the names in messages read as the user typed it */
    int n = snprintf(out, cap, "%s%s", fs->live ? "" : fs->root, mpath);
    if (n < 0 || (size_t)n >= cap) {
        out[0] = '\0';
        return -ENAMETOOLONG;
    }
    return 0;
}

/* A new view of root (NULL or "" mean "/"); the caller frees it with
 * cp_fs_close.  Returns NULL only when out of memory. */
cp_fs *cp_fs_open(const char *root, bool record)
{
    cp_fs *fs = cp_calloc(1, sizeof *fs);
    if (!fs)
        return NULL;
    if (!root || !*root)
        root = "/";
    fs->root = cp_strdup(root);
    fs->prefix = cp_strdup(root);
    if (!fs->root || !fs->prefix) {
        cp_fs_close(fs);
        return NULL;
    }
    size_t n = strlen(fs->prefix);
    while (n > 0 && fs->prefix[n - 1] == '/')
        fs->prefix[--n] = '\0';
    fs->live = (n == 0);
    fs->record = record;
    return fs;
}

/* Free the view and everything recorded; NULL is fine. */
void cp_fs_close(cp_fs *fs)
{
    if (!fs)
        return;
    for (size_t i = 0; i < fs->nrec; i++) {
        free(fs->recs[i].path);
        free(fs->recs[i].data);
    }
    free(fs->recs);
    free(fs->root);
    free(fs->prefix);
    free(fs);
}

/* The root as given to cp_fs_open, owned by fs. */
const char *cp_fs_root(const cp_fs *fs)
{
    return fs ? fs->root : "/";
}

/* True for the live machine (a root of "/" or only slashes). */
bool cp_fs_is_live(const cp_fs *fs)
{
    return fs && fs->live;
}

/* Fault injection: the nth cp_fs_read/cp_fs_read_alloc from now fails
 * with -EIO, once; 0 or less switches it off. */
void cp_fs_fail_read_at(cp_fs *fs, long n)
{
    if (fs)
        fs->fail_countdown = n > 0 ? n : 0;
}

static cp_fs_type type_of(mode_t m)
{
    if (S_ISREG(m))
        return CP_FS_FILE;
    if (S_ISDIR(m))
        return CP_FS_DIR;
    if (S_ISCHR(m))
        return CP_FS_CHR;
    if (S_ISBLK(m))
        return CP_FS_BLK;
    return CP_FS_OTHER;
}

/* -------------------------------------------------------------- reads -- */

/* Character devices hand out one record per read(); /dev/kmsg answers EPIPE
 * for a record overwritten since the last read and EAGAIN once it runs dry. */
static int read_records(int fd, char *buf, size_t cap, size_t *len)
{
    char rec[KMSG_RECORD_MAX];
    size_t n = 0;
    while (n + 1 < cap) {
        ssize_t r = read(fd, rec, sizeof rec);
        if (r < 0) {
            if (errno == EINTR || errno == EPIPE)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                break;
            if (n == 0)
                return -errno;
            break;
        }
        if (r == 0)
            break;
        size_t take = (size_t)r;
        if (take > cap - 1 - n)
            take = cap - 1 - n;
        memcpy(buf + n, rec, take);
        n += take;
        if (buf[n - 1] != '\n' && n + 1 < cap)
            buf[n++] = '\n';
    }
    *len = n;
    return 0;
}

static int read_plain(int fd, char *buf, size_t cap, size_t *len)
{
    size_t n = 0;
    while (n + 1 < cap) {
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            /* a FIFO opened non-blocking has nothing more for us */
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                break;
            return -errno;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    *len = n;
    return 0;
}

/* What a non-regular, non-folder file is, for the messages of callers that
 * met -ENXIO; see fs.h. */
static const char *mode_what(mode_t m)
{
    if (S_ISREG(m)) return "a file";
    if (S_ISDIR(m)) return "a folder";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    return "a special file";
}

/* The one reader behind cp_fs_read and cp_fs_read_device.  The file is
 * opened non-blocking (a FIFO or a device never holds the open up) and
 * typed on the open descriptor: a folder is -EISDIR, a FIFO, socket or
 * block device -ENXIO, and a character device too unless records_ok (the
 * deliberate readers of /dev/kmsg).  Returns 0 or -errno. */
static int read_into(cp_fs *fs, const char *path, char *buf, size_t cap, size_t *len, bool records_ok)
{
    char full[PATH_MAX], mpath[PATH_MAX];
    size_t got = 0;
    if (len)
        *len = 0;
    if (!fs || !buf || cap == 0)
        return -EINVAL;
    buf[0] = '\0';
    if (fs->fail_countdown > 0 && --fs->fail_countdown == 0)
        return -EIO;
    int rc = locate(fs, path, mpath, full, sizeof full, true);
    if (rc)
        return rc;
    /* inside a snapshot every link was followed by the resolver: one left
     * in the last component now is a race, never followed out of the view */
    int fd = open(full, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (fs->live ? 0 : O_NOFOLLOW));
    if (fd < 0)
        return -errno;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        rc = -errno;
        close(fd);
        return rc;
    }
    if (!S_ISREG(st.st_mode)) {
        rc = S_ISDIR(st.st_mode) ? -EISDIR : S_ISCHR(st.st_mode) && records_ok ? 0 : -ENXIO;
        if (rc) {
            close(fd);
            return rc;
        }
    }
    rc = S_ISCHR(st.st_mode) ? read_records(fd, buf, cap, &got)
                             : read_plain(fd, buf, cap, &got);
    close(fd);
    if (rc)
        return rc;
    buf[got] = '\0';
    if (len)
        *len = got;
    cp_fs_rec_put(fs, mpath, REC_FILE, buf, got);
    return 0;
}

/* Bounded read of a regular file into the caller's buffer, always
 * NUL-terminated; records the bytes when recording.  Returns 0 or -errno
 * (-EINVAL for a path with a ".." component, -EISDIR for a folder, -ENXIO
 * for anything else that is not a regular file). */
int cp_fs_read(cp_fs *fs, const char *path, char *buf, size_t cap, size_t *len)
{
    return read_into(fs, path, buf, cap, len, false);
}

/* cp_fs_read that also reads a character device record by record. */
int cp_fs_read_device(cp_fs *fs, const char *path, char *buf, size_t cap, size_t *len)
{
    return read_into(fs, path, buf, cap, len, true);
}

/* What path is, links followed, in words; see fs.h. */
const char *cp_fs_what(cp_fs *fs, const char *path)
{
    char full[PATH_MAX], mpath[PATH_MAX];
    struct stat st;
    if (!fs || locate(fs, path, mpath, full, sizeof full, true) != 0 || stat(full, &st) != 0)
        return "missing";
    return mode_what(st.st_mode);
}

/* The allocating reader of cp_fs_read_alloc and cp_fs_read_device_alloc. */
static int read_alloc(cp_fs *fs, const char *path, size_t max, char **out, size_t *len, bool records_ok)
{
    size_t got = 0;
    if (!out)
        return -EINVAL;
    *out = NULL;
    if (len)
        *len = 0;
    if (max == 0)
        return -EINVAL;
    char *buf = cp_malloc(max);
    if (!buf)
        return -ENOMEM;
    int rc = read_into(fs, path, buf, max, &got, records_ok);
    if (rc) {
        free(buf);
        return rc;
    }
    /* most files are far smaller than the cap the caller allowed */
    char *small = cp_realloc(buf, got + 1);
    *out = small ? small : buf;
    if (len)
        *len = got;
    return 0;
}

/* cp_fs_read into a malloc'd buffer (shrunk to fit) that the caller frees;
 * *out is NULL on failure.  Returns 0 or -errno. */
int cp_fs_read_alloc(cp_fs *fs, const char *path, size_t max, char **out, size_t *len)
{
    return read_alloc(fs, path, max, out, len, false);
}

/* cp_fs_read_alloc that also reads a character device; see fs.h. */
int cp_fs_read_device_alloc(cp_fs *fs, const char *path, size_t max, char **out, size_t *len)
{
    return read_alloc(fs, path, max, out, len, true);
}

/* readlink through the root, cut to cap-1 bytes; recorded as a link.
 * Returns 0 or -errno. */
int cp_fs_readlink(cp_fs *fs, const char *path, char *buf, size_t cap)
{
    char full[PATH_MAX], mpath[PATH_MAX];
    if (!fs || !buf || cap == 0)
        return -EINVAL;
    buf[0] = '\0';
    int rc = locate(fs, path, mpath, full, sizeof full, false);
    if (rc)
        return rc;
    ssize_t n = readlink(full, buf, cap - 1);
    if (n < 0)
        return -errno;
    buf[n] = '\0';
    cp_fs_rec_put(fs, mpath, REC_LINK, buf, (size_t)n);
    return 0;
}

/* stat (following links) through the root; major/minor are CP_UNKNOWN for
 * anything but a character device.  Recorded as a folder or placeholder. */
cp_fs_type cp_fs_stat(cp_fs *fs, const char *path, int64_t *mode,
                      int64_t *rdev_major, int64_t *rdev_minor)
{
    char full[PATH_MAX], mpath[PATH_MAX];
    struct stat st;
    if (!fs || locate(fs, path, mpath, full, sizeof full, true) != 0 || stat(full, &st) != 0)
        return CP_FS_MISSING;
    cp_fs_type t = type_of(st.st_mode);
    if (mode)
        *mode = (int64_t)(st.st_mode & 07777);
    bool dev = t == CP_FS_CHR || t == CP_FS_BLK;
    if (rdev_major)
        *rdev_major = dev ? (int64_t)major(st.st_rdev) : CP_UNKNOWN;
    if (rdev_minor)
        *rdev_minor = dev ? (int64_t)minor(st.st_rdev) : CP_UNKNOWN;
    cp_fs_rec_put(fs, mpath, t == CP_FS_DIR ? REC_DIR : REC_PLACEHOLDER, NULL, 0);
    return t;
}

/* Type and real name of a path; see fs.h. */
cp_fs_type cp_fs_stat_real(cp_fs *fs, const char *path, char *real, size_t cap)
{
    char tmp[PATH_MAX];
    if (!real || cap == 0) {
        real = tmp;
        cap = sizeof tmp;
    }
    if (cp_fs_realpath(fs, path, real, cap) != 0)
        return CP_FS_MISSING;
    cp_fs_type t = cp_fs_stat(fs, real, NULL, NULL, NULL);
    if (t == CP_FS_MISSING)
        real[0] = '\0';
    return t;
}

/* 1 when this user may read and write path, 0 when refused, -1 when it
 * cannot be told (missing, or a snapshot view). */
int cp_fs_access_rw(cp_fs *fs, const char *path)
{
    char full[PATH_MAX];
    /* a snapshot's files belong to whoever unpacked it: their permissions
     * say nothing about the captured machine */
    if (!fs || !fs->live || check_path(path) != 0 || prefixed(fs, path, full, sizeof full) != 0)
        return -1;
    if (access(full, R_OK | W_OK) == 0)
        return 1;
    return (errno == EACCES || errno == EROFS || errno == EPERM) ? 0 : -1;
}

/* Open and close at once; see fs.h. */
int cp_fs_try_open_rw(cp_fs *fs, const char *path, int *err)
{
    char full[PATH_MAX];
    if (!fs || !fs->live || !err || check_path(path) != 0 || prefixed(fs, path, full, sizeof full) != 0)
        return 0;
    int fd = open(full, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        *err = errno;
        return 1;
    }
    *err = 0;
    (void)close(fd);   /* nothing was written: a failed close loses nothing */
    return 1;
}

/* ------------------------------------------------------------ listing -- */

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Free what cp_fs_dir_names returned. */
void cp_fs_names_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* The sorted names of an open folder; see fs_int.h. */
int cp_fs_dir_names(DIR *d, const char *skip, bool skip_hidden, char ***out, size_t *count)
{
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((errno = 0, de = readdir(d)) != NULL) {
        const char *nm = de->d_name;
        if (strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0 || (skip && strcmp(nm, skip) == 0) ||
            (skip_hidden && nm[0] == '.'))
            continue;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 32;
            char **nn = cp_realloc(names, ncap * sizeof *nn);
            if (!nn) {
                cp_fs_names_free(names, n);
                return -ENOMEM;
            }
            names = nn;
            cap = ncap;
        }
        if (!(names[n] = cp_strdup(nm))) {
            cp_fs_names_free(names, n);
            return -ENOMEM;
        }
        n++;
    }
    if (errno) {
        int e = errno;
        cp_fs_names_free(names, n);
        return -e;
    }
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_names);
    *out = names;
    *count = n;
    return 0;
}

/* Type one listed entry by what it points at, and record it: a link as a
 * link (so a replay follows it as the machine did, and sees a dangling one
 * dangle), anything else as a folder or a placeholder file.  Outside the
 * live machine a link is followed by the resolver, so an absolute one is
 * typed by what it names inside the view, not on the machine replaying. */
static cp_fs_type list_entry_type(cp_fs *fs, int dfd, const char *dir, const char *name)
{
    struct stat st;
    char mpath[PATH_MAX], target[PATH_MAX];
    bool named = cp_path_join(mpath, sizeof mpath, dir, name) == 0;
    ssize_t r = (fs->record || !fs->live) ? readlinkat(dfd, name, target, sizeof target - 1) : -1;
    cp_fs_type t;
    if (r >= 0 && !fs->live) {
        char real[PATH_MAX], full[PATH_MAX];
        t = named && walk(fs, mpath, real, sizeof real, true) == 0 &&
                    prefixed(fs, real, full, sizeof full) == 0 && stat(full, &st) == 0
                ? type_of(st.st_mode) : CP_FS_MISSING;
    } else {
        t = fstatat(dfd, name, &st, 0) == 0 ? type_of(st.st_mode) : CP_FS_MISSING;
    }
    if (!fs->record || !named)
        return t;
    if (r >= 0)
        cp_fs_rec_put(fs, mpath, REC_LINK, target, (size_t)r);
    else if (t != CP_FS_MISSING)
        cp_fs_rec_put(fs, mpath, t == CP_FS_DIR ? REC_DIR : REC_PLACEHOLDER, NULL, 0);
    return t;
}

/* Sorted (strcmp) walk of a folder's entries that start with prefix (NULL:
 * all); each is typed by stat (a dangling link is CP_FS_MISSING) and, with
 * the folder, recorded.  Returns entries visited or -errno. */
int cp_fs_list_prefix(cp_fs *fs, const char *dir, const char *prefix, cp_fs_entry_cb cb, void *arg)
{
    char full[PATH_MAX], mdir[PATH_MAX];
    if (!fs || !dir)
        return -EINVAL;
    int rc = locate(fs, dir, mdir, full, sizeof full, true);
    if (rc)
        return rc;
    DIR *d = opendir(full);
    if (!d)
        return -errno;
    char **names = NULL;
    size_t n = 0;
    rc = cp_fs_dir_names(d, fs->live ? NULL : CP_FS_KEEP_NAME, false, &names, &n);
    if (rc) {
        closedir(d);
        return rc;
    }
    cp_fs_rec_put(fs, mdir, REC_DIR, NULL, 0);
    int visited = 0;
    for (size_t i = 0; i < n; i++) {
        if (prefix && strncmp(names[i], prefix, strlen(prefix)) != 0)
            continue;
        cp_fs_type t = list_entry_type(fs, dirfd(d), mdir, names[i]);
        visited++;
        if (cb && cb(names[i], t, arg) != 0)
            break;
    }
    cp_fs_names_free(names, n);
    closedir(d);
    return visited;
}

/* Every entry of a folder; see fs.h. */
int cp_fs_list(cp_fs *fs, const char *dir, cp_fs_entry_cb cb, void *arg)
{
    return cp_fs_list_prefix(fs, dir, NULL, cb, arg);
}
