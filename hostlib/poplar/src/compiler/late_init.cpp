// Internal: the late-initialisation pass (Graph::setInitCallback). It runs after layout, the first point where every
// edge of a vertex has an address, and before encode, which uploads the vertex states with the values it wrote.
#include "ipu_card/hw.h"
#include "passes.hpp"

namespace poplar::detail::ir {

void runLateInits(Module &m, const Layout &layout) {
  for (const LateInitField &f : m.lateInits) {
    VertexEdgeInfo info;
    for (const auto &[name, runs] : f.edges) {
      std::vector<VertexEdgeInfo::StorageInfo> &out = info.storage[name];
      for (const auto &[at, len] : runs) {
        // An empty tensor has no buffer: report it at offset 0 with no bytes.
        std::uint64_t addr = at.buf == kNoBuffer ? IPU_TILE_SRAM_BASE : std::uint64_t(layout.addr[at.buf]) + at.offset;
        out.push_back(VertexEdgeInfo::StorageInfo{addr - IPU_TILE_SRAM_BASE, len});
      }
    }
    std::vector<std::uint8_t> bytes(f.size);
    f.fill(info, bytes.data());
    putBytes(m.buffers[f.state], f.offset, bytes.data(), bytes.size());
  }
}

} // namespace poplar::detail::ir
