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
#include "host_handle_key.hpp"
#include "target_values.hpp"

namespace poplar::detail {

/// A vertex class name as a comparison key (Graph.cpp): template arguments spelt as the tile compiler spells them
/// and joined by "," alone, so poputil::templateVertex's spelling and popc's name give one key.
std::string vertexNameKey(const std::string &name);

constexpr unsigned kUnmapped = ~0u;

/// Tile of each element of a variable, as half-open runs: key = first element of a run, value = tile.
class IntervalMap {
public:
  explicit IntervalMap(std::size_t n);
  /// Maps [begin, end) to `tile`.
  void assign(std::size_t begin, std::size_t end, unsigned tile);
  /// Runs (begin, end, tile) covering [0, n), in order.
  template <typename Fn> void forEach(Fn &&fn) const {
    // One tree step per run: a run ends where the next begins, so the walk carries the next run along rather than
    // stepping to it twice (the compiler walks every variable's map, and 10,000-row tensors have 20,000 runs).
    auto it = runs_.begin();
    for (auto next = std::next(it); next != runs_.end(); it = next++)
      fn(it->first, next->first, it->second);
  }
  /// The runs overlapping [begin, end), cut to it, in order; returns how many. Starts by a lookup, so a caller
  /// walking many small regions of a finely mapped variable pays for the runs it touches, not for the whole map.
  template <typename Fn> std::size_t forEachIn(std::size_t begin, std::size_t end, Fn &&fn) const {
    std::size_t visited = 0;
    if (begin >= end)
      return visited;
    auto next = runs_.upper_bound(begin); // the run after the one holding `begin` (key 0 is always present)
    for (auto it = std::prev(next); next != runs_.end() && it->first < end; it = next++) {
      ++visited;
      fn(std::max(it->first, begin), std::min(next->first, end), it->second);
    }
    return visited;
  }

private:
  using Runs = std::map<std::size_t, unsigned>;
  /// The first run starting at or after `key`, found by a few steps from the cursor when it lies just behind.
  Runs::iterator lowerBound(std::size_t key);

  /// An iterator into one map's nodes that a copy or a move forgets (on both sides of a move), so it can never
  /// point into another map and IntervalMap's own copy and move members can be the defaults.
  class Cursor {
  public:
    Cursor() = default;
    Cursor(const Cursor &) noexcept {}
    Cursor(Cursor &&o) noexcept { o.set_ = false; }
    Cursor &operator=(const Cursor &) noexcept {
      set_ = false;
      return *this;
    }
    Cursor &operator=(Cursor &&o) noexcept {
      set_ = o.set_ = false;
      return *this;
    }
    void place(Runs::iterator it) {
      it_ = it;
      set_ = true;
    }
    /// The iterator last placed, or null after construction, a copy or a move.
    const Runs::iterator *get() const { return set_ ? &it_ : nullptr; }

  private:
    Runs::iterator it_{};
    bool set_ = false;
  };

  Runs runs_;
  /// Where the last assign ended. Programs map a tensor slice after slice in element order (tutorial 7 maps 70,000
  /// row segments), so the next assign usually starts a few runs further on: stepping there costs less than two
  /// descents of a tree too large for the cache. When placed, a valid iterator of runs_ (never erased: see assign).
  Cursor cursor_;
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
  std::string type;
  unsigned tile = kUnmapped;
  std::map<std::string, Tensor> edges;                     ///< scalar and vector edges
  std::map<std::string, std::vector<Tensor>> lists;        ///< VectorList edges, by item
  std::map<std::string, std::vector<std::uint8_t>> plain;  ///< non-edge field values
  std::map<std::string, LateInit> lateInits;               ///< non-edge fields set by callback at compile time
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
