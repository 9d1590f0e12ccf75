/* _read: unsupported (the tile has no input): ENOSYS. */

#include "syscall.h"

int _read(int fd, void *buf, unsigned long len)
{
    (void)fd;
    (void)buf;
    (void)len;
    return ipu_gloss_fail(ENOSYS);
}
