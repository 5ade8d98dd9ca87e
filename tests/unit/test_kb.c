/* Unit tests for src/lib/kb: error names, versions, XIDs, clock events. */
#include <stdint.h>

#include "cuprobe/facts.h"
#include "kb/kb.h"
#include "test.h"

static void test_cuda_errors(void)
{
    CHECK_STR(cp_cuda_error_name(0), "CUDA_SUCCESS");
    CHECK_STR(cp_cuda_error_name(34), "CUDA_ERROR_STUB_LIBRARY");
    CHECK_STR(cp_cuda_error_name(100), "CUDA_ERROR_NO_DEVICE");
    CHECK_STR(cp_cuda_error_name(209), "CUDA_ERROR_NO_BINARY_FOR_GPU");
    CHECK_STR(cp_cuda_error_name(719), "CUDA_ERROR_LAUNCH_FAILED");
    CHECK_STR(cp_cuda_error_name(803), "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH");
    CHECK_STR(cp_cuda_error_name(916), "CUDA_ERROR_KEY_ROTATION");
    CHECK_STR(cp_cuda_error_name(999), "CUDA_ERROR_UNKNOWN");
    CHECK(cp_cuda_error_text(700) != NULL);
    CHECK(cp_cuda_error_name(35) == NULL);   /* runtime-only code */
    CHECK(cp_cuda_error_name(-1) == NULL);
    CHECK(cp_cuda_error_name(CP_UNKNOWN) == NULL);
    CHECK(cp_cuda_error_text(12345) == NULL);
}

static void test_nvml_errors(void)
{
    CHECK_STR(cp_nvml_error_name(0), "NVML_SUCCESS");
    CHECK_STR(cp_nvml_error_name(9), "NVML_ERROR_DRIVER_NOT_LOADED");
    CHECK_STR(cp_nvml_error_name(18), "NVML_ERROR_LIB_RM_VERSION_MISMATCH");
    CHECK_STR(cp_nvml_error_name(30), "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED");
    CHECK_STR(cp_nvml_error_name(999), "NVML_ERROR_UNKNOWN");
    CHECK(cp_nvml_error_text(15) != NULL);
    CHECK(cp_nvml_error_name(31) == NULL);
    CHECK(cp_nvml_error_text(-5) == NULL);
}

static void test_version_cmp(void)
{
    CHECK(cp_version_cmp("580.95.05", "580.159.04") < 0);
    CHECK(cp_version_cmp("580.159.04", "580.95.05") > 0);
    CHECK(cp_version_cmp("13.0", "13.0.0") == 0);
    CHECK(cp_version_cmp("13.0.2", "13.0") > 0);
    CHECK(cp_version_cmp("12.9", "13.0") < 0);
    CHECK(cp_version_cmp("525.60.13", "525.60.13") == 0);
    CHECK(cp_version_cmp("12.4-rc1", "12.4") == 0);
    CHECK(cp_version_cmp("", "0") == 0);
    CHECK(cp_version_cmp(NULL, "1") < 0);
    CHECK(cp_version_cmp("99999999999999999999999", "1") > 0);
}

static void test_version_split(void)
{
    int64_t a, b, c;
    CHECK_I64(cp_version_split("13.0.2", &a, &b, &c), 3);
    CHECK_I64(a, 13);
    CHECK_I64(b, 0);
    CHECK_I64(c, 2);
    CHECK_I64(cp_version_split("12.4", &a, &b, &c), 2);
    CHECK_I64(b, 4);
    CHECK_I64(c, CP_UNKNOWN);
    CHECK_I64(cp_version_split("13", &a, &b, &c), 1);
    CHECK_I64(a, 13);
    CHECK_I64(b, CP_UNKNOWN);
    CHECK_I64(cp_version_split("abc", &a, &b, &c), 0);
    CHECK_I64(a, CP_UNKNOWN);
    CHECK_I64(cp_version_split(NULL, &a, NULL, NULL), 0);
    CHECK_I64(cp_version_split("", &a, &b, &c), 0);
    CHECK_I64(cp_version_split("12345678901.2", &a, &b, &c), 0);
}

static void test_drivers(void)
{
    char buf[16];
    CHECK_STR(cp_cuda_min_driver(11), "450.80.02");
    CHECK_STR(cp_cuda_min_driver(12), "525.60.13");
    CHECK_STR(cp_cuda_min_driver(13), "580.65.06");
    CHECK(cp_cuda_min_driver(10) == NULL);
    CHECK(cp_cuda_min_driver(CP_UNKNOWN) == NULL);
    CHECK_STR(cp_cuda_bundled_driver(12, 4), "550.54.14");
    CHECK_STR(cp_cuda_bundled_driver(13, 0), "580.65.06");
    CHECK(cp_cuda_bundled_driver(12, 7) == NULL);
    /* Every bundled driver meets its family's minimum. */
    for (int major = 11; major <= 13; major++)
        for (int minor = 0; minor < 10; minor++) {
            const char *d = cp_cuda_bundled_driver(major, minor);
            if (d && major > 11)
                CHECK(cp_version_cmp(d, cp_cuda_min_driver(major)) >= 0);
        }
    CHECK_STR(cp_cuda_version_str(13000, buf, sizeof buf), "13.0");
    CHECK_STR(cp_cuda_version_str(12040, buf, sizeof buf), "12.4");
    CHECK_STR(cp_cuda_version_str(CP_UNKNOWN, buf, sizeof buf), "N/A");
    CHECK_STR(cp_cuda_version_str(12040, buf, 3), "12");
}

static void test_xid(void)
{
    const cp_xid_info *x = cp_xid_lookup(79);
    CHECK(x != NULL);
    if (x) {
        CHECK_STR(x->mnemonic, "GPU_HAS_FALLEN_OFF_THE_BUS");
        CHECK_STR(x->layer, "hardware");
        CHECK_I64(x->severity, CP_XID_SEV_FAIL);
        CHECK(x->action && x->action[0]);
    }
    x = cp_xid_lookup(48);
    CHECK(x && x->severity == CP_XID_SEV_FAIL && strcmp(x->layer, "hardware") == 0);
    x = cp_xid_lookup(13);
    CHECK(x && strcmp(x->layer, "application") == 0);
    x = cp_xid_lookup(63);
    CHECK(x && x->severity == CP_XID_SEV_INFO);
    x = cp_xid_lookup(128);   /* copy engine 12 */
    CHECK(x && x->xid == 128 && strcmp(x->mnemonic, "CE12_ERROR") == 0);
    CHECK(cp_xid_lookup(999) == NULL);
    CHECK(cp_xid_lookup(0) == NULL);
    CHECK(cp_xid_lookup(CP_UNKNOWN) == NULL);
    /* Table sanity: every row complete, sorted and unique. */
    int last = 0;
    for (int i = 1; i < 200; i++) {
        const cp_xid_info *r = cp_xid_lookup(i);
        if (!r)
            continue;
        CHECK(r->xid == i && r->xid > last);
        CHECK(r->mnemonic && r->meaning && r->layer && r->action);
        last = r->xid;
    }
}

static void test_clock_events(void)
{
    char buf[128];
    CHECK_STR(cp_clock_events_str(0, buf, sizeof buf), "none");
    CHECK_STR(cp_clock_events_str(CP_UNKNOWN, buf, sizeof buf), "N/A");
    CHECK_STR(cp_clock_events_str(0x1, buf, sizeof buf), "gpu idle");
    CHECK_STR(cp_clock_events_str(0x44, buf, sizeof buf), "sw power cap, hw thermal slowdown");
    CHECK_STR(cp_clock_events_str(0x200, buf, sizeof buf), "other 0x200");
    CHECK_STR(cp_clock_events_str(0x108, buf, sizeof buf), "hw slowdown, display clock setting");
    CHECK_STR(cp_clock_events_str(0x1FF, buf, 8), "gpu idl");
    CHECK(strlen(cp_clock_events_str(0x1FF, buf, sizeof buf)) < sizeof buf);
}

int main(void)
{
    RUN(test_cuda_errors);
    RUN(test_nvml_errors);
    RUN(test_version_cmp);
    RUN(test_version_split);
    RUN(test_drivers);
    RUN(test_xid);
    RUN(test_clock_events);
    return TEST_END();
}
