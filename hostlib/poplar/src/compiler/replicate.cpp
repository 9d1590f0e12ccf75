// Internal: replication, a rewrite of the lowered module into `replicas` copies side by side on disjoint tiles.
//
// Lowering builds one replica on tiles [0, tilesPerReplica). Copy r of every buffer lives on tile
// tile + r * tilesPerReplica, and its relocations name copy r of their targets, so every address resolves inside
// the replica. Two kinds of contents name things that are not buffers, and are rewritten here: an exchange list's
// destination tile (moved to the replica's tiles), and a host-exchange list's device address (moved to the
// replica's staging slot of its stream, unless the stream is a broadcast one whose one slot all replicas read).
// Every step then names each replica's lists and tables, so all replicas run the same steps in lock-step and meet
// at the same syncs; that is also why control flow must take the same path in every replica.
#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "ipu_card/hw.h"
#include "passes.hpp"
#include "poplar/exceptions.hpp"

namespace poplar::detail::ir {

namespace {

struct Replicator {
  Module &m;
  unsigned replicas;
  std::uint32_t tilesPerReplica;
  BufferId perReplica = 0; ///< buffers of one replica (the module's before the rewrite)
  std::set<BufferId> exchangeLists;
  std::map<BufferId, std::vector<int>> crossLists; ///< lists of copies between replicas, with their maps
  std::set<BufferId> hostLists;

  BufferId copyOf(BufferId b, unsigned r) const { return b == kNoBuffer ? b : b + r * perReplica; }
  std::uint32_t tileOf(std::uint32_t t, unsigned r) const { return t + r * tilesPerReplica; }

  void collect(const Body &body) {
    for (const Step &step : body)
      std::visit(
          [&](const auto &x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, ExchangeStep>) {
              for (const auto &[tile, list] : x.lists) {
                if (x.replicaMap.empty())
                  exchangeLists.insert(list);
                else
                  crossLists[list] = x.replicaMap;
              }
            } else if constexpr (std::is_same_v<T, StreamCopyStep>) {
              for (const auto &[tile, list] : x.lists)
                hostLists.insert(list);
            } else if constexpr (std::is_same_v<T, RepeatStep>) {
              collect(x.body);
            } else if constexpr (std::is_same_v<T, IfStep>) {
              collect(x.thenBody);
              collect(x.elseBody);
            } else if constexpr (std::is_same_v<T, SwitchStep>) {
              for (const Body &c : x.cases)
                collect(c);
              collect(x.defaultBody);
            } else if constexpr (std::is_same_v<T, WhileStep>) {
              collect(x.condition);
              collect(x.body);
            }
          },
          step);
  }

  static std::uint32_t get32(const Buffer &b, std::uint32_t at) {
    std::uint32_t v;
    std::memcpy(&v, b.bytes.data() + at, 4);
    return v;
  }

  /// Adds `delta(field value)` to the word at `field` of every descriptor of list `b`.
  template <typename Fn> static void patchList(Buffer &b, std::uint32_t descSize, std::uint32_t field, Fn delta) {
    const std::uint32_t count = get32(b, IPU_LIST_HEADER_COUNT_OFFSET);
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t at = IPU_LIST_HEADER_SIZE + descSize * i + field;
      put32(b, at, get32(b, at) + delta(get32(b, at)));
    }
  }

  /// The staging-slot offset of replica r for a host-exchange descriptor at device address `dev`.
  std::uint32_t slotOffset(std::uint32_t dev, unsigned r) const {
    for (const Stream &s : m.streams)
      if (dev >= s.devAddr && dev < s.devAddr + s.bytes)
        return s.replicas > 1 ? std::uint32_t(r * s.bytes) : 0;
    throw graph_program_compilation_error("replication: a host exchange names device address " +
                                          std::to_string(dev) + ", which is in no stream (an internal error)");
  }

  Buffer copyBuffer(BufferId id, unsigned r) const {
    Buffer b = m.buffers[id];
    b.tile = tileOf(b.tile, r);
    for (Reloc &rel : b.relocs)
      rel.target.buf = copyOf(rel.target.buf, r);
    if (exchangeLists.count(id))
      patchList(b, IPU_EXCH_DESC_SIZE, IPU_EXCH_DESC_DST_TILE_OFFSET,
                [&](std::uint32_t) { return r * tilesPerReplica; });
    if (hostLists.count(id))
      patchList(b, IPU_HX_DESC_SIZE, IPU_HX_DESC_DEV_ADDR_OFFSET,
                [&](std::uint32_t dev) { return slotOffset(dev, r); });
    if (auto it = crossLists.find(id); it != crossLists.end())
      crossReplicaList(b, m.buffers[id], r, it->second[r]);
    if (b.replicationIndex)
      put32(b, 0, r); // Graph::addReplicationIndexConstant: replica r's copy reads r
    return b;
  }

  /// Replica r's copy `b` of a CrossReplicaCopy's list `original`: its sources are replica r's, its destinations
  /// (tile and address) replica `to`'s; a replica that sends nothing gets an empty list.
  void crossReplicaList(Buffer &b, const Buffer &original, unsigned r, int to) const {
    if (to < 0) {
      put32(b, IPU_LIST_HEADER_COUNT_OFFSET, 0);
      return;
    }
    const unsigned dst = unsigned(to);
    patchList(b, IPU_EXCH_DESC_SIZE, IPU_EXCH_DESC_DST_TILE_OFFSET, [&](std::uint32_t) { return dst * tilesPerReplica; });
    for (std::size_t i = 0; i < b.relocs.size(); ++i) {
      const Reloc &o = original.relocs[i];
      const bool isDst = o.at >= IPU_LIST_HEADER_SIZE &&
                         (o.at - IPU_LIST_HEADER_SIZE) % IPU_EXCH_DESC_SIZE == IPU_EXCH_DESC_DST_ADDR_OFFSET;
      b.relocs[i].target.buf = copyOf(o.target.buf, isDst ? dst : r);
    }
  }

  void addCopies(std::map<std::uint32_t, BufferId> &perTile) const {
    std::map<std::uint32_t, BufferId> all = perTile;
    for (unsigned r = 1; r < replicas; ++r)
      for (const auto &[tile, id] : perTile)
        all[tileOf(tile, r)] = copyOf(id, r);
    perTile = std::move(all);
  }

  void addCopies(std::vector<Access> &accesses) const {
    const std::size_t n = accesses.size();
    for (unsigned r = 1; r < replicas; ++r)
      for (std::size_t i = 0; i < n; ++i)
        accesses.push_back(Access{copyOf(accesses[i].buf, r), accesses[i].begin, accesses[i].end});
  }

  void addCopies(Effects &fx) const {
    addCopies(fx.reads);
    addCopies(fx.writes);
  }

  void rewrite(Body &body) const {
    for (Step &step : body)
      std::visit(
          [&](auto &x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, ExchangeStep>) {
              addCopies(x.lists);
              // Replica r's transfers go from its sources to replica `to`'s destinations (r itself, except in a
              // copy between replicas).
              const std::vector<Transfer> first = std::move(x.transfers);
              x.transfers.clear();
              std::uint64_t senders = 0;
              for (unsigned r = 0; r < replicas; ++r) {
                const int to = x.replicaMap.empty() ? int(r) : x.replicaMap[r];
                if (to < 0)
                  continue;
                ++senders;
                for (Transfer t : first) {
                  t.src.buf = copyOf(t.src.buf, r);
                  t.dst.buf = copyOf(t.dst.buf, unsigned(to));
                  x.transfers.push_back(t);
                }
              }
              x.bytes *= senders;
            } else if constexpr (std::is_same_v<T, ExecuteStep>) {
              addCopies(x.tables);
              addCopies(x.effects);
              x.numVertices *= replicas;
            } else if constexpr (std::is_same_v<T, StreamCopyStep>) {
              addCopies(x.lists);
              addCopies(x.effects);
              x.bytes *= replicas;
            } else if constexpr (std::is_same_v<T, RepeatStep>) {
              rewrite(x.body);
            } else if constexpr (std::is_same_v<T, IfStep>) {
              addCopies(x.pred.slots);
              rewrite(x.thenBody);
              rewrite(x.elseBody);
            } else if constexpr (std::is_same_v<T, SwitchStep>) {
              addCopies(x.pred.slots);
              for (Body &c : x.cases)
                rewrite(c);
              rewrite(x.defaultBody);
            } else if constexpr (std::is_same_v<T, WhileStep>) {
              addCopies(x.pred.slots);
              rewrite(x.condition);
              rewrite(x.body);
            }
            // SyncStep: every tile syncs anyway. PrintStep and StampStep stay on replica 0's tile: one print and
            // one set of cycle stamps, while the other replicas' tiles meet the same syncs.
          },
          step);
  }

  void run() {
    for (std::uint32_t t : m.tiles)
      if (t >= tilesPerReplica)
        throw graph_program_compilation_error(
            "replicated graph: tile " + std::to_string(t) + " is used, but each of the " + std::to_string(replicas) +
            " replicas has tiles 0.." + std::to_string(tilesPerReplica - 1) +
            "; map the top-level graph's tensors and vertices to the first replica's tiles, or build them on the "
            "replicated graph");
    perReplica = BufferId(m.buffers.size());
    for (const Program &p : m.programs)
      collect(p.body);
    // Host lists were written for slot 0; broadcast streams' lists stay as they are in every replica.
    for (unsigned r = 1; r < replicas; ++r)
      for (BufferId id = 0; id < perReplica; ++id)
        m.buffers.push_back(copyBuffer(id, r));
    // Each replica's copy of a vertex gets its own field callback, which sees that replica's edge addresses.
    const std::size_t lateInits = m.lateInits.size();
    for (unsigned r = 1; r < replicas; ++r)
      for (std::size_t i = 0; i < lateInits; ++i) {
        LateInitField f = m.lateInits[i];
        f.state = copyOf(f.state, r);
        for (auto &[name, runs] : f.edges)
          for (auto &run : runs)
            run.first.buf = copyOf(run.first.buf, r);
        m.lateInits.push_back(std::move(f));
      }
    // Replica 0's own lists of copies between replicas, last: the copies above were made from the originals.
    for (const auto &[id, map] : crossLists) {
      Buffer b = m.buffers[id];
      crossReplicaList(b, m.buffers[id], 0, map[0]);
      m.buffers[id] = std::move(b);
    }
    for (Program &p : m.programs)
      rewrite(p.body);
    std::vector<std::uint32_t> tiles = m.tiles;
    for (unsigned r = 1; r < replicas; ++r)
      for (std::uint32_t t : m.tiles)
        tiles.push_back(tileOf(t, r));
    std::sort(tiles.begin(), tiles.end());
    m.tiles = std::move(tiles);
    // A handle of a non-replicated tensor (getNonReplicatedTensor) reads or writes each piece in its replica.
    // Otherwise a host write reaches every replica (the same bytes) and a host read reads replica 0.
    for (auto &[key, h] : m.handles) {
      for (HostHandle::Piece &p : h.pieces)
        if (p.replica != kLocalReplica)
          p.at.buf = copyOf(p.at.buf, p.replica);
      if (!key.write)
        continue;
      const std::size_t n = h.pieces.size();
      for (unsigned r = 1; r < replicas; ++r)
        for (std::size_t i = 0; i < n; ++i) {
          HostHandle::Piece p = h.pieces[i];
          if (p.replica != kLocalReplica)
            continue;
          p.at.buf = copyOf(p.at.buf, r);
          h.pieces.push_back(p);
        }
    }
    m.numEdges *= replicas;
  }
};

} // namespace

void replicate(Module &m, unsigned replicas, std::uint32_t tilesPerReplica) {
  if (replicas <= 1)
    return;
  Replicator{m, replicas, tilesPerReplica}.run();
}

} // namespace poplar::detail::ir
