/* /proc/driver/nvidia: version banner and per-GPU information files. */
#include "test.h"
#include "host/host.h"

#include <errno.h>
#include <stdlib.h>

#define S(lit) lit, sizeof(lit) - 1

/* As captured on the H200 machines (note the trailing blanks). */
static const char open_version[] =
    "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (nixbld@)  \n"
    "GCC version:  gcc version 15.3.0 (GCC) \n";

static const char prop_version[] =
    "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n"
    "GCC version:  gcc version 12.2.0 (Ubuntu 12.2.0-3ubuntu1)\n";

static const char h200_info[] =
    "Model: \t\t NVIDIA H200\n"
    "IRQ:   \t\t 41\n"
    "GPU UUID: \t GPU-082af63b-aecb-ecc3-16f5-ca2658e93a3e\n"
    "Video BIOS: \t 96.00.a5.00.1a\n"
    "Bus Type: \t PCIe\n"
    "DMA Size: \t 52 bits\n"
    "DMA Mask: \t 0xfffffffffffff\n"
    "Bus Location: \t 0000:00:06.0\n"
    "Device Minor: \t 0\n"
    "GPU Firmware: \t 580.159.04\n"
    "GPU Excluded:\t No\n";

static void test_version_open(void)
{
    cp_procfs_nvidia *p = calloc(1, sizeof *p);
    cp_parse_nvidia_version(S(open_version), p);
    CHECK_STR(p->version, "580.159.04");
    CHECK_I64(p->open_module, CP_YES);
    CHECK_STR(p->banner, "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                         "580.159.04  Release Build  (nixbld@)");
    free(p);
}

static void test_version_proprietary(void)
{
    cp_procfs_nvidia *p = calloc(1, sizeof *p);
    cp_parse_nvidia_version(S(prop_version), p);
    CHECK_STR(p->version, "535.104.05");
    CHECK_I64(p->open_module, CP_NO);

    cp_parse_nvidia_version(S("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  "
                              "570.86.15  Release Build  (dvs-builder@U16-I1-N07-12-3)  "
                              "Thu Jan 23 21:54:35 UTC 2025"), p);
    CHECK_STR(p->version, "570.86.15");
    CHECK_I64(p->open_module, CP_YES);

    /* two-part versions of old drivers */
    cp_parse_nvidia_version(S("NVRM version: NVIDIA UNIX x86_64 Kernel Module  304.137  Wed\n"), p);
    CHECK_STR(p->version, "304.137");
    CHECK_I64(p->open_module, CP_NO);
    free(p);
}

static void test_version_odd(void)
{
    cp_procfs_nvidia *p = calloc(1, sizeof *p);
    /* the NVRM line need not come first */
    cp_parse_nvidia_version(S("junk\n  NVRM version: NVIDIA UNIX x86_64 Kernel Module 1.2.3\n"), p);
    CHECK_STR(p->version, "1.2.3");
    /* no "Kernel Module": the first version after the tag */
    cp_parse_nvidia_version(S("NVRM version: something 9.8 else"), p);
    CHECK_STR(p->version, "9.8");
    CHECK_I64(p->open_module, CP_TRI_UNKNOWN);
    /* no version at all */
    cp_parse_nvidia_version(S("NVRM version: NVIDIA UNIX x86_64 Kernel Module  x.y  1. .2 3"), p);
    CHECK_STR(p->version, "");
    CHECK_I64(p->open_module, CP_NO);
    cp_parse_nvidia_version(S("GCC version: 12.2.0\n"), p);
    CHECK_STR(p->version, "");
    CHECK_STR(p->banner, "");
    CHECK_I64(p->open_module, CP_TRI_UNKNOWN);
    /* truncated mid-version: what is there still looks like one */
    cp_parse_nvidia_version(open_version, 62, p);
    CHECK_STR(p->version, "580.1");
    cp_parse_nvidia_version(open_version, 10, p);
    CHECK_STR(p->version, "");
    /* an embedded NUL ends the banner copy, not the parse */
    cp_parse_nvidia_version(S("NVRM version: NVIDIA UNIX Open Kernel Module\0 for x86_64 580.95.05\n"), p);
    CHECK_STR(p->version, "580.95.05");
    CHECK_STR(p->banner, "NVRM version: NVIDIA UNIX Open Kernel Module");
    /* an overlong banner and version are cut to their fields */
    static char big[2000];
    memset(big, 'A', sizeof big);
    memcpy(big, "NVRM version: Kernel Module ", 28);
    memset(big + 28, '1', 100);
    big[60] = '.';
    cp_parse_nvidia_version(big, sizeof big, p);
    CHECK_I64((long long)strlen(p->banner), sizeof p->banner - 1);
    CHECK_STR(p->version, "");              /* "111...AAAA" is no version */
    memcpy(big + 128, " \n", 2);
    cp_parse_nvidia_version(big, sizeof big, p);
    CHECK_I64((long long)strlen(p->version), sizeof p->version - 1);
    cp_parse_nvidia_version(NULL, 5, p);
    CHECK_STR(p->version, "");
    free(p);
}

static void test_gpu_info(void)
{
    cp_procfs_gpu g;
    cp_parse_nvidia_gpu_info(S(h200_info), &g);
    CHECK_STR(g.model, "NVIDIA H200");
    CHECK_STR(g.uuid, "GPU-082af63b-aecb-ecc3-16f5-ca2658e93a3e");
    CHECK_STR(g.vbios, "96.00.a5.00.1a");
    CHECK_STR(g.bus, "0000:00:06.0");
    CHECK_I64(g.minor, 0);
    CHECK_STR(g.firmware, "580.159.04");
    CHECK_I64(g.excluded, CP_NO);

    cp_parse_nvidia_gpu_info(S("GPU Excluded:\t Yes\nDevice Minor: \t 7\r\nModel: "), &g);
    CHECK_I64(g.excluded, CP_YES);
    CHECK_I64(g.minor, 7);
    CHECK_STR(g.model, "");
    CHECK_STR(g.uuid, "");

    /* truncated in the middle of the UUID, no final newline */
    cp_parse_nvidia_gpu_info(h200_info, 60, &g);
    CHECK_STR(g.model, "NVIDIA H200");
    CHECK_STR(g.uuid, "GPU-082af63b-");
    CHECK_I64(g.minor, CP_UNKNOWN);
    CHECK_I64(g.excluded, CP_TRI_UNKNOWN);

    cp_parse_nvidia_gpu_info(S("Device Minor: x\nGPU Excluded: maybe\nno colon here\n::\n"), &g);
    CHECK_I64(g.minor, CP_UNKNOWN);
    CHECK_I64(g.excluded, CP_TRI_UNKNOWN);
    cp_parse_nvidia_gpu_info(S("Model: NV\0IDIA\nGPU UUID: GPU-1\n"), &g);
    CHECK_STR(g.model, "NV");
    CHECK_STR(g.uuid, "GPU-1");

    static char big[5000];
    memset(big, 'x', sizeof big);
    memcpy(big, "Model: ", 7);
    cp_parse_nvidia_gpu_info(big, sizeof big, &g);
    CHECK_I64((long long)strlen(g.model), sizeof g.model - 1);
    memcpy(big, "Bus Location: ", 14);
    cp_parse_nvidia_gpu_info(big, sizeof big, &g);
    CHECK_I64((long long)strlen(g.bus), sizeof g.bus - 1);
}

static void test_read_fixture(void)
{
    cp_procfs_nvidia *p = calloc(1, sizeof *p);
    cp_fs *fs = cp_fs_open("tests/fixtures/h200-2gpu/root", false);
    CHECK_I64(cp_host_read_procfs(fs, p), 0);
    CHECK(p->present);
    CHECK_STR(p->version, "580.159.04");
    CHECK_I64(p->open_module, CP_YES);
    CHECK_I64(p->ngpus, 2);
    CHECK_STR(p->gpus[0].bus, "0000:00:06.0");
    CHECK_STR(p->gpus[1].bus, "0000:00:07.0");
    CHECK_STR(p->gpus[1].model, "NVIDIA H200");
    CHECK(strncmp(p->gpus[1].uuid, "GPU-", 4) == 0);
    CHECK(strcmp(p->gpus[0].uuid, p->gpus[1].uuid) != 0);
    CHECK_I64(p->gpus[0].minor, 0);
    CHECK_I64(p->gpus[1].minor, 1);

    /* an unreadable information file keeps the folder's bus address */
    cp_fs_fail_read_at(fs, 2);
    CHECK_I64(cp_host_read_procfs(fs, p), 0);
    CHECK_I64(p->ngpus, 2);
    CHECK_STR(p->gpus[0].bus, "0000:00:06.0");
    CHECK_STR(p->gpus[0].model, "");
    CHECK_I64(p->gpus[0].minor, CP_UNKNOWN);
    CHECK_STR(p->gpus[1].model, "NVIDIA H200");
    cp_fs_close(fs);

    fs = cp_fs_open("tests/fixtures/no-gpu/root", false);
    CHECK_I64(cp_host_read_procfs(fs, p), -ENOENT);
    CHECK(!p->present);
    CHECK_I64(p->ngpus, 0);
    CHECK_STR(p->version, "");
    CHECK_I64(p->open_module, CP_TRI_UNKNOWN);
    cp_fs_close(fs);
    free(p);
}

int main(void)
{
    RUN(test_version_open);
    RUN(test_version_proprietary);
    RUN(test_version_odd);
    RUN(test_gpu_info);
    RUN(test_read_fixture);
    return TEST_END();
}
