/* _fork: unsupported (one program per tile): ENOSYS. */

#include "syscall.h"

int _fork(void)
{

    return ipu_gloss_fail(ENOSYS);
}
