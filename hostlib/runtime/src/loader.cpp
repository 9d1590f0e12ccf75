// Uploads device images by DMA, or through the tile window where DMA does not pay (see loader.hpp).
#include "ipu_runtime/loader.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <set>
#include <vector>

#include "ipu_runtime/host_buffer.hpp"

namespace ipu {
namespace runtime {
namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

LoadStats loadImage(Device &device, const DeviceImage &image, const LoadOptions &options) {
  if (options.maxChain < 1 || options.maxChain > 65536)
    throw application_runtime_error("loadImage: LoadOptions::maxChain " + std::to_string(options.maxChain) +
                                    " is outside 1..65536, the DMA engine's chain limit");
  if (options.stagingBytes < device.info().tile_mem_bytes || options.stagingBytes > kMaxHostBufferBytes)
    throw application_runtime_error("loadImage: LoadOptions::stagingBytes " + std::to_string(options.stagingBytes) +
                                    " must lie between one tile's SRAM (" +
                                    std::to_string(device.info().tile_mem_bytes) +
                                    " bytes, the longest write) and 128 MiB (one translation entry)");
  LoadStats stats;
  auto t0 = std::chrono::steady_clock::now();
  const UploadPlan plan = planUpload(image, device.elfTarget(), device.numTiles());
  stats.planSeconds = since(t0);
  stats.busBytes = plan.busBytes();
  stats.tileBytes = plan.tileBytes();
  stats.writes = plan.writes.size();
  t0 = std::chrono::steady_clock::now();

  // Batches: writes sorted by host offset, each batch's host bytes inside one staging window.
  std::vector<const TileWrite *> order;
  order.reserve(plan.writes.size());
  for (const TileWrite &w : plan.writes)
    order.push_back(&w);
  std::stable_sort(order.begin(), order.end(),
                   [](const TileWrite *a, const TileWrite *b) { return a->hostOffset < b->hostOffset; });
  // Where DMA does not pay (see Device::loadByDma), the tile window takes the writes, one tile at a time.
  if (!order.empty() && !device.loadByDma()) {
    for (const TileWrite *w : order)
      for (std::uint32_t t = w->firstTile; t < w->firstTile + w->tileCount; ++t)
        device.writeTile(t, w->tileAddr, plan.hostBytes.data() + w->hostOffset, w->length);
    order.clear();
  }
  const std::size_t window = std::min<std::size_t>(options.stagingBytes, std::max<std::size_t>(plan.hostBytes.size(), 1));
  std::unique_ptr<HostBuffer> staging;
  if (!order.empty())
    staging.reset(new HostBuffer(device, window, HostAccess::DeviceReads, 0, "image upload staging"));
  std::vector<ipudrv_dma_xfer> xfers;
  std::size_t i = 0;
  while (i < order.size()) {
    const std::uint64_t lo = order[i]->hostOffset;
    std::uint64_t hi = lo;
    std::size_t j = i;
    while (j < order.size() && order[j]->hostOffset + order[j]->length - lo <= window) {
      hi = std::max<std::uint64_t>(hi, order[j]->hostOffset + order[j]->length);
      ++j;
    }
    std::memcpy(staging->data(), plan.hostBytes.data() + lo, hi - lo);
    for (std::size_t k = i; k < j; k += options.maxChain) {
      xfers.clear();
      for (std::size_t m = k; m < std::min(j, k + options.maxChain); ++m) {
        const TileWrite &w = *order[m];
        ipudrv_dma_xfer x{};
        x.dev_addr = staging->deviceAddress() + std::uint32_t(w.hostOffset - lo);
        x.tile_addr = w.tileAddr;
        x.length = w.length;
        x.first_tile = std::uint16_t(w.firstTile);
        x.tile_count = std::uint16_t(w.tileCount);
        x.to_host = 0;
        xfers.push_back(x);
      }
      device.check(ipudrv_dma_run(device.handle(), xfers.data(), xfers.size()), "upload the tile image by DMA");
      ++stats.chains;
    }
    i = j;
  }
  staging.reset();

  const std::set<std::uint32_t> enabled(image.tiles.begin(), image.tiles.end());
  for (std::uint32_t t = 0; t < device.numTiles(); ++t) {
    const bool on = enabled.count(t) != 0;
    const TileBoot boot = on ? image.bootOf(t) : TileBoot{};
    device.check(ipudrv_tile_setup(device.handle(), t, boot.entry, boot.bootArg, on ? 1 : 0),
                 "set up tile " + std::to_string(t));
  }
  stats.uploadSeconds = since(t0);
  return stats;
}

} // namespace runtime
} // namespace ipu
