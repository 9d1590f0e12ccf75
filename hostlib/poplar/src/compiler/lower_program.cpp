// Internal: lowering, part 4: the program tree (sequences, control flow, copies, streams, prints) into steps.
#include <algorithm>

#include "ipu_card/hw.h"
#include "ipu_fw/cp.h"
#include "lower.hpp"
#include "poplar/exceptions.hpp"
#include "type_codes.hpp"
#include "../program_node.hpp"

namespace poplar::detail::lower {

using program::detail::Kind;
using program::detail::Node;

void Lowering::run(const std::vector<program::Program> &programs) {
  collectTiles(programs);
  placeVariables();
  listTiles();
  placeHandles();
  placeStreams(programs);
  for (const auto &p : programs) {
    m_.programs.emplace_back();
    lower(*p.node(), m_.programs.back().body);
  }
}

void Lowering::checkSameGraph(const Tensor &t, const char *what) const {
  if (t.graphImpl() != &g_)
    throw graph_program_compilation_error(std::string(what) + ": tensor " + describe(t) +
                                          " belongs to another graph than the engine's");
}

/// A CrossReplicaCopy's map as the replicate pass takes it: per source replica, its destination or -1.
static std::vector<int> replicaMap(const Node &n, unsigned replicas) {
  std::vector<int> map(replicas, -1);
  for (const auto &[from, to] : n.replicaMap) {
    if (from >= replicas || to >= replicas)
      throw graph_program_compilation_error(
          "CrossReplicaCopy" + (n.name.empty() ? std::string() : " '" + n.name + "'") + ": the map names replica " +
          std::to_string(from >= replicas ? from : to) + ", but the graph has " + std::to_string(replicas) +
          " replica(s) (0.." + std::to_string(replicas - 1) + "); use replica indices below the replication factor");
    map[from] = int(to);
  }
  return map;
}

void Lowering::lower(const Node &n, ir::Body &out) {
  switch (n.kind) {
  case Kind::Sequence:
    for (const auto &c : n.children)
      lower(*c, out);
    break;
  case Kind::Execute:
    lowerExecute(n.cs.getId(), out);
    break;
  case Kind::Copy: {
    checkSameGraph(n.src, "Copy");
    checkSameGraph(n.dst, "Copy");
    std::vector<int> map;
    if (n.crossReplica) {
      map = replicaMap(n, g_.replicationFactor);
      if (std::count(map.begin(), map.end(), -1) == std::ptrdiff_t(map.size()))
        break; // no replica sends
    }
    const auto named = [](const Tensor &t) {
      return std::any_of(t.regions().begin(), t.regions().end(),
                         [](const VarRegion &r) { return r.replica != kLocalReplica; });
    };
    if (!n.crossReplica && (named(n.src) || named(n.dst))) {
      lowerReplicaCopy(n.src, n.dst, out, "Copy " + (n.name.empty() ? describe(n.dst) : n.name));
      break;
    }
    const std::size_t before = out.size();
    // A copy between replicas is one exchange (its replica map names sources and destinations); within a replica
    // a broadcast source is relayed.
    exchange(copyTransfers(n.src, n.dst), out,
             (n.crossReplica ? "CrossReplicaCopy " : "Copy ") + (n.name.empty() ? describe(n.dst) : n.name),
             !n.crossReplica);
    if (n.crossReplica && out.size() > before)
      std::get<ir::ExchangeStep>(out.back()).replicaMap = std::move(map);
    break;
  }
  case Kind::StreamIn:
  case Kind::StreamOut:
    lowerStream(n, out);
    break;
  case Kind::Repeat: {
    if (n.count == 0)
      break;
    ir::RepeatStep s;
    s.count = n.count;
    lower(*n.children[0], s.body);
    out.push_back(std::move(s));
    break;
  }
  case Kind::If: {
    ir::IfStep s;
    s.pred = consensus(n.src, out, "If");
    lower(*n.children[0], s.thenBody);
    lower(*n.children[1], s.elseBody);
    out.push_back(std::move(s));
    break;
  }
  case Kind::Switch: {
    if (n.caseValues.size() > IPU_CP_SWITCH_MAX_CASES)
      throw graph_program_compilation_error("Switch with " + std::to_string(n.caseValues.size()) +
                                            " cases: at most " + std::to_string(IPU_CP_SWITCH_MAX_CASES));
    ir::SwitchStep s;
    s.pred = consensus(n.src, out, "Switch");
    for (std::size_t i = 0; i < n.caseValues.size(); ++i) {
      s.cases.emplace_back();
      lower(*n.children[i], s.cases.back());
      s.caseValues.push_back(std::uint32_t(n.caseValues[i]));
    }
    lower(*n.children.back(), s.defaultBody);
    out.push_back(std::move(s));
    break;
  }
  case Kind::WhileTrue:
  case Kind::WhileFalse: {
    ir::WhileStep s;
    s.whileFalse = n.kind == Kind::WhileFalse;
    lower(*n.children[0], s.condition);
    s.pred = consensus(n.src, s.condition, "RepeatWhile");
    lower(*n.children[1], s.body);
    out.push_back(std::move(s));
    break;
  }
  case Kind::Print:
    lowerPrint(n, out);
    break;
  case Kind::Sync:
    out.push_back(ir::SyncStep{});
    break;
  case Kind::Abort:
    lowerAbort(n, out);
    break;
  }
}

ir::BufferId Lowering::emptyHostList(std::uint32_t t) {
  auto it = emptyLists_.find(t);
  if (it != emptyLists_.end())
    return it->second;
  ir::BufferId id = newBuffer(t, IPU_LIST_HEADER_SIZE, 4, "host exchange list", "(none)");
  ir::put32(buffer(id), IPU_LIST_HEADER_COUNT_OFFSET, 0);
  emptyLists_[t] = id;
  return id;
}

void Lowering::lowerStream(const Node &n, ir::Body &out) {
  const ir::Stream &st = m_.streams.at(n.stream.getId());
  if (st.bytes == 0)
    return; // a copy of 0 elements moves nothing: no step, no sync with the host
  bool in = n.kind == Kind::StreamIn;
  const Tensor &t = in ? n.dst : n.src;
  ir::StreamCopyStep s;
  s.stream = st.name;
  s.streamId = st.id;
  s.toDevice = st.toDevice;
  s.bytes = st.bytes;
  std::map<std::uint32_t, std::vector<Piece>> perTile;
  // A host function's call stream copies no tensor: every tile's list is empty and the host sync is the signal.
  for (const Piece &p : t.valid() ? pieces(t) : std::vector<Piece>()) {
    perTile[p.tile].push_back(p);
    (in ? s.effects.writes : s.effects.reads).push_back(ir::Access{p.at.buf, p.at.offset, p.at.offset + p.len});
  }
  for (std::uint32_t tile : m_.tiles) {
    auto it = perTile.find(tile);
    if (it == perTile.end()) {
      s.lists[tile] = emptyHostList(tile);
      continue;
    }
    const auto &ps = it->second;
    ir::BufferId id = newBuffer(tile, IPU_LIST_HEADER_SIZE + IPU_HX_DESC_SIZE * std::uint32_t(ps.size()), 4,
                                "host exchange list", st.name);
    ir::Buffer &b = buffer(id);
    ir::put32(b, IPU_LIST_HEADER_COUNT_OFFSET, std::uint32_t(ps.size()));
    for (std::size_t i = 0; i < ps.size(); ++i) {
      std::uint32_t d = IPU_LIST_HEADER_SIZE + IPU_HX_DESC_SIZE * std::uint32_t(i);
      ir::put32(b, d + IPU_HX_DESC_DEV_ADDR_OFFSET, st.devAddr + std::uint32_t(ps[i].offset));
      ir::putAddr(b, d + IPU_HX_DESC_TILE_ADDR_OFFSET, ps[i].at);
      ir::put32(b, d + IPU_HX_DESC_LENGTH_OFFSET, ps[i].len);
      ir::put32(b, d + IPU_HX_DESC_FLAGS_OFFSET, st.toDevice ? 0u : IPU_HX_TO_HOST);
    }
    s.lists[tile] = id;
  }
  out.push_back(std::move(s));
}

/// An Abort is a copy to the host on its own stream that no tile contributes to: the host sync is the signal, and the
/// Engine's callback for the stream ends the run.
void Lowering::lowerAbort(const Node &n, ir::Body &out) {
  const ir::Stream &st = m_.streams.at(abortStreams_.at(&n));
  ir::StreamCopyStep s;
  s.stream = st.name;
  s.streamId = st.id;
  s.toDevice = false;
  s.bytes = st.bytes;
  for (std::uint32_t tile : m_.tiles)
    s.lists[tile] = emptyHostList(tile);
  out.push_back(std::move(s));
}

void Lowering::lowerPrint(const Node &n, ir::Body &out) {
  const Tensor &t = n.src;
  std::vector<Piece> ps = pieces(t);
  ir::PrintStep s;
  s.title = n.name;
  s.tile = ps.empty() ? m_.tiles.front() : ps[0].tile;
  s.count = std::uint32_t(t.numElements());
  s.dtype = deviceTypeCode(t.elementType());
  if (s.dtype == ~0u)
    throw graph_program_compilation_error("PrintTensor(" + n.name + "): tensors of type " +
                                          t.elementType().toString() + " cannot be printed by the tiles here; "
                                          "cast to a 4-byte type (popops::cast) or read the tensor on the host");
  if (ps.size() == 1) {
    s.data = ps[0].at;
    s.effects.reads.push_back(ir::Access{ps[0].at.buf, ps[0].at.offset, ps[0].at.offset + ps[0].len});
  } else if (ps.size() > 1) {
    // Gather the tensor on the printing tile first.
    std::uint32_t bytes = std::uint32_t(t.numElements() * t.elementType().getSize());
    ir::BufferId buf = newBuffer(s.tile, bytes, 8, "print buffer", n.name, ir::Lifetime::Dataflow);
    std::vector<ir::Transfer> xs;
    for (const Piece &p : ps)
      xs.push_back(ir::Transfer{p.at, {buf, std::uint32_t(p.offset)}, p.len});
    exchange(xs, out, "PrintTensor " + n.name);
    s.data = ir::Ref{buf, 0};
    s.effects.reads.push_back(ir::Access{buf, 0, bytes});
  }
  std::string marker = "@P" + std::to_string(m_.prints.size());
  s.marker = newBuffer(s.tile, std::uint32_t(marker.size() + 1), 1, "print name", n.name);
  ir::putBytes(buffer(s.marker), 0, marker.c_str(), marker.size() + 1);
  m_.prints[marker] = PrintInfo{n.name, t.shape(), t.elementType(), n.fmt != nullptr, n.fmt ? *n.fmt : PrintTensorFmt()};
  out.push_back(std::move(s));
}

} // namespace poplar::detail::lower
