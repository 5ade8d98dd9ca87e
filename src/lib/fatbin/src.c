/*
 * The byte source of the fatbin and ELF readers (src.h): a bounded view of
 * an image in memory or of a file read through one 16 KB pread window.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/alloc.h"
#include "fatbin/src.h"
#include "fs/walk.h"

/* Fill err like snprintf; a NULL or empty buffer is allowed. */
void cp_fatbin_err(char *err, size_t errcap, const char *fmt, ...)
{
    if (!err || errcap == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
}

/* See src.h. */
const unsigned char *cp_src_at(cp_src *src, uint64_t off, size_t n)
{
    if (off > src->len || n > src->len - off || n > CP_SRC_WINDOW)
        return NULL;
    if (src->data)
        return src->data + src->base + off;
    if (off >= src->win_off && off - src->win_off + n <= src->win_len)
        return src->win + (off - src->win_off);
    /* Refill from off: headers are read front to back, so the next ones are
     * usually in the same window. */
    size_t want = src->len - off < CP_SRC_WINDOW ? (size_t)(src->len - off) : CP_SRC_WINDOW;
    errno = 0;
    ssize_t got = pread(src->fd, src->win, want, (off_t)(src->base + off));
    if (got < 0 || (size_t)got < n) {
        src->win_len = 0;
        return NULL;
    }
    src->win_off = off;
    src->win_len = (size_t)got;
    return src->win;
}

/* See src.h. */
int cp_src_copy(cp_src *src, uint64_t off, void *buf, size_t n)
{
    if (off > src->len || n > src->len - off || n > CP_SRC_WINDOW)
        return -1;
    if (src->data) {
        memcpy(buf, src->data + src->base + off, n);
        return 0;
    }
    if (off >= src->win_off && off - src->win_off + n <= src->win_len) {
        memcpy(buf, src->win + (off - src->win_off), n);
        return 0;
    }
    errno = 0;
    ssize_t got = pread(src->fd, buf, n, (off_t)(src->base + off));
    return got >= 0 && (size_t)got == n ? 0 : -1;
}

/* Open path as a cp_src with a 16 KB pread window on the heap and run fn
 * over it; see src.h.  O_NONBLOCK keeps open(2) from waiting for a FIFO's
 * writer (the fstat below then refuses it); it changes nothing for the
 * regular files read.  Headers are far apart in a big library, so
 * read-ahead is turned off: it would only fill the page cache. */
int cp_src_run_file(const char *path, cp_src_fn fn, void *out, char *err, size_t errcap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        cp_fatbin_err(err, errcap, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        cp_fatbin_err(err, errcap, "cannot stat '%s': %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        cp_fatbin_err(err, errcap, "'%s': %s, not a regular file", path, cp_file_kind(st.st_mode));
        close(fd);
        return -1;
    }
    cp_src *src = cp_malloc(sizeof *src);   /* the window is 16 KB: keep it off the caller's stack */
    if (!src) {
        cp_fatbin_err(err, errcap, "'%s': %s", path, strerror(ENOMEM));
        close(fd);
        return -1;
    }
    memset(src, 0, offsetof(cp_src, win));
    src->fd = fd;
    src->len = (uint64_t)st.st_size;
    src->name = path;
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
    int rc = fn(src, out, err, errcap);
    free(src);
    close(fd);
    return rc;
}
