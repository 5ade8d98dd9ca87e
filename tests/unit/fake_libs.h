/*
 * Finding the fake vendor libraries from a unit test (test_loader, test_rt):
 * $CUPROBE_TEST_FAKES, else the fakes/ folder of the test program's own
 * build folder (BUILD/tests/../fakes, so `make BUILD=x` tests x's fakes).
 */
#ifndef CP_TEST_FAKE_LIBS_H
#define CP_TEST_FAKE_LIBS_H

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline const char *env_or(const char *name, const char *dflt)
{
    const char *v = getenv(name);
    return v && v[0] ? v : dflt;
}

static inline bool exists(const char *path)
{
    return access(path, R_OK) == 0;
}

/* BUILD/fakes for this program at BUILD/tests/test_loader; "build/fakes"
 * when /proc/self/exe cannot be read. */
static inline const char *own_fakes(void)
{
    static char dir[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (n <= 0)
        return "build/fakes";
    dir[n] = '\0';
    char *slash = strrchr(dir, '/');
    if (!slash || (size_t)(slash - dir) + sizeof "/../fakes" > sizeof dir)
        return "build/fakes";
    memcpy(slash, "/../fakes", sizeof "/../fakes");
    return dir;
}

static inline bool copy_file(const char *from, const char *to)
{
    char buf[65536];
    ssize_t n;
    bool ok = true;
    int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
    if (in < 0 || out < 0)
        ok = false;
    while (ok && (n = read(in, buf, sizeof buf)) > 0)
        ok = write(out, buf, (size_t)n) == n;
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
    return ok;
}

#endif
