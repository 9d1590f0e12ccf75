// Test harness implementation (see tile_harness.hpp).
#include "tile_harness.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "ipu_model/model.h"

namespace ipu::test {

Harness::Harness(const std::string &board, unsigned host_threads, bool trace)
    : Harness(board, ipu_model_create, host_threads, trace)
{
}

Harness::Harness(const std::string &board, CardFactory factory, unsigned host_threads, bool trace)
{
    char err[512];
    if (ipu_board_load(board.c_str(), &board_, err, sizeof err) != 0)
        throw std::runtime_error(err);
    ipu_backend_host host{this, dma_read, dma_write, nullptr};
    ipu_backend_options opts{host_threads, trace ? 1 : 0};
    if (factory(&board_, &host, &opts, &card_) != 0)
        throw std::runtime_error("cannot create a card for board " + board);
}

Harness::~Harness()
{
    if (card_)
        card_->ops->destroy(card_);
    for (auto &b : host_buffers_)
        std::free(b.first);
}

uint32_t Harness::reg(uint32_t offset)
{
    uint32_t v = 0;
    ipu_backend_read32(card_, offset, &v);
    return v;
}

void Harness::set_reg(uint32_t offset, uint32_t value) { ipu_backend_write32(card_, offset, value); }

void Harness::write_tile(unsigned tile, uint32_t addr, const void *data, size_t len)
{
    set_reg(IPU_REG_TILEMEM_WINDOW_TILE, tile);
    const auto *p = static_cast<const uint8_t *>(data);
    uint64_t off = addr - IPU_TILE_SRAM_BASE;
    for (size_t i = 0; i < len;) {
        const unsigned n = (len - i >= 8 && !((off + i) & 7)) ? 8 : 1;
        uint64_t v = 0;
        std::memcpy(&v, p + i, n);
        card_->ops->bar_write(card_, IPU_BAR_TILEMEM, off + i, n, v);
        i += n;
    }
}

void Harness::read_tile(unsigned tile, uint32_t addr, void *data, size_t len)
{
    set_reg(IPU_REG_TILEMEM_WINDOW_TILE, tile);
    auto *p = static_cast<uint8_t *>(data);
    uint64_t off = addr - IPU_TILE_SRAM_BASE;
    for (size_t i = 0; i < len;) {
        const unsigned n = (len - i >= 8 && !((off + i) & 7)) ? 8 : 1;
        uint64_t v = 0;
        card_->ops->bar_read(card_, IPU_BAR_TILEMEM, off + i, n, &v);
        std::memcpy(p + i, &v, n);
        i += n;
    }
}

uint64_t Harness::bus_address(const void *host) { return reinterpret_cast<uintptr_t>(host); }

int Harness::advance(uint64_t budget) { return card_->ops->advance(card_, budget); }

uint8_t *Harness::alloc_host(size_t bytes)
{
    const size_t rounded = (bytes + 4095) & ~size_t{4095};
    auto *p = static_cast<uint8_t *>(std::aligned_alloc(4096, rounded));
    if (!p)
        throw std::bad_alloc();
    std::memset(p, 0, rounded);
    host_buffers_.emplace_back(p, rounded);
    return p;
}

// The harness is the IOMMU: only memory from alloc_host() is reachable.
bool Harness::host_range_ok(uint64_t bus, size_t len) const
{
    for (const auto &b : host_buffers_) {
        const uint64_t start = reinterpret_cast<uintptr_t>(b.first);
        if (bus >= start && len <= b.second && bus - start <= b.second - len)
            return true;
    }
    return false;
}

int Harness::dma_read(void *opaque, uint64_t bus, void *buf, size_t len)
{
    auto *h = static_cast<Harness *>(opaque);
    if (!h->host_range_ok(bus, len))
        return -14; // -EFAULT
    std::memcpy(buf, reinterpret_cast<const void *>(static_cast<uintptr_t>(bus)), len);
    return 0;
}

int Harness::dma_write(void *opaque, uint64_t bus, const void *buf, size_t len)
{
    auto *h = static_cast<Harness *>(opaque);
    if (!h->host_range_ok(bus, len))
        return -14;
    std::memcpy(reinterpret_cast<void *>(static_cast<uintptr_t>(bus)), buf, len);
    return 0;
}

std::string Harness::tile_binary(const std::string &name)
{
    const char *dir = std::getenv("IPU_TEST_TILE_DIR");
#ifdef IPU_TEST_TILE_DIR_DEFAULT
    if (!dir)
        dir = IPU_TEST_TILE_DIR_DEFAULT;
#endif
    return std::string(dir ? dir : ".") + "/" + name;
}

} // namespace ipu::test
