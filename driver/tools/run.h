/* Running a tile program on the card for the gc card tests. */
#ifndef GC_RUN_H
#define GC_RUN_H

#include <stdint.h>

#include "common.h"

/* Enables tiles [0, tiles) at `entry` (the others are disabled), starts them
 * and waits up to timeout_ms for every one to exit. Dies with the card's
 * first error record (tile, cause, PC) on a fault, with the watchdog report
 * on a timeout, and naming the tile when one exits with a non-zero code.
 * Returns the card cycles the run took. */
uint64_t gc_run_tiles(const struct gc_tool *tool, ipudrv_device *dev, unsigned tiles, uint32_t entry,
                      int timeout_ms);

/* ipudrv_get_info or die. */
void gc_get_info(const struct gc_tool *tool, ipudrv_device *dev, struct ipudrv_info *info);



/* Writes each tile t < tiles an exchange list at list_addr: one descriptor
 * sending `len` bytes from its src_addr to tile (t + shift) % tiles at
 * dst_addr, or no descriptor when len is 0. Dies on a write error. */
void gc_write_exchange_lists(const struct gc_tool *tool, ipudrv_device *dev, unsigned tiles, uint32_t list_addr,
                             unsigned shift, uint32_t src_addr, uint32_t dst_addr, uint32_t len);

/* Word i of the data tile `tile` sends in round `round`: differs between
 * tiles, rounds and words, so that a misrouted or stale word is caught. */
uint32_t gc_exchange_word(unsigned tile, unsigned round, uint32_t i);
#endif
