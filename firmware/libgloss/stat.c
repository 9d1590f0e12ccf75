/* _stat: unsupported (the tile has no file system): ENOSYS. */
#include <sys/stat.h>

#include "syscall.h"

int _stat(const char *path, struct stat *st)
{
    (void)path;
    (void)st;
    return ipu_gloss_fail(ENOSYS);
}
