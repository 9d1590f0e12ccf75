// The IPU Model's time model: vertex estimates, compute sets under the barrel, exchanges, syncs, and whole programs.
// Formulas and their sources are in docs/time-model.md.
#include "time_model.hpp"

#include <algorithm>
#include <vector>
#include <tuple>
#include <unordered_map>

#include "poplar/VertexIntrospector.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

namespace {

// The device bytes of an edge connected to one region of a graph constant (Graph::addConstant), so that an
// estimator can read values the graph fixes, such as popops' MapInterpreter reading its expression code; empty for
// a variable or a tensor made of several pieces.
std::vector<unsigned char> constantBytes(const detail::GraphImpl &g, const Tensor &t) {
  const auto &regions = t.regions();
  if (regions.size() != 1 || regions[0].var >= g.vars.size())
    return {};
  const detail::Variable &var = g.vars[regions[0].var];
  const std::size_t size = t.elementType().getSize();
  if (!var.constant || var.init.size() < regions[0].end * size)
    return {};
  return std::vector<unsigned char>(var.init.begin() + regions[0].begin * size,
                                    var.init.begin() + regions[0].end * size);
}

} // namespace

FieldData VertexIntrospector::getFieldInfo(const std::string &name) const {
  const auto &g = *static_cast<const detail::GraphImpl *>(graph_);
  const auto &vx = g.vertices.at(vertex_);
  if (auto e = vx.edges.find(name); e != vx.edges.end())
    return FieldData(1, e->second.numElements(), {}, constantBytes(g, e->second), name);
  if (auto l = vx.lists.find(name); l != vx.lists.end()) {
    // The items' constant values one after the other (FieldData::getInitialValues<std::vector<T>>), or none when
    // any non-empty item is not a piece of a graph constant.
    std::vector<std::size_t> sizes;
    std::vector<unsigned char> bytes;
    bool allConstant = true;
    for (const Tensor &t : l->second) {
      sizes.push_back(t.numElements());
      const std::vector<unsigned char> item = constantBytes(g, t);
      allConstant = allConstant && (t.numElements() == 0 || !item.empty());
      bytes.insert(bytes.end(), item.begin(), item.end());
    }
    return FieldData(2, sizes.size(), sizes, allConstant ? bytes : std::vector<unsigned char>(), name);
  }
  if (auto p = vx.plain.find(name); p != vx.plain.end())
    return FieldData(0, 1, {}, std::vector<unsigned char>(p->second.begin(), p->second.end()), name);
  throw unknown_field("VertexIntrospector::getFieldInfo: vertex type '" + vx.type + "' has no connected field '" +
                      name + "'");
}

ComputeSet VertexIntrospector::getComputeSet() const {
  const auto &g = *static_cast<const detail::GraphImpl *>(graph_);
  return ComputeSet(const_cast<detail::GraphImpl *>(&g), g.vertices.at(vertex_).computeSet);
}

std::string VertexIntrospector::getClassName() const {
  return static_cast<const detail::GraphImpl *>(graph_)->vertices.at(vertex_).type;
}

namespace detail {

namespace {

// Elements and element size of a vertex's edges in one direction (inputs: In and InOut; outputs: Out and InOut).
struct EdgeTotals {
  std::uint64_t in = 0, out = 0;
  unsigned elemBytes = 4;
};

EdgeTotals edgeTotals(const GraphImpl &g, unsigned v) {
  const Vertex &vx = g.vertices[v];
  const VertexClass *vc = nullptr;
  auto it = g.codelets.classes.find(vx.type);
  if (it != g.codelets.classes.end())
    vc = &it->second;
  EdgeTotals t;
  auto add = [&](const std::string &name, const Tensor &x) {
    FieldDir dir = FieldDir::In;
    if (vc)
      if (auto f = vc->fields.find(name); f != vc->fields.end())
        dir = f->second.dir;
    std::uint64_t n = x.numElements();
    if (dir == FieldDir::In || dir == FieldDir::InOut)
      t.in += n;
    if (dir == FieldDir::Out || dir == FieldDir::InOut)
      t.out += n;
    if (n > 1)
      t.elemBytes = std::max(1u, unsigned(x.elementType().getSize()));
  };
  for (const auto &[name, x] : vx.edges)
    add(name, x);
  for (const auto &[name, xs] : vx.lists)
    for (const Tensor &x : xs)
      add(name, x);
  return t;
}

// The default's loop: a fixed overhead plus one pass of `cyclesPerVector` per vector of the data path (PopLibs'
// basic loop form, which the libraries' estimators share in poplibs_support).
std::uint64_t loopCycles(std::uint64_t overhead, std::uint64_t elems, std::uint64_t vectorWidth,
                         std::uint64_t cyclesPerVector) {
  vectorWidth = std::max<std::uint64_t>(1, vectorWidth);
  return overhead + (elems + vectorWidth - 1) / vectorWidth * cyclesPerVector;
}

// A MultiVertex's workers share its work; any other vertex runs on one worker.
bool isMultiVertex(const GraphImpl &g, const std::string &type) {
  auto it = g.codelets.classes.find(type);
  return it != g.codelets.classes.end() && it->second.workers > 0;
}

// Elements of `elemBytes` per data-path vector; a target that does not say has the IPU's 64-bit data path.
std::uint64_t dataPathElements(const GraphImpl &g, unsigned elemBytes) {
  const unsigned bits = g.target.getDataPathWidth() ? g.target.getDataPathWidth() : 64;
  return std::max(1u, bits / (8 * elemBytes));
}

// The estimator registered for vertex type `type`, or null.
const PerfEstimateFunc *findEstimator(const GraphImpl &g, const std::string &type) {
  auto it = g.perfEstimators.find(vertexNameKey(type));
  return it != g.perfEstimators.end() && it->second ? &it->second : nullptr;
}

// vertexPerfEstimate with the vertex type's estimator already found (`f`, null for none).
VertexPerfEstimate estimateWith(const GraphImpl &g, unsigned v, const PerfEstimateFunc *f) {
  const Vertex &vx = g.vertices.at(v);
  if (vx.hasEstimate)
    return VertexPerfEstimate(vx.cycleEstimate, vx.flopsEstimate);
  if (f)
    return (*f)(VertexIntrospector(&g, v), g.target);
  // No estimate (docs/time-model.md): the data-path default, one pass over its inputs and outputs. poplar's own
  // vertices (the cycle stamps of CycleCount.hpp) are charged this way too; the PopLibs libraries register theirs.
  const EdgeTotals e = edgeTotals(g, v);
  return VertexPerfEstimate(loopCycles(20, e.in + e.out, dataPathElements(g, e.elemBytes), 1));
}

} // namespace

VertexPerfEstimate vertexPerfEstimate(const GraphImpl &g, unsigned v) {
  return estimateWith(g, v, findEstimator(g, g.vertices.at(v).type));
}

CycleEstimates estimateCycles(const GraphImpl &g) {
  const unsigned numTiles = g.target.getNumTiles();
  const unsigned workers = std::max(1u, g.target.getNumWorkerContexts());
  CycleEstimates ce;
  ce.vertex.assign(g.vertices.size(), 0); // a vertex off the target's tiles has no estimate (never asked for)
  std::vector<std::vector<std::uint64_t>> &out = ce.tile;
  out.resize(g.computeSets.size());
  // Flat per-tile worker slots, shared by every compute set: only the tiles a compute set touched are read and
  // cleared again, so a program of many small compute sets does not pay for the whole device each time.
  std::vector<std::uint64_t> slots(std::size_t(numTiles) * workers);
  std::vector<unsigned> next(numTiles); // each tile's next slot (round-robin)
  std::vector<unsigned> touched;                // the tiles the current compute set has vertices on
  std::vector<bool> isTouched(numTiles, false); // the same as a flag per tile, cleared with the slots
  // What estimation needs of each vertex type, found once per type: both are string-keyed lookups (the estimator's
  // key is a normalised name built per call), and a compute set has many vertices of few types. Keyed by the
  // interned name's id, so a vertex costs a pointer hash.
  struct TypeInfo {
    const PerfEstimateFunc *estimator;
    bool multiVertex;
  };
  std::unordered_map<const std::string *, TypeInfo> types;
  for (std::size_t c = 0; c < g.computeSets.size(); ++c) {
    out[c].assign(numTiles, 0);
    touched.clear();
    for (unsigned v : g.computeSets[c].vertices) {
      const Vertex &vx = g.vertices[v];
      if (vx.tile >= numTiles)
        continue;
      std::uint64_t *s = &slots[std::size_t(vx.tile) * workers];
      if (!isTouched[vx.tile]) {
        isTouched[vx.tile] = true;
        touched.push_back(vx.tile);
      }
      auto type = types.find(vx.type.id());
      if (type == types.end())
        type = types.emplace(vx.type.id(), TypeInfo{findEstimator(g, vx.type), isMultiVertex(g, vx.type)}).first;
      const std::uint64_t est = ce.vertex[v] = estimateWith(g, v, type->second.estimator).cycles;
      if (type->second.multiVertex) {
        for (unsigned w = 0; w < workers; ++w)
          s[w] += est;
      } else {
        s[next[vx.tile]] += est;
        next[vx.tile] = (next[vx.tile] + 1) % workers;
      }
    }
    for (unsigned t : touched) {
      std::uint64_t *s = &slots[std::size_t(t) * workers];
      out[c][t] = *std::max_element(s, s + workers) * workers;
      std::fill(s, s + workers, 0);
      next[t] = 0;
      isTouched[t] = false;
    }
  }
  return ce;
}

namespace {

struct Estimator {
  const GraphImpl &g;
  const ir::Module &m;
  std::vector<std::uint64_t> csCycles; // slowest tile of each compute set
  std::uint64_t sync = 0;
  std::uint64_t xBytes = 4;
  std::uint32_t tilesPerIpu = 1;
  std::uint64_t linkBytes = 1, linkLatency = 0;

  std::uint64_t exchange(const ir::ExchangeStep &x) const {
    // A tile puts data on the exchange once and any number of tiles take it (the IPU's exchange broadcasts), so a
    // source range sent to many tiles counts once for its sender.
    // Per-tile byte counts in flat vectors and the distinct sources found by sorting: a tree node per transfer was
    // most of this function's time (tutorial 7's exchanges move 80,000 pieces).
    std::vector<std::uint64_t> sent, recv;
    auto addTo = [](std::vector<std::uint64_t> &perTile, std::uint32_t tile, std::uint64_t bytes) {
      if (tile >= perTile.size())
        perTile.resize(std::size_t(tile) + 1, 0);
      perTile[tile] += bytes;
    };
    std::vector<std::tuple<ir::BufferId, std::uint32_t, std::uint32_t>> sources;
    sources.reserve(x.transfers.size());
    for (const auto &t : x.transfers) {
      sources.emplace_back(t.src.buf, t.src.offset, t.len);
      addTo(recv, m.buffers[t.dst.buf].tile, t.len);
    }
    std::sort(sources.begin(), sources.end());
    sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
    for (const auto &[buf, offset, len] : sources)
      addTo(sent, m.buffers[buf].tile, len);
    std::uint64_t busiest = 0;
    for (std::uint64_t b : sent)
      busiest = std::max(busiest, b);
    for (std::uint64_t b : recv)
      busiest = std::max(busiest, b);
    // Bytes that cross to another IPU also pay the board's IPU-Link: its latency once, and the busiest IPU's
    // outgoing bytes at the link's bandwidth.
    std::map<std::uint32_t, std::uint64_t> crossing; // sending IPU -> bytes
    for (const auto &t : x.transfers) {
      const std::uint32_t from = m.buffers[t.src.buf].tile / tilesPerIpu, to = m.buffers[t.dst.buf].tile / tilesPerIpu;
      if (from != to)
        crossing[from] += t.len;
    }
    std::uint64_t link = 0;
    for (const auto &[ipu, b] : crossing)
      link = std::max(link, linkLatency + (b + linkBytes - 1) / linkBytes);
    return (busiest + xBytes - 1) / xBytes + link;
  }

  std::uint64_t body(const ir::Body &b) const {
    std::uint64_t c = 0;
    for (const auto &s : b)
      c += step(s);
    return c;
  }

  std::uint64_t step(const ir::Step &s) const {
    return std::visit(
        [&](const auto &x) -> std::uint64_t {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, ir::SyncStep>)
            return sync;
          else if constexpr (std::is_same_v<T, ir::ExchangeStep>)
            return exchange(x) + sync;
          else if constexpr (std::is_same_v<T, ir::ExecuteStep>)
            return (x.computeSet < csCycles.size() ? csCycles[x.computeSet] : 0) + sync;
          else if constexpr (std::is_same_v<T, ir::StreamCopyStep>)
            return 2 * sync; // the host syncs of a copy; the transfer itself is not charged (docs/time-model.md)
          else if constexpr (std::is_same_v<T, ir::RepeatStep>)
            return x.count * body(x.body);
          else if constexpr (std::is_same_v<T, ir::IfStep>)
            return std::max(body(x.thenBody), body(x.elseBody));
          else if constexpr (std::is_same_v<T, ir::SwitchStep>) {
            std::uint64_t c = body(x.defaultBody);
            for (const auto &b : x.cases)
              c = std::max(c, body(b));
            return c;
          } else if constexpr (std::is_same_v<T, ir::WhileStep>)
            return 2 * body(x.condition) + body(x.body);
          else
            return 0; // PrintStep (host side), StampStep (the profiler's own)
        },
        s);
  }
};

} // namespace

std::vector<ProgramEstimate> estimatePrograms(const GraphImpl &g, const ir::Module &m, const CycleEstimates &cycles) {
  const ipu_board &b = g.target.values().board;
  Estimator e{g, m, {}, g.target.getMaxIPUSyncDelay(), std::max(1u, g.target.getExchangeBytesPerCycle()),
              std::max(1u, g.target.getTilesPerIPU()), std::max<std::uint64_t>(1, b.ipu_link_bytes_per_cycle),
              b.ipu_link_latency_cycles};
  for (const auto &row : cycles.tile)
    e.csCycles.push_back(row.empty() ? 0 : *std::max_element(row.begin(), row.end()));
  std::vector<ProgramEstimate> out;
  for (const auto &p : m.programs) {
    ProgramEstimate pe;
    for (const auto &s : p.body) {
      if (std::holds_alternative<ir::StampStep>(s))
        continue;
      std::uint64_t c = e.step(s);
      pe.topStepCycles.push_back(c);
      pe.cycles += c;
    }
    out.push_back(pe);
  }
  return out;
}

} // namespace detail
} // namespace poplar
