/* Kernel layer: /proc/modules and the /dev/nvidia* nodes. */
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
            CHECK_I64(d->accessible, CP_TRI_UNKNOWN);
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
    RUN(test_devnodes_fixture);
    RUN(test_devnodes_live);
    return TEST_END();
}
