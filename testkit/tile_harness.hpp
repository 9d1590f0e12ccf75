// Test harness: a card in this process behind the device backend interface
// (the model, the RTL, lock-step), with the helpers of CardAccess (load tile
// ELFs, map host memory through the translation table, run, collect what
// happened) and the backend itself for checks that need its hooks. For the
// project's own tests; host programs use the driver and hostlib.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "card_access.hpp"
#include "ipu_board.h"
#include "ipu_card/backend.h"
#include "ipu_card/hw.h"

namespace ipu::test {

// Creates a card behind the device backend interface: ipu_model_create, or
// the registry (ipu_backends/registry.h) entries "rtl" and "lockstep".
using CardFactory = int (*)(const ipu_board *, const ipu_backend_host *, const ipu_backend_options *, ipu_backend **);

class Harness : public CardAccess {
public:
    // Creates a model card for `board` (a name from boards/ or a path).
    explicit Harness(const std::string &board = "tiny", unsigned host_threads = 1, bool trace = false);
    // Creates the card `factory` makes for `board`: the same helpers drive every embodiment.
    Harness(const std::string &board, CardFactory factory, unsigned host_threads = 1, bool trace = false);
    ~Harness() override;

    ipu_backend *card() { return card_; }
    const ipu_board &board() const { return board_; }
    const ipu_board &card_board() const override { return board_; }
    uint32_t num_tiles() const override { return ipu_board_num_tiles(&board_); }

    uint32_t reg(uint32_t offset) override;
    void set_reg(uint32_t offset, uint32_t value) override;
    void write_tile(unsigned tile, uint32_t addr, const void *data, size_t len) override;
    void read_tile(unsigned tile, uint32_t addr, void *data, size_t len) override;
    // Host memory is this process's: its bus address is its pointer, and the
    // harness is the IOMMU (only memory from alloc_host is reachable).
    uint8_t *alloc_host(size_t bytes) override;
    uint64_t bus_address(const void *host) override;
    // The backend's advance(): exactly `budget` cycles at most.
    int advance(uint64_t budget) override;

    // Where the test tile binaries are (set by CMake).
    static std::string tile_binary(const std::string &name);

private:
    static int dma_read(void *opaque, uint64_t bus, void *buf, size_t len);
    static int dma_write(void *opaque, uint64_t bus, const void *buf, size_t len);
    bool host_range_ok(uint64_t bus, size_t len) const;

    ipu_board board_{};
    ipu_backend *card_ = nullptr;
    std::vector<std::pair<uint8_t *, size_t>> host_buffers_;
};

} // namespace ipu::test
