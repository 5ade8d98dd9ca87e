/* Reading a trace folder: every *.cptrace file in it, one per process. */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuprobe/trace.h"
#include "util/alloc.h"
#include "util/buf.h"

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int read_file(const char *path, cp_buf *b)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) cp_buf_append(b, chunk, got);
    int bad = ferror(f) || b->failed;
    fclose(f);
    return bad ? -1 : 0;
}

/* See trace.h. */
void cp_trace_free_all(cp_trace *t, size_t n)
{
    for (size_t i = 0; i < n; i++) cp_trace_free(&t[i]);
    free(t);
}

/* See trace.h. */
int cp_trace_load_dir(const char *dir, cp_trace **out, char *err, size_t errn)
{
    *out = NULL;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errn, "cannot open the trace folder");
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = -1;
    struct dirent *e;
    size_t sl = strlen(CP_TRACE_SUFFIX);
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l <= sl || strcmp(e->d_name + l - sl, CP_TRACE_SUFFIX) != 0) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **p = cp_realloc(names, cap * sizeof *p);
            if (!p) goto oom;
            names = p;
        }
        if (!(names[n] = cp_strdup(e->d_name))) goto oom;
        n++;
    }
    if (n) qsort(names, n, sizeof *names, by_name);
    cp_trace *t = n ? cp_calloc(n, sizeof *t) : NULL;
    if (n && !t) goto oom;
    for (size_t i = 0; i < n; i++) {
        cp_buf b = { 0 }, path = { 0 };
        cp_buf_printf(&path, "%s/%s", dir, names[i]);
        char why[128];
        int bad = path.failed || read_file(path.data, &b) < 0;
        if (bad) snprintf(why, sizeof why, "cannot read it");
        else if (cp_trace_parse((const unsigned char *)b.data, b.len, &t[i], why, sizeof why) < 0) bad = 1;
        cp_buf_free(&b);
        cp_buf_free(&path);
        if (!bad && t[i].nstacks) {          /* where in the program: the perf map beside it, then the names */
            cp_buf map = { 0 }, mpath = { 0 };
            cp_buf_printf(&mpath, "%s/%" PRIu32 ".perf.map", dir, t[i].pid);
            if (!mpath.failed && read_file(mpath.data, &map) == 0 && map.len &&
                cp_trace_perfmap_parse(&t[i], map.data, map.len) < 0)
                bad = 1;
            if (!bad && cp_trace_symbolise(&t[i]) < 0) bad = 1;
            if (bad) snprintf(why, sizeof why, "out of memory");
            cp_buf_free(&map);
            cp_buf_free(&mpath);
        }
        if (bad) {
            snprintf(err, errn, "%s: %s", names[i], why);
            cp_trace_free_all(t, n);
            goto done;
        }
    }
    *out = t;
    rc = (int)n;
    goto done;
oom:
    snprintf(err, errn, "out of memory");
done:
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    closedir(d);
    return rc;
}
