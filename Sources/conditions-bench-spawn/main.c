// conditions-bench-spawn: runs one command and reports its exit status, peak RSS and wall time.
//
// Usage: conditions-bench-spawn STDOUT-PATH STDERR-PATH PROGRAM [ARG...]
// Prints "status maxrss-KiB wall-ns" on its own stdout; the command reads this program's stdin.
//
// Why a separate C program: Linux records a process's peak RSS across exec, starting from the
// memory it was spawned with. A child forked or vforked by the benchmark itself (a Swift
// process of ~20-30 MiB) would report at least the benchmark's size; forked from this tiny
// program it reports only its own.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: conditions-bench-spawn STDOUT-PATH STDERR-PATH PROGRAM [ARG...]\n");
        return 2;
    }
    long long start = now_ns();
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 2;
    }
    if (pid == 0) {
        // stdin is inherited: the benchmark gives this helper the child's input.
        int out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int err = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(126);
        close(out);
        close(err);
        execve(argv[3], argv + 3, environ);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            perror("wait4");
            return 2;
        }
    }
    long long wall = now_ns() - start;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("%d %ld %lld\n", code, usage.ru_maxrss, wall);
    return 0;
}
