// Internal: lowering, part 3: compute sets. Vertex states, edge buffers for operands that are not one local run,
// the exchanges that fill and drain those buffers, and one compute-set table per tile.
#include <unordered_map>

#include "ipu_card/hw.h"
#include "lower.hpp"
#include "poplar/exceptions.hpp"

namespace poplar::detail::lower {

namespace {
// The device-side edge layout (hostlib/poplar/device/include/poplar/Vertex.hpp): a Vector edge is {pointer, size};
// a VectorList edge is {pointer to items, count} and each item is {pointer, size}; all 32-bit.
constexpr std::uint32_t kEdgePointerOffset = 0;
constexpr std::uint32_t kEdgeSizeOffset = 4;
constexpr std::uint32_t kListItemSize = 8;

std::uint32_t edgeBytes(const Tensor &t) { return std::uint32_t(t.numElements() * t.elementType().getSize()); }

// An input edge's elements on one tile: the tile and the edge's first region inline, then (variable, begin, end) of
// any further regions (the replica is not part of the key, as before). Two vertices on a tile reading the same
// elements share one edge buffer. Most edges are one region (a row segment), so the usual key allocates nothing:
// tutorial 7 makes 80,000 of them in one compile.
struct InputKey {
  std::size_t tile = 0;
  VarRegion first{};
  std::vector<std::size_t> more;
  bool operator==(const InputKey &o) const {
    return tile == o.tile && first.var == o.first.var && first.begin == o.first.begin && first.end == o.first.end &&
           more == o.more;
  }
};

InputKey inputKey(std::uint32_t tile, const Tensor &t) {
  InputKey k;
  k.tile = tile;
  const auto &regions = t.regions();
  if (regions.empty())
    return k;
  k.first = regions[0];
  for (std::size_t i = 1; i < regions.size(); ++i)
    k.more.insert(k.more.end(), {regions[i].var, regions[i].begin, regions[i].end});
  return k;
}

struct InputKeyHash {
  std::size_t operator()(const InputKey &k) const {
    std::size_t h = k.more.size();
    auto mix = [&h](std::size_t x) { h = (h ^ x) * 0x100000001b3ull; }; // FNV-1a's multiplier, a word at a time
    for (std::size_t x : {k.tile, std::size_t(k.first.var), k.first.begin, k.first.end})
      mix(x);
    for (std::size_t x : k.more)
      mix(x);
    return h;
  }
};
// The first of `named`'s keys that is not a field of `vc`, or null. Both maps are in name order, so one merged walk
// does it: a lookup per edge costs a tree descent of string compares (tutorial 7 lowers 240,000 edges).
template <class NameMap> const std::string *unknownName(const NameMap &named, const VertexClass &vc) {
  auto f = vc.fields.begin();
  for (const auto &kv : named) {
    while (f != vc.fields.end() && f->first < kv.first)
      ++f;
    if (f == vc.fields.end() || f->first != kv.first)
      return &kv.first;
  }
  return nullptr;
}
} // namespace

struct Lowering::EdgeWork {
  std::string computeSet;
  std::vector<ir::Transfer> pre, post;
  std::unordered_map<InputKey, ir::BufferId, InputKeyHash> inputBuffers; // only looked up, never walked
  std::vector<Piece> pieces; ///< edgeAddress's scratch: one vector for every edge, not one allocation per edge
};

ir::Ref Lowering::edgeAddress(std::uint32_t t, const Tensor &tensor, FieldDir dir, EdgeWork &w, ir::Effects &fx,
                              const std::string &type, const std::string &field) {
  std::vector<Piece> &ps = w.pieces;
  pieces(tensor, ps);
  if (ps.empty())
    return ir::Ref{};
  if (ps.size() == 1 && ps[0].tile == t) { // the vertex works in place
    ir::Access a{ps[0].at.buf, ps[0].at.offset, ps[0].at.offset + ps[0].len};
    if (dir != FieldDir::Out)
      fx.reads.push_back(a);
    if (dir != FieldDir::In)
      fx.writes.push_back(a);
    return ps[0].at;
  }
  InputKey key = dir == FieldDir::In ? inputKey(t, tensor) : InputKey();
  if (dir == FieldDir::In) {
    auto it = w.inputBuffers.find(key);
    if (it != w.inputBuffers.end())
      return ir::Ref{it->second, 0};
  }
  std::uint32_t bytes = std::uint32_t(tensor.numElements() * tensor.elementType().getSize());
  // An edge buffer lives from the exchange that fills it to the one that drains it: other compute sets' buffers
  // and temporaries can use the same memory at other times.
  ir::BufferId buf = newBuffer(t, bytes, 8, "edge buffer", type + "." + field, ir::Lifetime::Dataflow);
  ir::Access whole{buf, 0, bytes};
  if (dir != FieldDir::Out) {
    for (const Piece &p : ps)
      w.pre.push_back(ir::Transfer{p.at, {buf, std::uint32_t(p.offset)}, p.len});
    fx.reads.push_back(whole);
  }
  if (dir != FieldDir::In) {
    for (const Piece &p : ps)
      w.post.push_back(ir::Transfer{{buf, std::uint32_t(p.offset)}, p.at, p.len});
    fx.writes.push_back(whole);
  }
  if (dir == FieldDir::In)
    w.inputBuffers.emplace(std::move(key), buf);
  return ir::Ref{buf, 0};
}

void Lowering::checkEdgeType(const Vertex &v, unsigned vid, const FieldInfo &f, const Tensor &t) const {
  Type want = typeForCName(f.elemTypeName, f.elemSize), have = t.elementType();
  if (have == QUARTER || have == QUARTER_METADATA)
    throw graph_program_compilation_error(
        "vertex " + std::to_string(vid) + " (" + v.type + "): field '" + f.name + "' is connected to a " +
        have.toString() + " tensor " + describe(t) + "; the emulated tiles have no fp8 (quarter) arithmetic: cast "
        "the data to half or float on the host, or keep quarter tensors to copies and host transfers");
  // Types with the same bytes on the tiles: signed char is char; LONG/UNSIGNED_LONG are 8 bytes like long long.
  if (have == SIGNED_CHAR && want == CHAR)
    want = SIGNED_CHAR;
  if ((have == LONG && want == LONGLONG) || (have == UNSIGNED_LONG && want == UNSIGNED_LONGLONG))
    want = have;
  if (want != t.elementType())
    throw graph_program_compilation_error(
        "vertex " + std::to_string(vid) + " (" + v.type + "): field '" + f.name + "' holds " + f.elemTypeName +
        " but is connected to a " + t.elementType().toString() + " tensor " + describe(t) +
        "; connect a tensor of the field's type or change the codelet");
  if (f.kind == FieldKind::Scalar && t.numElements() != 1)
    throw graph_program_compilation_error(
        "vertex " + std::to_string(vid) + " (" + v.type + "): scalar field '" + f.name + "' is connected to " +
        std::to_string(t.numElements()) + " elements (" + describe(t) +
        "); connect one element (t[i]) or make the field a Vector");
}

std::string Lowering::unknownField(const Vertex &v, const VertexClass &vc, const std::string &name) const {
  std::string fields;
  for (const auto &[n, f] : vc.fields)
    fields += (fields.empty() ? "" : ", ") + n;
  return "vertex type '" + v.type + "' has no field '" + name + "' (its fields: " + fields + ")";
}

std::string Lowering::unconnected(const Vertex &v, unsigned vid, const std::string &name, bool list) const {
  return "vertex " + std::to_string(vid) + " (" + v.type + ") in compute set '" + g_.computeSets[v.computeSet].name +
         "': field '" + name + "' is not connected; " +
         (list ? "call graph.setFieldSize(v[\"" + name + "\"], n) and graph.connect(v[\"" + name + "\"][i], t)"
               : "call graph.connect(v[\"" + name + "\"], tensor) or pass {\"" + name + "\", tensor} to addVertex");
}

ir::BufferId Lowering::placeVertex(unsigned vid, const VertexClass &vc, EdgeWork &w, ir::Effects &fx) {
  const Vertex &v = g_.vertices[vid];
  std::uint32_t t = v.tile;
  ir::BufferId state = newBuffer(t, std::max<std::uint32_t>(vc.stateSize, 4), 4, "vertex state", v.type);
  ir::initialise(buffer(state));
  buffer(state).relocs.reserve(v.edges.size() + v.lists.size()); // one pointer per edge: one allocation, not log2(n)
  if (const std::string *name = unknownName(v.edges, vc))
    throw graph_connection_error(unknownField(v, vc, *name));
  if (const std::string *name = unknownName(v.lists, vc))
    throw graph_connection_error(unknownField(v, vc, *name));
  // Where each edge points, for the field callbacks (Graph::setInitCallback) that the layout pass runs.
  ir::LateInitField late;
  const bool wantEdges = !v.lateInits.empty();
  // vc.fields and v.edges are both in name order: the edge of each field is found by stepping along v.edges, not
  // by a lookup per field (tutorial 7 lowers 240,000 edges).
  auto nextEdge = v.edges.begin();
  for (const auto &[name, f] : vc.fields) {
    if (f.kind == FieldKind::Plain) {
      auto it = v.plain.find(name);
      if (it != v.plain.end()) {
        if (it->second.size() != f.size)
          throw graph_connection_error("vertex " + std::to_string(vid) + " (" + v.type + "): field '" + name +
                                       "' is " + std::to_string(f.size) + " bytes but setInitialValue gave " +
                                       std::to_string(it->second.size()));
        ir::putBytes(buffer(state), f.offset, it->second.data(), it->second.size());
      }
      continue;
    }
    if (f.kind == FieldKind::List) {
      auto it = v.lists.find(name);
      if (it == v.lists.end())
        throw graph_connection_error(unconnected(v, vid, name, true));
      const auto &items = it->second;
      ir::BufferId arr = newBuffer(t, std::max<std::uint32_t>(kListItemSize * std::uint32_t(items.size()), 4), 4,
                                   "vertex state", v.type + "." + name);
      ir::initialise(buffer(arr));
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (!items[i].valid())
          throw graph_connection_error(unconnected(v, vid, name + "[" + std::to_string(i) + "]", true));
        checkEdgeType(v, vid, f, items[i]);
        std::uint32_t item = kListItemSize * std::uint32_t(i);
        ir::Ref at = edgeAddress(t, items[i], f.dir, w, fx, v.type, name);
        if (at.buf != ir::kNoBuffer)
          ir::putAddr(buffer(arr), item + kEdgePointerOffset, at);
        if (wantEdges)
          late.edges[name].emplace_back(at, edgeBytes(items[i]));
        ir::put32(buffer(arr), item + kEdgeSizeOffset, std::uint32_t(items[i].numElements()));
        ++m_.numEdges;
      }
      ir::putAddr(buffer(state), f.offset + kEdgePointerOffset, ir::Ref{arr, 0});
      ir::put32(buffer(state), f.offset + kEdgeSizeOffset, std::uint32_t(items.size()));
      continue;
    }
    while (nextEdge != v.edges.end() && nextEdge->first < name)
      ++nextEdge;
    auto it = nextEdge != v.edges.end() && nextEdge->first == name ? nextEdge : v.edges.end();
    if (it == v.edges.end())
      throw graph_connection_error(unconnected(v, vid, name, false));
    checkEdgeType(v, vid, f, it->second);
    ir::Ref at = edgeAddress(t, it->second, f.dir, w, fx, v.type, name);
    if (at.buf != ir::kNoBuffer)
      ir::putAddr(buffer(state), f.offset + kEdgePointerOffset, at);
    if (wantEdges)
      late.edges[name].emplace_back(at, edgeBytes(it->second));
    if (f.kind == FieldKind::Vector)
      ir::put32(buffer(state), f.offset + kEdgeSizeOffset, std::uint32_t(it->second.numElements()));
    ++m_.numEdges;
  }
  for (const auto &[name, init] : v.lateInits) {
    auto f = vc.fields.find(name);
    if (f == vc.fields.end())
      throw graph_connection_error(unknownField(v, vc, name));
    std::string field = "vertex " + std::to_string(vid) + " (" + v.type + "): setInitCallback on field '" + name + "'";
    if (f->second.kind != FieldKind::Plain)
      throw graph_connection_error(field + ", an edge; only a plain field takes a value from a callback");
    if (f->second.size != init.size)
      throw graph_connection_error(field + " of " + std::to_string(f->second.size) + " bytes returns " +
                                   std::to_string(init.size) + "; give setInitCallback<T> the field's own type");
    ir::LateInitField one = late;
    one.state = state;
    one.offset = f->second.offset;
    one.size = init.size;
    one.fill = init.fill;
    m_.lateInits.push_back(std::move(one));
  }
  return state;
}

const Lowering::TypeEntry &Lowering::vertexType(const Vertex &v, unsigned vid) {
  auto [it, fresh] = types_.try_emplace(v.type.id());
  if (fresh) {
    try {
      it->second.vc = &g_.vertexClass(vid);
      for (const std::string &entry : entrySymbols(*it->second.vc)) {
        auto sym = image_.symbols.find(entry);
        if (sym == image_.symbols.end())
          throw graph_program_compilation_error("vertex type '" + it->second.vc->name + "' has no entry point in "
                                                "the tile image; re-add its codelets");
        it->second.entries.push_back(sym->second);
      }
    } catch (...) {
      types_.erase(it); // a later lookup of the type must throw again, not find half an entry
      throw;
    }
  }
  return it->second;
}

void Lowering::lowerExecute(unsigned cs, ir::Body &out) {
  auto plan = executePlans_.find(cs);
  if (plan == executePlans_.end()) {
    // First use: place the vertex states and edge buffers once; later Executes of the same compute set reuse them.
    const ComputeSetInfo &info = g_.computeSets[cs];
    EdgeWork w;
    ExecutePlan p;
    p.execute.computeSet = cs;
    p.execute.name = info.name;
    p.execute.numVertices = info.vertices.size();
    std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, ir::BufferId>>> perTile;
    // Room for each vertex's state and an edge buffer or two, grown geometrically: a vector regrowth moves every
    // buffer made so far (tutorial 7 makes about 160,000).
    const std::size_t want = m_.buffers.size() + 2 * info.vertices.size();
    if (want > m_.buffers.capacity())
      m_.buffers.reserve(std::max(want, 2 * m_.buffers.capacity()));
    for (unsigned vid : info.vertices) {
      const TypeEntry &type = vertexType(g_.vertices[vid], vid);
      ir::BufferId state = placeVertex(vid, *type.vc, w, p.execute.effects);
      auto &tileEntries = perTile[g_.vertices[vid].tile];
      for (std::uint32_t entry : type.entries)
        tileEntries.emplace_back(entry, state);
    }
    for (const auto &[t, entries] : perTile) {
      ir::BufferId table = newBuffer(
          t, IPU_LIST_HEADER_SIZE + IPU_VERTEX_ENTRY_SIZE * std::uint32_t(entries.size()), 4, "compute set table",
          info.name);
      ir::Buffer &b = buffer(table);
      ir::put32(b, IPU_LIST_HEADER_COUNT_OFFSET, std::uint32_t(entries.size()));
      for (std::size_t i = 0; i < entries.size(); ++i) {
        std::uint32_t e = IPU_LIST_HEADER_SIZE + IPU_VERTEX_ENTRY_SIZE * std::uint32_t(i);
        ir::put32(b, e + IPU_VERTEX_ENTRY_ENTRY_OFFSET, entries[i].first);
        ir::putAddr(b, e + IPU_VERTEX_ENTRY_STATE_OFFSET, ir::Ref{entries[i].second, 0});
      }
      p.execute.tables[t] = table;
    }
    exchange(w.pre, p.pre, "inputs of " + info.name, true);
    exchange(w.post, p.post, "outputs of " + info.name);
    plan = executePlans_.emplace(cs, std::move(p)).first;
  }
  const ExecutePlan &p = plan->second;
  out.insert(out.end(), p.pre.begin(), p.pre.end());
  out.push_back(p.execute);
  out.insert(out.end(), p.post.begin(), p.post.end());
}

} // namespace poplar::detail::lower
