// Late initialisation of a vertex field (Graph::setInitCallback): a function the graph compiler calls once every
// buffer has its address, with where the vertex's edges ended up in tile memory, and whose result becomes the
// field's initial value. A vertex can so hold, say, the distance between two of its operands without the host
// knowing the layout in advance.
#ifndef POPLAR_LATEINITCALLBACK_HPP
#define POPLAR_LATEINITCALLBACK_HPP

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace poplar {

/// Where each edge field of one vertex lives on its tile, as the compiler placed it.
struct VertexEdgeInfo {
  /// One run of tile memory.
  struct StorageInfo {
    /// Byte offset from the start of the tile's memory (on the emulated card, from IPU_TILE_SRAM_BASE: the device
    /// address minus 0x100000; the SDK counts from its hardware's base, 0x40000, in the same way).
    std::uint64_t startOffs;
    /// Length of the run in bytes.
    std::uint32_t len;
  };
  /// Field name -> its storage: one entry for a scalar or Vector edge, one per item for a VectorList (so a 1-D
  /// field and a 2-D field of one row look alike; the callback knows its vertex's fields).
  std::map<std::string, std::vector<StorageInfo>> storage;
};

/// The value of a field of type T, computed from the vertex's edge layout.
template <typename T> using LateInitCallback = std::function<T(const VertexEdgeInfo &)>;

} // namespace poplar

#endif // POPLAR_LATEINITCALLBACK_HPP
