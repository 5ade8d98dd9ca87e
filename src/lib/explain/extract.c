/*
 * Values taken from a matched line: PyTorch OOM sizes, the XID number and
 * PCI address of an NVRM line, the soname a loader could not find.  Lines
 * are bounded windows (not NUL-terminated); every scan checks the length.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "explain_int.h"
#include "kb/kb.h"

/* Offset just after the first `needle` in low[from, n), or n when absent. */
static size_t after(const char *low, size_t n, size_t from, const char *needle)
{
    if (from >= n) return n;
    const char *p = memmem(low + from, n - from, needle, strlen(needle));
    return p ? (size_t)(p - low) + strlen(needle) : n;
}

static int digit(char c) { return c >= '0' && c <= '9'; }

/* "20.00 MiB" at low[i]: bytes, or -1.  *end gets the offset after the unit. */
static int64_t size_at(const char *low, size_t n, size_t i, size_t *end)
{
    double v = 0, scale = 1;
    int seen = 0, frac = 0;
    for (; i < n && (digit(low[i]) || (low[i] == '.' && !frac)); i++) {
        if (low[i] == '.') { frac = 1; continue; }
        seen = 1;
        if (frac) scale /= 10;
        v = frac ? v + (low[i] - '0') * scale : v * 10 + (low[i] - '0');
        if (v > 1e15) return -1;
    }
    while (i < n && low[i] == ' ') i++;
    static const struct { const char *u; double mul; } units[] = {
        { "kib", 1024.0 }, { "mib", 1048576.0 }, { "gib", 1073741824.0 }, { "tib", 1099511627776.0 },
        { "kb", 1e3 }, { "mb", 1e6 }, { "gb", 1e9 }, { "bytes", 1 },
    };
    if (!seen) return -1;
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t l = strlen(units[u].u);
        if (i + l <= n && memcmp(low + i, units[u].u, l) == 0) {
            double bytes = v * units[u].mul + 0.5;
            if (bytes >= 9.2e18) return -1;   /* past int64_t: no real size, and the cast would be undefined */
            if (end) *end = i + l;
            return (int64_t)bytes;
        }
    }
    return -1;
}

/* The size that ends just before low[i] ("7.79 GiB| total capacity"). */
static int64_t size_before(const char *low, size_t n, size_t i)
{
    while (i > 0 && low[i - 1] == ' ') i--;
    while (i > 0 && low[i - 1] >= 'a' && low[i - 1] <= 'z') i--;
    while (i > 0 && low[i - 1] == ' ') i--;
    while (i > 0 && (digit(low[i - 1]) || low[i - 1] == '.')) i--;
    return size_at(low, n, i, NULL);
}

static int small_int_at(const char *low, size_t n, size_t i)
{
    int v = -1;
    for (; i < n && digit(low[i]) && v < 100000; i++) v = (v < 0 ? 0 : v * 10) + (low[i] - '0');
    return v;
}

static void extract_oom(const char *low, size_t n, cp_explain_signal *s)
{
    size_t i = after(low, n, 0, "tried to allocate ");
    if (i < n) s->requested_bytes = size_at(low, n, i, NULL);
    size_t g = after(low, n, i < n ? i : 0, "gpu ");
    if (g < n) s->gpu = small_int_at(low, n, g);
    size_t t = after(low, n, 0, "total capacity of ");     /* PyTorch >= 2.1 */
    if (t < n) {
        s->total_bytes = size_at(low, n, t, NULL);
        size_t f = after(low, n, t, "of which ");
        if (f < n) s->free_bytes = size_at(low, n, f, NULL);
        return;
    }
    size_t tc = after(low, n, 0, " total capacity");        /* older: "(GPU 0; 7.79 GiB total capacity; ..." */
    if (tc < n) s->total_bytes = size_before(low, n, tc - strlen(" total capacity"));
    size_t fr = after(low, n, tc < n ? tc : 0, " free;");
    if (fr < n) s->free_bytes = size_before(low, n, fr - strlen(" free;"));
}

/* See explain_int.h. */
int cp_explain_xid_number(const char *low, size_t n)
{
    size_t i = after(low, n, 0, "nvrm: xid (");
    if (i >= n) return -1;
    size_t close = after(low, n, i, "):");
    if (close >= n || close - i > 40) return -1;
    while (close < n && low[close] == ' ') close++;
    return small_int_at(low, n, close);
}

/* See explain_int.h. */
int cp_explain_xid_also(const char *low, size_t n, cp_layer layer)
{
    const cp_xid_info *x = cp_xid_lookup(cp_explain_xid_number(low, n));
    return x && x->also_layer && strcmp(x->also_layer, cp_layer_name(layer)) == 0;
}

static cp_layer layer_from_word(const char *w)
{
    for (int l = 0; l < CP_LAYER_COUNT; l++)
        if (strcmp(cp_layer_name((cp_layer)l), w) == 0) return (cp_layer)l;
    return CP_LAYER_HARDWARE;
}

static void extract_xid(const char *orig, const char *low, size_t n, cp_explain_signal *s)
{
    s->xid = cp_explain_xid_number(low, n);
    s->notice = s->xid >= 0 && cp_xid_is_notice(s->xid);
    size_t i = after(low, n, 0, "nvrm: xid (");
    if (i < n && n - i >= 4 && memcmp(low + i, "pci:", 4) == 0) i += 4;
    size_t k = 0;
    for (; i < n && orig[i] != ')' && k + 1 < sizeof s->pci; i++) s->pci[k++] = orig[i];
    s->pci[k] = '\0';
    if (s->xid < 0) return;
    snprintf(s->code, sizeof s->code, "xid.%d", s->xid);
    const cp_xid_info *x = cp_xid_lookup(s->xid);
    if (x) {
        s->layer = layer_from_word(x->layer);
        s->check = s->layer == CP_LAYER_HARDWARE ? "hardware.xid" :
                   s->layer == CP_LAYER_APPLICATION ? "application.xid" : "driver.xid";
        s->cause = x->meaning;
        s->fix = x->action;
    } else {
        s->cause = "an XID this version of cuprobe does not know";
        s->fix = "look the number up in NVIDIA's XID catalog and read the kernel log around it";
    }
}

static int soname_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || digit(c) || c == '.' || c == '_' || c == '+' || c == '-';
}

static void extract_soname(const char *orig, const char *low, size_t n, size_t at, cp_explain_signal *s)
{
    size_t i = at;
    if (!(n - i >= 3 && memcmp(low + i, "lib", 3) == 0)) {
        const char *p = i < n ? memmem(low + i, n - i, "lib", 3) : NULL;
        if (!p) return;
        i = (size_t)(p - low);
    }
    size_t k = 0;
    for (; i < n && soname_char(orig[i]) && k + 1 < sizeof s->soname; i++) s->soname[k++] = orig[i];
    while (k > 0 && (s->soname[k - 1] == '.' || s->soname[k - 1] == '-')) k--;
    s->soname[k] = '\0';
    const char *so = strstr(s->soname, ".so");
    if (!so) { s->soname[0] = '\0'; return; }
    if (so[3] == '.') snprintf(s->soname_version, sizeof s->soname_version, "%s", so + 4);
}

/* w's length where low[i..] starts with it, else 0. */
static size_t prefix_at(const char *low, size_t n, size_t i, const char *w)
{
    size_t l = strlen(w);
    return i <= n && n - i >= l && memcmp(low + i, w, l) == 0 ? l : 0;
}

static int word_at(const char *low, size_t n, size_t i, const char *w)
{
    size_t l = prefix_at(low, n, i, w);
    return l && (i + l == n || !((low[i + l] >= 'a' && low[i + l] <= 'z') || digit(low[i + l])));
}

/* See explain_int.h. */
int cp_explain_value_ok(cp_value_cond cond, const char *low, size_t n, size_t start, size_t end)
{
    if (cond == CP_VALUE_ANY) return 1;
    for (size_t i = 0; i < start; i++)           /* the key opens the line */
        if (low[i] != ' ' && low[i] != '>') return 0;
    size_t i = end;
    while (i < n && low[i] == ' ') i++;
    if (i >= n || low[i] != ':') return 0;
    for (i++; i < n && low[i] == ' '; i++) {}
    if (i >= n) return 0;
    switch (cond) {
    case CP_VALUE_YES: return word_at(low, n, i, "yes");
    case CP_VALUE_ACTIVE: return word_at(low, n, i, "active");
    case CP_VALUE_NONZERO: {
        int nz = 0;
        size_t k = i;
        for (; k < n && digit(low[k]); k++) nz |= low[k] != '0';
        return nz && (k == n || !((low[k] >= 'a' && low[k] <= 'z') || low[k] == '.'));
    }
    case CP_VALUE_ZERO: {
        size_t k = i;
        while (k < n && low[k] == '0') k++;
        return k > i && (k == n || !((low[k] >= 'a' && low[k] <= 'z') || digit(low[k]) || low[k] == '.'));
    }
    case CP_VALUE_RECOVERY:
        return word_at(low, n, i, "yes") || word_at(low, n, i, "reset") || word_at(low, n, i, "reboot") ||
               word_at(low, n, i, "drain") || word_at(low, n, i, "gpu reset") || word_at(low, n, i, "node reboot");
    case CP_VALUE_ARCHS_MISS: return 0;       /* needs the text's GPUs: cp_explain_archs_miss */
    case CP_VALUE_OOM_OTHERS: return 0;       /* the whole line's sizes: cp_explain_oom_others */
    case CP_VALUE_XID_ALSO: return 0;         /* the XID table: cp_explain_xid_also */
    case CP_VALUE_SMI_FIELD: return 0;        /* no key: cp_explain_smi_field */
    case CP_VALUE_SMI_FIELD_BARE: return 0;
    case CP_VALUE_ANY: break;
    }
    return 1;
}

/* The number of digits at low[i], at most max + 1. */
static size_t digits_at(const char *low, size_t n, size_t i, size_t max)
{
    size_t k = 0;
    while (i + k < n && digit(low[i + k]) && k <= max) k++;
    return k;
}

/* See explain_int.h. */
int cp_explain_smi_field(const char *low, size_t n, size_t end, int bare)
{
    static const char *const unreported[] = { "[n/a]", "[not supported]", "[insufficient" };
    static const char *const unbracketed[] = { "n/a", "n/", "not supported", "insufficient" };
    size_t i = end;
    while (i < n && low[i] == ' ') i++;
    if (i < n && (low[i] == '\'' || low[i] == '"')) i++;
    while (i < n && low[i] == ' ') i++;
    if (bare) {
        for (size_t w = 0; w < sizeof unbracketed / sizeof unbracketed[0]; w++) {
            size_t l = prefix_at(low, n, i, unbracketed[w]);
            if (l && (i + l == n || low[i + l] == '\'' || low[i + l] == '"' || low[i + l] == ' ')) return 1;
        }
        return 0;
    }
    for (size_t w = 0; w < sizeof unreported / sizeof unreported[0]; w++)
        if (prefix_at(low, n, i, unreported[w])) return 1;
    if (digits_at(low, n, i, 3) != 3 || i + 3 >= n || low[i + 3] != '.') return 0;
    i += 4;
    size_t minor = digits_at(low, n, i, 3);
    if (minor < 2 || minor > 3 || i + minor >= n || low[i + minor] != '.') return 0;
    i += minor + 1;
    return digits_at(low, n, i, 2) == 2;        /* exactly two: a third digit counts as one more */
}

/* See explain_int.h. */
int cp_explain_line_cc(const char *low, size_t n)
{
    static const char key[] = "compute capability ";
    size_t i = after(low, n, 0, key);
    if (i >= n || !digit(low[i])) return -1;
    int major = 0;
    for (; i < n && digit(low[i]) && major < 100; i++) major = major * 10 + (low[i] - '0');
    if (i + 1 >= n || low[i] != '.' || !digit(low[i + 1]) || major >= 100) return -1;
    return major * 10 + (low[i + 1] - '0');
}

/* See explain_int.h. */
int cp_explain_archs_miss(const char *low, size_t n, size_t end, int cc)
{
    if (cc <= 0) return 0;
    size_t i = end;
    int lowest = -1, count = 0;
    while (i < n && (low[i] == ' ' || low[i] == '=' || low[i] == ':')) i++;
    for (; i < n && count < 64;) {
        if (i + 3 <= n && memcmp(low + i, "sm_", 3) == 0) i += 3;
        if (i >= n || !digit(low[i])) break;
        int v = 0;
        for (; i < n && digit(low[i]) && v < 100000; i++) v = v * 10 + (low[i] - '0');
        if (i < n && low[i] >= 'a' && low[i] <= 'z') i++;     /* "90a", "100f" */
        int arch = v >= 300 ? v / 10 : v;     /* ggml's 600 for 6.0 (300 up), CMake's and sm_'s 60 or 120 */
        if (arch > 0 && (lowest < 0 || arch < lowest)) lowest = arch;
        count++;
        while (i < n && (low[i] == ',' || low[i] == ';' || low[i] == ' ')) i++;
    }
    return count > 0 && lowest > cc;
}

/* Offset of the first `needle` in low[0, n), or -1 when absent (unlike
 * after(), whose n is also a needle that ends the line). */
static long offset_of(const char *low, size_t n, const char *needle)
{
    const char *p = memmem(low, n, needle, strlen(needle));
    return p ? (long)(p - low) : -1;
}

/* See explain_int.h. */
int cp_explain_oom_others(const char *low, size_t n)
{
    cp_explain_signal s;
    s.total_bytes = s.free_bytes = -1;
    extract_oom(low, n, &s);
    if (s.total_bytes <= 0 || s.free_bytes < 0 || s.free_bytes > s.total_bytes) return 0;
    int64_t own = -1;
    long at, alloc;
    size_t i = after(low, n, 0, "this process has ");
    if (i < n) own = size_at(low, n, i, NULL);
    else if ((at = offset_of(low, n, " reserved in total by pytorch")) >= 0)
        own = size_before(low, n, (size_t)at);
    else if ((at = offset_of(low, n, " cached)")) >= 0 &&           /* PyTorch 1.0: "A already allocated; ...; C cached)" */
             (alloc = offset_of(low, n, " already allocated")) >= 0) {
        int64_t allocated = size_before(low, n, (size_t)alloc), cached = size_before(low, n, (size_t)at);
        if (allocated >= 0 && cached >= 0) own = allocated + cached;
    } else if ((i = after(low, n, 0, "of the allocated memory ")) < n) {
        own = size_at(low, n, i, NULL);
        at = offset_of(low, n, " is reserved by pytorch but unallocated");
        int64_t unalloc = at >= 0 ? size_before(low, n, (size_t)at) : 0;
        if (own >= 0 && unalloc > 0) own += unalloc;
    }
    if (own < 0) return 0;
    /* others include this process's CUDA context, which with a desktop's share can come near 1 GiB */
    int64_t others = s.total_bytes - s.free_bytes - own;
    return others > s.total_bytes / 2 && others >= (int64_t)1 << 30;
}

/* See explain_int.h. */
void cp_explain_extract(cp_extract_kind kind, const char *orig, const char *low, size_t n,
                        size_t at, cp_explain_signal *s)
{
    switch (kind) {
    case CP_EXTRACT_OOM: extract_oom(low, n, s); break;
    case CP_EXTRACT_XID: extract_xid(orig, low, n, s); break;
    case CP_EXTRACT_SONAME: extract_soname(orig, low, n, at, s); break;
    case CP_EXTRACT_NONE: break;
    }
}
