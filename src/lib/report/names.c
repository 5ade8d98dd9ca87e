/* The names of layers and statuses: part of the JSON schema (report.h). */
#include "cuprobe/report.h"

/* Layer names, bottom up; see report.h. */
const char *cp_layer_name(cp_layer l)
{
    static const char *const names[CP_LAYER_COUNT] = { "hardware", "kernel", "system", "driver",
        "runtime", "libraries", "framework", "application" };
    return (unsigned)l < CP_LAYER_COUNT ? names[l] : "unknown";
}

/* Status names; see report.h. */
const char *cp_status_name(cp_status s)
{
    static const char *const names[] = { "pass", "warn", "fail", "skip", "blocked" };
    return (unsigned)s <= CP_BLOCKED ? names[s] : "unknown";
}
