// State of one tile: its hardware contexts, CSR-visible control state, and the
// per-tile buffers (console, exchange outbox, pending host exchange, fault)
// that the card drains in tile order after each round, so that results do not
// depend on how many host threads simulate the tiles.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "ipu_card/hw.h"
#include "iss_cache_slot.hpp"

namespace ipu::model {

constexpr unsigned kMaxContexts = IPU_TILE_CONTEXTS_MAX;

struct Context {
    std::array<uint32_t, 32> x{};
    std::array<uint32_t, 32> f{};
    uint32_t pc = 0;
    uint32_t fflags = 0;
    uint32_t frm = 0;
    uint32_t state = IPU_CTX_STATE_IDLE;
    uint64_t time = 0;    // logical tile cycles at which this context issues next
    uint64_t instret = 0; // instructions retired in this run
    uint32_t exit_value = 0;
    uint32_t stack_limit = 0; // STACK_LIMIT CSR: lowest sp allowed, 0 = unchecked
};

struct Fault {
    uint32_t cause = IPU_ERR_NONE;
    uint32_t context = 0;
    uint32_t pc = 0;
    uint32_t addr = 0;
    uint32_t info = 0;
};

// One exchange write, captured when the sender executes EXCHANGE and applied to
// the receiver at the next sync (bulk-synchronous semantics).
struct ExchangeWrite {
    uint32_t dst_tile;
    uint32_t dst_addr;
    std::vector<uint8_t> data;
};

// A host-exchange request from a context, serviced by the card between rounds.
struct HostExchange {
    bool pending = false;
    unsigned context = 0;
    uint32_t pc = 0;
    uint32_t dev_addr = 0;
    uint32_t tile_addr = 0;
    uint32_t length = 0;
    bool to_host = false;
};

// Why a context stopped issuing instructions.
enum class Stop {
    Budget,       // the instruction budget of this call ran out
    Join,         // supervisor reads WORKER_JOIN with workers still running
    Sync,         // supervisor wrote SYNC
    Exit,         // supervisor wrote EXIT
    WorkerDone,   // worker wrote WORKER_EXIT
    HostExchange, // HX_START: the card must move data before this context goes on
    Fault,        // the tile faulted (tile.fault says why)
};

// The IPU-Links between the card's IPUs, as a tile's exchange sees them: tile
// `id` is on IPU id / tiles_per_ipu, and every byte it sends to a tile of
// another IPU costs 1/bytes_per_cycle more cycles, plus latency_cycles once per
// exchange that crosses IPUs (boards/README.md).
struct IpuLink {
    uint32_t tiles_per_ipu = 0; // 0: one IPU, nothing crosses
    uint32_t bytes_per_cycle = 1;
    uint32_t latency_cycles = 0;
};

struct Tile {
    uint32_t id = 0;
    uint8_t *sram = nullptr; // bytes_per_tile bytes, tile-local address IPU_TILE_SRAM_BASE
    uint32_t sram_bytes = 0;
    uint32_t num_workers = 0;
    uint32_t num_tiles = 0;
    uint32_t issue_cycles = 6; // a context issues once per this many tile cycles (barrel)
    uint32_t exchange_bytes_per_cycle = 4;
    IpuLink link;
    bool has_fpu = true;

    // Host-programmed.
    bool enabled = false;
    uint32_t entry = 0;
    uint32_t boot_arg = 0;

    // Run state.
    uint32_t state = IPU_TILE_STATE_OFF;
    uint32_t exit_code = 0;
    std::array<Context, kMaxContexts> ctx{};
    uint32_t worker_entry = 0;
    uint32_t worker_arg = 0;
    uint32_t worker_fail_mask = 0;
    uint32_t sync_request = 0; // SYNC CSR value while state is SYNC_WAIT
    bool joining = false;      // the supervisor waits in WORKER_JOIN for running workers (reads as BLOCKED)
    uint32_t fail_info = 0;
    uint32_t hx_dev_addr = 0;
    uint32_t hx_tile_addr = 0;
    uint64_t insns_this_run = 0;
    uint64_t watchdog_insns = 0; // 0 = off
    bool has_fault = false;
    Fault fault;
    HostExchange hx;
    std::vector<uint8_t> console;
    std::vector<ExchangeWrite> outbox;
    // Buffers of landed exchange writes, reused by the next sends: no
    // allocation per send, and no free in the card's serial sync phase.
    std::vector<std::vector<uint8_t>> spare_buffers;
    IssCacheSlot iss; // fast-ISS mode and decoded blocks (iss_fast.cpp); empty in a copy

    uint64_t time() const { return ctx[0].time; }
    bool in_sram(uint32_t addr, uint32_t len) const
    {
        return addr >= IPU_TILE_SRAM_BASE && len <= sram_bytes && addr - IPU_TILE_SRAM_BASE <= sram_bytes - len;
    }
    uint8_t *at(uint32_t addr) const { return sram + (addr - IPU_TILE_SRAM_BASE); }

    // Puts the tile in the error state; the first fault of a run wins.
    void raise(uint32_t cause, unsigned context, uint32_t pc, uint32_t addr, uint32_t info = 0)
    {
        if (!has_fault) {
            has_fault = true;
            fault = Fault{cause, context, pc, addr, info};
        }
        ctx[context].state = IPU_CTX_STATE_FAULTED;
        state = IPU_TILE_STATE_ERROR;
    }
};

} // namespace ipu::model
