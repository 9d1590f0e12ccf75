// Scheduling of a tile's contexts (see tile_runner.hpp).
#include "tile_runner.hpp"

namespace ipu::model {
namespace {

// Charges `n` instructions to the tile's watchdog; faults the tile when the
// budget the host set is spent.
bool charge(Tile &tile, unsigned c, uint64_t n)
{
    tile.insns_this_run += n;
    if (tile.watchdog_insns && tile.insns_this_run > tile.watchdog_insns && tile.state != IPU_TILE_STATE_ERROR) {
        tile.raise(IPU_ERR_WATCHDOG, c, tile.ctx[c].pc, tile.ctx[c].pc, static_cast<uint32_t>(tile.insns_this_run >> 10));
        return false;
    }
    return tile.state != IPU_TILE_STATE_ERROR;
}

// Runs every started worker to completion (or until the budget or an event).
// Returns false when the tile must stop here.
bool run_workers(Tile &tile, uint64_t &left, const RetireHook *hook)
{
    for (unsigned w = 1; w <= tile.num_workers; w++) {
        if (tile.ctx[w].state != IPU_CTX_STATE_RUNNING)
            continue;
        uint64_t n = 0;
        const Stop s = execute(tile, w, left, &n, hook);
        left -= n;
        if (!charge(tile, w, n) || s == Stop::Fault || s == Stop::HostExchange || s == Stop::Budget)
            return false;
    }
    return true;
}

} // namespace

void run_tile(Tile &tile, uint64_t budget, const RetireHook *hook)
{
    uint64_t left = budget;
    while (left > 0 && tile.state == IPU_TILE_STATE_RUNNING && !tile.hx.pending) {
        if (!run_workers(tile, left, hook))
            return;
        Context &sup = tile.ctx[0];
        if (sup.state == IPU_CTX_STATE_BLOCKED) {
            tile.state = IPU_TILE_STATE_SYNC_WAIT;
            return;
        }
        if (sup.state == IPU_CTX_STATE_DONE) {
            tile.state = IPU_TILE_STATE_EXITED;
            return;
        }
        if (left == 0)
            return;
        uint64_t n = 0;
        const Stop s = execute(tile, 0, left, &n, hook);
        left -= n;
        if (!charge(tile, 0, n))
            return;
        // Join: workers run on the next pass, then the join retries.
        // Sync and Exit: workers still running finish first (next pass), then
        // the tile state changes at the top of the loop.
        if (s == Stop::Fault || s == Stop::HostExchange || s == Stop::Budget)
            return;
    }
}

} // namespace ipu::model
