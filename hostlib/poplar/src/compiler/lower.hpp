// Internal: lowering, the first pass: the program tree and the graph become the intermediate form (ir.hpp).
#pragma once

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../graph_impl.hpp"
#include "../tile_link.hpp"
#include "ir.hpp"
#include "poplar/Program.hpp"

namespace poplar::program::detail {
struct Node;
}

namespace poplar::detail::lower {

/// A contiguous run of a tensor's bytes on one tile: where it is, and its byte offset in the tensor.
struct Piece {
  std::uint32_t tile = 0;
  ir::Ref at;
  std::uint32_t len = 0;
  std::size_t offset = 0;
  unsigned replica = kLocalReplica; ///< the replica whose copy holds the run (getNonReplicatedTensor), or local
};

/// The state lowering shares between its files: the graph, the module being built, and where variables went.
class Lowering {
public:
  Lowering(const GraphImpl &g, const LinkedImage &image, ir::Module &m) : g_(g), image_(image), m_(m) {}

  /// Lowers `programs` into the module (tiles, variables, handles, streams, then each program's steps).
  void run(const std::vector<program::Program> &programs);

  // tensor_placement.cpp
  void collectTiles(const std::vector<program::Program> &programs);
  void placeVariables();
  void noteTile(unsigned tile);
  void listTiles(); ///< m_.tiles: every tile noted, ascending (tile 0 when none)
  void placeHandles();
  /// The graph's streams, then one for each Abort in `programs` (the host ends the run when it syncs on it).
  void placeStreams(const std::vector<program::Program> &programs);
  /// The tensor's elements as runs of tile memory, merged where contiguous. Throws for a tensor that names
  /// specific replicas' elements (getNonReplicatedTensor) unless `replicaRegions` says the caller handles them.
  std::vector<Piece> pieces(const Tensor &t, bool replicaRegions = false) const;
  /// The same into `out` (cleared first), so a caller lowering one edge after another reuses one vector.
  void pieces(const Tensor &t, std::vector<Piece> &out, bool replicaRegions = false) const;

  // lower_exchange.cpp
  /// Appends the ExchangeSteps for `transfers` (nothing when empty). Lists go on the sending tiles. With `relay`, a
  /// run sent to many places is relayed through the tiles that received it (several exchanges; see relayWaves).
  void exchange(std::vector<ir::Transfer> transfers, ir::Body &out, const std::string &what, bool relay = false);
  /// Appends one ExchangeStep for `transfers` (nothing when empty).
  void exchangeStep(std::vector<ir::Transfer> transfers, ir::Body &out, const std::string &what);
  /// Transfers that copy the elements of `src` to those of `dst` (same size).
  std::vector<ir::Transfer> copyTransfers(const Tensor &src, const Tensor &dst) const;
  /// Transfers that copy pieces `a` to pieces `b` (the same number of bytes). With `from`, transfer k's source and
  /// destination pieces are (*from)[k] (indices into `a` and `b`).
  static std::vector<ir::Transfer> copyTransfers(const std::vector<Piece> &a, const std::vector<Piece> &b,
                                                 std::vector<std::pair<std::size_t, std::size_t>> *from = nullptr);
  /// A Copy between tensors of the top-level graph that name specific replicas' elements
  /// (getNonReplicatedTensor): one exchange per pair of source and destination replica.
  void lowerReplicaCopy(const Tensor &src, const Tensor &dst, ir::Body &out, const std::string &what);
  /// Brings a copy of scalar `pred` to a slot on every tile (an exchange appended to `out`).
  ir::Predicate consensus(const Tensor &pred, ir::Body &out, const std::string &what);

  // lower_execute.cpp
  void lowerExecute(unsigned cs, ir::Body &out);

  // lower_program.cpp
  void lower(const program::detail::Node &n, ir::Body &out);

  /// `name` is taken by value: most callers build it for this buffer alone, and it is moved into the buffer.
  ir::BufferId newBuffer(std::uint32_t tile, std::uint32_t size, std::uint32_t align, const std::string &category,
                         std::string name, ir::Lifetime life = ir::Lifetime::Program);
  ir::Buffer &buffer(ir::BufferId id) { return m_.buffers[id]; }

private:
  struct VarSeg {
    std::size_t begin, end;
    std::uint32_t tile;
    ir::Ref at;
  };
  /// What the first lowering of a compute set built; later Executes of it reuse the same states and buffers.
  struct ExecutePlan {
    ir::Body pre;
    ir::ExecuteStep execute;
    ir::Body post;
  };
  struct EdgeWork;
  /// A vertex type's class and the tile addresses of its entry points, resolved once per type (see vertexType).
  struct TypeEntry {
    const VertexClass *vc = nullptr;
    std::vector<std::uint32_t> entries;
  };
  const TypeEntry &vertexType(const Vertex &v, unsigned vid);

  void lowerStream(const program::detail::Node &n, ir::Body &out);
  void lowerPrint(const program::detail::Node &n, ir::Body &out);
  void lowerAbort(const program::detail::Node &n, ir::Body &out);
  void placeAborts(const program::detail::Node &n, std::uint32_t &dev);
  void checkSameGraph(const Tensor &t, const char *what) const;
  void usedComputeSets(const program::detail::Node &n, std::set<unsigned> &out) const;
  ir::BufferId emptyHostList(std::uint32_t tile);
  ir::BufferId placeVertex(unsigned vid, const VertexClass &vc, EdgeWork &w, ir::Effects &fx);
  /// `type` and `field` name the edge buffer, if one is made (the name is built only then).
  ir::Ref edgeAddress(std::uint32_t tile, const Tensor &tensor, FieldDir dir, EdgeWork &w, ir::Effects &fx,
                      const std::string &type, const std::string &field);
  void checkEdgeType(const Vertex &v, unsigned vid, const FieldInfo &f, const Tensor &t) const;
  std::string unknownField(const Vertex &v, const VertexClass &vc, const std::string &name) const;
  std::string unconnected(const Vertex &v, unsigned vid, const std::string &name, bool list) const;

  const GraphImpl &g_;
  const LinkedImage &image_;
  ir::Module &m_;
  std::vector<bool> tileSeen_; ///< tiles with data or vertices (collectTiles, placeVariables; listed by listTiles)
  std::vector<std::vector<VarSeg>> segs_;
  /// Per variable, the segment the last pieces() lookup ended in: edges are lowered vertex after vertex, usually in
  /// element order, so the next lookup is a few segments on (see segmentAt).
  mutable std::vector<std::size_t> segCursor_;
  /// The segment of variable `var` holding element `elem`.
  const VarSeg *segmentAt(unsigned var, std::size_t elem) const;
  std::map<std::uint32_t, ir::BufferId> emptyLists_;
  std::map<unsigned, ExecutePlan> executePlans_;
  /// Keyed by the interned type name (VertexTypeName::id): a type's class and entry symbols are looked up in
  /// string-keyed maps once, not once per vertex (tutorial 7 lowers 80,000 vertices of two types).
  std::unordered_map<const std::string *, TypeEntry> types_;
  std::map<const program::detail::Node *, unsigned> abortStreams_; ///< Abort node -> index in m_.streams
};

} // namespace poplar::detail::lower
