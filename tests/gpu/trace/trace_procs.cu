// Programs that fork, crash and run threads, for `cuprobe trace` on a GPU machine
// (tests/gpu/trace.sh runs each untraced and traced and compares stdout and exit status):
//   trace_procs fork       CUDA work, then fork: the child (no CUDA) prints and exits 3, the
//                          parent waits, works again, prints, exits 0
//   trace_procs spawn PROG fork + exec of PROG ("PROG threads"), another CUDA program, after
//                          this one's CUDA work; exits with its status
//   trace_procs segv       CUDA work, a sync, then a write through a null pointer
//   trace_procs abort      CUDA work, then abort()
//   trace_procs threads    8 threads, each with its own stream, 200 kernels and a sync each
//   trace_procs thread-exit  CUDA work, then exit(7) from a second thread
// Each prints what it did on stdout in a fixed order.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__global__ void spin(float *out, int iters)
{
    float a = threadIdx.x * 1e-3f, b = 1.0001f;
    for (int i = 0; i < iters; i++) a = a * b + 1e-7f;
    if (a == 12345.f) out[blockIdx.x] = a;
}

static float *g_dev;

static void work(int n)
{
    for (int i = 0; i < n; i++) spin<<<64, 128>>>(g_dev, 2000);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
}

static void *stream_thread(void *arg)
{
    long k = (long)arg;
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    for (int i = 0; i < 200; i++) spin<<<8, 128, 0, s>>>(g_dev + 1024 * k, 500);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s));
    CK(cudaStreamDestroy(s));
    return NULL;
}

static void *exit_thread(void *arg)
{
    fflush(stdout);
    exit((int)(long)arg);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    CK(cudaMalloc(&g_dev, 1 << 20));
    work(100);
    printf("%s: first work done\n", mode);
    fflush(stdout);
    if (!strcmp(mode, "fork")) {
        pid_t p = fork();
        if (p == 0) {
            printf("child: no CUDA here\n");
            exit(3);
        }
        int st = 0;
        waitpid(p, &st, 0);
        work(100);
        printf("parent: child exited %d, second work done\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        return 0;
    }
    if (!strcmp(mode, "spawn") && argc > 2) {
        pid_t p = fork();
        if (p == 0) {
            execl(argv[2], argv[2], "threads", (char *)NULL);
            _exit(127);
        }
        int st = 0;
        waitpid(p, &st, 0);
        printf("spawned program exited %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
        return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
    }
    if (!strcmp(mode, "segv")) {
        volatile int *p = (volatile int *)(long)(argc - argc);
        *p = 1;
    }
    if (!strcmp(mode, "abort")) abort();
    if (!strcmp(mode, "threads")) {
        pthread_t t[8];
        for (long k = 0; k < 8; k++) pthread_create(&t[k], NULL, stream_thread, (void *)k);
        for (int k = 0; k < 8; k++) pthread_join(t[k], NULL);
        printf("8 threads done\n");
        return 0;
    }
    if (!strcmp(mode, "thread-exit")) {
        pthread_t t;
        pthread_create(&t, NULL, exit_thread, (void *)7L);
        pthread_join(t, NULL);
    }
    return 0;
}
