// Internal: the state behind Graph handles (variables, mappings, compute sets, vertices, streams, codelets).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "poplar/Graph.hpp"
#include "poplar/Target.hpp"
#include "poplar/Tensor.hpp"
#include "codelets.hpp"
#include "flat_map.hpp"
#include "host_handle_key.hpp"
#include "sparse_map.hpp"
#include "target_values.hpp"
#include "vertex_type_name.hpp"

namespace poplar::detail {

/// A vertex class name as a comparison key (Graph.cpp): template arguments spelt as the tile compiler spells them
/// and joined by "," alone, so poputil::templateVertex's spelling and popc's name give one key.
std::string vertexNameKey(const std::string &name);

constexpr unsigned kUnmapped = ~0u;

/// Tile of each element of a variable, as half-open runs: each entry is the first element of a run and its tile; a
/// last entry at n (unmapped) closes the map. The entries sit in order in chunks of at most kMaxChunk, with each
/// chunk's first key in a flat index: a lookup is two binary searches over contiguous memory and a walk is a linear
/// read. (A tree's nodes, scattered among the graph's other allocations, made every step a cache miss: tutorial 7's
/// matrix has 140,000 runs, walked by the compiler and stepped through by 70,000 assigns.)
class IntervalMap {
public:
  explicit IntervalMap(std::size_t n);
  /// Maps [begin, end) to `tile`.
  void assign(std::size_t begin, std::size_t end, unsigned tile);
  /// Runs (begin, end, tile) covering [0, n), in order.
  template <typename Fn> void forEach(Fn &&fn) const {
    const Entry *prev = nullptr;
    for (const Chunk &chunk : chunks_)
      for (const Entry &e : chunk) {
        if (prev)
          fn(prev->key, e.key, prev->tile);
        prev = &e;
      }
  }
  /// The runs overlapping [begin, end), cut to it, in order; returns how many. Starts by a lookup, so a caller
  /// walking many small regions of a finely mapped variable pays for the runs it touches, not for the whole map.
  template <typename Fn> std::size_t forEachIn(std::size_t begin, std::size_t end, Fn &&fn) const {
    std::size_t visited = 0;
    if (begin >= end)
      return visited;
    std::size_t c = chunkOf(begin);
    std::size_t i = std::size_t(std::upper_bound(chunks_[c].begin(), chunks_[c].end(), begin, keyBelow) -
                                chunks_[c].begin()) - 1; // the run holding `begin` (key 0 is always present)
    const Entry *it = &chunks_[c][i];
    while (it->key < end) {
      if (++i == chunks_[c].size()) {
        if (++c == chunks_.size())
          break;
        i = 0;
      }
      const Entry *next = &chunks_[c][i];
      ++visited;
      fn(std::max(it->key, begin), std::min(next->key, end), it->tile);
      it = next;
    }
    return visited;
  }

private:
  struct Entry {
    std::size_t key;
    unsigned tile;
  };
  using Chunk = std::vector<Entry>;
  /// A chunk that grows past this is split in two. Small enough that an insert's shift within a chunk is cheap,
  /// large enough that splits (which shift the chunk index) are rare.
  static constexpr std::size_t kMaxChunk = 64;
  static bool keyBelow(std::size_t key, const Entry &e) { return key < e.key; }
  static bool entryBelow(const Entry &e, std::size_t key) { return e.key < key; }
  /// The last chunk whose first key is at most `key` (0 when none is), starting from the chunk of the last assign:
  /// programs map a tensor slice after slice, so the next lookup usually lands there or in the next chunk.
  std::size_t chunkOf(std::size_t key, std::size_t hint = 0) const;
  /// Inserts an entry (its key not present) where it belongs.
  void insert(std::size_t key, unsigned tile);
  /// Removes every entry with key in [begin, end].
  void erase(std::size_t begin, std::size_t end);

  std::vector<Chunk> chunks_;       ///< none empty
  std::vector<std::size_t> firsts_; ///< firsts_[c] == chunks_[c].front().key
  std::size_t hint_ = 0;            ///< the chunk where the last assign ended (only a hint: checked before use)
};

struct Variable {
  std::string name;
  Type type;
  std::vector<std::size_t> shape;
  std::size_t numElements = 0;
  bool constant = false;
  bool replicationIndex = false;  ///< addReplicationIndexConstant: each replica's copy holds its index
  std::vector<std::uint8_t> init; ///< device bytes of a constant (empty for variables: zero)
  IntervalMap mapping{0};
  std::shared_ptr<Tensor> metadata; ///< a QUARTER variable's QUARTER_METADATA tensor (null: none)
};

/// A field's late initialiser (Graph::setInitCallback): writes `size` bytes from the vertex's edge layout.
struct LateInit {
  std::size_t size = 0;
  std::function<void(const VertexEdgeInfo &, void *)> fill;
};

struct Vertex {
  unsigned computeSet = 0;
  VertexTypeName type;
  unsigned tile = kUnmapped;
  FlatMap<std::string, Tensor> edges;                      ///< scalar and vector edges
  SparseMap<std::string, std::vector<Tensor>> lists;        ///< VectorList edges, by item
  SparseMap<std::string, std::vector<std::uint8_t>> plain;  ///< non-edge field values
  SparseMap<std::string, LateInit> lateInits;               ///< non-edge fields set by callback at compile time
  std::uint64_t cycleEstimate = 0;
  std::uint64_t flopsEstimate = 0;
  bool hasEstimate = false; ///< setPerfEstimate was called
  /// Graph::addExternalExchangeVertex's settings (external exchange vertices only; see external_exchange.hpp).
  bool externalExchange = false;
  unsigned incomingDownCount = 0;
  bool usesEastEdge = false;
  bool sendsXReq = false;
};

struct ComputeSetInfo {
  std::string name;
  std::vector<unsigned> vertices;
};

struct StreamInfo {
  std::string name;
  Type type;
  std::size_t numElements = 0;
  DataStreamType direction = DataStreamType::HostToDeviceFIFO;
  bool broadcast = false; ///< host to device, ReplicatedStreamMode::BROADCAST: one copy feeds every replica
};

struct HostHandle {
  Tensor tensor;
};

/// Streams whose names start with this belong to a remote buffer (Graph::addRemoteBuffer), not to the user.
constexpr const char *kRemoteStreamPrefix = "__remote/";

/// A remote buffer: `repeats` rows of `numElements` elements held by the host runtime. Copies reach it through
/// three streams: the row index to the host, then a row to the device or to the host.
struct RemoteBufferInfo {
  std::string name;
  Type type;
  std::size_t numElements = 0, repeats = 0;
  unsigned offsetStream = 0, toDeviceStream = 0, toHostStream = 0;
  bool rearrangeOnHost = false, optimiseMemory = false; ///< as given to addRemoteBuffer (hints, see Graph.hpp)
};

/// Streams whose names start with this carry a host function's arguments (Graph::addHostFunction). The Engine finds
/// its host functions from these names alone: "<prefix><handle>/in/<i>", ".../out/<i>" and ".../call".
constexpr const char *kHostFunctionStreamPrefix = "__hostfn/";

/// A host function: one device-to-host stream per input, one host-to-device stream per output, and the call stream
/// (no data) whose host sync runs the callback between the inputs' arrival and the outputs' departure.
struct HostFunctionInfo {
  std::string name;
  std::vector<unsigned> inputStreams, outputStreams;
  unsigned callStream = 0;
};

/// An ErrorProgram: the stream that carries its debug tensor to the host, and its message.
struct ErrorStreamInfo {
  unsigned stream = 0;
  std::string message;
  std::vector<std::size_t> shape;
};

/// Everything a Graph (and its virtual graphs) builds.
struct GraphImpl {
  explicit GraphImpl(const Target &t) : target(t) {}
  Target target;                  ///< the top-level target (all replicas' IPUs)
  unsigned replicationFactor = 1; ///< the programs run as this many copies on disjoint tiles (compiler/replicate)
  unsigned functionsAdded = 0;    ///< Graph::addFunction's count: the next Function's id
  unsigned functionBuffersAdded = 0; ///< Graph::addFunctionBuffer's count: the next FunctionBuffer's id
  std::vector<Variable> vars;
  /// The emulated floating-point control (CSRFunctions.cpp): made on first use, shared by every view of the graph.
  std::shared_ptr<Tensor> fpControl;
  /// A deque, so that adding a vertex never moves the others (tutorial 7 adds 80,000; a vector's regrowth moved each
  /// vertex's four maps again and again).
  std::deque<Vertex> vertices;
  std::vector<ComputeSetInfo> computeSets;
  std::vector<StreamInfo> streams;
  std::map<HostHandleKey, HostHandle> handles; ///< one host write and one host read per name
  CodeletSet codelets;
  std::vector<RemoteBufferInfo> remoteBuffers;
  std::vector<ErrorStreamInfo> errorStreams;
  std::vector<HostFunctionInfo> hostFunctions;
  /// Figures libraries attached for the graph profile's optimizationInfo (optimization_info.hpp), by name.
  std::map<std::string, double> optimizationInfo;
  /// Graph::registerPerfEstimator: estimators by vertex type name, keyed by vertexNameKey.
  std::map<std::string, PerfEstimateFunc> perfEstimators;

  /// The vertex class of vertex `v`, or throws graph_connection_error naming the codelets loaded.
  const VertexClass &vertexClass(unsigned v) const;
};

/// Adds the device-to-host stream of an ErrorProgram of `t` and returns its id.
unsigned addErrorStream(GraphImpl &g, const std::string &message, const Tensor &t);

/// Builds "name (shape)" for messages.
std::string describe(const Tensor &t);

} // namespace poplar::detail
