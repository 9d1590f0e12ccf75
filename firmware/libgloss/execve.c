/* _execve: unsupported (one program per tile): ENOSYS. */

#include "syscall.h"

int _execve(const char *path, char *const argv[], char *const envp[])
{
    (void)path;
    (void)argv;
    (void)envp;
    return ipu_gloss_fail(ENOSYS);
}
