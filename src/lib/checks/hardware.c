/* Hardware layer: the GPU on the PCI bus, its link, memory health, clocks. */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "util/str.h"
#include "kb/kb.h"

/* Is there an NVIDIA GPU on the PCI bus at all? */
void cp_check_pci_gpu(const cp_facts *f, cp_finding *o)
{
    const cp_host_facts *h = &f->host;
    int gpus = cp_gpus_on_bus(f), other = 0;
    for (int i = 0; i < h->npci; i++) {
        const cp_pci_function *p = &h->pci[i];
        if (cp_is_gpu_function(p)) {
            cp_evidence(o, "%s %s (device 0x%04llx, class 0x%06llx, driver %s)", p->addr,
                        cp_gpu_model(f, p->addr), (long long)p->device, (long long)p->class_code,
                        p->driver[0] ? p->driver : "none");
        } else other++;
    }
    if (other) cp_evidence(o, "%d other NVIDIA function%s (audio, NVSwitch, bridges)", other, other > 1 ? "s" : "");
    if (CP_KNOWN(h->npci_total) && h->npci_total > h->npci)
        cp_evidence(o, "%lld more NVIDIA function%s not examined (%d kept, GPUs first)",
                    (long long)(h->npci_total - h->npci), h->npci_total - h->npci > 1 ? "s" : "", h->npci);
    if (gpus > 0) {
        char models[160] = "";
        for (int i = 0; i < h->npci; i++) {
            const char *m = cp_is_gpu_function(&h->pci[i]) ? cp_gpu_model(f, h->pci[i].addr) : NULL;
            if (m && !strstr(models, m)) cp_str_append(models, sizeof models, ", ", m);
        }
        cp_set(o, CP_PASS, "%d NVIDIA GPU%s on the PCI bus: %s", gpus, gpus > 1 ? "s" : "", models);
        return;
    }
    if (h->procfs.ngpus > 0 || (f->nvml.ndev > 0 && cp_nvml_ok(f))) {
        /* sysfs hidden (some containers) but the driver sees GPUs */
        cp_set(o, CP_PASS, "PCI bus not visible here, but the driver lists %d GPU%s",
               h->procfs.ngpus ? h->procfs.ngpus : f->nvml.ndev,
               (h->procfs.ngpus ? h->procfs.ngpus : f->nvml.ndev) > 1 ? "s" : "");
        cp_evidence(o, "/sys/bus/pci/devices shows no NVIDIA function");
        return;
    }
    cp_set(o, CP_FAIL, "no NVIDIA GPU on the PCI bus");
    cp_evidence(o, "/sys/bus/pci/devices: %s PCI function%s of vendor 0x10de, none a display controller",
                cp_num(h->npci_total).s, h->npci_total == 1 ? "" : "s");
    if (h->container.in_container == CP_YES)
        cp_fix(o, "this is a %s container: start it with the GPUs passed in "
               "(docker run --gpus all, or the NVIDIA device plugin on Kubernetes)",
               h->container.kind[0] ? h->container.kind : "");
    else
        cp_fix(o, "run on a machine or VM with an NVIDIA GPU; in a VM, check that the GPU is passed "
               "through; on bare metal, check the card is seated and powered (lspci -d 10de:)");
}

static void link_words(int64_t mts, char *buf, size_t cap)
{
    static const struct { int64_t mts; int gen; } gens[] = {
        { 2500, 1 }, { 5000, 2 }, { 8000, 3 }, { 16000, 4 }, { 32000, 5 }, { 64000, 6 } };
    for (size_t i = 0; i < sizeof gens / sizeof gens[0]; i++)
        if (gens[i].mts == mts) { snprintf(buf, cap, "Gen%d", gens[i].gen); return; }
    if (CP_KNOWN(mts)) snprintf(buf, cap, "%.1f GT/s", (double)mts / 1000);
    else snprintf(buf, cap, "N/A");
}

/* Did each GPU's PCIe link train to its maximum speed and width? */
void cp_check_pcie_link(const cp_facts *f, cp_finding *o)
{
    int slow = 0, narrow = 0, known = 0;
    char cur[24], max[24];
    for (int i = 0; i < f->host.npci; i++) {
        const cp_pci_function *p = &f->host.pci[i];
        if (!cp_is_gpu_function(p)) continue;
        if (!CP_KNOWN(p->cur_width) || !CP_KNOWN(p->max_width)) continue;
        known++;
        link_words(p->cur_speed_mts, cur, sizeof cur);
        link_words(p->max_speed_mts, max, sizeof max);
        cp_evidence(o, "%s: %s x%s of %s x%s", p->addr, cur, cp_num(p->cur_width).s, max, cp_num(p->max_width).s);
        if (p->cur_width < p->max_width) narrow++;
        if (CP_KNOWN(p->cur_speed_mts) && CP_KNOWN(p->max_speed_mts) && p->cur_speed_mts < p->max_speed_mts)
            slow++;
    }
    for (int i = 0; i < f->nvml.ndev; i++) {
        const cp_nvml_device *d = &f->nvml.dev[i];
        if (CP_KNOWN(d->sample.pcie_gen_cur) && CP_KNOWN(d->sample.pcie_width_cur))
            cp_evidence(o, "%s (NVML): Gen%s x%s, max Gen%s x%s", d->inv.pci_bus_id, cp_num(d->sample.pcie_gen_cur).s,
                        cp_num(d->sample.pcie_width_cur).s, cp_num(d->inv.pcie_gen_max).s, cp_num(d->inv.pcie_width_max).s);
    }
    if (!known) {
        cp_set(o, CP_SKIP, "link speed and width not readable in sysfs");
        return;
    }
    if (narrow) {
        cp_set(o, CP_WARN, "%d GPU link%s trained narrower than the slot allows", narrow, narrow > 1 ? "s" : "");
        cp_fix(o, "a narrow link cuts host<->GPU copy bandwidth in proportion: reseat the card or riser, "
               "check the slot's wiring in the board manual and the BIOS bifurcation setting");
    } else if (slow) {
        cp_set(o, CP_WARN, "%d GPU link%s running below the maximum speed", slow, slow > 1 ? "s" : "");
        cp_fix(o, "an idle GPU may lower its link speed to save power; if it stays low under load "
               "(nvidia-smi -q -d PCIE during a copy), reseat the card and check the BIOS PCIe speed setting");
    } else {
        cp_set(o, CP_PASS, "every GPU link at its maximum speed and width");
    }
}

/* Row remapping, retired pages and uncorrected ECC errors. */
void cp_check_memory_health(const cp_facts *f, cp_finding *o)
{
    int failed = 0, pending = 0, unc = 0;
    for (int i = 0; i < f->nvml.ndev; i++) {
        const cp_nvml_device *d = &f->nvml.dev[i];
        char line[256] = "";
        size_t l = 0;
        l += (size_t)snprintf(line + l, sizeof line - l, "%s:", d->inv.pci_bus_id);
        if (CP_KNOWN(d->sample.remap_pending))
            l += (size_t)snprintf(line + l, sizeof line - l, " row remap pending %s, failed %s, rows %s corr/%s unc;",
                                  d->sample.remap_pending ? "yes" : "no", d->sample.remap_failure > 0 ? "yes" : "no",
                                  cp_num(d->sample.remap_correctable).s, cp_num(d->sample.remap_uncorrectable).s);
        if (CP_KNOWN(d->sample.retired_pending) && l < sizeof line)
            l += (size_t)snprintf(line + l, sizeof line - l, " retired pages pending %s;", d->sample.retired_pending ? "yes" : "no");
        if (CP_KNOWN(d->sample.ecc_uncorrected_volatile) && l < sizeof line)
            snprintf(line + l, sizeof line - l, " uncorrected ECC errors since boot %lld",
                     (long long)d->sample.ecc_uncorrected_volatile);
        cp_evidence(o, "%s", line);
        if (CP_KNOWN(d->inv.ecc_current))
            cp_evidence(o, "%s: ECC %s%s", d->inv.pci_bus_id, d->inv.ecc_current ? "on" : "off",
                        CP_KNOWN(d->inv.ecc_pending) && d->inv.ecc_pending != d->inv.ecc_current
                        ? (d->inv.ecc_pending ? " (on after the next reset)" : " (off after the next reset)") : "");
        if (CP_KNOWN(d->inv.ecc_pending) && CP_KNOWN(d->inv.ecc_current) && d->inv.ecc_pending != d->inv.ecc_current) pending++;
        if (d->sample.remap_failure > 0) failed++;
        if (d->sample.remap_pending > 0 || d->sample.retired_pending > 0) pending++;
        if (d->sample.ecc_uncorrected_volatile > 0) unc++;
    }
    if (failed) {
        cp_set(o, CP_FAIL, "%d GPU%s could not remap a bad memory row", failed, failed > 1 ? "s" : "");
        cp_fix(o, "the GPU has run out of spare rows: drain it and open an RMA with the vendor");
    } else if (pending) {
        cp_set(o, CP_WARN, "%d GPU%s with a row remap, page retirement or ECC mode change pending", pending, pending > 1 ? "s" : "");
        cp_fix(o, "a pending remap takes effect only after a GPU reset: drain the GPU, then reset it "
               "(nvidia-smi -r -i <id>) or reboot the node");
    } else if (unc) {
        cp_set(o, CP_WARN, "%d GPU%s had uncorrected ECC errors since the driver loaded", unc, unc > 1 ? "s" : "");
        cp_fix(o, "processes on that GPU may have been killed; watch for XID 48/94/95 and a pending remap");
    } else {
        cp_set(o, CP_PASS, "no pending row remaps, retired pages or uncorrected ECC errors");
    }
}

/* Clock-event (throttle) reasons that mean the GPU is held back. */
void cp_check_clocks(const cp_facts *f, cp_finding *o)
{
    /* hw slowdown, sw thermal, hw thermal, hw power brake: the ones that are not a choice */
    const int64_t bad = 0x8 | 0x20 | 0x40 | 0x80;
    int held = 0, known = 0;
    char words[256];
    for (int i = 0; i < f->nvml.ndev; i++) {
        const cp_nvml_device *d = &f->nvml.dev[i];
        if (!CP_KNOWN(d->sample.clock_event_reasons)) continue;
        known++;
        cp_clock_events_str(d->sample.clock_event_reasons, words, sizeof words);
        cp_evidence(o, "%s: clock events 0x%llx (%s)%s", d->inv.pci_bus_id, (long long)d->sample.clock_event_reasons,
                    words, CP_KNOWN(d->sample.temperature_c) ? "" : "");
        if (CP_KNOWN(d->sample.temperature_c)) cp_evidence(o, "%s: %lld C", d->inv.pci_bus_id, (long long)d->sample.temperature_c);
        if (d->sample.clock_event_reasons & bad) held++;
    }
    if (!known) { cp_set(o, CP_SKIP, "NVML gives no clock-event reasons on this GPU"); return; }
    if (held) {
        cp_set(o, CP_WARN, "%d GPU%s slowed down by heat or power", held, held > 1 ? "s" : "");
        cp_fix(o, "check cooling and airflow, the power supply and cables; nvidia-smi -q -d PERFORMANCE "
               "shows which limit is active");
    } else cp_set(o, CP_PASS, "no thermal or power slowdown");
}
