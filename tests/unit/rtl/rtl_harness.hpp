// Test harness for the RTL card: the model tests' Harness, over ipu_rtl_create,
// ipu_rtl_lockstep_create or (for comparisons) ipu_model_create.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ipu_board.h"
#include "ipu_card/backend.h"
#include "ipu_card/hw.h"

namespace ipu::test {

struct RtlErrorRecord {
    uint32_t cause, tile, context, pc, addr, info;
};

struct RtlRunResult {
    uint32_t card_state = 0;
    std::map<unsigned, std::string> console;
    std::vector<uint32_t> tile_state;
    std::vector<uint32_t> exit_code;
    std::vector<RtlErrorRecord> errors;
    uint64_t cycles = 0;
    uint64_t host_syncs = 0;
};

enum class Backend { Rtl, Lockstep, Model };

class RtlHarness {
public:
    explicit RtlHarness(Backend backend, const std::string &board = "rtl-tiny");
    ~RtlHarness();
    RtlHarness(const RtlHarness &) = delete;
    RtlHarness &operator=(const RtlHarness &) = delete;

    ipu_backend *card() { return card_; }
    uint32_t num_tiles() const { return ipu_board_num_tiles(&board_); }
    uint32_t reg(uint32_t offset);
    void set_reg(uint32_t offset, uint32_t value);
    void write_tile(unsigned tile, uint32_t addr, const void *data, size_t len);
    uint32_t read_tile_u32(unsigned tile, uint32_t addr);
    // Loads a tile ELF onto `tiles` (empty = all) and enables them; returns e_entry.
    uint32_t load_elf(const std::string &path, const std::vector<unsigned> &tiles = {}, uint32_t boot_arg = 0);
    uint32_t symbol(const std::string &name) const;
    // Host memory the card may reach (4 KiB aligned, zeroed) and its translation entry.
    uint8_t *alloc_host(size_t bytes);
    void map(unsigned entry, uint32_t dev_addr, const void *host, size_t bytes, bool card_reads, bool card_writes);
    void read_tile(unsigned tile, uint32_t addr, void *data, size_t len);
    RtlRunResult run(uint64_t budget_per_round = 1u << 16, uint64_t max_rounds = 1u << 16);
    void reset();
    // The lock-step divergence (empty when none) and the instructions compared.
    std::string divergence();
    uint64_t compared();

    static std::string program(const std::string &name);

private:
    static int dma_read(void *opaque, uint64_t bus, void *buf, size_t len);
    static int dma_write(void *opaque, uint64_t bus, const void *buf, size_t len);
    bool host_range_ok(uint64_t bus, size_t len) const;

    std::vector<std::pair<uint8_t *, size_t>> host_buffers_;
    ipu_board board_{};
    ipu_backend *card_ = nullptr;
    std::map<std::string, uint32_t> symbols_;
};

} // namespace ipu::test
