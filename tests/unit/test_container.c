/* Containers and cgroups: the cgroup parser and the marker-file reader. */
#include "test.h"
#include "host/host.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define S(lit) lit, sizeof(lit) - 1

static cp_container c;

static void fresh(void)
{
    memset(&c, 0, sizeof c);
    c.in_container = CP_TRI_UNKNOWN;
}

static void test_v2_plain(void)
{
    fresh();
    cp_parse_cgroup(S("0::/process_api/core\n"), &c);    /* the H200 capture */
    CHECK_I64(c.cgroup_version, 2);
    CHECK_STR(c.cgroup_path, "/process_api/core");
    CHECK_I64(c.in_container, CP_TRI_UNKNOWN);
    CHECK_STR(c.kind, "");

    fresh();
    cp_parse_cgroup(S("0::/user.slice/user-1000.slice/session-3.scope"), &c);
    CHECK_I64(c.cgroup_version, 2);
    CHECK_STR(c.cgroup_path, "/user.slice/user-1000.slice/session-3.scope");
}

static void test_v1_docker(void)
{
    fresh();
    cp_parse_cgroup(S("12:pids:/docker/4f1c2a\n"
                      "11:memory:/docker/4f1c2a\n"
                      "10:cpu,cpuacct:/docker/4f1c2a\n"
                      "1:name=systemd:/docker/4f1c2a\n"
                      "0::/system.slice/containerd.service\n"), &c);
    CHECK_I64(c.cgroup_version, 1);
    CHECK_STR(c.cgroup_path, "/docker/4f1c2a");
    CHECK_I64(c.in_container, CP_YES);
    CHECK_STR(c.kind, "docker");
    CHECK_STR(c.evidence, "cgroup '/docker/4f1c2a'");

    fresh();
    cp_parse_cgroup(S("0::/system.slice/docker-4f1c2a.scope\n"), &c);
    CHECK_STR(c.kind, "docker");

    /* the host's own docker daemon is not a container */
    fresh();
    cp_parse_cgroup(S("0::/system.slice/docker.service\n"), &c);
    CHECK_I64(c.in_container, CP_TRI_UNKNOWN);
}

static void test_kubernetes_wins(void)
{
    fresh();
    cp_parse_cgroup(S("0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod12.slice/"
                      "cri-containerd-ab12.scope\n"), &c);
    CHECK_I64(c.in_container, CP_YES);
    CHECK_STR(c.kind, "kubernetes");
    CHECK_I64(c.cgroup_version, 2);

    fresh();
    cp_parse_cgroup(S("11:memory:/kubepods/besteffort/pod1/0123\n2:cpu:/docker/x\n"), &c);
    CHECK_STR(c.kind, "kubernetes");

    fresh();
    cp_parse_cgroup(S("0::/machine.slice/libpod-9a8b.scope/container\n"), &c);
    CHECK_STR(c.kind, "podman");
    fresh();
    cp_parse_cgroup(S("0::/lxc.payload.web/init.scope\n"), &c);
    CHECK_STR(c.kind, "lxc");
    fresh();
    cp_parse_cgroup(S("0::/system.slice/cri-containerd-12.scope\n"), &c);
    CHECK_STR(c.kind, "containerd");
    fresh();
    cp_parse_cgroup(S("0::/system.slice/containerd.service\n"), &c);
    CHECK_I64(c.in_container, CP_TRI_UNKNOWN);
}

static void test_garbage(void)
{
    fresh();
    cp_parse_cgroup(S("garbage\nno colons here\n"), &c);
    CHECK_I64(c.cgroup_version, CP_UNKNOWN);
    CHECK_STR(c.cgroup_path, "");
    cp_parse_cgroup(S(""), &c);
    CHECK_I64(c.cgroup_version, CP_UNKNOWN);
    cp_parse_cgroup(NULL, 3, &c);
    CHECK_I64(c.cgroup_version, CP_UNKNOWN);
    cp_parse_cgroup(S("0:"), &c);
    CHECK_I64(c.cgroup_version, CP_UNKNOWN);
    cp_parse_cgroup(S("0::"), &c);
    CHECK_I64(c.cgroup_version, 2);
    CHECK_STR(c.cgroup_path, "");
    cp_parse_cgroup(S("0::/a\0b/docker/x\n"), &c);
    CHECK_STR(c.cgroup_path, "/a");
    CHECK_STR(c.kind, "docker");
    /* truncated in the middle of the path */
    fresh();
    cp_parse_cgroup("0::/docker/abc\n", 8, &c);
    CHECK_STR(c.cgroup_path, "/dock");
    CHECK_I64(c.in_container, CP_TRI_UNKNOWN);
    /* overlong paths are cut */
    static char big[10000];
    memset(big, 'a', sizeof big);
    memcpy(big, "0::/", 4);
    memcpy(big + 9000, "kubepods", 8);
    cp_parse_cgroup(big, sizeof big, &c);
    CHECK_I64((long long)strlen(c.cgroup_path), sizeof c.cgroup_path - 1);
    CHECK_STR(c.kind, "kubernetes");
    CHECK(strlen(c.evidence) < sizeof c.evidence);
    cp_parse_cgroup(S("x"), NULL);
}

static void test_reader_fixtures(void)
{
    cp_fs *fs = cp_fs_open("tests/fixtures/h200-1gpu/root", false);
    CHECK_I64(cp_host_read_container(fs, &c), 0);
    CHECK_I64(c.cgroup_version, 2);
    CHECK_STR(c.cgroup_path, "/process_api/b63e271f230417149ad61e6d0537d8e7");
    CHECK_I64(c.in_container, CP_NO);
    CHECK_STR(c.kind, "");
    cp_fs_close(fs);

    fs = cp_fs_open("tests/fixtures/no-such-root", false);
    CHECK_I64(cp_host_read_container(fs, &c), -ENOENT);
    CHECK_I64(c.in_container, CP_TRI_UNKNOWN);
    CHECK_I64(c.cgroup_version, CP_UNKNOWN);
    cp_fs_close(fs);
}

/* Build a tiny root with the given files ("" content = empty file). */
static void put(const char *root, const char *rel, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s%s", root, rel);
    for (char *s = p + strlen(root) + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0755);
            *s = '/';
        }
    FILE *f = fopen(p, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_reader_markers(void)
{
    char dir[] = "/tmp/cuprobe-ctr-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    put(dir, "/.dockerenv", "");
    put(dir, "/proc/self/cgroup", "0::/\n");
    cp_fs *fs = cp_fs_open(dir, false);
    CHECK_I64(cp_host_read_container(fs, &c), 0);
    CHECK_I64(c.in_container, CP_YES);
    CHECK_STR(c.kind, "docker");
    CHECK_STR(c.evidence, "/.dockerenv");
    CHECK_STR(c.cgroup_path, "/");
    cp_fs_close(fs);

    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    strcpy(dir, "/tmp/cuprobe-ctr-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    put(dir, "/run/.containerenv", "engine=\"podman-4.9\"\n");
    put(dir, "/proc/self/cgroup", "0::/\n");
    fs = cp_fs_open(dir, false);
    CHECK_I64(cp_host_read_container(fs, &c), 0);
    CHECK_STR(c.kind, "podman");
    CHECK_STR(c.evidence, "/run/.containerenv");
    cp_fs_close(fs);

    /* a private cgroup namespace shows "/": no answer either way */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    strcpy(dir, "/tmp/cuprobe-ctr-XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    put(dir, "/proc/self/cgroup", "0::/\n");
    put(dir, "/proc/1/cgroup", "0::/kubepods.slice/pod1\n");
    fs = cp_fs_open(dir, false);
    CHECK_I64(cp_host_read_container(fs, &c), 0);
    CHECK_STR(c.kind, "kubernetes");
    CHECK_STR(c.cgroup_path, "/");
    cp_fs_close(fs);
    put(dir, "/proc/1/cgroup", "0::/\n");
    fs = cp_fs_open(dir, false);
    CHECK_I64(cp_host_read_container(fs, &c), 0);
    CHECK_I64(c.in_container, CP_TRI_UNKNOWN);
    cp_fs_close(fs);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

static void test_getenv(void)
{
    cp_host_facts *h = calloc(1, sizeof *h);
    snprintf(h->env[0].name, sizeof h->env[0].name, "CUDA_VISIBLE_DEVICES");
    snprintf(h->env[0].value, sizeof h->env[0].value, "0,1");
    snprintf(h->env[1].name, sizeof h->env[1].name, "PATH");
    h->nenv = 2;
    CHECK_STR(cp_host_getenv(h, "CUDA_VISIBLE_DEVICES"), "0,1");
    CHECK_STR(cp_host_getenv(h, "PATH"), "");
    CHECK(cp_host_getenv(h, "CUDA_VISIBLE") == NULL);
    CHECK(cp_host_getenv(h, "HOME") == NULL);
    CHECK(cp_host_getenv(NULL, "PATH") == NULL);
    CHECK(cp_host_getenv(h, NULL) == NULL);
    h->nenv = 100000;                     /* a corrupt count stays in bounds */
    CHECK(cp_host_getenv(h, "NOPE") == NULL);
    free(h);
}

int main(void)
{
    RUN(test_v2_plain);
    RUN(test_v1_docker);
    RUN(test_kubernetes_wins);
    RUN(test_garbage);
    RUN(test_reader_fixtures);
    RUN(test_reader_markers);
    RUN(test_getenv);
    return TEST_END();
}
