// Tile SRAM of the whole card in one lazily-backed mapping.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ipu::model {

// All tiles' SRAM as one anonymous MAP_NORESERVE mapping: the kernel backs a
// page only when it is first written, so an ipu2 card (1472 x 624 KiB) costs
// the memory the program touches, and the ISS reaches any byte with one add.
class CardMemory {
public:
    CardMemory(uint32_t num_tiles, uint32_t bytes_per_tile);
    ~CardMemory();
    CardMemory(const CardMemory &) = delete;
    CardMemory &operator=(const CardMemory &) = delete;

    bool ok() const { return base_ != nullptr; }
    uint8_t *tile(uint32_t index) const { return base_ + static_cast<size_t>(index) * bytes_per_tile_; }
    uint32_t bytes_per_tile() const { return bytes_per_tile_; }
    // Returns every page to the kernel: all of SRAM reads as zero again.
    void clear();
    // Bytes of SRAM actually backed by host memory (resident), for reports.
    size_t resident_bytes() const;

private:
    uint8_t *base_ = nullptr;
    size_t total_ = 0;
    uint32_t bytes_per_tile_ = 0;
};

} // namespace ipu::model
