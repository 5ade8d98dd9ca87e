/*
 * The NVML probe's per-device reads, for a caller that holds NVML open
 * itself (the sampler, src/lib/telemetry/): the same calls and the same
 * rows as doctor's probe, so a field means the same in both.  They may hang
 * inside the driver: call them in a child process only.
 */
#ifndef CP_NVML_FILL_H
#define CP_NVML_FILL_H

#include "cuprobe/facts.h"
#include "dl/nvml_api.h"

/* Fill inv (name, UUID, bus id, CC, total memory, PCIe maximum, power
 * limit, modes); fields whose call is absent or fails stay as they were. */
void cp_nvml_fill_inventory(const cp_nvml_api *api, nvmlDevice_t h, cp_nvml_inventory *inv);

/* Fill the sample rows of doctor's probe (memory, clock events, PCIe link,
 * temperature, power, utilisation, processes, ECC and remapping): at most
 * CP_NVML_FILL_SAMPLE_CALLS calls.  Fields whose call is absent or fails
 * stay as they were (the caller resets s first). */
void cp_nvml_fill_sample(const cp_nvml_api *api, nvmlDevice_t h, cp_nvml_sample *s);

/* 7 for memory, clock events, link, temperature, power and utilisation,
 * 1 more for the temperature's older call when the newer one cannot,
 * 1 + 3 tries for the processes, 4 for remapping, retired pages and ECC. */
#define CP_NVML_FILL_SAMPLE_CALLS 16

#endif
