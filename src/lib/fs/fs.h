/*
 * One door to the file system: every OS read of the observe step goes
 * through a cp_fs, which prefixes paths with a root ("/" live, or a captured
 * snapshot's root/ folder) and can record what it saw so `cuprobe snapshot`
 * can write the same files out again.
 *
 * Paths given to these functions are absolute machine paths ("/proc/modules");
 * the root is prepended internally.  The layer owns link resolution: read,
 * stat and list follow every symbolic link in the path themselves (inside a
 * snapshot an absolute link starts again at the snapshot's root), and what
 * they record is kept under the resolved path, with each link met recorded as
 * a link, so a snapshot holds the links as links.  Callers never resolve
 * links; the one who needs a path's real name asks cp_fs_realpath.  None of
 * these functions print or exit.
 */
#ifndef CP_FS_H
#define CP_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cp_fs cp_fs;

/* Open a file-system view rooted at `root` ("/" for the live machine).  When
 * `record` is true, every read, listing, stat and readlink is remembered for
 * cp_fs_write_snapshot.  Returns NULL only when out of memory. */
cp_fs *cp_fs_open(const char *root, bool record);

/* Release the view and everything it recorded.  NULL is allowed. */
void cp_fs_close(cp_fs *fs);

/* The root this view was opened with. */
const char *cp_fs_root(const cp_fs *fs);

/* True when the view is the live machine ("/"). */
bool cp_fs_is_live(const cp_fs *fs);

/* Read up to cap-1 bytes of the regular file `path` into buf and
 * NUL-terminate it; *len gets the byte count (may contain NULs for binary
 * files).  The file is opened non-blocking and typed before any read, so a
 * FIFO, a socket or a device never blocks it: those are refused with
 * -ENXIO (cp_fs_what says what the path is), a folder with -EISDIR.
 * Returns 0, or -errno (-ENOENT, -EACCES, ...).  A file longer than cap-1
 * is truncated silently: callers size cap for the files they expect. */
int cp_fs_read(cp_fs *fs, const char *path, char *buf, size_t cap, size_t *len);

/* Like cp_fs_read, but allocates: *out gets a malloc'd, NUL-terminated buffer
 * of at most max bytes, owned by the caller.  Returns 0 or -errno. */
int cp_fs_read_alloc(cp_fs *fs, const char *path, size_t max, char **out, size_t *len);

/* cp_fs_read and cp_fs_read_alloc for the deliberate reader of a character
 * device that hands out records (/dev/kmsg): such a device is read
 * non-blocking, record by record, until it runs dry (a regular file, as in
 * a snapshot, reads as usual).  FIFOs, sockets and block devices are still
 * refused with -ENXIO.  Returns 0 or -errno. */
int cp_fs_read_device(cp_fs *fs, const char *path, char *buf, size_t cap, size_t *len);
int cp_fs_read_device_alloc(cp_fs *fs, const char *path, size_t max, char **out, size_t *len);

/* What `path` is (links followed through the view), in words for a
 * message: "a file", "a folder", "a FIFO", "a socket", "a character
 * device", "a block device", "a special file" or "missing".  Never opens
 * it.  The string is static. */
const char *cp_fs_what(cp_fs *fs, const char *path);

/* The real name of an absolute machine path: every symbolic link in it
 * followed through the view (the one resolver; inside a snapshot an absolute
 * link resolves with the snapshot as "/", and ".." never climbs above it).
 * Components that do not exist are kept as written, so the tail need not
 * exist (git's strbuf_realpath with "many missing"); "." and ".." are folded
 * after the links before them are followed, as the kernel does.  Writes the
 * resolved machine path ("/usr/local/cuda-13.0/lib64") to out.  Links met are
 * recorded when recording.  Returns 0, or -errno (-EINVAL for a relative
 * path, -ELOOP past 40 links, -ENAMETOOLONG); out is "" on failure. */
int cp_fs_realpath(cp_fs *fs, const char *path, char *out, size_t cap);

/* Where an absolute machine path lives on this machine, links resolved as by
 * cp_fs_realpath: the root prefix plus the real name.  For files too large to
 * read through the view (a framework's 500 MB GPU library), which callers
 * then open themselves.  Returns 0 or -errno; out is "" on failure. */
int cp_fs_host_path(cp_fs *fs, const char *path, char *out, size_t cap);

/* readlink(2) through the root (links above the last component followed); buf is NUL-terminated.  Returns 0 or -errno. */
int cp_fs_readlink(cp_fs *fs, const char *path, char *buf, size_t cap);

/* What a path is, following links. */
typedef enum { CP_FS_MISSING = 0, CP_FS_FILE, CP_FS_DIR, CP_FS_CHR, CP_FS_OTHER, CP_FS_BLK } cp_fs_type;

/* stat(2) through the root.  On success fills the optional outputs (mode:
 * permission bits, rdev_major/minor for character and block devices,
 * CP_UNKNOWN for anything else) and returns the type; CP_FS_MISSING when it
 * does not exist or cannot be seen. */
cp_fs_type cp_fs_stat(cp_fs *fs, const char *path, int64_t *mode,
                      int64_t *rdev_major, int64_t *rdev_minor);

/* cp_fs_stat's type of a path (links followed) with its real name, as by
 * cp_fs_realpath, into real (cap bytes; NULL for none): for callers that
 * tell copies apart by what they really are.  CP_FS_MISSING, with real "",
 * when the path cannot be resolved or does not exist. */
cp_fs_type cp_fs_stat_real(cp_fs *fs, const char *path, char *real, size_t cap);

/* access(path, R_OK|W_OK) through the root: 1 yes, 0 no, -1 unknown. */
int cp_fs_access_rw(cp_fs *fs, const char *path);

/* Open a device node the way a driver library does (O_RDWR, non-blocking,
 * no controlling terminal, close-on-exec) and close it at once, without an
 * ioctl, which changes nothing on the device: the open alone says whether a
 * device cgroup (EPERM), the node's mode (EACCES) or a missing driver
 * (ENXIO, ENODEV) stands in the way, which access(2) cannot tell.  Live view
 * only: returns 1 with *err set to 0 (opened) or the errno, 0 when nothing
 * was tried (a snapshot or a --root tree, whose files are not the machine's). */
int cp_fs_try_open_rw(cp_fs *fs, const char *path, int *err);

/* Call cb(name, type, arg) for every entry of `dir` except "." and "..", in
 * sorted order so results never depend on directory order.  A non-zero
 * return from cb stops the walk.  Returns the number of entries visited, or
 * -errno when the folder cannot be opened. */
typedef int (*cp_fs_entry_cb)(const char *name, cp_fs_type type, void *arg);
int cp_fs_list(cp_fs *fs, const char *dir, cp_fs_entry_cb cb, void *arg);

/* cp_fs_list restricted to names starting with prefix: only those are
 * visited and recorded (so listing /dev for "nvidia" keeps the ttys out of
 * a snapshot).  NULL prefix = every entry. */
int cp_fs_list_prefix(cp_fs *fs, const char *dir, const char *prefix, cp_fs_entry_cb cb, void *arg);

/* Write every recorded item under `dir` (the snapshot's root/ folder): files
 * with the bytes read, folders, links as links, stat-only files as empty
 * placeholders.  Returns 0, or -errno with errbuf naming the failing item
 * as the snapshot's copy of the machine path ("cannot write the snapshot's
 * copy of '/proc/modules': no space left on device"). */
int cp_fs_write_snapshot(cp_fs *fs, const char *dir, char *errbuf, size_t errcap);

/* Create the file `path` (a path of this machine, not below the root; it
 * must not exist, and a link there is never followed) with the given
 * permission bits and bytes.  Counts as a write for cp_fs_fail_write_at.
 * Returns 0 or -errno. */
int cp_fs_write_file(cp_fs *fs, const char *path, const void *data, size_t len, int mode);

/* Remove the folder `dir` of this machine and everything below it, links
 * removed as links, never followed.  Returns 0, or -errno of the first
 * failure (the walk goes on past it). */
int cp_fs_remove_tree(const char *dir);

/* Test hook: make the Nth cp_fs_read from now on fail with -EIO (0 = never).
 * Set from CUPROBE_TEST_FAIL_READ by the tool; fault-injection tests loop N. */
void cp_fs_fail_read_at(cp_fs *fs, long n);

/* Test hook: make the Nth write from now on (each file, folder or link that
 * cp_fs_write_snapshot creates, and each cp_fs_write_file) fail with
 * -ENOSPC, as on a full disk (0 = never).  Set from CUPROBE_TEST_FAIL_WRITE
 * by the tool. */
void cp_fs_fail_write_at(cp_fs *fs, long n);

#endif
