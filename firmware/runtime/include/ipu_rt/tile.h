/* The tile as seen by firmware: identity, console, sync, cycles and faults. */
#ifndef IPU_RT_TILE_H
#define IPU_RT_TILE_H

#include <stddef.h>
#include <stdint.h>

#include "ipu_card/hw.h"
#include "ipu_rt/csr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* This tile's index on the card. */
static inline uint32_t ipu_tile_id(void) { return ipu_csr_read(IPU_CSR_TILE_ID); }
/* This context: 0 for the supervisor, 1..ipu_num_workers() for workers. */
static inline uint32_t ipu_context_id(void) { return ipu_csr_read(IPU_CSR_CONTEXT_ID); }
/* Tiles on the card. */
static inline uint32_t ipu_num_tiles(void) { return ipu_csr_read(IPU_CSR_NUM_TILES); }
/* Worker contexts on this tile. */
static inline uint32_t ipu_num_workers(void) { return ipu_csr_read(IPU_CSR_NUM_WORKERS); }
/* Bytes of SRAM on this tile; it starts at IPU_TILE_SRAM_BASE. */
static inline uint32_t ipu_sram_size(void) { return ipu_csr_read(IPU_CSR_SRAM_SIZE); }

/* Tile cycles since the run started, as this context sees them. */
static inline uint64_t ipu_cycles(void)
{
    uint32_t hi, lo;
    do { /* re-read if the low word wrapped between the two reads */
        hi = ipu_csr_read(IPU_CSR_CYCLEH);
        lo = ipu_csr_read(IPU_CSR_CYCLE);
    } while (hi != ipu_csr_read(IPU_CSR_CYCLEH));
    return ((uint64_t)hi << 32) | lo;
}

/* Supervisor only: waits until every running tile syncs (kind IPU_SYNC_KIND_*;
 * `id` is the host sync id of an EXTERNAL sync). Exchange writes land here. */
static inline void ipu_sync(uint32_t kind, uint32_t id) { ipu_csr_write(IPU_CSR_SYNC, kind | (id << 8)); }

/* Supervisor only: sends the exchange list at `list` (count, EXCH_DESC...);
 * its writes land at the next sync. */
static inline void ipu_exchange(const void *list) { ipu_csr_write(IPU_CSR_EXCHANGE, (uint32_t)(uintptr_t)list); }

/* Writes `len` bytes to the host console, tagged with this tile, without stdio
 * (safe from workers and before the C library is up). */
void ipu_console_write(const void *buf, size_t len);

/* FAIL_INFO values of the firmware's own IPU_ERR_FIRMWARE_ABORT faults. */
enum ipu_rt_abort_info {
    IPU_RT_ABORT_NO_PROGRAM = 1,     /* runtime image started with TILE_BOOT_ARG = 0 */
    IPU_RT_ABORT_PURE_VIRTUAL = 2,   /* a C++ pure virtual function was called */
    IPU_RT_ABORT_OUT_OF_MEMORY = 3,  /* C++ operator new found no memory */
    IPU_RT_ABORT_SIGNAL = 0x100,     /* raise()/abort(): 0x100 + the signal number */
};

/* Stops this tile with error `cause` (an IPU_ERR_* code) and detail `info`:
 * the card records cause, PC, context and tile for the host. */
__attribute__((noreturn)) void ipu_fail(uint32_t cause, uint32_t info);

/* The value of a0 when the supervisor started (the host's TILE_BOOT_ARG): the
 * control program's address for runtime images, 0 for plain programs. */
extern uint32_t ipu_boot_arg;

#ifdef __cplusplus
}
#endif
#endif /* IPU_RT_TILE_H */
