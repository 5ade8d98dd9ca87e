/* Helpers shared by the checks (check.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "kb/kb.h"

static void vappend(char *dst, size_t cap, const char *sep, const char *fmt, va_list ap)
{
    size_t len = strlen(dst), n = sep ? strlen(sep) : 0;
    if (len && n && len + n < cap) {
        memcpy(dst + len, sep, n + 1);
        len += n;
    }
    if (len < cap) vsnprintf(dst + len, cap - len, fmt, ap);
}

/* Set status and summary of a finding. */
void cp_set(cp_finding *o, cp_status s, const char *fmt, ...)
{
    va_list ap;
    o->status = s;
    o->summary[0] = '\0';
    va_start(ap, fmt);
    vappend(o->summary, sizeof o->summary, NULL, fmt, ap);
    va_end(ap);
}

/* Append one line of evidence. */
void cp_evidence(cp_finding *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vappend(o->evidence, sizeof o->evidence, "\n", fmt, ap);
    va_end(ap);
}

/* Set the fix of a finding. */
void cp_fix(cp_finding *o, const char *fmt, ...)
{
    va_list ap;
    o->fix[0] = '\0';
    va_start(ap, fmt);
    vappend(o->fix, sizeof o->fix, NULL, fmt, ap);
    va_end(ap);
}

/* Words for how a probe ended. */
const char *cp_probe_state_words(cp_probe_state s)
{
    switch (s) {
    case CP_PROBE_DONE: return "answered";
    case CP_PROBE_TIMEOUT: return "did not answer in time";
    case CP_PROBE_CRASHED: return "crashed";
    case CP_PROBE_ERROR: return "could not be run";
    default: return "was not asked";
    }
}

/* Bytes as MiB text, "N/A" when unknown. */
const char *cp_mib(int64_t bytes, char *buf, int cap)
{
    if (!CP_KNOWN(bytes)) snprintf(buf, (size_t)cap, "N/A");
    else snprintf(buf, (size_t)cap, "%lld MiB", (long long)(bytes >> 20));
    return buf;
}

