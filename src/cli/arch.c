/*
 * cuprobe arch [--sm CC]... [--json] FILE|DIR...: which GPU code each binary
 * carries, and whether the target GPUs (--sm, else this machine's) can run
 * it natively, only through the driver's PTX JIT, or not at all.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/arch.h"
#include "cuprobe/cuprobe.h"

/* Directory trees deeper than this are loops or hostile; stop there. */
#define MAX_DEPTH 64

typedef struct {
    int major, minor;
    int64_t driver_cuda;      /* 0: unknown, PTX is judged by the GPU alone */
    char label[192];          /* "GPU 0,1 NVIDIA H200" or "--sm 90" */
} arch_target;

typedef struct {
    arch_target t[CP_MAX_GPUS];
    int nt;
    int json;
    int files_shown;          /* JSON: a comma before every file but the first */
    int no_code;              /* files found in folders that carry no GPU code */
    int worst;                /* exit code so far */
} arch_run;

static void worse(arch_run *r, int code)
{
    if (code > r->worst) r->worst = code;
}

/* "90", "90a", "9.0", "sm_90", "12.1" -> 9.0; -1 when it is none of those. */
static int parse_sm(const char *v, int *major, int *minor)
{
    if (strncmp(v, "sm_", 3) == 0) v += 3;
    else if (strncmp(v, "compute_", 8) == 0) v += 8;
    int n = 0, a = 0, b = 0;
    if (strchr(v, '.')) {
        if (sscanf(v, "%3d.%1d%n", &a, &b, &n) != 2) return -1;
    } else {
        int sm;
        if (sscanf(v, "%4d%n", &sm, &n) != 1 || n < 2) return -1;
        a = sm / 10;
        b = sm % 10;
    }
    if (v[n] == 'a' || v[n] == 'f') n++;  /* a GPU is a CC: the variant says nothing more */
    if (v[n] != '\0' || a < 1 || a > 99 || b < 0 || b > 9) return -1;
    *major = a;
    *minor = b;
    return 0;
}

/* The GPUs of this machine, one target per distinct name and CC.  Returns
 * the number found (0 without a GPU or a working driver). */
static int machine_targets(arch_run *r, int timeout_ms)
{
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    cp_session *s;
    char err[512];
    if (timeout_ms > 0) o.timeout_ms = timeout_ms;
    if (cp_observe(&o, &s, err, sizeof err) != 0)
        return 0;
    const cp_cuda_facts *cf = &cp_session_facts(s)->cuda;
    int64_t drv = CP_KNOWN(cf->driver_version) ? cf->driver_version : 0;
    for (int i = 0; i < cf->ndev && i < CP_MAX_GPUS; i++) {
        const cp_cuda_device *d = &cf->dev[i];
        if (!CP_KNOWN(d->cc_major) || !CP_KNOWN(d->cc_minor)) continue;
        int j = 0;
        while (j < r->nt && !(r->t[j].major == d->cc_major && r->t[j].minor == d->cc_minor &&
                              strstr(r->t[j].label, d->name)))
            j++;
        if (j < r->nt) {  /* one more GPU of a kind already listed: "GPU 0,1 NAME" */
            char *sp = strchr(r->t[j].label + 4, ' ');
            char tail[192];
            snprintf(tail, sizeof tail, "%s", sp ? sp : "");
            if (sp) snprintf(sp, sizeof r->t[j].label - (size_t)(sp - r->t[j].label), ",%d%s", d->ordinal, tail);
            continue;
        }
        arch_target *t = &r->t[r->nt++];
        t->major = (int)d->cc_major;
        t->minor = (int)d->cc_minor;
        t->driver_cuda = drv;
        snprintf(t->label, sizeof t->label, "GPU %d %s", d->ordinal, d->name[0] ? d->name : "(unnamed)");
    }
    cp_session_free(s);
    return r->nt;
}

/* A JSON string: quotes, backslashes and control bytes escaped; other bytes
 * (UTF-8 file names) as they are. */
static void json_str(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') printf("\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f) printf("\\u%04x", *p);
        else putchar(*p);
    }
    putchar('"');
}

static int verdict_code(cp_run_verdict v)
{
    return v == CP_RUN_PTX_JIT ? CP_EXIT_WARN : v == CP_RUN_CANNOT ? CP_EXIT_FAIL : 0;
}

/* "sm_75 sm_80 x3" or "compute_120 (PTX 8.8)" lists for one kind. */
static void code_list(const cp_arch_summary *s, cp_code_kind kind, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->ncodes && n + 1 < cap; i++) {
        const cp_code *c = &s->codes[i];
        if (c->kind != kind) continue;
        char nm[32], isa[32] = "", cnt[32] = "";
        if (kind == CP_CODE_PTX) snprintf(isa, sizeof isa, " (PTX %d.%d)", c->ptx_major, c->ptx_minor);
        if (c->count > 1) snprintf(cnt, sizeof cnt, " x%lld", (long long)c->count);
        int w = snprintf(buf + n, cap - n, "%s%s%s%s", n ? " " : "", cp_code_name(c, nm, sizeof nm), isa, cnt);
        if (w < 0) break;
        n += (size_t)w < cap - n ? (size_t)w : cap - n - 1;
    }
    if (!n) snprintf(buf, cap, "none");
}

static void print_text(arch_run *r, const char *path, const cp_arch_summary *s)
{
    char list[2048];
    int64_t zs = 0, zp = 0;
    for (int i = 0; i < s->ncodes; i++)
        *(s->codes[i].kind == CP_CODE_SASS ? &zs : &zp) += s->codes[i].compressed;
    printf("%s (%s, %lld fatbin container%s, %lld entr%s)\n", path, s->is_elf ? "ELF" : "fatbin",
           (long long)s->containers, s->containers == 1 ? "" : "s", (long long)s->entries,
           s->entries == 1 ? "y" : "ies");
    if (s->entries == 0) {
        printf("  no GPU code\n");
        return;
    }
    code_list(s, CP_CODE_SASS, list, sizeof list);
    printf("  SASS: %s\n", list);
    code_list(s, CP_CODE_PTX, list, sizeof list);
    printf("  PTX:  %s\n", list);
    printf("  compressed entries: %lld of %lld (SASS %lld, PTX %lld)\n", (long long)(zs + zp),
           (long long)s->entries, (long long)zs, (long long)zp);
    if (s->unknown_entries)
        printf("  entries of unknown kind: %lld\n", (long long)s->unknown_entries);
    for (int i = 0; i < r->nt; i++) {
        char why[512];
        cp_run_verdict v = cp_arch_verdict(s, r->t[i].major, r->t[i].minor, r->t[i].driver_cuda,
                                           why, sizeof why);
        worse(r, verdict_code(v));
        printf("  on CC %d.%d (%s): %s\n    %s\n", r->t[i].major, r->t[i].minor, r->t[i].label,
               cp_run_verdict_name(v), why);
    }
}

static void print_json_codes(const cp_arch_summary *s)
{
    printf("\"codes\":[");
    for (int i = 0; i < s->ncodes; i++) {
        const cp_code *c = &s->codes[i];
        char nm[32], v[2] = { c->variant, 0 };
        printf("%s{\"name\":\"%s\",\"kind\":\"%s\",\"sm\":%d,\"variant\":", i ? "," : "",
               cp_code_name(c, nm, sizeof nm), c->kind == CP_CODE_SASS ? "sass" : "ptx", c->sm);
        if (c->variant) printf("\"%s\"", v); else printf("null");
        if (c->kind == CP_CODE_PTX) printf(",\"ptx_isa\":\"%d.%d\"", c->ptx_major, c->ptx_minor);
        else printf(",\"ptx_isa\":null");
        printf(",\"count\":%lld,\"compressed\":%lld,\"bytes\":%lld}", (long long)c->count,
               (long long)c->compressed, (long long)c->bytes);
    }
    printf("]");
}

static void print_json(arch_run *r, const char *path, const cp_arch_summary *s, const char *err)
{
    printf("%s\n{\"path\":", r->files_shown++ ? "," : "");
    json_str(path);
    if (err) {
        printf(",\"error\":");
        json_str(err);
        printf("}");
        return;
    }
    printf(",\"format\":\"%s\",\"containers\":%lld,\"entries\":%lld,\"unknown_entries\":%lld,",
           s->is_elf ? "elf" : "fatbin", (long long)s->containers, (long long)s->entries,
           (long long)s->unknown_entries);
    print_json_codes(s);
    printf(",\"verdicts\":[");
    for (int i = 0; i < r->nt; i++) {
        char why[512];
        cp_run_verdict v = cp_arch_verdict(s, r->t[i].major, r->t[i].minor, r->t[i].driver_cuda,
                                           why, sizeof why);
        worse(r, verdict_code(v));
        printf("%s{\"target\":%d,\"verdict\":\"%s\",\"why\":", i ? "," : "", i, cp_run_verdict_name(v));
        json_str(why);
        printf("}");
    }
    printf("],\"error\":null}");
}

/* Scan one file.  Files met in a folder (explicit == 0) that carry no GPU
 * code are only counted: a lib folder is mostly host code. */
static void scan_file(arch_run *r, const char *path, int explicit)
{
    cp_arch_summary s;
    char err[768];
    if (cp_arch_scan(path, &s, err, sizeof err) != 0) {
        fprintf(stderr, "cuprobe: %s\n", err);
        worse(r, CP_EXIT_ERROR);
        if (r->json) print_json(r, path, &s, err);
        return;
    }
    if (!explicit && s.entries == 0) {
        r->no_code++;
        return;
    }
    if (r->json) print_json(r, path, &s, NULL);
    else print_text(r, path, &s);
}

/* Does the file start like an ELF file or a fatbin?  -1 when unreadable. */
static int has_magic(const char *path)
{
    unsigned char m[4];
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return -1;
    ssize_t n = read(fd, m, sizeof m);
    int e = errno;
    close(fd);
    if (n < 0) { errno = e; return -1; }
    return n == 4 && (memcmp(m, "\177ELF", 4) == 0 || memcmp(m, "\x50\xed\x55\xba", 4) == 0);
}

/* Every regular ELF or fatbin file under dir, in name order.  Symbolic links
 * are not followed: a library folder links each file two or three times, and
 * a linked folder could loop. */
static void walk_dir(arch_run *r, const char *dir, int depth)
{
    struct dirent **list;
    int n = scandir(dir, &list, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "cuprobe: cannot read folder '%s': %s\n", dir, strerror(errno));
        worse(r, CP_EXIT_ERROR);
        return;
    }
    size_t dl = strlen(dir);
    const char *sep = dl && dir[dl - 1] == '/' ? "" : "/";
    for (int i = 0; i < n; i++) {
        const char *name = list[i]->d_name;
        char path[PATH_MAX];
        struct stat st;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
        if ((size_t)snprintf(path, sizeof path, "%s%s%s", dir, sep, name) >= sizeof path) {
            fprintf(stderr, "cuprobe: path too long: '%s%s%s'\n", dir, sep, name);
            worse(r, CP_EXIT_ERROR);
            continue;
        }
        if (lstat(path, &st) != 0) continue;  /* gone since the listing */
        if (S_ISDIR(st.st_mode)) {
            if (depth < MAX_DEPTH) walk_dir(r, path, depth + 1);
            else fprintf(stderr, "cuprobe: '%s': deeper than %d folders, not scanned\n", path, MAX_DEPTH);
        } else if (S_ISREG(st.st_mode)) {
            int m = has_magic(path);
            if (m < 0) {
                fprintf(stderr, "cuprobe: cannot open '%s': %s\n", path, strerror(errno));
                worse(r, CP_EXIT_ERROR);
            } else if (m) {
                scan_file(r, path, 0);
            }
        }
    }
    for (int i = 0; i < n; i++) free(list[i]);
    free(list);
}

static void print_targets_json(const arch_run *r)
{
    printf("{\"targets\":[");
    for (int i = 0; i < r->nt; i++) {
        printf("%s{\"label\":", i ? "," : "");
        json_str(r->t[i].label);
        printf(",\"cc\":\"%d.%d\",\"driver_cuda\":", r->t[i].major, r->t[i].minor);
        if (r->t[i].driver_cuda > 0)
            printf("\"%lld.%lld\"}", (long long)(r->t[i].driver_cuda / 1000),
                   (long long)(r->t[i].driver_cuda % 1000 / 10));
        else
            printf("null}");
    }
    printf("],\"files\":[");
}

/* Parse the command line into r and the list of paths.  Returns 0, or the
 * exit code of a usage error (already reported) or of --help. */
static int parse_args(int argc, char **argv, arch_run *r, const char **paths, int *npaths,
                      int *timeout_ms)
{
    const char *v;
    for (int i = 0; i < argc; i++) {
        int m;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            cli_print_help(stdout, "arch");
            return -1;
        }
        if ((m = opt_match(argc, argv, &i, "--sm", &v)) > 0) {
            arch_target *t = &r->t[r->nt];
            if (r->nt >= CP_MAX_GPUS) return cli_usage_error("at most %d --sm targets", CP_MAX_GPUS);
            if (parse_sm(v, &t->major, &t->minor) != 0)
                return cli_usage_error("--sm takes a compute capability like 90, 9.0 or 90a, not '%s'", v);
            t->driver_cuda = 0;
            snprintf(t->label, sizeof t->label, "--sm %s", v);
            r->nt++;
        } else if (m < 0) return CP_EXIT_USAGE;
        else if ((m = opt_match(argc, argv, &i, "--timeout", &v)) > 0) {
            if ((*timeout_ms = opt_seconds_ms(v)) < 0)
                return cli_usage_error("--timeout takes seconds (0 < s <= 3600), not '%s'", v);
        } else if (m < 0) return CP_EXIT_USAGE;
        else if (opt_match(argc, argv, &i, "--json", NULL) > 0) r->json = 1;
        else if (strcmp(argv[i], "--") == 0) {
            while (++i < argc) paths[(*npaths)++] = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error("unknown option '%s'", argv[i]);
        else paths[(*npaths)++] = argv[i];
    }
    if (*npaths == 0)
        return cli_usage_error("arch needs a file or folder: cuprobe arch [--sm 90] FILE|DIR...");
    return 0;
}

/* `cuprobe arch`: see the top of this file and cli.h.  Exit 0 when every
 * file runs natively on every target, 1 when some only through PTX JIT, 2
 * when some cannot run, 3 when a file could not be read, 64 on usage. */
int cmd_arch(int argc, char **argv)
{
    static arch_run r;
    int npaths = 0, timeout_ms = 0;
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    if (!paths) return CP_EXIT_ERROR;
    memset(&r, 0, sizeof r);
    int rc = parse_args(argc, argv, &r, paths, &npaths, &timeout_ms);
    if (rc != 0) {
        free(paths);
        return rc < 0 ? 0 : rc;
    }
    int gpu_here = r.nt > 0 || machine_targets(&r, timeout_ms) > 0;
    if (r.json) print_targets_json(&r);
    for (int i = 0; i < npaths; i++) {
        struct stat st;
        if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) walk_dir(&r, paths[i], 0);
        else scan_file(&r, paths[i], 1);
    }
    const char *note = gpu_here ? NULL : "no GPU here: give --sm to judge";
    if (r.json) {
        printf("\n],\"files_without_gpu_code\":%d,\"note\":", r.no_code);
        if (note) json_str(note); else printf("null");
        printf(",\"exit_code\":%d}\n", r.worst);
    } else {
        if (r.no_code)
            printf("%d other ELF file%s carr%s no GPU code\n", r.no_code, r.no_code == 1 ? "" : "s",
                   r.no_code == 1 ? "ies" : "y");
        if (note) printf("%s\n", note);
    }
    free(paths);
    return r.worst;
}
