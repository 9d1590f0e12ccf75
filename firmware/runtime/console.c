/* ipu_console_write: raw bytes to the host console through the CONSOLE CSR. */
#include "ipu_rt/tile.h"

void ipu_console_write(const void *buf, size_t len)
{
    const unsigned char *p = buf;
    for (size_t i = 0; i < len; i++)
        ipu_csr_write(IPU_CSR_CONSOLE, p[i]);
}
