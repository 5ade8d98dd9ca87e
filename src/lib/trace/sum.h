/* A sum of durations for the trace analysis (analyze.c, counters.c). */
#ifndef CUPROBE_TRACE_SUM_H
#define CUPROBE_TRACE_SUM_H

#include <stdint.h>

/* a + b for b >= 0, held at INT64_MAX (sums of durations over millions of records) */
static inline int64_t cp_trace_sat_add(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

#endif
