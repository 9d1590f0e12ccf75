// What the shared card checks (card_checks.hpp) need from a card: registers,
// tile memory, host memory the card may reach, and a way to let it run. The
// in-process harness (tile_harness.hpp: the model and the RTL behind the
// backend interface) and the driver harness (driver_card.hpp: any card
// libipudrv opens, the out-of-process board simulation included) implement it,
// so that every embodiment is held to the same expectations by one piece of code.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ipu_board.h"
#include "ipu_card/hw.h"

namespace ipu::test {

struct ErrorRecord {
    uint32_t cause, tile, context, pc, addr, info;
};

struct RunResult {
    uint32_t card_state = 0;                 // IPU_CARD_STATE_*
    std::map<unsigned, std::string> console; // bytes each tile wrote to CONSOLE
    std::vector<uint32_t> tile_state;        // IPU_TILE_STATE_* per tile
    std::vector<uint32_t> exit_code;         // per tile
    std::vector<ErrorRecord> errors;         // popped from the error FIFO
    uint64_t cycles = 0;                     // CARD_CYCLES
    uint64_t host_syncs = 0;                 // external syncs serviced
};

class CardAccess {
public:
    CardAccess() = default;
    virtual ~CardAccess() = default;
    CardAccess(const CardAccess &) = delete;
    CardAccess &operator=(const CardAccess &) = delete;

    virtual uint32_t num_tiles() const = 0;
    // BAR0, 32 bits at a time.
    virtual uint32_t reg(uint32_t offset) = 0;
    virtual void set_reg(uint32_t offset, uint32_t value) = 0;
    // Tile SRAM through the BAR2 window (sub-word lengths and offsets included).
    virtual void write_tile(unsigned tile, uint32_t addr, const void *data, size_t len) = 0;
    virtual void read_tile(unsigned tile, uint32_t addr, void *data, size_t len) = 0;
    uint32_t read_tile_u32(unsigned tile, uint32_t addr);

    // Host memory the card may reach: 4 KiB-aligned, zeroed, owned by the harness.
    virtual uint8_t *alloc_host(size_t bytes) = 0;
    // The bus address the card must use for `host` (memory from alloc_host; any
    // other pointer is passed on as it is, for the IOMMU to refuse).
    virtual uint64_t bus_address(const void *host) = 0;
    // Lets the card make progress for about `budget` cycles. Returns 1 while it
    // has work left (a run or a DMA chain), 0 when idle, where the harness can tell.
    virtual int advance(uint64_t budget) = 0;

    // The board the card was made for: tile ELFs are checked against its SRAM, ISA and ABI.
    virtual const ipu_board &card_board() const = 0;

    // Loads the PT_LOAD segments of a tile ELF onto `tiles` (empty = every
    // tile) through BAR2 and enables them with entry = e_entry and boot_arg.
    // The file goes through the runtime's hardened loader (elf_image.hpp).
    // Returns e_entry; throws std::runtime_error if the file is unreadable and
    // ipu::runtime::elf_error naming the field if the loader refuses it.
    uint32_t load_elf(const std::string &path, const std::vector<unsigned> &tiles = {}, uint32_t boot_arg = 0);
    // Address of a symbol in the ELF last loaded (0 if absent).
    uint32_t symbol(const std::string &name) const;
    void setup_tile(unsigned tile, uint32_t entry, uint32_t boot_arg, bool enable = true);

    // Puts host memory in translation entry `entry` at device address `dev_addr`.
    void map(unsigned entry, uint32_t dev_addr, const void *host, size_t bytes, bool card_reads, bool card_writes);

    // Starts the card and advances it until it stops; `on_host_sync(id)` is
    // called at each external sync, before release (default: just release).
    RunResult run(uint64_t budget_per_round = 1u << 20, uint64_t max_rounds = 1u << 16,
                  const std::function<void(uint32_t)> &on_host_sync = {});
    // Advances without START (after a release or to continue a run).
    RunResult resume(uint64_t budget_per_round = 1u << 20, uint64_t max_rounds = 1u << 16,
                     const std::function<void(uint32_t)> &on_host_sync = {});
    // RESET with the key: tiles, tile memory, errors, DMA and the translation table clear.
    void reset();

private:
    RunResult collect();

    std::map<std::string, uint32_t> symbols_;
    std::map<unsigned, std::string> console_;
    uint64_t host_syncs_ = 0;
};

} // namespace ipu::test
