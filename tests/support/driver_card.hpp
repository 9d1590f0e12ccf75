// A CardAccess over libipudrv: any card the driver opens by transport and
// location (a board simulation on a socket, a usb card, a PCI card), so that
// the shared card checks (card_checks.hpp) run against it. Register and window
// accesses are the public API's (ipudrv_reg_read/write, ipudrv_tile_read/write);
// host memory is the driver's DMA buffers, whose bus addresses the card uses in
// the translation entries the checks write.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "card_access.hpp"
// The C header declares a function and a struct both named ipudrv_tile_status, which C++'s -Wshadow reports.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#include "ipudrv/ipudrv.h"
#pragma GCC diagnostic pop

namespace ipu::test {

class DriverCard : public CardAccess {
public:
    // Opens the card; throws std::runtime_error with the driver's message when it cannot.
    DriverCard(const std::string &transport, const std::string &location);
    ~DriverCard() override;

    ipudrv_device *device() { return dev_; }

    uint32_t num_tiles() const override { return num_tiles_; }
    // The board the driver opened the card as (ipudrv_info.board).
    const ipu_board &card_board() const override { return board_; }
    // Every accessor throws std::runtime_error with the driver's message on failure (a gone card).
    uint32_t reg(uint32_t offset) override;
    void set_reg(uint32_t offset, uint32_t value) override;
    void write_tile(unsigned tile, uint32_t addr, const void *data, size_t len) override;
    void read_tile(unsigned tile, uint32_t addr, void *data, size_t len) override;
    uint8_t *alloc_host(size_t bytes) override;
    uint64_t bus_address(const void *host) override;
    // The card runs on its own clock (out of process): one register round trip,
    // which also serves the card's DMA requests on a link transport. Returns 1
    // while a run or a DMA chain is going.
    int advance(uint64_t budget) override;

private:
    struct Buffer {
        ipudrv_buffer *buf;
        uint8_t *va;
        size_t size;
        uint64_t bus;
    };
    void check(int rc, const char *call);
    uint64_t learn_bus_address(ipudrv_buffer *buf, size_t size);

    ipudrv_device *dev_ = nullptr;
    uint32_t num_tiles_ = 0;
    ipu_board board_{};
    std::vector<Buffer> buffers_;
};

} // namespace ipu::test
