/*
 * The field rows of include/cuprobe/fields.h: what each generates (members,
 * unknown-init, answers rows) holds for every row, including rows added
 * later, and the committed snapshots' keys are all still fields.
 */
#include "test.h"
#include <stdlib.h>
#include "cuprobe/facts.h"
#include "facts/facts_kv.h"
#include "facts/kv.h"

typedef struct {
    const char *name, *unit, *help;
    bool is_str;
} row;

#define ROW_I(n, u, h) { #n, u, h, false },
#define ROW_S(n, sz, h) { #n, "", h, true },
static const row nvml_rows[] = {
    CP_NVML_INVENTORY_FIELDS(ROW_I, ROW_S)
    CP_NVML_SAMPLE_FIELDS(ROW_I, ROW_S)
    { NULL, NULL, NULL, false }
};
static const row cuda_rows[] = { CP_CUDA_DEVICE_FIELDS(ROW_I, ROW_S) { NULL, NULL, NULL, false } };
static const row l2_rows[] = { CP_CUDA_L2_FIELDS(ROW_I, ROW_S) { NULL, NULL, NULL, false } };
static const row lib_l2_rows[] = { CP_LIB_L2_FIELDS(ROW_I, ROW_S) { NULL, NULL, NULL, false } };
static const row proc_rows[] = { CP_GPU_PROCESS_FIELDS(ROW_I, ROW_S) { NULL, NULL, NULL, false } };
static const row pci_rows[] = { CP_PCI_FUNCTION_FIELDS(ROW_I, ROW_S) { NULL, NULL, NULL, false } };
#undef ROW_I
#undef ROW_S

static bool in_rows(const row *r, const char *name)
{
    for (; r->name; r++)
        if (strcmp(r->name, name) == 0) return true;
    return false;
}

/* Names are answers keys: unique in one device's flat key space (inventory
 * and sample together), clear of the list keys, and every row says what it
 * is in a unit from the vocabulary and a help text. */
static void test_rows_well_formed(void)
{
    static const char *const units[] = { "bytes", "milliwatts", "celsius", "percent", "count", "lanes",
                                         "generation", "bool", "enum", "bitmask", "MT/s", "MB/s", "microseconds", "kHz", "MHz", "bits", "",
                                         "millijoules", "KB/s",
                                         NULL };
    const row *const lists[] = { nvml_rows, cuda_rows, l2_rows, lib_l2_rows, proc_rows, pci_rows };
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++) {
        for (const row *r = lists[l]; r->name; r++) {
            int same = 0, known_unit = 0;
            for (const row *q = lists[l]; q->name; q++) same += strcmp(q->name, r->name) == 0;
            CHECK_I64(same, 1);
            for (int u = 0; units[u]; u++) known_unit |= strcmp(units[u], r->unit) == 0;
            if (!known_unit) fprintf(stderr, "  %s: unit '%s'\n", r->name, r->unit);
            CHECK(known_unit);
            CHECK(strlen(r->help) > 8);
            CHECK(strcmp(r->name, "nprocs") != 0 && strncmp(r->name, "proc", 4) != 0 &&
                  strcmp(r->name, "end") != 0);
        }
    }
}

/* cp_facts_init and the per-record inits leave every row unknown. */
static void test_init_unknown(void)
{
    static cp_facts f;
    memset(&f, 0x5a, sizeof f);
    cp_facts_init(&f);
#define NUM(n, u, h) CHECK_I64(d->n, CP_UNKNOWN);
#define STR(n, sz, h) CHECK_STR(d->n, "");
    for (int i = 0; i < CP_MAX_GPUS; i += CP_MAX_GPUS - 1) {
        { const cp_cuda_device *d = &f.cuda.dev[i]; CP_CUDA_DEVICE_FIELDS(NUM, STR) CHECK_I64(d->ordinal, i); }
        { const cp_nvml_inventory *d = &f.nvml.dev[i].inv; CP_NVML_INVENTORY_FIELDS(NUM, STR) }
        { const cp_nvml_sample *d = &f.nvml.dev[i].sample; CP_NVML_SAMPLE_FIELDS(NUM, STR)
          CHECK_I64(d->nprocs, 0); }
        { const cp_gpu_process *d = &f.nvml.dev[i].sample.procs[CP_MAX_PROCS - 1];
          CP_GPU_PROCESS_FIELDS(NUM, STR) }
        CHECK_I64(f.nvml.dev[i].index, i);
    }
    { const cp_pci_function *d = &f.host.pci[CP_MAX_PCI - 1]; CP_PCI_FUNCTION_FIELDS(NUM, STR) }

    /* a sampler resets one sample on its own */
    cp_nvml_sample s;
    memset(&s, 0x5a, sizeof s);
    cp_nvml_sample_init(&s);
    { const cp_nvml_sample *d = &s; CP_NVML_SAMPLE_FIELDS(NUM, STR) CHECK_I64(d->nprocs, 0); }
#undef NUM
#undef STR
}

/* Every row goes out as nvml.dev.N.<name> / cuda.dev.N.<name> and comes back. */
static void test_every_row_roundtrips(void)
{
    static cp_facts a, b;
    char err[128], key[96];
    cp_facts_init(&a);
    cp_facts_init(&b);
    a.cuda.ndev = a.nvml.ndev = 2;
    int64_t v = 1000;
#define SET_I(n, u, h) d->n = v++;
#define SET_S(n, sz, h) snprintf(d->n, sizeof d->n, "s%lld", (long long)v++);
    { cp_cuda_device *d = &a.cuda.dev[1]; CP_CUDA_DEVICE_FIELDS(SET_I, SET_S) }
    { cp_nvml_inventory *d = &a.nvml.dev[1].inv; CP_NVML_INVENTORY_FIELDS(SET_I, SET_S) }
    { cp_nvml_sample *d = &a.nvml.dev[1].sample; CP_NVML_SAMPLE_FIELDS(SET_I, SET_S) d->nprocs = 1; }
    { cp_gpu_process *d = &a.nvml.dev[1].sample.procs[0]; CP_GPU_PROCESS_FIELDS(SET_I, SET_S) }
#undef SET_I
#undef SET_S

    cp_buf buf = { 0 };
    cp_facts_put_cuda(&buf, &a.cuda);
    cp_facts_put_nvml(&buf, &a.nvml);
    CHECK(!buf.failed);
    for (const row *r = nvml_rows; r->name; r++) {
        snprintf(key, sizeof key, "\nnvml.dev.1.%s ", r->name);
        if (!strstr(buf.data, key)) fprintf(stderr, "  no key '%s'\n", key + 1);
        CHECK(strstr(buf.data, key) != NULL);
    }
    for (const row *r = cuda_rows; r->name; r++) {
        snprintf(key, sizeof key, "\ncuda.dev.1.%s ", r->name);
        CHECK(strstr(buf.data, key) != NULL);
    }
    CHECK_I64(cp_facts_load(buf.data, buf.len, &b, err, sizeof err), CP_KV_CUDA | CP_KV_NVML);
#define SAME_I(n, u, h) CHECK_I64(y->n, x->n);
#define SAME_S(n, sz, h) CHECK_STR(y->n, x->n);
    { const cp_cuda_device *x = &a.cuda.dev[1], *y = &b.cuda.dev[1]; CP_CUDA_DEVICE_FIELDS(SAME_I, SAME_S) }
    { const cp_nvml_inventory *x = &a.nvml.dev[1].inv, *y = &b.nvml.dev[1].inv;
      CP_NVML_INVENTORY_FIELDS(SAME_I, SAME_S) }
    { const cp_nvml_sample *x = &a.nvml.dev[1].sample, *y = &b.nvml.dev[1].sample;
      CP_NVML_SAMPLE_FIELDS(SAME_I, SAME_S) CHECK_I64(y->nprocs, 1); }
    { const cp_gpu_process *x = &a.nvml.dev[1].sample.procs[0], *y = &b.nvml.dev[1].sample.procs[0];
      CP_GPU_PROCESS_FIELDS(SAME_I, SAME_S) }
#undef SAME_I
#undef SAME_S
    /* device 0 was never set: it comes back unknown, not 0 */
    CHECK_I64(b.nvml.dev[0].sample.power_mw, CP_UNKNOWN);
    CHECK_I64(b.nvml.dev[0].inv.cc_major, CP_UNKNOWN);
    cp_buf_free(&buf);
}

/* Every cuda.dev / nvml.dev key of every committed snapshot is a field
 * (the loader ignores unknown keys, so a renamed field would silently drop
 * out of old snapshots), and a snapshot older than a field leaves it unknown. */
static int check_key(const char *k, const char *v, void *arg)
{
    int *bad = arg;
    const char *rest;
    const row *rows;
    (void)v;
    if (strncmp(k, "nvml.dev.", 9) == 0) rows = nvml_rows, rest = k + 9;
    else if (strncmp(k, "cuda.dev.", 9) == 0) rows = cuda_rows, rest = k + 9;
    else return 0;
    while (*rest >= '0' && *rest <= '9') rest++;
    if (*rest++ != '.') { (*bad)++; return 0; }
    if (strcmp(rest, "nprocs") == 0) return 0;
    if (strncmp(rest, "proc.", 5) == 0) {
        rest += 5;
        while (*rest >= '0' && *rest <= '9') rest++;
        if (*rest++ != '.' || !in_rows(proc_rows, rest)) (*bad)++;
        return 0;
    }
    if (!in_rows(rows, rest)) {
        fprintf(stderr, "  committed key '%s' is no field\n", k);
        (*bad)++;
    }
    return 0;
}

static void test_committed_snapshots(void)
{
    static const char *const snaps[] = { "tests/fixtures/h200-snap/answers.txt",
        "tests/fixtures/h200x2-snap/answers.txt", "tests/fixtures/build-nogpu/answers.txt",
        "tests/fuzz/corpus/answers/h200-real.txt", NULL };
    static cp_facts f;
    char err[160];
    for (int i = 0; snaps[i]; i++) {
        FILE *fp = fopen(snaps[i], "rb");
        CHECK(fp != NULL);
        if (!fp) continue;
        static char text[1 << 20];
        size_t n = fread(text, 1, sizeof text, fp);
        fclose(fp);
        CHECK(n < sizeof text);
        int bad = 0;
        CHECK_I64(cp_kv_parse(text, n, check_key, &bad), 0);
        CHECK_I64(bad, 0);
        cp_facts_init(&f);
        CHECK(cp_facts_load(text, n, &f, err, sizeof err) >= 0);
        if (i == 0) {       /* taken before utilisation was read */
            CHECK_I64(f.nvml.ndev, 1);
            CHECK_I64(f.nvml.dev[0].sample.power_mw, 81930);
            CHECK_I64(f.nvml.dev[0].inv.power_limit_mw, 700000);
            CHECK_I64(f.nvml.dev[0].sample.util_gpu_pct, CP_UNKNOWN);
        }
    }
}

int main(void)
{
    RUN(test_rows_well_formed);
    RUN(test_init_unknown);
    RUN(test_every_row_roundtrips);
    RUN(test_committed_snapshots);
    return TEST_END();
}
