/* Probes in child processes under a deadline: answers, hangs, crashes. */
#include "test.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "probe/deadline.h"

static void child_answers(cp_probe_out *out, void *arg)
{
    (void)arg;
    cp_kv_put_str(&out->buf, "cuda.init_name", "CUDA_SUCCESS");
    printf("noise on stdout must not reach the parent's output\n");
}

static void child_hangs(cp_probe_out *out, void *arg)
{
    (void)arg;
    cp_kv_put_str(&out->buf, "cuda.lib.path", "/usr/lib/libcuda.so.1");
    cp_probe_flush(out);          /* said before the call that hangs */
    for (;;) pause();
}

static void child_crashes(cp_probe_out *out, void *arg)
{
    (void)out; (void)arg;
    raise(SIGSEGV);
}

static void child_big(cp_probe_out *out, void *arg)
{
    (void)arg;
    for (int i = 0; i < 20000; i++) cp_buf_printf(&out->buf, "k.%d %0100d\n", i, i);
}

/* A vendor library that forks a helper: the helper keeps the answer pipe
 * open and outlives the child unless its process group is killed. */
static void child_forks_holder(cp_probe_out *out, void *arg)
{
    (void)arg;
    pid_t holder = fork();
    if (holder == 0)
        for (;;) pause();
    cp_buf_printf(&out->buf, "holder.pid %d\n", (int)holder);
    cp_kv_put_str(&out->buf, "cuda.end", "ok");
}

/* The child lets the deadline pass with a complete answer sent. */
static void child_answers_then_hangs(cp_probe_out *out, void *arg)
{
    (void)arg;
    cp_kv_put_str(&out->buf, "cuda.end", "ok");
    cp_probe_flush(out);
    for (;;) pause();
}

static void child_sleeps_then_answers(cp_probe_out *out, void *arg)
{
    (void)arg;
    cp_kv_put_str(&out->buf, "cuda.end", "ok");
    cp_probe_flush(out);
}

/* Gone: no such process, or a zombie waiting for init. */
static int gone(pid_t pid)
{
    char path[64], st = '?';
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *fp = fopen(path, "r");
    if (!fp) return 1;
    int n = fscanf(fp, "%*d %*s %c", &st);
    fclose(fp);
    return n == 1 && (st == 'Z' || st == 'X');
}

static int gone_within_ms(pid_t pid, int ms)
{
    for (int i = 0; i < ms / 10; i++) {
        if (gone(pid)) return 1;
        usleep(10000);
    }
    return gone(pid);
}

static void test_complete_answer_with_holder(void)
{
    cp_probe_job j;
    double t0 = cp_now_ms();
    CHECK_I64(cp_probe_start(&j, child_forks_holder, NULL, "cuda.end ok"), 0);
    cp_probe_wait(&j, 1, 3000);
    double took = cp_now_ms() - t0;
    CHECK_I64(j.run.state, CP_PROBE_DONE);
    CHECK(took < 2000);               /* the marker ends it, not the deadline */
    int holder = 0;
    CHECK(j.out.data && sscanf(j.out.data, "holder.pid %d", &holder) == 1 && holder > 0);
    if (holder > 0) {
        CHECK(gone_within_ms(holder, 2000));     /* its process group went with it */
        if (!gone(holder)) kill(holder, SIGKILL);
    }
    cp_probe_reap(&j.unreaped, 1, CP_PROBE_REAP_MS);
    cp_buf_free(&j.out);
}

static void test_complete_answer_then_hang(void)
{
    cp_probe_job j;
    cp_probe_start(&j, child_answers_then_hangs, NULL, "cuda.end ok");
    cp_probe_wait(&j, 1, 3000);
    CHECK_I64(j.run.state, CP_PROBE_DONE);
    CHECK(j.run.elapsed_ms < 2000);
    pid_t pid = j.pid;
    CHECK_I64(cp_probe_reap(&j.unreaped, 1, CP_PROBE_REAP_MS), 0);
    /* reaped, not left as a zombie for a container's init that never reaps */
    errno = 0;
    CHECK(waitpid(pid, NULL, WNOHANG) == -1 && errno == ECHILD);
    cp_buf_free(&j.out);
}

/* An answer that arrived while the caller was busy past the deadline still
 * counts: the pipe is read before the deadline is judged. */
static void test_answer_waiting_in_pipe(void)
{
    cp_probe_job j;
    cp_probe_start(&j, child_sleeps_then_answers, NULL, "cuda.end ok");
    usleep(300000);
    cp_probe_wait(&j, 1, 50);
    CHECK_I64(j.run.state, CP_PROBE_DONE);
    CHECK(j.out.data && strcmp(j.out.data, "cuda.end ok\n") == 0);
    cp_probe_reap(&j.unreaped, 1, CP_PROBE_REAP_MS);
    cp_buf_free(&j.out);
}

static void test_answer(void)
{
    cp_probe_job j;
    CHECK_I64(cp_probe_start(&j, child_answers, NULL, NULL), 0);
    cp_probe_wait(&j, 1, 5000);
    CHECK_I64(j.run.state, CP_PROBE_DONE);
    CHECK(j.out.data && strcmp(j.out.data, "cuda.init_name CUDA_SUCCESS\n") == 0);
    cp_buf_free(&j.out);
}

static void test_hang_is_killed_in_time(void)
{
    cp_probe_job j[2];
    double t0 = cp_now_ms();
    cp_probe_start(&j[0], child_hangs, NULL, NULL);
    cp_probe_start(&j[1], child_answers, NULL, NULL);
    cp_probe_wait(j, 2, 300);
    double took = cp_now_ms() - t0;
    CHECK_I64(j[0].run.state, CP_PROBE_TIMEOUT);
    CHECK_I64(j[1].run.state, CP_PROBE_DONE);      /* the healthy one is not held back */
    CHECK(took >= 290 && took < 1500);
    CHECK(j[0].out.data && strstr(j[0].out.data, "cuda.lib.path /usr/lib/libcuda.so.1\n"));
    CHECK(strstr(j[0].run.detail, "no answer within") != NULL);
    cp_buf_free(&j[0].out);
    cp_buf_free(&j[1].out);
}

static void test_crash(void)
{
    cp_probe_job j;
    cp_probe_start(&j, child_crashes, NULL, NULL);
    cp_probe_wait(&j, 1, 5000);
    /* reaped in time: crashed (under ASan its handler exits non-zero);
     * still exiting at EOF: done but unreaped, with no answer, which the
     * caller's completeness check turns into a crash */
    if (j.run.state == CP_PROBE_CRASHED)
        CHECK(j.run.signal == SIGSEGV || strstr(j.run.detail, "exited with status") != NULL);
    else
        CHECK(j.run.state == CP_PROBE_DONE && j.unreaped == j.pid && j.out.len == 0);
    cp_probe_reap(&j.unreaped, 1, CP_PROBE_REAP_MS);
    cp_buf_free(&j.out);
}

static void test_big_answer(void)
{
    cp_probe_job j;
    cp_probe_start(&j, child_big, NULL, NULL);
    cp_probe_wait(&j, 1, 10000);
    CHECK_I64(j.run.state, CP_PROBE_DONE);
    CHECK(j.out.len > 2000000);
    CHECK(j.out.data && strstr(j.out.data, "k.19999 ") != NULL);
    cp_buf_free(&j.out);
}

int main(void)
{
    RUN(test_answer);
    RUN(test_hang_is_killed_in_time);
    RUN(test_crash);
    RUN(test_big_answer);
    RUN(test_complete_answer_with_holder);
    RUN(test_complete_answer_then_hang);
    RUN(test_answer_waiting_in_pipe);
    return TEST_END();
}
