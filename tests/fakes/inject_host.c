/*
 * A program that plays the CUDA driver's part for cuprobe trace's tests:
 * it loads $CUDA_INJECTION64_PATH and calls InitializeInjection as cuInit
 * does, then does what its arguments say, in order:
 *   say TEXT     print TEXT and a newline on stdout
 *   fork         fork; the child runs the remaining words too, then both exit
 *   crash        raise SIGSEGV
 *   exit N       exit with status N
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
    pid_t child = -1;
    for (int i = 1; i < argc; i++) {
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
        }
    }
    if (child > 0) waitpid(child, NULL, 0);
    return 0;
}
