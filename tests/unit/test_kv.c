/* The answers format (kv) and the facts <-> answers tables. */
#include "test.h"
#include <stdlib.h>
#include "cuprobe/facts.h"
#include "facts/facts_kv.h"
#include "facts/kv.h"

typedef struct { int n; char key[8][128]; char val[8][256]; } seen;

static int collect(const char *k, const char *v, void *arg)
{
    seen *s = arg;
    if (s->n < 8) {
        snprintf(s->key[s->n], sizeof s->key[0], "%s", k);
        snprintf(s->val[s->n], sizeof s->val[0], "%s", v);
    }
    s->n++;
    return 0;
}

static void test_escape_roundtrip(void)
{
    cp_buf b = { 0 };
    cp_kv_put_str(&b, "a.b", "tab\there\nnew \\slash \x01\x7f\xff end");
    cp_kv_put_i64(&b, "n", 42);
    cp_kv_put_i64(&b, "u", CP_UNKNOWN);
    CHECK(!b.failed);
    seen s = { 0 };
    CHECK_I64(cp_kv_parse(b.data, b.len, collect, &s), 0);
    CHECK_I64(s.n, 3);
    CHECK_STR(s.key[0], "a.b");
    CHECK_STR(s.val[0], "tab\there\nnew \\slash \x01\x7f\xff end");
    CHECK_STR(s.val[1], "42");
    CHECK_STR(s.val[2], "?");
    int64_t v = 0;
    CHECK(cp_kv_i64(s.val[2], &v) && v == CP_UNKNOWN);
    CHECK(cp_kv_i64("0x10", &v) && v == 16);
    CHECK(!cp_kv_i64("12abc", &v));
    CHECK(!cp_kv_i64("", &v));
    CHECK(!cp_kv_i64("99999999999999999999999", &v));
    cp_buf_free(&b);
}

static void test_malformed_lines(void)
{
    const char text[] = "# comment\n\nnospace\nok value\r\n\\x00 \nkey \\x00nul\n";
    seen s = { 0 };
    CHECK_I64(cp_kv_parse(text, sizeof text - 1, collect, &s), 1);
    CHECK_I64(s.n, 3);
    CHECK_STR(s.val[0], "value");          /* CR stripped */
    CHECK_STR(s.val[2], "?nul");           /* an escaped NUL never cuts a value */
    /* a NUL byte in the middle of a line and no final newline */
    const char bin[] = { 'k', ' ', 'a', '\0', 'b' };
    seen t = { 0 };
    CHECK_I64(cp_kv_parse(bin, sizeof bin, collect, &t), 0);
    CHECK_STR(t.val[0], "a?b");
}

static void test_facts_roundtrip(void)
{
    static cp_facts a, b;
    char err[128];
    cp_facts_init(&a);
    cp_facts_init(&b);
    a.cuda.run.state = CP_PROBE_DONE;
    a.cuda.run.elapsed_ms = 101.5;
    a.cuda.lib.loaded = true;
    snprintf(a.cuda.lib.path, sizeof a.cuda.lib.path, "/usr/lib/libcuda.so.580.159.04");
    a.cuda.init_result = 0;
    a.cuda.driver_version = 13000;
    a.cuda.ndev = 2;
    snprintf(a.cuda.dev[1].name, sizeof a.cuda.dev[1].name, "NVIDIA H200");
    a.cuda.dev[1].total_mem_bytes = 150754820096LL;
    a.nvml.ndev = 1;
    a.nvml.dev[0].sample.nprocs = 2;
    a.nvml.dev[0].sample.nprocs_total = 2;
    a.nvml.dev[0].sample.procs[1].pid = 4242;
    a.nvml.dev[0].sample.procs[1].used_bytes = 1 << 30;
    a.host.uid = 1000;
    a.host.ndev = 1;
    snprintf(a.host.dev[0].path, sizeof a.host.dev[0].path, "/dev/nvidia0");
    a.host.dev[0].exists = true;
    a.host.dev[0].accessible = CP_NO;
    snprintf(a.host.dev[0].type, sizeof a.host.dev[0].type, "char");
    a.host.dev[0].open_errno = 1;     /* EPERM */
    a.host.nenv = 2;
    snprintf(a.host.env[0].name, sizeof a.host.env[0].name, "CUDA_VISIBLE_DEVICES");
    snprintf(a.host.env[0].value, sizeof a.host.env[0].value, "0,1");
    snprintf(a.host.env[1].name, sizeof a.host.env[1].name, "HF_TOKEN");
    snprintf(a.host.env[1].value, sizeof a.host.env[1].value, "hf_secret");
    snprintf(a.captured_at, sizeof a.captured_at, "2026-11-30T04:00:00Z");

    cp_buf buf = { 0 };
    cp_facts_put_meta(&buf, &a);
    cp_facts_put_host(&buf, &a.host, 1);
    cp_facts_put_cuda(&buf, &a.cuda);
    cp_facts_put_nvml(&buf, &a.nvml);
    CHECK(strstr(buf.data, "hf_secret") == NULL);
    CHECK(strstr(buf.data, "host.env.HF_TOKEN <redacted>") != NULL);
    int seen_mask = cp_facts_load(buf.data, buf.len, &b, err, sizeof err);
    CHECK_I64(seen_mask, CP_KV_CUDA | CP_KV_NVML | CP_KV_HOST | CP_KV_META);
    CHECK_I64(b.cuda.run.state, CP_PROBE_DONE);
    CHECK(b.cuda.run.elapsed_ms > 101.4 && b.cuda.run.elapsed_ms < 101.6);
    CHECK(b.cuda.lib.loaded);
    CHECK_STR(b.cuda.lib.path, a.cuda.lib.path);
    CHECK_I64(b.cuda.driver_version, 13000);
    CHECK_I64(b.cuda.ndev, 2);
    CHECK_STR(b.cuda.dev[1].name, "NVIDIA H200");
    CHECK_I64(b.cuda.dev[1].total_mem_bytes, 150754820096LL);
    CHECK_I64(b.cuda.dev[0].total_mem_bytes, CP_UNKNOWN);     /* unknown stays unknown */
    CHECK_I64(b.nvml.dev[0].sample.procs[1].pid, 4242);
    CHECK_I64(b.nvml.dev[0].sample.nprocs, 2);
    CHECK_I64(b.host.uid, 1000);
    CHECK_I64(b.host.dev[0].accessible, CP_NO);
    CHECK_STR(b.host.dev[0].type, "char");
    CHECK_I64(b.host.dev[0].open_errno, 1);
    CHECK_STR(b.host.env[0].value, "0,1");
    CHECK_STR(b.captured_at, "2026-11-30T04:00:00Z");
    cp_buf_free(&buf);
}

/* Answers written before the node type and the open's errno: both stay
 * unknown, never a value a check could hold against the node. */
static void test_devnode_old_keys(void)
{
    static cp_facts f;
    char err[160];
    cp_facts_init(&f);
    const char *old = "host.dev.0.path /dev/nvidia-uvm\nhost.dev.0.exists 1\nhost.dev.0.is_chr 1\n"
                      "host.dev.0.major 238\nhost.dev.0.minor 0\nhost.dev.0.mode 438\nhost.dev.0.accessible 1\n"
                      "host.end ok\n";
    CHECK_I64(cp_facts_load(old, strlen(old), &f, err, sizeof err), CP_KV_HOST);
    CHECK_I64(f.host.ndev, 1);
    CHECK_STR(f.host.dev[0].type, "");
    CHECK_I64(f.host.dev[0].open_errno, CP_UNKNOWN);
    CHECK(!f.host.devices.present);
}

static void test_load_errors(void)
{
    static cp_facts f;
    char err[160];
    cp_facts_init(&f);
    const char *bad = "cuda.init_result banana\ncuda.end ok\n";
    CHECK_I64(cp_facts_load(bad, strlen(bad), &f, err, sizeof err), -1);
    CHECK(strstr(err, "cuda.init_result") != NULL);
    const char *range = "cuda.dev.999.name x\n";
    CHECK_I64(cp_facts_load(range, strlen(range), &f, err, sizeof err), -1);
    const char *cut = "cuda.end ok\nnvml.driver_vers";      /* cut mid-line: no nvml end */
    CHECK_I64(cp_facts_load(cut, strlen(cut), &f, err, sizeof err), CP_KV_CUDA);
    const char *newer = "cuda.some_future_field 7\ncuda.end ok\n";
    CHECK_I64(cp_facts_load(newer, strlen(newer), &f, err, sizeof err), CP_KV_CUDA);
    const char *procs = "nvml.dev.0.nprocs 99\n";           /* more than we can hold */
    CHECK_I64(cp_facts_load(procs, strlen(procs), &f, err, sizeof err), -1);
}

static void test_frameworks_roundtrip(void)
{
    static cp_facts a, b;
    char err[128];
    cp_facts_init(&a);
    cp_facts_init(&b);
    a.frameworks.npython = 1;
    snprintf(a.frameworks.python[0], sizeof a.frameworks.python[0], "/opt/torch/.venv/lib/python3.12/site-packages");
    a.frameworks.nfw = 2;
    cp_framework *t = &a.frameworks.fw[0];
    snprintf(t->name, sizeof t->name, "torch");
    snprintf(t->version, sizeof t->version, "2.11.0+cu130");
    snprintf(t->cuda_version, sizeof t->cuda_version, "13.0");
    t->ncodes = 3;
    strcpy(t->codes[0], "sm_80");
    strcpy(t->codes[1], "sm_90a");
    strcpy(t->codes[2], "compute_120");
    t->code_entries[0] = 444;
    t->code_entries[1] = 12;
    t->code_entries[2] = 3;
    snprintf(a.frameworks.fw[1].name, sizeof a.frameworks.fw[1].name, "cupy");
    cp_buf buf = { 0 };
    cp_facts_put_frameworks(&buf, &a.frameworks);
    CHECK_I64(cp_facts_load(buf.data, buf.len, &b, err, sizeof err), CP_KV_FW);
    CHECK_I64(b.frameworks.nfw, 2);
    CHECK_I64(b.frameworks.npython, 1);
    CHECK_STR(b.frameworks.python[0], a.frameworks.python[0]);
    CHECK_STR(b.frameworks.fw[0].version, "2.11.0+cu130");
    CHECK_I64(b.frameworks.fw[0].ncodes, 3);
    CHECK_STR(b.frameworks.fw[0].codes[2], "compute_120");
    CHECK_I64(b.frameworks.fw[0].code_entries[0], 444);
    CHECK_I64(b.frameworks.fw[0].code_entries[1], 12);
    CHECK_I64(b.frameworks.fw[0].code_entries[2], 3);
    CHECK_I64(b.frameworks.fw[1].ncodes, 0);
    CHECK_STR(b.frameworks.fw[1].name, "cupy");
    const char *bad = "fw.python.9 x\n";
    CHECK_I64(cp_facts_load(bad, strlen(bad), &b, err, sizeof err), -1);
    bad = "fw.0.code_entries 12 x4\n";
    CHECK_I64(cp_facts_load(bad, strlen(bad), &b, err, sizeof err), -1);
    bad = "fw.0.code_entries -3\n";
    CHECK_I64(cp_facts_load(bad, strlen(bad), &b, err, sizeof err), -1);
    cp_buf_free(&buf);
}

static void test_libs_roundtrip(void)
{
    static cp_facts a, b;
    char err[128];
    cp_facts_init(&a);
    cp_facts_init(&b);
    a.libraries.nlib = 2;
    a.libraries.lib[0].loads = CP_YES;
    snprintf(a.libraries.lib[0].version_call, sizeof a.libraries.lib[0].version_call, "13.1.0");
    a.libraries.lib[1].loads = CP_NO;
    snprintf(a.libraries.lib[1].load_error, sizeof a.libraries.lib[1].load_error,
             "libcublasLt.so.13: cannot open shared object file: No such file or directory");
    cp_buf buf = { 0 };
    cp_facts_put_libs(&buf, &a.libraries);
    CHECK_I64(cp_facts_load(buf.data, buf.len, &b, err, sizeof err), CP_KV_LIBS);
    CHECK_I64(b.libraries.lib[0].loads, CP_YES);
    CHECK_STR(b.libraries.lib[0].version_call, "13.1.0");
    CHECK_I64(b.libraries.lib[1].loads, CP_NO);
    CHECK_STR(b.libraries.lib[1].load_error, a.libraries.lib[1].load_error);
    CHECK_I64(b.libraries.lib[2].loads, CP_TRI_UNKNOWN);
    cp_buf_free(&buf);
}

static void test_secret_names(void)
{
    CHECK(cp_env_looks_secret("HF_TOKEN", "x"));
    CHECK(cp_env_looks_secret("aws_secret_access_key", "x"));
    CHECK(cp_env_looks_secret("WANDB_API_KEY", "x"));
    CHECK(cp_env_looks_secret("PIP_INDEX_URL", "https://user:pw@pypi.example/simple"));
    CHECK(!cp_env_looks_secret("CUDA_VISIBLE_DEVICES", "0,1"));
    CHECK(!cp_env_looks_secret("PATH", "/usr/bin:/bin"));
    CHECK(!cp_env_looks_secret("PIP_INDEX_URL", "https://pypi.example/simple"));
}

/* The value-shape classifier, as a table: what a snapshot keeps of each
 * value, and why it redacted what it did.  True positives first, then the
 * values that must stay as they are. */
static void test_secret_shapes(void)
{
    static const struct { const char *name, *value, *kept, *why; } rows[] = {
        { "CONDA_GH", "ghp_aBcdEf0123456789aBcdEf0123456789", "<redacted>", "a GitHub token" },
        { "LD_NOTE", "use github_pat_11ABCDEFG0123456789_abcdefghijklmnop now", "use <redacted> now", "a GitHub token" },
        { "CUDA_X", "glpat-abcdefghij0123456789", "<redacted>", "a GitLab token" },
        { "NV_HOOK", "xoxb-12345-67890-abcdefghij", "<redacted>", "a Slack token" },
        { "PYTHON_HF", "hf_abcdefghijklmnopqrstuvwxyz012345", "<redacted>", "a Hugging Face token" },
        { "TORCH_OAI", "sk-proj-abcdefghijklmnop0123456789", "<redacted>", "an API key (sk-)" },
        { "CUDA_AWS", "AKIAIOSFODNN7EXAMPLE", "<redacted>", "an AWS access key" },
        { "CONDA_JWT", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
          "Bearer <redacted>", "a JWT" },
        { "PIP_URL", "https://ghtoken123@git.example.com/org/repo.git", "https://<redacted>@git.example.com/org/repo.git",
          "credentials in a URL" },
        { "PIP_INDEX_URL", "https://user:pw@pypi.example/simple", "https://<redacted>@pypi.example/simple",
          "credentials in a URL" },
        { "NV_GPG_PASSPHRASE", "correct horse", "<redacted>", "the name says PASSPHRASE" },
        { "HF_TOKEN", "x", "<redacted>", "the name says TOKEN" },
        { "CONDA_CHANNELS", "https://conda.anaconda.org/t/ab-0123456789abcdef/private",
          "https://conda.anaconda.org/t/<redacted>/private", "a conda channel token" },
        { "CUDA_DL", "https://b.s3.amazonaws.com/f?X-Amz-Algorithm=AWS4&X-Amz-Signature=abc123def&x=1",
          "https://b.s3.amazonaws.com/f?X-Amz-Algorithm=AWS4&X-Amz-Signature=<redacted>&x=1",
          "the URL parameter x-amz-signature" },
        { "CUDA_BLOB", "https://a.blob.core.windows.net/c/f?sv=2020&sig=Zm9vYmFy%3D", "https://a.blob.core.windows.net/c/f?sv=2020&sig=<redacted>",
          "the URL parameter sig" },
        { "CUDA_U", "https://h.example/x?token=abc&Signature=def", "https://h.example/x?token=<redacted>&Signature=<redacted>",
          "the URL parameter token, the URL parameter signature" },
        { "CUDA_API_PW", "Zx81kLq0PvB3nRt7Ya2M", "<redacted>", "a random-looking value under a credential-like name" },
    };
    static const struct { const char *name, *value; } keep[] = {
        { "PATH", "/usr/local/cuda/bin:/usr/local/sbin:/usr/bin:/bin" },
        { "LD_LIBRARY_PATH", "/usr/local/cuda/lib64:/opt/conda/lib/python3.11/site-packages/nvidia/cublas/lib" },
        { "CUDA_VISIBLE_DEVICES", "GPU-5d8c2a3e-1b4f-9a77-0c2d-6e1f3a9b8c7d,MIG-4f1a2b3c-0d9e-8f7a-6b5c-4d3e2f1a0b9c" },
        { "NVIDIA_VISIBLE_DEVICES", "all" },
        { "CUDA_VISIBLE_DEVICES", "0,1" },
        { "CONDA_PREFIX", "/opt/conda/envs/torch-2.5_cu124" },
        { "CONDA_DEFAULT_ENV", "base" },
        { "PIP_INDEX_URL", "https://pypi.example/simple" },
        { "CONDA_CHANNELS", "https://conda.anaconda.org/conda-forge,defaults" },
        { "TORCH_CUDA_ARCH_LIST", "8.0 9.0+PTX" },
        { "PYTHONPATH", "/work/src:/work/sk-tools/lib" },
        { "NCCL_SOCKET_IFNAME", "eth0" },
        { "CUDA_CACHE_PATH", "/home/u/.nv/ComputeCache" },
        { "NV_LIBCUBLAS_VERSION", "12.4.5.8-1" },
        { "CUDA_HOME", "/usr/local/cuda-12.4" },
        { "PYTHON_SHA256", "e1c2d1b0a3f456e789a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c" },
        { "NV_CUDA_CUDART_VERSION", "12.4.127-1" },
        { "CUDA_URL", "https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/" },
    };
    char out[1200], why[256];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        CHECK_I64(cp_secret_redact(rows[i].name, rows[i].value, out, sizeof out, why, sizeof why), 1);
        CHECK_STR(out, rows[i].kept);
        CHECK_STR(why, rows[i].why);
        CHECK(cp_env_looks_secret(rows[i].name, rows[i].value));
    }
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        CHECK_I64(cp_secret_redact(keep[i].name, keep[i].value, out, sizeof out, why, sizeof why), 0);
        CHECK_STR(out, keep[i].value);
        CHECK_STR(why, "");
    }
    /* a result that does not fit keeps none of the value */
    CHECK_I64(cp_secret_redact("PIP_URL", "https://tok@h.example/a/very/long/path", out, 20, why, sizeof why), 1);
    CHECK_STR(out, "<redacted>");
}

/* The host block lists what it redacted and why, never the value. */
static void test_redactions_listed(void)
{
    static cp_facts a;
    cp_facts_init(&a);
    snprintf(a.host.env[0].name, sizeof a.host.env[0].name, "CONDA_GH");
    snprintf(a.host.env[0].value, sizeof a.host.env[0].value, "ghp_aBcdEf0123456789aBcdEf0123456789");
    snprintf(a.host.env[1].name, sizeof a.host.env[1].name, "PATH");
    snprintf(a.host.env[1].value, sizeof a.host.env[1].value, "/usr/bin");
    a.host.nenv = 2;
    cp_buf b = { 0 };
    cp_facts_put_host(&b, &a.host, 1);
    CHECK(!b.failed);
    CHECK(strstr(b.data, "ghp_aBcd") == NULL);
    CHECK(strstr(b.data, "host.env.CONDA_GH <redacted>\n") != NULL);
    CHECK(strstr(b.data, "host.redacted.CONDA_GH a GitHub token\n") != NULL);
    CHECK(strstr(b.data, "host.env.PATH /usr/bin\n") != NULL);
    CHECK(strstr(b.data, "host.redacted.PATH") == NULL);
    cp_buf_free(&b);
}

int main(void)
{
    RUN(test_escape_roundtrip);
    RUN(test_malformed_lines);
    RUN(test_facts_roundtrip);
    RUN(test_devnode_old_keys);
    RUN(test_load_errors);
    RUN(test_frameworks_roundtrip);
    RUN(test_libs_roundtrip);
    RUN(test_secret_names);
    RUN(test_secret_shapes);
    RUN(test_redactions_listed);
    return TEST_END();
}
