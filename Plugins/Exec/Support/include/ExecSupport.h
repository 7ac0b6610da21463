#ifndef EXEC_SUPPORT_H
#define EXEC_SUPPORT_H

#include <spawn.h>

/// Creates a pipe whose both ends are close-on-exec from the start (pipe2 with O_CLOEXEC),
/// so a program spawned concurrently by another thread never inherits it. Returns 0 or an errno.
int exec_support_pipe_cloexec(int fds[2]);

/// Adds "change to `path`" to spawn file actions (posix_spawn_file_actions_addchdir_np).
/// Returns 0 or an errno.
int exec_support_actions_chdir(posix_spawn_file_actions_t *actions, const char *path);

/// Adds "close every descriptor from `lowest` up" to spawn file actions
/// (posix_spawn_file_actions_addclosefrom_np), so the program inherits nothing the host
/// opened without close-on-exec. Returns 0 or an errno (ENOSYS where unsupported).
int exec_support_actions_closefrom(posix_spawn_file_actions_t *actions, int lowest);

#endif
