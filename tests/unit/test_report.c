/* Diagnosis and rendering: root-cause choice, blocked layers, exit codes,
 * and JSON that stays well-formed whatever strings the machine handed us. */
#include "test.h"
#include <stdlib.h>
#include "cuprobe/cuprobe.h"

#include "json_check.h"

static char *render(const cp_report *r, const cp_facts *f, int json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    if (!fp) return NULL;
    if (json) cp_render_json(r, f, fp);
    else cp_render_text(r, f, fp, 1, 1);
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

int main(void)
{
    RUN(test_names);
    RUN(test_nothing_known);
    RUN(test_hostile_strings);
    RUN(test_fail_beats_lower_warning);
    return TEST_END();
}
