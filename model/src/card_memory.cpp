// Lazily-backed tile SRAM (see card_memory.hpp).
#include "card_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace ipu::model {

CardMemory::CardMemory(uint32_t num_tiles, uint32_t bytes_per_tile)
    : total_(static_cast<size_t>(num_tiles) * bytes_per_tile), bytes_per_tile_(bytes_per_tile)
{
    void *p = mmap(nullptr, total_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    base_ = p == MAP_FAILED ? nullptr : static_cast<uint8_t *>(p);
}

CardMemory::~CardMemory()
{
    if (base_)
        munmap(base_, total_);
}

void CardMemory::clear()
{
    // MADV_DONTNEED on a private anonymous mapping drops the pages; the next
    // touch maps a zero page, which is exactly "reads as zero after reset".
    madvise(base_, total_, MADV_DONTNEED);
}

size_t CardMemory::resident_bytes() const
{
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> vec((total_ + page - 1) / page);
    if (mincore(base_, total_, vec.data()) != 0)
        return 0;
    size_t n = 0;
    for (unsigned char v : vec)
        n += v & 1;
    return n * page;
}

} // namespace ipu::model
