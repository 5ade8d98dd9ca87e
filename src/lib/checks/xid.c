/* XIDs in the kernel log, reported at the layer the XID table gives. */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "kb/kb.h"

static int layer_of(const cp_xid_info *x)
{
    for (int l = 0; l < CP_LAYER_COUNT; l++)
        if (x && strcmp(x->layer, cp_layer_name((cp_layer)l)) == 0) return l;
    return CP_LAYER_DRIVER;   /* XIDs the table does not place are the driver's word */
}

/* Report this layer's XIDs; see check.h. */
void cp_check_xid(const cp_facts *f, cp_finding *o)
{
    const cp_kernel_log *k = &f->host.klog;
    int worst = -1, count = 0;
    const cp_xid_info *worst_x = NULL;
    int64_t worst_id = 0;
    if (k->readable != CP_YES) {
        cp_set(o, CP_SKIP, "%s", k->why[0] ? k->why : "the kernel log was not read");
        return;
    }
    for (int i = 0; i < k->nxid; i++) {
        const cp_xid_event *e = &k->xids[i];
        const cp_xid_info *x = cp_xid_lookup(e->xid);
        if (layer_of(x) != (int)o->layer) continue;
        count++;
        if (count <= 8)
            cp_evidence(o, "Xid %lld at %s%s%s: %s", (long long)e->xid, e->pci, x ? " " : "", x ? x->mnemonic : "", e->text);
        int sev = x ? (int)x->severity : CP_XID_SEV_WARN;
        if (sev > worst) { worst = sev; worst_x = x; worst_id = e->xid; }
    }
    if (o->layer == CP_LAYER_HARDWARE && k->fell_off_bus > 0 && worst < CP_XID_SEV_FAIL) {
        worst = CP_XID_SEV_FAIL;
        worst_x = cp_xid_lookup(79);
        worst_id = 79;
        cp_evidence(o, "%lld kernel log line%s: GPU has fallen off the bus", (long long)k->fell_off_bus,
                    k->fell_off_bus > 1 ? "s" : "");
        count += count == 0;
    }
    if (o->layer == CP_LAYER_DRIVER && k->api_mismatch > 0) {
        cp_evidence(o, "NVRM: API mismatch in the kernel log (%lld line%s)", (long long)k->api_mismatch,
                    k->api_mismatch > 1 ? "s" : "");
        if (worst < CP_XID_SEV_FAIL) {
            cp_set(o, CP_FAIL, "the kernel log reports a driver API mismatch between user space and the kernel module");
            cp_fix(o, "reboot, or reload the nvidia modules, so kernel module and libraries are the same release");
            return;
        }
    }
    if (count > 8) cp_evidence(o, "... %d more", count - 8);
    if (!count) { cp_set(o, CP_PASS, "no %s XIDs in the kernel log", cp_layer_name(o->layer)); return; }
    cp_status st = worst == CP_XID_SEV_FAIL ? CP_FAIL : worst == CP_XID_SEV_WARN ? CP_WARN : CP_PASS;
    cp_set(o, st, "%d %s XID%s in the kernel log, worst Xid %lld%s%s", count, cp_layer_name(o->layer),
           count > 1 ? "s" : "", (long long)worst_id, worst_x ? ": " : "", worst_x ? worst_x->meaning : "");
    if (st != CP_PASS)
        cp_fix(o, "%s", worst_x && worst_x->action ? worst_x->action : "look the XID up in NVIDIA's XID catalog");
}
