// Tile CSRs: the tile's identity, sync, worker start/join, console, exit, exchange.
#pragma once
#include <cstdint>

#include "tile.hpp"

namespace ipu::model {

enum class CsrOutcome {
    Done,         // access complete; the instruction retires
    Illegal,      // no such CSR, a read-only CSR written, or a bad value: illegal instruction
    Fault,        // the tile faulted (tile.fault is set)
    Retry,        // WORKER_JOIN with workers running: stall without retiring
    Sync,         // SYNC written: retire, then wait for the other tiles
    Exit,         // EXIT written: retire, the tile is finished
    WorkerDone,   // WORKER_EXIT written: retire, the worker is finished
    HostExchange, // HX_START written: retire, then the card moves the data
};

// Performs a Zicsr access by context `c`: `op` is 1 (write), 2 (set) or 3
// (clear); `do_read`/`do_write` follow the Zicsr rules for rd/rs1 = x0.
// On Done, `result` holds the old value for rd.
CsrOutcome csr_access(Tile &tile, unsigned c, uint32_t csr, unsigned op, uint32_t src, bool do_read, bool do_write,
                      uint32_t &result);

} // namespace ipu::model
