// Internal: the tile-memory layout pass. Every buffer gets an address here and nowhere else: first fit, in the
// order lowering created them, below the stacks. A buffer may share bytes with another only when liveness says the
// two are never in use at the same time.
#include <algorithm>
#include <map>
#include <sstream>

#include "passes.hpp"
#include "poplar/exceptions.hpp"

namespace poplar::detail::ir {

namespace {

struct Placed {
  std::uint32_t addr, end;
  BufferId id;
};

[[noreturn]] void outOfMemory(const Module &m, const std::vector<Placed> &onTile, BufferId id, std::uint64_t end,
                              const LinkedImage &image, const ipu_board &board) {
  const Buffer &b = m.buffers[id];
  std::vector<const Buffer *> items;
  std::map<std::string, std::uint64_t> byCat;
  for (const Placed &p : onTile) {
    items.push_back(&m.buffers[p.id]);
    byCat[m.buffers[p.id].category] += m.buffers[p.id].size;
  }
  std::stable_sort(items.begin(), items.end(), [](const Buffer *x, const Buffer *y) { return x->size > y->size; });
  std::ostringstream os;
  os << "tile " << b.tile << " is out of memory by " << (end - image.freeEnd) << " bytes while placing "
     << b.category << " '" << b.name << "' (" << b.size << " bytes): " << (image.freeEnd - image.freeStart)
     << " bytes are free for data after " << image.codeBytes << " bytes of code, runtime and heap (board "
     << board.name << ", " << board.bytes_per_tile << " bytes per tile).";
  if (items.empty()) {
    os << " Nothing else is on the tile: the item alone is too large;";
  } else {
    os << " On the tile (memory is shared only between data not in use at the same time):";
    for (const auto &[cat, bytes] : byCat)
      os << " " << cat << " " << bytes << " bytes;";
    os << " largest items:";
    for (std::size_t i = 0; i < items.size() && i < 5; ++i)
      os << " " << items[i]->category << " '" << items[i]->name << "' " << items[i]->size << " bytes;";
  }
  os << " spread the tensors and vertices over more tiles with setTileMapping, or use a board with more memory "
        "per tile (IPUModel.memoryPerTile)";
  throw graph_memory_allocation_error(os.str());
}

std::uint32_t alignUp(std::uint64_t v, std::uint32_t align) {
  return std::uint32_t((v + align - 1) / align * align);
}

} // namespace

Layout layOut(const Module &m, const Liveness &live, const LinkedImage &image, const ipu_board &board) {
  Layout out;
  out.addr.assign(m.buffers.size(), 0);
  std::map<std::uint32_t, std::vector<Placed>> tiles; // per tile, sorted by address
  for (BufferId id = 0; id < m.buffers.size(); ++id) {
    const Buffer &b = m.buffers[id];
    std::vector<Placed> &placed = tiles[b.tile];
    std::uint32_t align = std::max<std::uint32_t>(b.align, 1);
    std::uint64_t addr = alignUp(image.freeStart, align);
    for (const Placed &p : placed) {
      if (p.end <= addr || !live.overlap(id, p.id))
        continue;
      if (p.addr >= addr + b.size)
        break;
      addr = alignUp(p.end, align);
    }
    std::uint64_t end = addr + b.size;
    if (end > image.freeEnd)
      outOfMemory(m, placed, id, end, image, board);
    out.addr[id] = std::uint32_t(addr);
    Placed p{std::uint32_t(addr), std::uint32_t(end), id};
    placed.insert(std::upper_bound(placed.begin(), placed.end(), p,
                                   [](const Placed &x, const Placed &y) { return x.addr < y.addr; }),
                  p);
    std::uint32_t &top = out.top[b.tile];
    top = std::max({top, image.freeStart, std::uint32_t(end)});
  }
  return out;
}

} // namespace poplar::detail::ir
