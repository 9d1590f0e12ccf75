/* ipu_fail: turn a software fault into an error record the host can read. */
#include "ipu_rt/tile.h"

void ipu_fail(uint32_t cause, uint32_t info)
{
    /* FAIL_INFO first: the card takes it with the FAIL write. */
    ipu_csr_write(IPU_CSR_FAIL_INFO, info);
    ipu_csr_write(IPU_CSR_FAIL, cause);
    /* The card stops the tile at the FAIL write; this only satisfies noreturn. */
    for (;;)
        ;
}
