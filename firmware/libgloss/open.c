/* _open: unsupported (the tile has no file system): ENOSYS. */

#include "syscall.h"

int _open(const char *path, int flags, int mode)
{
    (void)path;
    (void)flags;
    (void)mode;
    return ipu_gloss_fail(ENOSYS);
}
