/*
 * A fake machine in a temporary folder, for tests of the sources that read
 * the file system: `root` is the folder (the test fills it, e.g. with
 * mkdtemp), paths given to the helpers are machine paths under it.
 */
#ifndef CP_FAKE_TREE_H
#define CP_FAKE_TREE_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cuprobe/facts.h"

static char root[256];

/* Create every folder above rel. */
static inline void mk(const char *rel)
{
    char p[512];
    snprintf(p, sizeof p, "%s%s", root, rel);
    for (char *s = p + strlen(root) + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0755);
            *s = '/';
        }
}

static inline void put_bytes(const char *rel, const void *b, size_t n)
{
    char p[512];
    mk(rel);
    snprintf(p, sizeof p, "%s%s", root, rel);
    FILE *f = fopen(p, "wb");
    if (f) {
        fwrite(b, 1, n, f);
        fclose(f);
    }
}

static inline void put_file(const char *rel, const char *text)
{
    put_bytes(rel, text, strlen(text));
}

static inline void put_dir(const char *rel)
{
    char p[512];
    mk(rel);
    snprintf(p, sizeof p, "%s%s", root, rel);
    mkdir(p, 0755);
}

static inline void put_link(const char *rel, const char *target)
{
    char p[512];
    mk(rel);
    snprintf(p, sizeof p, "%s%s", root, rel);
    if (symlink(target, p) != 0)
        fprintf(stderr, "  symlink %s: %s\n", p, strerror(errno));
}

/* Add NAME=VALUE to a host's captured environment. */
static inline void set_env(cp_host_facts *h, const char *name, const char *value)
{
    cp_env_var *e = &h->env[h->nenv++];
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->value, sizeof e->value, "%s", value);
}

#endif
