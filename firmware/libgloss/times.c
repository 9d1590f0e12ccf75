/* _times: unsupported (the tile does not know its clock rate; use ipu_cycles()): ENOSYS. */
#include <sys/times.h>

#include "syscall.h"

clock_t _times(struct tms *buf)
{
    (void)buf;
    return ipu_gloss_fail(ENOSYS);
}
