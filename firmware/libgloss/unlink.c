/* _unlink: unsupported (the tile has no file system): ENOSYS. */

#include "syscall.h"

int _unlink(const char *path)
{
    (void)path;
    return ipu_gloss_fail(ENOSYS);
}
