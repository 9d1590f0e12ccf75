// Internal: lowering, part 2: exchanges between tiles (copies, edge buffers, predicate copies).
#include "ipu_card/hw.h"
#include "lower.hpp"

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
  std::vector<Piece> a = pieces(src), b = pieces(dst);
  std::vector<ir::Transfer> out;
  std::size_t i = 0, j = 0;
  std::uint32_t ai = 0, bj = 0;
  while (i < a.size() && j < b.size()) {
    std::uint32_t len = std::min(a[i].len - ai, b[j].len - bj);
    out.push_back(ir::Transfer{{a[i].at.buf, a[i].at.offset + ai}, {b[j].at.buf, b[j].at.offset + bj}, len});
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
