// Internal: lowering, part 1: which tiles take part, one buffer per variable and tile, host handles and streams.
#include <algorithm>

#include "lower.hpp"
#include "poplar/exceptions.hpp"
#include "../external_exchange.hpp"
#include "../program_node.hpp"

namespace poplar::detail::lower {

using program::detail::Kind;
using program::detail::Node;

namespace {
// Host buffers of streams sit at these device addresses, one 4 KiB guard page apart (the runtime maps them).
constexpr std::uint32_t kStreamDevBase = 0x20000000u;
constexpr std::uint32_t kPage = 4096;
} // namespace

ir::BufferId Lowering::newBuffer(std::uint32_t tile, std::uint32_t size, std::uint32_t align,
                                 const std::string &category, std::string name, ir::Lifetime life) {
  ir::Buffer b;
  b.tile = tile;
  b.size = size;
  b.align = align;
  b.category = category;
  b.name = std::move(name);
  b.lifetime = life;
  return m_.add(std::move(b));
}

void Lowering::usedComputeSets(const Node &n, std::set<unsigned> &out) const {
  if (n.kind == Kind::Execute)
    out.insert(n.cs.getId());
  for (const auto &c : n.children)
    usedComputeSets(*c, out);
}

void Lowering::collectTiles(const std::vector<program::Program> &programs) {
  // The vertices' tiles here; placeVariables notes the variables' tiles on its own walk of their mappings (a second
  // walk of those trees here cost as much as the placement itself), and listTiles makes the list.
  std::set<unsigned> used;
  for (const auto &p : programs)
    usedComputeSets(*p.node(), used);
  for (unsigned cs : used)
    for (unsigned v : g_.computeSets[cs].vertices) {
      const Vertex &vx = g_.vertices[v];
      if (vx.tile == kUnmapped)
        throw graph_program_compilation_error(
            "vertex " + std::to_string(v) + " (" + vx.type + ") in compute set '" + g_.computeSets[cs].name +
            "' is not mapped to a tile: call graph.setTileMapping(vertex, tile)");
      noteTile(vx.tile);
    }
  checkExternalExchange(g_, used);
}

void Lowering::noteTile(unsigned tile) {
  // A flag per tile rather than a set: most of the runs and vertices noted repeat a tile already seen.
  if (tile >= tileSeen_.size())
    tileSeen_.resize(std::size_t(tile) + 1);
  tileSeen_[tile] = true;
}

void Lowering::listTiles() {
  m_.tiles.clear();
  for (std::size_t t = 0; t < tileSeen_.size(); ++t)
    if (tileSeen_[t])
      m_.tiles.push_back(std::uint32_t(t));
  if (m_.tiles.empty())
    m_.tiles.push_back(0);
}

void Lowering::placeVariables() {
  std::set<unsigned> hostVisible;
  for (const auto &[key, h] : g_.handles)
    for (const auto &r : h.tensor.regions())
      hostVisible.insert(r.var);
  segs_.resize(g_.vars.size());
  segCursor_.assign(g_.vars.size(), 0);
  for (unsigned vi = 0; vi < g_.vars.size(); ++vi) {
    const Variable &v = g_.vars[vi];
    std::uint32_t es = std::uint32_t(v.type.getSize());
    std::map<std::uint32_t, std::size_t> perTile;
    std::vector<VarSeg> &segs = segs_[vi];
    v.mapping.forEach([&](std::size_t b, std::size_t e, unsigned t) {
      if (t == kUnmapped)
        throw graph_program_compilation_error(
            std::string(v.constant ? "constant" : "variable") + " '" + v.name + "' has elements [" +
            std::to_string(b) + ", " + std::to_string(e) + ") not mapped to any tile: call "
            "graph.setTileMapping on them (every element of every tensor needs a tile)");
      perTile[t] += e - b;
      segs.push_back(VarSeg{b, e, t, {}});
      noteTile(t);
    });
    // The host reads and writes handles between runs, and constants and initial values (Graph::setInitialValue)
    // are loaded once: they keep their memory for the whole run. Other variables share memory with those not in
    // use at the same time.
    bool hasInit = !v.init.empty();
    ir::Lifetime life = v.constant || hasInit || hostVisible.count(vi) ? ir::Lifetime::Program : ir::Lifetime::Dataflow;
    std::map<std::uint32_t, ir::Ref> next;
    for (const auto &[t, n] : perTile) {
      ir::BufferId id = newBuffer(t, std::uint32_t(n * es), std::max<std::uint32_t>(4, es),
                                  v.constant ? "constant" : "variable", v.name, life);
      m_.buffers[id].variable = int(vi);
      m_.buffers[id].replicationIndex = v.replicationIndex;
      next[t] = ir::Ref{id, 0};
    }
    for (auto &s : segs) {
      ir::Ref &at = next[s.tile];
      s.at = at;
      std::uint32_t len = std::uint32_t((s.end - s.begin) * es);
      if (hasInit)
        ir::putBytes(m_.buffers[at.buf], at.offset, v.init.data() + s.begin * es, len);
      at.offset += len;
    }
  }
}

const Lowering::VarSeg *Lowering::segmentAt(unsigned var, std::size_t elem) const {
  constexpr int kMaxSteps = 16; // past this, a binary search is cheaper than walking on
  const auto &segs = segs_[var];
  std::size_t &cursor = segCursor_[var];
  if (cursor < segs.size() && segs[cursor].begin <= elem)
    for (std::size_t i = cursor, last = std::min(segs.size(), cursor + kMaxSteps); i < last; ++i)
      if (elem < segs[i].end)
        return &segs[cursor = i];
  auto it =
      std::upper_bound(segs.begin(), segs.end(), elem, [](std::size_t x, const VarSeg &s) { return x < s.begin; });
  cursor = std::size_t(it - segs.begin()) - 1;
  return &segs[cursor];
}

std::vector<Piece> Lowering::pieces(const Tensor &t, bool replicaRegions) const {
  std::vector<Piece> out;
  pieces(t, out, replicaRegions);
  return out;
}

void Lowering::pieces(const Tensor &t, std::vector<Piece> &out, bool replicaRegions) const {
  out.clear();
  std::size_t es = t.elementType().getSize(), offset = 0;
  for (const auto &r : t.regions()) {
    if (r.replica != kLocalReplica && !replicaRegions)
      throw graph_program_compilation_error(
          "tensor " + describe(t) + " names the elements of specific replicas (Graph::getNonReplicatedTensor): "
          "such a tensor can be read or written by the host (createHostRead, createHostWrite) and copied to or "
          "from another such tensor (program::Copy); connect vertices and streams to the replicated tensor");
    if (r.begin >= r.end)
      continue; // no elements, so no piece (and no segment to look up)
    const VarSeg *it = segmentAt(r.var, r.begin);
    std::size_t pos = r.begin;
    while (pos < r.end) {
      std::size_t hi = std::min(r.end, it->end);
      ir::Ref at{it->at.buf, it->at.offset + std::uint32_t((pos - it->begin) * es)};
      std::uint32_t len = std::uint32_t((hi - pos) * es);
      Piece *last = out.empty() ? nullptr : &out.back();
      if (last && last->at.buf == at.buf && last->replica == r.replica && last->at.offset + last->len == at.offset)
        last->len += len;
      else
        out.push_back(Piece{it->tile, at, len, offset, r.replica});
      offset += len;
      pos = hi;
      ++it;
    }
    segCursor_[r.var] = std::size_t(it - segs_[r.var].data()) - 1; // the segment holding the region's last element
  }
}

void Lowering::placeHandles() {
  for (const auto &[key, h] : g_.handles) {
    ir::HostHandle hh;
    hh.bytes = h.tensor.numElements() * h.tensor.elementType().getSize();
    for (const Piece &p : pieces(h.tensor, true))
      hh.pieces.push_back(ir::HostHandle::Piece{p.at, p.len, p.offset, p.replica});
    m_.handles[key] = hh;
  }
}

void Lowering::placeAborts(const program::detail::Node &n, std::uint32_t &dev) {
  for (const auto &c : n.children)
    if (c)
      placeAborts(*c, dev);
  if (n.kind != program::detail::Kind::Abort || abortStreams_.count(&n))
    return;
  ir::Stream st;
  st.name = "__abort/" + std::to_string(m_.aborts.size());
  st.id = unsigned(m_.streams.size() + 1);
  st.toDevice = false;
  st.bytes = 4; // a stream copy of 0 bytes is dropped; no tile writes these 4
  st.devAddr = dev;
  st.replicas = g_.replicationFactor;
  dev += std::uint32_t((st.bytes * st.replicas + kPage - 1) / kPage * kPage + kPage);
  abortStreams_[&n] = unsigned(m_.streams.size());
  m_.streams.push_back(st);
  m_.aborts.emplace_back(st.name, n.message.empty() ? "the program aborted" : n.message);
}

void Lowering::placeStreams(const std::vector<program::Program> &programs) {
  std::uint32_t dev = kStreamDevBase;
  for (unsigned i = 0; i < g_.streams.size(); ++i) {
    const StreamInfo &s = g_.streams[i];
    ir::Stream st;
    st.name = s.name;
    st.id = i + 1;
    st.toDevice = s.direction == DataStreamType::HostToDeviceFIFO;
    st.bytes = s.numElements * s.type.getSize();
    st.devAddr = dev;
    st.replicas = st.toDevice && s.broadcast ? 1 : g_.replicationFactor;
    dev += std::uint32_t((st.bytes * st.replicas + kPage - 1) / kPage * kPage + kPage);
    m_.streams.push_back(st);
  }
  for (const auto &p : programs)
    placeAborts(*p.node(), dev);
}

} // namespace poplar::detail::lower
