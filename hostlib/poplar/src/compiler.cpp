// Internal: the graph compiler. Places tensors, vertex states and edge buffers in tile memory, schedules exchanges,
// and lowers the program tree to one control program per tile (the contract's encoding, via ipu_cp).
//
// Every tile that takes part runs the same structure (so every tile meets every sync); what differs per tile is the
// operands: its exchange lists, its compute-set tables, its host-exchange lists. Steps follow the bulk-synchronous
// pattern: exchange, sync, compute, sync. Control flow reads a copy of the predicate that an exchange has first
// brought to every tile (local consensus).
#include "compiler.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <set>
#include <sstream>

#include "ipu_card/hw.h"
#include "ipu_fw/cp.h"
#include "poplar/exceptions.hpp"
#include "program_node.hpp"

namespace poplar::detail {

namespace {

using program::detail::Kind;
using program::detail::Node;

constexpr std::uint32_t kStreamDevBase = 0x20000000u;
constexpr std::uint32_t kTileHeapBytes = 4096; // newlib stdio (PRINT_TENSOR) needs about 1.5 KiB

struct Transfer {
  std::uint32_t srcTile, srcAddr, dstTile, dstAddr, len;
};

struct VarSeg {
  std::size_t begin, end;
  std::uint32_t tile, addr;
};

/// A contiguous run of a tensor on one tile (flat byte offset in the tensor).
struct Piece {
  std::uint32_t tile, addr, len;
  std::size_t offset;
};

struct Step {
  enum K { Sync, Exchange, Execute, Stream, Print, Repeat, If, Switch, While } k = Sync;
  unsigned id = 0;
  unsigned count = 0;
  unsigned width = 4;
  bool whileFalse = false;
  std::vector<Step> a, b;
  std::vector<std::vector<Step>> cases;
  std::vector<std::uint32_t> caseValues;
};

class Compiler {
public:
  Compiler(const GraphImpl &g, bool instrument) : g_(g) { out_.instr.enabled = instrument; }

  CompiledGraph run(const std::vector<program::Program> &programs) {
    out_.board = g_.target.values().board;
    out_.numVars = g_.vars.size();
    out_.numVertices = g_.vertices.size();
    out_.numComputeSets = g_.computeSets.size();
    link();
    collectTiles(programs);
    placeVariables();
    placeHandles();
    placeStreams();
    std::vector<std::vector<Step>> lowered;
    out_.instr.tile = *tiles_.begin();
    for (std::size_t i = 0; i < programs.size(); ++i) {
      out_.steps.emplace_back();
      curSteps_ = &out_.steps.back();
      std::vector<Step> s;
      out_.instr.slots.emplace_back();
      out_.instr.topSteps.emplace_back();
      if (out_.instr.enabled)
        stamp(s);
      lower(*programs[i].node(), s, 0);
      lowered.push_back(std::move(s));
    }
    for (auto &s : lowered)
      encode(s);
    out_.tiles.assign(tiles_.begin(), tiles_.end());
    for (auto &[tile, td] : out_.tileData)
      for (const auto &item : td.items)
        out_.bytesByCategory[item.category] += item.size;
    return std::move(out_);
  }

private:
  // ---- setup ----------------------------------------------------------------------------------------------

  void link() {
    std::vector<std::string> keep;
    for (const auto &[name, vc] : g_.codelets.classes)
      keep.push_back(vc.entrySymbol);
    std::vector<std::string> objects = g_.codelets.objects;
    if (out_.instr.enabled) {
      std::string gp = builtinCodelets(out_.board.isa, out_.board.abi);
      for (const auto &c : readVertexClasses(gp))
        if (c.name == "poplar_rt::CycleStamp")
          stampEntry_ = c.entrySymbol;
      objects.push_back(gp);
      keep.push_back(stampEntry_);
    }
    out_.image = linkTileImage(objects, out_.board, keep, kTileHeapBytes);
  }

  /// Ends a top-level step that began at StepInfo `first` (nothing below the top level, nothing for no new step).
  void unitDone(std::vector<Step> &steps, unsigned depth, std::size_t first) {
    if (depth != 0 || first == curSteps_->size())
      return;
    out_.instr.topSteps.back().emplace_back(first, curSteps_->size());
    if (out_.instr.enabled)
      stamp(steps);
  }

  /// A sync, then the instrumentation tile writes its CYCLE counter to a new slot.
  void stamp(std::vector<Step> &steps) {
    std::uint32_t t = out_.instr.tile;
    std::uint32_t slot = alloc(t, 4, 4, "instrumentation", "cycle stamp");
    out_.instr.slots.back().push_back(slot);
    std::uint32_t state = alloc(t, 8, 4, "instrumentation", "cycle stamp vertex");
    write32(t, state, slot);
    write32(t, state + 4, 1);
    std::uint32_t table = alloc(t, 12, 4, "instrumentation", "cycle stamp table");
    write32(t, table, 1);
    write32(t, table + 4, out_.image.symbols.at(stampEntry_));
    write32(t, table + 8, state);
    execTables_.push_back({{t, table}});
    steps.push_back(Step{});
    Step e;
    e.k = Step::Execute;
    e.id = unsigned(execTables_.size() - 1);
    steps.push_back(e);
  }

  void collectTiles(const std::vector<program::Program> &programs) {
    for (const auto &v : g_.vars)
      v.mapping.forEach([&](std::size_t, std::size_t, unsigned tile) {
        if (tile != kUnmapped)
          tiles_.insert(tile);
      });
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
        tiles_.insert(vx.tile);
      }
    if (tiles_.empty())
      tiles_.insert(0);
  }

  void usedComputeSets(const Node &n, std::set<unsigned> &out) {
    if (n.kind == Kind::Execute)
      out.insert(n.cs.getId());
    for (const auto &c : n.children)
      usedComputeSets(*c, out);
  }

  TileData &tile(std::uint32_t t) {
    auto it = out_.tileData.find(t);
    if (it == out_.tileData.end()) {
      it = out_.tileData.emplace(t, TileData{}).first;
      it->second.top = out_.image.freeStart;
    }
    return it->second;
  }

  std::uint32_t alloc(std::uint32_t t, std::size_t size, std::uint32_t align, const std::string &category,
                      const std::string &name) {
    TileData &td = tile(t);
    std::uint32_t addr = (td.top + align - 1) & ~(align - 1);
    std::uint64_t end = std::uint64_t(addr) + size;
    if (end > out_.image.freeEnd)
      outOfMemory(t, end, category, name);
    td.top = std::uint32_t(end);
    td.bytes.resize(td.top - out_.image.freeStart, 0);
    td.items.push_back(MemItem{category, name, addr, std::uint32_t(size)});
    return addr;
  }

  [[noreturn]] void outOfMemory(std::uint32_t t, std::uint64_t end, const std::string &category,
                                const std::string &name) {
    const TileData &td = tile(t);
    std::vector<MemItem> items = td.items;
    std::sort(items.begin(), items.end(), [](const MemItem &a, const MemItem &b) { return a.size > b.size; });
    std::map<std::string, std::uint64_t> byCat;
    for (const auto &i : items)
      byCat[i.category] += i.size;
    std::ostringstream os;
    os << "tile " << t << " is out of memory by " << (end - out_.image.freeEnd) << " bytes while placing " << category
       << " '" << name << "': " << (out_.image.freeEnd - out_.image.freeStart) << " bytes are free for data after "
       << out_.image.codeBytes << " bytes of code, runtime and heap (board " << out_.board.name << ", "
       << out_.board.bytes_per_tile << " bytes per tile).";
    if (items.empty()) {
      os << " Nothing else is on the tile: the item alone is too large;";
    } else {
      os << " On the tile:";
      for (const auto &[cat, bytes] : byCat)
        os << " " << cat << " " << bytes << " bytes;";
      os << " largest items:";
      for (std::size_t i = 0; i < items.size() && i < 5; ++i)
        os << " " << items[i].category << " '" << items[i].name << "' " << items[i].size << " bytes;";
    }
    os << " spread the tensors and vertices over more tiles with setTileMapping, or use a board with more memory "
          "per tile (IPUModel.memoryPerTile)";
    throw graph_memory_allocation_error(os.str());
  }

  void write(std::uint32_t t, std::uint32_t addr, const void *data, std::size_t len) {
    TileData &td = tile(t);
    std::memcpy(td.bytes.data() + (addr - out_.image.freeStart), data, len);
  }
  void write32(std::uint32_t t, std::uint32_t addr, std::uint32_t v) { write(t, addr, &v, 4); }

  void placeVariables() {
    segs_.resize(g_.vars.size());
    for (unsigned vi = 0; vi < g_.vars.size(); ++vi) {
      const Variable &v = g_.vars[vi];
      std::size_t es = v.type.getSize();
      std::map<std::uint32_t, std::size_t> perTile;
      std::vector<VarSeg> &segs = segs_[vi];
      v.mapping.forEach([&](std::size_t b, std::size_t e, unsigned t) {
        if (t == kUnmapped)
          throw graph_program_compilation_error(
              std::string(v.constant ? "constant" : "variable") + " '" + v.name + "' has elements [" +
              std::to_string(b) + ", " + std::to_string(e) + ") not mapped to any tile: call "
              "graph.setTileMapping on them (every element of every tensor needs a tile)");
        perTile[t] += e - b;
        segs.push_back(VarSeg{b, e, t, 0});
      });
      std::map<std::uint32_t, std::uint32_t> next;
      for (const auto &[t, n] : perTile)
        next[t] = alloc(t, n * es, std::max<std::uint32_t>(4, std::uint32_t(es)), v.constant ? "constant" : "variable",
                        v.name);
      for (auto &s : segs) {
        s.addr = next[s.tile];
        next[s.tile] += std::uint32_t((s.end - s.begin) * es);
        if (v.constant)
          write(s.tile, s.addr, v.init.data() + s.begin * es, (s.end - s.begin) * es);
      }
    }
  }

  /// The tensor's elements as runs of tile memory, merged where contiguous.
  std::vector<Piece> pieces(const Tensor &t) const {
    std::vector<Piece> out;
    std::size_t es = t.elementType().getSize(), offset = 0;
    for (const auto &r : t.regions()) {
      const auto &segs = segs_[r.var];
      auto it = std::upper_bound(segs.begin(), segs.end(), r.begin,
                                 [](std::size_t x, const VarSeg &s) { return x < s.begin; });
      --it;
      std::size_t pos = r.begin;
      while (pos < r.end) {
        std::size_t hi = std::min(r.end, it->end);
        std::uint32_t addr = it->addr + std::uint32_t((pos - it->begin) * es);
        std::uint32_t len = std::uint32_t((hi - pos) * es);
        if (!out.empty() && out.back().tile == it->tile && out.back().addr + out.back().len == addr)
          out.back().len += len;
        else
          out.push_back(Piece{it->tile, addr, len, offset});
        offset += len;
        pos = hi;
        ++it;
      }
    }
    return out;
  }

  void placeHandles() {
    for (const auto &[name, h] : g_.handles) {
      CompiledHandle ch;
      ch.write = h.write;
      ch.bytes = h.tensor.numElements() * h.tensor.elementType().getSize();
      for (const Piece &p : pieces(h.tensor))
        ch.pieces.push_back(HostPiece{p.tile, p.addr, p.len, p.offset});
      out_.handles[name] = ch;
    }
  }

  void placeStreams() {
    std::uint32_t dev = kStreamDevBase;
    for (unsigned i = 0; i < g_.streams.size(); ++i) {
      const StreamInfo &s = g_.streams[i];
      CompiledStream cs;
      cs.name = s.name;
      cs.id = i + 1;
      cs.toDevice = s.direction == DataStreamType::HostToDeviceFIFO;
      cs.bytes = s.numElements * s.type.getSize();
      cs.devAddr = dev;
      dev += std::uint32_t((cs.bytes + 4095) / 4096 * 4096 + 4096);
      out_.streams.push_back(cs);
    }
  }

  // ---- exchange --------------------------------------------------------------------------------------------

  /// Adds an Exchange and a Sync step for `transfers` (nothing when empty). Lists go on the sending tiles.
  void exchange(std::vector<Transfer> transfers, std::vector<Step> &steps, const std::string &what, unsigned depth) {
    if (transfers.empty())
      return;
    std::map<std::uint32_t, std::vector<Transfer>> bySrc;
    std::uint64_t bytes = 0;
    for (const auto &x : transfers) {
      auto &list = bySrc[x.srcTile];
      if (!list.empty() && list.back().dstTile == x.dstTile && list.back().srcAddr + list.back().len == x.srcAddr &&
          list.back().dstAddr + list.back().len == x.dstAddr)
        list.back().len += x.len;
      else
        list.push_back(x);
      bytes += x.len;
    }
    std::map<std::uint32_t, std::uint32_t> lists;
    for (const auto &[src, list] : bySrc) {
      std::uint32_t addr = alloc(src, 4 + IPU_EXCH_DESC_SIZE * list.size(), 4, "exchange list", what);
      write32(src, addr, std::uint32_t(list.size()));
      for (std::size_t i = 0; i < list.size(); ++i) {
        std::uint32_t d = addr + 4 + std::uint32_t(IPU_EXCH_DESC_SIZE * i);
        write32(src, d + IPU_EXCH_DESC_DST_TILE_OFFSET, list[i].dstTile);
        write32(src, d + IPU_EXCH_DESC_DST_ADDR_OFFSET, list[i].dstAddr);
        write32(src, d + IPU_EXCH_DESC_SRC_ADDR_OFFSET, list[i].srcAddr);
        write32(src, d + IPU_EXCH_DESC_LENGTH_OFFSET, list[i].len);
      }
      lists[src] = addr;
    }
    exchangeLists_.push_back(lists);
    Step s;
    s.k = Step::Exchange;
    s.id = unsigned(exchangeLists_.size() - 1);
    steps.push_back(s);
    steps.push_back(Step{});
    out_.exchangeBytes += bytes;
    curSteps_->push_back(StepInfo{"Exchange (" + what + ")", bytes, depth});
  }

  /// Transfers that copy the elements of `src` to those of `dst` (same size).
  std::vector<Transfer> copyTransfers(const Tensor &src, const Tensor &dst) const {
    std::vector<Piece> a = pieces(src), b = pieces(dst);
    std::vector<Transfer> out;
    std::size_t i = 0, j = 0;
    std::uint32_t ai = 0, bj = 0;
    while (i < a.size() && j < b.size()) {
      std::uint32_t len = std::min(a[i].len - ai, b[j].len - bj);
      out.push_back(Transfer{a[i].tile, a[i].addr + ai, b[j].tile, b[j].addr + bj, len});
      ai += len;
      bj += len;
      if (ai == a[i].len) {
        ++i;
        ai = 0;
      }
      if (bj == b[j].len) {
        ++j;
        bj = 0;
      }
    }
    return out;
  }

  /// Brings a copy of the scalar `pred` to a slot on every tile; returns the slot table id.
  unsigned consensus(const Tensor &pred, std::vector<Step> &steps, const std::string &what, unsigned depth) {
    std::vector<Piece> p = pieces(pred);
    std::map<std::uint32_t, std::uint32_t> slots;
    std::vector<Transfer> xs;
    for (std::uint32_t t : tiles_) {
      std::uint32_t slot = alloc(t, 4, 4, "predicate copy", what);
      slots[t] = slot;
      xs.push_back(Transfer{p[0].tile, p[0].addr, t, slot, p[0].len});
    }
    condSlots_.push_back(slots);
    exchange(xs, steps, "predicate of " + what, depth);
    return unsigned(condSlots_.size() - 1);
  }

  // ---- compute sets -----------------------------------------------------------------------------------------

  struct EdgeWork {
    std::vector<Transfer> pre, post;
    std::map<std::pair<std::uint32_t, std::string>, std::uint32_t> inputBuffers;
  };

  static std::string regionKey(const Tensor &t) {
    std::string k;
    for (const auto &r : t.regions())
      k += std::to_string(r.var) + ":" + std::to_string(r.begin) + "-" + std::to_string(r.end) + ",";
    return k;
  }

  /// The address on `t` where a vertex on tile `t` sees `tensor`: in place when it is one local run, else a
  /// buffer filled before the compute set (inputs) and sent back after it (outputs).
  std::uint32_t edgeAddress(std::uint32_t t, const Tensor &tensor, FieldDir dir, EdgeWork &w, const std::string &what) {
    std::vector<Piece> ps = pieces(tensor);
    if (ps.empty())
      return out_.image.freeStart;
    if (ps.size() == 1 && ps[0].tile == t)
      return ps[0].addr;
    std::size_t bytes = tensor.numElements() * tensor.elementType().getSize();
    auto key = std::make_pair(t, regionKey(tensor));
    if (dir == FieldDir::In) {
      auto it = w.inputBuffers.find(key);
      if (it != w.inputBuffers.end())
        return it->second;
    }
    std::uint32_t buf = alloc(t, bytes, 8, "edge buffer", what);
    if (dir != FieldDir::Out)
      for (const Piece &p : ps)
        w.pre.push_back(Transfer{p.tile, p.addr, t, buf + std::uint32_t(p.offset), p.len});
    if (dir != FieldDir::In)
      for (const Piece &p : ps)
        w.post.push_back(Transfer{t, buf + std::uint32_t(p.offset), p.tile, p.addr, p.len});
    if (dir == FieldDir::In)
      w.inputBuffers[key] = buf;
    return buf;
  }

  void checkEdgeType(const Vertex &v, unsigned vid, const FieldInfo &f, const Tensor &t) {
    Type want = typeForCName(f.elemTypeName, f.elemSize);
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

  /// Writes vertex `vid`'s state on its tile and returns the state address.
  std::uint32_t placeVertex(unsigned vid, EdgeWork &w) {
    const Vertex &v = g_.vertices[vid];
    const VertexClass &vc = g_.vertexClass(vid);
    std::uint32_t t = v.tile;
    std::uint32_t state = alloc(t, std::max<std::uint32_t>(vc.stateSize, 4), 4, "vertex state", v.type);
    for (const auto &[name, t2] : v.edges)
      if (!vc.fields.count(name))
        throw graph_connection_error(unknownField(v, vc, name));
    for (const auto &[name, items] : v.lists)
      if (!vc.fields.count(name))
        throw graph_connection_error(unknownField(v, vc, name));
    for (const auto &[name, f] : vc.fields) {
      std::string what = v.type + "." + name;
      if (f.kind == FieldKind::Plain) {
        auto it = v.plain.find(name);
        if (it != v.plain.end()) {
          if (it->second.size() != f.size)
            throw graph_connection_error("vertex " + std::to_string(vid) + " (" + v.type + "): field '" + name +
                                         "' is " + std::to_string(f.size) + " bytes but setInitialValue gave " +
                                         std::to_string(it->second.size()));
          write(t, state + f.offset, it->second.data(), it->second.size());
        }
        continue;
      }
      if (f.kind == FieldKind::List) {
        auto it = v.lists.find(name);
        if (it == v.lists.end())
          throw graph_connection_error(unconnected(v, vid, name, true));
        const auto &items = it->second;
        std::uint32_t arr = alloc(t, std::max<std::size_t>(8 * items.size(), 4), 4, "vertex state", what);
        for (std::size_t i = 0; i < items.size(); ++i) {
          if (!items[i].valid())
            throw graph_connection_error(unconnected(v, vid, name + "[" + std::to_string(i) + "]", true));
          checkEdgeType(v, vid, f, items[i]);
          write32(t, arr + 8 * std::uint32_t(i), edgeAddress(t, items[i], f.dir, w, what));
          write32(t, arr + 8 * std::uint32_t(i) + 4, std::uint32_t(items[i].numElements()));
          ++out_.numEdges;
        }
        write32(t, state + f.offset, arr);
        write32(t, state + f.offset + 4, std::uint32_t(items.size()));
        continue;
      }
      auto it = v.edges.find(name);
      if (it == v.edges.end())
        throw graph_connection_error(unconnected(v, vid, name, false));
      checkEdgeType(v, vid, f, it->second);
      write32(t, state + f.offset, edgeAddress(t, it->second, f.dir, w, what));
      if (f.kind == FieldKind::Vector)
        write32(t, state + f.offset + 4, std::uint32_t(it->second.numElements()));
      ++out_.numEdges;
    }
    return state;
  }

  std::string unknownField(const Vertex &v, const VertexClass &vc, const std::string &name) const {
    std::string fields;
    for (const auto &[n, f] : vc.fields)
      fields += (fields.empty() ? "" : ", ") + n;
    return "vertex type '" + v.type + "' has no field '" + name + "' (its fields: " + fields + ")";
  }

  std::string unconnected(const Vertex &v, unsigned vid, const std::string &name, bool list) const {
    return "vertex " + std::to_string(vid) + " (" + v.type + ") in compute set '" +
           g_.computeSets[v.computeSet].name + "': field '" + name + "' is not connected; " +
           (list ? "call graph.setFieldSize(v[\"" + name + "\"], n) and graph.connect(v[\"" + name + "\"][i], t)"
                 : "call graph.connect(v[\"" + name + "\"], tensor) or pass {\"" + name + "\", tensor} to addVertex");
  }

  void lowerExecute(unsigned cs, std::vector<Step> &steps, unsigned depth) {
    const ComputeSetInfo &info = g_.computeSets[cs];
    std::size_t first = curSteps_->size();
    auto cached = executeCache_.find(cs);
    if (cached == executeCache_.end()) {
      // First use: place the vertex states and edge buffers once; later Executes of the same compute set reuse them.
      EdgeWork w;
      std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> perTile;
      for (unsigned vid : info.vertices) {
        std::uint32_t state = placeVertex(vid, w);
        const VertexClass &vc = g_.vertexClass(vid);
        auto sym = out_.image.symbols.find(vc.entrySymbol);
        if (sym == out_.image.symbols.end())
          throw graph_program_compilation_error("vertex type '" + vc.name + "' has no entry point in the tile "
                                                "image; re-add its codelets");
        perTile[g_.vertices[vid].tile].emplace_back(sym->second, state);
      }
      std::map<std::uint32_t, std::uint32_t> tables;
      for (const auto &[t, entries] : perTile) {
        std::uint32_t addr = alloc(t, 4 + IPU_VERTEX_ENTRY_SIZE * entries.size(), 4, "compute set table", info.name);
        write32(t, addr, std::uint32_t(entries.size()));
        for (std::size_t i = 0; i < entries.size(); ++i) {
          write32(t, addr + 4 + 8 * std::uint32_t(i), entries[i].first);
          write32(t, addr + 8 + 8 * std::uint32_t(i), entries[i].second);
        }
        tables[t] = addr;
      }
      execTables_.push_back(tables);
      ExecPlan plan;
      plan.table = unsigned(execTables_.size() - 1);
      std::vector<Step> pre, post;
      exchange(w.pre, pre, "inputs of " + info.name, depth);
      plan.pre = pre;
      exchange(w.post, post, "outputs of " + info.name, depth);
      if (!post.empty()) { // recorded below, after the Execute, in program order
        plan.postBytes = curSteps_->back().bytes;
        curSteps_->pop_back();
      }
      plan.post = post;
      cached = executeCache_.emplace(cs, plan).first;
    } else {
      if (!cached->second.pre.empty())
        curSteps_->push_back(StepInfo{"Exchange (inputs of " + info.name + ")", 0, depth});
    }
    const ExecPlan &plan = cached->second;
    steps.insert(steps.end(), plan.pre.begin(), plan.pre.end());
    unitDone(steps, depth, first);
    first = curSteps_->size();
    Step e;
    e.k = Step::Execute;
    e.id = plan.table;
    steps.push_back(e);
    steps.push_back(Step{});
    curSteps_->push_back(StepInfo{"Execute " + info.name + " (" + std::to_string(info.vertices.size()) +
                                      " vertices)", 0, depth});
    unitDone(steps, depth, first);
    first = curSteps_->size();
    steps.insert(steps.end(), plan.post.begin(), plan.post.end());
    if (!plan.post.empty())
      curSteps_->push_back(StepInfo{"Exchange (outputs of " + info.name + ")", plan.postBytes, depth});
    unitDone(steps, depth, first);
  }

  // ---- programs ---------------------------------------------------------------------------------------------

  void lower(const Node &n, std::vector<Step> &steps, unsigned depth) {
    std::size_t first = curSteps_->size();
    lowerNode(n, steps, depth);
    if (n.kind != Kind::Sequence && n.kind != Kind::Execute) // lowerExecute ends its own steps
      unitDone(steps, depth, first);
  }

  void lowerNode(const Node &n, std::vector<Step> &steps, unsigned depth) {
    switch (n.kind) {
    case Kind::Sequence:
      for (const auto &c : n.children)
        lower(*c, steps, depth);
      break;
    case Kind::Execute:
      lowerExecute(n.cs.getId(), steps, depth);
      break;
    case Kind::Copy:
      checkSameGraph(n.src, "Copy");
      checkSameGraph(n.dst, "Copy");
      exchange(copyTransfers(n.src, n.dst), steps, "Copy " + (n.name.empty() ? describe(n.dst) : n.name), depth);
      break;
    case Kind::StreamIn:
    case Kind::StreamOut:
      lowerStream(n, steps, depth);
      break;
    case Kind::Repeat: {
      if (n.count == 0)
        break;
      Step s;
      s.k = Step::Repeat;
      s.count = n.count;
      curSteps_->push_back(StepInfo{"Repeat x" + std::to_string(n.count), 0, depth});
      lower(*n.children[0], s.a, depth + 1);
      steps.push_back(std::move(s));
      break;
    }
    case Kind::If: {
      Step s;
      s.k = Step::If;
      s.id = consensus(n.src, steps, "If", depth);
      s.width = unsigned(n.src.elementType().getSize());
      curSteps_->push_back(StepInfo{"If", 0, depth});
      lower(*n.children[0], s.a, depth + 1);
      curSteps_->push_back(StepInfo{"Else", 0, depth});
      lower(*n.children[1], s.b, depth + 1);
      steps.push_back(std::move(s));
      break;
    }
    case Kind::Switch: {
      Step s;
      s.k = Step::Switch;
      s.id = consensus(n.src, steps, "Switch", depth);
      s.width = unsigned(n.src.elementType().getSize());
      if (n.caseValues.size() > IPU_CP_SWITCH_MAX_CASES)
        throw graph_program_compilation_error("Switch with " + std::to_string(n.caseValues.size()) +
                                              " cases: at most " + std::to_string(IPU_CP_SWITCH_MAX_CASES));
      for (std::size_t i = 0; i < n.caseValues.size(); ++i) {
        curSteps_->push_back(StepInfo{"Case " + std::to_string(n.caseValues[i]), 0, depth});
        s.cases.emplace_back();
        lower(*n.children[i], s.cases.back(), depth + 1);
        s.caseValues.push_back(std::uint32_t(n.caseValues[i]));
      }
      curSteps_->push_back(StepInfo{"Default", 0, depth});
      lower(*n.children.back(), s.b, depth + 1);
      steps.push_back(std::move(s));
      break;
    }
    case Kind::WhileTrue:
    case Kind::WhileFalse: {
      Step s;
      s.k = Step::While;
      s.whileFalse = n.kind == Kind::WhileFalse;
      s.width = unsigned(n.src.elementType().getSize());
      curSteps_->push_back(StepInfo{s.whileFalse ? "RepeatWhileFalse" : "RepeatWhileTrue", 0, depth});
      lower(*n.children[0], s.a, depth + 1);
      s.id = consensus(n.src, s.a, "RepeatWhile", depth + 1);
      lower(*n.children[1], s.b, depth + 1);
      steps.push_back(std::move(s));
      break;
    }
    case Kind::Print:
      lowerPrint(n, steps, depth);
      break;
    case Kind::Sync:
      steps.push_back(Step{});
      curSteps_->push_back(StepInfo{"Sync", 0, depth});
      break;
    }
  }

  void checkSameGraph(const Tensor &t, const char *what) const {
    if (t.graphImpl() != &g_)
      throw graph_program_compilation_error(std::string(what) + ": tensor " + describe(t) +
                                            " belongs to another graph than the engine's");
  }

  void lowerStream(const Node &n, std::vector<Step> &steps, unsigned depth) {
    const CompiledStream &cs = out_.streams.at(n.stream.getId());
    const Tensor &t = n.kind == Kind::StreamIn ? n.dst : n.src;
    std::map<std::uint32_t, std::vector<Piece>> perTile;
    for (const Piece &p : pieces(t))
      perTile[p.tile].push_back(p);
    std::map<std::uint32_t, std::uint32_t> lists;
    for (const auto &[tl, ps] : perTile) {
      std::uint32_t addr = alloc(tl, 4 + IPU_HX_DESC_SIZE * ps.size(), 4, "host exchange list", cs.name);
      write32(tl, addr, std::uint32_t(ps.size()));
      for (std::size_t i = 0; i < ps.size(); ++i) {
        std::uint32_t d = addr + 4 + IPU_HX_DESC_SIZE * std::uint32_t(i);
        write32(tl, d + IPU_HX_DESC_DEV_ADDR_OFFSET, cs.devAddr + std::uint32_t(ps[i].offset));
        write32(tl, d + IPU_HX_DESC_TILE_ADDR_OFFSET, ps[i].addr);
        write32(tl, d + IPU_HX_DESC_LENGTH_OFFSET, ps[i].len);
        write32(tl, d + IPU_HX_DESC_FLAGS_OFFSET, cs.toDevice ? 0u : IPU_HX_TO_HOST);
      }
      lists[tl] = addr;
    }
    streamCopies_.push_back(StreamCopy{cs.id, lists});
    Step s;
    s.k = Step::Stream;
    s.id = unsigned(streamCopies_.size() - 1);
    steps.push_back(s);
    curSteps_->push_back(
        StepInfo{"StreamCopy " + cs.name + (cs.toDevice ? " (host to device)" : " (device to host)"), cs.bytes, depth});
  }

  void lowerPrint(const Node &n, std::vector<Step> &steps, unsigned depth) {
    const Tensor &t = n.src;
    std::vector<Piece> ps = pieces(t);
    std::uint32_t tl = ps.empty() ? *tiles_.begin() : ps[0].tile;
    std::uint32_t addr = ps.empty() ? out_.image.freeStart : ps[0].addr;
    if (ps.size() > 1) {
      std::size_t bytes = t.numElements() * t.elementType().getSize();
      addr = alloc(tl, bytes, 8, "print buffer", n.name);
      std::vector<Transfer> xs;
      for (const Piece &p : ps)
        xs.push_back(Transfer{p.tile, p.addr, tl, addr + std::uint32_t(p.offset), p.len});
      exchange(xs, steps, "PrintTensor " + n.name, depth);
    }
    std::string marker = "@P" + std::to_string(out_.prints.size());
    std::uint32_t name = alloc(tl, marker.size() + 1, 1, "print name", n.name);
    write(tl, name, marker.c_str(), marker.size() + 1);
    out_.prints[marker] = PrintInfo{n.name, t.shape(), t.elementType()};
    prints_.push_back(PrintStep{tl, addr, std::uint32_t(t.numElements()), t.elementType().id(), name});
    Step s;
    s.k = Step::Print;
    s.id = unsigned(prints_.size() - 1);
    steps.push_back(s);
    curSteps_->push_back(StepInfo{"PrintTensor " + n.name, 0, depth});
  }

  // ---- encoding ---------------------------------------------------------------------------------------------

  std::uint32_t emptyList(std::uint32_t t) {
    auto it = emptyLists_.find(t);
    if (it != emptyLists_.end())
      return it->second;
    std::uint32_t a = alloc(t, 4, 4, "host exchange list", "(none)");
    emptyLists_[t] = a;
    return a;
  }

  void emit(ipu_cp_builder *b, const std::vector<Step> &steps, std::uint32_t t) {
    for (const Step &s : steps) {
      switch (s.k) {
      case Step::Sync:
        ipu_cp_emit_sync(b, IPU_SYNC_KIND_INTERNAL, 0);
        break;
      case Step::Exchange: {
        auto it = exchangeLists_[s.id].find(t);
        if (it != exchangeLists_[s.id].end())
          ipu_cp_emit_exchange(b, it->second);
        break;
      }
      case Step::Execute: {
        auto it = execTables_[s.id].find(t);
        if (it != execTables_[s.id].end())
          ipu_cp_emit_execute(b, it->second);
        break;
      }
      case Step::Stream: {
        const StreamCopy &sc = streamCopies_[s.id];
        auto it = sc.lists.find(t);
        ipu_cp_emit_stream_copy(b, sc.syncId, it != sc.lists.end() ? it->second : emptyList(t));
        break;
      }
      case Step::Print: {
        const PrintStep &p = prints_[s.id];
        if (p.tile == t)
          ipu_cp_emit_print_tensor(b, p.dtype, p.addr, p.count, p.name);
        break;
      }
      case Step::Repeat: {
        ipu_cp_mark m = ipu_cp_begin_repeat(b, s.count);
        emit(b, s.a, t);
        ipu_cp_end_repeat(b, &m);
        break;
      }
      case Step::If: {
        ipu_cp_mark m = ipu_cp_begin_if(b, s.width, condSlots_[s.id].at(t));
        emit(b, s.a, t);
        ipu_cp_else(b, &m);
        emit(b, s.b, t);
        ipu_cp_end_if(b, &m);
        break;
      }
      case Step::Switch: {
        ipu_cp_mark m = ipu_cp_begin_switch(b, s.width, condSlots_[s.id].at(t), std::uint32_t(s.cases.size()),
                                            s.caseValues.data());
        for (const auto &c : s.cases) {
          ipu_cp_case(b, &m);
          emit(b, c, t);
        }
        ipu_cp_default(b, &m);
        emit(b, s.b, t);
        ipu_cp_end_switch(b, &m);
        break;
      }
      case Step::While: {
        // The slot id is only known after the condition body was lowered; it is the last consensus in s.a.
        ipu_cp_mark m = ipu_cp_begin_while(b, s.width, s.whileFalse, condSlots_[s.id].at(t));
        emit(b, s.a, t);
        ipu_cp_while_body(b, &m);
        emit(b, s.b, t);
        ipu_cp_end_while(b, &m);
        break;
      }
      }
    }
  }

  void encode(const std::vector<Step> &steps) {
    std::map<std::uint32_t, std::uint32_t> addrs;
    for (std::uint32_t t : tiles_) {
      // The stream copies' empty lists must exist before measuring (they allocate on first use).
      ipu_cp_builder measure;
      ipu_cp_builder_init(&measure, nullptr, 0);
      emit(&measure, steps, t);
      ipu_cp_emit_end(&measure);
      std::vector<std::uint32_t> words(measure.length);
      ipu_cp_builder b;
      ipu_cp_builder_init(&b, words.data(), words.size());
      emit(&b, steps, t);
      ipu_cp_emit_end(&b);
      int rc = ipu_cp_builder_finish(&b);
      if (rc != IPU_CP_OK)
        throw graph_program_compilation_error(std::string("encoding the control program of tile ") +
                                              std::to_string(t) + " failed: " + ipu_cp_strerror(rc));
      std::uint32_t addr = alloc(t, words.size() * 4, 4, "control program", "program " +
                                                                             std::to_string(out_.programAddr.size()));
      write(t, addr, words.data(), words.size() * 4);
      addrs[t] = addr;
    }
    out_.programAddr.push_back(addrs);
  }

  struct ExecPlan {
    unsigned table = 0;
    std::vector<Step> pre, post;
    std::uint64_t postBytes = 0;
  };
  struct StreamCopy {
    std::uint32_t syncId;
    std::map<std::uint32_t, std::uint32_t> lists;
  };
  struct PrintStep {
    std::uint32_t tile, addr, count, dtype, name;
  };

  const GraphImpl &g_;
  CompiledGraph out_;
  std::set<std::uint32_t> tiles_;
  std::vector<std::vector<VarSeg>> segs_;
  std::vector<std::map<std::uint32_t, std::uint32_t>> exchangeLists_, execTables_, condSlots_;
  std::vector<StreamCopy> streamCopies_;
  std::vector<PrintStep> prints_;
  std::map<std::uint32_t, std::uint32_t> emptyLists_;
  std::map<unsigned, ExecPlan> executeCache_;
  std::vector<StepInfo> *curSteps_ = nullptr;
  std::string stampEntry_;
};

} // namespace

CompiledGraph compileGraph(const GraphImpl &graph, const std::vector<program::Program> &programs, bool instrument) {
  return Compiler(graph, instrument).run(programs);
}

} // namespace poplar::detail
