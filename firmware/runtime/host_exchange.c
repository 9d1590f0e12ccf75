/* Host exchange: move one tile's part of a stream copy through the HX CSRs. */
#include <stdint.h>

#include "ipu_rt/runtime.h"
#include "ipu_rt/tile.h"

void ipu_rt_host_exchange(const uint32_t *list)
{
    uint32_t count = list[0];
    const struct ipu_hx_desc *desc = (const struct ipu_hx_desc *)(list + 1);
    for (uint32_t i = 0; i < count; i++) {
        /* HX_START carries the direction in bit 31, so a length must leave it free. */
        if (desc[i].length >= 0x80000000u || (desc[i].flags & ~IPU_HX_TO_HOST) != 0)
            ipu_fail(IPU_ERR_HOST_EXCHANGE, i);
        ipu_csr_write(IPU_CSR_HX_DEV_ADDR, desc[i].dev_addr);
        ipu_csr_write(IPU_CSR_HX_TILE_ADDR, desc[i].tile_addr);
        ipu_csr_write(IPU_CSR_HX_START, desc[i].length | ((desc[i].flags & IPU_HX_TO_HOST) << 31));
    }
}
