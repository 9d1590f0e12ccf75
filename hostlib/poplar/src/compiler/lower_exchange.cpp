// Internal: lowering, part 2: exchanges between tiles (copies, edge buffers, predicate copies).
#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "ipu_card/hw.h"
#include "lower.hpp"
#include "poplar/exceptions.hpp"

namespace poplar::detail::lower {

namespace {

/// A source run sent to more places than this is a broadcast worth relaying: its descriptors alone would take 4 KiB
/// of the sending tile's memory.
constexpr std::size_t kRelayAbove = 256;
/// How many tiles one holder of a broadcast run serves in one wave.
constexpr std::size_t kRelayFanOut = 32;

/// Appends `t` to wave `w`, adding waves as needed.
void addToWave(std::vector<std::vector<ir::Transfer>> &waves, std::size_t w, const ir::Transfer &t) {
  if (waves.size() <= w)
    waves.resize(w + 1);
  waves[w].push_back(t);
}

/// Splits `transfers` into waves, each one exchange. A run of source bytes sent to more than kRelayAbove places (a
/// scalar or a vector broadcast) goes out in two phases, so that no tile's exchange lists grow with the number of
/// destinations (a real IPU multicasts instead):
///  - across tiles, a tree: in each wave every tile that already holds the bytes sends them to up to kRelayFanOut
///    tiles that do not (one place per tile; three waves reach every tile of an ipu2);
///  - within each tile, a doubling: a run of adjacent places is filled from its first, 1, 2, 4, ... copies at a
///    time, one transfer per wave.
/// Every other transfer goes in the first wave, where it would have gone anyway; a later wave only reads bytes that
/// an earlier wave wrote.
std::vector<std::vector<ir::Transfer>> relayWaves(const ir::Module &m, std::vector<ir::Transfer> transfers) {
  std::vector<std::vector<ir::Transfer>> waves(1);
  // The usual exchange cannot hold a broadcast: nothing to group.
  if (transfers.size() <= kRelayAbove) {
    waves[0] = std::move(transfers);
    return waves;
  }
  // The transfers' indices grouped by source run (buffer, offset, length), groups in that order and indices in
  // order within each: one sort of a flat array rather than a map of vectors per exchange.
  using SourceKey = std::tuple<ir::BufferId, std::uint32_t, std::uint32_t>;
  auto keyOf = [&transfers](std::size_t i) {
    return SourceKey{transfers[i].src.buf, transfers[i].src.offset, transfers[i].len};
  };
  std::vector<std::size_t> order(transfers.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&keyOf](std::size_t x, std::size_t y) {
    const SourceKey kx = keyOf(x), ky = keyOf(y);
    return kx != ky ? kx < ky : x < y;
  });
  std::vector<bool> relayed(transfers.size(), false);
  std::vector<std::size_t> uses;
  for (std::size_t groupBegin = 0; groupBegin < order.size();) {
    std::size_t groupEnd = groupBegin + 1;
    while (groupEnd < order.size() && keyOf(order[groupEnd]) == keyOf(order[groupBegin]))
      ++groupEnd;
    const std::size_t from = std::exchange(groupBegin, groupEnd);
    if (groupEnd - from <= kRelayAbove)
      continue;
    uses.assign(order.begin() + std::ptrdiff_t(from), order.begin() + std::ptrdiff_t(groupEnd));
    const std::uint32_t len = transfers[uses[0]].len;
    // The places on each tile, in memory order; the first is the tile's copy in the tree.
    std::map<std::uint32_t, std::vector<ir::Ref>> byTile;
    for (std::size_t i : uses) {
      byTile[m.buffers[transfers[i].dst.buf].tile].push_back(transfers[i].dst);
      relayed[i] = true;
    }
    std::vector<ir::Ref> firsts;
    for (auto &[tile, places] : byTile) {
      std::sort(places.begin(), places.end(), [](const ir::Ref &x, const ir::Ref &y) {
        return x.buf != y.buf ? x.buf < y.buf : x.offset < y.offset;
      });
      firsts.push_back(places[0]);
    }
    std::vector<ir::Ref> holders{transfers[uses[0]].src};
    std::size_t next = 0, treeWaves = 0;
    for (; next < firsts.size(); ++treeWaves) {
      const std::size_t holding = holders.size();
      for (std::size_t h = 0; h < holding && next < firsts.size(); ++h)
        for (std::size_t k = 0; k < kRelayFanOut && next < firsts.size(); ++k, ++next) {
          addToWave(waves, treeWaves, ir::Transfer{holders[h], firsts[next], len});
          holders.push_back(firsts[next]);
        }
    }
    for (const auto &[tile, places] : byTile) {
      // Runs of adjacent places; a run that does not start at the tile's first place gets its first copy from it.
      for (std::size_t begin = 0; begin < places.size();) {
        std::size_t end = begin + 1;
        while (end < places.size() && places[end].buf == places[begin].buf &&
               places[end].offset == places[end - 1].offset + len)
          ++end;
        std::size_t wave = treeWaves;
        if (begin != 0)
          addToWave(waves, wave++, ir::Transfer{places[0], places[begin], len});
        for (std::size_t have = 1; have < end - begin; have *= 2, ++wave) {
          const std::size_t copies = std::min(have, end - begin - have);
          addToWave(waves, wave,
                    ir::Transfer{places[begin], places[begin + have], std::uint32_t(copies * len)});
        }
        begin = end;
      }
    }
  }
  std::vector<ir::Transfer> first;
  for (std::size_t i = 0; i < transfers.size(); ++i)
    if (!relayed[i])
      first.push_back(transfers[i]);
  first.insert(first.end(), waves[0].begin(), waves[0].end());
  waves[0] = std::move(first);
  return waves;
}

} // namespace

void Lowering::exchange(std::vector<ir::Transfer> transfers, ir::Body &out, const std::string &what, bool relay) {
  if (!relay) {
    exchangeStep(std::move(transfers), out, what);
    return;
  }
  for (auto &wave : relayWaves(m_, std::move(transfers)))
    exchangeStep(std::move(wave), out, what);
}

void Lowering::exchangeStep(std::vector<ir::Transfer> transfers, ir::Body &out, const std::string &what) {
  if (transfers.empty())
    return;
  ir::ExchangeStep x;
  x.what = what;
  // One list per sending tile; runs that continue the previous one (same buffers, adjacent bytes) merge.
  std::map<std::uint32_t, std::vector<ir::Transfer>> bySrc;
  for (const auto &t : transfers) {
    auto &list = bySrc[m_.buffers[t.src.buf].tile];
    ir::Transfer *last = list.empty() ? nullptr : &list.back();
    if (last && last->src.buf == t.src.buf && last->dst.buf == t.dst.buf &&
        last->src.offset + last->len == t.src.offset && last->dst.offset + last->len == t.dst.offset)
      last->len += t.len;
    else
      list.push_back(t);
    x.bytes += t.len;
  }
  for (const auto &[src, list] : bySrc) {
    ir::BufferId id = newBuffer(src, IPU_LIST_HEADER_SIZE + IPU_EXCH_DESC_SIZE * std::uint32_t(list.size()), 4,
                                "exchange list", what);
    ir::Buffer &b = m_.buffers[id];
    ir::put32(b, IPU_LIST_HEADER_COUNT_OFFSET, std::uint32_t(list.size()));
    for (std::size_t i = 0; i < list.size(); ++i) {
      std::uint32_t d = IPU_LIST_HEADER_SIZE + IPU_EXCH_DESC_SIZE * std::uint32_t(i);
      ir::put32(b, d + IPU_EXCH_DESC_DST_TILE_OFFSET, m_.buffers[list[i].dst.buf].tile);
      ir::putAddr(b, d + IPU_EXCH_DESC_DST_ADDR_OFFSET, list[i].dst);
      ir::putAddr(b, d + IPU_EXCH_DESC_SRC_ADDR_OFFSET, list[i].src);
      ir::put32(b, d + IPU_EXCH_DESC_LENGTH_OFFSET, list[i].len);
    }
    x.lists[src] = id;
    x.transfers.insert(x.transfers.end(), list.begin(), list.end());
  }
  out.push_back(std::move(x));
}

std::vector<ir::Transfer> Lowering::copyTransfers(const Tensor &src, const Tensor &dst) const {
  return copyTransfers(pieces(src), pieces(dst));
}

std::vector<ir::Transfer> Lowering::copyTransfers(const std::vector<Piece> &a, const std::vector<Piece> &b,
                                                  std::vector<std::pair<std::size_t, std::size_t>> *from) {
  std::vector<ir::Transfer> out;
  std::size_t i = 0, j = 0;
  std::uint32_t ai = 0, bj = 0;
  while (i < a.size() && j < b.size()) {
    std::uint32_t len = std::min(a[i].len - ai, b[j].len - bj);
    out.push_back(ir::Transfer{{a[i].at.buf, a[i].at.offset + ai}, {b[j].at.buf, b[j].at.offset + bj}, len});
    if (from)
      from->emplace_back(i, j);
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

void Lowering::lowerReplicaCopy(const Tensor &src, const Tensor &dst, ir::Body &out, const std::string &what) {
  const std::vector<Piece> a = pieces(src, true), b = pieces(dst, true);
  auto allNamed = [](const std::vector<Piece> &ps) {
    return std::all_of(ps.begin(), ps.end(), [](const Piece &p) { return p.replica != kLocalReplica; });
  };
  if (!allNamed(a) || !allNamed(b))
    throw graph_program_compilation_error(
        what + ": one side names specific replicas' elements (getNonReplicatedTensor) and the other is a "
        "replicated tensor; make both sides non-replicated tensors of the top-level graph, or both replicated");
  // The copy's transfers grouped by (source replica, destination replica): each group is one exchange in which
  // only its source replica sends (the replicate pass's per-replica map).
  std::vector<std::pair<std::size_t, std::size_t>> from;
  const std::vector<ir::Transfer> all = copyTransfers(a, b, &from);
  std::map<std::pair<unsigned, unsigned>, std::vector<ir::Transfer>> groups;
  for (std::size_t k = 0; k < all.size(); ++k)
    groups[{a[from[k].first].replica, b[from[k].second].replica}].push_back(all[k]);
  for (auto &[pair, transfers] : groups) {
    const std::size_t before = out.size();
    exchange(std::move(transfers), out, what + " (replica " + std::to_string(pair.first) + " to " +
                                            std::to_string(pair.second) + ")");
    if (out.size() > before) {
      std::vector<int> map(g_.replicationFactor, -1);
      map[pair.first] = int(pair.second);
      std::get<ir::ExchangeStep>(out.back()).replicaMap = std::move(map);
    }
  }
}

ir::Predicate Lowering::consensus(const Tensor &pred, ir::Body &out, const std::string &what) {
  std::vector<Piece> p = pieces(pred);
  ir::Predicate result;
  result.width = std::uint32_t(pred.elementType().getSize());
  std::vector<ir::Transfer> xs;
  for (std::uint32_t t : m_.tiles) {
    // The slot is exactly the predicate's size, so the exchange overwrites all of it and liveness sees it die.
    ir::BufferId slot = newBuffer(t, p[0].len, 4, "predicate copy", what, ir::Lifetime::Dataflow);
    result.slots[t] = slot;
    xs.push_back(ir::Transfer{p[0].at, {slot, 0}, p[0].len});
  }
  exchange(xs, out, "predicate of " + what);
  return result;
}

} // namespace poplar::detail::lower
