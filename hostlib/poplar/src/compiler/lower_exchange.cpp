// Internal: lowering, part 2: exchanges between tiles (copies, edge buffers, predicate copies).
#include <algorithm>
#include <map>

#include "ipu_card/hw.h"
#include "lower.hpp"
#include "poplar/exceptions.hpp"

namespace poplar::detail::lower {

void Lowering::exchange(std::vector<ir::Transfer> transfers, ir::Body &out, const std::string &what) {
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
