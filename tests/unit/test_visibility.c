/* CUDA_VISIBLE_DEVICES, NVIDIA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER. */
#include "test.h"
#include "host/host.h"

#include <stdlib.h>

static cp_visibility v;

static const cp_cuda_visible *cvd(const char *val)
{
    cp_parse_visibility(val, NULL, NULL, &v);
    return &v.cuda;
}

static void test_unset(void)
{
    cp_parse_visibility(NULL, NULL, NULL, &v);
    CHECK(!v.cuda_visible_set);
    CHECK(!v.cuda.set);
    CHECK_I64(v.cuda.n, 0);
    CHECK_I64(v.cuda.first_invalid, -1);
    CHECK_I64(v.nvidia_mode, CP_NVVIS_UNSET);
    CHECK(!v.order_set);
    CHECK_I64(v.order_valid, CP_TRI_UNKNOWN);
}

static void test_ordinals(void)
{
    const cp_cuda_visible *c = cvd("0,2, 3 ,\t1");
    CHECK(v.cuda_visible_set);
    CHECK(c->set);
    CHECK_STR(c->raw, "0,2, 3 ,\t1");
    CHECK_I64(c->n, 4);
    CHECK_I64(c->first_invalid, -1);
    CHECK_I64(c->e[0].kind, CP_VIS_INDEX);
    CHECK_I64(c->e[0].index, 0);
    CHECK_I64(c->e[1].index, 2);
    CHECK_I64(c->e[2].index, 3);
    CHECK_STR(c->e[2].text, "3");
    CHECK_I64(c->e[3].index, 1);

    /* out of range is judged later, against the devices seen */
    c = cvd("7,100");
    CHECK_I64(c->n, 2);
    CHECK_I64(c->e[1].kind, CP_VIS_INDEX);
    CHECK_I64(c->e[1].index, 100);
    CHECK_I64(c->first_invalid, -1);

    c = cvd("007");
    CHECK_I64(c->e[0].kind, CP_VIS_INDEX);
    CHECK_I64(c->e[0].index, 7);
}

static void test_empty_and_none(void)
{
    const cp_cuda_visible *c = cvd("");
    CHECK(c->set);
    CHECK_I64(c->n, 0);
    CHECK_I64(c->first_invalid, -1);

    c = cvd("-1");
    CHECK_I64(c->n, 1);
    CHECK_I64(c->e[0].kind, CP_VIS_INVALID);
    CHECK_STR(c->e[0].text, "-1");
    CHECK_I64(c->first_invalid, 0);

    c = cvd("none");
    CHECK_I64(c->n, 1);
    CHECK_I64(c->first_invalid, 0);
    CHECK_STR(c->e[0].text, "none");

    c = cvd(" ");
    CHECK_I64(c->n, 1);
    CHECK_I64(c->first_invalid, 0);
}

static void test_stops_at_invalid(void)
{
    const cp_cuda_visible *c = cvd("0,-1,1");
    CHECK_I64(c->n, 2);
    CHECK_I64(c->e[0].kind, CP_VIS_INDEX);
    CHECK_I64(c->e[1].kind, CP_VIS_INVALID);
    CHECK_I64(c->first_invalid, 1);

    c = cvd("1,abc,0");
    CHECK_I64(c->n, 2);
    CHECK_STR(c->e[1].text, "abc");

    c = cvd("0,,1");
    CHECK_I64(c->n, 2);
    CHECK_I64(c->first_invalid, 1);
    CHECK_STR(c->e[1].text, "");

    c = cvd("0,1,");
    CHECK_I64(c->n, 3);
    CHECK_I64(c->first_invalid, 2);

    c = cvd("1 2");
    CHECK_I64(c->first_invalid, 0);
    c = cvd("+1");
    CHECK_I64(c->first_invalid, 0);
    c = cvd("0x1");
    CHECK_I64(c->first_invalid, 0);
    c = cvd("99999999999999999999999");
    CHECK_I64(c->first_invalid, 0);
    CHECK_I64(c->e[0].index, CP_UNKNOWN);
}

static void test_duplicates(void)
{
    const cp_cuda_visible *c = cvd("0,1,0,2");
    CHECK_I64(c->n, 3);
    CHECK_I64(c->first_invalid, 2);
    CHECK_I64(c->e[2].kind, CP_VIS_INVALID);

    c = cvd("1, 01");
    CHECK_I64(c->first_invalid, 1);

    c = cvd("GPU-082af63b,GPU-082af63b");
    CHECK_I64(c->n, 2);
    CHECK_I64(c->first_invalid, 1);
}

static void test_uuids(void)
{
    const cp_cuda_visible *c = cvd("GPU-082af63b-aecb-ecc3-16f5-ca2658e93a3e,GPU-4f1c");
    CHECK_I64(c->n, 2);
    CHECK_I64(c->first_invalid, -1);
    CHECK_I64(c->e[0].kind, CP_VIS_UUID);
    CHECK_STR(c->e[0].text, "GPU-082af63b-aecb-ecc3-16f5-ca2658e93a3e");
    CHECK_I64(c->e[0].index, CP_UNKNOWN);
    CHECK_I64(c->e[1].kind, CP_VIS_UUID);

    c = cvd("GPU-");
    CHECK_I64(c->first_invalid, 0);
    c = cvd("GPU-xyz");
    CHECK_I64(c->first_invalid, 0);
    c = cvd("gpu-082af63b");
    CHECK_I64(c->first_invalid, 0);
    c = cvd("0,GPU-082af63b, 1");
    CHECK_I64(c->n, 3);
    CHECK_I64(c->e[1].kind, CP_VIS_UUID);
    CHECK_I64(c->e[2].index, 1);
}

static void test_mig(void)
{
    const cp_cuda_visible *c = cvd("MIG-5c89852c-d268-c3f3-1b07-005d5ae1dc3f");
    CHECK_I64(c->n, 1);
    CHECK_I64(c->e[0].kind, CP_VIS_MIG);
    c = cvd("MIG-GPU-082af63b-aecb-ecc3-16f5-ca2658e93a3e/1/0,0");
    CHECK_I64(c->n, 2);
    CHECK_I64(c->e[0].kind, CP_VIS_MIG);
    CHECK_I64(c->e[1].kind, CP_VIS_INDEX);
    c = cvd("MIG-");
    CHECK_I64(c->first_invalid, 0);
    c = cvd("MIG-zz");
    CHECK_I64(c->first_invalid, 0);
}

static void test_limits(void)
{
    /* more than CP_MAX_VIS entries: the parse stops, nothing overflows */
    char many[512] = "";
    for (int i = 0; i < 100; i++) {
        char one[8];
        snprintf(one, sizeof one, "%s%d", i ? "," : "", i);
        strcat(many, one);
    }
    const cp_cuda_visible *c = cvd(many);
    CHECK_I64(c->n, CP_MAX_VIS);
    CHECK_I64(c->first_invalid, -1);
    CHECK_I64(c->e[CP_MAX_VIS - 1].index, CP_MAX_VIS - 1);
    CHECK_I64((long long)strlen(c->raw), sizeof c->raw - 1);

    /* an overlong UUID is cut into the entry's text */
    static char longuuid[4000];
    memset(longuuid, 'a', sizeof longuuid - 1);
    memcpy(longuuid, "GPU-", 4);
    c = cvd(longuuid);
    CHECK_I64(c->n, 1);
    CHECK_I64(c->e[0].kind, CP_VIS_UUID);
    CHECK_I64((long long)strlen(c->e[0].text), sizeof c->e[0].text - 1);

    static char commas[3000];
    memset(commas, ',', sizeof commas - 1);
    c = cvd(commas);
    CHECK_I64(c->n, 1);
    CHECK_I64(c->first_invalid, 0);
}

static void test_nvidia_visible(void)
{
    struct { const char *val; cp_nvvis_mode mode; } cases[] = {
        { "all", CP_NVVIS_ALL }, { "none", CP_NVVIS_NONE }, { "void", CP_NVVIS_VOID },
        { "", CP_NVVIS_EMPTY }, { "0,1", CP_NVVIS_LIST },
        { "GPU-082af63b-aecb-ecc3-16f5-ca2658e93a3e", CP_NVVIS_LIST }, { "ALL", CP_NVVIS_LIST },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cp_parse_visibility(NULL, cases[i].val, NULL, &v);
        CHECK_I64(v.nvidia_mode, cases[i].mode);
        CHECK_STR(v.nvidia_raw, cases[i].val);
        CHECK(!v.cuda_visible_set);
    }
    static char big[1000];
    memset(big, '7', sizeof big - 1);
    cp_parse_visibility(NULL, big, NULL, &v);
    CHECK_I64((long long)strlen(v.nvidia_raw), sizeof v.nvidia_raw - 1);
}

static void test_device_order(void)
{
    cp_parse_visibility(NULL, NULL, "PCI_BUS_ID", &v);
    CHECK(v.order_set);
    CHECK_I64(v.order_valid, CP_YES);
    CHECK_STR(v.order_raw, "PCI_BUS_ID");
    cp_parse_visibility(NULL, NULL, "FASTEST_FIRST", &v);
    CHECK_I64(v.order_valid, CP_YES);
    cp_parse_visibility(NULL, NULL, "pci_bus_id", &v);
    CHECK_I64(v.order_valid, CP_NO);
    cp_parse_visibility(NULL, NULL, "", &v);
    CHECK(v.order_set);
    CHECK_I64(v.order_valid, CP_NO);
    static char big[500];
    memset(big, 'P', sizeof big - 1);
    cp_parse_visibility(NULL, NULL, big, &v);
    CHECK_I64(v.order_valid, CP_NO);
    CHECK_I64((long long)strlen(v.order_raw), sizeof v.order_raw - 1);
    cp_parse_visibility(NULL, NULL, NULL, NULL);      /* no crash */
}

int main(void)
{
    RUN(test_unset);
    RUN(test_ordinals);
    RUN(test_empty_and_none);
    RUN(test_stops_at_invalid);
    RUN(test_duplicates);
    RUN(test_uuids);
    RUN(test_mig);
    RUN(test_limits);
    RUN(test_nvidia_visible);
    RUN(test_device_order);
    return TEST_END();
}
