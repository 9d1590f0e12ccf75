/* _kill: a signal to this tile (abort(), raise()) faults it with ERR_FIRMWARE_ABORT. */
#include "ipu_rt/tile.h"
#include "syscall.h"

int _kill(int pid, int sig)
{
    /* newlib's abort() and raise() without a handler end here with our own
     * pid: there is nobody to deliver the signal to, so stop with a record
     * that names it. */
    if (pid == 1)
        ipu_fail(IPU_ERR_FIRMWARE_ABORT, IPU_RT_ABORT_SIGNAL + (uint32_t)sig);
    return ipu_gloss_fail(ESRCH);
}
