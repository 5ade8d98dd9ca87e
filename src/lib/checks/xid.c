/* XIDs in the kernel log, reported at the layer the XID table gives.
 *
 * The log holds everything since boot, so an XID is weighed by its age: one
 * older than XID_HISTORY_S is history (a GPU that fell off the bus four days
 * ago and works now is not failing now).  It is listed with its age and can
 * make a check a warning at most.  Where the age cannot be told (a line
 * without a timestamp, no /proc/uptime) an XID counts as recent. */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "kb/kb.h"

/* Older than this, an XID is history. */
#define XID_HISTORY_S (24 * 3600)

/* Evidence lines for single XIDs; the rest are counted. */
#define XID_LISTED 8

/* The worst of a group of XIDs (recent or history). */
typedef struct {
    int count;
    int worst;                /* CP_XID_SEV_*, -1 for none */
    const cp_xid_info *x;
    int64_t id;
    int64_t age_s;
} xid_tally;

static int layer_of(const cp_xid_info *x)
{
    for (int l = 0; l < CP_LAYER_COUNT; l++)
        if (x && strcmp(x->layer, cp_layer_name((cp_layer)l)) == 0) return l;
    return CP_LAYER_DRIVER;   /* XIDs the table does not place are the driver's word */
}

/* Seconds between a line logged at at_s and the reading of the log; CP_UNKNOWN
 * when either is unknown or they disagree (a container's own uptime). */
static int64_t age_of(const cp_kernel_log *k, int64_t at_s)
{
    if (k->uptime_s == CP_UNKNOWN || at_s == CP_UNKNOWN || at_s > k->uptime_s) return CP_UNKNOWN;
    return k->uptime_s - at_s;
}

static int is_history(int64_t age_s)
{
    return age_s != CP_UNKNOWN && age_s > XID_HISTORY_S;
}

/* "3 d 4 h", "5 h 12 min", "12 min", "40 s". */
static const char *age_str(int64_t s, char *buf, int cap)
{
    if (s >= 86400) snprintf(buf, (size_t)cap, "%lld d %lld h", (long long)(s / 86400), (long long)(s % 86400 / 3600));
    else if (s >= 3600) snprintf(buf, (size_t)cap, "%lld h %lld min", (long long)(s / 3600), (long long)(s % 3600 / 60));
    else if (s >= 60) snprintf(buf, (size_t)cap, "%lld min", (long long)(s / 60));
    else snprintf(buf, (size_t)cap, "%lld s", (long long)s);
    return buf;
}

/* ", 3 d 4 h ago" when the age is known, "" otherwise. */
static const char *ago(int64_t age_s, char *buf, int cap)
{
    char a[32];
    buf[0] = '\0';
    if (age_s != CP_UNKNOWN) snprintf(buf, (size_t)cap, ", %s ago", age_str(age_s, a, sizeof a));
    return buf;
}

static void tally_add(xid_tally *t, int sev, const cp_xid_info *x, int64_t id, int64_t age_s)
{
    t->count++;
    if (sev > t->worst) { t->worst = sev; t->x = x; t->id = id; t->age_s = age_s; }
}

/* This layer's XIDs into now and past; recent ones are listed first. */
static int tally_xids(const cp_kernel_log *k, cp_finding *o, xid_tally *now, xid_tally *past)
{
    int listed = 0;
    char when[48];
    for (int history = 0; history < 2; history++)
        for (int i = 0; i < k->nxid; i++) {
            const cp_xid_event *e = &k->xids[i];
            const cp_xid_info *x = cp_xid_lookup(e->xid);
            int64_t age = age_of(k, e->at_s);
            if (layer_of(x) != (int)o->layer || is_history(age) != history) continue;
            tally_add(history ? past : now, x ? (int)x->severity : CP_XID_SEV_WARN, x, e->xid, age);
            if (++listed <= XID_LISTED)
                cp_evidence(o, "Xid %s at %s%s%s%s: %s", cp_num(e->xid).s, e->pci, x ? " " : "",
                            x ? x->mnemonic : "", ago(age, when, sizeof when), e->text);
        }
    return listed;
}

/* "GPU has fallen off the bus" lines without (or beside) an Xid 79 fail the
 * hardware layer; aged by the newest such line. */
static void tally_off_bus(const cp_kernel_log *k, cp_finding *o, xid_tally *now, xid_tally *past)
{
    int64_t age = age_of(k, k->fell_off_bus_at_s);
    xid_tally *t = is_history(age) ? past : now;
    char when[48] = "", a[32];
    if (k->fell_off_bus <= 0 || t->worst >= CP_XID_SEV_FAIL) return;
    if (t->count == 0) t->count = 1;    /* the lines count as one XID where no XID stands for them */
    t->worst = CP_XID_SEV_FAIL;
    t->x = cp_xid_lookup(79);
    t->id = 79;
    t->age_s = age;
    if (age != CP_UNKNOWN)
        snprintf(when, sizeof when, ", %s%s ago", k->fell_off_bus > 1 ? "the newest " : "", age_str(age, a, sizeof a));
    cp_evidence(o, "%s kernel log line%s: GPU has fallen off the bus%s", cp_num(k->fell_off_bus).s,
                k->fell_off_bus > 1 ? "s" : "", when);
}

/* Report this layer's XIDs; see check.h. */
void cp_check_xid(const cp_facts *f, cp_finding *o)
{
    const cp_kernel_log *k = &f->host.klog;
    xid_tally now = { 0, -1, NULL, 0, CP_UNKNOWN }, past = now;
    if (k->readable != CP_YES) {
        cp_set(o, CP_SKIP, "%s", k->why[0] ? k->why : "the kernel log was not read");
        return;
    }
    int listed = tally_xids(k, o, &now, &past);
    if (o->layer == CP_LAYER_HARDWARE) tally_off_bus(k, o, &now, &past);
    int past_sev = past.worst < CP_XID_SEV_WARN ? past.worst : CP_XID_SEV_WARN;
    int worst = now.worst > past_sev ? now.worst : past_sev;
    if (o->layer == CP_LAYER_DRIVER && k->api_mismatch > 0) {
        cp_evidence(o, "NVRM: API mismatch in the kernel log (%s line%s)", cp_num(k->api_mismatch).s,
                    k->api_mismatch > 1 ? "s" : "");
        if (worst < CP_XID_SEV_FAIL) {
            cp_set(o, CP_FAIL, "the kernel log reports a driver API mismatch between user space and the kernel module");
            cp_fix(o, "reboot, or reload the nvidia modules, so kernel module and libraries are the same release");
            return;
        }
    }
    if (listed > XID_LISTED) cp_evidence(o, "... %d more", listed - XID_LISTED);
    int count = now.count + past.count;
    if (!count) { cp_set(o, CP_PASS, "no %s XIDs in the kernel log", cp_layer_name(o->layer)); return; }
    cp_status st = worst == CP_XID_SEV_FAIL ? CP_FAIL : worst == CP_XID_SEV_WARN ? CP_WARN : CP_PASS;
    const xid_tally *w = now.worst >= 0 && now.worst >= past_sev ? &now : &past;
    char old[48] = "", age[32];
    if (w == &now && past.count)
        snprintf(old, sizeof old, " (%d older than %d h)", past.count, XID_HISTORY_S / 3600);
    else if (w == &past)
        snprintf(old, sizeof old, " is old (%s ago)", age_str(w->age_s, age, sizeof age));
    cp_set(o, st, "%d %s XID%s in the kernel log%s, worst Xid %s%s%s%s", count, cp_layer_name(o->layer),
           count > 1 ? "s" : "", w == &now ? old : "", cp_num(w->id).s, w == &past ? old : "",
           w->x ? ": " : "", w->x ? w->x->meaning : "");
    const char *action = w->x && w->x->action ? w->x->action : "look the XID up in NVIDIA's XID catalog";
    if (st != CP_PASS && w == &past)
        cp_fix(o, "the XID is older than %d h and the GPU may have recovered: watch the kernel log for a repeat; "
               "if the GPU was not reset since, reset it (nvidia-smi -r) or reboot; if it repeats: %s",
               XID_HISTORY_S / 3600, action);
    else if (st != CP_PASS)
        cp_fix(o, "%s", action);
}
