// Cycle counts measured on the device: how long a program took on one tile (cycleCount) and the tile's cycle
// counter at a point of a program (cycleStamp). Each result is a tensor of two UNSIGNED_INT, the low then the high
// word of a 64-bit count of the tile's cycles, to read on the host (createHostRead) or use on the device.
#ifndef POPLAR_CYCLECOUNT_HPP
#define POPLAR_CYCLECOUNT_HPP

#include <vector>

#include "poplar/DebugContext.hpp"
#include "poplar/Graph.hpp"
#include "poplar/Program.hpp"
#include "poplar/SyncType.hpp"
#include "poplar/Tensor.hpp"

namespace poplar {

/// Makes `prog` a timed version of itself: a sync of `syncType`, a stamp on `tile`, the program as it was, a sync,
/// a second stamp, and their difference into the returned tensor (the cycles the program took on that tile,
/// syncs included). Throws poplar_error when `tile` is not a tile of the graph.
Tensor cycleCount(Graph &graph, program::Sequence &prog, unsigned tile, SyncType syncType,
                  const DebugContext &debugContext = {});
/// Appends to `prog` a sync of `syncType` and a read of `tile`'s cycle counter into the returned tensor.
Tensor cycleStamp(Graph &graph, program::Sequence &prog, unsigned tile, SyncType syncType,
                  const DebugContext &debugContext = {});
/// As above on several tiles after one sync: one tensor per tile, in the order of `tiles`.
std::vector<Tensor> cycleStamp(Graph &graph, program::Sequence &prog, const std::vector<unsigned> &tiles,
                               SyncType syncType, const DebugContext &debugContext = {});

} // namespace poplar

#endif // POPLAR_CYCLECOUNT_HPP
