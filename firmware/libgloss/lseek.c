/* _lseek: unsupported (the console cannot seek): ENOSYS. */

#include "syscall.h"

long _lseek(int fd, long offset, int whence)
{
    (void)fd;
    (void)offset;
    (void)whence;
    return ipu_gloss_fail(ENOSYS);
}
