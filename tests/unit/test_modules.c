/* Kernel layer: /proc/modules, /proc/devices and the /dev/nvidia* nodes. */
#include "test.h"
#include "host/host.h"

#include <errno.h>
#include <stdlib.h>

#define S(lit) lit, sizeof(lit) - 1

/* Captured on the H200 machines: a kernel without module unloading prints
 * "-" for refcount and users. */
static const char h200_modules[] =
    "nvidia_uvm 1830912 - - Live 0xffffffffc080c000 (O)\n"
    "nvidia 14299136 - - Live 0xffffffffc0400000 (O)\n";

static const char desktop_modules[] =
    "nvidia_drm 126976 8 - Live 0xffffffffc1a6d000 (POE)\n"
    "nvidia_modeset 1552384 14 nvidia_drm, Live 0xffffffffc18ee000 (POE)\n"
    "nvidia_uvm 4956160 2 - Live 0xffffffffc1400000 (POE)\n"
    "video 73728 2 i915,nvidia_modeset, Live 0xffffffffc0a7a000\n"
    "nvidia 62771200 1092 nvidia_uvm,nvidia_modeset, Live 0xffffffffc0000000 (POE)";

static void test_parse_h200(void)
{
    cp_module m[CP_MOD_COUNT];
    cp_parse_modules(S(h200_modules), m);
    CHECK_STR(m[CP_MOD_NVIDIA].name, "nvidia");
    CHECK(m[CP_MOD_NVIDIA].loaded);
    CHECK_STR(m[CP_MOD_NVIDIA].state, "Live");
    CHECK_I64(m[CP_MOD_NVIDIA].size_bytes, 14299136);
    CHECK_I64(m[CP_MOD_NVIDIA].refcount, CP_UNKNOWN);
    CHECK(m[CP_MOD_NVIDIA_UVM].loaded);
    CHECK_I64(m[CP_MOD_NVIDIA_UVM].size_bytes, 1830912);
    CHECK(!m[CP_MOD_NVIDIA_MODESET].loaded);
    CHECK_STR(m[CP_MOD_NVIDIA_MODESET].name, "nvidia_modeset");
    CHECK_STR(m[CP_MOD_NVIDIA_DRM].name, "nvidia_drm");
    CHECK(!m[CP_MOD_NOUVEAU].loaded);
    CHECK_STR(m[CP_MOD_NOUVEAU].name, "nouveau");
    CHECK_I64(m[CP_MOD_NOUVEAU].size_bytes, CP_UNKNOWN);
    CHECK_STR(m[CP_MOD_NOUVEAU].state, "");
}

static void test_parse_desktop(void)
{
    cp_module m[CP_MOD_COUNT];
    cp_parse_modules(S(desktop_modules), m);   /* no final newline */
    CHECK(m[CP_MOD_NVIDIA].loaded);
    CHECK_I64(m[CP_MOD_NVIDIA].refcount, 1092);
    CHECK_I64(m[CP_MOD_NVIDIA].size_bytes, 62771200);
    CHECK(m[CP_MOD_NVIDIA_DRM].loaded);
    CHECK_I64(m[CP_MOD_NVIDIA_DRM].refcount, 8);
    CHECK(m[CP_MOD_NVIDIA_MODESET].loaded);
    CHECK(!m[CP_MOD_NOUVEAU].loaded);
}

static void test_parse_odd(void)
{
    cp_module m[CP_MOD_COUNT];
    cp_parse_modules(S("nouveau 2904064 1 - Loading 0xffffffffc0e00000\n"), m);
    CHECK(m[CP_MOD_NOUVEAU].loaded);
    CHECK_STR(m[CP_MOD_NOUVEAU].state, "Loading");
    CHECK(!m[CP_MOD_NVIDIA].loaded);

    /* a prefix of a name is not the name; the name alone still counts */
    cp_parse_modules(S("nvidia_uvmx 1 0 - Live 0\nnvidia_\nnvidia\n"), m);
    CHECK(!m[CP_MOD_NVIDIA_UVM].loaded);
    CHECK(m[CP_MOD_NVIDIA].loaded);
    CHECK_I64(m[CP_MOD_NVIDIA].size_bytes, CP_UNKNOWN);

    /* truncated in the middle of the state, garbage sizes, NULs */
    cp_parse_modules(S("nvidia 12x 3 - Li"), m);
    CHECK_I64(m[CP_MOD_NVIDIA].size_bytes, CP_UNKNOWN);
    CHECK_I64(m[CP_MOD_NVIDIA].refcount, 3);
    CHECK_STR(m[CP_MOD_NVIDIA].state, "Li");
    cp_parse_modules(S("nvi\0dia 1 1 - Live\nnvidia_drm\t5\t0\t-\tLive\n"), m);
    CHECK(!m[CP_MOD_NVIDIA].loaded);
    CHECK(m[CP_MOD_NVIDIA_DRM].loaded);
    CHECK_I64(m[CP_MOD_NVIDIA_DRM].size_bytes, 5);

    /* an overlong state is cut to the field */
    cp_parse_modules(S("nvidia 1 1 - LiveLiveLiveLiveLiveLive 0\n"), m);
    CHECK_I64((long long)strlen(m[CP_MOD_NVIDIA].state), sizeof m[0].state - 1);

    /* an overlong line of blanks and huge numbers */
    static char big[100000];
    memset(big, ' ', sizeof big);
    memcpy(big + 50000, "nvidia 99999999999999999999999", 30);
    cp_parse_modules(big, sizeof big, m);
    CHECK(m[CP_MOD_NVIDIA].loaded);
    CHECK_I64(m[CP_MOD_NVIDIA].size_bytes, CP_UNKNOWN);

    cp_parse_modules("", 0, m);
    CHECK(!m[CP_MOD_NVIDIA].loaded);
    cp_parse_modules(NULL, 10, m);
    CHECK_STR(m[CP_MOD_NVIDIA].name, "nvidia");
    cp_parse_modules(h200_modules, 9, m);         /* "nvidia_uv" */
    CHECK(!m[CP_MOD_NVIDIA_UVM].loaded);
}

static void test_read_modules(void)
{
    cp_host_facts *h = calloc(1, sizeof *h);
    cp_fs *fs = cp_fs_open("tests/fixtures/h200-1gpu/root", false);
    CHECK_I64(cp_host_read_modules(fs, h), 0);
    CHECK(h->modules_readable);
    CHECK(h->modules[CP_MOD_NVIDIA].loaded);
    CHECK(h->modules[CP_MOD_NVIDIA_UVM].loaded);
    cp_fs_close(fs);

    fs = cp_fs_open("tests/fixtures/no-gpu/root", false);
    CHECK_I64(cp_host_read_modules(fs, h), 0);
    CHECK(h->modules_readable);
    for (int i = 0; i < CP_MOD_COUNT; i++)
        CHECK(!h->modules[i].loaded);
    cp_fs_fail_read_at(fs, 1);
    CHECK_I64(cp_host_read_modules(fs, h), -EIO);
    CHECK(!h->modules_readable);
    CHECK_STR(h->modules[CP_MOD_NVIDIA_UVM].name, "nvidia_uvm");
    cp_fs_close(fs);
    free(h);
}

/* /proc/devices as on the H200 machines: the build machine's list with the
 * NVIDIA majors of dev-stat.txt (195, 238, 241). */
static const char h200_devices[] =
    "Character devices:\n  1 mem\n  4 /dev/vc/0\n  4 tty\n 10 misc\n136 pts\n195 nvidia-frontend\n"
    "203 cpu/cpuid\n238 nvidia-uvm\n241 nvidia-caps\n254 ndctl\n\nBlock devices:\n  7 loop\n259 blkext\n";

static int64_t major_of(const cp_proc_devices *d, const char *name, bool block)
{
    for (int i = 0; i < d->n; i++)
        if (d->m[i].block == block && strcmp(d->m[i].name, name) == 0)
            return d->m[i].major;
    return CP_UNKNOWN;
}

static void test_parse_proc_devices(void)
{
    static cp_proc_devices d;
    cp_parse_proc_devices(S(h200_devices), &d);
    CHECK_I64(d.n, 12);
    CHECK_I64(d.total, 12);
    CHECK_I64(major_of(&d, "nvidia-frontend", false), 195);
    CHECK_I64(major_of(&d, "nvidia-uvm", false), 238);
    CHECK_I64(major_of(&d, "nvidia-caps", false), 241);
    CHECK_I64(major_of(&d, "mem", false), 1);
    CHECK_I64(major_of(&d, "/dev/vc/0", false), 4);
    CHECK_I64(major_of(&d, "loop", true), 7);
    CHECK_I64(major_of(&d, "loop", false), CP_UNKNOWN);
    CHECK_I64(major_of(&d, "blkext", true), 259);

    /* lines before a section header, without a name, with a major past
     * 4095, or with junk where the major should be are skipped */
    cp_parse_proc_devices(S("195 nvidia\nCharacter devices:\n195\n4096 big\n12x bad\n99999999999 huge\n"
                            "  5   /dev/tty  \n"), &d);
    CHECK_I64(d.n, 1);
    CHECK_STR(d.m[0].name, "/dev/tty");
    CHECK_I64(d.m[0].major, 5);
    /* no final newline, CRLF, NULs, a name longer than the field */
    cp_parse_proc_devices(S("Character devices:\r\nCharacter devices:\n238 nvidia-uvm\r\n1\0 mem\n"
                            "7 a-name-much-longer-than-thirty-one-bytes"), &d);
    CHECK_I64(major_of(&d, "nvidia-uvm", false), 238);
    CHECK_I64(d.n, 2);
    CHECK_I64((long long)strlen(d.m[1].name), sizeof d.m[1].name - 1);
    /* more majors than kept: counted */
    static char many[20000];
    size_t used = (size_t)snprintf(many, sizeof many, "Character devices:\n");
    for (int i = 0; i < CP_MAX_DEVMAJORS + 10; i++)
        used += (size_t)snprintf(many + used, sizeof many - used, "%d drv%d\n", i % 4096, i);
    cp_parse_proc_devices(many, used, &d);
    CHECK_I64(d.n, CP_MAX_DEVMAJORS);
    CHECK_I64(d.total, CP_MAX_DEVMAJORS + 10);
    cp_parse_proc_devices(NULL, 5, &d);
    CHECK_I64(d.n, 0);
    cp_parse_proc_devices("", 0, &d);
    CHECK_I64(d.n, 0);
    cp_parse_proc_devices(S("x"), NULL);
}

static void test_read_proc_devices(void)
{
    cp_host_facts *h = calloc(1, sizeof *h);
    cp_fs *fs = cp_fs_open("tests/fixtures/h200-1gpu/root", false);
    CHECK_I64(cp_host_read_proc_devices(fs, h), 0);
    CHECK(h->devices.present);
    CHECK_I64(major_of(&h->devices, "nvidia-uvm", false), 238);
    CHECK_I64(major_of(&h->devices, "nvidia", false), 195);      /* as driver 580 names it */
    CHECK_I64(major_of(&h->devices, "nvidia-frontend", false), CP_UNKNOWN);
    cp_fs_fail_read_at(fs, 1);
    CHECK_I64(cp_host_read_proc_devices(fs, h), -EIO);
    CHECK(!h->devices.present);
    CHECK_I64(h->devices.n, 0);
    cp_fs_close(fs);
    /* a snapshot older than the file */
    fs = cp_fs_open("tests/fixtures/no-such-root", false);
    CHECK_I64(cp_host_read_proc_devices(fs, h), -ENOENT);
    CHECK(!h->devices.present);
    cp_fs_close(fs);
    CHECK_I64(cp_host_read_proc_devices(NULL, NULL), -EINVAL);
    free(h);
}

/* The open that stands for libcuda's: only on the live machine, and it
 * reports the errno as it is. */
static void test_try_open(void)
{
    int err = -1;
    cp_fs *fs = cp_fs_open("/", false);
    CHECK_I64(cp_fs_try_open_rw(fs, "/dev/null", &err), 1);
    CHECK_I64(err, 0);
    CHECK_I64(cp_fs_try_open_rw(fs, "/dev/no-such-node-here", &err), 1);
    CHECK_I64(err, ENOENT);
    CHECK_I64(cp_fs_try_open_rw(fs, "/tmp", &err), 1);      /* a folder cannot be opened for writing */
    CHECK_I64(err, EISDIR);
    CHECK_I64(cp_fs_try_open_rw(fs, "/dev/../dev/null", &err), 0);   /* ".." refused */
    CHECK_I64(cp_fs_try_open_rw(fs, "/dev/null", NULL), 0);
    cp_fs_close(fs);
    /* a snapshot's or a --root tree's files are not the machine's: not tried */
    fs = cp_fs_open("tests/fixtures/h200-1gpu/root", false);
    err = -1;
    CHECK_I64(cp_fs_try_open_rw(fs, "/dev/nvidia-uvm", &err), 0);
    CHECK_I64(err, -1);
    cp_fs_close(fs);
    CHECK_I64(cp_fs_try_open_rw(NULL, "/dev/null", &err), 0);
}

static const cp_devnode *find_node(const cp_host_facts *h, const char *path)
{
    for (int i = 0; i < h->ndev; i++)
        if (strcmp(h->dev[i].path, path) == 0)
            return &h->dev[i];
    return NULL;
}

static void test_devnodes_fixture(void)
{
    cp_host_facts *h = calloc(1, sizeof *h);
    cp_fs *fs = cp_fs_open("tests/fixtures/h200-2gpu/root", false);
    CHECK_I64(cp_host_read_devnodes(fs, h), 0);
    CHECK_I64(h->ndev, 7);
    const char *want[] = { "/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools",
                           "/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia-caps/nvidia-cap1",
                           "/dev/nvidia-caps/nvidia-cap2" };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const cp_devnode *d = find_node(h, want[i]);
        CHECK(d != NULL);
        if (d) {
            CHECK(d->exists);
            /* a snapshot keeps placeholders: not character devices, and
             * their permissions are not the machine's */
            CHECK(!d->is_chr);
            CHECK_STR(d->type, "file");
            CHECK_I64(d->major, CP_UNKNOWN);
            CHECK_I64(d->accessible, CP_TRI_UNKNOWN);
            CHECK_I64(d->open_errno, CP_UNKNOWN);
        }
    }
    CHECK(find_node(h, "/dev/nvidia-caps") == NULL);
    CHECK(find_node(h, "/dev/kmsg") == NULL);
    cp_fs_close(fs);

    /* nothing there: the two nodes libcuda needs are still named */
    fs = cp_fs_open("tests/fixtures/no-gpu/root", false);
    CHECK_I64(cp_host_read_devnodes(fs, h), 0);
    CHECK_I64(h->ndev, 2);
    CHECK_STR(h->dev[0].path, "/dev/nvidiactl");
    CHECK(!h->dev[0].exists);
    CHECK_I64(h->dev[0].major, CP_UNKNOWN);
    CHECK_I64(h->dev[0].mode, CP_UNKNOWN);
    CHECK_STR(h->dev[1].path, "/dev/nvidia-uvm");
    CHECK(!h->dev[1].exists);
    cp_fs_close(fs);

    fs = cp_fs_open("tests/fixtures/no-such-root", false);
    CHECK_I64(cp_host_read_devnodes(fs, h), -ENOENT);
    CHECK_I64(h->ndev, 2);
    cp_fs_close(fs);
    free(h);
}

static void test_devnodes_live(void)
{
    cp_host_facts *h = calloc(1, sizeof *h);
    cp_fs *fs = cp_fs_open("/", false);
    CHECK_I64(cp_host_read_devnodes(fs, h), 0);
    CHECK(h->ndev >= 2 && h->ndev <= CP_MAX_DEVNODES);
    for (int i = 0; i < h->ndev; i++) {
        const cp_devnode *d = &h->dev[i];
        CHECK(strncmp(d->path, "/dev/nvidia", 11) == 0);
        if (d->is_chr) {
            CHECK(d->major >= 0 && d->minor >= 0);
            CHECK(d->accessible != CP_TRI_UNKNOWN);
            CHECK_STR(d->type, "char");
            if (strncmp(d->path, "/dev/nvidia-caps/", 17) != 0)
                CHECK(d->open_errno != CP_UNKNOWN);
        } else {
            CHECK_I64(d->open_errno, CP_UNKNOWN);
        }
    }
    cp_fs_close(fs);
    free(h);
}

int main(void)
{
    RUN(test_parse_h200);
    RUN(test_parse_desktop);
    RUN(test_parse_odd);
    RUN(test_read_modules);
    RUN(test_parse_proc_devices);
    RUN(test_read_proc_devices);
    RUN(test_try_open);
    RUN(test_devnodes_fixture);
    RUN(test_devnodes_live);
    return TEST_END();
}
