/*
 * Who a GPU's compute processes are: /proc/PID/comm and the container its
 * /proc/PID/cgroup names (the same cgroup parser as cuprobe's own
 * container detection), for level 2's memory-headroom check.
 */
#include "host/host.h"
#include "util/str.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The container a cgroup path names, "docker 4f1c2a3b5c6d" style (see
 * host.h). */
void cp_parse_container_id(const char *text, size_t len, char *out, size_t cap)
{
    if (!out || !cap) return;
    out[0] = '\0';
    if (!text) return;
    cp_container c;
    memset(&c, 0, sizeof c);
    c.in_container = CP_TRI_UNKNOWN;
    cp_parse_cgroup(text, len, &c);
    if (c.in_container != CP_YES) return;
    /* the longest run of hex digits in the path is the container's id */
    const char *p = c.cgroup_path, *best = NULL;
    size_t bestn = 0;
    for (size_t i = 0; p[i];) {
        size_t n = 0;
        while (p[i + n] && isxdigit((unsigned char)p[i + n])) n++;
        if (n > bestn) { best = p + i; bestn = n; }
        i += n ? n : 1;
    }
    if (bestn >= 12) snprintf(out, cap, "%s %.12s", c.kind, best);
    else snprintf(out, cap, "%s", c.kind);
}

/* The pod UID of a kubepods cgroup path; see host.h. */
void cp_parse_pod_uid(const char *text, size_t len, char *out, size_t cap)
{
    if (!out || !cap) return;
    out[0] = '\0';
    if (!text) return;
    for (size_t i = 0; i + 8 < len; i++) {
        if (strncmp(text + i, "kubepods", 8) != 0) continue;
        /* the first "pod" after kubepods that 36 UID characters follow */
        for (size_t j = i + 8; j + 3 + 36 <= len && text[j] != '\n'; j++) {
            if (strncmp(text + j, "pod", 3) != 0) continue;
            const char *u = text + j + 3;
            size_t k = 0;
            while (k < 36 && (isxdigit((unsigned char)u[k]) || u[k] == '-' || u[k] == '_')) k++;
            if (k == 36 && (j + 3 + 36 == len || !isxdigit((unsigned char)u[36]))) {
                char uid[37];
                for (k = 0; k < 36; k++) uid[k] = u[k] == '_' ? '-' : u[k];
                uid[36] = '\0';
                snprintf(out, cap, "%s", uid);
                return;
            }
        }
    }
}

/* One process: comm, container, pod; visible says whether /proc/PID is here. */
static void read_proc(cp_fs *fs, cp_gpu_process *p)
{
    char path[64], buf[4096];
    size_t len = 0;
    if (!CP_KNOWN(p->pid) || p->pid <= 0) return;
    snprintf(path, sizeof path, "/proc/%lld/comm", (long long)p->pid);
    p->visible = CP_NO;
    if (cp_fs_read(fs, path, buf, sizeof buf, &len) == 0) {
        p->visible = CP_YES;
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\0')) len--;
        cp_str_copy_n(p->comm, sizeof p->comm, buf, len);
    }
    snprintf(path, sizeof path, "/proc/%lld/cgroup", (long long)p->pid);
    if (cp_fs_read(fs, path, buf, sizeof buf, &len) == 0) {
        p->visible = CP_YES;
        cp_parse_container_id(buf, len, p->container, sizeof p->container);
        cp_parse_pod_uid(buf, len, p->pod_uid, sizeof p->pod_uid);
    }
}

/* Name and container of one sample's processes; see host.h. */
void cp_host_read_sample_procs(cp_fs *fs, cp_nvml_sample *s)
{
    for (int i = 0; i < s->nprocs && i < CP_MAX_PROCS; i++)
        read_proc(fs, &s->procs[i]);
}

/* Name and container of every compute process NVML listed; see host.h. */
void cp_host_read_gpu_procs(cp_fs *fs, cp_nvml_facts *n)
{
    for (int d = 0; d < n->ndev && d < CP_MAX_GPUS; d++)
        cp_host_read_sample_procs(fs, &n->dev[d].sample);
}
