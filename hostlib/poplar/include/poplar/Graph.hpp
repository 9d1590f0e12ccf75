// The graph: variables and constants mapped to tiles, compute sets of vertices, codelets, streams and handles.
#ifndef POPLAR_GRAPH_HPP
#define POPLAR_GRAPH_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <istream>
#include <type_traits>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "poplar/ArrayRef.hpp"
#include "poplar/CodeletFileType.hpp"
#include "poplar/ComputeSet.hpp"
#include "poplar/CycleEstimateFunc.hpp"
#include "poplar/DataStream.hpp"
#include "poplar/DebugContext.hpp"
#include "poplar/FunctionBufferMappingType.hpp"
#include "poplar/Interval.hpp"
#include "poplar/LateInitCallback.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/PerfEstimateFunc.hpp"
#include "poplar/Program.hpp"
#include "poplar/ReplicatedStreamMode.hpp"
#include "poplar/SerializationFormat.hpp"
#include "poplar/Target.hpp"
#include "poplar/Tensor.hpp"
#include "poplar/StringRef.hpp"
#include "poplar/TensorCloneMethod.hpp"
#include "poplar/TensorRearranger.hpp"
#include "poplar/Type.hpp"
#include "poplar/VariableMappingMethod.hpp"
#include "poplar/VariableRef.hpp"
#include "poplar/VertexIntrospector.hpp"
#include "poplar/VertexRef.hpp"
#include "poplar/replication_factor.hpp"

namespace poplar {

/// For each tile, the element intervals of a tensor that live there.
typedef std::vector<std::vector<Interval> > TileToTensorMapping;

class Device;

namespace detail {
/// Whether A is an ArrayRef (and of what): lets Graph::addConstant take a list view without making a braced list
/// ambiguous between the vector and list forms.
template <typename A> struct IsArrayRef : std::false_type {};
template <typename T> struct IsArrayRef<ArrayRef<T> > : std::true_type {
  typedef T element;
};
} // namespace detail

/// A graph for one target. A virtual graph (createVirtualGraph) shares the variables, compute sets and codelets of
/// its parent but numbers a subrange of its tiles from 0.
class Graph {
public:
  /// The SDK's spelling: for each tile, the intervals of a tensor's elements mapped there.
  typedef poplar::TileToTensorMapping TileToTensorMapping;
  /// An empty graph for `target`. With a replication factor n > 1 the graph describes one replica on
  /// target.getNumIPUs() / n IPUs (getTarget() is that replica's target) and runs as n copies on disjoint IPUs;
  /// n must divide the target's IPUs, else invalid_option.
  explicit Graph(const Target &target, replication_factor r = replication_factor(1));
  /// An empty graph for `device`'s target.
  explicit Graph(const Device &device, replication_factor r = replication_factor(1));
  ~Graph();
  Graph(const Graph &other);
  Graph &operator=(const Graph &other);

  /// The target (a virtual graph's target has only its tiles).
  const Target &getTarget() const;
  /// The replication factor: how many copies of this graph run (1 for the top-level graph of a replicated one).
  unsigned getReplicationFactor() const;
  /// A replicated graph of `replicationFactor` replicas on this graph's target, each on
  /// getNumIPUs() / replicationFactor IPUs. Everything the graph holds is replicated: variables and vertices of
  /// the top-level graph must live on the first replica's tiles. Throws invalid_option when the factor does not
  /// divide the IPUs, or when the graph is a virtual or already replicated graph.
  Graph createReplicatedGraph(unsigned replicationFactor);
  /// The top-level graph: the whole target, not replicated, not virtual.
  Graph getTopLevelGraph();
  /// The elements of replicated tensor `t` in every replica as one tensor of the top-level graph whose outermost
  /// dimension is the replica: element [r][i...] is t[i...] in replica r. Call it on the top-level graph
  /// (getTopLevelGraph()). The result can be mapped (getTileMapping: replica r's tiles), read and written by the
  /// host (createHostRead/createHostWrite: every replica's own values) and copied with program::Copy to or from
  /// another such tensor, also across replicas. Throws poplar_error on a replicated or virtual graph, when the graph
  /// is not replicated, or for a tensor that is invalid, of another graph or already non-replicated.
  Tensor getNonReplicatedTensor(const Tensor &t) const;

  /// A new variable of `type` and `shape`; every element must be mapped to a tile before compiling. A QUARTER
  /// variable gets a metadata variable of its own (one QUARTER_METADATA element on tile 0, unset until written;
  /// Tensor::getMetadata returns it).
  Tensor addVariable(const Type &type, const std::vector<std::size_t> &shape, const DebugContext &debugContext = {});
  /// A new variable, as addVariable makes, that code outside the graph's programs reaches by `name`: here the host,
  /// through Engine::writeTensor(name, ...) and Engine::readTensor(name, ...) (the graph gets a host-write and a
  /// host-read handle `name` for it, as createHostWrite/createHostRead give). Throws poplar_error for an empty name
  /// or one that a host handle already has.
  Tensor addExternalVariable(const Type &type, ArrayRef<std::size_t> shape, StringRef name,
                             const DebugContext &debugContext = {});
  /// A new variable whose elements are read with `metadata` (a QUARTER_METADATA tensor, for a QUARTER variable;
  /// Tensor::getMetadata returns it). Other types take an empty Tensor ({}), else poplar_error; an empty Tensor
  /// for QUARTER makes an implicit metadata variable as the overload without metadata does.
  Tensor addVariable(const Type &type, const Tensor &metadata, const std::vector<std::size_t> &shape,
                     const DebugContext &debugContext = {});
  /// A new variable mapped as `mapping` says.
  Tensor addVariable(const Type &type, const std::vector<std::size_t> &shape, VariableMappingMethod mapping,
                     const DebugContext &debugContext = {});
  /// A new variable spread over the tiles in contiguous runs of about numElements / numTiles elements.
  Tensor addLinearlyMappedVariable(const Type &type, const std::vector<std::size_t> &shape,
                                   const DebugContext &debugContext = {});
  /// A new variable with `t`'s shape, each element on the tile of the same element of `t`, holding elements of
  /// `type`; `method` says how its storage is ordered and whether `t`'s aliases are kept (TensorCloneMethod).
  /// Throws graph_connection_error for an invalid tensor or one of another graph.
  Tensor clone(const Type &type, const Tensor &t, const DebugContext &debugContext = {},
               TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
  /// As above with `t`'s element type.
  Tensor clone(const Tensor &t, const DebugContext &debugContext = {},
               TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
  /// N clones of `t` (of element type `type`) as one tensor with a new outermost dimension of size N: element
  /// [i] is the i-th clone, with storage of its own. Throws poplar_error when N is 0.
  Tensor cloneN(const Type &type, const Tensor &t, std::size_t N, const DebugContext &debugContext = {},
                TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES,
                TensorCloneDuplicationMethod duplicationMethod =
                    TensorCloneDuplicationMethod::DUPLICATE_BY_OUTER_DIMENSION);
  /// As above with `t`'s element type.
  Tensor cloneN(const Tensor &t, std::size_t N, const DebugContext &debugContext = {},
                TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES,
                TensorCloneDuplicationMethod duplicationMethod =
                    TensorCloneDuplicationMethod::DUPLICATE_BY_OUTER_DIMENSION);
  /// A new constant with `values` (row-major, one per element).
  template <typename T>
  Tensor addConstant(const Type &type, const std::vector<std::size_t> &shape, const std::vector<T> &values,
                     const DebugContext &debugContext = {}) {
    return addConstantFrom(type, shape, values.data(), values.size(), sizeof(T), hostKind<T>(), debugContext);
  }
  /// As above from a list view (`graph.addConstant(UNSIGNED_INT, {n}, ArrayRef<unsigned>(v))`). Only an
  /// ArrayRef argument picks this form, so a braced list still goes to the vector form unambiguously.
  template <typename A>
  Tensor addConstant(const Type &type, const std::vector<std::size_t> &shape, const A &values,
                     const DebugContext &debugContext = {},
                     typename std::enable_if<detail::IsArrayRef<A>::value>::type * = nullptr) {
    typedef typename detail::IsArrayRef<A>::element T;
    return addConstantFrom(type, shape, values.data(), values.size(), sizeof(T), hostKind<T>(), debugContext);
  }
  /// A new constant with every element `value`. Only for arithmetic values: as in Graphcore's Graph, a pointer or
  /// a list must reach the overloads below, not become "one value" (a non-const pointer would match T exactly).
  template <typename T>
  Tensor addConstant(const Type &type, const std::vector<std::size_t> &shape, T value,
                     const DebugContext &debugContext = {},
                     typename std::enable_if<std::is_arithmetic<T>::value>::type * = nullptr) {
    return addConstantFrom(type, shape, &value, 1, sizeof(T), hostKind<T>(), debugContext);
  }
  /// A new constant from `values`, one per element.
  template <typename T>
  Tensor addConstant(const Type &type, const std::vector<std::size_t> &shape, const T *values,
                     const DebugContext &debugContext = {}) {
    std::size_t n = 1;
    for (std::size_t i = 0; i < shape.size(); ++i)
      n *= shape[i];
    return addConstantFrom(type, shape, values, n, sizeof(T), hostKind<T>(), debugContext);
  }

  /// Maps every element of `t` to `tile`.
  void setTileMapping(const Tensor &t, unsigned tile);
  /// Maps the vertex to `tile`.
  void setTileMapping(VertexRef v, unsigned tile);
  /// Maps the elements of `t` as `mapping` says (one interval list per tile, indices into t flattened).
  void setTileMapping(const Tensor &t, const TileToTensorMapping &mapping);
  /// Where the elements of `t` live; throws poplar_error when some are unmapped and `requireComplete`.
  TileToTensorMapping getTileMapping(const Tensor &t, bool requireComplete = true) const;
  /// The tile of a vertex, or ~0u when unmapped.
  unsigned getTileMapping(VertexRef v) const;

  /// A new, empty compute set.
  ComputeSet addComputeSet(const DebugContext &debugContext = {});
  /// Poplar's former name of addComputeSet().
  ComputeSet createComputeSet(const DebugContext &debugContext = {}) { return addComputeSet(debugContext); }
  /// One connection of addVertex(cs, type, {{"field", tensor}, {"list", {t0, t1}}, {"n", 3}, ...}): a tensor
  /// (connect(field, tensor)), tensors for a VectorList (connect(field, tensors)), or a value for a plain field
  /// (setInitialValue(field, value), the value's bytes as given).
  struct ConnectionDesc {
    enum class Kind { Tensor, Vector, Value };
    ConnectionDesc(StringRef fieldName, const Tensor &t) : kind(Kind::Tensor), field(fieldName), tensor(t) {}
    ConnectionDesc(StringRef fieldName, ArrayRef<Tensor> ts)
        : kind(Kind::Vector), field(fieldName), tensors(ts.cloneAsVector()) {}
    template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value>::type>
    ConnectionDesc(StringRef fieldName, T v) : kind(Kind::Value), field(fieldName), value(sizeof(T)) {
      std::memcpy(&value[0], &v, sizeof(T));
    }
    Kind kind;
    std::string field;
    Tensor tensor;                   ///< Kind::Tensor
    std::vector<Tensor> tensors;     ///< Kind::Vector
    std::vector<unsigned char> value; ///< Kind::Value: the value's bytes
  };

  /// A vertex of codelet class `vertexType` in `cs`.
  VertexRef addVertex(ComputeSet cs, const std::string &vertexType);
  /// As above, connecting each field to its tensor.
  VertexRef addVertex(ComputeSet cs, const std::string &vertexType, const std::vector<ConnectionDesc> &connections);
  /// A vertex of codelet class `vertexType` in `cs` that exchanges with the outside of the IPU through an exchange
  /// block: `incomingDownCount` is the INCOMING_DCOUNT value set before it starts, `usesEastEdge` picks the east
  /// (else west) edge block for INCOMING_MUX, `sendsXReq` makes it the vertex that sends the XREQ packet. A compute
  /// set holds such vertices only, at most one per tile, and the XREQ sender is the same tile in every such compute
  /// set. The emulated card has no edge exchange blocks: the vertex runs as an ordinary vertex and the three values
  /// are recorded only; the placement rules are enforced (mixing with ordinary vertices:
  /// graph_object_creation_error here; two on a tile or two XREQ tiles: graph_program_compilation_error when the
  /// graph is compiled). See docs/poplar-api-readings.md.
  VertexRef addExternalExchangeVertex(ComputeSet cs, StringRef vertexType, unsigned incomingDownCount,
                                     bool usesEastEdge, bool sendsXReq);
  /// Connects a vertex field (Input, Output, InOut, Vector, VectorList element) to the elements of `t`. A scalar
  /// field takes a one-element tensor; a Vector field takes the tensor flattened.
  void connect(FieldRef field, const Tensor &t);
  /// Connects a VectorList field to `tensors`, one item each (setFieldSize(field, tensors.size()), then
  /// connect(field[i], tensors[i])).
  void connect(FieldRef field, const std::vector<Tensor> &tensors);
  /// Sets the length of a VectorList field (each element is then connected with field[i]). Any other kind of field
  /// throws graph_connection_error (a Vector's size is its tensor's; a scalar has none).
  void setFieldSize(FieldRef field, std::size_t size);
  /// The number of elements of a vertex's field: of the tensor connected to a Vector or scalar edge, the items of
  /// a VectorList (`field`) or of one item (`field[i]`). Throws graph_connection_error for a field with no size
  /// yet, index_error for an item past the list's end.
  std::size_t getFieldSize(FieldRef field) const;
  /// The largest size dimension `dimIndex` of field `fieldName` of class `vertexType` can have (a Vector: dimension
  /// 0, its size; a VectorList: 0, its item count, and 1, an item's size): 2^32 - 1, as the tile holds 32-bit
  /// counts. Throws unknown_vertex_type, unknown_field, or poplar_error for a dimension the field lacks.
  double getMaxFieldDim(const std::string &vertexType, const std::string &fieldName, unsigned dimIndex) const;
  /// The largest value field `fieldName` of class `vertexType` can hold (or each element of an edge field), by
  /// its C type on the tile (e.g. 65535 for unsigned short, 65504 for half). Throws as getMaxFieldDim does.
  double getMaxVertexFieldValue(const std::string &vertexType, const std::string &fieldName) const;
  /// getMaxVertexFieldValue as a T.
  template <typename T> T getMaxVertexFieldValueAs(const std::string &vertexType, const std::string &fieldName) const {
    return static_cast<T>(getMaxVertexFieldValue(vertexType, fieldName));
  }
  /// Sets a plain (non-edge) field of the vertex state, e.g. `unsigned n;`.
  template <typename T>
  void setInitialValue(FieldRef field, T value,
                       typename std::enable_if<!std::is_pointer<T>::value>::type * = 0) {
    setInitialValueBytes(field, &value, sizeof(T));
  }
  /// Sets a plain array field of the vertex state (e.g. `int k[4];`) from `values`, in order.
  template <typename T> void setInitialValue(FieldRef field, const std::vector<T> &values) {
    setInitialValueBytes(field, values.data(), values.size() * sizeof(T));
  }
  /// As above from a list view (Graphcore's spelling: setInitialValue(field, ArrayRef<T>(values))).
  template <typename T> void setInitialValue(FieldRef field, ArrayRef<T> values) {
    setInitialValueBytes(field, values.data(), values.size() * sizeof(T));
  }
  /// Sets a plain arithmetic field (e.g. `unsigned n;`) to what `callback` returns when the graph is compiled, once
  /// every edge has its place in tile memory: the callback sees those places (VertexEdgeInfo) and runs once per
  /// compilation (on a replicated graph once per replica, each with that replica's layout). Give T explicitly (`setInitCallback<unsigned>(v["n"], f)`), of the field's size. With
  /// setInitialValue as well, that value is what cycle estimators see before layout, and the callback's replaces
  /// it on the device. Throws graph_connection_error for an empty callback or a vertex of another graph; the
  /// compiler throws it for an edge field or a size that does not match.
  template <typename T>
  void setInitCallback(FieldRef field, LateInitCallback<T> callback,
                       typename std::enable_if<std::is_arithmetic<T>::value>::type * = nullptr) {
    std::function<void(const VertexEdgeInfo &, void *)> fill;
    if (callback)
      fill = [callback](const VertexEdgeInfo &info, void *out) {
        T value = callback(info);
        std::memcpy(out, &value, sizeof(T));
      };
    setInitCallbackBytes(field, sizeof(T), fill);
  }
  /// Gives every element of variable view `t` the initial value `value` (what the tensor holds after
  /// Engine::load, before any program writes it).
  template <typename T>
  void setInitialValue(const Tensor &t, T value,
                       typename std::enable_if<std::is_arithmetic<T>::value>::type * = 0) {
    setInitialValueFrom(t, &value, 1, sizeof(T), hostKind<T>());
  }
  /// Gives the elements of `t` (row-major) the initial values `values`, one per element.
  template <typename T> void setInitialValue(const Tensor &t, const std::vector<T> &values) {
    setInitialValueFrom(t, values.data(), values.size(), sizeof(T), hostKind<T>());
  }
  /// As above from a list view, as Graphcore's Graph takes it (`graph.setInitialValue(t, ArrayRef<float>(v))`);
  /// one value per element (or one for all), else poplar_error.
  template <typename T> void setInitialValue(const Tensor &t, ArrayRef<T> values) {
    setInitialValueFrom(t, values.data(), values.size(), sizeof(T), hostKind<T>());
  }
  /// Gives vertex `v` its estimate (worker cycles), over any estimator of its type. On an IPU Model target the
  /// Engine's cycles are built from vertex estimates (docs/time-model.md).
  void setPerfEstimate(VertexRef v, std::uint64_t cycles, std::uint64_t flops = 0);
  /// Vertices of type `vertexTypeName` without an estimate of their own get theirs from `f`.
  void registerPerfEstimator(const std::string &vertexTypeName, PerfEstimateFunc f);
  /// The estimate vertex `v` is charged on an IPU Model: its own, its type's estimator's, the library's for a
  /// PopLibs vertex, or the default (docs/time-model.md, "Vertices without an estimate").
  VertexPerfEstimate getPerfEstimate(const VertexRef &v) const;
  /// Same as setPerfEstimate without flops.
  void setCycleEstimate(VertexRef v, std::uint64_t cycles) { setPerfEstimate(v, cycles); }
  /// The SDK 2.x form of registerPerfEstimator: `f` gives cycles only (the vertices' flops are 0).
  void registerCycleEstimator(const std::string &vertexTypeName, CycleEstimateFunc f);
  /// The cycles of getPerfEstimate(v). Throws poplar_error for a vertex of another graph.
  std::uint64_t getCycleEstimate(const VertexRef &v) const;

  /// Adds codelets from C++ source (compiled for the tiles now, cached by content) or a .gp made by popc.
  /// `type` Auto: a .gp is an object, any other name C++ source. The SDK's C, assembly and LLVM IR kinds throw
  /// graph_object_load_error (only C++ codelets are compiled here). Throws graph_object_load_error with the
  /// compiler's message when the source does not compile. Returns true when the codelets were new to the graph.
  bool addCodelets(const std::string &path, CodeletFileType type = CodeletFileType::Auto,
                   const std::string &compileFlags = "");
  /// Adds several codelet files.
  void addCodelets(const std::vector<std::string> &paths, const std::string &compileFlags = "");

  /// A handle `handle` through which Engine::writeTensor writes all of `t`.
  void createHostWrite(const std::string &handle, const Tensor &t, bool rearrangeOnHost = false);
  /// A handle `handle` through which Engine::readTensor reads all of `t`.
  void createHostRead(const std::string &handle, const Tensor &t, bool rearrangeOnHost = false);
  /// A stream from the host: each copy moves `numElements` elements of `type` (0 is allowed: such copies move
  /// nothing and the stream's connections are never used). In a replicated graph, `mode` says whether each replica
  /// has its own data (REPLICATE) or all get the same (BROADCAST).
  DataStream addHostToDeviceFIFO(const std::string &handle, const Type &type, std::size_t numElements,
                                 ReplicatedStreamMode mode = ReplicatedStreamMode::REPLICATE,
                                 const OptionFlags &options = OptionFlags());
  /// A stream to the host (in a replicated graph, each replica's copies reach that replica's connection).
  DataStream addDeviceToHostFIFO(const std::string &handle, const Type &type, std::size_t numElements,
                                 const OptionFlags &options = OptionFlags());

  /// A graph over tiles [lowerTile, upperTile) of this one, numbered from 0.
  Graph createVirtualGraph(unsigned lowerTile, unsigned upperTile);
  /// A graph over the first `numTilesPerIPU` tiles of this one.
  Graph createVirtualGraph(unsigned numTilesPerIPU);
  /// A graph over the listed tiles of this one (in that order: tile i of the new graph is perIpuTiles[i]).
  Graph createVirtualGraph(const std::vector<unsigned> &perIpuTiles);

  /// A remote buffer: `repeats` rows of `numElements` elements of `elementType`, held by the host runtime (off-chip
  /// storage), that program::Copy moves to and from tensors a row at a time. Engine::copyToRemoteBuffer and
  /// copyFromRemoteBuffer reach it from the host. `rearrangeOnHost` and `optimiseMemory` are hints the SDK's
  /// compiler may follow; here rows always travel as laid out, and the buffer reports the hints as given.
  RemoteBuffer addRemoteBuffer(const std::string &handle, const Type &elementType, std::size_t numElements,
                               std::size_t repeats = 1, bool rearrangeOnHost = false, bool optimiseMemory = false);
  /// A function: a program that program::Call runs wherever it is called.
  Function addFunction(const program::Program &program);

  /// A buffer for function `f`'s code (program::Copy(buffer, f) loads it). Throws poplar_error for a function
  /// this graph did not make.
  FunctionBuffer addFunctionBuffer(const Function &f, FunctionBufferMappingType mappingType);

  /// One argument of a host function: `size` elements of `type`.
  struct HostFunctionArgument {
    HostFunctionArgument(Type elementType, std::size_t numElements) : type(elementType), size(numElements) {}
    Type type;
    std::size_t size;
  };
  /// A host function named `handle`: program::Call(f, inputs, outputs) sends tensors shaped as `inputs` to the host,
  /// runs the callback an Engine connects to `handle` (Engine::connectHostFunction) and receives tensors shaped as
  /// `outputs`. Throws poplar_error for a handle already used or an argument of 0 elements.
  HostFunction addHostFunction(StringRef handle, ArrayRef<HostFunctionArgument> inputs,
                               ArrayRef<HostFunctionArgument> outputs);

  /// The number of vertices in the graph, over all compute sets.
  unsigned getNumVertices() const;
  /// The SDK's other spelling of getNumVertices().
  unsigned numVertices() const { return getNumVertices(); }
  /// The number of compute sets added to the graph (addComputeSet), empty ones included.
  unsigned numComputeSets() const;
  /// Where the elements of `t` that belong to variables live, as getTileMapping(t, false) lists them, with the
  /// elements of constants left out (unmapped elements are left out too, as getTileMapping(t, false) does).
  /// Throws graph_connection_error for an invalid tensor or one of another graph.
  TileToTensorMapping getVariableTileMapping(const Tensor &t) const;
  /// The smallest tensor `t` is a broadcast of: every dimension along which all slices of `t` are the same
  /// elements (a view made by Tensor::broadcast or expand of a size-1 dimension) becomes size 1; the rank is kept.
  /// Throws graph_connection_error for an invalid tensor or one of another graph.
  Tensor findUnbroadcastTensor(const Tensor &t) const;
  /// Whether a vertex class named `codeletName` has been added (addCodelets, or a library's addCodelets).
  bool hasCodelet(const std::string &codeletName) const;
  /// Whether variable `v` is a constant (made by addConstant), whose values no program may change.
  bool isConstant(VariableRef v) const;
  /// Whether every element of `t` belongs to a constant.
  bool isConstant(const Tensor &t) const;
  /// The whole of variable `v` as a tensor with the shape it was created with.
  Tensor getVariable(VariableRef v) const;
  /// A scalar UNSIGNED_INT constant holding, in each replica, that replica's index in this graph (0 to the
  /// replication factor - 1; 0 in a graph that is not replicated). Map it to a tile as any constant.
  Tensor addReplicationIndexConstant(const DebugContext &debugContext = {});
  /// A HALF (or FLOAT) constant with every element `val`, given as IEEE half-precision bits.
  Tensor addConstantHalf(const Type &type, const std::vector<std::size_t> &shape, std::uint16_t val,
                         const DebugContext &debugContext = {"<const>"});
  /// A HALF (or FLOAT) constant from `val`, one IEEE half-precision bit pattern per element.
  Tensor addConstantHalf(const Type &type, const std::vector<std::size_t> &shape, const std::uint16_t *val,
                         const DebugContext &debugContext = {"<const>"});
  /// Gives the elements of `t` the initial values `values`, IEEE half-precision bit patterns, one per element.
  void setInitialValueHalf(const Tensor &t, ArrayRef<std::uint16_t> values);
  /// Groups the elements `regions` of `t` into sequences that are each one contiguous run of memory (the same
  /// variable, consecutive elements, one tile), the sequences in memory order (by variable, then element). Each
  /// sequence lists intervals of `t`'s flattened indices, adjacent ones merged. With `removeAliasedIntervals`, an
  /// element of a variable reached twice (a broadcast view) is kept once; `aliases`, when given, then receives
  /// for each dropped interval's first index of `t` the index of `t` it duplicates, in pairs (dropped, kept).
  /// Reorders the elements of `*t` so that it reads its variables in ascending order (each variable's runs by
  /// address), and the elements of every tensor of `ts` by the same permutation, so that element-wise work over
  /// them stays element-wise. Each tensor becomes 1-D; all must have t's number of elements (else poplar_error).
  /// `requireSimplestOrder` is accepted for the SDK's signature: the order is always the simplest.
  void reorderToSimplify(Tensor *t, ArrayRef<Tensor *> ts, bool requireSimplestOrder = true) const;
  /// The rearrangement reorderToSimplify(&t, ...) applies, to apply to other tensors or undo later
  /// (TensorRearranger::undoRearrangement), e.g. to bring results computed in the simple order back to t's order.
  TensorRearranger getSimplifyingRearranger(const Tensor &t) const;
  std::vector<std::vector<Interval>> getSortedContiguousRegions(const Tensor &t, ArrayRef<Interval> regions,
                                                                bool removeAliasedIntervals = false,
                                                                std::vector<std::size_t> *aliases = nullptr) const;
  /// The tile of the top-level graph that is tile `tile` of this (virtual) graph.
  unsigned convertTileToTopLevelGraphTile(unsigned tile) const;
  /// The tile of this graph that is tile `tile` of the top-level graph; throws index_error when it is not in it.
  unsigned convertTopLevelGraphTileToTile(unsigned tile) const;
  /// The physical tile id behind virtual tile id `virtualTileId`. The emulated IPUs number tiles the same way in
  /// both schemes, so this is the identity within the target's tiles (index_error outside them).
  unsigned convertVirtualTileToPhysicalTile(unsigned virtualTileId) const;
  /// The inverse of convertVirtualTileToPhysicalTile.
  unsigned convertPhysicalTileToVirtualTile(unsigned physicalTileId) const;

  /// Writes the vertices, the variables they are connected to and the direction of each edge as GraphViz dot.
  /// `progs` is accepted for the SDK's signature (every vertex is shown).
  void outputVertexGraph(std::ostream &out,
                         const std::vector<program::Program> &progs = std::vector<program::Program>()) const;
  /// Writes the compute sets and the variables each reads and writes as GraphViz dot.
  void outputComputeGraph(std::ostream &out,
                          const std::vector<program::Program> &progs = std::vector<program::Program>()) const;

  /// Writes the graph's structure: its target, variables (name, type, shape, constness, tile mapping), compute
  /// sets, vertices (class, compute set, tile, the variable elements each edge views) and streams, as pretty-printed
  /// JSON or as CBOR (SerializationFormat::Binary; the SDK's binary form is CapnProto). As in the SDK, this is for
  /// looking at a graph: it leaves out initial values and vertex field values, so it cannot rebuild one.
  /// Equivalent to serialize(out, {}, format).
  void serialize(std::ostream &out, SerializationFormat format) const;
  /// As serialize(out, format), and lists under "copies" the transfers (Copy programs between tensors and to or
  /// from streams) found anywhere in `progs`, with the variable elements each moves.
  void serialize(std::ostream &out, ArrayRef<program::Program> progs, SerializationFormat format) const;
  /// Writes `tensors`: each one's element type, shape and the variable elements it views, and the name, type,
  /// shape and tile mapping of every variable they use, as JSON (pretty-printed) or CBOR (Binary). Throws
  /// poplar_error naming the tensor when one is invalid or belongs to another graph.
  void serializeTensors(std::ostream &out, ArrayRef<Tensor> tensors, SerializationFormat format) const;
  /// Reads tensors written by serializeTensors(..., SerializationFormat::Binary) and makes them in this graph:
  /// each variable they used becomes a new variable (same name, type and shape, mapped to the same tiles), and
  /// each tensor the same view of the new variables. As in the SDK, JSON cannot be read back (poplar_error), and a
  /// stream of something else, a type this Poplar does not know, or a tile beyond this graph's throws poplar_error
  /// (the graph is left unchanged). For tests and benchmarks, not a general way of making tensors.
  std::vector<Tensor> deserializeTensors(std::istream &in, SerializationFormat format);

  /// Internal: the shared graph state.
  detail::GraphImpl &impl() const;

private:
  /// How a host value is stored: 0 float, 1 double, 2 signed integer, 3 unsigned integer, 4 bool.
  template <typename T> static int hostKind() {
    return std::is_same<T, bool>::value ? 4
           : std::is_floating_point<T>::value ? (sizeof(T) == 4 ? 0 : 1)
           : std::is_signed<T>::value ? 2 : 3;
  }
  Tensor addConstantFrom(const Type &type, const std::vector<std::size_t> &shape, const void *values,
                         std::size_t count, std::size_t hostSize, int hostKind, const DebugContext &debugContext);
  void setInitialValueBytes(FieldRef field, const void *value, std::size_t size);
  void setInitCallbackBytes(FieldRef field, std::size_t size,
                            const std::function<void(const VertexEdgeInfo &, void *)> &fill);
  void setInitialValueFrom(const Tensor &t, const void *values, std::size_t count, std::size_t hostSize,
                           int hostKind);
  /// The tile of the top-level graph behind tile `tile` of this one, and back (~0u when not in this graph).
  unsigned physicalTile(unsigned tile) const;
  unsigned localTile(unsigned physical) const;
  std::shared_ptr<detail::GraphImpl> impl_;
  Target target_;
  std::vector<unsigned> tiles_; ///< a virtual graph's tiles in the top-level graph (empty: all, unchanged)
  unsigned replication_ = 1;    ///< copies of this graph that run (the GraphImpl holds the one the compiler uses)
};

/// The Poplar SDK version this library emulates and its package hash, as "3.4.0 (0123456789)"; `popc --version`
/// prints the same ("POPLAR version 3.4.0 (0123456789)").
std::string versionString();
/// The package hash alone: ten hex digits identifying this ipu-emu release and the SDK version it emulates.
std::string packageHash();

} // namespace poplar

#endif // POPLAR_GRAPH_HPP
