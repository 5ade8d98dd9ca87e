/*
 * The observe step: read the host through one cp_fs, ask the driver and NVML
 * in child processes under a deadline, or replay all of it from a snapshot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "util/alloc.h"
#include "cuprobe/cuprobe.h"
#include "facts/facts_kv.h"
#include "installed/frameworks.h"
#include "host/host.h"
#include "installed/installed.h"
#include "installed/libraries.h"
#include "probe/deadline.h"
#include "probe/probe.h"

extern char **environ;

struct cp_session {
    cp_facts f;
    cp_fs *fs;
    pid_t unreaped[3];        /* probe children still exiting when observe returned */
};

#define ANSWERS_FILE "answers.txt"
#define ANSWERS_MAX ((size_t)8 << 20)

/* The library's version string. */
const char *cp_version(void)
{
#ifdef CUPROBE_VERSION
    return CUPROBE_VERSION;
#else
    return "0.0.0";
#endif
}

/* Variables that change what CUDA, its libraries or the frameworks do, or
 * that say where we run.  Everything else in the environment is ignored. */
static int env_relevant(const char *name)
{
    static const char *const prefixes[] = { "CUDA", "NVIDIA_", "NV_", "LD_", "CUDNN", "NCCL",
        "CUBLAS", "TORCH", "PYTORCH", "XLA", "JAX", "TF_", "CONDA", "VIRTUAL_ENV", "PYTHON",
        "OMPI_", "SLURM_", "KUBERNETES_SERVICE_HOST", "container", NULL };
    static const char *const exact[] = { "PATH", "LIBRARY_PATH", "HOME", "USER", NULL };
    for (int i = 0; exact[i]; i++)
        if (strcmp(name, exact[i]) == 0) return 1;
    for (int i = 0; prefixes[i]; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) return 1;
    return 0;
}

static void collect_env(cp_host_facts *h)
{
    h->nenv = 0;
    for (char **e = environ; e && *e && h->nenv < CP_MAX_ENV; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq || eq == *e || (size_t)(eq - *e) >= sizeof h->env[0].name) continue;
        cp_env_var *v = &h->env[h->nenv];
        memcpy(v->name, *e, (size_t)(eq - *e));
        v->name[eq - *e] = '\0';
        if (!env_relevant(v->name)) continue;
        snprintf(v->value, sizeof v->value, "%s", eq + 1);
        h->nenv++;
    }
}

static int64_t self_maxrss_kb(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? (int64_t)ru.ru_maxrss : CP_UNKNOWN;
}

/* Send the load record before the call that may hang. */
static void cuda_loaded(const cp_lib_load *lib, void *arg)
{
    cp_probe_out *out = arg;
    cp_facts_put_lib(&out->buf, "cuda.", lib);
    cp_probe_flush(out);
}

static void nvml_loaded(const cp_lib_load *lib, void *arg)
{
    cp_probe_out *out = arg;
    cp_facts_put_lib(&out->buf, "nvml.", lib);
    cp_probe_flush(out);
}

static void cuda_child(cp_probe_out *out, void *arg)
{
    (void)arg;
    cp_facts *f = cp_malloc(sizeof *f);
    if (!f) { out->buf.failed = true; return; }
    cp_facts_init(f);
    cp_cuda_probe_fill_ex(&f->cuda, cuda_loaded, out);
    f->cuda.run.maxrss_kb = self_maxrss_kb();
    cp_facts_put_cuda(&out->buf, &f->cuda);
    free(f);
}

static void nvml_child(cp_probe_out *out, void *arg)
{
    (void)arg;
    cp_facts *f = cp_malloc(sizeof *f);
    if (!f) { out->buf.failed = true; return; }
    cp_facts_init(f);
    cp_nvml_probe_fill_ex(&f->nvml, nvml_loaded, out);
    f->nvml.run.maxrss_kb = self_maxrss_kb();
    cp_facts_put_nvml(&out->buf, &f->nvml);
    free(f);
}

static void libs_child(cp_probe_out *out, void *arg)
{
    cp_libraries_facts *libs = arg;   /* the child's own copy, forked after discovery */
    cp_libs_probe_fill(libs);
    cp_facts_put_libs(&out->buf, libs);
}

/* The probes in flight while the host is read. */
typedef struct {
    int n;
    int blocks[3];
    cp_probe_job jobs[3];
} probe_set;

/* Ask libcuda and NVML at the same time, each in its own child; the answers
 * are collected by probe_finish. */
static void probe_start(probe_set *p, unsigned which)
{
    p->n = 0;
    if (which & CP_LIVE_CUDA) {
        p->blocks[p->n] = CP_KV_CUDA;
        cp_probe_start(&p->jobs[p->n++], cuda_child, NULL);
    }
    if (which & CP_LIVE_NVML) {
        p->blocks[p->n] = CP_KV_NVML;
        cp_probe_start(&p->jobs[p->n++], nvml_child, NULL);
    }
}

/* Wait for the probes (deadline counted from their start) and fold their
 * answers into f. */
static void probe_finish(probe_set *p, cp_facts *f, int timeout_ms, pid_t unreaped[3])
{
    cp_facts *fresh = cp_malloc(sizeof *fresh);
    if (fresh) {
        cp_facts_init(fresh);
        for (int i = 0; i < p->n; i++) {
            if (p->blocks[i] == CP_KV_CUDA) f->cuda = fresh->cuda;
            else if (p->blocks[i] == CP_KV_NVML) f->nvml = fresh->nvml;
        }
        free(fresh);
    }
    cp_probe_wait(p->jobs, p->n, timeout_ms);
    for (int i = 0; i < p->n; i++) {
        cp_probe_job *j = &p->jobs[i];
        char err[160];
        int seen = 0;
        if (j->out.len)   /* a child killed mid-way leaves what it managed to say */
            seen = cp_facts_load(j->out.data, j->out.len, f, err, sizeof err);
        unreaped[i] = j->unreaped;
        if (p->blocks[i] == CP_KV_LIBS) {   /* no run record: unanswered libraries stay unknown */
            cp_buf_free(&j->out);
            continue;
        }
        cp_probe_run *run = p->blocks[i] == CP_KV_CUDA ? &f->cuda.run : &f->nvml.run;
        int64_t rss = run->maxrss_kb;      /* the child's own word, kept over the job's */
        *run = j->run;
        run->maxrss_kb = rss;
        if (run->state == CP_PROBE_DONE && (seen < 0 || !(seen & p->blocks[i]))) {
            run->state = CP_PROBE_CRASHED;
            snprintf(run->detail, sizeof run->detail, "the probe process ended without a complete answer");
        }
        cp_buf_free(&j->out);
    }
}

static void observe_host_files(cp_fs *fs, cp_facts *f)
{
    cp_host_facts *h = &f->host;
    cp_host_read_pci(fs, h);
    cp_host_read_modules(fs, h);
    cp_host_read_proc_devices(fs, h);
    cp_host_read_procfs(fs, &h->procfs);
    cp_host_read_container(fs, &h->container);
    cp_host_read_kernel_log(fs, &h->klog);
}

static void observe_meta(cp_facts *f)
{
    struct utsname u;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(f->captured_at, sizeof f->captured_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (uname(&u) == 0) {
        snprintf(f->hostname, sizeof f->hostname, "%.*s", (int)sizeof f->hostname - 1, u.nodename);
        snprintf(f->kernel_release, sizeof f->kernel_release, "%.*s", (int)sizeof f->kernel_release - 1, u.release);
    }
}

static int load_answers(const char *dir, cp_facts *f, int *seen_out, char *err, size_t errcap)
{
    char path[CP_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, ANSWERS_FILE);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errcap, "'%s' is not a cuprobe snapshot: cannot open '%s': %s",
                 dir, path, strerror(errno));
        return -1;
    }
    char *text = cp_malloc(ANSWERS_MAX);
    size_t len = text ? fread(text, 1, ANSWERS_MAX, fp) : 0;
    int io_error = ferror(fp);
    fclose(fp);
    if (!text || io_error) {
        snprintf(err, errcap, "cannot read '%s'", path);
        free(text);
        return -1;
    }
    char why[200];
    int seen = cp_facts_load(text, len, f, why, sizeof why);
    free(text);
    if (seen < 0) {
        snprintf(err, errcap, "snapshot file '%s' is damaged: %s", path, why);
        return -1;
    }
    static const struct { int bit; const char *name; } blocks[] = {
        { CP_KV_META, "meta" }, { CP_KV_HOST, "host" }, { CP_KV_CUDA, "cuda" }, { CP_KV_NVML, "nvml" } };
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        if (!(seen & blocks[i].bit)) {
            snprintf(err, errcap, "snapshot file '%s' is truncated: the '%s' answers are incomplete",
                     path, blocks[i].name);
            return -1;
        }
    *seen_out = seen;
    return 0;
}

/* Observe or replay; see cuprobe.h. */
int cp_observe(const cp_observe_opts *o, cp_session **out, char *err, size_t errcap)
{
    *out = NULL;
    cp_session *s = cp_calloc(1, sizeof *s);
    if (!s) { snprintf(err, errcap, "out of memory"); return -1; }
    s->unreaped[0] = s->unreaped[1] = s->unreaped[2] = -1;
    cp_facts *f = &s->f;
    cp_facts_init(f);
    unsigned live = CP_LIVE_CUDA | CP_LIVE_NVML | CP_LIVE_ENV;
    int answered = 0;         /* answer blocks a replayed snapshot holds */
    if (o->from_dir) {
        char root[CP_PATH_MAX + 8];
        struct stat st;
        snprintf(root, sizeof root, "%s/root", o->from_dir);
        if (stat(o->from_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            snprintf(err, errcap, "cannot open snapshot '%s': %s", o->from_dir,
                     errno ? strerror(errno) : "not a folder");
            free(s);
            return -1;
        }
        if (load_answers(o->from_dir, f, &answered, err, errcap) != 0) { free(s); return -1; }
        s->fs = cp_fs_open(root, false);
        snprintf(f->origin, sizeof f->origin, "%s", o->from_dir);
        live = o->live_mask;
    } else {
        s->fs = cp_fs_open(o->root ? o->root : "/", o->record);
        snprintf(f->origin, sizeof f->origin, "live");
        observe_meta(f);
    }
    if (!s->fs) { snprintf(err, errcap, "out of memory"); free(s); return -1; }
    if (o->fail_read_at > 0) cp_fs_fail_read_at(s->fs, o->fail_read_at);

    /* the driver probes first: cuInit takes longest, the host is read meanwhile */
    probe_set probes = { 0 };
    unsigned asked = live & (CP_LIVE_CUDA | CP_LIVE_NVML);
    if (asked) probe_start(&probes, asked);

    observe_host_files(s->fs, f);
    if (live & CP_LIVE_ENV) collect_env(&f->host);
    if (!o->from_dir) {
        f->host.uid = (int64_t)getuid();
        cp_host_read_devnodes(s->fs, &f->host);
    }
    cp_parse_visibility(cp_host_getenv(&f->host, "CUDA_VISIBLE_DEVICES"),
                        cp_host_getenv(&f->host, "NVIDIA_VISIBLE_DEVICES"),
                        cp_host_getenv(&f->host, "CUDA_DEVICE_ORDER"), &f->host.vis);
    cp_runtime_observe(s->fs, &f->host, &f->runtime);
    /* one discovery of the Python environments, read by both layers */
    cp_pyenv *py = cp_malloc(sizeof *py);
    if (py) cp_pyenv_find(s->fs, &f->host, o->python, py);
    if (answered & CP_KV_LIBS) {
        cp_libraries_facts *said = cp_malloc(sizeof *said);
        if (said) *said = f->libraries;
        cp_libraries_observe(s->fs, &f->host, &f->runtime, py, &f->libraries);
        if (said) cp_libraries_attach_answers(&f->libraries, said);
        free(said);
    } else {
        cp_libraries_observe(s->fs, &f->host, &f->runtime, py, &f->libraries);
        /* loading the libraries only means something on the machine itself,
         * and only where a GPU could use them: without one every layer above
         * the hardware is blocked anyway, and loading costs ~100 ms */
        bool gpu_here = f->host.procfs.present || cp_gpus_on_bus(f) > 0;
        if (!o->from_dir && cp_fs_is_live(s->fs) && (live & CP_LIVE_CUDA) && gpu_here && probes.n < 3) {
            probes.blocks[probes.n] = CP_KV_LIBS;
            cp_probe_start(&probes.jobs[probes.n++], libs_child, &f->libraries);
        }
    }
    /* a snapshot carries the frameworks' GPU code in its answers: the
     * libraries it was read from are too big to keep */
    if (!(answered & CP_KV_FW)) {
        cp_frameworks_observe(s->fs, py, &f->frameworks);
        cp_frameworks_resolve_libs(s->fs, &f->host, &f->libraries, &f->frameworks);
    }
    free(py);
    if (probes.n) probe_finish(&probes, f, o->timeout_ms > 0 ? o->timeout_ms : 5000, s->unreaped);
    *out = s;
    return 0;
}

/* The session's facts. */
const cp_facts *cp_session_facts(const cp_session *s)
{
    return &s->f;
}

static int dir_is_empty_or_missing(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0) return errno == ENOENT ? 1 : -1;
    if (!S_ISDIR(st.st_mode)) return 0;
    return rmdir(dir) == 0 ? 1 : 0;   /* empty folders can be removed and made again */
}

/* Write a snapshot folder; see cuprobe.h. */
int cp_snapshot_write(const cp_session *s, const char *dir, char *err, size_t errcap)
{
    int e = dir_is_empty_or_missing(dir);
    if (e <= 0) {
        snprintf(err, errcap, "cannot write snapshot to '%s': %s", dir,
                 e < 0 ? strerror(errno) : "it exists and is not an empty folder");
        return -1;
    }
    if (mkdir(dir, 0755) != 0) {
        snprintf(err, errcap, "cannot create '%s': %s", dir, strerror(errno));
        return -1;
    }
    char path[CP_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/root", dir);
    if (mkdir(path, 0755) != 0 || cp_fs_write_snapshot(s->fs, path, err, errcap) != 0) {
        if (!err[0]) snprintf(err, errcap, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    cp_buf b = { 0 };
    cp_buf_printf(&b, "# cuprobe %s snapshot answers: what the driver, NVML and the OS said\n",
                  cp_version());
    cp_facts_put_meta(&b, &s->f);
    cp_facts_put_host(&b, &s->f.host, 1);
    cp_facts_put_cuda(&b, &s->f.cuda);
    cp_facts_put_nvml(&b, &s->f.nvml);
    cp_facts_put_frameworks(&b, &s->f.frameworks);
    cp_facts_put_libs(&b, &s->f.libraries);
    snprintf(path, sizeof path, "%s/%s", dir, ANSWERS_FILE);
    FILE *fp = b.failed ? NULL : fopen(path, "wb");
    int ok = fp && fwrite(b.data, 1, b.len, fp) == b.len;
    if (fp && fclose(fp) != 0) ok = 0;
    cp_buf_free(&b);
    if (!ok) {
        snprintf(err, errcap, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Free a session. */
void cp_session_free(cp_session *s)
{
    if (!s) return;
    cp_probe_reap(s->unreaped[0]);
    cp_probe_reap(s->unreaped[1]);
    cp_probe_reap(s->unreaped[2]);
    cp_fs_close(s->fs);
    free(s);
}
