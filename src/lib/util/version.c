/* Version formatting (version.h). */
#include <stdio.h>
#include "util/version.h"

/* 13000 -> "13.0". */
const char *cp_cuda_version_str(int64_t v, char *buf, size_t cap)
{
    if (!buf || cap == 0) return buf;
    if (v < 0) snprintf(buf, cap, "N/A");
    else snprintf(buf, cap, "%lld.%lld", (long long)(v / 1000), (long long)((v % 1000) / 10));
    return buf;
}

/* 130100 -> "13.1.0". */
const char *cp_mmp_version_str(int64_t v, char *buf, size_t cap)
{
    if (!buf || cap == 0) return buf;
    if (v > 0) snprintf(buf, cap, "%lld.%lld.%lld", (long long)(v / 10000), (long long)(v / 100 % 100),
                        (long long)(v % 100));
    else buf[0] = '\0';
    return buf;
}
