/*
 * The captured environment: the variables that matter to CUDA are copied
 * into h->env[] by the observe step, so a replayed snapshot answers with
 * the machine's values, not the replaying shell's.
 */
#include "host/host.h"

#include <string.h>

/* Value of NAME in h->env[], or NULL when it was unset (or h/name is NULL).
 * The string belongs to h. */
const char *cp_host_getenv(const cp_host_facts *h, const char *name)
{
    if (!h || !name)
        return NULL;
    int n = h->nenv < CP_MAX_ENV ? h->nenv : CP_MAX_ENV;
    for (int i = 0; i < n; i++)
        if (strncmp(h->env[i].name, name, sizeof h->env[i].name) == 0)
            return h->env[i].value;
    return NULL;
}
