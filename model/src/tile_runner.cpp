// Scheduling of a tile's contexts (see tile_runner.hpp).
#include "tile_runner.hpp"

#include <algorithm>

namespace ipu::model {
namespace {

// The context a spent watchdog blames: the running one that retired the most
// instructions this run (a supervisor waiting in a join is not running code),
// so that the fault names the context that spins, whichever context happened
// to issue the instruction that crossed the budget.
unsigned hungriest(const Tile &tile, unsigned c)
{
    unsigned best = c;
    for (unsigned i = 0; i <= tile.num_workers; i++) {
        const Context &cx = tile.ctx[i];
        if (cx.state != IPU_CTX_STATE_RUNNING || (i == 0 && tile.joining))
            continue;
        if (tile.ctx[best].state != IPU_CTX_STATE_RUNNING || cx.instret > tile.ctx[best].instret)
            best = i;
    }
    return best;
}

// Charges `n` instructions to the tile's watchdog; faults the tile when the
// budget the host set is spent.
bool charge(Tile &tile, unsigned c, uint64_t n)
{
    tile.insns_this_run += n;
    if (tile.watchdog_insns && tile.insns_this_run > tile.watchdog_insns && tile.state != IPU_TILE_STATE_ERROR) {
        const unsigned blamed = hungriest(tile, c);
        tile.raise(IPU_ERR_WATCHDOG, blamed, tile.ctx[blamed].pc, tile.ctx[blamed].pc,
                   static_cast<uint32_t>(tile.insns_this_run >> 10));
        return false;
    }
    return tile.state != IPU_TILE_STATE_ERROR;
}

// Runs the started workers, each for an equal share of what is left of the
// budget (the barrel issues them in turn), so that one worker that spins
// cannot starve the others: they finish, and a hang report shows only the
// stuck one still running. Returns false when the tile must stop here.
bool run_workers(Tile &tile, uint64_t &left, const RetireHook *hook)
{
    unsigned running = 0;
    for (unsigned w = 1; w <= tile.num_workers; w++)
        running += tile.ctx[w].state == IPU_CTX_STATE_RUNNING;
    if (running == 0)
        return true;
    const uint64_t share = std::max<uint64_t>(left / running, 1);
    for (unsigned w = 1; w <= tile.num_workers; w++) {
        if (tile.ctx[w].state != IPU_CTX_STATE_RUNNING)
            continue;
        if (left == 0)
            return false;
        uint64_t n = 0;
        const Stop s = run_context(tile, w, std::min(share, left), &n, hook);
        left -= n;
        if (!charge(tile, w, n) || s == Stop::Fault || s == Stop::HostExchange)
            return false;
    }
    return left > 0;
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
        const Stop s = run_context(tile, 0, left, &n, hook);
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
