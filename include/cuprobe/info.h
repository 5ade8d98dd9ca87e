/*
 * cuprobe info: what the GPUs of a machine are, from its facts (a live
 * observation or a snapshot), deviceQuery's set and the topology between
 * them.  A view: it judges nothing (doctor does), and an unknown value is
 * printed "N/A" (text) or null (JSON), never as a number.
 *
 *     cp_info_render_text(cp_session_facts(s), -1, stdout);
 *
 * Devices are the CUDA devices (ordinals) where libcuda listed any, else
 * NVML's, else the GPUs on the PCI bus; the topology (peer access, NVLink)
 * names them "GPU<n>" by that index.
 */
#ifndef CUPROBE_INFO_H
#define CUPROBE_INFO_H

#include <stdio.h>
#include "cuprobe/facts.h"

/* The version of docs/info.schema.json the JSON follows. */
#define CP_INFO_SCHEMA_VERSION 1

/* How many devices info shows for f (CUDA's, else NVML's, else the PCI
 * GPUs).  Pure. */
int cp_info_ndevices(const cp_facts *f);

/* Why there are no CUDA device attributes in f, one line ("libcuda was not
 * loaded: ...", "cuInit failed: CUDA_ERROR_NO_DEVICE"), or NULL when libcuda
 * listed devices.  The string is static or lives in buf. */
const char *cp_info_why_no_cuda(const cp_facts *f, char *buf, size_t cap);

/* The versions, every device (or only device `device` when >= 0: the
 * caller checked it with cp_info_ndevices) and the topology, for people.
 * Every value from the machine is written through cp_text_put. */
void cp_info_render_text(const cp_facts *f, int device, FILE *out);

/* The same as one JSON document (docs/info.schema.json). */
void cp_info_render_json(const cp_facts *f, int device, FILE *out);

#endif
