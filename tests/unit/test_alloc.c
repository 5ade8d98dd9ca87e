/*
 * Allocation-failure countdown (SQLite's fault simulator): for every N, the
 * Nth allocation of the library and every one after it fail; observe (a
 * snapshot replay), doctor, every renderer and explain must then fail
 * cleanly (an error, never a crash) and leak nothing (the ASan run's leak
 * checker sees every path).  The loop ends at the first N the whole run
 * gets through without reaching the countdown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuprobe/cuprobe.h"
#include "cuprobe/explain.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "test.h"

#define MAX_ROUNDS 20000

/* One whole doctor run over a snapshot; returns 0 when every step worked. */
static int doctor_once(const char *fixture, FILE *sink)
{
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    o.from_dir = fixture;
    cp_session *s = NULL;
    char err[256] = "";
    if (cp_observe(&o, &s, err, sizeof err) != 0) {
        CHECK(s == NULL);
        CHECK(err[0] != '\0');        /* a failure always says what failed */
        return -1;
    }
    cp_report r;
    int rc = cp_doctor(cp_session_facts(s), 1, &r);
    if (rc == 0) {
        cp_render_text(&r, cp_session_facts(s), sink, 1, 1);
        cp_render_json(&r, cp_session_facts(s), sink);
        cp_report_free(&r);
    }
    cp_session_free(s);
    return rc;
}

static void loop_doctor(const char *fixture)
{
    FILE *sink = fopen("/dev/null", "w");
    CHECK(sink != NULL);
    if (!sink) return;
    long n;
    int failures = 0;
    for (n = 1; n <= MAX_ROUNDS; n++) {
        cp_alloc_fail_at(n);
        int rc = doctor_once(fixture, sink);
        long refused = cp_alloc_refused();
        cp_alloc_fail_at(0);
        if (refused == 0) {           /* the countdown was never reached: done */
            CHECK_I64(rc, 0);
            break;
        }
        failures += rc != 0;
    }
    CHECK(n <= MAX_ROUNDS);
    CHECK(failures > 0);
    printf("%s: %ld allocation points, %d reported as failures\n", fixture, n - 1, failures);              /* some allocation failure was reported as one */
    fclose(sink);
}

static void test_doctor_h200_snapshot(void) { loop_doctor("tests/fixtures/h200-snap"); }
static void test_doctor_no_gpu(void) { loop_doctor("tests/fixtures/build-nogpu"); }

/* A whole log of the corpus through explain and both its renderers. */
static void test_explain(void)
{
    static const char *const files[] = { "tests/explain-corpus/api-mismatch.txt",
        "tests/explain-corpus/busy.txt", "tests/explain-corpus/compat-804.txt", NULL };
    cp_buf text = { 0 };
    for (int i = 0; files[i]; i++) {
        FILE *fp = fopen(files[i], "rb");
        CHECK(fp != NULL);
        if (!fp) continue;
        char chunk[4096];
        size_t got;
        while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0) cp_buf_append(&text, chunk, got);
        fclose(fp);
    }
    CHECK(!text.failed && text.len > 0);
    FILE *sink = fopen("/dev/null", "w");
    CHECK(sink != NULL);
    if (!sink || text.failed) { cp_buf_free(&text); if (sink) fclose(sink); return; }
    long n;
    for (n = 1; n <= MAX_ROUNDS; n++) {
        cp_explain_result r;
        cp_alloc_fail_at(n);
        int rc = cp_explain_text(text.data, text.len, &r);
        if (rc == 0) {
            cp_explain_render_text(&r, sink, 1);
            cp_explain_render_json(&r, sink);
            cp_explain_free(&r);
        }
        long refused = cp_alloc_refused();
        cp_alloc_fail_at(0);
        if (refused == 0) { CHECK_I64(rc, 0); break; }
    }
    CHECK(n > 1 && n <= MAX_ROUNDS);  /* explain allocates, and finished */
    cp_buf_free(&text);
    fclose(sink);
}

/* The countdown itself: the Nth call fails and so does every later one. */
static void test_countdown(void)
{
    cp_alloc_fail_at(3);
    void *a = cp_malloc(8), *b = cp_calloc(2, 4), *c = cp_malloc(8), *d = cp_strdup("x");
    CHECK(a && b);
    CHECK(c == NULL && d == NULL);
    CHECK_I64(cp_alloc_refused(), 2);
    cp_alloc_fail_at(0);
    void *e = cp_realloc(NULL, 16);
    CHECK(e != NULL);
    CHECK_I64(cp_alloc_refused(), 0);
    free(a); free(b); free(e);
}

int main(void)
{
    RUN(test_countdown);
    RUN(test_doctor_h200_snapshot);
    RUN(test_doctor_no_gpu);
    RUN(test_explain);
    return TEST_END();
}
