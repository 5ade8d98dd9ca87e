/* cuprobe trace [options] -- CMD ARGS...: run a program with the CUPTI
 * injection library (libcuprobe-trace.so) loaded through
 * CUDA_INJECTION64_PATH, analyse the trace it left, and end as the program
 * did: its exit code, or, where a signal killed it, the same signal (as
 * timeout(1) does: the shell sees 128 + N and prints its own line; no core
 * of ours); `--analyze DIR` analyses a trace recorded before. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/report.h"
#include "cuprobe/trace.h"

#define TRACE_LIB "libcuprobe-trace.so"

/* The injection library: $CUPROBE_TRACE_LIB, else beside the tool (the
 * build tree's build/, the tool's own folder, an install's lib/cuprobe/). */
static int find_lib(char *out, size_t cap)
{
    const char *env = getenv("CUPROBE_TRACE_LIB");
    if (env) {
        if (!*env || access(env, R_OK) != 0) return 0;
        return snprintf(out, cap, "%s", env) < (int)cap;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return 0;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash) return 0;
    *slash = '\0';
    static const char *const places[] = { "%s/build/" TRACE_LIB, "%s/" TRACE_LIB, "%s/../lib/cuprobe/" TRACE_LIB };
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        int k = snprintf(out, cap, places[i], self);
        if (k > 0 && (size_t)k < cap && access(out, R_OK) == 0) return 1;
    }
    return 0;
}

/* CPython 3.12+ names its functions in /tmp/perf-<pid>.map when
 * PYTHONPERFSUPPORT=1 (the trace's stacks hold its trampolines' addresses):
 * keep each traced process's map beside its trace as <pid>.perf.map, so
 * --analyze can name them later, elsewhere.  The map in /tmp goes when it
 * was cuprobe that turned it on. */
static void keep_perf_maps(const char *dir, int ours)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end;
        unsigned long pid = strtoul(e->d_name, &end, 10);
        if (end == e->d_name || strcmp(end, ".cptrace") != 0) continue;
        char from[64], to[PATH_MAX];
        snprintf(from, sizeof from, "/tmp/perf-%lu.map", pid);
        if (snprintf(to, sizeof to, "%s/%lu.perf.map", dir, pid) >= (int)sizeof to) continue;
        FILE *in = fopen(from, "rb");
        if (!in) continue;
        FILE *out = fopen(to, "wb");
        char buf[65536];
        size_t got;
        int bad = !out;
        while (out && (got = fread(buf, 1, sizeof buf, in)) > 0)
            if (fwrite(buf, 1, got, out) != got) bad = 1;
        if (ferror(in)) bad = 1;
        if (out && fclose(out) != 0) bad = 1;
        fclose(in);
        if (bad) cli_error(0, "cannot keep %s in %s: Python functions will not be named", from, dir);
        else if (ours) unlink(from);
    }
    closedir(d);
}

/* Run argv (traced through lib into dir where lib is set, its hardware
 * counters asked for where counters is, with PYTHONPERFSUPPORT=1 where perf
 * is) and return its exit code as a shell gives it (128 + signal), the
 * signal in *sig (0: none). */
static int run_program(char **argv, const char *lib, const char *dir, int counters, int perf, int *sig)
{
    *sig = 0;
    struct sigaction ign, old_int, old_quit;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int);            /* ^C goes to the program; we wait for it */
    sigaction(SIGQUIT, &ign, &old_quit);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        if (lib && (setenv("CUDA_INJECTION64_PATH", lib, 1) != 0 || setenv("CUPROBE_TRACE_DIR", dir, 1) != 0 ||
                    (counters ? setenv("CUPROBE_TRACE_COUNTERS", "1", 1) : unsetenv("CUPROBE_TRACE_COUNTERS")) != 0 ||
                    (perf && setenv("PYTHONPERFSUPPORT", "1", 1) != 0)))
            _exit(127);
        execvp(argv[0], argv);
        int e = errno;
        fputs("cuprobe: cannot run '", stderr);
        cp_text_put(stderr, argv[0]);
        fprintf(stderr, "': %s\n", strerror(e));
        _exit(e == ENOENT ? 127 : 126);
    }
    int status = 0, rc;
    if (pid < 0) rc = cli_error(CP_EXIT_ERROR, "cannot start the program: %s", strerror(errno));
    else {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        rc = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
        if (WIFSIGNALED(status)) *sig = WTERMSIG(status);
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    return rc;
}

/* End as a program killed by sig did: the same signal, default action, no
 * core dump of ours; returns rc where the signal does not end us. */
static int die_like(int sig, int rc)
{
    if (!sig) return rc;
    fflush(NULL);
    struct rlimit no_core = { 0, 0 };
    setrlimit(RLIMIT_CORE, &no_core);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    sigprocmask(SIG_UNBLOCK, &one, NULL);
    raise(sig);
    return rc;
}

static int write_file(const char *path, const char *what, const cp_trace_report *r, const cp_trace *t, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f) return cli_error(CP_EXIT_ERROR, "cannot write the %s to %s: %s", what, path, strerror(errno));
    int bad = strcmp(what, "HTML report") == 0 ? cp_trace_render_html(f, r, t, n) : cp_trace_render_chrome(f, t, n);
    if (fclose(f) != 0 || bad) return cli_error(CP_EXIT_ERROR, "cannot write the %s to %s", what, path);
    return 0;
}

/* Analyse DIR and print; returns 0 or CP_EXIT_ERROR. */
static int analyze(const char *dir, int json, const char *html, const char *chrome, int ran)
{
    cp_trace *t = NULL;
    char err[512];
    int n = cp_trace_load_dir(dir, &t, err, sizeof err);
    if (n < 0) return cli_error(CP_EXIT_ERROR, "%s: %s", dir, err);
    if (n == 0) {
        cli_error(0, ran ? "no trace was recorded in %s: the program never initialised CUDA, or the injection "
                           "library could not trace it (its line above says why)"
                         : "%s holds no trace file (*.cptrace)", dir);
        return ran ? 0 : CP_EXIT_ERROR;
    }
    cp_trace_report r;
    cp_trace_opts o = CP_TRACE_OPTS_DEFAULT;
    int rc = 0;
    if (cp_trace_analyze(t, (size_t)n, &o, &r) < 0) {
        cp_trace_free_all(t, (size_t)n);
        return cli_error(CP_EXIT_ERROR, "out of memory");
    }
    if (json) cp_trace_render_json(stdout, &r);
    else cp_trace_render_text(stdout, &r);
    cli_flush_stdout();                          /* before a file that may be stdout itself */
    if (html && write_file(html, "HTML report", &r, t, (size_t)n)) rc = CP_EXIT_ERROR;
    if (chrome && write_file(chrome, "Chrome trace", &r, t, (size_t)n)) rc = CP_EXIT_ERROR;
    cp_trace_report_free(&r);
    cp_trace_free_all(t, (size_t)n);
    return rc;
}

/* `cuprobe trace`; see cli.h. */
int cmd_trace(int argc, char **argv)
{
    const char *out = NULL, *from = NULL, *html = NULL, *chrome = NULL, *v;
    int json = 0, counters = 0, id, k = 0;
    while (k < argc && strcmp(argv[k], "--") != 0) k++;     /* options end at "--"; the program follows */
    cli_parser p;
    cli_parser_init(&p, "trace", k, argv, 0);
    while ((id = cli_next(&p, &v)) != CLI_END) {
        switch (id) {
        case CLI_STOP: return p.status;
        case CLI_OPERAND: return cli_usage_error("trace runs a program given after '--': cuprobe trace -- %s ...", v);
        case OPT_OUT: out = v; break;
        case OPT_ANALYZE: from = v; break;
        case OPT_JSON: json = 1; break;
        case OPT_HTML: html = v; break;
        case OPT_CHROME: chrome = v; break;
        case OPT_COUNTERS: counters = 1; break;
        default: return cli_unhandled(&p);
        }
    }
    char **cmd = k + 1 < argc ? argv + k + 1 : NULL;
    if (from) {
        if (cmd || out || counters)
            return cli_usage_error("--analyze reads a recorded trace: it takes no program, no --out and no --counters");
        return analyze(from, json, html, chrome, 0);
    }
    if (!cmd) return cli_usage_error("trace needs a program to run: cuprobe trace [options] -- CMD ARGS...");
    char lib[PATH_MAX], dir[PATH_MAX], def[64];
    if (!out) {
        snprintf(def, sizeof def, "cuprobe-trace-%ld", (long)getpid());
        out = def;
    }
    if (mkdir(out, 0755) != 0 && errno != EEXIST) return cli_error(CP_EXIT_ERROR, "cannot make %s: %s", out, strerror(errno));
    if (!realpath(out, dir)) return cli_error(CP_EXIT_ERROR, "%s: %s", out, strerror(errno));
    int have = find_lib(lib, sizeof lib);
    if (!have)
        cli_error(0, "no injection library (" TRACE_LIB ": built where cupti.h is found; or set CUPROBE_TRACE_LIB): "
                     "running the program untraced");
    int perf = getenv("PYTHONPERFSUPPORT") == NULL;        /* the user's own choice stands */
    int sig = 0, rc = run_program(cmd, have ? lib : NULL, dir, counters, perf, &sig);
    if (!have) return die_like(sig, rc);
    keep_perf_maps(dir, perf);
    fflush(stdout);
    fputs("\n", stdout);
    if (analyze(dir, json, html, chrome, 1) == 0) cli_error(0, "trace kept in %s (cuprobe trace --analyze %s)", dir, dir);
    return die_like(sig, rc);
}
