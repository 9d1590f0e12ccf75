// Graph construction: variables, constants, tile mappings, compute sets, vertices, connections, codelets, streams.
#include "poplar/Graph.hpp"

#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

#include "external_exchange.hpp"
#include "graph_impl.hpp"
#include "time_model.hpp"
#include "trace.hpp"
#include "view_work.hpp"
#include "poplar/Device.hpp"
#include "half.hpp"
#include "poplar/exceptions.hpp"
#include "type_codes.hpp"

namespace poplar {

using namespace detail;

namespace detail {

IntervalMap::IntervalMap(std::size_t n)
    : chunks_{n == 0 ? Chunk{Entry{0, kUnmapped}} : Chunk{Entry{0, kUnmapped}, Entry{n, kUnmapped}}}, firsts_{0} {}

std::size_t IntervalMap::chunkOf(std::size_t key, std::size_t hint) const {
  if (hint < firsts_.size() && firsts_[hint] <= key) {
    if (hint + 1 == firsts_.size() || key < firsts_[hint + 1])
      return hint;
    if (hint + 2 == firsts_.size() || key < firsts_[hint + 2])
      return hint + 1;
  }
  auto it = std::upper_bound(firsts_.begin(), firsts_.end(), key);
  return it == firsts_.begin() ? 0 : std::size_t(it - firsts_.begin()) - 1;
}

void IntervalMap::insert(std::size_t key, unsigned tile) {
  if (chunks_.empty()) {
    chunks_.push_back(Chunk{Entry{key, tile}});
    firsts_.push_back(key);
    hint_ = 0;
    return;
  }
  std::size_t c = chunkOf(key, hint_);
  Chunk &chunk = chunks_[c];
  chunk.insert(std::upper_bound(chunk.begin(), chunk.end(), key, keyBelow), Entry{key, tile});
  firsts_[c] = chunk.front().key;
  hint_ = c;
  if (chunk.size() > kMaxChunk) {
    const std::size_t half = chunk.size() / 2;
    Chunk upper(chunk.begin() + std::ptrdiff_t(half), chunk.end());
    chunk.erase(chunk.begin() + std::ptrdiff_t(half), chunk.end());
    const std::size_t upperFirst = upper.front().key;
    chunks_.insert(chunks_.begin() + std::ptrdiff_t(c + 1), std::move(upper));
    firsts_.insert(firsts_.begin() + std::ptrdiff_t(c + 1), upperFirst);
    if (key >= upperFirst)
      hint_ = c + 1;
  }
}

void IntervalMap::erase(std::size_t begin, std::size_t end) {
  auto at = [](const Chunk &chunk, std::size_t i) { return chunk.begin() + std::ptrdiff_t(i); };
  const std::size_t c1 = chunkOf(begin, hint_);
  const std::size_t i1 = std::size_t(std::lower_bound(chunks_[c1].begin(), chunks_[c1].end(), begin,
                                                      entryBelow) -
                                     chunks_[c1].begin());
  const std::size_t c2 = chunkOf(end, c1);
  const std::size_t i2 =
      std::size_t(std::upper_bound(chunks_[c2].begin(), chunks_[c2].end(), end, keyBelow) - chunks_[c2].begin());
  auto dropIfEmpty = [&](std::size_t c) {
    if (chunks_[c].empty()) {
      chunks_.erase(chunks_.begin() + std::ptrdiff_t(c));
      firsts_.erase(firsts_.begin() + std::ptrdiff_t(c));
    } else {
      firsts_[c] = chunks_[c].front().key;
    }
  };
  if (c1 == c2) {
    chunks_[c1].erase(at(chunks_[c1], i1), at(chunks_[c1], i2));
  } else {
    chunks_[c2].erase(chunks_[c2].begin(), at(chunks_[c2], i2));
    chunks_[c1].erase(at(chunks_[c1], i1), chunks_[c1].end());
    chunks_.erase(chunks_.begin() + std::ptrdiff_t(c1 + 1), chunks_.begin() + std::ptrdiff_t(c2));
    firsts_.erase(firsts_.begin() + std::ptrdiff_t(c1 + 1), firsts_.begin() + std::ptrdiff_t(c2));
    dropIfEmpty(c1 + 1);
  }
  dropIfEmpty(c1);
}

void IntervalMap::assign(std::size_t begin, std::size_t end, unsigned tile) {
  if (begin >= end)
    return;
  // Read the tile before `begin` and the tile at `end` first, then remove every run start in [begin, end] and put
  // back at most two: `begin` unless the run before has the same tile, and `end` unless the run it starts joins.
  const std::size_t c = chunkOf(begin, hint_);
  const Chunk &from = chunks_[c];
  const std::size_t i = std::size_t(std::lower_bound(from.begin(), from.end(), begin,
                                                     entryBelow) -
                                    from.begin());
  // Key 0 is always present, so an entry before `begin` is in this chunk or ends the previous one.
  const Entry *before = i > 0 ? &from[i - 1] : c > 0 ? &chunks_[c - 1].back() : nullptr;
  const bool joinsPrevious = before && before->tile == tile;
  const std::size_t c2 = chunkOf(end, c);
  const Chunk &to = chunks_[c2];
  const std::size_t j = std::size_t(std::upper_bound(to.begin(), to.end(), end, keyBelow) - to.begin());
  const unsigned tileAtEnd = to[j - 1].tile; // the run holding `end`
  const bool atLast = c2 + 1 == chunks_.size() && j == to.size(); // `end` is the size: its key closes the map
  erase(begin, end);
  if (!joinsPrevious)
    insert(begin, tile);
  if (atLast || tileAtEnd != tile)
    insert(end, tileAtEnd);
}

const VertexClass &GraphImpl::vertexClass(unsigned v) const {
  const std::string &type = vertices.at(v).type;
  auto it = codelets.classes.find(type);
  if (it == codelets.classes.end()) {
    std::string known;
    for (const auto &kv : codelets.classes)
      known += (known.empty() ? "" : ", ") + kv.first;
    throw graph_connection_error("vertex type '" + type + "' is not defined by any codelet added to the graph " +
                                 "(known: " + (known.empty() ? "none; call graph.addCodelets(\"file.cpp\") first"
                                                             : known) + ")");
  }
  return it->second;
}

std::string describe(const Tensor &t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

} // namespace detail

Graph::Graph(const Device &device, replication_factor r) : Graph(device.getTarget(), r) {}

unsigned Graph::getReplicationFactor() const { return replication_; }

/// The target of one of `factor` replicas of `target`; throws invalid_option unless the factor divides its IPUs.
static Target replicaTarget(const std::string &what, const Target &target, unsigned factor) {
  if (factor == 0 || target.getNumIPUs() % factor != 0)
    throw invalid_option(what + ": replication factor " + std::to_string(factor) + " does not divide the target's " +
                         std::to_string(target.getNumIPUs()) +
                         " IPUs; use a factor that divides it, or a device with replicas x IPUs-per-replica IPUs");
  return factor == 1 ? target : target.createVirtualTarget(target.getNumIPUs() / factor, target.getTilesPerIPU());
}

Graph::Graph(const Target &target, replication_factor r)
    : impl_(std::make_shared<GraphImpl>(target)), target_(target) {
  target.values(); // throws for an invalid target
  target_ = replicaTarget("Graph", target, r.value);
  impl_->replicationFactor = r.value;
  replication_ = r.value;
  detail::graphConstructionBegins();
}

Graph Graph::createReplicatedGraph(unsigned replicationFactor) {
  if (!tiles_.empty())
    throw invalid_option("createReplicatedGraph: this is a virtual graph; replicate the top-level graph "
                         "(graph.getTopLevelGraph().createReplicatedGraph(n)) and make virtual graphs of the replica");
  if (impl_->replicationFactor != 1)
    throw invalid_option("createReplicatedGraph: the graph is already replicated " +
                         std::to_string(impl_->replicationFactor) + " times; replicate the top-level graph once");
  Graph g(*this);
  g.target_ = replicaTarget("createReplicatedGraph", target_, replicationFactor);
  g.replication_ = replicationFactor;
  impl_->replicationFactor = replicationFactor;
  return g;
}

Graph Graph::getTopLevelGraph() {
  Graph g(*this);
  g.target_ = impl_->target;
  g.tiles_.clear();
  g.replication_ = 1;
  return g;
}

Tensor Graph::getNonReplicatedTensor(const Tensor &t) const {
  const std::string call = "getNonReplicatedTensor(" + (t.valid() ? describe(t) : std::string("invalid tensor")) + ")";
  if (replication_ != 1 || !tiles_.empty())
    throw poplar_error(call + ": called on a replicated or virtual graph; call it on the top-level graph "
                       "(graph.getTopLevelGraph().getNonReplicatedTensor(t))");
  if (impl_->replicationFactor == 1)
    throw poplar_error(call + ": the graph is not replicated, so the tensor has one copy; use it as it is, or "
                       "replicate the graph first (createReplicatedGraph or replication_factor)");
  if (!t.valid())
    throw poplar_error(call + ": the tensor is invalid (default-constructed)");
  if (t.graphImpl() != impl_.get())
    throw poplar_error(call + ": the tensor belongs to another graph");
  for (const auto &r : t.regions())
    if (r.replica != kLocalReplica)
      throw poplar_error(call + ": the tensor already names the elements of specific replicas (it came from "
                         "getNonReplicatedTensor); pass the replicated tensor itself");
  // Replica r's copy of every element, replica after replica: the outermost dimension is the replica.
  auto regions = std::make_shared<std::vector<VarRegion>>();
  for (unsigned r = 0; r < impl_->replicationFactor; ++r)
    for (VarRegion region : t.regions()) {
      region.replica = r;
      regions->push_back(region);
    }
  std::vector<std::size_t> shape = t.shape();
  shape.insert(shape.begin(), impl_->replicationFactor);
  return Tensor(impl_.get(), t.elementType(), shape, regions);
}

/// Throws poplar_error when `t` names elements of specific replicas: `what` works on replicated tensors only.
static void checkReplicated(const Tensor &t, const char *what) {
  for (const auto &r : t.regions())
    if (r.replica != kLocalReplica)
      throw poplar_error(std::string(what) + "(" + describe(t) + "): the tensor names the elements of specific "
                         "replicas (getNonReplicatedTensor); call it with the replicated tensor");
}

Graph::~Graph() = default;
Graph::Graph(const Graph &o) = default;
Graph &Graph::operator=(const Graph &o) = default;

const Target &Graph::getTarget() const { return target_; }
GraphImpl &Graph::impl() const { return *impl_; }

// Throws graph_connection_error unless `t` is a tensor of `g`. `what` names the call for the message; it is any
// callable returning it, so a caller whose name is built (connect's field) pays for the string only on failure.
template <typename What> static void checkTensor(const GraphImpl &g, const Tensor &t, What &&what) {
  if (t.valid() && t.graphImpl() == &g)
    return;
  throw graph_connection_error(std::string(what()) + (t.valid() ? ": the tensor belongs to another graph"
                                                                : ": the tensor is invalid (default-constructed)"));
}

static void checkTensor(const GraphImpl &g, const Tensor &t, const char *what) {
  checkTensor(g, t, [what] { return what; });
}

Tensor Graph::addVariable(const Type &type, const std::vector<std::size_t> &shape, const DebugContext &debugContext) {
  return addVariable(type, Tensor(), shape, debugContext);
}

Tensor Graph::addVariable(const Type &type, const Tensor &metadata, const std::vector<std::size_t> &shape,
                          const DebugContext &debugContext) {
  const std::string debugName = debugContext.getPathName();
  if (!type.isValid())
    throw poplar_error("addVariable(" + debugName + "): invalid element type");
  if (metadata.valid() && type != QUARTER)
    throw poplar_error("addVariable(" + debugName + "): only QUARTER variables take metadata; pass {} for " +
                       type.toString());
  if (metadata.valid() && metadata.elementType() != QUARTER_METADATA)
    throw poplar_error("addVariable(" + debugName + "): the metadata must be a QUARTER_METADATA tensor, not " +
                       metadata.elementType().toString());
  Variable v;
  v.name = debugName.empty() ? "var" + std::to_string(impl_->vars.size()) : debugName;
  v.type = type;
  v.shape = shape;
  v.numElements = 1;
  for (std::size_t d : shape)
    v.numElements *= d;
  v.mapping = IntervalMap(v.numElements);
  unsigned id = unsigned(impl_->vars.size());
  impl_->vars.push_back(std::move(v));
  auto regions = std::make_shared<std::vector<VarRegion>>();
  if (impl_->vars[id].numElements)
    regions->push_back(VarRegion{id, 0, impl_->vars[id].numElements, kLocalReplica});
  Tensor t(impl_.get(), type, shape, regions);
  if (metadata.valid()) {
    impl_->vars[id].metadata = std::make_shared<Tensor>(metadata);
  } else if (type == QUARTER) {
    // As Poplar does, a QUARTER variable made without metadata gets a metadata variable of its own (value unset
    // until a program or the host writes it), so getMetadata, casts and host transfers with metadata work. It
    // sits on tile 0, where createVariableMetadataTensor puts one; the caller may map it elsewhere.
    Tensor md = addVariable(QUARTER_METADATA, {1}, {debugContext, "metadata"});
    setTileMapping(md, 0);
    impl_->vars[id].metadata = std::make_shared<Tensor>(md);
  }
  return t;
}

Tensor Graph::addVariable(const Type &type, const std::vector<std::size_t> &shape, VariableMappingMethod mapping,
                          const DebugContext &debugContext) {
  return mapping == VariableMappingMethod::LINEAR ? addLinearlyMappedVariable(type, shape, debugContext)
                                                  : addVariable(type, shape, debugContext);
}

Tensor Graph::addLinearlyMappedVariable(const Type &type, const std::vector<std::size_t> &shape,
                                        const DebugContext &debugContext) {
  Tensor t = addVariable(type, shape, debugContext);
  Tensor flat = t.flatten();
  std::size_t n = flat.numElements(), tiles = target_.getNumTiles();
  std::size_t per = (n + tiles - 1) / tiles;
  for (std::size_t tile = 0; per > 0 && tile * per < n; ++tile)
    setTileMapping(flat.slice(tile * per, std::min(n, (tile + 1) * per)), unsigned(tile));
  return t;
}

namespace {
/// Converts one host value (kind as Graph::hostKind) to `type`'s device bytes at `out`.
void convertValue(const void *in, std::size_t hostSize, int kind, const Type &type, std::uint8_t *out) {
  double d = 0;
  long long s = 0;
  unsigned long long u = 0;
  bool isInt = false, isUnsigned = false;
  switch (kind) {
  case 0: { float f; std::memcpy(&f, in, 4); d = f; break; }
  case 1: { double x; std::memcpy(&x, in, 8); d = x; break; }
  case 2: { if (hostSize == 1) s = *static_cast<const signed char *>(in);
            else if (hostSize == 2) { short x; std::memcpy(&x, in, 2); s = x; }
            else if (hostSize == 4) { int x; std::memcpy(&x, in, 4); s = x; }
            else std::memcpy(&s, in, 8);
            isInt = true; d = double(s); break; }
  default: { if (hostSize == 1) u = *static_cast<const unsigned char *>(in);
             else if (hostSize == 2) { unsigned short x; std::memcpy(&x, in, 2); u = x; }
             else if (hostSize == 4) { unsigned x; std::memcpy(&x, in, 4); u = x; }
             else std::memcpy(&u, in, 8);
             isUnsigned = true; d = double(u); s = (long long)u; break; }
  }
  long long iv = isInt || isUnsigned ? s : (long long)d;
  switch (type.id()) {
  case 0: { float f = float(d); std::memcpy(out, &f, 4); break; }
  case 1: { std::uint16_t h = doubleToHalf(d); std::memcpy(out, &h, 2); break; } // one rounding
  case 2: case 3: { std::uint32_t x = std::uint32_t(iv); std::memcpy(out, &x, 4); break; }
  case 4: case 5: { std::uint16_t x = std::uint16_t(iv); std::memcpy(out, &x, 2); break; }
  case 8: out[0] = d != 0; break;
  case kTypeLong: case kTypeUnsignedLong: case kTypeLongLong: case kTypeUnsignedLongLong: {
    std::uint64_t x = std::uint64_t(iv);
    std::memcpy(out, &x, 8);
    break;
  }
  case kTypeQuarterMetadata:
    // The metadata byte itself (QuarterMetadata::getBinary), as createVariableMetadataTensor gives it.
    if (iv < 0 || iv > 255)
      throw poplar_error("a QUARTER_METADATA value is one metadata byte (QuarterMetadata::getBinary), 0 to 255; got " +
                         std::to_string(iv));
    out[0] = std::uint8_t(iv);
    break;
  case kTypeQuarter:
    throw poplar_error("values of type " + type.toString() + " cannot be given from the host here: an fp8 value "
                       "needs its metadata (format and scale), which this emulator does not model; create the "
                       "tensor in half or float");
  default: out[0] = std::uint8_t(iv); break;
  }
}
} // namespace

Tensor Graph::addConstantFrom(const Type &type, const std::vector<std::size_t> &shape, const void *values,
                              std::size_t count, std::size_t hostSize, int hostKind, const DebugContext &debugContext) {
  const std::string debugName = debugContext.getPathName();
  Tensor t = addVariable(type, shape, debugName.empty() ? "constant" + std::to_string(impl_->vars.size()) : debugName);
  Variable &v = impl_->vars.back();
  v.constant = true;
  if (count != 1 && count != v.numElements)
    throw poplar_error("addConstant(" + v.name + "): " + std::to_string(count) + " values given for " +
                       std::to_string(v.numElements) + " elements");
  std::size_t es = type.getSize();
  v.init.assign(v.numElements * es, 0);
  for (std::size_t i = 0; i < v.numElements; ++i)
    convertValue(static_cast<const std::uint8_t *>(values) + (count == 1 ? 0 : i) * hostSize, hostSize, hostKind,
                 type, v.init.data() + i * es);
  return t;
}

Tensor Graph::addReplicationIndexConstant(const DebugContext &debugContext) {
  const std::string name = debugContext.getPathName();
  Tensor t = addConstant<unsigned>(UNSIGNED_INT, {}, 0u, name.empty() ? "replicationIndex" : name);
  impl_->vars.back().replicationIndex = true;
  return t;
}

void Graph::setTileMapping(const Tensor &t, unsigned tile) {
  checkTensor(*impl_, t, "setTileMapping");
  checkReplicated(t, "setTileMapping");
  unsigned tiles = target_.getNumTiles();
  if (tile >= tiles)
    throw poplar_error("setTileMapping(" + describe(t) + ", " + std::to_string(tile) + "): the graph has tiles 0.." +
                       std::to_string(tiles - 1));
  for (const auto &r : t.regions())
    impl_->vars[r.var].mapping.assign(r.begin, r.end, physicalTile(tile));
}

void Graph::setTileMapping(VertexRef v, unsigned tile) {
  if (v.graphImpl() != impl_.get() || v.getId() >= impl_->vertices.size())
    throw graph_connection_error("setTileMapping: the vertex does not belong to this graph");
  unsigned tiles = target_.getNumTiles();
  if (tile >= tiles)
    throw poplar_error("setTileMapping(vertex " + std::to_string(v.getId()) + ", " + std::to_string(tile) +
                       "): the graph has tiles 0.." + std::to_string(tiles - 1));
  impl_->vertices[v.getId()].tile = physicalTile(tile);
}

void Graph::setTileMapping(const Tensor &t, const TileToTensorMapping &mapping) {
  checkTensor(*impl_, t, "setTileMapping");
  Tensor flat = t.flatten();
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const Interval &i : mapping[tile])
      setTileMapping(flat.slice(i.begin(), i.end()), tile);
}

TileToTensorMapping Graph::getTileMapping(const Tensor &t, bool requireComplete) const {
  checkTensor(*impl_, t, "getTileMapping");
  TileToTensorMapping out(target_.getNumTiles());
  std::size_t pos = 0, steps = 0;
  for (const auto &r : t.regions()) {
    // Only the mapping runs this region overlaps: a broadcast or transposed view has a region per element, and
    // walking the whole map for each made the write of popops::sequenceSlice quadratic.
    const detail::IntervalMap &mapping = impl_->vars[r.var].mapping;
    steps += 1 + mapping.forEachIn(r.begin, r.end, [&](std::size_t lo, std::size_t hi, unsigned tile) {
      // Replica r's copy of an element lives r replicas' worth of tiles further on (compiler/replicate.cpp).
      if (tile != kUnmapped && r.replica != kLocalReplica)
        tile += r.replica * (impl_->target.getNumTiles() / impl_->replicationFactor);
      unsigned local = tile == kUnmapped ? kUnmapped : localTile(tile);
      if (local == kUnmapped || local >= out.size()) {
        if (requireComplete && tile == kUnmapped)
          throw poplar_error("getTileMapping(" + describe(t) + "): elements of " + impl_->vars[r.var].name + " [" +
                             std::to_string(lo) + ", " + std::to_string(hi) + ") are not mapped to a tile");
        return;
      }
      auto &list = out[local];
      std::size_t fb = pos + (lo - r.begin), fe = pos + (hi - r.begin);
      if (!list.empty() && list.back().end() == fb)
        list.back() = Interval(list.back().begin(), fe);
      else
        list.emplace_back(fb, fe);
    });
    pos += r.end - r.begin;
  }
  detail::countViewSteps(steps);
  return out;
}

unsigned Graph::getTileMapping(VertexRef v) const {
  unsigned t = impl_->vertices.at(v.getId()).tile;
  return t == kUnmapped ? t : localTile(t);
}

ComputeSet Graph::addComputeSet(const DebugContext &debugContext) {
  impl_->computeSets.push_back(ComputeSetInfo{debugContext.getPathName(), {}});
  return ComputeSet(impl_.get(), unsigned(impl_->computeSets.size() - 1));
}

namespace detail {

// The tile compiler's spelling of a template argument that poplar::Type::toString() (and so
// poputil::templateVertex) spells otherwise.
static std::string compilerSpelling(const std::string &arg) {
  static const std::map<std::string, std::string> kSpellings = {
      {"short", "short int"},           {"unsigned short", "short unsigned int"}, {"unsigned", "unsigned int"},
      {"long", "long int"},             {"unsigned long", "long unsigned int"},   {"long long", "long long int"},
      {"unsigned long long", "long long unsigned int"}};
  auto it = kSpellings.find(arg);
  return it == kSpellings.end() ? arg : it->second;
}

// A vertex class name as a comparison key: the template arguments (top level) trimmed, spelled as the tile
// compiler spells them and joined by "," alone. popc records "ns::V<short unsigned int, half>";
// poputil::templateVertex writes "ns::V<unsigned short,half>": both give the same key.
std::string vertexNameKey(const std::string &name) {
  const std::size_t open = name.find('<'), close = name.rfind('>');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return name;
  std::string key = name.substr(0, open + 1), arg;
  int depth = 0;
  auto flush = [&](char sep) {
    const std::size_t b = arg.find_first_not_of(' '), e = arg.find_last_not_of(' ');
    key += compilerSpelling(b == std::string::npos ? std::string() : arg.substr(b, e - b + 1)) + sep;
    arg.clear();
  };
  for (std::size_t i = open + 1; i < close; ++i) {
    const char c = name[i];
    depth += c == '<' ? 1 : c == '>' ? -1 : 0;
    if (c == ',' && depth == 0)
      flush(',');
    else
      arg += c;
  }
  flush('>');
  return key + name.substr(close + 1);
}

} // namespace detail

namespace {
// A new vertex of `vertexType` in compute set `cs` of `g`, of the kind `external` says (addVertex: ordinary,
// addExternalExchangeVertex: external exchange).
VertexRef newVertex(GraphImpl &g, ComputeSet cs, const std::string &vertexType, bool external) {
  if (cs.graphImpl() != &g || cs.getId() >= g.computeSets.size())
    throw graph_connection_error(std::string(external ? "addExternalExchangeVertex(" : "addVertex(") + vertexType +
                                 "): the compute set does not belong to this graph");
  detail::checkExternalExchangeMix(g, cs.getId(), external, vertexType);
  Vertex v;
  v.computeSet = cs.getId();
  v.type = vertexType;
  v.externalExchange = external;
  // The SDK's CPU target runs every vertex on its one tile: programs written for it never map vertices. Start
  // them on the first tile (setTileMapping still moves one, e.g. to another IPU's tile of a multi-IPU CPU target).
  if (g.target.getTargetType() == TargetType::CPU)
    v.tile = 0;
  // A class template instance named with other spacing or type spellings (poputil::templateVertex's) is the class
  // the codelets define under the compiler's name.
  if (vertexType.find('<') != std::string::npos && !g.codelets.classes.count(vertexType)) {
    const std::string key = detail::vertexNameKey(vertexType);
    for (const auto &kv : g.codelets.classes)
      if (detail::vertexNameKey(kv.first) == key) {
        v.type = kv.first;
        break;
      }
  }
  unsigned id = unsigned(g.vertices.size());
  g.vertices.push_back(std::move(v));
  g.computeSets[cs.getId()].vertices.push_back(id);
  return VertexRef(&g, id);
}
} // namespace

VertexRef Graph::addVertex(ComputeSet cs, const std::string &vertexType) {
  return newVertex(*impl_, cs, vertexType, false);
}

VertexRef Graph::addExternalExchangeVertex(ComputeSet cs, StringRef vertexType, unsigned incomingDownCount,
                                           bool usesEastEdge, bool sendsXReq) {
  VertexRef v = newVertex(*impl_, cs, vertexType, true);
  detail::Vertex &vx = impl_->vertices[v.getId()];
  vx.incomingDownCount = incomingDownCount;
  vx.usesEastEdge = usesEastEdge;
  vx.sendsXReq = sendsXReq;
  return v;
}

VertexRef Graph::addVertex(ComputeSet cs, const std::string &vertexType,
                           const std::vector<ConnectionDesc> &connections) {
  VertexRef v = addVertex(cs, vertexType);
  for (const auto &c : connections) {
    switch (c.kind) {
    case ConnectionDesc::Kind::Tensor:
      connect(v[c.field], c.tensor);
      break;
    case ConnectionDesc::Kind::Vector:
      connect(v[c.field], c.tensors);
      break;
    case ConnectionDesc::Kind::Value:
      setInitialValueBytes(v[c.field], c.value.data(), c.value.size());
      break;
    }
  }
  return v;
}

void Graph::connect(FieldRef field, const std::vector<Tensor> &tensors) {
  setFieldSize(field, tensors.size());
  for (std::size_t i = 0; i < tensors.size(); ++i)
    connect(field[i], tensors[i]);
}

void Graph::connect(FieldRef field, const Tensor &t) {
  if (field.graphImpl() != impl_.get() || field.vertexId() >= impl_->vertices.size())
    throw graph_connection_error("connect(" + field.name() + "): the vertex does not belong to this graph");
  checkTensor(*impl_, t, [&field] { return "connect(field '" + field.name() + "')"; });
  Vertex &v = impl_->vertices[field.vertexId()];
  if (field.index() != ~std::size_t(0)) {
    auto &items = v.lists[field.name()];
    if (field.index() >= items.size())
      throw graph_connection_error("connect(" + v.type + "." + field.name() + "[" + std::to_string(field.index()) +
                                   "]): the VectorList has " + std::to_string(items.size()) +
                                   " items; call graph.setFieldSize(vertex[\"" + field.name() + "\"], n) first");
    items[field.index()] = t;
  } else {
    v.edges[field.name()] = t;
  }
}

void Graph::setFieldSize(FieldRef field, std::size_t size) {
  if (field.graphImpl() != impl_.get() || field.vertexId() >= impl_->vertices.size())
    throw graph_connection_error("setFieldSize(" + field.name() + "): the vertex does not belong to this graph");
  Vertex &v = impl_->vertices[field.vertexId()];
  auto cls = impl_->codelets.classes.find(v.type);
  if (cls != impl_->codelets.classes.end()) {
    auto f = cls->second.fields.find(field.name());
    if (f == cls->second.fields.end())
      throw graph_connection_error("setFieldSize(" + v.type + "." + field.name() + "): the vertex class has no "
                                   "field '" + field.name() + "'");
    if (f->second.kind != FieldKind::List)
      throw graph_connection_error("setFieldSize(" + v.type + "." + field.name() + ", " + std::to_string(size) +
                                   "): only a VectorList field has a size to set; this field is " +
                                   (f->second.kind == FieldKind::Vector ? "a Vector (its size is the size of the "
                                                                          "tensor you connect)"
                                                                        : "a scalar"));
  }
  v.lists[field.name()].resize(size);
}

void Graph::setInitialValueBytes(FieldRef field, const void *value, std::size_t size) {
  Vertex &v = impl_->vertices.at(field.vertexId());
  const auto *p = static_cast<const std::uint8_t *>(value);
  v.plain[field.name()].assign(p, p + size);
}

void Graph::setInitialValueFrom(const Tensor &t, const void *values, std::size_t count, std::size_t hostSize,
                                int hostKind) {
  checkTensor(*impl_, t, "setInitialValue");
  checkReplicated(t, "setInitialValue");
  if (count != 1 && count != t.numElements())
    throw poplar_error("setInitialValue(" + describe(t) + "): " + std::to_string(count) + " values given for " +
                       std::to_string(t.numElements()) + " elements; give one value per element");
  std::size_t es = t.elementType().getSize(), i = 0;
  for (const auto &r : t.regions()) {
    Variable &v = impl_->vars[r.var];
    if (v.constant)
      throw poplar_error("setInitialValue(" + describe(t) + "): '" + v.name + "' is a constant; constants take "
                         "their values from addConstant");
    if (v.init.empty())
      v.init.assign(v.numElements * es, 0);
    for (std::size_t e = r.begin; e < r.end; ++e, ++i)
      convertValue(static_cast<const std::uint8_t *>(values) + (count == 1 ? 0 : i) * hostSize, hostSize, hostKind,
                   t.elementType(), v.init.data() + e * es);
  }
}

void Graph::setPerfEstimate(VertexRef v, std::uint64_t cycles, std::uint64_t flops) {
  auto &vx = impl_->vertices.at(v.getId());
  vx.cycleEstimate = cycles;
  vx.flopsEstimate = flops;
  vx.hasEstimate = true;
}

void Graph::registerPerfEstimator(const std::string &vertexTypeName, PerfEstimateFunc f) {
  // Keyed as addVertex matches names, so poputil::templateVertex's spelling ("V<char,float>") finds the class
  // the compiler names "V<char, float>".
  impl_->perfEstimators[detail::vertexNameKey(vertexTypeName)] = std::move(f);
}

void Graph::registerCycleEstimator(const std::string &vertexTypeName, CycleEstimateFunc f) {
  if (!f)
    throw poplar_error("registerCycleEstimator(" + vertexTypeName + "): the estimator is empty; pass a function");
  registerPerfEstimator(vertexTypeName, [f](const VertexIntrospector &v, const Target &t) {
    return VertexPerfEstimate(f(v, t));
  });
}

std::uint64_t Graph::getCycleEstimate(const VertexRef &v) const { return getPerfEstimate(v).cycles; }

VertexPerfEstimate Graph::getPerfEstimate(const VertexRef &v) const {
  if (v.getId() >= impl_->vertices.size())
    throw poplar_error("getPerfEstimate: vertex " + std::to_string(v.getId()) + " is not in this graph");
  return detail::vertexPerfEstimate(*impl_, v.getId());
}

bool Graph::addCodelets(const std::string &path, CodeletFileType type, const std::string &compileFlags) {
  if (!std::filesystem::exists(path))
    throw graph_object_load_error("addCodelets: no file '" + path + "' (relative paths start at the current "
                                  "directory " + std::filesystem::current_path().string() + ")");
  // Auto keeps this emulator's rule (a .gp is an object, anything else C++ source), so a codelet file with an
  // unusual extension still compiles as C++; only C++ and objects can be used here.
  if (type != CodeletFileType::Auto && type != CodeletFileType::CppSource && type != CodeletFileType::Object)
    throw graph_object_load_error("addCodelets(" + path + "): this emulator compiles C++ codelets (CppSource) and "
                                  "loads compiled objects (Object) only, not " + getLanguageOption(type) +
                                  " files; write the codelet in C++ or compile it to a .gp with popc");
  bool object = type == CodeletFileType::Object ||
                (type == CodeletFileType::Auto && std::filesystem::path(path).extension() == ".gp");
  const auto &b = target_.values().board;
  std::string gp = object ? path : compileCodelets(path, compileFlags, b.isa, b.abi);
  std::string canon = std::filesystem::canonical(gp).string();
  for (const auto &o : impl_->codelets.objects)
    if (o == canon)
      return false;
  std::vector<VertexClass> classes = readVertexClasses(canon);
  for (const auto &c : classes)
    if (impl_->codelets.classes.count(c.name))
      throw graph_object_load_error("addCodelets(" + path + "): vertex class '" + c.name +
                                    "' is already defined by another codelet file; rename one of them");
  for (auto &c : classes)
    impl_->codelets.classes[c.name] = c;
  impl_->codelets.objects.push_back(canon);
  return true;
}

void Graph::addCodelets(const std::vector<std::string> &paths, const std::string &compileFlags) {
  for (const auto &p : paths)
    addCodelets(p, CodeletFileType::Auto, compileFlags);
}

Tensor Graph::addExternalVariable(const Type &type, ArrayRef<std::size_t> shape, StringRef name,
                                  const DebugContext &debugContext) {
  const std::string handle = name;
  if (handle.empty())
    throw poplar_error("addExternalVariable: the name is empty; give the name the host reaches the variable by");
  if (impl_->handles.count(HostHandleKey{handle, true}) || impl_->handles.count(HostHandleKey{handle, false}))
    throw poplar_error("addExternalVariable: a host handle '" + handle +
                       "' already exists; give each external variable a name of its own");
  Tensor t = addVariable(type, std::vector<std::size_t>(shape.begin(), shape.end()),
                         DebugContext(debugContext, handle));
  createHostWrite(handle, t);
  createHostRead(handle, t);
  return t;
}

void Graph::createHostWrite(const std::string &handle, const Tensor &t, bool) {
  checkTensor(*impl_, t, "createHostWrite");
  if (!impl_->handles.emplace(HostHandleKey{handle, true}, HostHandle{t}).second)
    throw poplar_error("createHostWrite: host-write handle '" + handle + "' already exists");
  if (t.elementType() == QUARTER && t.hasMetadata())
    impl_->handles.emplace(HostHandleKey{kMetadataHandlePrefix + handle, true}, HostHandle{t.getMetadata()});
}

void Graph::createHostRead(const std::string &handle, const Tensor &t, bool) {
  checkTensor(*impl_, t, "createHostRead");
  if (!impl_->handles.emplace(HostHandleKey{handle, false}, HostHandle{t}).second)
    throw poplar_error("createHostRead: host-read handle '" + handle + "' already exists");
  if (t.elementType() == QUARTER && t.hasMetadata())
    impl_->handles.emplace(HostHandleKey{kMetadataHandlePrefix + handle, false}, HostHandle{t.getMetadata()});
}

static DataStream addStream(GraphImpl &g, const std::string &handle, const Type &type, std::size_t n,
                            DataStreamType dir, bool broadcast = false) {
  for (const auto &s : g.streams)
    if (s.name == handle)
      throw poplar_error("stream '" + handle + "' already exists; give each stream its own name");
  // A stream of 0 elements is allowed (as in the SDK): its copies move nothing and its connections are accepted.
  g.streams.push_back(StreamInfo{handle, type, n, dir, broadcast});
  return DataStream(&g, unsigned(g.streams.size() - 1));
}

DataStream Graph::addHostToDeviceFIFO(const std::string &handle, const Type &type, std::size_t numElements,
                                     ReplicatedStreamMode mode, const OptionFlags &) {
  return addStream(*impl_, handle, type, numElements, DataStreamType::HostToDeviceFIFO,
                   mode == ReplicatedStreamMode::BROADCAST);
}

DataStream Graph::addDeviceToHostFIFO(const std::string &handle, const Type &type, std::size_t numElements,
                                     const OptionFlags &) {
  return addStream(*impl_, handle, type, numElements, DataStreamType::DeviceToHostFIFO);
}

namespace detail {
unsigned addErrorStream(GraphImpl &g, const std::string &message, const Tensor &t) {
  std::string name = "__error/" + std::to_string(g.errorStreams.size());
  unsigned id = addStream(g, name, t.elementType(), t.numElements(), DataStreamType::DeviceToHostFIFO).getId();
  g.errorStreams.push_back(ErrorStreamInfo{id, message, t.shape()});
  return id;
}
} // namespace detail

unsigned Graph::physicalTile(unsigned tile) const { return tiles_.empty() ? tile : tiles_.at(tile); }

unsigned Graph::localTile(unsigned physical) const {
  if (tiles_.empty())
    return physical;
  for (std::size_t i = 0; i < tiles_.size(); ++i)
    if (tiles_[i] == physical)
      return unsigned(i);
  return kUnmapped;
}

Graph Graph::createVirtualGraph(unsigned lowerTile, unsigned upperTile) {
  if (lowerTile >= upperTile || upperTile > target_.getNumTiles())
    throw poplar_error("createVirtualGraph(" + std::to_string(lowerTile) + ", " + std::to_string(upperTile) +
                       "): the range must be non-empty and inside tiles 0.." +
                       std::to_string(target_.getNumTiles()));
  std::vector<unsigned> tiles;
  for (unsigned t = lowerTile; t < upperTile; ++t)
    tiles.push_back(t);
  return createVirtualGraph(tiles);
}

Graph Graph::createVirtualGraph(unsigned numTilesPerIPU) {
  return createVirtualGraph(0, numTilesPerIPU);
}

Graph Graph::createVirtualGraph(const std::vector<unsigned> &perIpuTiles) {
  if (perIpuTiles.empty())
    throw poplar_error("createVirtualGraph: the tile list is empty; name at least one tile");
  std::vector<unsigned> physical;
  for (unsigned t : perIpuTiles) {
    if (t >= target_.getNumTiles())
      throw poplar_error("createVirtualGraph: tile " + std::to_string(t) + " is not in this graph (tiles 0.." +
                         std::to_string(target_.getNumTiles() - 1) + ")");
    unsigned p = physicalTile(t);
    for (unsigned q : physical)
      if (q == p)
        throw poplar_error("createVirtualGraph: tile " + std::to_string(t) + " is listed twice");
    physical.push_back(p);
  }
  Graph g(*this);
  g.target_ = target_.createVirtualTarget(1, unsigned(physical.size()));
  g.tiles_ = physical;
  return g;
}

RemoteBuffer Graph::addRemoteBuffer(const std::string &handle, const Type &elementType, std::size_t numElements,
                                    std::size_t repeats, bool rearrangeOnHost, bool optimiseMemory) {
  for (const auto &rb : impl_->remoteBuffers)
    if (rb.name == handle)
      throw poplar_error("addRemoteBuffer: remote buffer '" + handle + "' already exists; give each its own name");
  if (numElements == 0 || repeats == 0)
    throw poplar_error("addRemoteBuffer('" + handle + "'): numElements and repeats must be at least 1");
  if (repeats > 0xffffffffu)
    throw poplar_error("addRemoteBuffer('" + handle + "'): at most 4294967295 repeats (the offset is 32-bit)");
  const std::string base = std::string(detail::kRemoteStreamPrefix) + handle;
  RemoteBufferInfo info;
  info.name = handle;
  info.type = elementType;
  info.numElements = numElements;
  info.repeats = repeats;
  info.rearrangeOnHost = rearrangeOnHost;
  info.optimiseMemory = optimiseMemory;
  info.offsetStream = addStream(*impl_, base + "/offset", UNSIGNED_INT, 1, DataStreamType::DeviceToHostFIFO).getId();
  info.toDeviceStream = addStream(*impl_, base + "/read", elementType, numElements,
                                  DataStreamType::HostToDeviceFIFO).getId();
  info.toHostStream = addStream(*impl_, base + "/write", elementType, numElements,
                                DataStreamType::DeviceToHostFIFO).getId();
  impl_->remoteBuffers.push_back(info);
  return RemoteBuffer(impl_.get(), unsigned(impl_->remoteBuffers.size() - 1));
}

Function Graph::addFunction(const program::Program &program) { return Function(program, impl_->functionsAdded++); }

FunctionBuffer Graph::addFunctionBuffer(const Function &f, FunctionBufferMappingType) {
  if (f.getId() >= impl_->functionsAdded)
    throw poplar_error("addFunctionBuffer: function " + std::to_string(f.getId()) + " was not made by this graph; "
                       "pass a Function that graph.addFunction returned");
  return FunctionBuffer(impl_->functionBuffersAdded++, f.getId());
}

HostFunction Graph::addHostFunction(StringRef handleRef, ArrayRef<HostFunctionArgument> inputs,
                                    ArrayRef<HostFunctionArgument> outputs) {
  const std::string handle = handleRef;
  if (handle.empty())
    throw poplar_error("addHostFunction: the handle is empty; name the function (Engine::connectHostFunction finds "
                       "it by that name)");
  for (const auto &f : impl_->hostFunctions)
    if (f.name == handle)
      throw poplar_error("addHostFunction: host function '" + handle + "' already exists; give each its own name");
  const auto check = [&](ArrayRef<HostFunctionArgument> args, const char *what) {
    for (std::size_t i = 0; i < args.size(); ++i)
      if (args[i].size == 0)
        throw poplar_error("addHostFunction('" + handle + "'): " + what + " " + std::to_string(i) +
                           " has 0 elements; give every argument at least one element");
  };
  check(inputs, "input");
  check(outputs, "output");
  const std::string base = std::string(detail::kHostFunctionStreamPrefix) + handle;
  HostFunctionInfo info;
  info.name = handle;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    info.inputStreams.push_back(addStream(*impl_, base + "/in/" + std::to_string(i), inputs[i].type, inputs[i].size,
                                          DataStreamType::DeviceToHostFIFO).getId());
  for (std::size_t i = 0; i < outputs.size(); ++i)
    info.outputStreams.push_back(addStream(*impl_, base + "/out/" + std::to_string(i), outputs[i].type,
                                           outputs[i].size, DataStreamType::HostToDeviceFIFO).getId());
  info.callStream = addStream(*impl_, base + "/call", UNSIGNED_INT, 1, DataStreamType::DeviceToHostFIFO).getId();
  impl_->hostFunctions.push_back(info);
  return HostFunction(impl_.get(), unsigned(impl_->hostFunctions.size() - 1));
}

} // namespace poplar
