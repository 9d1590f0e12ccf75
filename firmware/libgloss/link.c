/* _link: unsupported (the tile has no file system): ENOSYS. */

#include "syscall.h"

int _link(const char *existing, const char *link)
{
    (void)existing;
    (void)link;
    return ipu_gloss_fail(ENOSYS);
}
