/* _gettimeofday: unsupported (the tile has no wall clock; use ipu_cycles()): ENOSYS. */
#include <sys/time.h>

#include "syscall.h"

int _gettimeofday(struct timeval *tv, void *tz)
{
    (void)tv;
    (void)tz;
    return ipu_gloss_fail(ENOSYS);
}
