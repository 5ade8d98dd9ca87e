/*
 * A program that plays the CUDA driver's part for cuprobe trace's tests:
 * it loads $CUDA_INJECTION64_PATH and calls InitializeInjection as cuInit
 * does, then does what its arguments say, in order:
 *   say TEXT     print TEXT and a newline on stdout
 *   fork         fork; the child runs the remaining words too, then both exit
 *   crash        raise SIGSEGV
 *   exit N       exit with status N
 *   train N      N times train_step(): a launch and a synchronisation through
 *                the fake libcupti's fake_cupti_call (its callback API)
 *   eval N       the same from eval_step()
 *   launch N     N launches alone (sampled stacks)
 *   bench N      N synchronisations; the time per call on stderr
 *   perfmap      as CPython 3.12 does when PYTHONPERFSUPPORT=1 (only then):
 *                write /tmp/perf-<pid>.map, here with one entry that names
 *                train_step's code "py::step:/home/user/train.py"
 * Built with frame pointers and its .symtab kept, so its functions have names.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void (*api_call)(uint32_t);
static volatile int sink;

#define fake_call(cbid) (api_call ? api_call(cbid) : (void)0)

void train_step(void) __attribute__((noinline));
void train_step(void)
{
    fake_call(2);
    fake_call(1);
    sink++;                       /* no tail call: this frame stays on the stack */
}

void eval_step(void) __attribute__((noinline));
void eval_step(void)
{
    fake_call(2);
    fake_call(1);
    sink++;
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *lib = getenv("CUDA_INJECTION64_PATH");
    if (lib) {
        void *h = dlopen(lib, RTLD_NOW);
        int (*init)(void) = h ? (int (*)(void))dlsym(h, "InitializeInjection") : NULL;
        if (!init || init() != 1) {
            fprintf(stderr, "inject_host: InitializeInjection failed\n");
            return 99;
        }
    }
    const char *cupti = getenv("CUPROBE_CUPTI");
    void *ch = cupti ? dlopen(cupti, RTLD_NOW | RTLD_NOLOAD) : NULL;   /* the one the library loaded */
    if (ch) *(void **)&api_call = dlsym(ch, "fake_cupti_call");
    pid_t child = -1;
    for (int i = 1; i < argc; i++) {
        long n = i + 1 < argc ? strtol(argv[i + 1], NULL, 10) : 0;
        if (strcmp(argv[i], "say") == 0 && i + 1 < argc) {
            puts(argv[++i]);
            fflush(stdout);
        } else if (strcmp(argv[i], "fork") == 0) {
            child = fork();
        } else if (strcmp(argv[i], "crash") == 0) {
            raise(SIGSEGV);
        } else if (strcmp(argv[i], "exit") == 0 && i + 1 < argc) {
            if (child > 0) waitpid(child, NULL, 0);
            exit((int)strtol(argv[++i], NULL, 10));
        } else if (strcmp(argv[i], "train") == 0 && i + 1 < argc) {
            for (long k = 0; k < n; k++) train_step();
            i++;
        } else if (strcmp(argv[i], "eval") == 0 && i + 1 < argc) {
            for (long k = 0; k < n; k++) eval_step();
            i++;
        } else if (strcmp(argv[i], "launch") == 0 && i + 1 < argc) {
            for (long k = 0; k < n; k++) fake_call(2);
            i++;
        } else if (strcmp(argv[i], "perfmap") == 0) {
            const char *on = getenv("PYTHONPERFSUPPORT");
            char path[64];
            snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
            FILE *m = on && strcmp(on, "1") == 0 ? fopen(path, "w") : NULL;
            if (m) {
                fprintf(m, "%lx 40 py::step:/home/user/train.py\n", (unsigned long)(uintptr_t)&train_step);
                fclose(m);
            }
        } else if (strcmp(argv[i], "bench") == 0 && i + 1 < argc) {
            double t0 = now_ns();
            for (long k = 0; k < n; k++) fake_call(1);
            fprintf(stderr, "inject_host: %.0f ns per synchronising call\n", n > 0 ? (now_ns() - t0) / (double)n : 0.0);
            i++;
        }
    }
    if (child > 0) waitpid(child, NULL, 0);
    return 0;
}
