// The card's run loop: parallel rounds of tile execution, then a deterministic
// drain (console, host exchange, faults) in tile order, then syncs.
#include <algorithm>
#include <cstring>

#include "card.hpp"
#include "link_time.hpp"
#include "tile_runner.hpp"

namespace ipu::model {

void Card::raise_irq(uint32_t cause_bit)
{
    irq_status_ |= cause_bit;
    if (!(irq_mask_ & cause_bit) || !host_.irq)
        return;
    unsigned vector = IPU_IRQ_VECTOR_DONE;
    if (cause_bit == IPU_REG_IRQ_STATUS_HOST_SYNC_MASK)
        vector = IPU_IRQ_VECTOR_HOST_SYNC;
    else if (cause_bit == IPU_REG_IRQ_STATUS_ERROR_MASK)
        vector = IPU_IRQ_VECTOR_ERROR;
    else if (cause_bit == IPU_REG_IRQ_STATUS_CONSOLE_MASK)
        vector = IPU_IRQ_VECTOR_CONSOLE;
    deliver_irq(vector);
}

void Card::add_error(const ErrorRecord &r)
{
    if (errors_.size() >= kErrorFifoDepth)
        errors_lost_++;
    else
        errors_.push_back(r);
    raise_irq(IPU_REG_IRQ_STATUS_ERROR_MASK);
}

int Card::advance(uint64_t budget)
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    budget = budget ? budget : 1;
    if (faults_.removed)
        return 0; // a card that left the bus does nothing
    tick_delayed_irqs();
    // Interrupts still held back are work too (raised during this call or before).
    auto held = [this] { return delayed_irqs_.empty() ? 0 : 1; };
    if (dma_busy() && faults_.stall_dma)
        return 1; // stalled: BUSY forever, until the fault is cleared
    if (dma_busy()) {
        // Tiles never run while a chain is in flight (START refuses either way round).
        const uint64_t cap = ~0ull / IPU_BACKEND_DMA_BYTES_PER_BUDGET;
        step_dma(std::min(budget, cap) * IPU_BACKEND_DMA_BYTES_PER_BUDGET);
        return dma_busy() ? 1 : held();
    }
    if (state_ != IPU_CARD_STATE_RUNNING)
        return held();
    run_round(budget);
    return state_ == IPU_CARD_STATE_RUNNING ? 1 : held();
}

void Card::run_round(uint64_t budget)
{
    std::vector<uint32_t> running;
    for (const Tile &t : tiles_)
        if (t.state == IPU_TILE_STATE_RUNNING)
            running.push_back(t.id);
    const RetireHook *hook = hook_;
    // A retire hook sees instructions in one global order only when the tiles
    // run one after another, so tracing and lock-step force a single thread.
    if (hook || pool_->size() == 1) {
        for (uint32_t id : running)
            run_tile(tiles_[id], budget, hook);
    } else {
        pool_->parallel_for(running.size(), [&](size_t i) { run_tile(tiles_[running[i]], budget, nullptr); });
    }
    for (uint32_t id : running)
        drain_tile(tiles_[id]);

    bool any_running = false, any_error = false, any_sync = false;
    for (const Tile &t : tiles_) {
        any_running |= t.state == IPU_TILE_STATE_RUNNING;
        any_error |= t.state == IPU_TILE_STATE_ERROR;
        any_sync |= t.state == IPU_TILE_STATE_SYNC_WAIT;
        card_cycles_ = std::max(card_cycles_, t.time());
    }
    if (any_error) {
        // One faulted tile stops the run: the others can never meet it at a sync.
        for (Tile &t : tiles_)
            if (t.state == IPU_TILE_STATE_RUNNING || t.state == IPU_TILE_STATE_SYNC_WAIT)
                t.state = IPU_TILE_STATE_READY;
        state_ = IPU_CARD_STATE_ERROR;
        return;
    }
    if (any_running)
        return;
    if (any_sync) {
        finish_superstep();
        return;
    }
    // The run ends when the last host transfer has crossed the link too.
    card_cycles_ = std::max(card_cycles_, superstep_end());
    state_ = IPU_CARD_STATE_DONE;
    raise_irq(IPU_REG_IRQ_STATUS_DONE_MASK);
}

// Moves what a tile produced in this round to the card, in tile order.
void Card::drain_tile(Tile &tile)
{
    if (!tile.console.empty()) {
        for (uint8_t b : tile.console) {
            if (console_.size() >= kConsoleFifoDepth)
                console_lost_++;
            else
                console_.push_back((tile.id << IPU_REG_CONSOLE_DATA_TILE_SHIFT) | b);
        }
        tile.console.clear();
        raise_irq(IPU_REG_IRQ_STATUS_CONSOLE_MASK);
    }
    if (tile.hx.pending) {
        if (!tile.hx.to_host)
            tile.iss.written(tile.hx.tile_addr, tile.hx.length); // decoded code there is dropped
        service_host_exchange(tile);
    }
    if (tile.state == IPU_TILE_STATE_ERROR && tile.has_fault) {
        const Fault &f = tile.fault;
        add_error(ErrorRecord{f.cause, tile.id, f.context, f.pc, f.addr, f.info});
    }
}

uint64_t Card::superstep_end() const
{
    // Every tile's transfers share one link: they pipeline (one latency) but
    // their bytes cross it one after another, whichever order they came in.
    if (superstep_host_bytes_ == 0)
        return superstep_start_;
    return superstep_start_ + host_link_transfer_cycles(board_, superstep_host_bytes_);
}

// Every live tile waits in a sync: land exchange writes, align clocks, and
// either go on (internal) or ask the host (external).
void Card::finish_superstep()
{
    uint32_t request = 0;
    uint64_t latest = superstep_end();
    std::vector<uint64_t> received; // exchange bytes landing on each tile, when any
    for (Tile &t : tiles_) {
        if (t.state != IPU_TILE_STATE_SYNC_WAIT)
            continue;
        if (request == 0)
            request = t.sync_request;
        latest = std::max(latest, t.time());
        for (ExchangeWrite &w : t.outbox) {
            std::memcpy(tiles_[w.dst_tile].at(w.dst_addr), w.data.data(), w.data.size());
            tiles_[w.dst_tile].iss.written(w.dst_addr, static_cast<uint32_t>(w.data.size()));
            if (received.empty())
                received.assign(tiles_.size(), 0);
            received[w.dst_tile] += w.data.size();
            t.spare_buffers.push_back(std::move(w.data)); // reused by the tile's next sends
        }
        t.outbox.clear();
    }
    // Senders paid for their bytes when they sent them; a receiver's port
    // takes exchange_bytes_per_cycle too, so a tile many send to ends late.
    for (uint64_t bytes : received)
        latest = std::max(latest, superstep_start_ + exchange_cycles(board_.exchange_bytes_per_cycle, bytes));
    latest += board_.global_sync_cycles;
    superstep_start_ = latest;
    superstep_host_bytes_ = 0;
    for (Tile &t : tiles_) {
        if (t.state != IPU_TILE_STATE_SYNC_WAIT)
            continue;
        for (Context &cx : t.ctx)
            cx.time = std::max(cx.time, latest);
    }
    card_cycles_ = std::max(card_cycles_, latest);
    if ((request & 0xff) == IPU_SYNC_KIND_EXTERNAL) {
        hsync_id_ = request >> 8;
        hsync_pending_ = true;
        state_ = IPU_CARD_STATE_HOST_SYNC;
        raise_irq(IPU_REG_IRQ_STATUS_HOST_SYNC_MASK);
        return;
    }
    release_sync();
}

void Card::release_sync()
{
    hsync_pending_ = false;
    for (Tile &t : tiles_) {
        if (t.state != IPU_TILE_STATE_SYNC_WAIT)
            continue;
        t.state = IPU_TILE_STATE_RUNNING;
        t.ctx[0].state = IPU_CTX_STATE_RUNNING;
    }
    state_ = IPU_CARD_STATE_RUNNING;
}

} // namespace ipu::model
