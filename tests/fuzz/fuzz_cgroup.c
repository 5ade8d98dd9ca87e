/* Fuzz the /proc/PID/cgroup parser and the container id and pod UID taken from it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "host/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cp_container c;
    memset(&c, 0, sizeof c);
    c.in_container = CP_TRI_UNKNOWN;
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    cp_parse_cgroup(buf, size, &c);
    if (strlen(c.cgroup_path) >= sizeof c.cgroup_path || strlen(c.kind) >= sizeof c.kind ||
        strlen(c.evidence) >= sizeof c.evidence)
        abort();
    char id[80];
    cp_parse_container_id(buf, size, id, sizeof id);
    if (strlen(id) >= sizeof id)
        abort();
    char uid[40];
    cp_parse_pod_uid(buf, size, uid, sizeof uid);
    if (uid[0] && strlen(uid) != 36)   /* a whole UID or none */
        abort();
    if (c.cgroup_version != CP_UNKNOWN && c.cgroup_version != 1 && c.cgroup_version != 2)
        abort();
    free(buf);
    return 0;
}
