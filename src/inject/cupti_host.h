/*
 * The parts of CUPTI's profiler host API (cupti_profiler_host.h) that
 * trace_counters.c calls, declared again because that header includes the
 * C++ <string> and cannot be read by a C compiler.  Layouts copied field for
 * field from CUDA 13.0's header; the structSize each call is given tells
 * CUPTI which fields are there, so a newer libcupti reads them right.
 */
#ifndef CUPROBE_CUPTI_HOST_H
#define CUPROBE_CUPTI_HOST_H

#include <stddef.h>
#include <stdint.h>
#include <cupti_result.h>

#ifndef CUPTI_PROFILER_STRUCT_SIZE
#define CUPTI_PROFILER_STRUCT_SIZE(type_, lastfield_) (offsetof(type_, lastfield_) + sizeof(((type_ *)0)->lastfield_))
#endif

typedef enum { CP_CUPTI_METRIC_TYPE_COUNTER = 0 } cp_cupti_metric_type;
typedef enum { CP_CUPTI_PROFILER_TYPE_RANGE_PROFILER = 0, CP_CUPTI_PROFILER_TYPE_PM_SAMPLING = 1 } cp_cupti_profiler_type;
typedef struct cp_host_object cp_host_object;

typedef struct {
    size_t structSize;
    void *pPriv;
    int profilerType;                    /* CUpti_ProfilerType */
    const char *pChipName;
    const uint8_t *pCounterAvailabilityImage;
    cp_host_object *pHostObject;
} cp_host_init_params;
#define CP_HOST_INIT_SIZE CUPTI_PROFILER_STRUCT_SIZE(cp_host_init_params, pHostObject)

typedef struct {
    size_t structSize;
    void *pPriv;
    cp_host_object *pHostObject;
} cp_host_deinit_params;
#define CP_HOST_DEINIT_SIZE CUPTI_PROFILER_STRUCT_SIZE(cp_host_deinit_params, pHostObject)

typedef struct {
    size_t structSize;
    void *pPriv;
    cp_host_object *pHostObject;
    const char *pMetricName;
    const char *pDescription;
    const char *pHwUnit;
    const char *pDimUnit;
    int metricType;                      /* CUpti_MetricType */
} cp_host_props_params;
#define CP_HOST_PROPS_SIZE CUPTI_PROFILER_STRUCT_SIZE(cp_host_props_params, metricType)

typedef struct {
    size_t structSize;
    void *pPriv;
    cp_host_object *pHostObject;
    const uint8_t *pCounterDataImage;
    size_t counterDataImageSize;
    size_t rangeIndex;
    const char **ppMetricNames;
    size_t numMetrics;
    double *pMetricValues;
} cp_host_eval_params;
#define CP_HOST_EVAL_SIZE CUPTI_PROFILER_STRUCT_SIZE(cp_host_eval_params, pMetricValues)

typedef struct {
    size_t structSize;
    void *pPriv;
    cp_host_object *pHostObject;
    const char **ppMetricNames;
    size_t numMetrics;
} cp_host_add_params;
#define CP_HOST_ADD_SIZE CUPTI_PROFILER_STRUCT_SIZE(cp_host_add_params, numMetrics)

typedef struct {
    size_t structSize;
    void *pPriv;
    cp_host_object *pHostObject;
    size_t configImageSize;
} cp_host_config_size_params;
#define CP_HOST_CONFIG_SIZE_SIZE CUPTI_PROFILER_STRUCT_SIZE(cp_host_config_size_params, configImageSize)

typedef struct {
    size_t structSize;
    void *pPriv;
    cp_host_object *pHostObject;
    size_t configImageSize;
    uint8_t *pConfigImage;
} cp_host_config_params;
#define CP_HOST_CONFIG_SIZE CUPTI_PROFILER_STRUCT_SIZE(cp_host_config_params, pConfigImage)

/* cuptiProfilerHostGetNumOfPasses: the passes a config image needs */
typedef struct {
    size_t structSize;
    void *pPriv;
    size_t configImageSize;
    uint8_t *pConfigImage;
    size_t numOfPasses;
} cp_host_passes_params;
#define CP_HOST_PASSES_SIZE CUPTI_PROFILER_STRUCT_SIZE(cp_host_passes_params, numOfPasses)

#endif
