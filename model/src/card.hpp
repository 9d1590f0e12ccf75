// The card: tiles, the host interface (registers, BAR2 window, DMA engine,
// translation table, interrupts, error records, console) and the run loop.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "card_memory.hpp"
#include "iss.hpp"
#include "iss_native_hold.hpp"
#include "ipu_board.h"
#include "ipu_card/backend.h"
#include "ipu_model/inject.h"
#include "ipu_model/model.h"
#include "thread_pool.hpp"

namespace ipu::model {

struct XlatEntry {
    uint32_t dev_base = 0;
    uint32_t ctrl = 0;
    uint32_t bus_lo = 0;
    uint32_t bus_hi = 0;
};

// Bytes an entry covers (PAGES_MINUS_1 + 1 pages).
uint64_t xlat_entry_bytes(const XlatEntry &e);

struct ErrorRecord {
    uint32_t cause, tile, context, pc, addr, info;
};

// Where the DMA engine is in its chain while DMA_STATUS.BUSY is set.
struct DmaProgress {
    uint32_t index = 0;     // descriptor of the chain being moved
    bool have_desc = false; // desc holds descriptor `index`, already checked
    ipu_dma_desc desc{};
    uint32_t offset = 0;    // bytes of desc moved so far
};

constexpr size_t kErrorFifoDepth = 64;
constexpr size_t kConsoleFifoDepth = 1 << 20;
constexpr uint32_t kDmaEngineTile = 0xffffffffu;
constexpr uint32_t kMaxDmaChain = 65536;

// Nanoseconds all cards of this process spent in the run-loop phases spread
// over host threads (ipu_model_parallel_phase_ns).
uint64_t parallel_phase_ns();
// The part of parallel_phase_ns() spent in one phase (ipu_model_phase_ns).
uint64_t phase_ns(ipu_model_phase phase);

class Card {
public:
    Card(const ipu_board &board, const ipu_backend_host &host, const ipu_backend_options &options);

    bool ok() const { return memory_.ok(); }
    int bar_read(unsigned bar, uint64_t offset, unsigned size, uint64_t *value);
    int bar_write(unsigned bar, uint64_t offset, unsigned size, uint64_t value);
    int advance(uint64_t budget);

    // card_state.cpp: the backend's save/restore (see ipu_backend_ops).
    size_t save_size();
    int save(void *buf, size_t len);
    int restore(const void *buf, size_t len);

    // Lock-step and tests: observe retired instructions (nullptr to stop).
    void set_retire_hook(const RetireHook *hook);
    const Tile &tile(uint32_t index) const { return tiles_[index]; }
    size_t resident_bytes() const { return memory_.resident_bytes(); }

    // card_inject.cpp: fault injection (ipu_model/inject.h).
    void set_faults(const ipu_backend_faults &f);
    ipu_backend_faults faults();

private:
    std::vector<uint8_t> snapshot();

    // card_regs.cpp
    uint32_t read_reg(uint32_t offset);
    void write_reg(uint32_t offset, uint32_t value);
    uint32_t read_tile_reg(uint32_t offset);
    void write_tile_reg(uint32_t offset, uint32_t value);
    void reset();
    void start();
    void halt();
    void log_guest_error(const std::string &what);
    // Refuses (clears VALID, adds an ERR_XLAT_BAD_ENTRY record) a valid entry
    // whose ranges wrap; see the contract's XLAT_ENTRY.
    void check_xlat_entry(uint32_t index);

    // card_dma.cpp
    // Translates [dev, dev+len) to bus-address chunks; returns an ERR code.
    uint32_t translate(uint32_t dev, uint32_t len, bool write, std::vector<std::pair<uint64_t, uint32_t>> &chunks,
                       uint32_t &fault_addr);
    uint32_t host_read(uint32_t dev, void *buf, uint32_t len, uint32_t &fault_addr);
    uint32_t host_write(uint32_t dev, const void *buf, uint32_t len, uint32_t &fault_addr);
    // The DMA engine runs a chain in slices: DMA_CTRL.START only starts it,
    // advance() moves it on (step_dma) by a bounded number of bytes.
    void start_dma_chain();
    void step_dma(uint64_t max_bytes);
    bool dma_descriptor_ok(const ipu_dma_desc &d) const;
    uint32_t dma_descriptor_slice(uint64_t max_bytes, uint64_t &moved, uint32_t &fault_addr);
    void dma_fail(uint32_t err, uint32_t addr, uint32_t info);
    bool dma_busy() const { return (dma_status_ & IPU_REG_DMA_STATUS_BUSY_MASK) != 0; }
    void service_host_exchange(Tile &tile);
    // Moves the tile's pending host exchange and advances its context's
    // clock; returns the bytes moved (0 if it faulted the tile). A read from the
    // host drops code decoded from the bytes it overwrites. Touches no
    // card state, so host threads may run it for different tiles at once.
    uint32_t move_host_exchange(Tile &tile);

    // card_run.cpp
    // What one chunk of kTilesPerChunk consecutive tiles looked like after a
    // round; summed by the thread that ran the chunk, so that the serial part
    // of a round visits chunks, not tiles. On its own cache lines: threads
    // fill neighbouring chunks at the same time.
    struct alignas(64) ChunkSummary {
        bool running = false, error = false, sync = false;
        uint64_t time = 0;      // latest tile clock
        uint64_t sync_time = 0; // latest clock of a tile waiting in a sync
        uint32_t request = 0;   // first nonzero SYNC request in tile order
        std::vector<uint32_t> drain; // tiles with something for the card, in order
        bool hx_reads = false, hx_writes = false; // drain tiles with host-to-tile / tile-to-host exchanges
        uint64_t hx_bytes = 0; // bytes this chunk's tiles moved in parallel_host_reads
        // The exchange writes of this chunk's syncing tiles, in tile and send
        // order, by the landing part of their destination (landing_part_).
        std::vector<std::vector<const ExchangeWrite *>> landing;
        void reset(size_t parts);
        void add(const Tile &t);
        void add_drained(const Tile &t);
    };
    static constexpr size_t kTilesPerChunk = 16;
    void for_chunks(ipu_model_phase phase, size_t count, const std::function<void(size_t)> &fn);
    void run_round(uint64_t budget);
    void drain_tile(Tile &tile);
    void parallel_host_reads();
    void finish_superstep();
    // The earliest cycle the current superstep can end at, by what it moved:
    // the host link shared by all tiles, and each tile's exchange receive port.
    uint64_t superstep_end() const;
    void release_sync();
    void add_error(const ErrorRecord &r);
    void raise_irq(uint32_t cause_bit);
    // card_inject.cpp: hands an interrupt to the host unless a fault drops or
    // delays it; ticks the delayed ones once per advance().
    void deliver_irq(unsigned vector);
    void tick_delayed_irqs();

    ipu_board board_;
    ipu_backend_host host_;
    ipu_backend_options options_;
    CardMemory memory_;
    // Released after the tiles: the opt-in background compiler stops with the last card.
    NativeServiceHold native_hold_;
    std::vector<Tile> tiles_;
    std::unique_ptr<ThreadPool> pool_;
    const RetireHook *hook_ = nullptr;
    std::vector<ChunkSummary> chunks_; // of the last round
    // The chunks the next round runs, in order: those with a tile running or
    // waiting in a sync. A chunk whose tiles have all stopped (exited, off,
    // ready) keeps its summary and is left out, so a program on a few tiles of
    // ipu2 does not visit the other 1,400 tiles' state at every round, nor
    // hand their empty chunks to the host threads. Only the host changes a
    // stopped tile's state (START, reset, enables, a restore), so every
    // register write and restore makes the next round visit every chunk again.
    std::vector<uint32_t> live_chunks_;
    bool rescan_chunks_ = true;
    // Writes land in one part per host thread: part p is the tiles of the
    // chunks thread p runs first in a round (ThreadPool's shares), so each
    // thread writes into the tiles whose state its cache holds.
    std::vector<uint32_t> landing_part_; // by chunk
    std::vector<uint64_t> received_;    // exchange bytes landing on each tile in a sync
    std::vector<uint64_t> part_latest_; // by landing part: when its last receive port is done
    std::vector<uint32_t> busy_parts_;  // the landing parts a sync writes into, in order
    std::vector<bool> part_busy_;       // by landing part: in busy_parts_
    RetireHook trace_hook_;
    std::recursive_mutex lock_;

    // Registers.
    uint32_t state_ = IPU_CARD_STATE_IDLE;
    uint32_t irq_status_ = 0;
    uint32_t irq_mask_ = 0;
    uint32_t watchdog_units_ = 0;
    uint32_t tile_sel_ = 0;
    uint32_t ctx_sel_ = 0;
    uint32_t window_tile_ = 0;
    uint32_t hsync_id_ = 0;
    bool hsync_pending_ = false;
    uint64_t card_cycles_ = 0;
    uint32_t dma_desc_addr_ = 0;
    uint32_t dma_status_ = 0;
    uint32_t dma_completed_ = 0;
    uint64_t dma_bytes_ = 0;
    // Time model: where the current superstep began (the last sync's release)
    // and the host-exchange bytes its tiles moved over the link.
    uint64_t superstep_start_ = 0;
    uint64_t superstep_host_bytes_ = 0;
    DmaProgress dma_;
    std::array<XlatEntry, IPU_REG_XLAT_COUNT> xlat_{};
    std::deque<ErrorRecord> errors_;
    uint32_t errors_lost_ = 0;
    std::deque<uint32_t> console_;
    uint32_t console_lost_ = 0;
    uint64_t guest_errors_ = 0;

    // Fault injection: what is armed, and interrupts held back (vector,
    // advance() calls still to wait).
    ipu_backend_faults faults_{};
    std::deque<std::pair<unsigned, uint32_t>> delayed_irqs_;
};

} // namespace ipu::model
