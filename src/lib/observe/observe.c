/*
 * The observe step: read the host through one cp_fs, ask the driver and NVML
 * in child processes under a deadline, or replay all of it from a snapshot.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "util/alloc.h"
#include "util/str.h"
#include "cuprobe/cuprobe.h"
#include "facts/facts_kv.h"
#include "installed/frameworks.h"
#include "host/host.h"
#include "installed/installed.h"
#include "installed/libraries.h"
#include "probe/deadline.h"
#include "probe/libs_l2.h"
#include "probe/probe.h"

extern char **environ;

struct cp_session {
    cp_facts f;
    cp_fs *fs;
    pid_t unreaped[4];        /* probe children still exiting when observe returned */
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

/* The step a probe child begins, sent at once: if the deadline cuts it,
 * the parent knows where (answers key <block>.run.stage). */
static void probe_stage(cp_probe_out *out, const char *block, const char *stage)
{
    char key[32];
    snprintf(key, sizeof key, "%s.run.stage", block);
    cp_kv_put_str(&out->buf, key, stage);
    cp_probe_flush(out);
}

/* Send the load record and the step before a call that may hang. */
static void cuda_loaded(const char *stage, const cp_lib_load *lib, void *arg)
{
    cp_probe_out *out = arg;
    cp_facts_put_lib(&out->buf, "cuda.", lib);
    probe_stage(out, "cuda", stage);
}

static void nvml_loaded(const char *stage, const cp_lib_load *lib, void *arg)
{
    cp_probe_out *out = arg;
    cp_facts_put_lib(&out->buf, "nvml.", lib);
    probe_stage(out, "nvml", stage);
}

/* Level 2: level 1's answers go out whole before any GPU work, with the
 * stage "level2", so a level-2 hang keeps them and is told from cuInit's. */
static void cuda_level1_done(const cp_cuda_facts *c, void *arg)
{
    cp_probe_out *out = arg;
    cp_facts_put_cuda_body(&out->buf, c);
    probe_stage(out, "cuda", "level2");
}

static void cuda_l2_step(int ordinal, const char *step, void *arg)
{
    cp_probe_out *out = arg;
    char key[48];
    snprintf(key, sizeof key, "cuda.dev.%d.l2.step", ordinal);
    cp_kv_put_str(&out->buf, key, step);
    cp_probe_flush(out);
}

static void cuda_l2_done(int ordinal, const cp_cuda_l2 *l2, void *arg)
{
    cp_probe_out *out = arg;
    cp_facts_put_cuda_l2(&out->buf, ordinal, l2);
    cp_probe_flush(out);
}

static void cuda_child(cp_probe_out *out, void *arg)
{
    int level = arg ? *(const int *)arg : 1;
    probe_stage(out, "cuda", "load");
    cp_facts *f = cp_malloc(sizeof *f);
    if (!f) { out->buf.failed = true; return; }
    cp_facts_init(f);
    if (level < 2) {
        cp_cuda_probe_fill_ex(&f->cuda, cuda_loaded, out);
        f->cuda.run.maxrss_kb = self_maxrss_kb();
        snprintf(f->cuda.run.stage, sizeof f->cuda.run.stage, "done");
        cp_facts_put_cuda(&out->buf, &f->cuda);
    } else {
        cp_cuda_probe_hooks h = { cuda_loaded, cuda_level1_done, cuda_l2_step, cuda_l2_done, out };
        cp_cuda_probe_run(&f->cuda, level, &h);
        cp_kv_put_i64(&out->buf, "cuda.run.maxrss_kb", self_maxrss_kb());
        cp_kv_put_str(&out->buf, "cuda.run.stage", "done");
        cp_kv_put_str(&out->buf, "cuda.end", "ok");
    }
    free(f);
}

static void nvml_child(cp_probe_out *out, void *arg)
{
    (void)arg;
    probe_stage(out, "nvml", "load");
    cp_facts *f = cp_malloc(sizeof *f);
    if (!f) { out->buf.failed = true; return; }
    cp_facts_init(f);
    cp_nvml_probe_fill_ex(&f->nvml, nvml_loaded, out);
    f->nvml.run.maxrss_kb = self_maxrss_kb();
    snprintf(f->nvml.run.stage, sizeof f->nvml.run.stage, "done");
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
    int blocks[4];
    cp_probe_job jobs[4];
    int level;                /* the libcuda child's level (its argument) */
} probe_set;

/* Ask libcuda and NVML at the same time, each in its own child; the answers
 * are collected by probe_finish. */
static void probe_start(probe_set *p, unsigned which)
{
    p->n = 0;
    if (which & CP_LIVE_CUDA) {
        p->blocks[p->n] = CP_KV_CUDA;
        cp_probe_start(&p->jobs[p->n++], cuda_child, &p->level, "cuda.end ok");
    }
    if (which & CP_LIVE_NVML) {
        p->blocks[p->n] = CP_KV_NVML;
        cp_probe_start(&p->jobs[p->n++], nvml_child, NULL, "nvml.end ok");
    }
}

/* The deadline the probes get: the default for none, never below the floor
 * (shorter, no driver can be told from a cut-short step). */
static int probe_deadline_ms(int asked)
{
    if (asked <= 0) return CP_TIMEOUT_DEFAULT_MS;
    return asked < CP_TIMEOUT_MIN_MS ? CP_TIMEOUT_MIN_MS : asked;
}

/* Wait for the probes (deadline counted from their start) and fold their
 * answers into f. */
static void probe_finish(probe_set *p, cp_facts *f, int timeout_ms, pid_t unreaped[4])
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
    if (p->level >= 2) {
        /* the others keep level 1's deadline, libcuda and the libraries'
         * runs get level 2's: the level-2 children wait at the end */
        cp_probe_job order[4];
        int map[4], k = 0, l1;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < p->n; i++)
                if ((p->blocks[i] == CP_KV_CUDA || p->blocks[i] == CP_KV_LIBL2) == (pass == 1)) map[k++] = i;
        for (l1 = 0; l1 < p->n && p->blocks[map[l1]] != CP_KV_CUDA && p->blocks[map[l1]] != CP_KV_LIBL2; l1++) {}
        for (int i = 0; i < p->n; i++) order[i] = p->jobs[map[i]];
        cp_probe_wait(order, l1, timeout_ms);
        cp_probe_wait(order + l1, p->n - l1, CP_LEVEL2_DEADLINE_MS(timeout_ms));
        for (int i = 0; i < p->n; i++) p->jobs[map[i]] = order[i];
    } else {
        cp_probe_wait(p->jobs, p->n, timeout_ms);
    }
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
        cp_probe_run *run = p->blocks[i] == CP_KV_CUDA ? &f->cuda.run
                          : p->blocks[i] == CP_KV_LIBL2 ? &f->libs_l2.run : &f->nvml.run;
        int64_t rss = run->maxrss_kb;      /* the child's own word, kept over the job's */
        char stage[sizeof run->stage];
        snprintf(stage, sizeof stage, "%s", run->stage);
        *run = j->run;
        run->maxrss_kb = rss;
        snprintf(run->stage, sizeof run->stage, "%s", stage);
        if (run->state == CP_PROBE_DONE && (seen < 0 || !(seen & p->blocks[i]))) {
            run->state = CP_PROBE_CRASHED;
            snprintf(run->detail, sizeof run->detail, "the probe process ended without a complete answer");
        }
        /* cut in level 2: level 1 answered whole, the level-2 steps did not */
        if (p->blocks[i] == CP_KV_CUDA && run->state != CP_PROBE_DONE && strcmp(run->stage, "level2") == 0) {
            f->cuda.l2_run = *run;
            run->state = CP_PROBE_DONE;
            run->detail[0] = '\0';
        }
        cp_buf_free(&j->out);
    }
    /* our own libcuda probe is no other job: NVML, asked while level 2 ran,
     * lists its context among the GPU's processes */
    for (int i = 0; i < p->n; i++)
        if (p->blocks[i] == CP_KV_CUDA || p->blocks[i] == CP_KV_LIBL2) cp_facts_drop_process(f, p->jobs[i].pid);
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

/* Read and check a snapshot's answers.txt.  It is read through a view of
 * the snapshot folder, so a link in it is followed inside the folder and
 * never out of it, and a FIFO or device is refused without blocking.  Every
 * block must be whole (cp_facts_load_snapshot).  Returns 0 with *seen_out,
 * or -1 with err naming what is damaged. */
static int load_answers(const char *dir, cp_facts *f, int *seen_out, char *err, size_t errcap)
{
    char *text = NULL, why[200];
    size_t len = 0;
    cp_fs *view = cp_fs_open(dir, false);
    if (!view) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    int rc = cp_fs_read_alloc(view, "/" ANSWERS_FILE, ANSWERS_MAX + 1, &text, &len);
    if (rc == -ENOENT) {
        cp_str_errno(-rc, why, sizeof why);
        snprintf(err, errcap, "'%s' is not a cuprobe snapshot: cannot open '%s/%s': %s", dir, dir, ANSWERS_FILE, why);
    } else if (rc == -ENXIO || rc == -EISDIR) {
        snprintf(err, errcap, "damaged snapshot '%s': %s is %s, not a file", dir, ANSWERS_FILE,
                 cp_fs_what(view, "/" ANSWERS_FILE));
    } else if (rc) {
        cp_str_errno(-rc, why, sizeof why);
        snprintf(err, errcap, "damaged snapshot '%s': cannot read %s: %s", dir, ANSWERS_FILE, why);
    } else if (len > ANSWERS_MAX) {
        snprintf(err, errcap, "damaged snapshot '%s': %s is larger than %zu MB", dir, ANSWERS_FILE, ANSWERS_MAX >> 20);
        rc = -1;
    }
    cp_fs_close(view);
    if (rc) {
        free(text);
        return -1;
    }
    int seen = cp_facts_load_snapshot(text, len, f, why, sizeof why);
    free(text);
    if (seen < 0) {
        snprintf(err, errcap, "damaged snapshot '%s': %s %s", dir, ANSWERS_FILE, why);
        return -1;
    }
    *seen_out = seen;
    return 0;
}

/* A snapshot's root/ must be a real folder that can be read and holds
 * something: a link (to itself, to "/", into a loop) would replay another
 * machine's files or none.  Returns 0, or -1 with err naming the damage. */
static int check_snapshot_root(const char *dir, const char *root, char *err, size_t errcap)
{
    struct stat st;
    char why[128];
    if (lstat(root, &st) != 0) {
        int e = errno;
        cp_str_errno(e, why, sizeof why);
        snprintf(err, errcap, "damaged snapshot '%s': root/ %s", dir, e == ENOENT ? "is missing" : why);
        return -1;
    }
    if (S_ISLNK(st.st_mode)) {
        char target[CP_PATH_MAX];
        ssize_t n = readlink(root, target, sizeof target - 1);
        target[n > 0 ? n : 0] = '\0';
        snprintf(err, errcap, "damaged snapshot '%s': root/ is a link to '%s', not a folder", dir, target);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errcap, "damaged snapshot '%s': root/ is not a folder", dir);
        return -1;
    }
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        int e = errno;
        if (fd >= 0) close(fd);
        cp_str_errno(e, why, sizeof why);
        snprintf(err, errcap, "damaged snapshot '%s': root/ cannot be read: %s", dir, why);
        return -1;
    }
    int entries = 0;
    struct dirent *de;
    errno = 0;
    while (!entries && (de = readdir(d)) != NULL)
        entries = strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    int e = errno;
    closedir(d);
    if (!entries) {
        cp_str_errno(e, why, sizeof why);
        snprintf(err, errcap, "damaged snapshot '%s': root/ %s%s", dir, e ? "cannot be read: " : "is empty", e ? why : "");
        return -1;
    }
    return 0;
}

/* Observe or replay; see cuprobe.h. */
int cp_observe(const cp_observe_opts *o, cp_session **out, char *err, size_t errcap)
{
    *out = NULL;
    cp_session *s = cp_calloc(1, sizeof *s);
    if (!s) { snprintf(err, errcap, "out of memory"); return -1; }
    s->unreaped[0] = s->unreaped[1] = s->unreaped[2] = s->unreaped[3] = -1;
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
        if (load_answers(o->from_dir, f, &answered, err, errcap) != 0 ||
            check_snapshot_root(o->from_dir, root, err, errcap) != 0) { free(s); return -1; }
        s->fs = cp_fs_open(root, false);
        snprintf(f->origin, sizeof f->origin, "%s", o->from_dir);
        live = o->live_mask;
    } else {
        s->fs = cp_fs_open(o->root ? o->root : "/", o->record);
        snprintf(f->origin, sizeof f->origin, "live");
        observe_meta(f);
        snprintf(f->python, sizeof f->python, "%s", o->python ? o->python : "");
    }
    if (!s->fs) { snprintf(err, errcap, "out of memory"); free(s); return -1; }
    if (o->fail_read_at > 0) cp_fs_fail_read_at(s->fs, o->fail_read_at);
    if (o->fail_write_at > 0) cp_fs_fail_write_at(s->fs, o->fail_write_at);
    /* a replay examines the interpreter the snapshot was taken with */
    const char *python = o->python ? o->python : f->python[0] ? f->python : NULL;

    /* the driver probes first: cuInit takes longest, the host is read meanwhile */
    probe_set probes = { 0 };
    probes.level = o->level;
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
    if (py) cp_pyenv_find(s->fs, &f->host, python, py);
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
        const char *skip = cp_libraries_load_skip(o->from_dir != NULL, cp_fs_is_live(s->fs),
                                                  (live & CP_LIVE_CUDA) != 0, gpu_here);
        if (skip) {
            cp_str_copy(f->libraries.load_skip, sizeof f->libraries.load_skip, skip);
        } else if (probes.n < 4) {
            probes.blocks[probes.n] = CP_KV_LIBS;
            cp_probe_start(&probes.jobs[probes.n++], libs_child, &f->libraries, "libs.end ok");
        }
    }
    /* level 2's library runs, in a child beside the libcuda one: they need
     * a GPU, so they go wherever libcuda is asked live (a replay with --live
     * cuda too, then by soname: the snapshot's paths are another machine's) */
    cp_libs_l2_arg l2arg = { &f->libraries, !o->from_dir && cp_fs_is_live(s->fs) };
    if (o->level >= 2 && (live & CP_LIVE_CUDA) && probes.n < 4) {
        cp_libs_l2_facts_init(&f->libs_l2);
        f->libs_l2.level = o->level;
        probes.blocks[probes.n] = CP_KV_LIBL2;
        cp_probe_start(&probes.jobs[probes.n++], cp_libs_l2_child, &l2arg, "libl2.end ok");
    }
    /* a snapshot carries the frameworks' GPU code in its answers: the
     * libraries it was read from are too big to keep */
    if (!(answered & CP_KV_FW)) {
        cp_frameworks_observe(s->fs, py, &f->frameworks);
        cp_frameworks_resolve_libs(s->fs, &f->host, &f->libraries, &f->frameworks);
    }
    free(py);
    if (probes.n) probe_finish(&probes, f, probe_deadline_ms(o->timeout_ms), s->unreaped);
    /* level 2 names who holds a GPU's memory */
    if (o->level >= 2) cp_host_read_gpu_procs(s->fs, &f->nvml);
    *out = s;
    return 0;
}

/* The session's facts. */
const cp_facts *cp_session_facts(const cp_session *s)
{
    return &s->f;
}

/* 1 when dir does not exist, 2 when it is an empty folder (links
 * followed: the user named it), 0 when it is anything else, -1 with errno
 * when it cannot be told. */
static int dir_is_empty_or_missing(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0) return errno == ENOENT ? 1 : -1;
    if (!S_ISDIR(st.st_mode)) return 0;
    DIR *d = opendir(dir);
    if (!d) return -1;
    int empty = 1;
    struct dirent *de;
    errno = 0;
    while (empty && (de = readdir(d)) != NULL)
        empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
    int e = errno;
    closedir(d);
    if (e) { errno = e; return -1; }
    return empty ? 2 : 0;
}

/* The folder above dir as written ("." for a bare name), into out. */
static void parent_of(const char *dir, char *out, size_t cap)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    while (n > 0 && dir[n - 1] != '/') n--;
    while (n > 1 && dir[n - 1] == '/') n--;
    if (n == 0) snprintf(out, cap, ".");
    else snprintf(out, cap, "%.*s", (int)n, dir);
}

/* Write root/ and answers.txt into the fresh folder tmp.  Returns 0, or -1
 * with err saying which of the snapshot's files could not be written. */
static int write_snapshot_files(const cp_session *s, const char *tmp, char *err, size_t errcap)
{
    char path[CP_PATH_MAX + 160], why[160];
    snprintf(path, sizeof path, "%s/root", tmp);
    if (mkdir(path, 0700) != 0) {
        cp_str_errno(errno, why, sizeof why);
        snprintf(err, errcap, "cannot create the snapshot's folder root/: %s", why);
        return -1;
    }
    if (cp_fs_write_snapshot(s->fs, path, err, errcap) != 0) return -1;
    cp_buf b = { 0 };
    cp_buf_printf(&b, "# cuprobe %s snapshot answers: what the driver, NVML and the OS said\n",
                  cp_version());
    cp_kv_put_str(&b, CP_KV_BLOCKS_KEY, CP_KV_BLOCKS);
    cp_facts_put_meta(&b, &s->f);
    cp_facts_put_host(&b, &s->f.host, 1);
    cp_facts_put_cuda(&b, &s->f.cuda);
    cp_facts_put_nvml(&b, &s->f.nvml);
    cp_facts_put_frameworks(&b, &s->f.frameworks);
    cp_facts_put_libs(&b, &s->f.libraries);
    cp_facts_put_libs_l2(&b, &s->f.libs_l2);
    snprintf(path, sizeof path, "%s/%s", tmp, ANSWERS_FILE);
    int rc = b.failed ? -ENOMEM : cp_fs_write_file(s->fs, path, b.data, b.len, 0600);
    cp_buf_free(&b);
    if (rc) {
        cp_str_errno(-rc, why, sizeof why);
        snprintf(err, errcap, "cannot write the snapshot's file %s: %s", ANSWERS_FILE, why);
        return -1;
    }
    return 0;
}

/* Write a snapshot folder; see cuprobe.h.  A missing dir is written as a
 * temporary folder beside it and renamed to dir; an empty one gets a
 * temporary folder inside it whose two entries are renamed up. */
int cp_snapshot_write(const cp_session *s, const char *dir, char *err, size_t errcap)
{
    char tmp[CP_PATH_MAX + 64], where[CP_PATH_MAX + 8], why[160], inner[CP_PATH_MAX + 512] = "";
    if (err && errcap) err[0] = '\0';
    if (!dir || !*dir) {
        snprintf(err, errcap, "cannot write a snapshot: no folder named");
        return -1;
    }
    int e = dir_is_empty_or_missing(dir);
    if (e <= 0) {
        cp_str_errno(errno, why, sizeof why);
        snprintf(err, errcap, "cannot write snapshot to '%s': %s", dir,
                 e < 0 ? why : "it exists and is not an empty folder");
        return -1;
    }
    if (e == 1) parent_of(dir, where, sizeof where);
    else snprintf(where, sizeof where, "%s", dir);
    if (snprintf(tmp, sizeof tmp, "%s/.cuprobe-snapshot-XXXXXX", where) >= (int)sizeof tmp) {
        snprintf(err, errcap, "cannot write snapshot to '%s': the name is too long", dir);
        return -1;
    }
    if (!mkdtemp(tmp)) {                              /* mode 0700 */
        cp_str_errno(errno, why, sizeof why);
        snprintf(err, errcap, "cannot create snapshot '%s': %s", dir, why);
        return -1;
    }
    int rc = write_snapshot_files(s, tmp, inner, sizeof inner);
    if (rc == 0 && e == 1) {
        if (rename(tmp, dir) != 0) {
            cp_str_errno(errno, why, sizeof why);
            snprintf(inner, sizeof inner, "cannot rename its temporary folder to it: %s", why);
            rc = -1;
        }
    } else if (rc == 0) {
        char from[CP_PATH_MAX + 96], to[CP_PATH_MAX + 32];
        snprintf(from, sizeof from, "%s/root", tmp);
        snprintf(to, sizeof to, "%s/root", dir);
        rc = rename(from, to);
        if (rc == 0) {
            snprintf(from, sizeof from, "%s/%s", tmp, ANSWERS_FILE);
            snprintf(to, sizeof to, "%s/%s", dir, ANSWERS_FILE);
            if (rename(from, to) != 0) {
                int saved = errno;
                snprintf(to, sizeof to, "%s/root", dir);
                cp_fs_remove_tree(to);
                errno = saved;
                rc = -1;
            }
        }
        if (rc) {
            cp_str_errno(errno, why, sizeof why);
            snprintf(inner, sizeof inner, "cannot move its files into place: %s", why);
        } else if (rmdir(tmp) != 0) {
            cp_str_errno(errno, why, sizeof why);
            snprintf(inner, sizeof inner, "cannot remove its temporary folder '%s': %s", tmp, why);
            rc = -1;
        }
    }
    if (rc) {
        cp_fs_remove_tree(tmp);
        snprintf(err, errcap, "cannot write snapshot '%s': %s; nothing was left behind", dir, inner);
        return -1;
    }
    return 0;
}

/* Free a session. */
void cp_session_free(cp_session *s)
{
    if (!s) return;
    cp_probe_reap(s->unreaped, 4, CP_PROBE_REAP_MS);
    cp_fs_close(s->fs);
    free(s);
}
