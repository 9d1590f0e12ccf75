/* MMIO copies for mapped BARs (see mmio.h). */
#include "mmio.h"

#include <string.h>

void ipudrv_mmio_read(const volatile uint8_t *bar, uint32_t offset, void *buf, size_t len)
{
    uint8_t *p = buf;
    while (len) {
        if (offset % 8 == 0 && len >= 8) {
            uint64_t v = *(const volatile uint64_t *)(bar + offset);
            memcpy(p, &v, 8);
            p += 8, offset += 8, len -= 8;
        } else {
            *p++ = bar[offset++];
            len--;
        }
    }
}

void ipudrv_mmio_write(volatile uint8_t *bar, uint32_t offset, const void *buf, size_t len)
{
    const uint8_t *p = buf;
    while (len) {
        if (offset % 8 == 0 && len >= 8) {
            uint64_t v;
            memcpy(&v, p, 8);
            *(volatile uint64_t *)(bar + offset) = v;
            p += 8, offset += 8, len -= 8;
        } else {
            bar[offset++] = *p++;
            len--;
        }
    }
}
