/* Probes in child processes under a deadline (deadline.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "deadline.h"

/* Monotonic clock in milliseconds. */
double cp_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w;
        n -= (size_t)w;
    }
}

static void child_quiet_stdio(void)
{
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0) return;
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);
    if (null > 2) close(null);
}

/* Send the buffered answers now; see deadline.h. */
void cp_probe_flush(cp_probe_out *out)
{
    if (!out->buf.failed && out->buf.len) write_all(out->fd, out->buf.data, out->buf.len);
    cp_buf_free(&out->buf);
}

/* In the child: lead a process group of its own (what the vendor library
 * starts joins it and dies with it) and die with the parent. */
static void child_detach(pid_t parent)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(4);    /* the parent died before the line above */
}

/* Fork a child running fn; see deadline.h. */
int cp_probe_start(cp_probe_job *job, cp_probe_fn fn, void *arg, const char *marker)
{
    memset(job, 0, sizeof *job);
    job->pid = -1;
    job->unreaped = -1;
    job->fd = -1;
    job->marker = marker;
    job->run.signal = job->run.maxrss_kb = CP_UNKNOWN;
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        job->run.state = CP_PROBE_ERROR;
        snprintf(job->run.detail, sizeof job->run.detail, "cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);   /* the child must not flush the parent's buffered output again */
    job->t0_ms = cp_now_ms();
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        job->run.state = CP_PROBE_ERROR;
        snprintf(job->run.detail, sizeof job->run.detail, "cannot fork: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        child_detach(parent);
        close(p[0]);
        child_quiet_stdio();
        cp_probe_out out = { { 0 }, p[1] };
        fn(&out, arg);
        int failed = out.buf.failed;
        cp_probe_flush(&out);
        close(p[1]);          /* EOF now: the parent need not wait for our exit */
        _exit(failed ? 3 : 0);
    }
    close(p[1]);
    setpgid(pid, pid);        /* both sides set it: no window where a kill of the group misses */
    job->pid = pid;
    job->fd = p[0];
    return 0;
}

/* The answer ends with its marker line. */
static int ends_with_marker(const cp_probe_job *j)
{
    if (!j->marker || j->out.failed || !j->out.data) return 0;
    size_t m = strlen(j->marker), n = j->out.len;
    const char *d = j->out.data;
    if (n < m + 1 || d[n - 1] != '\n' || memcmp(d + n - 1 - m, j->marker, m) != 0) return 0;
    return n == m + 1 || d[n - m - 2] == '\n';
}

/* Read what is available from a job's pipe; sets eof at end. */
static void drain(cp_probe_job *j)
{
    char chunk[8192];
    for (;;) {
        ssize_t r = read(j->fd, chunk, sizeof chunk);
        if (r > 0) {
            /* a runaway child cannot make the parent grow without bound */
            if (j->out.len < (size_t)16 << 20) cp_buf_append(&j->out, chunk, (size_t)r);
            if (ends_with_marker(j)) {
                /* complete: what still holds the pipe open is not waited for */
                j->complete = 1;
                j->run.elapsed_ms = cp_now_ms() - j->t0_ms;
                return;
            }
            continue;
        }
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && errno == EAGAIN) return;
        j->eof = 1;
        j->run.elapsed_ms = cp_now_ms() - j->t0_ms;
        return;
    }
}

/* Has the child exited?  Asked without reaping it: the pid (and so the
 * process group's id) stays ours until waitpid. */
static int has_exited(pid_t pid)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    int r;
    while ((r = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT)) < 0 && errno == EINTR) {}
    return r == 0 && si.si_pid == pid;
}

static void finish(cp_probe_job *j, int timeout_ms)
{
    int status = 0;
    if (j->pid <= 0) { close(j->fd); j->fd = -1; return; }
    int exited = has_exited(j->pid);
    /* the child's group goes in every case: a helper the library started
     * must not outlive the probe, whatever the probe's end */
    kill(-j->pid, SIGKILL);
    if (exited) {
        pid_t r;
        while ((r = waitpid(j->pid, &status, 0)) < 0 && errno == EINTR) {}
    } else if (waitpid(j->pid, &status, WNOHANG) == j->pid) {
        exited = 1;
    }
    if (!exited) j->unreaped = j->pid;   /* still leaving the driver: reap it later */
    if (j->complete) {
        j->run.state = CP_PROBE_DONE;
    } else if (!j->eof) {
        /* "did not answer within" the deadline it was given; the poll's
         * overshoot of a millisecond or two is not news.  A killed child can
         * take a while to leave the driver (or never, in uninterruptible
         * sleep): never wait for it */
        j->run.elapsed_ms = timeout_ms;
        j->run.state = CP_PROBE_TIMEOUT;
        snprintf(j->run.detail, sizeof j->run.detail, "no answer within %.2g s",
                 j->run.elapsed_ms / 1000.0);
    } else if (!exited) {
        /* EOF, but the kernel is still tearing the child down (closing the
         * GPU device files takes tens of ms): the caller checks the answer */
        j->run.state = CP_PROBE_DONE;
    } else if (WIFSIGNALED(status)) {
        j->run.state = CP_PROBE_CRASHED;
        j->run.signal = WTERMSIG(status);
        snprintf(j->run.detail, sizeof j->run.detail, "probe process killed by signal %d (%s)",
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        j->run.state = CP_PROBE_CRASHED;
        snprintf(j->run.detail, sizeof j->run.detail, "probe process exited with status %d",
                 WEXITSTATUS(status));
    } else {
        j->run.state = CP_PROBE_DONE;
    }
    close(j->fd);
    j->fd = -1;
}

/* Wait for the jobs under one deadline; see deadline.h. */
void cp_probe_wait(cp_probe_job *jobs, int n, int timeout_ms)
{
    /* the deadline runs from the first job's start, not from this call */
    double end = (n > 0 && jobs[0].pid > 0 ? jobs[0].t0_ms : cp_now_ms()) + timeout_ms;
    for (int i = 0; i < n; i++)
        if (jobs[i].fd >= 0) fcntl(jobs[i].fd, F_SETFL, fcntl(jobs[i].fd, F_GETFL) | O_NONBLOCK);
    for (;;) {
        struct pollfd pf[8];
        int idx[8], m = 0;
        for (int i = 0; i < n && m < 8; i++)
            if (jobs[i].fd >= 0 && !jobs[i].eof && !jobs[i].complete) {
                pf[m].fd = jobs[i].fd; pf[m].events = POLLIN; idx[m++] = i;
            }
        if (m == 0) break;
        /* past the deadline one last look that does not wait: an answer
         * that came while the caller was busy is an answer */
        double left = end - cp_now_ms();
        int r = poll(pf, (nfds_t)m, left > 0 ? (int)left + 1 : 0);
        if (r < 0 && errno != EINTR) break;
        for (int k = 0; k < m; k++)
            if (pf[k].revents) drain(&jobs[idx[k]]);
        if (left <= 0) break;
    }
    for (int i = 0; i < n; i++)
        if (jobs[i].fd >= 0) finish(&jobs[i], timeout_ms);
}

/* Kill the groups of the children cp_probe_wait left exiting and reap them,
 * waiting at most max_ms for all of them together; see deadline.h. */
int cp_probe_reap(const pid_t *pids, int n, int max_ms)
{
    int left = 0;
    for (int i = 0; i < n; i++)
        if (pids[i] > 0) kill(-pids[i], SIGKILL);   /* unreaped, so each group id is still ours */
    double end = cp_now_ms() + max_ms;
    for (;;) {
        left = 0;
        for (int i = 0; i < n; i++) {
            int status;
            if (pids[i] <= 0) continue;
            pid_t r = waitpid(pids[i], &status, WNOHANG);
            if (r == 0 || (r < 0 && errno == EINTR)) left++;
        }
        if (left == 0 || cp_now_ms() >= end) return left;
        struct timespec pause = { 0, 1000000 };   /* 1 ms: teardown takes tens */
        nanosleep(&pause, NULL);
    }
}
