/* Secrets in environment values, by name and by shape (secret.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "facts/secret.h"

/* Spans of the value to replace, sorted and merged when built. */
typedef struct {
    size_t b[32], e[32];
    int n;
    bool whole;
    char *why;
    size_t whycap;
} spans;

static void add_why(spans *s, const char *why)
{
    if (!s->why || s->whycap == 0 || strstr(s->why, why))
        return;
    size_t n = strlen(s->why);
    snprintf(s->why + n, s->whycap - n, "%s%s", n ? ", " : "", why);
}

static void add_span(spans *s, size_t b, size_t e, const char *why)
{
    add_why(s, why);
    if (e <= b)
        return;
    if (s->n == (int)(sizeof s->b / sizeof s->b[0])) {
        s->whole = true;          /* too many to tell apart: keep none of it */
        return;
    }
    s->b[s->n] = b;
    s->e[s->n++] = e;
}

static bool token_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/* Case-insensitive: does the upper-cased name hold word? */
static bool name_has(const char *up, const char *word)
{
    return strstr(up, word) != NULL;
}

/* Known token prefixes, each with the least body that makes it a token. */
static void find_prefixed(const char *v, size_t len, spans *s)
{
    static const struct { const char *prefix; size_t min; bool upper; const char *why; } known[] = {
        { "ghp_", 20, false, "a GitHub token" }, { "gho_", 20, false, "a GitHub token" },
        { "ghu_", 20, false, "a GitHub token" }, { "ghs_", 20, false, "a GitHub token" },
        { "ghr_", 20, false, "a GitHub token" }, { "github_pat_", 20, false, "a GitHub token" },
        { "glpat-", 16, false, "a GitLab token" }, { "xoxb-", 10, false, "a Slack token" },
        { "xoxp-", 10, false, "a Slack token" }, { "xoxa-", 10, false, "a Slack token" },
        { "xoxr-", 10, false, "a Slack token" }, { "xoxs-", 10, false, "a Slack token" },
        { "hf_", 20, false, "a Hugging Face token" }, { "sk-", 20, false, "an API key (sk-)" },
        { "AKIA", 16, true, "an AWS access key" }, { "ASIA", 16, true, "an AWS access key" },
        { "npm_", 30, false, "an npm token" }, { "pypi-", 40, false, "a PyPI token" },
        { "AIza", 30, false, "a Google API key" }, { "nvapi-", 20, false, "an NVIDIA API key" },
    };
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
        size_t pl = strlen(known[k].prefix);
        for (const char *p = v; (p = strstr(p, known[k].prefix)) != NULL; p += pl) {
            size_t at = (size_t)(p - v);
            if (at > 0 && (isalnum((unsigned char)v[at - 1]) || v[at - 1] == '_' || v[at - 1] == '-'))
                continue;           /* inside another word */
            size_t e = at + pl;
            while (e < len && (known[k].upper ? (isupper((unsigned char)v[e]) || isdigit((unsigned char)v[e]))
                                              : token_char(v[e])))
                e++;
            if (e - at - pl >= known[k].min)
                add_span(s, at, e, known[k].why);
        }
    }
}

static bool b64url(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '=';
}

/* JSON Web Tokens: three base64url parts, the first a JSON object ("eyJ"). */
static void find_jwt(const char *v, size_t len, spans *s)
{
    for (const char *p = v; (p = strstr(p, "eyJ")) != NULL; p += 3) {
        size_t at = (size_t)(p - v), e = at;
        if (at > 0 && b64url(v[at - 1]))
            continue;
        int parts = 0;
        size_t partlen = 0;
        for (;;) {
            size_t st = e;
            while (e < len && b64url(v[e]))
                e++;
            partlen = e - st;
            parts++;
            if (parts < 3 && partlen >= 4 && e < len && v[e] == '.') {
                e++;
                continue;
            }
            break;
        }
        if (parts == 3 && e - at >= 20)
            add_span(s, at, e, "a JWT");
        (void)partlen;
    }
}

/* Credentials in a URL's user part (with or without a password), signed-URL
 * parameters, a conda channel's /t/<token>/. */
static void find_url_parts(const char *v, size_t len, spans *s)
{
    for (const char *p = v; (p = strstr(p, "://")) != NULL; p += 3) {
        size_t a = (size_t)(p - v) + 3, e = a, at = (size_t)-1;
        while (e < len && !strchr("/?# \t", v[e])) {
            if (v[e] == '@')
                at = e;
            e++;
        }
        if (at != (size_t)-1 && at > a)
            add_span(s, a, at, "credentials in a URL");
    }
    static const char *const params[] = { "x-amz-signature", "x-amz-credential", "x-amz-security-token",
        "x-goog-signature", "x-goog-credential", "sig", "signature", "token", "access_token", "id_token",
        "refresh_token", "auth", "api_key", "apikey", "key", "password", "passwd", "secret",
        "client_secret", NULL };
    for (size_t i = 0; i < len; i++) {
        if (v[i] != '?' && v[i] != '&' && v[i] != ';')
            continue;
        size_t nb = i + 1, ne = nb;
        while (ne < len && v[ne] != '=' && !strchr("&;#? \t", v[ne]))
            ne++;
        if (ne >= len || v[ne] != '=')
            continue;
        for (int k = 0; params[k]; k++) {
            if (strlen(params[k]) != ne - nb || strncasecmp(v + nb, params[k], ne - nb) != 0)
                continue;
            size_t ve = ne + 1;
            while (ve < len && !strchr("&;# \t", v[ve]))
                ve++;
            char why[64];
            snprintf(why, sizeof why, "the URL parameter %s", params[k]);
            if (ve > ne + 1)
                add_span(s, ne + 1, ve, why);
            break;
        }
    }
    for (const char *p = v; (p = strstr(p, "/t/")) != NULL; p += 3) {
        size_t b = (size_t)(p - v) + 3, e = b;
        while (e < len && token_char(v[e]))
            e++;
        if (e - b >= 8 && (e == len || v[e] == '/') && strstr(v, "://"))
            add_span(s, b, e, "a conda channel token");
    }
}

/* A long string that looks random, not a path, a list or a word. */
static bool looks_random(const char *v)
{
    size_t n = strlen(v);
    int lower = 0, upper = 0, digit = 0;
    if (n < 16 || v[0] == '/' || strstr(v, "://"))
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        if (islower(c)) lower++;
        else if (isupper(c)) upper++;
        else if (isdigit(c)) digit++;
        else if (!strchr("+/=_-.", c)) return false;
    }
    return digit >= 2 && lower + upper >= 4 && (lower > 0) + (upper > 0) + (digit > 0) >= 2;
}

/* See secret.h. */
int cp_secret_redact(const char *name, const char *value, char *out, size_t cap, char *why, size_t whycap)
{
    static const char *const secret_words[] = { "TOKEN", "SECRET", "PASSW", "PASSPHRASE", "KEY",
        "CREDENTIAL", "AUTH", "COOKIE", "SESSION", "PRIVATE", "SIGNATURE", NULL };
    static const char *const credential_words[] = { "PASS", "PWD", "CRED", "API", "ACCESS", "_PAT",
        "PAT_", "BEARER", "LOGIN", NULL };
    spans s = { .why = why, .whycap = whycap };
    if (why && whycap)
        why[0] = '\0';
    if (!out || cap == 0)
        return 0;
    out[0] = '\0';
    if (!name)
        name = "";
    if (!value)
        value = "";
    char up[128];
    size_t i;
    for (i = 0; name[i] && i < sizeof up - 1; i++)
        up[i] = (char)toupper((unsigned char)name[i]);
    up[i] = '\0';
    for (int w = 0; secret_words[w]; w++)
        if (name_has(up, secret_words[w])) {
            char r[64];
            snprintf(r, sizeof r, "the name says %s", secret_words[w]);
            add_why(&s, r);
            s.whole = true;
            break;
        }
    size_t len = strlen(value);
    if (!s.whole) {
        find_prefixed(value, len, &s);
        find_jwt(value, len, &s);
        find_url_parts(value, len, &s);
        for (int w = 0; credential_words[w] && s.n == 0; w++)
            if (name_has(up, credential_words[w]) && looks_random(value)) {
                add_span(&s, 0, len, "a random-looking value under a credential-like name");
                break;
            }
    }
    if (!s.whole && s.n == 0) {
        snprintf(out, cap, "%s", value);
        return 0;
    }
    if (!s.whole) {
        /* spans in order, overlapping or touching ones merged */
        for (int a = 1; a < s.n; a++)
            for (int b = a; b > 0 && s.b[b] < s.b[b - 1]; b--) {
                size_t tb = s.b[b], te = s.e[b];
                s.b[b] = s.b[b - 1]; s.e[b] = s.e[b - 1];
                s.b[b - 1] = tb; s.e[b - 1] = te;
            }
        int m = 0;
        for (int k = 1; k < s.n; k++) {
            if (s.b[k] <= s.e[m]) {
                if (s.e[k] > s.e[m]) s.e[m] = s.e[k];
            } else {
                m++;
                s.b[m] = s.b[k];
                s.e[m] = s.e[k];
            }
        }
        s.n = m + 1;
        size_t o = 0, at = 0;
        for (int k = 0; k <= s.n && !s.whole; k++) {
            size_t b = k < s.n ? s.b[k] : len;
            int w = snprintf(out + o, cap - o, "%.*s%s", (int)(b - at), value + at, k < s.n ? CP_REDACTED : "");
            if (w < 0 || (size_t)w >= cap - o) s.whole = true;
            else o += (size_t)w;
            at = k < s.n ? s.e[k] : len;
        }
    }
    if (s.whole)
        snprintf(out, cap, "%s", CP_REDACTED);
    return 1;
}

/* See secret.h. */
int cp_env_looks_secret(const char *name, const char *value)
{
    char out[16];
    /* the result is cut short here, but whether anything was redacted is not */
    return cp_secret_redact(name, value, out, sizeof out, NULL, 0);
}
