/* The observe step as a whole: fault injection over every file read, and a
 * snapshot written and replayed through the public API. */
#include "test.h"
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cuprobe/cuprobe.h"
#include "cuprobe/facts.h"

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(p);
}

/* Make the Nth file read fail, for every N: observe and doctor still work. */
static void test_every_read_can_fail(void)
{
    int worked = 0;
    for (long n = 1; n <= 400; n++) {
        cp_observe_opts o = CP_OBSERVE_DEFAULTS;
        o.from_dir = "tests/fixtures/h200-2gpu";
        o.fail_read_at = n;
        cp_session *s;
        char err[256];
        if (cp_observe(&o, &s, err, sizeof err) != 0) { CHECK(0); continue; }
        cp_report r;
        CHECK_I64(cp_doctor(cp_session_facts(s), 1, &r), 0);
        CHECK(r.nfindings > 20);
        int code = cp_report_exit_code(&r);
        CHECK(code == CP_EXIT_HEALTHY || code == CP_EXIT_WARN || code == CP_EXIT_FAIL);
        cp_report_free(&r);
        cp_session_free(s);
        worked++;
    }
    CHECK_I64(worked, 400);
}

static void findings_of(const char *from, const char *root, char *out, size_t cap)
{
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    o.from_dir = from;
    o.root = root;
    o.timeout_ms = 2000;
    cp_session *s;
    char err[256];
    out[0] = '\0';
    if (cp_observe(&o, &s, err, sizeof err) != 0) return;
    cp_report r;
    cp_doctor(cp_session_facts(s), 1, &r);
    size_t len = 0;
    for (int i = 0; i < r.nfindings && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s %s %s\n", r.findings[i].check,
                                cp_status_name(r.findings[i].status), r.findings[i].summary);
    cp_report_free(&r);
    cp_session_free(s);
}

/* Observe a fixture machine live-style (recording), write a snapshot, replay
 * it: the same findings. */
static void test_snapshot_replays_same(void)
{
    char dir[] = "/tmp/cuprobe-observe-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char snap[600], err[256] = "";
    snprintf(snap, sizeof snap, "%s/snap", dir);
    setenv("CUPROBE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    setenv("CUPROBE_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
    setenv("CUDA_VISIBLE_DEVICES", "1,0", 1);
    setenv("HF_TOKEN", "hf_do_not_leak", 1);            /* not a CUDA variable: never kept */
    setenv("NV_REGISTRY_TOKEN", "nv_do_not_leak", 1);   /* kept, but its value redacted */

    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    o.root = "tests/fixtures/h200-2gpu/root";
    o.record = true;
    cp_session *s;
    CHECK_I64(cp_observe(&o, &s, err, sizeof err), 0);
    CHECK_I64(cp_snapshot_write(s, snap, err, sizeof err), 0);
    CHECK_STR(err, "");
    cp_session_free(s);
    /* writing into a folder that is not empty is refused */
    CHECK(cp_observe(&o, &s, err, sizeof err) == 0);
    CHECK_I64(cp_snapshot_write(s, snap, err, sizeof err), -1);
    CHECK(strstr(err, "not an empty folder") != NULL);
    cp_session_free(s);

    static char a[16384], b[16384];
    findings_of(NULL, "tests/fixtures/h200-2gpu/root", a, sizeof a);
    findings_of(snap, NULL, b, sizeof b);
    CHECK(a[0] != '\0');
    CHECK_STR(b, a);
    CHECK(strstr(a, "CUDA_VISIBLE_DEVICES shows 2 of 2 GPUs") != NULL);

    char path[700], text[65536];
    snprintf(path, sizeof path, "%s/answers.txt", snap);
    FILE *fp = fopen(path, "r");
    size_t n = fp ? fread(text, 1, sizeof text - 1, fp) : 0;
    if (fp) fclose(fp);
    text[n] = '\0';
    CHECK(strstr(text, "hf_do_not_leak") == NULL);
    CHECK(strstr(text, "HF_TOKEN") == NULL);
    CHECK(strstr(text, "nv_do_not_leak") == NULL);
    CHECK(strstr(text, "host.env.NV_REGISTRY_TOKEN <redacted>") != NULL);
    CHECK(strstr(text, "host.env.CUDA_VISIBLE_DEVICES 1,0") != NULL);
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("HF_TOKEN");
    unsetenv("NV_REGISTRY_TOKEN");
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char p[700];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *fp = fopen(p, "w");
    if (fp) {
        fputs(text, fp);
        fclose(fp);
    }
}

/* /proc/uptime travels in the snapshot's root/ beside /dev/kmsg, so a replay
 * ages an XID as of the capture, not of the replay. */
static void test_snapshot_keeps_uptime(void)
{
    char dir[] = "/tmp/cuprobe-observe-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char root[600], snap[600], p[700], err[256] = "";
    snprintf(root, sizeof root, "%s/root", dir);
    snprintf(snap, sizeof snap, "%s/snap", dir);
    mkdir(root, 0755);
    snprintf(p, sizeof p, "%s/dev", root);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/proc", root);
    mkdir(p, 0755);
    write_file(root, "dev/kmsg", "4,1201,912345678,-;NVRM: Xid (PCI:0000:9b:00): 79, pid=1, name=a, "
                                 "GPU has fallen off the bus.\n");
    write_file(root, "proc/uptime", "275112.48 4389011.52\n");
    setenv("CUPROBE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    setenv("CUPROBE_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);

    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    o.root = root;
    o.record = true;
    cp_session *s;
    CHECK_I64(cp_observe(&o, &s, err, sizeof err), 0);
    CHECK_I64(cp_snapshot_write(s, snap, err, sizeof err), 0);
    cp_session_free(s);
    snprintf(p, sizeof p, "%s/root/proc/uptime", snap);
    CHECK(access(p, R_OK) == 0);

    static char a[16384], b[16384];
    findings_of(NULL, root, a, sizeof a);
    findings_of(snap, NULL, b, sizeof b);
    CHECK(strstr(a, "hardware.xid warn 1 hardware XID in the kernel log, worst Xid 79 is old (3 d 4 h ago)") != NULL);
    CHECK_STR(b, a);
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* A deadline below the floor is raised to it (the CLI refuses such a
 * --timeout, the library does not trust its callers): a cuInit that takes
 * 30 ms answers under a 1 ms deadline.  Needs the fake libcuda beside this
 * program (BUILD/fakes); skips without it. */
static void test_deadline_floor(void)
{
    char fake[PATH_MAX], scen[] = "/tmp/cuprobe-scen-XXXXXX";
    ssize_t n = readlink("/proc/self/exe", fake, sizeof fake - 32);
    char *slash = n > 0 ? memrchr(fake, '/', (size_t)n) : NULL;
    if (!slash) return;
    memcpy(slash, "/../fakes/libcuda.so.1", sizeof "/../fakes/libcuda.so.1");
    if (access(fake, R_OK) != 0) { printf("skip: no fake libcuda at '%s'\n", fake); return; }
    int fd = mkstemp(scen);
    CHECK(fd >= 0);
    if (fd < 0) return;
    static const char text[] = "cuda.devices=1\ncuda.version=13000\ncuda.init.ms=30\n";
    CHECK(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
    close(fd);
    setenv("CUPROBE_LIBCUDA", fake, 1);
    setenv("CUPROBE_FAKE_SCENARIO", scen, 1);
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    o.from_dir = "tests/fixtures/h200-snap";
    o.live_mask = CP_LIVE_CUDA;
    o.timeout_ms = 1;
    cp_session *s = NULL;
    char err[256] = "";
    CHECK_I64(cp_observe(&o, &s, err, sizeof err), 0);
    if (s) {
        const cp_facts *f = cp_session_facts(s);
        CHECK_I64(f->cuda.run.state, CP_PROBE_DONE);
        CHECK(f->cuda.lib.loaded);
        CHECK_I64(f->cuda.init_result, 0);
        cp_session_free(s);
    }
    unsetenv("CUPROBE_FAKE_SCENARIO");
    setenv("CUPROBE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    unlink(scen);
}

/* A snapshot taken at level 2 (live libcuda: the fake, carrying the
 * runtime out over host memory) keeps the level-2 results, and a replay at
 * level 2 gives the same level-2 verdicts.  Skips without the fake. */
static void test_level2_snapshot(void)
{
    char fake[PATH_MAX], dir[] = "/tmp/cuprobe-l2snap-XXXXXX", snap[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", fake, sizeof fake - 32);
    char *slash = n > 0 ? memrchr(fake, '/', (size_t)n) : NULL;
    if (!slash) return;
    memcpy(slash, "/../fakes/libcuda.so.1", sizeof "/../fakes/libcuda.so.1");
    if (access(fake, R_OK) != 0) { printf("skip: no fake libcuda at '%s'\n", fake); return; }
    CHECK(mkdtemp(dir) != NULL);
    snprintf(snap, sizeof snap, "%s/snap", dir);
    setenv("CUPROBE_LIBCUDA", fake, 1);
    setenv("CUPROBE_FAKE_SCENARIO", "tests/fakes/scenarios/l2-wrong-element.txt", 1);
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    o.root = "tests/fixtures/h200-1gpu/root";
    o.record = true;
    o.level = 2;
    cp_session *s = NULL;
    char err[256] = "";
    CHECK_I64(cp_observe(&o, &s, err, sizeof err), 0);
    if (s) {
        const cp_facts *f = cp_session_facts(s);
        CHECK_I64(f->cuda.l2_level, 2);
        CHECK_STR(f->cuda.dev[0].l2.step, "done");
        CHECK_I64(f->cuda.dev[0].l2.wrong_index, 77);
        CHECK_I64(cp_snapshot_write(s, snap, err, sizeof err), 0);
        cp_session_free(s);
    }
    unsetenv("CUPROBE_FAKE_SCENARIO");
    setenv("CUPROBE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    cp_observe_opts r = CP_OBSERVE_DEFAULTS;
    r.from_dir = snap;
    r.level = 2;
    s = NULL;
    CHECK_I64(cp_observe(&r, &s, err, sizeof err), 0);
    if (s) {
        const cp_facts *f = cp_session_facts(s);
        CHECK_I64(f->cuda.l2_level, 2);
        CHECK_STR(f->cuda.dev[0].l2.wrong_kernel, "cp_k_fill_u32");
        CHECK_I64(f->cuda.dev[0].l2.wrong, 2);
        CHECK(f->cuda.dev[0].l2.h2d_pinned_mbs > 0);
        cp_report rep;
        CHECK_I64(cp_doctor(f, 2, &rep), 0);
        int found = 0;
        for (int i = 0; i < rep.nfindings; i++)
            if (strcmp(rep.findings[i].check, "hardware.compute") == 0) {
                found = 1;
                CHECK_I64(rep.findings[i].status, CP_FAIL);
            }
        CHECK(found);
        cp_report_free(&rep);
        cp_session_free(s);
    }
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The replayed facts of a snapshot folder; NULL when it does not replay. */
static cp_session *replay(const char *from)
{
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    o.from_dir = from;
    o.live_mask = 0;
    cp_session *s;
    char err[256];
    return cp_observe(&o, &s, err, sizeof err) == 0 ? s : NULL;
}

/* The libraries probe's answers in a snapshot are keyed by path: a libs.
 * block whose order differs from the order the files are found in (as after
 * a parser fix that changes discovery order) still puts each answer on its
 * own library.  Old snapshots, without libs.N.path, match by position. */
static void test_libs_answers_by_path(void)
{
    static char text[1 << 20], moved[1 << 20];
    char dir[] = "/tmp/cuprobe-observe-XXXXXX", cwd[512], line[1024];
    CHECK(mkdtemp(dir) != NULL && getcwd(cwd, sizeof cwd) != NULL);
    cp_session *ref = replay("tests/fixtures/h200-snap");
    CHECK(ref != NULL);
    if (!ref) return;
    const cp_libraries_facts *want = &cp_session_facts(ref)->libraries;
    CHECK(want->nlib >= 4);
    /* the fixture's answers differ from one library to the next */
    CHECK(strcmp(want->lib[0].version_call, want->lib[2].version_call) != 0);

    /* the same snapshot, its libs. block written back to front with paths */
    FILE *in = fopen("tests/fixtures/h200-snap/answers.txt", "r");
    size_t used = 0;
    while (in && fgets(line, sizeof line, in))
        if (strncmp(line, "libs.", 5) != 0 && used + strlen(line) < sizeof moved)
            used += (size_t)snprintf(moved + used, sizeof moved - used, "%s", line);
    if (in) fclose(in);
    for (int i = 0; i < want->nlib; i++) {
        const cp_library *l = &want->lib[want->nlib - 1 - i];
        used += (size_t)snprintf(moved + used, sizeof moved - used,
                                 "libs.%d.path %s\nlibs.%d.loads %d\nlibs.%d.load_error %s\n"
                                 "libs.%d.version_call %s\n", i, l->path, i, (int)l->loads, i,
                                 l->load_error, i, l->version_call);
    }
    snprintf(moved + used, sizeof moved - used, "libs.end ok\n");
    write_file(dir, "answers.txt", moved);
    /* a copy: a snapshot's root/ that is a link is damage */
    snprintf(text, sizeof text, "cp -R '%s/tests/fixtures/h200-snap/root' '%s/root'", cwd, dir);
    CHECK(system(text) == 0);

    cp_session *got = replay(dir);
    CHECK(got != NULL);
    if (got) {
        const cp_libraries_facts *L = &cp_session_facts(got)->libraries;
        CHECK_I64(L->nlib, want->nlib);
        for (int i = 0; i < L->nlib && i < want->nlib; i++) {
            CHECK_STR(L->lib[i].path, want->lib[i].path);
            CHECK_I64(L->lib[i].loads, want->lib[i].loads);
            CHECK_STR(L->lib[i].version_call, want->lib[i].version_call);
            CHECK_STR(L->lib[i].load_error, want->lib[i].load_error);
        }
        cp_session_free(got);
    }
    cp_session_free(ref);
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Entries of a folder other than "." and "..". */
static int entries_of(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL)
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    if (d) closedir(d);
    return d ? n : -1;
}

static void slurp(const char *path, char *text, size_t cap)
{
    FILE *fp = fopen(path, "r");
    size_t n = fp ? fread(text, 1, cap - 1, fp) : 0;
    if (fp) fclose(fp);
    text[n] = '\0';
}

/* Write a snapshot of the h200-2gpu fixture to `to`, its Nth write failing. */
static int write_failing_at(long n, const char *to, char *err, size_t cap)
{
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    o.root = "tests/fixtures/h200-2gpu/root";
    o.record = true;
    o.fail_write_at = n;
    cp_session *s;
    if (cp_observe(&o, &s, err, cap) != 0) return -2;
    int rc = cp_snapshot_write(s, to, err, cap);
    cp_session_free(s);
    return rc;
}

/* A full disk at the writes of a snapshot (every third, and the last): the
 * error names the snapshot's file (not the machine's), nothing is left
 * behind, and the retry works; the same into an existing empty folder,
 * which keeps its mode. */
static void test_snapshot_write_fails_cleanly(void)
{
    char dir[] = "/tmp/cuprobe-observe-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char snap[600], empty[600], err[512], p[700];
    snprintf(snap, sizeof snap, "%s/snap", dir);
    snprintf(empty, sizeof empty, "%s/empty", dir);
    CHECK_I64(mkdir(empty, 0751), 0);
    CHECK_I64(chmod(empty, 0751), 0);
    setenv("CUPROBE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    setenv("CUPROBE_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
    long n = 1, failed = 0;
    for (; n < 2000; n += 3) {
        const char *to = failed % 2 ? snap : empty;
        if (write_failing_at(n, to, err, sizeof err) == 0) break;
        failed++;
        CHECK(strstr(err, "no space left on device") != NULL);
        CHECK(strstr(err, "nothing was left behind") != NULL);
        CHECK(strstr(err, "the snapshot's") != NULL);
        CHECK_I64(entries_of(dir), 1);              /* only the empty folder: no partial snapshot */
        CHECK_I64(entries_of(empty), 0);
        if (entries_of(dir) != 1 || entries_of(empty) != 0) break;
    }
    CHECK(failed > 10);
    const char *made = failed % 2 ? snap : empty;   /* the write that worked */
    /* the last write is answers.txt's: its failure is worded as the snapshot's file */
    char again[600];
    snprintf(again, sizeof again, "%s/again", dir);
    for (long k = n - 1; k >= n - 3 && k > 0; k--) {
        if (write_failing_at(k, again, err, sizeof err) != 0) break;
        nftw(again, rm_one, 16, FTW_DEPTH | FTW_PHYS);   /* past the last write: it worked */
    }
    CHECK(strstr(err, "cannot write the snapshot's file answers.txt: no space left on device") != NULL);
    CHECK(access(again, F_OK) != 0);
    struct stat st;
    snprintf(p, sizeof p, "%s/answers.txt", made);
    CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK(stat(made, &st) == 0 && (st.st_mode & 0777) == (made == snap ? 0700 : 0751));
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* "." when it is an empty folder is fine; a folder with something in it
 * is refused and left as it was. */
static void test_snapshot_into_dot(void)
{
    char dir[] = "/tmp/cuprobe-observe-XXXXXX", cwd[512], err[512], root[700];
    CHECK(mkdtemp(dir) != NULL && getcwd(cwd, sizeof cwd) != NULL);
    snprintf(root, sizeof root, "%s/tests/fixtures/h200-2gpu/root", cwd);
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    o.root = root;
    o.record = true;
    cp_session *s;
    CHECK_I64(cp_observe(&o, &s, err, sizeof err), 0);
    CHECK_I64(chdir(dir), 0);
    CHECK_I64(cp_snapshot_write(s, ".", err, sizeof err), 0);
    CHECK_STR(err, "");
    CHECK(access("answers.txt", R_OK) == 0 && access("root/proc", R_OK) == 0);
    CHECK_I64(entries_of("."), 2);
    CHECK_I64(cp_snapshot_write(s, ".", err, sizeof err), -1);
    CHECK(strstr(err, "not an empty folder") != NULL);
    CHECK_I64(entries_of("."), 2);
    CHECK_I64(chdir(cwd), 0);
    cp_session_free(s);
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* snapshot --python: the interpreter named is examined, kept in the
 * answers, and examined again by the replay. */
static void test_snapshot_keeps_python(void)
{
    char dir[] = "/tmp/cuprobe-observe-XXXXXX", cmd[2400], root[600], snap[600], err[512], p[700];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(root, sizeof root, "%s/root", dir);
    snprintf(snap, sizeof snap, "%s/snap", dir);
    snprintf(cmd, sizeof cmd, "cp -R tests/fixtures/h200-1gpu/root '%s' && cd '%s' && mkdir -p opt/venv/bin usr/bin "
             "opt/venv/lib/python3.12/site-packages/torch opt/venv/lib/python3.12/site-packages/nvidia/cublas/lib "
             "opt/venv/lib/python3.12/site-packages/nvidia_cublas-13.1.0.3.dist-info && "
             "echo 'home = /usr/bin' > opt/venv/pyvenv.cfg && echo ELF > usr/bin/python3.12 && "
             "ln -s /usr/bin/python3.12 opt/venv/bin/python3 && "
             "printf \"__version__ = '2.11.0+cu130'\\ncuda = '13.0'\\n\" > opt/venv/lib/python3.12/site-packages/torch/version.py && "
             "echo ELF > opt/venv/lib/python3.12/site-packages/nvidia/cublas/lib/libcublas.so.13 && "
             "echo 'Name: nvidia-cublas' > opt/venv/lib/python3.12/site-packages/nvidia_cublas-13.1.0.3.dist-info/METADATA",
             root, root);
    CHECK(system(cmd) == 0);
    setenv("CUPROBE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    setenv("CUPROBE_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    o.root = root;
    o.record = true;
    o.python = "/opt/venv/bin/python3";
    cp_session *s;
    CHECK_I64(cp_observe(&o, &s, err, sizeof err), 0);
    const cp_facts *live = cp_session_facts(s);
    CHECK(live->frameworks.nfw >= 1);
    int live_libs = live->libraries.nlib;
    CHECK(live_libs >= 1);
    CHECK_I64(cp_snapshot_write(s, snap, err, sizeof err), 0);
    cp_session_free(s);
    static char text[1 << 16];
    snprintf(p, sizeof p, "%s/answers.txt", snap);
    slurp(p, text, sizeof text);
    CHECK(strstr(text, "meta.python /opt/venv/bin/python3\n") != NULL);
    CHECK(strstr(text, "fw.0.version 2.11.0+cu130\n") != NULL);
    cp_observe_opts r = CP_OBSERVE_DEFAULTS;
    r.from_dir = snap;
    CHECK_I64(cp_observe(&r, &s, err, sizeof err), 0);
    const cp_facts *got = cp_session_facts(s);
    CHECK_STR(got->python, "/opt/venv/bin/python3");
    CHECK_I64(got->libraries.nlib, live_libs);
    CHECK(got->libraries.nlib > 0 && strstr(got->libraries.lib[got->libraries.nlib - 1].path, "/opt/venv/") != NULL);
    cp_session_free(s);
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
    RUN(test_every_read_can_fail);
    RUN(test_snapshot_replays_same);
    RUN(test_snapshot_keeps_uptime);
    RUN(test_libs_answers_by_path);
    RUN(test_deadline_floor);
    RUN(test_level2_snapshot);
    RUN(test_snapshot_write_fails_cleanly);
    RUN(test_snapshot_into_dot);
    RUN(test_snapshot_keeps_python);
    return TEST_END();
}
