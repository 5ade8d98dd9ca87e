/* Numbers as text for people (num.h). */
#include <stdio.h>
#include "cuprobe/facts.h"
#include "util/num.h"

/* A number for a summary or evidence line, "N/A" when unknown (num.h). */
cp_numtext cp_num(int64_t v)
{
    cp_numtext t;
    if (!CP_KNOWN(v)) snprintf(t.s, sizeof t.s, "N/A");
    else snprintf(t.s, sizeof t.s, "%lld", (long long)v);
    return t;
}

/* A permission mode "0666", "N/A" when unknown (num.h). */
cp_numtext cp_mode(int64_t mode)
{
    cp_numtext t;
    if (!CP_KNOWN(mode) || mode < 0) snprintf(t.s, sizeof t.s, "N/A");
    else snprintf(t.s, sizeof t.s, "%04llo", (unsigned long long)mode);
    return t;
}

/* "9.0", "N/A" when either part is unknown (num.h). */
cp_numtext cp_cc(int64_t major, int64_t minor)
{
    cp_numtext t;
    if (!CP_KNOWN(major) || !CP_KNOWN(minor)) snprintf(t.s, sizeof t.s, "N/A");
    else snprintf(t.s, sizeof t.s, "%lld.%lld", (long long)major, (long long)minor);
    return t;
}
