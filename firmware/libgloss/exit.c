/* _exit: report the exit code to the host through the EXIT CSR; the tile stops. */
#include "ipu_rt/tile.h"

__attribute__((noreturn)) void _exit(int code)
{
    /* Only the supervisor may write EXIT: from a worker the card records
     * ERR_WORKER_MISUSE, which is the right report for that mistake. */
    ipu_csr_write(IPU_CSR_EXIT, (uint32_t)code);
    for (;;)
        ;
}
