// Three extensions Swift's Glibc module does not expose, because it is built without
// _GNU_SOURCE: atomic close-on-exec pipes, and a working directory and
// closing inherited descriptors for posix_spawn.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include "ExecSupport.h"

int exec_support_pipe_cloexec(int fds[2]) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC) == 0 ? 0 : errno;
#else
    // No pipe2 here: the flag is set right after, which a concurrent spawn could race.
    if (pipe(fds) != 0) return errno;
    if (fcntl(fds[0], F_SETFD, FD_CLOEXEC) != 0 || fcntl(fds[1], F_SETFD, FD_CLOEXEC) != 0) {
        int saved = errno;
        close(fds[0]);
        close(fds[1]);
        return saved;
    }
    return 0;
#endif
}

int exec_support_actions_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int exec_support_actions_closefrom(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return ENOSYS;
#endif
}
