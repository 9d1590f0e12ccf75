// The driver harness (see driver_card.hpp).
#include "driver_card.hpp"

#include <stdexcept>

namespace ipu::test {

DriverCard::DriverCard(const std::string &transport, const std::string &location)
{
    ipudrv_open_params p{};
    p.size = sizeof p;
    p.transport = transport.c_str();
    p.location = location.c_str();
    p.lock_policy = IPUDRV_LOCK_TRY;
    if (ipudrv_open_with(&p, &dev_) != 0)
        throw std::runtime_error("cannot open the " + transport + " card at " + location + ": " +
                                 ipudrv_last_error(nullptr));
    num_tiles_ = reg(IPU_REG_NUM_TILES);
    ipudrv_info info{};
    check(ipudrv_get_info(dev_, &info), "ipudrv_get_info");
    board_ = info.board;
}

DriverCard::~DriverCard()
{
    for (const Buffer &b : buffers_)
        ipudrv_buffer_free(dev_, b.buf);
    ipudrv_close(dev_);
}

void DriverCard::check(int rc, const char *call)
{
    if (rc != 0)
        throw std::runtime_error(std::string(call) + ": " + ipudrv_last_error(dev_));
}

uint32_t DriverCard::reg(uint32_t offset)
{
    uint32_t v = 0;
    check(ipudrv_reg_read(dev_, offset, &v), "ipudrv_reg_read");
    return v;
}

void DriverCard::set_reg(uint32_t offset, uint32_t value) { check(ipudrv_reg_write(dev_, offset, value), "ipudrv_reg_write"); }

void DriverCard::write_tile(unsigned tile, uint32_t addr, const void *data, size_t len)
{
    check(ipudrv_tile_write(dev_, tile, addr, data, len), "ipudrv_tile_write");
}

void DriverCard::read_tile(unsigned tile, uint32_t addr, void *data, size_t len)
{
    check(ipudrv_tile_read(dev_, tile, addr, data, len), "ipudrv_tile_read");
}

// The public API gives a buffer a device address, not its bus address: map it
// once, read the bus address back from the translation entry the driver wrote,
// and unmap it (the checks write their own entries).
uint64_t DriverCard::learn_bus_address(ipudrv_buffer *buf, size_t size)
{
    uint32_t dev_addr = 0;
    check(ipudrv_map(dev_, buf, 0, size, IPUDRV_MAP_READ, IPUDRV_MAP_ANY, &dev_addr), "ipudrv_map");
    const uint32_t entries = reg(IPU_REG_XLAT_ENTRIES);
    uint64_t bus = 0;
    bool found = false;
    for (uint32_t i = 0; i < entries && !found; i++) {
        const uint32_t base = IPU_REG_XLAT_BASE + i * IPU_REG_XLAT_STRIDE;
        if ((reg(base + IPU_XLAT_ENTRY_CTRL_OFFSET) & IPU_XLAT_CTRL_VALID_MASK) &&
            reg(base + IPU_XLAT_ENTRY_DEV_BASE_OFFSET) == dev_addr) {
            bus = reg(base + IPU_XLAT_ENTRY_BUS_LO_OFFSET) |
                  static_cast<uint64_t>(reg(base + IPU_XLAT_ENTRY_BUS_HI_OFFSET)) << 32;
            found = true;
        }
    }
    check(ipudrv_unmap(dev_, dev_addr), "ipudrv_unmap");
    if (!found)
        throw std::runtime_error("no translation entry holds the buffer ipudrv_map mapped at device address " +
                                 std::to_string(dev_addr));
    return bus;
}

uint8_t *DriverCard::alloc_host(size_t bytes)
{
    ipudrv_buffer *buf = nullptr;
    check(ipudrv_buffer_alloc(dev_, bytes, &buf), "ipudrv_buffer_alloc");
    const size_t size = ipudrv_buffer_size(buf);
    auto *va = static_cast<uint8_t *>(ipudrv_buffer_ptr(buf));
    buffers_.push_back(Buffer{buf, va, size, 0});
    buffers_.back().bus = learn_bus_address(buf, size);
    return va;
}

uint64_t DriverCard::bus_address(const void *host)
{
    const auto *p = static_cast<const uint8_t *>(host);
    for (const Buffer &b : buffers_)
        if (p >= b.va && p < b.va + b.size)
            return b.bus + static_cast<uint64_t>(p - b.va);
    return reinterpret_cast<uintptr_t>(host);
}

int DriverCard::advance(uint64_t budget)
{
    (void)budget; // the card's clock is its own
    const uint32_t status = reg(IPU_REG_STATUS);
    return (status & IPU_REG_STATUS_STATE_MASK) == IPU_CARD_STATE_RUNNING || (status & IPU_REG_STATUS_DMA_BUSY_MASK);
}

} // namespace ipu::test
