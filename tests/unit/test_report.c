/* Diagnosis and rendering: root-cause choice, blocked layers, exit codes,
 * and JSON that stays well-formed whatever strings the machine handed us. */
#include "test.h"
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cuprobe/cuprobe.h"

#include "json_check.h"

static char *render(const cp_report *r, const cp_facts *f, int json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    if (!fp) return NULL;
    if (json > 0) cp_render_json(r, f, fp);
    else cp_render_text(r, f, fp, json == 0, 1);   /* -1: text without colours */
    fclose(fp);
    return buf;
}

static cp_facts *base_facts(void)
{
    cp_facts *f = malloc(sizeof *f);
    cp_facts_init(f);
    snprintf(f->origin, sizeof f->origin, "live");
    return f;
}

/* Nothing known at all (an empty machine view): a hardware failure that blocks the rest. */
static void test_nothing_known(void)
{
    cp_facts *f = base_facts();
    cp_report r;
    CHECK_I64(cp_doctor(f, 1, &r), 0);
    CHECK(r.root >= 0);
    CHECK_STR(r.findings[r.root].check, "hardware.pci_gpu");
    CHECK_I64(cp_report_exit_code(&r), CP_EXIT_FAIL);
    for (int l = CP_LAYER_KERNEL; l < CP_LAYER_COUNT; l++) CHECK_I64(r.layer_status[l], CP_BLOCKED);
    for (int i = 0; i < r.nfindings; i++)
        if (r.findings[i].status == CP_WARN || r.findings[i].status == CP_FAIL) CHECK(r.findings[i].fix[0] != '\0');
    char *j = render(&r, f, 1);
    CHECK(j && json_ok(j));
    free(j);
    cp_report_free(&r);
    free(f);
}

static void add_gpu(cp_facts *f, const char *addr)
{
    cp_pci_function *p = &f->host.pci[f->host.npci++];
    snprintf(p->addr, sizeof p->addr, "%s", addr);
    p->vendor = 0x10de;
    p->class_code = 0x030200;
    snprintf(p->driver, sizeof p->driver, "nvidia");
}

/* Hostile strings from the machine (quotes, control bytes, broken UTF-8,
 * very long values) never break the JSON. */
static void test_hostile_strings(void)
{
    cp_facts *f = base_facts();
    add_gpu(f, "0000:00:06.0");
    f->host.procfs.present = true;
    snprintf(f->host.procfs.version, sizeof f->host.procfs.version, "580\"\\\x01");
    snprintf(f->host.procfs.banner, sizeof f->host.procfs.banner, "NVRM \xff\xfe\xc3 \"quoted\"\t\x7f");
    f->cuda.run.state = CP_PROBE_DONE;
    f->cuda.lib.loaded = true;
    memset(f->cuda.lib.path, 'a', sizeof f->cuda.lib.path - 1);
    f->cuda.init_result = 999;
    snprintf(f->cuda.init_text, sizeof f->cuda.init_text, "line1\nline2 \x1b[31mred\x1b[0m");
    f->cuda.ndev = 1;
    snprintf(f->cuda.dev[0].name, sizeof f->cuda.dev[0].name, "GPU \"\xe2\x82\xac\" \xe2\x82");
    cp_report r;
    CHECK_I64(cp_doctor(f, 1, &r), 0);
    char *j = render(&r, f, 1);
    CHECK(j && json_ok(j));
    CHECK(j && strstr(j, "\\u001b[31mred") != NULL);
    CHECK(j && strstr(j, "\xe2\x82\xac") != NULL);       /* valid UTF-8 kept */
    free(j);
    char *t = render(&r, f, 0);
    CHECK(t && strstr(t, "root cause") != NULL);
    free(t);
    cp_report_free(&r);
    free(f);
}

/* A warning low and a failure high: the failure is the root cause; only
 * the layers above the failure are blocked. */
static void test_fail_beats_lower_warning(void)
{
    cp_facts *f = base_facts();
    add_gpu(f, "0000:00:06.0");
    f->host.pci[0].cur_width = 8;
    f->host.pci[0].max_width = 16;        /* hardware warning */
    f->host.modules_readable = true;
    f->host.modules[CP_MOD_NVIDIA].loaded = true;
    f->host.modules[CP_MOD_NVIDIA_UVM].loaded = true;
    f->host.procfs.present = true;
    snprintf(f->host.procfs.version, sizeof f->host.procfs.version, "580.159.04");
    f->cuda.run.state = CP_PROBE_TIMEOUT;  /* driver failure */
    f->cuda.run.elapsed_ms = 5000;
    cp_report r;
    CHECK_I64(cp_doctor(f, 1, &r), 0);
    CHECK(r.root >= 0 && strcmp(r.findings[r.root].check, "driver.cuinit") == 0);
    CHECK_I64(r.layer_status[CP_LAYER_HARDWARE], CP_WARN);
    CHECK_I64(r.layer_status[CP_LAYER_DRIVER], CP_FAIL);
    CHECK_I64(r.layer_status[CP_LAYER_RUNTIME], CP_BLOCKED);
    CHECK(r.layer_status[CP_LAYER_SYSTEM] != CP_BLOCKED);
    CHECK_I64(cp_report_exit_code(&r), CP_EXIT_FAIL);
    char *j = render(&r, f, 1);
    CHECK(j && json_ok(j));
    CHECK(j && strstr(j, "\"blocks\": [\"runtime\", \"libraries\", \"framework\", \"application\"]") != NULL);
    free(j);
    cp_report_free(&r);
    free(f);
}

static void test_names(void)
{
    CHECK_STR(cp_layer_name(CP_LAYER_HARDWARE), "hardware");
    CHECK_STR(cp_layer_name(CP_LAYER_APPLICATION), "application");
    CHECK_STR(cp_layer_name((cp_layer)99), "unknown");
    CHECK_STR(cp_status_name(CP_BLOCKED), "blocked");
    CHECK(json_ok("{\"a\": [1, -2, \"x\\u0001\", null, true]}"));
    CHECK(!json_ok("{\"a\": \"\x01\"}"));
    CHECK(!json_ok("{\"a\": 1,}"));
}

/* Each way a byte string can fail to be UTF-8, as answers-file escapes. */
static const char *const bad_utf8[] = {
    "\\xed\\xa0\\x80",              /* a surrogate, U+D800 */
    "\\xed\\xbf\\xbf",              /* the last surrogate */
    "\\xc0\\xaf",                   /* overlong '/' */
    "\\xe0\\x80\\xaf",              /* overlong, three bytes */
    "\\xf0\\x80\\x80\\xaf",         /* overlong, four bytes */
    "\\xf4\\x90\\x80\\x80",         /* above U+10FFFF */
    "\\xf8\\x88\\x80\\x80\\x80",    /* a five-byte form */
    "\\xe2\\x82",                   /* cut short */
    "\\x80",                        /* a stray continuation byte */
    "\\xc2\\x9b[2J",                /* a C1 CSI */
};

/* Copy answers.txt of the h200-snap fixture into dir, each line in `add`
 * put just before the end marker of its block (so the blocks stay whole). */
static int snapshot_with(const char *dir, const char *const *add, int nadd)
{
    char path[512], line[8192];
    snprintf(path, sizeof path, "%s/root", dir);
    if (mkdir(path, 0700) != 0) return -1;
    snprintf(path, sizeof path, "%s/root/proc", dir);   /* an empty root/ is damage */
    if (mkdir(path, 0700) != 0) return -1;
    FILE *in = fopen("tests/fixtures/h200-snap/answers.txt", "r");
    snprintf(path, sizeof path, "%s/answers.txt", dir);
    FILE *out = fopen(path, "w");
    if (!in || !out) { if (in) fclose(in); if (out) fclose(out); return -1; }
    while (fgets(line, sizeof line, in)) {
        const char *end = strstr(line, ".end ok");
        for (int i = 0; end && i < nadd; i++)
            if (strncmp(add[i], line, (size_t)(end - line)) == 0 && add[i][end - line] == '.')
                fprintf(out, "%s\n", add[i]);
        fputs(line, out);
    }
    fclose(in);
    return fclose(out);
}

/* doctor's real output over a snapshot whose values hold every kind of
 * broken UTF-8 (device names, an environment value named in the root cause,
 * the capture time, the driver version): the JSON is strictly valid UTF-8
 * (no surrogate, overlong or out-of-range form gets through), the text
 * report is safe for a terminal. */
static void test_strict_utf8_replay(void)
{
    for (size_t k = 0; k < sizeof bad_utf8 / sizeof bad_utf8[0]; k++) {
        char dir[] = "/tmp/cuprobe-utf8.XXXXXX", add[6][256];
        const char *lines[6];
        if (!mkdtemp(dir)) { CHECK(0); return; }
        snprintf(add[0], sizeof add[0], "meta.captured_at 2026-%s", bad_utf8[k]);
        snprintf(add[1], sizeof add[1], "host.env.CUDA_VISIBLE_DEVICES 0%s", bad_utf8[k]);
        snprintf(add[2], sizeof add[2], "cuda.dev.0.name NVIDIA %s H200", bad_utf8[k]);
        snprintf(add[3], sizeof add[3], "nvml.dev.0.name NVIDIA %s H200", bad_utf8[k]);
        snprintf(add[4], sizeof add[4], "nvml.driver_version 580%s", bad_utf8[k]);
        snprintf(add[5], sizeof add[5], "cuda.lib.path /usr/lib/%s/libcuda.so.1", bad_utf8[k]);
        for (int i = 0; i < 6; i++) lines[i] = add[i];
        CHECK_I64(snapshot_with(dir, lines, 6), 0);
        cp_observe_opts o = CP_OBSERVE_DEFAULTS;
        o.from_dir = dir;
        cp_session *s = NULL;
        char err[256];
        CHECK_I64(cp_observe(&o, &s, err, sizeof err), 0);
        if (s) {
            cp_report r;
            CHECK_I64(cp_doctor(cp_session_facts(s), 1, &r), 0);
            CHECK_STR(r.findings[r.root].check, "system.visibility");
            char *j = render(&r, cp_session_facts(s), 1);
            CHECK(j && json_ok(j));
            if (j && !json_ok(j)) fprintf(stderr, "  bad JSON for case %zu\n", k);
            free(j);
            char *t = render(&r, cp_session_facts(s), -1);
            CHECK(t && text_safe(t));
            if (t && !text_safe(t)) fprintf(stderr, "  unsafe text for case %zu\n", k);
            free(t);
            cp_report_free(&r);
            cp_session_free(s);
        }
        char p[600];
        snprintf(p, sizeof p, "%s/answers.txt", dir);
        CHECK_I64(unlink(p), 0);
        snprintf(p, sizeof p, "%s/root/proc", dir);
        CHECK_I64(rmdir(p), 0);
        snprintf(p, sizeof p, "%s/root", dir);
        CHECK_I64(rmdir(p), 0);
        CHECK_I64(rmdir(dir), 0);
    }
}

int main(void)
{
    RUN(test_names);
    RUN(test_nothing_known);
    RUN(test_hostile_strings);
    RUN(test_fail_beats_lower_warning);
    RUN(test_strict_utf8_replay);
    return TEST_END();
}
