/* Copies between memory and a mapped BAR with the access sizes MMIO needs. */
#ifndef IPUDRV_MMIO_H
#define IPUDRV_MMIO_H

#include <stddef.h>
#include <stdint.h>

/* Byte accesses up to 8-byte alignment, then 64-bit accesses, then bytes:
 * never the wide or unaligned accesses memcpy might make on a BAR. */
void ipudrv_mmio_read(const volatile uint8_t *bar, uint32_t offset, void *buf, size_t len);
void ipudrv_mmio_write(volatile uint8_t *bar, uint32_t offset, const void *buf, size_t len);

#endif
