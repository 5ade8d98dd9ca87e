/*
 * A program that plays the CUDA driver's part for cuprobe trace's tests:
 * it loads $CUDA_INJECTION64_PATH and calls InitializeInjection as cuInit
 * does, then does what its arguments say, in order:
 *   say TEXT       print TEXT and a newline on stdout
 *   fork           fork; the child runs the remaining words too, then both exit
 *   spawn          fork; the child runs this program again with the remaining
 *                  words (fork + exec of another traced program); the parent
 *                  waits for it and ends with its status
 *   exec           run this program again in this process with the remaining words
 *   context        the first CUDA call through fake_cupti_call: the context is made
 *                  (where FAKE_CUPTI_CTX=late asks it to come so late)
 *   reset          cudaDeviceReset through fake_cupti_call: the context is destroyed
 *   flush          what CUPTI's own thread does every second: cuptiActivityFlushAll
 *                  (of $CUPROBE_CUPTI, the library the injection loaded)
 *   sleep MS       sleep MS milliseconds
 *   threads N      start N threads that each print nothing and add up a sum; join
 *                  them and print "N threads joined"
 *   crash          raise SIGSEGV          segv    write through a null pointer
 *   abort          abort()                term    raise SIGTERM
 *   kill           raise SIGKILL          _exit N _exit(N) (no atexit)
 *   exit N         exit with status N (after a forked child)
 *   thread-exit N  a second thread calls exit(N) while the main thread waits
 *   train N        N times train_step(): a launch and a synchronisation through
 *                  the fake libcupti's fake_cupti_call (its callback API)
 *   eval N         the same from eval_step()
 *   launch N       N launches alone (sampled stacks when CUPROBE_TRACE_STACK_EVERY asks)
 *   bench N        N synchronisations; the time per call on stderr
 *   perfmap        as CPython 3.12 does when PYTHONPERFSUPPORT=1 (only then):
 *                  write /tmp/perf-<pid>.map, here with one entry that names
 *                  train_step's code "py::step:/home/user/train.py"
 * Built with frame pointers and its .symtab kept, so its functions have names.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long sums[64];

static void *add_up(void *arg)
{
    long k = (long)(intptr_t)arg, s = 0;
    for (long i = 0; i < 100000; i++) s += i % (k + 2);
    sums[k] = s;
    return NULL;
}

static void *exit_from_thread(void *arg)
{
    fflush(stdout);
    exit((int)(intptr_t)arg);
}

static void sleep_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&t, &t) != 0) {}
}

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
        const char *w = argv[i], *arg = i + 1 < argc ? argv[i + 1] : "0";
        long n = strtol(arg, NULL, 10);
        if (strcmp(w, "say") == 0 && i + 1 < argc) {
            puts(argv[++i]);
            fflush(stdout);
        } else if (strcmp(w, "fork") == 0) {
            fflush(stdout);
            child = fork();
        } else if (strcmp(w, "spawn") == 0 || strcmp(w, "exec") == 0) {
            argv[i] = argv[0];
            fflush(stdout);
            pid_t p = w[0] == 's' ? fork() : 0;
            if (p == 0) {
                execv("/proc/self/exe", argv + i);
                _exit(127);
            }
            int status = 0;
            if (p < 0 || waitpid(p, &status, 0) < 0) return 98;
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        } else if (strcmp(w, "context") == 0) {
            fake_call(4);
        } else if (strcmp(w, "reset") == 0) {
            fake_call(3);
        } else if (strcmp(w, "flush") == 0) {
            int (*flush)(unsigned) = ch ? (int (*)(unsigned))dlsym(ch, "cuptiActivityFlushAll") : NULL;
            if (flush) flush(0);
        } else if (strcmp(w, "sleep") == 0) {
            sleep_ms(strtol(argv[++i], NULL, 10));
        } else if (strcmp(w, "threads") == 0) {
            i++;
            pthread_t t[64];
            if (n < 1 || n > 64) return 97;
            for (long k = 0; k < n; k++)
                if (pthread_create(&t[k], NULL, add_up, (void *)(intptr_t)k) != 0) return 96;
            for (long k = 0; k < n; k++) pthread_join(t[k], NULL);
            printf("%ld threads joined\n", n);
            fflush(stdout);
        } else if (strcmp(w, "crash") == 0) {
            raise(SIGSEGV);
        } else if (strcmp(w, "segv") == 0) {
            volatile int *p = (volatile int *)(intptr_t)(argc - argc);
            *p = 1;
        } else if (strcmp(w, "abort") == 0) {
            abort();
        } else if (strcmp(w, "term") == 0) {
            raise(SIGTERM);
        } else if (strcmp(w, "kill") == 0) {
            raise(SIGKILL);
        } else if (strcmp(w, "_exit") == 0) {
            _exit((int)strtol(arg, NULL, 10));
        } else if (strcmp(w, "exit") == 0 && i + 1 < argc) {
            if (child > 0) waitpid(child, NULL, 0);
            exit((int)strtol(argv[++i], NULL, 10));
        } else if (strcmp(w, "thread-exit") == 0) {
            pthread_t t;
            if (pthread_create(&t, NULL, exit_from_thread, (void *)(intptr_t)strtol(arg, NULL, 10)) != 0) return 95;
            pthread_join(t, NULL);
            return 94;                                   /* never: the thread's exit ends the process */
        } else if (strcmp(w, "train") == 0 && i + 1 < argc) {
            for (long k = 0; k < n; k++) train_step();
            i++;
        } else if (strcmp(w, "eval") == 0 && i + 1 < argc) {
            for (long k = 0; k < n; k++) eval_step();
            i++;
        } else if (strcmp(w, "launch") == 0 && i + 1 < argc) {
            for (long k = 0; k < n; k++) fake_call(2);
            i++;
        } else if (strcmp(w, "perfmap") == 0) {
            const char *on = getenv("PYTHONPERFSUPPORT");
            char path[64];
            snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
            FILE *m = on && strcmp(on, "1") == 0 ? fopen(path, "w") : NULL;
            if (m) {
                fprintf(m, "%lx 40 py::step:/home/user/train.py\n", (unsigned long)(uintptr_t)&train_step);
                fclose(m);
            }
        } else if (strcmp(w, "bench") == 0 && i + 1 < argc) {
            double t0 = now_ns();
            for (long k = 0; k < n; k++) fake_call(1);
            fprintf(stderr, "inject_host: %.0f ns per synchronising call\n", n > 0 ? (now_ns() - t0) / (double)n : 0.0);
            i++;
        }
    }
    if (child > 0) waitpid(child, NULL, 0);
    return 0;
}
