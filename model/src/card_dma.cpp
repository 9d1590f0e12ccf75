// Translation table, DMA engine and host exchange: every host-memory access of the card.
#include <algorithm>
#include <cstring>

#include "card.hpp"
#include "link_time.hpp"

namespace ipu::model {
uint64_t xlat_entry_bytes(const XlatEntry &e)
{
    const uint32_t pages = ((e.ctrl & IPU_XLAT_CTRL_PAGES_MINUS_1_MASK) >> IPU_XLAT_CTRL_PAGES_MINUS_1_SHIFT) + 1;
    return static_cast<uint64_t>(pages) * 4096;
}

uint32_t Card::translate(uint32_t dev, uint32_t len, bool write, std::vector<std::pair<uint64_t, uint32_t>> &chunks,
                         uint32_t &fault_addr)
{
    chunks.clear();
    uint64_t pos = dev;
    const uint64_t end = static_cast<uint64_t>(dev) + len;
    while (pos < end) {
        const XlatEntry *hit = nullptr;
        for (const XlatEntry &e : xlat_) {
            if ((e.ctrl & IPU_XLAT_CTRL_VALID_MASK) && pos >= e.dev_base && pos < e.dev_base + xlat_entry_bytes(e)) {
                hit = &e;
                break;
            }
        }
        fault_addr = static_cast<uint32_t>(pos);
        if (!hit)
            return IPU_ERR_XLAT_MISS;
        if (!(hit->ctrl & (write ? IPU_XLAT_CTRL_WRITE_MASK : IPU_XLAT_CTRL_READ_MASK)))
            return IPU_ERR_XLAT_PERMISSION;
        const uint64_t take = std::min<uint64_t>(end, hit->dev_base + xlat_entry_bytes(*hit)) - pos;
        const uint64_t bus = ((static_cast<uint64_t>(hit->bus_hi) << 32) | hit->bus_lo) + (pos - hit->dev_base);
        chunks.emplace_back(bus, static_cast<uint32_t>(take));
        pos += take;
    }
    return IPU_ERR_NONE;
}

uint32_t Card::host_read(uint32_t dev, void *buf, uint32_t len, uint32_t &fault_addr)
{
    std::vector<std::pair<uint64_t, uint32_t>> chunks;
    if (uint32_t err = translate(dev, len, false, chunks, fault_addr))
        return err;
    auto *out = static_cast<uint8_t *>(buf);
    uint32_t done = 0;
    for (auto [bus, n] : chunks) {
        // A bus that refuses (an IOMMU fault) is reported like a miss.
        if (!host_.dma_read || host_.dma_read(host_.opaque, bus, out + done, n) != 0) {
            fault_addr = dev + done;
            return IPU_ERR_XLAT_MISS;
        }
        done += n;
    }
    return IPU_ERR_NONE;
}

uint32_t Card::host_write(uint32_t dev, const void *buf, uint32_t len, uint32_t &fault_addr)
{
    std::vector<std::pair<uint64_t, uint32_t>> chunks;
    if (uint32_t err = translate(dev, len, true, chunks, fault_addr))
        return err;
    const auto *in = static_cast<const uint8_t *>(buf);
    uint32_t done = 0;
    for (auto [bus, n] : chunks) {
        if (!host_.dma_write || host_.dma_write(host_.opaque, bus, in + done, n) != 0) {
            fault_addr = dev + done;
            return IPU_ERR_XLAT_MISS;
        }
        done += n;
    }
    return IPU_ERR_NONE;
}

bool Card::dma_descriptor_ok(const ipu_dma_desc &d) const
{
    const uint32_t count = d.tile_count ? d.tile_count : 1;
    const bool to_host = (d.flags & IPU_DMA_FLAGS_TO_HOST_MASK) != 0;
    return d.length != 0 && d.first_tile + count <= tiles_.size() && !(to_host && count != 1) &&
           tiles_[0].in_sram(d.tile_addr, d.length) && !d.reserved0 && !d.reserved1 && !d.reserved2;
}

// Moves at most `max_bytes` (counted on the card: length x tiles) of the
// current descriptor, and at least one byte, so that a chain always ends.
uint32_t Card::dma_descriptor_slice(uint64_t max_bytes, uint64_t &moved, uint32_t &fault_addr)
{
    const ipu_dma_desc &d = dma_.desc;
    const uint32_t count = d.tile_count ? d.tile_count : 1;
    const bool to_host = (d.flags & IPU_DMA_FLAGS_TO_HOST_MASK) != 0;
    const uint64_t per_tile = std::max<uint64_t>(1, max_bytes / count);
    const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(d.length - dma_.offset, per_tile));
    const uint32_t dev = d.dev_addr + dma_.offset, tile_addr = d.tile_addr + dma_.offset;
    Tile &first = tiles_[d.first_tile];
    const uint32_t err = to_host ? host_write(dev, first.at(tile_addr), n, fault_addr)
                                 : host_read(dev, first.at(tile_addr), n, fault_addr);
    if (err)
        return err;
    // Broadcast: the bytes cross the bus once and are copied on the card.
    for (uint32_t i = 1; i < count; i++)
        std::memcpy(tiles_[d.first_tile + i].at(tile_addr), first.at(tile_addr), n);
    // Blocks decoded from the bytes written are dropped (a loader rewriting
    // code); data leaves every tile's decoded code alone.
    if (!to_host)
        for (uint32_t i = 0; i < count; i++)
            tiles_[d.first_tile + i].iss.written(tile_addr, n);
    dma_.offset += n;
    dma_bytes_ += n;
    moved += static_cast<uint64_t>(n) * count;
    return IPU_ERR_NONE;
}

void Card::start_dma_chain()
{
    if (dma_status_ & IPU_REG_DMA_STATUS_BUSY_MASK) {
        log_guest_error("DMA_CTRL.START while a chain is in flight; ignored");
        return;
    }
    if (state_ == IPU_CARD_STATE_RUNNING || state_ == IPU_CARD_STATE_HOST_SYNC) {
        // Tiles own their SRAM while running; host-sync stream data moves by
        // host exchange instead.
        log_guest_error("DMA_CTRL.START while tiles run");
        add_error(ErrorRecord{IPU_ERR_DMA_BAD_DESCRIPTOR, kDmaEngineTile, 0, 0, dma_desc_addr_, 0});
        dma_status_ = IPU_REG_DMA_STATUS_ERROR_MASK;
        return;
    }
    dma_status_ = IPU_REG_DMA_STATUS_BUSY_MASK;
    dma_completed_ = 0;
    dma_ = DmaProgress{};
}

void Card::dma_fail(uint32_t err, uint32_t addr, uint32_t info)
{
    add_error(ErrorRecord{err, kDmaEngineTile, 0, 0, addr, info});
    dma_status_ = IPU_REG_DMA_STATUS_ERROR_MASK;
    dma_ = DmaProgress{};
}

void Card::step_dma(uint64_t max_bytes)
{
    uint64_t moved = 0;
    while ((dma_status_ & IPU_REG_DMA_STATUS_BUSY_MASK) && moved < max_bytes) {
        const uint32_t at = dma_desc_addr_ + dma_.index * IPU_DMA_DESC_SIZE;
        uint32_t fault_addr = 0;
        if (!dma_.have_desc) {
            if (faults_.dma_error) { // injected: the engine fails as the fault says
                const uint32_t err = faults_.dma_error;
                faults_.dma_error = 0;
                dma_fail(err, at, dma_.index);
                return;
            }
            if (dma_.index >= kMaxDmaChain) {
                // A chain without LAST is bounded, never followed forever.
                dma_fail(IPU_ERR_DMA_BAD_DESCRIPTOR, dma_desc_addr_, kMaxDmaChain);
                return;
            }
            if (uint32_t err = host_read(at, &dma_.desc, sizeof dma_.desc, fault_addr)) {
                dma_fail(err, fault_addr, dma_.index);
                return;
            }
            if (!dma_descriptor_ok(dma_.desc)) {
                dma_fail(IPU_ERR_DMA_BAD_DESCRIPTOR, at, dma_.index);
                return;
            }
            dma_.have_desc = true;
            dma_.offset = 0;
            moved += IPU_DMA_DESC_SIZE; // a chain of tiny descriptors is bounded too
            if (moved >= max_bytes)
                break;
        }
        if (uint32_t err = dma_descriptor_slice(max_bytes - moved, moved, fault_addr)) {
            dma_fail(err, fault_addr, dma_.index);
            return;
        }
        if (dma_.offset < dma_.desc.length)
            continue;
        // The engine is alone on the link (tiles never run meanwhile): each
        // descriptor pays the latency, and its bytes cross the link once.
        card_cycles_ += host_link_transfer_cycles(board_, dma_.desc.length);
        dma_completed_++;
        dma_.have_desc = false;
        dma_.index++;
        if (dma_.desc.flags & IPU_DMA_FLAGS_LAST_MASK) {
            dma_status_ = IPU_REG_DMA_STATUS_DONE_MASK;
            dma_ = DmaProgress{};
            raise_irq(IPU_REG_IRQ_STATUS_DMA_DONE_MASK);
            return;
        }
    }
}

void Card::service_host_exchange(Tile &tile)
{
    const uint32_t moved = move_host_exchange(tile);
    dma_bytes_ += moved;
    superstep_host_bytes_ += moved;
}

uint32_t Card::move_host_exchange(Tile &tile)
{
    HostExchange hx = tile.hx;
    tile.hx.pending = false;
    uint32_t fault_addr = 0;
    // A read from the host writes tile memory: code decoded from those bytes is
    // dropped here, so that no caller can forget it.
    if (!hx.to_host)
        tile.iss.written(hx.tile_addr, hx.length);
    const uint32_t err = hx.to_host ? host_write(hx.dev_addr, tile.at(hx.tile_addr), hx.length, fault_addr)
                                    : host_read(hx.dev_addr, tile.at(hx.tile_addr), hx.length, fault_addr);
    if (err) {
        tile.raise(err, hx.context, hx.pc, fault_addr, hx.length);
        return 0;
    }
    // The context waits for its own transfer; the link's share with the other
    // tiles is settled at the superstep's end (Card::superstep_end).
    Context &cx = tile.ctx[hx.context];
    cx.time += host_link_transfer_cycles(board_, hx.length);
    return hx.length;
}

} // namespace ipu::model
