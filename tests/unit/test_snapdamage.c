/* The snapshot-damage loop: every committed snapshot fixture, its
 * answers.txt cut at every line and inside every line, junk appended, and
 * its root/ in each bad form, replayed in process.  A damaged snapshot never
 * replays: cp_observe refuses it with "damaged snapshot" (the tool's exit
 * 3), so no cut can give a verdict, healthy or not.  Only the whole file
 * replays.  Run from the repository root. */
#include "test.h"
#include "cuprobe/cuprobe.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const fixtures[] = { "h200-snap", "build-nogpu", "h200x2-snap" };

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(p);
}

static void put(const char *path, const char *text, size_t len)
{
    unlink(path);
    FILE *fp = fopen(path, "wb");
    CHECK(fp != NULL);
    if (!fp) return;
    CHECK(fwrite(text, 1, len, fp) == len);
    CHECK(fclose(fp) == 0);
}

/* Replay snap; 0 when it replays, -1 when refused (err says why). */
static int replay(const char *snap, char *err, size_t cap)
{
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    o.from_dir = snap;
    cp_session *s = NULL;
    err[0] = '\0';
    int rc = cp_observe(&o, &s, err, cap);
    cp_session_free(s);
    return rc;
}

static int refused_as_damaged(const char *snap, const char *what)
{
    char err[600];
    int rc = replay(snap, err, sizeof err);
    int ok = rc == -1 && (strstr(err, "damaged snapshot") || strstr(err, "is not a cuprobe snapshot"));
    if (!ok)
        fprintf(stderr, "  %s: %s replays (%s)\n", snap, what, rc ? err : "no error");
    return ok;
}

/* Cut at every line and inside every line, then junk appended. */
static void cut_everywhere(const char *name, const char *snap)
{
    static char text[1 << 20];
    char src[256], dst[700];
    snprintf(src, sizeof src, "tests/fixtures/%s/answers.txt", name);
    snprintf(dst, sizeof dst, "%s/answers.txt", snap);
    FILE *fp = fopen(src, "rb");
    size_t len = fp ? fread(text, 1, sizeof text, fp) : 0;
    if (fp) fclose(fp);
    CHECK(len > 0 && len < sizeof text);
    char err[600];
    put(dst, text, len);
    CHECK_I64(replay(snap, err, sizeof err), 0);      /* the whole file replays */
    int bad = 0, cuts = 0;
    for (size_t at = 0; at < len; at++) {
        /* at each line's start, after its first byte, and just before its newline */
        if (at > 0 && text[at - 1] != '\n' && (at < 2 || text[at - 2] != '\n') && text[at] != '\n')
            continue;
        put(dst, text, at);
        cuts++;
        if (!refused_as_damaged(snap, "a cut")) bad++;
    }
    CHECK_I64(bad, 0);
    CHECK(cuts > 100 || strcmp(name, "build-nogpu") == 0);
    static const char *const junk[] = { "cuda.init_result 0\n", "x y\n", "garbage\n", "# a comment\n",
                                        "\x01\x02\x03", "libs.end ok\nmore", "fw.0.name torch\n",
                                        "meta.end ok\n", "zz.unknown 1\n" };
    for (size_t j = 0; j < sizeof junk / sizeof junk[0]; j++) {
        static char more[(1 << 20) + 64];
        memcpy(more, text, len);
        size_t n = strlen(junk[j]);
        memcpy(more + len, junk[j], n);
        put(dst, more, len + n);
        CHECK(refused_as_damaged(snap, junk[j]));
    }
    put(dst, text, len);
}

/* root/ missing, a link to itself, to "/", into a loop, a file, empty,
 * unreadable. */
static void bad_roots(const char *snap)
{
    char root[700], keep[700], other[700];
    snprintf(root, sizeof root, "%s/root", snap);
    snprintf(keep, sizeof keep, "%s/root.keep", snap);
    snprintf(other, sizeof other, "%s/other", snap);
    CHECK_I64(rename(root, keep), 0);
    CHECK(refused_as_damaged(snap, "root/ missing"));
    CHECK_I64(symlink("root", root), 0);
    CHECK(refused_as_damaged(snap, "root/ a link to itself"));
    unlink(root);
    CHECK_I64(symlink("/", root), 0);
    CHECK(refused_as_damaged(snap, "root/ a link to /"));
    unlink(root);
    CHECK_I64(symlink("other", root), 0);
    CHECK_I64(symlink("root", other), 0);
    CHECK(refused_as_damaged(snap, "root/ a loop"));
    unlink(root);
    unlink(other);
    CHECK_I64(symlink("root.keep", root), 0);        /* even one that stays inside */
    CHECK(refused_as_damaged(snap, "root/ a link"));
    unlink(root);
    put(root, "x", 1);
    CHECK(refused_as_damaged(snap, "root/ a file"));
    unlink(root);
    CHECK_I64(mkdir(root, 0755), 0);
    CHECK(refused_as_damaged(snap, "root/ empty"));
    if (geteuid() != 0) {                            /* root reads a folder of mode 000 anyway */
        put(other, "x", 1);
        chmod(root, 0);
        CHECK(refused_as_damaged(snap, "root/ unreadable"));
        chmod(root, 0755);
        unlink(other);
    }
    CHECK_I64(rmdir(root), 0);
    CHECK_I64(rename(keep, root), 0);
    char err[600];
    CHECK_I64(replay(snap, err, sizeof err), 0);
}

/* answers.txt as a link out of the snapshot, and as a FIFO. */
static void bad_answers(const char *name, const char *snap)
{
    char dst[700], keep[700], out[700], cwd[400], err[600];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    snprintf(dst, sizeof dst, "%s/answers.txt", snap);
    snprintf(keep, sizeof keep, "%s/answers.keep", snap);
    CHECK_I64(rename(dst, keep), 0);
    /* the fixture's own answers, outside this snapshot: never read */
    snprintf(out, sizeof out, "%s/tests/fixtures/%s/answers.txt", cwd, name);
    CHECK_I64(symlink(out, dst), 0);
    CHECK(refused_as_damaged(snap, "answers.txt a link out"));
    unlink(dst);
    snprintf(out, sizeof out, "../../%s/tests/fixtures/%s/answers.txt", cwd, name);
    CHECK_I64(symlink(out, dst), 0);
    CHECK(refused_as_damaged(snap, "answers.txt a relative link out"));
    unlink(dst);
    CHECK_I64(symlink("answers.keep", dst), 0);      /* a link inside the snapshot is followed */
    CHECK_I64(replay(snap, err, sizeof err), 0);
    unlink(dst);
    CHECK_I64(mkfifo(dst, 0644), 0);
    alarm(20);                                       /* a read that blocks fails the test */
    CHECK_I64(replay(snap, err, sizeof err), -1);
    alarm(0);
    CHECK(strstr(err, "damaged snapshot") != NULL && strstr(err, "answers.txt is a FIFO, not a file") != NULL);
    unlink(dst);
    CHECK_I64(rename(keep, dst), 0);
}

static void test_damage_loop(void)
{
    char cmd[1400];
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        char dir[] = "/tmp/cuprobe-damage-XXXXXX";
        CHECK(mkdtemp(dir) != NULL);
        snprintf(cmd, sizeof cmd, "cp -R 'tests/fixtures/%s/root' '%s/root'", fixtures[i], dir);
        CHECK(system(cmd) == 0);
        cut_everywhere(fixtures[i], dir);
        bad_roots(dir);
        bad_answers(fixtures[i], dir);
        nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    }
}

int main(void)
{
    setenv("CUPROBE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    setenv("CUPROBE_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
    RUN(test_damage_loop);
    return TEST_END();
}
