// Test harness: a card model on a board, with helpers to load tile ELFs, map
// host memory through the translation table, run, and collect what happened.
// For the project's own tests; host programs use the driver and hostlib.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ipu_board.h"
#include "ipu_card/backend.h"
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

// Creates a card behind the device backend interface: ipu_model_create, or
// the registry (ipu_card/registry.h) entries "rtl" and "lockstep".
using CardFactory = int (*)(const ipu_board *, const ipu_backend_host *, const ipu_backend_options *, ipu_backend **);

class Harness {
public:
    // Creates a model card for `board` (a name from boards/ or a path).
    explicit Harness(const std::string &board = "tiny", unsigned host_threads = 1, bool trace = false);
    // Creates the card `factory` makes for `board`: the same helpers drive every embodiment.
    Harness(const std::string &board, CardFactory factory, unsigned host_threads = 1, bool trace = false);
    virtual ~Harness();
    Harness(const Harness &) = delete;
    Harness &operator=(const Harness &) = delete;

    ipu_backend *card() { return card_; }
    const ipu_board &board() const { return board_; }
    uint32_t num_tiles() const { return ipu_board_num_tiles(&board_); }

    uint32_t reg(uint32_t offset);
    void set_reg(uint32_t offset, uint32_t value);
    void write_tile(unsigned tile, uint32_t addr, const void *data, size_t len);
    void read_tile(unsigned tile, uint32_t addr, void *data, size_t len);
    uint32_t read_tile_u32(unsigned tile, uint32_t addr);

    // Loads the PT_LOAD segments of a tile ELF onto `tiles` (empty = every
    // tile) through BAR2 and enables them with entry = e_entry and
    // boot_arg. Trusts the file: these are the project's own test binaries.
    // Returns e_entry; throws std::runtime_error if the file is unreadable.
    uint32_t load_elf(const std::string &path, const std::vector<unsigned> &tiles = {}, uint32_t boot_arg = 0);
    // Address of a symbol in the ELF last loaded (0 if absent).
    uint32_t symbol(const std::string &name) const;
    void setup_tile(unsigned tile, uint32_t entry, uint32_t boot_arg, bool enable = true);

    // Host memory the card may reach: 4 KiB-aligned, zeroed, owned by the harness.
    // map() puts it in translation entry `entry` at device address `dev_addr`.
    uint8_t *alloc_host(size_t bytes);
    void map(unsigned entry, uint32_t dev_addr, const void *host, size_t bytes, bool card_reads, bool card_writes);

    // Starts the card and advances it until it stops; `on_host_sync(id)` is
    // called at each external sync, before release (default: just release).
    RunResult run(uint64_t budget_per_round = 1u << 20, uint64_t max_rounds = 1u << 16,
                  const std::function<void(uint32_t)> &on_host_sync = {});
    // Advances without START (after a release or to continue a run).
    RunResult resume(uint64_t budget_per_round = 1u << 20, uint64_t max_rounds = 1u << 16,
                     const std::function<void(uint32_t)> &on_host_sync = {});
    void reset();

    // Where the test tile binaries are (set by CMake).
    static std::string tile_binary(const std::string &name);

private:
    RunResult collect();
    static int dma_read(void *opaque, uint64_t bus, void *buf, size_t len);
    static int dma_write(void *opaque, uint64_t bus, const void *buf, size_t len);
    bool host_range_ok(uint64_t bus, size_t len) const;

    ipu_board board_{};
    ipu_backend *card_ = nullptr;
    std::vector<std::pair<uint8_t *, size_t>> host_buffers_;
    std::map<std::string, uint32_t> symbols_;
    std::map<unsigned, std::string> console_;
    uint64_t host_syncs_ = 0;
};

} // namespace ipu::test
