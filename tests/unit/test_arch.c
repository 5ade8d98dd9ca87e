/* cuprobe arch in the library: the --sm parser, this machine's targets,
 * the one folder walker (fs/walk.h), and the report in text and JSON: valid
 * JSON carrying docs/arch.schema.json's required members, also for a file
 * name that is not UTF-8 (the tool printed invalid JSON for it before). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test.h"
#include "json_check.h"
#include "cuprobe/arch.h"
#include "fs/walk.h"
#include "util/alloc.h"

static char dir[64];          /* this run's scratch folder */
static const char *tool;      /* the cuprobe built beside this test */

static void put(const char *rel, const char *from)
{
    char p[PATH_MAX], buf[65536];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    FILE *out = fopen(p, "wb"), *in = from ? fopen(from, "rb") : NULL;
    size_t n;
    if (in) {
        while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
        fclose(in);
    } else if (out) {
        fputs("not a binary\n", out);
    }
    if (out) fclose(out);
}

static void sub(const char *rel)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    mkdir(p, 0755);
}

static void lnk(const char *target, const char *rel)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    if (symlink(target, p) != 0) fprintf(stderr, "  symlink %s: %s\n", p, strerror(errno));
}

/* Strict UTF-8 (RFC 3629), written apart from the library's checker:
 * json_ok checks the grammar only and lets any byte through in a string. */
static int utf8_ok(const char *str)
{
    const unsigned char *p = (const unsigned char *)str;
    while (*p) {
        int n = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 ? 1 : (*p & 0xf0) == 0xe0 ? 2 : (*p & 0xf8) == 0xf0 ? 3 : -1;
        if (n < 0 || *p == 0xc0 || *p == 0xc1 || *p > 0xf4) return 0;
        unsigned cp = n == 0 ? *p : *p & (0x3f >> n);
        for (int k = 1; k <= n; k++) {
            if ((p[k] & 0xc0) != 0x80) return 0;
            cp = cp << 6 | (p[k] & 0x3f);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        p += n + 1;
    }
    return 1;
}

/* ---------------------------------------------------------- targets -- */

static void test_target_sm(void)
{
    cp_arch_target t;
    static const struct { const char *v; int major, minor; } ok[] = {
        { "90", 9, 0 }, { "90a", 9, 0 }, { "9.0", 9, 0 }, { "sm_90", 9, 0 }, { "compute_120", 12, 0 },
        { "12.1", 12, 1 }, { "100f", 10, 0 }, { "sm_103", 10, 3 },
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        CHECK_I64(cp_arch_target_sm(ok[i].v, &t), 0);
        CHECK_I64(t.major, ok[i].major);
        CHECK_I64(t.minor, ok[i].minor);
        CHECK_I64(t.driver_cuda, 0);
        CHECK_I64(t.ordinal, -1);
    }
    CHECK_I64(cp_arch_target_sm("9.0", &t), 0);
    CHECK_STR(t.label, "--sm 9.0");
    static const char *const bad[] = { "banana", "9", "9.10", "0.5", "90b", "", "sm_", "12345" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_I64(cp_arch_target_sm(bad[i], &t), -1);
}

static void cuda_dev(cp_facts *f, int i, const char *name, int major, int minor)
{
    f->cuda.dev[i].ordinal = i;
    snprintf(f->cuda.dev[i].name, sizeof f->cuda.dev[i].name, "%s", name);
    f->cuda.dev[i].cc_major = major;
    f->cuda.dev[i].cc_minor = minor;
}

/* One target per CC and name, in device order, listing every GPU of it. */
static void test_machine_targets(void)
{
    cp_facts *f = calloc(1, sizeof *f);
    cp_arch_target t[CP_MAX_GPUS];
    if (!f) { CHECK(f); return; }
    cp_facts_init(f);
    CHECK_I64(cp_arch_machine_targets(f, t, CP_MAX_GPUS), 0);
    f->cuda.ndev = 5;
    f->cuda.driver_version = 13000;
    cuda_dev(f, 0, "NVIDIA H100", 9, 0);
    cuda_dev(f, 1, "NVIDIA H200", 9, 0);
    cuda_dev(f, 2, "NVIDIA A100", 8, 0);
    cuda_dev(f, 3, "NVIDIA H200", 9, 0);
    cuda_dev(f, 4, "NVIDIA H200", 9, 0);
    f->cuda.dev[4].cc_minor = CP_UNKNOWN;       /* an unknown CC is no target */
    int n = cp_arch_machine_targets(f, t, CP_MAX_GPUS);
    CHECK_I64(n, 3);
    if (n == 3) {
        CHECK_STR(t[0].label, "GPU 0 NVIDIA H100");
        CHECK_STR(t[1].label, "GPU 1,3 NVIDIA H200");
        CHECK_STR(t[2].label, "GPU 2 NVIDIA A100");
        CHECK_I64(t[1].ordinal, 1);
        CHECK_I64(t[2].major, 8);
        CHECK_I64(t[0].driver_cuda, 13000);
    }
    CHECK_I64(cp_arch_machine_targets(f, t, 2), 2);
    free(f);
}

/* ----------------------------------------------------------- walker -- */

typedef struct {
    char seen[2048];
} walk_log;

static int log_entry(const cp_walk_entry *e, void *arg)
{
    walk_log *l = arg;
    static const char *const ev[] = { "F", "U", "D", "L" };
    size_t n = strlen(l->seen);
    snprintf(l->seen + n, sizeof l->seen - n, "%s%s:%s", n ? " " : "", ev[e->event],
             e->path + strlen(dir) + 1);
    return 0;
}

static bool no_skip(const char *path, const char *name, void *arg)
{
    (void)path;
    (void)arg;
    return strcmp(name, "skip") != 0;
}

static void test_walk(void)
{
    char top[PATH_MAX], fifo[PATH_MAX];
    snprintf(top, sizeof top, "%s/w", dir);
    sub("w");
    sub("w/b");
    sub("w/b/c");
    sub("w/b/c/d");
    sub("w/skip");
    put("w/z.so", NULL);
    put("w/a.so", NULL);
    put("w/b/x.so", NULL);
    put("w/b/c/d/deep.so", NULL);
    put("w/skip/s.so", NULL);
    put("w/.hidden.so", NULL);
    lnk("..", "w/b/loop");               /* a linked folder: never entered, so no loop */
    lnk("a.so", "w/link.so");            /* a link to a file: only when asked for */
    lnk("nowhere", "w/dangling.so");
    lnk("fifo.so", "w/fifo-link.so");
    snprintf(fifo, sizeof fifo, "%s/w/fifo.so", dir);
    CHECK_I64(mkfifo(fifo, 0644), 0);    /* never handed over, so never opened */

    walk_log l = { "" };
    cp_walk_opts o = { .max_depth = 2 };
    CHECK_I64(cp_walk(top, &o, log_entry, &l), 0);
    CHECK_STR(l.seen, "F:w/.hidden.so F:w/a.so D:w/b/c/d F:w/b/x.so F:w/skip/s.so F:w/z.so");

    /* explain --check's walk: files before folders, hidden names and the
     * "skip" folder left out, links to files looked through */
    walk_log l2 = { "" };
    cp_walk_opts o2 = { .max_depth = 8, .files_first = true, .skip_hidden = true,
                        .follow_file_links = true, .enter = no_skip };
    CHECK_I64(cp_walk(top, &o2, log_entry, &l2), 0);
    CHECK_STR(l2.seen, "F:w/a.so F:w/link.so F:w/z.so F:w/b/x.so F:w/b/c/d/deep.so");

    walk_log l3 = { "" };
    cp_walk_opts o3 = { .max_depth = 8, .max_entries = 3 };
    CHECK_I64(cp_walk(top, &o3, log_entry, &l3), 0);
    CHECK_STR(l3.seen, "F:w/.hidden.so F:w/a.so");

    walk_log l4 = { "" };
    char nope[PATH_MAX];
    snprintf(nope, sizeof nope, "%s/nope", dir);
    CHECK_I64(cp_walk(nope, &o, log_entry, &l4), 0);
    CHECK_STR(l4.seen, "U:nope");
}

static int stop_at_first(const cp_walk_entry *e, void *arg)
{
    (void)e;
    (*(int *)arg)++;
    return 7;
}

static void test_walk_stops(void)
{
    char top[PATH_MAX];
    int calls = 0;
    cp_walk_opts o = { .max_depth = 8 };
    snprintf(top, sizeof top, "%s/w", dir);
    CHECK_I64(cp_walk(top, &o, stop_at_first, &calls), 7);
    CHECK_I64(calls, 1);
}

/* ----------------------------------------------------------- report -- */

typedef struct {
    char text[4096];
    int n;
} problems;

static void on_problem(const char *msg, void *arg)
{
    problems *p = arg;
    size_t k = strlen(p->text);
    snprintf(p->text + k, sizeof p->text - k, "%s\n", msg);
    p->n++;
}

/* The report of paths as a string (malloc'd) and its exit code. */
static char *report(const cp_arch_target *t, int nt, bool json, const char *const *paths, int npaths,
                    int *code, problems *pr)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out) return NULL;
    cp_arch_opts o = { .targets = t, .ntargets = nt, .json = json, .problem = on_problem, .arg = pr };
    *code = cp_arch_report(&o, paths, npaths, out);
    fclose(out);
    return buf;
}


static const char *const top_keys[] = { "targets", "files", "files_without_gpu_code", "skipped", "note", "exit_code", NULL };
static const char *const target_keys[] = { "label", "cc", "driver_cuda", NULL };
static const char *const code_keys[] = { "name", "kind", "sm", "variant", "ptx_isa", "count", "compressed", "bytes", NULL };
static const char *const verdict_keys[] = { "target", "verdict", "why", "coverage", NULL };
static const char *const scanned_keys[] = { "path", "format", "containers", "entries", "unknown_entries",
                                            "lto_entries", "referenced_containers", "codes", "verdicts", "error", NULL };

/* docs/arch.schema.json requires exactly the members this test looks for. */
static void test_utf8_checker(void)
{
    CHECK(utf8_ok("plain \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
    CHECK(!utf8_ok("lib\xff.so"));
    CHECK(!utf8_ok("\xc0\xaf"));              /* overlong */
    CHECK(!utf8_ok("\xed\xa0\x80"));          /* a surrogate */
    CHECK(!utf8_ok("\xe2\x82"));              /* cut short */
}

static void test_schema_lists_them(void)
{
    static const char *const req[] = {
        "\"required\": [\"targets\", \"files\", \"files_without_gpu_code\", \"skipped\", \"note\", \"exit_code\"]",
        "\"required\": [\"path\", \"why\"]",
        "\"required\": [\"label\", \"cc\", \"driver_cuda\"]",
        "\"required\": [\"path\", \"format\", \"containers\", \"entries\", \"unknown_entries\", \"lto_entries\", "
        "\"referenced_containers\", \"codes\", \"verdicts\", \"error\"]",
        "\"required\": [\"name\", \"kind\", \"sm\", \"variant\", \"ptx_isa\", \"count\", \"compressed\", \"bytes\"]",
        "\"required\": [\"target\", \"verdict\", \"why\", \"coverage\"]",
        "\"required\": [\"modules\", \"native\", \"ptx_jit\", \"none\"]",
        "\"required\": [\"path\", \"error\"]",
    };
    static char schema[32768];
    int loaded = schema_load("docs/arch.schema.json", schema, sizeof schema);
    CHECK(loaded);
    if (!loaded) return;
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++) {
        if (!strstr(schema, req[i])) fprintf(stderr, "  schema lacks %s\n", req[i]);
        CHECK(strstr(schema, req[i]) != NULL);
    }
}

/* A folder with a library whose name is not UTF-8 ("lib\xff.so"), a host
 * ELF file without GPU code and a damaged ELF file. */
static void make_folder(void)
{
    sub("r");
    put("r/lib\xff.so", "tests/fatbin-samples/sm90.so");
    put("r/multi.so", "tests/fatbin-samples/multi.so");
    put("r/host-elf", "/proc/self/exe");
    put("r/README", NULL);
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/r/bad.so", dir);
    FILE *f = fopen(p, "wb");
    if (f) { fputs("\177ELF\1\1", f); fclose(f); }
}

static void test_json_report(void)
{
    cp_arch_target t[2];
    char folder[PATH_MAX];
    int code = -1;
    problems pr = { "", 0 };
    CHECK_I64(cp_arch_target_sm("90", &t[0]), 0);
    CHECK_I64(cp_arch_target_sm("100", &t[1]), 0);
    snprintf(folder, sizeof folder, "%s/r", dir);
    const char *paths[] = { folder, "tests/fatbin-samples/nothere.so" };
    char *j = report(t, 2, true, paths, 2, &code, &pr);
    CHECK(j != NULL);
    if (!j) return;
    CHECK(json_ok(j));
    CHECK(utf8_ok(j));
    CHECK(strstr(j, "/r/lib\\ufffd.so\"") != NULL);
    CHECK(strchr(j, '\xff') == NULL);
    CHECK_I64(members_everywhere(j, "targets", top_keys), 1);
    CHECK_I64(members_everywhere(j, "label", target_keys), 2);
    CHECK_I64(members_everywhere(j, "format", scanned_keys + 2), 2);   /* lib\xff.so, multi.so */
    CHECK_I64(members_everywhere(j, "kind", code_keys + 2), 5);
    CHECK(members_everywhere(j, "verdict", verdict_keys + 2) == 4);
    CHECK(strstr(j, "{\"path\":\"tests/fatbin-samples/nothere.so\",\"error\":\"cannot open") != NULL);
    CHECK(strstr(j, "\"files_without_gpu_code\":1,\"skipped\":[{\"path\":\"") != NULL);
    CHECK(strstr(j, "/r/README\",\"why\":\"not an ELF file, fatbin, PTX or archive\"}],\"note\":null,"
                    "\"exit_code\":3}\n") != NULL);
    CHECK(strstr(j, "\"driver_cuda\":null") != NULL);
    CHECK_I64(code, 3);
    CHECK_I64(pr.n, 2);                                  /* bad.so, nothere.so */
    CHECK(strstr(pr.text, "bad.so': 32-bit ELF files are unsupported") != NULL);
    free(j);
}

static void test_text_report(void)
{
    cp_arch_target t[1];
    char folder[PATH_MAX];
    int code = -1;
    problems pr = { "", 0 };
    CHECK_I64(cp_arch_target_sm("8.0", &t[0]), 0);
    snprintf(folder, sizeof folder, "%s/r/", dir);
    const char *paths[] = { folder };
    char *s = report(t, 1, false, paths, 1, &code, &pr);
    CHECK(s != NULL);
    if (!s) return;
    CHECK(strstr(s, "/r/multi.so (ELF, 1 fatbin container, 4 entries)\n  SASS: sm_75 sm_80 sm_90\n"
                    "  PTX:  compute_90 (PTX 9.0)\n  compressed entries: 1 of 4 (SASS 0, PTX 1)\n"
                    "  on CC 8.0 (--sm 8.0): native\n") != NULL);
    CHECK(strstr(s, "on CC 8.0 (--sm 8.0): cannot run") != NULL);    /* lib\xff.so: sm_90 only */
    CHECK(strstr(s, "/r/lib\\xff.so (ELF, 1 fatbin container") != NULL);  /* escaped, cp_text_put */
    CHECK(strchr(s, '\xff') == NULL);
    CHECK(strstr(s, "1 other ELF file carries no GPU code\n") != NULL);
    CHECK(strstr(s, "//") == NULL);                                   /* "r/" joined without a doubled '/' */
    CHECK(strstr(s, "no GPU here") == NULL);
    CHECK_I64(code, 3);                                               /* bad.so */
    free(s);

    /* no target: the note, and nothing judged */
    const char *one[] = { "tests/fatbin-samples/sm100.so" };
    s = report(NULL, 0, false, one, 1, &code, &pr);
    CHECK(s && strstr(s, "no GPU here: give --sm to judge\n") != NULL);
    CHECK(s && strstr(s, "on CC") == NULL);
    CHECK_I64(code, 0);
    free(s);
    s = report(NULL, 0, true, one, 1, &code, &pr);
    CHECK(s && json_ok(s) && strstr(s, "{\"targets\":[],\"files\":[\n") == s);
    CHECK(s && strstr(s, "\"note\":\"no GPU here: give --sm to judge\"") != NULL);
    free(s);
}

/* A FIFO named on the command line is refused at once; it used to block in
 * open(2) until a writer came. */
static void test_fifo_named(void)
{
    char fifo[PATH_MAX], err[512];
    cp_arch_summary s;
    snprintf(fifo, sizeof fifo, "%s/w/fifo.so", dir);
    alarm(10);
    CHECK_I64(cp_arch_scan(fifo, &s, err, sizeof err), -1);
    alarm(0);
    CHECK(strstr(err, "a FIFO, not a regular file") != NULL);
}

/* The tool itself, as the bug was seen: `cuprobe arch --json --sm 90 DIR`
 * over a folder holding "lib\xff.so" printed the raw byte (invalid JSON). */
static void test_tool_non_utf8_name(void)
{
    char folder[PATH_MAX], outp[PATH_MAX];
    static char buf[65536];
    if (!tool) { fprintf(stderr, "  skip: no cuprobe beside this test\n"); return; }
    snprintf(folder, sizeof folder, "%s/r", dir);
    snprintf(outp, sizeof outp, "%s/tool.out", dir);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int nul = open("/dev/null", O_WRONLY);
        if (fd < 0 || nul < 0) _exit(127);
        dup2(fd, 1);
        dup2(nul, 2);
        setenv("CUPROBE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
        setenv("CUPROBE_LIBNVML", "/nonexistent/libnvidia-ml.so.1", 1);
        execl(tool, tool, "arch", "--json", "--sm", "90", folder, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3);        /* bad.so could not be read */
    FILE *f = fopen(outp, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = '\0';
    CHECK(n > 0);
    CHECK(json_ok(buf));
    CHECK(utf8_ok(buf));
    CHECK(strstr(buf, "lib\\ufffd.so") != NULL);
    CHECK(strchr(buf, '\xff') == NULL);
}

/* Every allocation of a folder report failing in turn (the listings):
 * each failure is a reported problem and exit 3, never a crash or a leak. */
static void test_alloc_failures(void)
{
    cp_arch_target t[1];
    char folder[PATH_MAX];
    CHECK_I64(cp_arch_target_sm("90", &t[0]), 0);
    snprintf(folder, sizeof folder, "%s/w", dir);
    const char *paths[] = { folder };
    int failed_runs = 0;
    for (long n = 1; n < 200; n++) {
        problems pr = { "", 0 };
        int code = -1;
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);    /* its own memory: not counted */
        if (!out) { CHECK(out); return; }
        cp_arch_opts o = { .targets = t, .ntargets = 1, .json = true, .problem = on_problem, .arg = &pr };
        cp_alloc_fail_at(n);
        code = cp_arch_report(&o, paths, 1, out);
        long refused = cp_alloc_refused();
        cp_alloc_fail_at(0);
        fclose(out);
        CHECK(buf && json_ok(buf));
        free(buf);
        if (!refused) break;
        failed_runs++;
        CHECK_I64(code, 3);
        CHECK(strstr(pr.text, "Cannot allocate memory") != NULL);
    }
    CHECK(failed_runs > 0);
}

static void cleanup(void)
{
    char cmd[PATH_MAX + 16];
    if (strncmp(dir, "/tmp/cp_arch_", 13) != 0) return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "  could not remove %s\n", dir);
}

int main(int argc, char **argv)
{
    static char toolpath[PATH_MAX];
    (void)argc;
    snprintf(dir, sizeof dir, "/tmp/cp_arch_XXXXXX");
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    /* BUILD/tests/test_arch -> BUILD/cuprobe (./cuprobe for BUILD=build) */
    char self[PATH_MAX];
    snprintf(self, sizeof self, "%s", argv[0]);
    char *build = dirname(dirname(self));
    snprintf(toolpath, sizeof toolpath, "%s/cuprobe", build);
    if (access(toolpath, X_OK) == 0) tool = toolpath;
    else if (strcmp(build, "build") == 0 && access("cuprobe", X_OK) == 0) tool = "./cuprobe";
    make_folder();
    RUN(test_target_sm);
    RUN(test_machine_targets);
    RUN(test_walk);
    RUN(test_walk_stops);
    RUN(test_utf8_checker);
    RUN(test_schema_lists_them);
    RUN(test_json_report);
    RUN(test_text_report);
    RUN(test_fifo_named);
    RUN(test_tool_non_utf8_name);
    RUN(test_alloc_failures);
    cleanup();
    return TEST_END();
}
