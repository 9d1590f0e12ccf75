/* _wait: unsupported (one program per tile): ENOSYS. */

#include "syscall.h"

int _wait(int *status)
{
    (void)status;
    return ipu_gloss_fail(ENOSYS);
}
