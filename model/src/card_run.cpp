// The card's run loop: parallel rounds of tile execution, then a deterministic
// drain (console, host exchange, faults) in tile order, then syncs.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>

#include "card.hpp"
#include "iss_jit.hpp"
#include "link_time.hpp"
#include "tile_runner.hpp"

namespace ipu::model {
namespace {
// Process-wide: time the run loop spent in phases spread over host threads.
std::atomic<uint64_t> g_phase_ns[IPU_MODEL_PHASE_COUNT];
} // namespace

uint64_t parallel_phase_ns()
{
    uint64_t sum = 0;
    for (const auto &ns : g_phase_ns)
        sum += ns.load(std::memory_order_relaxed);
    return sum;
}

uint64_t phase_ns(ipu_model_phase phase)
{
    return phase < IPU_MODEL_PHASE_COUNT ? g_phase_ns[phase].load(std::memory_order_relaxed) : 0;
}

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

// Runs fn(c) for every chunk c in [0, count): spread over the pool, or in
// order on this thread when a retire hook needs one global order.
void Card::for_chunks(ipu_model_phase phase, size_t count, const std::function<void(size_t)> &fn)
{
    const auto t0 = std::chrono::steady_clock::now();
    if (hook_ || pool_->size() == 1) {
        for (size_t c = 0; c < count; c++)
            fn(c);
    } else {
        pool_->parallel_for(count, fn);
    }
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0);
    g_phase_ns[phase].fetch_add(static_cast<uint64_t>(ns.count()), std::memory_order_relaxed);
}

// One round: every running tile runs (in parallel, chunk by chunk), and each
// chunk sums up its tiles, so that the serial part of the round is a pass over
// the chunks plus the tiles that have something for the card.
void Card::run_round(uint64_t budget)
{
    const RetireHook *hook = hook_;
    const size_t chunks = (tiles_.size() + kTilesPerChunk - 1) / kTilesPerChunk;
    const unsigned parts = pool_->size();
    if (landing_part_.size() != chunks) {
        chunks_.resize(chunks);
        landing_part_.resize(chunks);
        for (unsigned p = 0; p < parts; p++)
            for (size_t c = pool_->share_begin(chunks, p); c < pool_->share_begin(chunks, p + 1); c++)
                landing_part_[c] = p;
        rescan_chunks_ = true;
    }
    if (rescan_chunks_) {
        live_chunks_.resize(chunks);
        for (size_t c = 0; c < chunks; c++)
            live_chunks_[c] = static_cast<uint32_t>(c);
        rescan_chunks_ = false;
    }
    // One live chunk runs on this thread alone (ThreadPool::parallel_for).
    for_chunks(IPU_MODEL_PHASE_ROUND, live_chunks_.size(), [&](size_t k) {
        const size_t c = live_chunks_[k];
        ChunkSummary &s = chunks_[c];
        s.reset(parts);
        const JitHold jit_hold;
        const size_t end = std::min(tiles_.size(), (c + 1) * kTilesPerChunk);
        for (size_t i = c * kTilesPerChunk; i < end; i++) {
            Tile &t = tiles_[i];
            if (t.state == IPU_TILE_STATE_RUNNING) {
                run_tile(t, budget, hook);
                if (!t.console.empty() || t.hx.pending || (t.state == IPU_TILE_STATE_ERROR && t.has_fault))
                    s.drain.push_back(t.id);
                if (t.hx.pending)
                    (t.hx.to_host ? s.hx_writes : s.hx_reads) = true;
            }
            s.add(t);
            if (t.state == IPU_TILE_STATE_SYNC_WAIT)
                for (const ExchangeWrite &w : t.outbox)
                    s.landing[landing_part_[w.dst_tile / kTilesPerChunk]].push_back(&w);
        }
    });
    parallel_host_reads();
    // Drains in tile order (console FIFO, host link, error records are the card's).
    for (uint32_t c : live_chunks_) {
        ChunkSummary &s = chunks_[c];
        for (uint32_t id : s.drain) {
            drain_tile(tiles_[id]);
            s.add_drained(tiles_[id]);
        }
    }

    // A chunk left out of the round kept its summary: nothing running, no
    // sync, no error, its tiles' latest clock.
    bool any_running = false, any_error = false, any_sync = false;
    for (const ChunkSummary &s : chunks_) {
        any_running |= s.running;
        any_error |= s.error;
        any_sync |= s.sync;
        card_cycles_ = std::max(card_cycles_, s.time);
    }
    // The chunks whose tiles all stopped leave the live list; what the card
    // took from them this round (drains, host-exchange bytes) must not be
    // taken again from the summary they keep.
    size_t kept = 0;
    for (uint32_t c : live_chunks_) {
        ChunkSummary &s = chunks_[c];
        if (s.running || s.sync || s.error) {
            live_chunks_[kept++] = c;
            continue;
        }
        s.drain.clear();
        s.hx_reads = s.hx_writes = false;
        s.hx_bytes = 0;
    }
    live_chunks_.resize(kept);
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

void Card::ChunkSummary::reset(size_t parts)
{
    running = error = sync = hx_reads = hx_writes = false;
    hx_bytes = 0;
    time = sync_time = 0;
    request = 0;
    drain.clear();
    landing.resize(parts);
    for (auto &l : landing)
        l.clear();
}

void Card::ChunkSummary::add(const Tile &t)
{
    running |= t.state == IPU_TILE_STATE_RUNNING;
    error |= t.state == IPU_TILE_STATE_ERROR;
    time = std::max(time, t.time());
    if (t.state != IPU_TILE_STATE_SYNC_WAIT)
        return;
    sync = true;
    sync_time = std::max(sync_time, t.time());
    if (request == 0)
        request = t.sync_request;
}

// A drain moved the tile's time on (host exchange) or faulted it.
void Card::ChunkSummary::add_drained(const Tile &t)
{
    error |= t.state == IPU_TILE_STATE_ERROR;
    time = std::max(time, t.time());
}

// A stream copy to the tiles is one host-exchange read per tile, and the
// serial drain used to copy them all on one thread, taking the first touch
// of every SRAM page they land in (tutorial 7: 40 MB, about a quarter of its
// run). When the host lets dma_read run on any thread, this round's reads
// move in parallel, chunk by chunk, before the drain. Only when no tile
// writes to the host in this round: a read must not race a write the serial
// order would have put before it. A read touches only its own tile (SRAM,
// clock, fault); the drain then adds fault records in tile order as before.
void Card::parallel_host_reads()
{
    if (!host_.dma_read_any_thread || hook_ || pool_->size() == 1)
        return;
    bool reads = false;
    for (uint32_t c : live_chunks_) {
        if (chunks_[c].hx_writes)
            return;
        reads |= chunks_[c].hx_reads;
    }
    if (!reads)
        return;
    for_chunks(IPU_MODEL_PHASE_ROUND, live_chunks_.size(), [&](size_t k) {
        ChunkSummary &s = chunks_[live_chunks_[k]];
        if (!s.hx_reads)
            return;
        for (uint32_t id : s.drain) {
            Tile &t = tiles_[id];
            if (!t.hx.pending)
                continue;
            s.hx_bytes += move_host_exchange(t);
        }
    });
    for (uint32_t c : live_chunks_) {
        dma_bytes_ += chunks_[c].hx_bytes;
        superstep_host_bytes_ += chunks_[c].hx_bytes;
    }
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
    if (tile.hx.pending)
        service_host_exchange(tile);
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
// either go on (internal) or ask the host (external). Writes land in
// parallel, one part of the destination tiles per host thread, in the order
// the serial model used (sender tile order, then send order), so overlapping
// writes give the same bytes for any host thread count.
void Card::finish_superstep()
{
    uint32_t request = 0;
    uint64_t latest = superstep_end();
    const size_t parts = pool_->size();
    // The landing parts that receive anything: one alone lands on this thread.
    std::vector<uint32_t> &busy_parts = busy_parts_;
    busy_parts.clear();
    std::vector<bool> &part_busy = part_busy_;
    part_busy.assign(parts, false);
    for (uint32_t c : live_chunks_) { // the chunks left out hold no sync and no write
        const ChunkSummary &s = chunks_[c];
        if (request == 0)
            request = s.request;
        if (s.sync)
            latest = std::max(latest, s.sync_time);
        for (size_t k = 0; k < s.landing.size(); k++)
            if (!s.landing[k].empty() && !part_busy[k]) {
                part_busy[k] = true;
                busy_parts.push_back(static_cast<uint32_t>(k));
            }
    }
    if (!busy_parts.empty()) {
        const size_t chunks = chunks_.size();
        std::vector<uint64_t> &part_latest = part_latest_;
        part_latest.assign(parts, 0);
        received_.resize(tiles_.size());
        auto first_tile = [&](size_t part) {
            return std::min(tiles_.size(), pool_->share_begin(chunks, static_cast<unsigned>(part)) * kTilesPerChunk);
        };
        for_chunks(IPU_MODEL_PHASE_LANDING, busy_parts.size(), [&](size_t b) {
            const size_t k = busy_parts[b];
            const size_t lo = first_tile(k), hi = first_tile(k + 1);
            std::fill(received_.begin() + lo, received_.begin() + hi, 0);
            for (uint32_t c : live_chunks_) {
                for (const ExchangeWrite *w : chunks_[c].landing[k]) {
                    Tile &dst = tiles_[w->dst_tile];
                    std::memcpy(dst.at(w->dst_addr), w->data.data(), w->data.size());
                    dst.iss.written(w->dst_addr, static_cast<uint32_t>(w->data.size()));
                    received_[w->dst_tile] += w->data.size();
                }
            }
            // Senders paid for their bytes when they sent them; a receiver's port
            // takes exchange_bytes_per_cycle too, so a tile many send to ends late.
            uint64_t l = 0;
            for (size_t d = lo; d < hi; d++)
                if (received_[d])
                    l = std::max(l, superstep_start_ + exchange_cycles(board_.exchange_bytes_per_cycle, received_[d]));
            part_latest[k] = l;
        });
        for (uint64_t l : part_latest)
            latest = std::max(latest, l);
    }
    latest += board_.global_sync_cycles;
    superstep_start_ = latest;
    superstep_host_bytes_ = 0;
    const bool external = (request & 0xff) == IPU_SYNC_KIND_EXTERNAL;
    // Per tile: buffers back to the sender for its next sends, clocks aligned,
    // and after an internal sync the tile runs on.
    for_chunks(IPU_MODEL_PHASE_RESUME, live_chunks_.size(), [&](size_t k) {
        const size_t c = live_chunks_[k];
        const size_t end = std::min(tiles_.size(), (c + 1) * kTilesPerChunk);
        for (size_t i = c * kTilesPerChunk; i < end; i++) {
            Tile &t = tiles_[i];
            if (t.state != IPU_TILE_STATE_SYNC_WAIT)
                continue;
            for (ExchangeWrite &w : t.outbox)
                t.spare_buffers.push_back(std::move(w.data));
            t.outbox.clear();
            for (Context &cx : t.ctx)
                cx.time = std::max(cx.time, latest);
            if (!external) {
                t.state = IPU_TILE_STATE_RUNNING;
                t.ctx[0].state = IPU_CTX_STATE_RUNNING;
            }
        }
    });
    card_cycles_ = std::max(card_cycles_, latest);
    if (external) {
        hsync_id_ = request >> 8;
        hsync_pending_ = true;
        state_ = IPU_CARD_STATE_HOST_SYNC;
        raise_irq(IPU_REG_IRQ_STATUS_HOST_SYNC_MASK);
        return;
    }
    hsync_pending_ = false;
    state_ = IPU_CARD_STATE_RUNNING;
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
