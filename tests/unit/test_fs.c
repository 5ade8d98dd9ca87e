/* The file-system door: root prefixing, reads, listings, recording and
 * writing a snapshot back out.  Run from the repository root. */
#include "test.h"
#include "cuprobe/facts.h"
#include "fs/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define FIX1 "tests/fixtures/h200-1gpu/root"
#define GPU0 "/sys/bus/pci/devices/0000:00:06.0"
#define FIXDEV "/dev"

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(p);
}

static void rm_rf(const char *dir)
{
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int slurp(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, cap - 1);
    close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return (int)n;
}

static void test_open_root(void)
{
    cp_fs *live = cp_fs_open("/", false);
    CHECK(live != NULL);
    CHECK(cp_fs_is_live(live));
    CHECK_STR(cp_fs_root(live), "/");
    cp_fs_close(live);

    cp_fs *fs = cp_fs_open(FIX1 "/", false);
    CHECK(!cp_fs_is_live(fs));
    CHECK_STR(cp_fs_root(fs), FIX1 "/");
    cp_fs_close(fs);
    cp_fs_close(NULL);

    cp_fs *dflt = cp_fs_open(NULL, false);
    CHECK(cp_fs_is_live(dflt));
    cp_fs_close(dflt);
}

static void test_read(void)
{
    cp_fs *fs = cp_fs_open(FIX1, false);
    char buf[64];
    size_t len = 99;
    CHECK_I64(cp_fs_read(fs, GPU0 "/vendor", buf, sizeof buf, &len), 0);
    CHECK_I64(len, 7);
    CHECK_STR(buf, "0x10de\n");

    /* truncated silently to cap-1 and still terminated */
    char small[4];
    CHECK_I64(cp_fs_read(fs, GPU0 "/vendor", small, sizeof small, &len), 0);
    CHECK_I64(len, 3);
    CHECK_STR(small, "0x1");

    CHECK_I64(cp_fs_read(fs, "/no/such/file", buf, sizeof buf, &len), -ENOENT);
    CHECK_I64(len, 0);
    CHECK_STR(buf, "");
    CHECK_I64(cp_fs_read(fs, "/sys/../../etc/passwd", buf, sizeof buf, &len), -EINVAL);
    CHECK_I64(cp_fs_read(fs, "/sys", buf, sizeof buf, &len), -EISDIR);
    CHECK_I64(cp_fs_read(fs, "", buf, sizeof buf, &len), -EINVAL);
    CHECK_I64(cp_fs_read(fs, GPU0 "/vendor", buf, 0, &len), -EINVAL);

    /* binary file: the count says how much, NULs and all */
    char cfg[8192];
    CHECK_I64(cp_fs_read(fs, GPU0 "/config", cfg, sizeof cfg, &len), 0);
    CHECK_I64(len, 4096);
    CHECK((unsigned char)cfg[0] == 0xde && cfg[1] == 0x10);

    char *all = NULL;
    CHECK_I64(cp_fs_read_alloc(fs, "/proc/modules", 1 << 20, &all, &len), 0);
    CHECK(all && len > 10 && all[len] == '\0' && strncmp(all, "nvidia_uvm ", 11) == 0);
    free(all);
    CHECK_I64(cp_fs_read_alloc(fs, "/nope", 100, &all, &len), -ENOENT);
    CHECK(all == NULL);
    CHECK_I64(cp_fs_read_alloc(fs, "/proc/modules", 0, &all, &len), -EINVAL);
    CHECK_I64(cp_fs_read_alloc(fs, "/proc/modules", 5, &all, &len), 0);
    CHECK_STR(all, "nvid");
    free(all);
    cp_fs_close(fs);
}

static void test_live_devices(void)
{
    cp_fs *fs = cp_fs_open("/", false);
    char buf[256];
    size_t len = 7;
    /* a plain read refuses a device; the device reader reads it record by
     * record, and it runs dry at once */
    CHECK_I64(cp_fs_read(fs, "/dev/null", buf, sizeof buf, &len), -ENXIO);
    CHECK_STR(cp_fs_what(fs, "/dev/null"), "a character device");
    CHECK_I64(cp_fs_read_device(fs, "/dev/null", buf, sizeof buf, &len), 0);
    CHECK_I64(len, 0);
    /* /dev/zero never runs dry: the cap bounds it */
    CHECK_I64(cp_fs_read_device(fs, "/dev/zero", buf, sizeof buf, &len), 0);
    CHECK_I64(len, 255);

    int64_t mode = 0, maj = 0, min = 0;
    CHECK_I64(cp_fs_stat(fs, "/dev/null", &mode, &maj, &min), CP_FS_CHR);
    CHECK_I64(maj, 1);
    CHECK_I64(min, 3);
    CHECK_I64(mode, 0666);
    CHECK_I64(cp_fs_access_rw(fs, "/dev/null"), 1);
    CHECK_I64(cp_fs_access_rw(fs, "/no/such/node"), -1);

    /* /dev/kmsg: readable only where dmesg_restrict allows; each record a line */
    char *k = NULL;
    CHECK_I64(cp_fs_read_alloc(fs, "/dev/kmsg", 1 << 20, &k, &len), -ENXIO);
    int rc = cp_fs_read_device_alloc(fs, "/dev/kmsg", 1 << 20, &k, &len);
    if (rc == 0) {
        CHECK(len == 0 || k[len - 1] == '\n');
        free(k);
    } else {
        CHECK(rc == -EACCES || rc == -EPERM || rc == -ENOENT);
    }
    cp_fs_close(fs);
}

static void test_stat_readlink(void)
{
    cp_fs *fs = cp_fs_open(FIX1, false);
    int64_t mode = -5, maj = 0, min = 0;
    CHECK_I64(cp_fs_stat(fs, GPU0 "/vendor", &mode, &maj, &min), CP_FS_FILE);
    CHECK(mode >= 0 && mode <= 07777);
    CHECK_I64(maj, CP_UNKNOWN);
    CHECK_I64(cp_fs_stat(fs, "/sys/bus", NULL, NULL, NULL), CP_FS_DIR);
    CHECK_I64(cp_fs_stat(fs, "/nope", NULL, NULL, NULL), CP_FS_MISSING);
    /* the driver link dangles inside a fixture; stat follows it */
    CHECK_I64(cp_fs_stat(fs, GPU0 "/driver", NULL, NULL, NULL), CP_FS_MISSING);

    char target[128];
    CHECK_I64(cp_fs_readlink(fs, GPU0 "/driver", target, sizeof target), 0);
    CHECK_STR(target, "../../../bus/pci/drivers/nvidia");
    char tiny[6];
    CHECK_I64(cp_fs_readlink(fs, GPU0 "/driver", tiny, sizeof tiny), 0);
    CHECK_STR(tiny, "../..");
    CHECK_I64(cp_fs_readlink(fs, GPU0 "/vendor", target, sizeof target), -EINVAL);
    CHECK_I64(cp_fs_readlink(fs, GPU0 "/nope", target, sizeof target), -ENOENT);

    /* permissions of a snapshot's files say nothing about the machine */
    CHECK_I64(cp_fs_access_rw(fs, GPU0 "/vendor"), -1);
    cp_fs_close(fs);
}

typedef struct {
    char names[16][32];
    int types[16];
    int n, stop_after;
} list_acc;

static int acc_cb(const char *name, cp_fs_type type, void *arg)
{
    list_acc *a = arg;
    if (a->n < 16) {
        snprintf(a->names[a->n], sizeof a->names[0], "%s", name);
        a->types[a->n] = type;
    }
    a->n++;
    return a->stop_after && a->n >= a->stop_after;
}

static void test_list(void)
{
    cp_fs *fs = cp_fs_open(FIX1, false);
    list_acc a = { .n = 0 };
    CHECK_I64(cp_fs_list(fs, "/sys/bus/pci/devices", acc_cb, &a), 7);
    CHECK_I64(a.n, 7);
    for (int i = 1; i < 7; i++)
        CHECK(strcmp(a.names[i - 1], a.names[i]) < 0);
    CHECK_STR(a.names[6], "0000:00:06.0");
    CHECK_I64(a.types[6], CP_FS_DIR);

    list_acc b = { .stop_after = 2 };
    CHECK_I64(cp_fs_list(fs, "/sys/bus/pci/devices", acc_cb, &b), 2);
    CHECK_STR(b.names[1], "0000:00:01.0");

    list_acc c = { .n = 0 };
    cp_fs_list(fs, GPU0, acc_cb, &c);
    int saw_driver = 0;
    for (int i = 0; i < c.n && i < 16; i++)
        if (strcmp(c.names[i], "driver") == 0) {
            saw_driver = 1;
            CHECK_I64(c.types[i], CP_FS_MISSING);
        }
    CHECK(saw_driver);

    CHECK_I64(cp_fs_list(fs, "/nope", acc_cb, &a), -ENOENT);
    CHECK_I64(cp_fs_list(fs, GPU0 "/vendor", acc_cb, &a), -ENOTDIR);
    CHECK_I64(cp_fs_list(fs, "/sys/bus/pci/devices", NULL, NULL), 7);
    cp_fs_close(fs);
}

static void test_fail_read_at(void)
{
    cp_fs *fs = cp_fs_open(FIX1, false);
    char buf[32];
    size_t len;
    cp_fs_fail_read_at(fs, 2);
    CHECK_I64(cp_fs_read(fs, GPU0 "/vendor", buf, sizeof buf, &len), 0);
    CHECK_I64(cp_fs_read(fs, GPU0 "/vendor", buf, sizeof buf, &len), -EIO);
    CHECK_I64(cp_fs_read(fs, GPU0 "/vendor", buf, sizeof buf, &len), 0);
    cp_fs_fail_read_at(fs, 1);
    char *p = NULL;
    CHECK_I64(cp_fs_read_alloc(fs, GPU0 "/vendor", 64, &p, &len), -EIO);
    CHECK(p == NULL);
    cp_fs_fail_read_at(fs, 0);
    CHECK_I64(cp_fs_read(fs, GPU0 "/vendor", buf, sizeof buf, &len), 0);
    cp_fs_close(fs);
}

static void test_snapshot_roundtrip(void)
{
    char dir[] = "/tmp/cuprobe-fsroot-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char out[600];
    snprintf(out, sizeof out, "%s/snap/root", dir);

    cp_fs *fs = cp_fs_open(FIX1, true);
    char buf[64], target[128];
    size_t len;
    cp_fs_list(fs, "/sys/bus/pci/devices", NULL, NULL);
    cp_fs_list(fs, GPU0, NULL, NULL);           /* vendor becomes a placeholder */
    cp_fs_read(fs, GPU0 "/vendor", buf, sizeof buf, &len);  /* ... then real */
    cp_fs_list_prefix(fs, FIXDEV, "nvidia", NULL, NULL);     /* records nvidia* only */
    cp_fs_readlink(fs, GPU0 "/driver", target, sizeof target);
    cp_fs_stat(fs, "/proc/modules", NULL, NULL, NULL);
    cp_fs_read(fs, "/nope", buf, sizeof buf, &len);         /* not recorded */
    char err[256] = "x";
    CHECK_I64(cp_fs_write_snapshot(fs, out, err, sizeof err), 0);
    CHECK_STR(err, "");

    char path[800], got[64];
    snprintf(path, sizeof path, "%s" GPU0 "/vendor", out);
    CHECK_I64(slurp(path, got, sizeof got), 7);
    CHECK_STR(got, "0x10de\n");
    snprintf(path, sizeof path, "%s" GPU0 "/device", out);
    CHECK_I64(slurp(path, got, sizeof got), 0);       /* placeholder */
    snprintf(path, sizeof path, "%s/proc/modules", out);
    CHECK_I64(slurp(path, got, sizeof got), 0);
    snprintf(path, sizeof path, "%s" GPU0 "/driver", out);
    char lt[128];
    ssize_t n = readlink(path, lt, sizeof lt - 1);
    CHECK_I64(n, 31);
    if (n > 0) {
        lt[n] = '\0';
        CHECK_STR(lt, "../../../bus/pci/drivers/nvidia");
    }
    snprintf(path, sizeof path, "%s/nope", out);
    CHECK(access(path, F_OK) != 0);
    snprintf(path, sizeof path, "%s/dev/nvidiactl", out);
    CHECK(access(path, F_OK) == 0);
    snprintf(path, sizeof path, "%s/dev/kmsg", out);          /* not an nvidia* name */
    CHECK(access(path, F_OK) != 0);

    /* a recorded folder with nothing recorded in it keeps a marker file, so
     * git does not lose it, and a replay's listing does not show the marker */
    snprintf(path, sizeof path, "%s/proc/driver/nvidia/gpus/0000:00:06.0/.cuprobe-keep", out);
    CHECK(access(path, F_OK) != 0);                 /* holds recorded entries */
    {
        cp_fs *e = cp_fs_open(FIX1, true);
        char edir[700];
        snprintf(edir, sizeof edir, "%s/empty", dir);
        cp_fs_list(e, "/proc/driver/nvidia/patches", NULL, NULL);
        cp_fs_list_prefix(e, "/proc/driver/nvidia/gpus", "zzz", NULL, NULL);  /* listed, nothing kept */
        CHECK_I64(cp_fs_write_snapshot(e, edir, err, sizeof err), 0);
        cp_fs_close(e);
        snprintf(path, sizeof path, "%s/proc/driver/nvidia/patches/.cuprobe-keep", edir);
        CHECK(access(path, F_OK) != 0);             /* README is in it */
        snprintf(path, sizeof path, "%s/proc/driver/nvidia/gpus/.cuprobe-keep", edir);
        CHECK(access(path, F_OK) == 0);
        cp_fs *re2 = cp_fs_open(edir, false);
        CHECK_I64(cp_fs_list(re2, "/proc/driver/nvidia/gpus", NULL, NULL), 0);
        CHECK_I64(cp_fs_list(re2, "/proc/driver/nvidia/patches", NULL, NULL), 1);
        cp_fs_close(re2);
        rm_rf(edir);
    }

    /* writing twice over the same folder works (links are replaced) */
    CHECK_I64(cp_fs_write_snapshot(fs, out, err, sizeof err), 0);

    /* the snapshot replays: reading through it gives the same bytes */
    cp_fs *re = cp_fs_open(out, false);
    CHECK_I64(cp_fs_read(re, GPU0 "/vendor", buf, sizeof buf, &len), 0);
    CHECK_STR(buf, "0x10de\n");
    cp_fs_close(re);
    cp_fs_close(fs);
    rm_rf(dir);
}

/* A snapshot's links resolve inside the snapshot: an absolute link never
 * reaches the machine doing the replay, ".." never climbs above the root. */
static void test_links_stay_inside(void)
{
    char dir[] = "/tmp/cuprobe-fsroot-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char p[600];
    snprintf(p, sizeof p, "%s/etc", dir);
    CHECK(mkdir(p, 0755) == 0);
    snprintf(p, sizeof p, "%s/etc/hostname", dir);
    FILE *fp = fopen(p, "w");
    CHECK(fp != NULL);
    if (fp) { fputs("inside\n", fp); fclose(fp); }
    snprintf(p, sizeof p, "%s/abs", dir);
    CHECK(symlink("/etc", p) == 0);              /* would be the live /etc */
    snprintf(p, sizeof p, "%s/up", dir);
    CHECK(symlink("../../../../etc", p) == 0);   /* would climb out */
    snprintf(p, sizeof p, "%s/loop", dir);
    CHECK(symlink("/loop", p) == 0);

    cp_fs *fs = cp_fs_open(dir, false);
    char buf[64], target[64];
    size_t len;
    CHECK_I64(cp_fs_read(fs, "/abs/hostname", buf, sizeof buf, &len), 0);
    CHECK_STR(buf, "inside\n");
    CHECK_I64(cp_fs_read(fs, "/up/hostname", buf, sizeof buf, &len), 0);
    CHECK_STR(buf, "inside\n");
    CHECK(cp_fs_stat(fs, "/abs", NULL, NULL, NULL) == CP_FS_DIR);
    CHECK_I64(cp_fs_readlink(fs, "/abs", target, sizeof target), 0);
    CHECK_STR(target, "/etc");
    CHECK_I64(cp_fs_read(fs, "/loop", buf, sizeof buf, &len), -ELOOP);
    CHECK_I64(cp_fs_read(fs, "/abs/passwd", buf, sizeof buf, &len), -ENOENT);
    cp_fs_close(fs);
    rm_rf(dir);
}

static void test_snapshot_never_leaves_dir(void)
{
    char dir[] = "/tmp/cuprobe-fsroot-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char out[600], victim[600], link[700];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    mkdir(out, 0755);
    mkdir(victim, 0755);
    /* a hostile "sys" in the target folder points elsewhere */
    snprintf(link, sizeof link, "%s/sys", out);
    CHECK(symlink(victim, link) == 0);

    cp_fs *fs = cp_fs_open(FIX1, true);
    char buf[64];
    size_t len;
    cp_fs_read(fs, GPU0 "/vendor", buf, sizeof buf, &len);
    char err[256] = "";
    int rc = cp_fs_write_snapshot(fs, out, err, sizeof err);
    CHECK(rc < 0);
    CHECK(strstr(err, "cannot write the snapshot's copy of '" GPU0 "/vendor'") == err);
    char probe[800];
    snprintf(probe, sizeof probe, "%s/bus", victim);
    CHECK(access(probe, F_OK) != 0);
    cp_fs_close(fs);

    /* a view that did not record writes an empty tree */
    cp_fs *plain = cp_fs_open(FIX1, false);
    cp_fs_read(plain, GPU0 "/vendor", buf, sizeof buf, &len);
    char out2[700];
    snprintf(out2, sizeof out2, "%s/empty", dir);
    CHECK_I64(cp_fs_write_snapshot(plain, out2, err, sizeof err), 0);
    CHECK_I64(cp_fs_write_snapshot(plain, "", err, sizeof err), -EINVAL);
    cp_fs_close(plain);
    rm_rf(dir);
}

static void test_snapshot_live_chr(void)
{
    char dir[] = "/tmp/cuprobe-fsroot-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    cp_fs *fs = cp_fs_open("/", true);
    char buf[16];
    size_t len;
    CHECK_I64(cp_fs_read_device(fs, "/dev/null", buf, sizeof buf, &len), 0);
    cp_fs_stat(fs, "/dev/zero", NULL, NULL, NULL);
    char err[128];
    CHECK_I64(cp_fs_write_snapshot(fs, dir, err, sizeof err), 0);
    char p[700];
    struct stat st;
    snprintf(p, sizeof p, "%s/dev/null", dir);
    CHECK(lstat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0);
    snprintf(p, sizeof p, "%s/dev/zero", dir);
    CHECK(lstat(p, &st) == 0 && S_ISREG(st.st_mode));
    cp_fs_close(fs);
    rm_rf(dir);
}

/* mkdir -p for a test tree. */
static int mkdir_p_test(const char *path)
{
    char b[600];
    snprintf(b, sizeof b, "%s", path);
    for (char *s = b + 1; *s; s++)
        if (*s == '/') { *s = '\0'; mkdir(b, 0755); *s = '/'; }
    return mkdir(b, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

/* The one resolver: links followed inside the view, a missing tail kept as
 * written ("many missing"), ".." folded after the links before it; and the
 * reads that follow links record them as links, with the file under its
 * real name, so a snapshot of a path through a link keeps the link. */
static void test_realpath(void)
{
    char dir[] = "/tmp/cuprobe-fsroot-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char p[600], out[256];
    snprintf(p, sizeof p, "%s/usr/local/cuda-13.0/lib64", dir);
    CHECK(mkdir_p_test(p) == 0);
    snprintf(p, sizeof p, "%s/usr/local/cuda-13.0/version.json", dir);
    FILE *fp = fopen(p, "w");
    if (fp) { fputs("{}\n", fp); fclose(fp); }
    snprintf(p, sizeof p, "%s/usr/local/cuda", dir);
    CHECK(symlink("/usr/local/cuda-13.0", p) == 0);   /* absolute: the view's root */
    snprintf(p, sizeof p, "%s/usr/local/lib64", dir);
    CHECK(symlink("cuda/lib64", p) == 0);             /* relative, through another link */

    cp_fs *fs = cp_fs_open(dir, true);
    CHECK_I64(cp_fs_realpath(fs, "/usr/local/cuda/version.json", out, sizeof out), 0);
    CHECK_STR(out, "/usr/local/cuda-13.0/version.json");
    CHECK_I64(cp_fs_realpath(fs, "/usr/local/cuda/no/such/file", out, sizeof out), 0);
    CHECK_STR(out, "/usr/local/cuda-13.0/no/such/file");
    CHECK_I64(cp_fs_realpath(fs, "/usr/local/lib64/../version.json", out, sizeof out), 0);
    CHECK_STR(out, "/usr/local/cuda-13.0/version.json");   /* ".." after the link, as the kernel */
    CHECK_I64(cp_fs_realpath(fs, "/../../usr//./local/cuda", out, sizeof out), 0);
    CHECK_STR(out, "/usr/local/cuda-13.0");
    CHECK_I64(cp_fs_realpath(fs, "usr/local", out, sizeof out), -EINVAL);
    char tiny[8];
    CHECK_I64(cp_fs_realpath(fs, "/usr/local/cuda", tiny, sizeof tiny), -ENAMETOOLONG);
    CHECK_STR(tiny, "");
    CHECK_I64(cp_fs_stat_real(fs, "/usr/local/lib64", out, sizeof out), CP_FS_DIR);
    CHECK_STR(out, "/usr/local/cuda-13.0/lib64");
    CHECK_I64(cp_fs_stat_real(fs, "/usr/local/cuda/nope", out, sizeof out), CP_FS_MISSING);
    CHECK_STR(out, "");
    CHECK_I64(cp_fs_host_path(fs, "/usr/local/cuda/version.json", p, sizeof p), 0);
    CHECK(strstr(p, dir) == p && strcmp(p + strlen(dir), "/usr/local/cuda-13.0/version.json") == 0);

    /* a read through the link, recorded: the snapshot keeps the link */
    char buf[16], snap[300];
    size_t len;
    cp_fs *rec = cp_fs_open(dir, true);
    CHECK_I64(cp_fs_read(rec, "/usr/local/cuda/version.json", buf, sizeof buf, &len), 0);
    snprintf(snap, sizeof snap, "%s/snap", dir);
    char err[256];
    CHECK_I64(cp_fs_write_snapshot(rec, snap, err, sizeof err), 0);
    cp_fs_close(rec);
    struct stat st;
    snprintf(p, sizeof p, "%s/usr/local/cuda", snap);
    CHECK(lstat(p, &st) == 0 && S_ISLNK(st.st_mode));
    snprintf(p, sizeof p, "%s/usr/local/cuda-13.0/version.json", snap);
    CHECK(lstat(p, &st) == 0 && S_ISREG(st.st_mode));
    cp_fs *re = cp_fs_open(snap, false);
    CHECK_I64(cp_fs_read(re, "/usr/local/cuda/version.json", buf, sizeof buf, &len), 0);
    CHECK_STR(buf, "{}\n");
    cp_fs_close(re);
    cp_fs_close(fs);
    rm_rf(dir);
}

/* A FIFO or a socket is refused at once, never opened for a read that
 * blocks (a FIFO without a writer used to hold an open without O_NONBLOCK
 * forever); the alarm turns a hang into a failure. */
static void test_special_files_never_block(void)
{
    char dir[] = "/tmp/cuprobe-fsfifo-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char fifo[100], sock[100], sub[100];
    snprintf(sub, sizeof sub, "%s/etc", dir);
    CHECK_I64(mkdir(sub, 0755), 0);
    snprintf(fifo, sizeof fifo, "%s/etc/fifo", dir);
    CHECK_I64(mkfifo(fifo, 0644), 0);
    snprintf(sock, sizeof sock, "%s/etc/sock", dir);
    int sfd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", sock);
    CHECK(sfd >= 0 && bind(sfd, (struct sockaddr *)&sa, sizeof sa) == 0);
    alarm(10);
    char buf[64], *all = NULL;
    size_t len = 9;
    cp_fs *snap = cp_fs_open(dir, false), *live = cp_fs_open("/", false);
    CHECK_I64(cp_fs_read(snap, "/etc/fifo", buf, sizeof buf, &len), -ENXIO);
    CHECK_I64(len, 0);
    CHECK_I64(cp_fs_read_alloc(snap, "/etc/fifo", 64, &all, &len), -ENXIO);
    CHECK(all == NULL);
    CHECK_I64(cp_fs_read_device(snap, "/etc/fifo", buf, sizeof buf, &len), -ENXIO);
    CHECK_STR(cp_fs_what(snap, "/etc/fifo"), "a FIFO");
    CHECK_I64(cp_fs_read(live, fifo, buf, sizeof buf, &len), -ENXIO);
    CHECK_I64(cp_fs_read(snap, "/etc/sock", buf, sizeof buf, &len), -ENXIO);
    CHECK_STR(cp_fs_what(snap, "/etc/sock"), "a socket");
    CHECK_I64(cp_fs_read(live, sock, buf, sizeof buf, &len), -ENXIO);
    CHECK_STR(cp_fs_what(snap, "/etc"), "a folder");
    CHECK_STR(cp_fs_what(snap, "/etc/none"), "missing");
    alarm(0);
    cp_fs_close(snap);
    cp_fs_close(live);
    if (sfd >= 0)
        close(sfd);
    rm_rf(dir);
}

int main(void)
{
    RUN(test_open_root);
    RUN(test_read);
    RUN(test_live_devices);
    RUN(test_stat_readlink);
    RUN(test_list);
    RUN(test_fail_read_at);
    RUN(test_snapshot_roundtrip);
    RUN(test_links_stay_inside);
    RUN(test_snapshot_never_leaves_dir);
    RUN(test_snapshot_live_chr);
    RUN(test_realpath);
    RUN(test_special_files_never_block);
    return TEST_END();
}
