// The card's BAR0 registers and BAR2 tile-memory window.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "card.hpp"

namespace ipu::model {

Card::Card(const ipu_board &board, const ipu_backend_host &host, const ipu_backend_options &options)
    : board_(board), host_(host), options_(options),
      memory_(ipu_board_num_tiles(&board), board.bytes_per_tile)
{
    const uint32_t n = ipu_board_num_tiles(&board);
    tiles_.resize(n);
    for (uint32_t i = 0; i < n && memory_.ok(); i++) {
        Tile &t = tiles_[i];
        t.id = i;
        t.sram = memory_.tile(i);
        t.sram_bytes = board.bytes_per_tile;
        t.num_workers = board.worker_contexts;
        t.num_tiles = n;
        t.issue_cycles = board.worker_contexts;
        t.exchange_bytes_per_cycle = board.exchange_bytes_per_cycle;
        if (board.num_ipus > 1)
            t.link = IpuLink{board.tiles_per_ipu, std::max<uint32_t>(board.ipu_link_bytes_per_cycle, 1),
                             board.ipu_link_latency_cycles};
        t.has_fpu = ipu_board_has_fpu(&board) != 0;
    }
    unsigned threads = options.host_threads ? options.host_threads : std::max(1u, std::thread::hardware_concurrency());
    pool_ = std::make_unique<ThreadPool>(std::min<unsigned>(threads, std::max<uint32_t>(n, 1)));
    if (options.trace) {
        trace_hook_ = RetireHook{stderr, trace_retired};
        hook_ = &trace_hook_;
    }
}

void Card::set_retire_hook(const RetireHook *hook)
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    hook_ = hook;
}

void Card::log_guest_error(const std::string &what)
{
    // Bad accesses from the bus are logged and survived, never fatal
    // (QEMU's LOG_GUEST_ERROR discipline). Quiet unless asked for.
    guest_errors_++;
    static const bool verbose = std::getenv("IPU_MODEL_LOG") != nullptr;
    if (verbose)
        std::fprintf(stderr, "ipu-model: guest error: %s\n", what.c_str());
}

// BAR2 accesses are checked as `offset > bytes_per_tile - size` (size is at most
// 8, a tile at least 4 KiB): `offset + size` would wrap for an offset near 2^64
// and let an access land before the window's tile.
int Card::bar_read(unsigned bar, uint64_t offset, unsigned size, uint64_t *value)
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    *value = ~0ull;
    if (faults_.removed)
        return 0; // surprise removal: the bus answers all ones
    if (bar == IPU_BAR_REGS) {
        if (size != 4 || (offset & 3) || offset >= IPU_BAR_REGS_SIZE) {
            log_guest_error("BAR0 read: offset " + std::to_string(offset) + " size " + std::to_string(size));
            return -EINVAL;
        }
        *value = read_reg(static_cast<uint32_t>(offset));
        return 0;
    }
    if (bar == IPU_BAR_TILEMEM) {
        if ((size != 1 && size != 2 && size != 4 && size != 8) || offset > board_.bytes_per_tile - size ||
            window_tile_ >= tiles_.size()) {
            log_guest_error("BAR2 read out of range: offset " + std::to_string(offset));
            return -EINVAL;
        }
        uint64_t v = 0;
        std::memcpy(&v, tiles_[window_tile_].sram + offset, size);
        *value = v;
        return 0;
    }
    log_guest_error("read of BAR " + std::to_string(bar));
    return -EINVAL;
}

int Card::bar_write(unsigned bar, uint64_t offset, unsigned size, uint64_t value)
{
    std::lock_guard<std::recursive_mutex> g(lock_);
    if (faults_.removed)
        return 0; // surprise removal: writes go nowhere
    if (bar == IPU_BAR_REGS) {
        if (size != 4 || (offset & 3) || offset >= IPU_BAR_REGS_SIZE) {
            log_guest_error("BAR0 write: offset " + std::to_string(offset) + " size " + std::to_string(size));
            return -EINVAL;
        }
        rescan_chunks_ = true; // the write may start, stop or enable tiles (live_chunks_)
        write_reg(static_cast<uint32_t>(offset), static_cast<uint32_t>(value));
        return 0;
    }
    if (bar == IPU_BAR_TILEMEM) {
        if ((size != 1 && size != 2 && size != 4 && size != 8) || offset > board_.bytes_per_tile - size ||
            window_tile_ >= tiles_.size()) {
            log_guest_error("BAR2 write out of range: offset " + std::to_string(offset));
            return -EINVAL;
        }
        std::memcpy(tiles_[window_tile_].sram + offset, &value, size);
        tiles_[window_tile_].iss.written(IPU_TILE_SRAM_BASE + static_cast<uint32_t>(offset), size);
        return 0;
    }
    log_guest_error("write of BAR " + std::to_string(bar));
    return -EINVAL;
}

uint32_t Card::read_reg(uint32_t off)
{
    if (off >= IPU_REG_XLAT_BASE && off < IPU_REG_XLAT_BASE + IPU_REG_XLAT_COUNT * IPU_REG_XLAT_STRIDE) {
        const XlatEntry &e = xlat_[(off - IPU_REG_XLAT_BASE) / IPU_REG_XLAT_STRIDE];
        switch ((off - IPU_REG_XLAT_BASE) % IPU_REG_XLAT_STRIDE) {
        case IPU_XLAT_ENTRY_DEV_BASE_OFFSET: return e.dev_base;
        case IPU_XLAT_ENTRY_CTRL_OFFSET: return e.ctrl;
        case IPU_XLAT_ENTRY_BUS_LO_OFFSET: return e.bus_lo;
        default: return e.bus_hi;
        }
    }
    if (off >= IPU_REG_TILE_SEL && off < IPU_REG_TILEMEM_WINDOW_TILE)
        return read_tile_reg(off);
    const ErrorRecord *err = errors_.empty() ? nullptr : &errors_.front();
    switch (off) {
    case IPU_REG_ID: return IPU_REG_ID_RESET_VALUE;
    case IPU_REG_VERSION: return (IPU_CONTRACT_VERSION_MAJOR << 16) | IPU_CONTRACT_VERSION_MINOR;
    case IPU_REG_NUM_TILES: return static_cast<uint32_t>(tiles_.size());
    case IPU_REG_TILE_MEM_BYTES: return board_.bytes_per_tile;
    case IPU_REG_NUM_WORKERS: return board_.worker_contexts;
    case IPU_REG_CAPS:
        return (ipu_board_has_fpu(&board_) ? IPU_REG_CAPS_FPU_MASK : 0) | IPU_REG_CAPS_DMA_MASK |
               IPU_REG_CAPS_EXCHANGE_MASK;
    case IPU_REG_TILE_CLOCK_KHZ: return static_cast<uint32_t>(board_.tile_clock_hz / 1000);
    case IPU_REG_EXCHANGE_BYTES_PER_CYCLE: return board_.exchange_bytes_per_cycle;
    case IPU_REG_XLAT_ENTRIES: return IPU_REG_XLAT_COUNT;
    case IPU_REG_NUM_IPUS: return board_.num_ipus ? board_.num_ipus : 1;
    // A model card is a card of its own; the QEMU device answers these for
    // the members of a link group (qemu-device/ipu_card.c).
    case IPU_REG_LINK_GROUP: return 0;
    case IPU_REG_LINK_INDEX: return 0;
    case IPU_REG_LINK_SIZE: return 1;
    case IPU_REG_STATUS: return state_ | ((dma_status_ & IPU_REG_DMA_STATUS_BUSY_MASK) ? IPU_REG_STATUS_DMA_BUSY_MASK : 0);
    case IPU_REG_CARD_CYCLES_LO: return static_cast<uint32_t>(card_cycles_);
    case IPU_REG_CARD_CYCLES_HI: return static_cast<uint32_t>(card_cycles_ >> 32);
    case IPU_REG_WATCHDOG_INSNS: return watchdog_units_;
    case IPU_REG_IRQ_STATUS: return irq_status_;
    case IPU_REG_IRQ_MASK: return irq_mask_;
    case IPU_REG_HSYNC_STATUS: return hsync_pending_ ? IPU_REG_HSYNC_STATUS_PENDING_MASK : 0;
    case IPU_REG_HSYNC_ID: return hsync_id_;
    case IPU_REG_CONSOLE_STATUS: return static_cast<uint32_t>(console_.size());
    case IPU_REG_CONSOLE_DATA: {
        if (console_.empty())
            return 0;
        const uint32_t v = console_.front() | IPU_REG_CONSOLE_DATA_VALID_MASK;
        console_.pop_front();
        return v;
    }
    case IPU_REG_CONSOLE_LOST: return console_lost_;
    case IPU_REG_ERR_COUNT: return static_cast<uint32_t>(errors_.size());
    case IPU_REG_ERR_CAUSE: return err ? err->cause : 0;
    case IPU_REG_ERR_TILE: return err ? err->tile : 0;
    case IPU_REG_ERR_CONTEXT: return err ? err->context : 0;
    case IPU_REG_ERR_PC: return err ? err->pc : 0;
    case IPU_REG_ERR_ADDR: return err ? err->addr : 0;
    case IPU_REG_ERR_INFO: return err ? err->info : 0;
    case IPU_REG_ERR_LOST: return errors_lost_;
    case IPU_REG_TILEMEM_WINDOW_TILE: return window_tile_;
    case IPU_REG_DMA_DESC_ADDR: return dma_desc_addr_;
    case IPU_REG_DMA_STATUS: return dma_status_;
    case IPU_REG_DMA_COMPLETED: return dma_completed_;
    case IPU_REG_DMA_BYTES_LO: return static_cast<uint32_t>(dma_bytes_);
    case IPU_REG_DMA_BYTES_HI: return static_cast<uint32_t>(dma_bytes_ >> 32);
    }
    return 0; // write-only and unassigned offsets read as zero
}

uint32_t Card::read_tile_reg(uint32_t off)
{
    const Tile &t = tiles_[tile_sel_];
    const Context &cx = t.ctx[ctx_sel_];
    const uint64_t cycles = t.time();
    switch (off) {
    case IPU_REG_TILE_SEL: return tile_sel_;
    case IPU_REG_TILE_CTRL: return t.enabled ? IPU_REG_TILE_CTRL_ENABLE_MASK : 0;
    case IPU_REG_TILE_ENTRY: return t.entry;
    case IPU_REG_TILE_BOOT_ARG: return t.boot_arg;
    case IPU_REG_TILE_STATE: return t.state;
    case IPU_REG_TILE_EXIT_CODE: return t.exit_code;
    case IPU_REG_TILE_ERR_CAUSE: return t.has_fault ? t.fault.cause : 0;
    case IPU_REG_TILE_ERR_PC: return t.has_fault ? t.fault.pc : 0;
    case IPU_REG_TILE_ERR_ADDR: return t.has_fault ? t.fault.addr : 0;
    case IPU_REG_TILE_CYCLES_LO: return static_cast<uint32_t>(cycles);
    case IPU_REG_TILE_CYCLES_HI: return static_cast<uint32_t>(cycles >> 32);
    case IPU_REG_TILE_CTX_SEL: return ctx_sel_;
    case IPU_REG_TILE_CTX_STATE:
        // A supervisor that waits in WORKER_JOIN issues nothing: BLOCKED, so
        // that a hang report names the worker that keeps it waiting.
        return ctx_sel_ == 0 && t.joining && cx.state == IPU_CTX_STATE_RUNNING ? IPU_CTX_STATE_BLOCKED : cx.state;
    case IPU_REG_TILE_CTX_PC: return cx.pc;
    case IPU_REG_TILE_CTX_INSTRET: return static_cast<uint32_t>(cx.instret);
    }
    return 0;
}

void Card::write_tile_reg(uint32_t off, uint32_t v)
{
    Tile &t = tiles_[tile_sel_];
    const bool running = state_ == IPU_CARD_STATE_RUNNING || state_ == IPU_CARD_STATE_HOST_SYNC;
    switch (off) {
    case IPU_REG_TILE_SEL:
        if (v < tiles_.size())
            tile_sel_ = v;
        else
            log_guest_error("TILE_SEL " + std::to_string(v) + " >= NUM_TILES");
        return;
    case IPU_REG_TILE_CTX_SEL:
        if (v <= board_.worker_contexts)
            ctx_sel_ = v;
        else
            log_guest_error("TILE_CTX_SEL " + std::to_string(v) + " out of range");
        return;
    case IPU_REG_TILE_CTRL:
    case IPU_REG_TILE_ENTRY:
    case IPU_REG_TILE_BOOT_ARG:
        if (running) {
            log_guest_error("tile setup written while the card runs; halt or wait first");
            return;
        }
        if (off == IPU_REG_TILE_CTRL) {
            t.enabled = (v & IPU_REG_TILE_CTRL_ENABLE_MASK) != 0;
            if (t.state == IPU_TILE_STATE_OFF || t.state == IPU_TILE_STATE_READY)
                t.state = t.enabled ? IPU_TILE_STATE_READY : IPU_TILE_STATE_OFF;
        } else if (off == IPU_REG_TILE_ENTRY) {
            t.entry = v;
        } else {
            t.boot_arg = v;
        }
        return;
    }
    log_guest_error("write to read-only tile register " + std::to_string(off));
}

// A valid entry must describe ranges the card can use: a device range that
// crossed 4 GiB would let a 32-bit device address wrap, a bus range that
// wrapped past 2^64 would reach low host memory. Checked whenever a word of a
// valid entry is written, so that the order of the four writes does not matter.
void Card::check_xlat_entry(uint32_t index)
{
    XlatEntry &e = xlat_[index];
    if (!(e.ctrl & IPU_XLAT_CTRL_VALID_MASK))
        return;
    const uint64_t bytes = xlat_entry_bytes(e);
    const uint64_t bus = (static_cast<uint64_t>(e.bus_hi) << 32) | e.bus_lo;
    const bool dev_crosses_4g = e.dev_base + bytes > (uint64_t{1} << 32);
    const bool bus_wraps = bus > UINT64_MAX - (bytes - 1);
    if (!dev_crosses_4g && !bus_wraps)
        return;
    log_guest_error("translation entry " + std::to_string(index) + " refused: " +
                    (dev_crosses_4g ? "its device range crosses 4 GiB" : "its bus range wraps past 2^64"));
    e.ctrl &= ~IPU_XLAT_CTRL_VALID_MASK;
    add_error(ErrorRecord{IPU_ERR_XLAT_BAD_ENTRY, kDmaEngineTile, 0, 0, e.dev_base, index});
}

void Card::write_reg(uint32_t off, uint32_t v)
{
    if (off >= IPU_REG_XLAT_BASE && off < IPU_REG_XLAT_BASE + IPU_REG_XLAT_COUNT * IPU_REG_XLAT_STRIDE) {
        XlatEntry &e = xlat_[(off - IPU_REG_XLAT_BASE) / IPU_REG_XLAT_STRIDE];
        switch ((off - IPU_REG_XLAT_BASE) % IPU_REG_XLAT_STRIDE) {
        case IPU_XLAT_ENTRY_DEV_BASE_OFFSET: e.dev_base = v & ~0xfffu; break;
        case IPU_XLAT_ENTRY_CTRL_OFFSET: e.ctrl = v; break;
        case IPU_XLAT_ENTRY_BUS_LO_OFFSET: e.bus_lo = v & ~0xfffu; break;
        default: e.bus_hi = v; break;
        }
        check_xlat_entry((off - IPU_REG_XLAT_BASE) / IPU_REG_XLAT_STRIDE);
        return;
    }
    if (off >= IPU_REG_TILE_SEL && off < IPU_REG_TILEMEM_WINDOW_TILE) {
        write_tile_reg(off, v);
        return;
    }
    switch (off) {
    case IPU_REG_RESET:
        if (v == IPU_RESET_KEY)
            reset();
        else
            log_guest_error("RESET written without the key");
        return;
    case IPU_REG_RUN_CTRL:
        if (v & IPU_REG_RUN_CTRL_HALT_MASK)
            halt();
        else if (v & IPU_REG_RUN_CTRL_START_MASK)
            start();
        return;
    case IPU_REG_WATCHDOG_INSNS: watchdog_units_ = v; return;
    case IPU_REG_IRQ_STATUS: irq_status_ &= ~v; return;
    case IPU_REG_IRQ_MASK: irq_mask_ = v & 0x1f; return;
    case IPU_REG_HSYNC_RELEASE:
        // Decoded code stays: the host cannot start DMA during a sync, and its
        // BAR2 writes and the host exchange drop what they overwrite (written()).
        if ((v & 1) && hsync_pending_)
            release_sync();
        return;
    case IPU_REG_ERR_POP:
        if ((v & 1) && !errors_.empty())
            errors_.pop_front();
        return;
    case IPU_REG_TILEMEM_WINDOW_TILE:
        if (v < tiles_.size())
            window_tile_ = v;
        else
            log_guest_error("TILEMEM_WINDOW_TILE " + std::to_string(v) + " >= NUM_TILES");
        return;
    case IPU_REG_DMA_DESC_ADDR:
        if (dma_busy())
            log_guest_error("DMA_DESC_ADDR written while a chain is in flight; ignored");
        else
            dma_desc_addr_ = v;
        return;
    case IPU_REG_DMA_CTRL:
        if (v & IPU_REG_DMA_CTRL_START_MASK)
            start_dma_chain();
        return;
    }
    log_guest_error("write to read-only or unassigned register " + std::to_string(off));
}

void Card::reset()
{
    memory_.clear();
    delayed_irqs_.clear();
    for (Tile &t : tiles_) {
        Tile fresh;
        fresh.id = t.id;
        fresh.sram = t.sram;
        fresh.sram_bytes = t.sram_bytes;
        fresh.num_workers = t.num_workers;
        fresh.num_tiles = t.num_tiles;
        fresh.issue_cycles = t.issue_cycles;
        fresh.exchange_bytes_per_cycle = t.exchange_bytes_per_cycle;
        fresh.link = t.link;
        fresh.has_fpu = t.has_fpu;
        t = std::move(fresh);
    }
    state_ = IPU_CARD_STATE_IDLE;
    irq_status_ = irq_mask_ = 0;
    watchdog_units_ = tile_sel_ = ctx_sel_ = window_tile_ = 0;
    hsync_id_ = 0;
    hsync_pending_ = false;
    card_cycles_ = 0;
    superstep_start_ = superstep_host_bytes_ = 0;
    dma_desc_addr_ = dma_status_ = dma_completed_ = 0;
    dma_bytes_ = 0;
    dma_ = DmaProgress{}; // a chain in flight stops here
    xlat_.fill(XlatEntry{});
    errors_.clear();
    errors_lost_ = 0;
    console_.clear();
    console_lost_ = 0;
}

void Card::start()
{
    if (state_ != IPU_CARD_STATE_IDLE && state_ != IPU_CARD_STATE_DONE) {
        log_guest_error("RUN_CTRL.START while the card is not idle or done");
        return;
    }
    if (dma_busy()) {
        log_guest_error("RUN_CTRL.START while a DMA chain is in flight; wait for DMA_STATUS.BUSY to clear");
        return;
    }
    card_cycles_ = 0;
    superstep_start_ = superstep_host_bytes_ = 0;
    for (Tile &t : tiles_) {
        const uint64_t keep_instret = 0;
        for (Context &cx : t.ctx)
            cx = Context{};
        t.has_fault = false;
        t.fault = Fault{};
        t.exit_code = 0;
        t.insns_this_run = keep_instret;
        t.watchdog_insns = static_cast<uint64_t>(watchdog_units_) * 1024;
        t.worker_fail_mask = 0;
        t.joining = false;
        t.hx = HostExchange{};
        t.outbox.clear();
        t.console.clear();
        if (!t.enabled) {
            t.state = IPU_TILE_STATE_OFF;
            continue;
        }
        t.state = IPU_TILE_STATE_RUNNING;
        t.ctx[0].state = IPU_CTX_STATE_RUNNING;
        t.ctx[0].pc = t.entry;
        t.ctx[0].x[10] = t.boot_arg;
    }
    irq_status_ &= ~(IPU_REG_IRQ_STATUS_DONE_MASK | IPU_REG_IRQ_STATUS_HOST_SYNC_MASK);
    state_ = IPU_CARD_STATE_RUNNING;
}

void Card::halt()
{
    if (state_ == IPU_CARD_STATE_RUNNING || state_ == IPU_CARD_STATE_HOST_SYNC)
        state_ = IPU_CARD_STATE_IDLE;
    hsync_pending_ = false;
    for (Tile &t : tiles_)
        if (t.state == IPU_TILE_STATE_RUNNING || t.state == IPU_TILE_STATE_SYNC_WAIT)
            t.state = t.enabled ? IPU_TILE_STATE_READY : IPU_TILE_STATE_OFF;
}

} // namespace ipu::model
