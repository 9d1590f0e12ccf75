// Internal: see broadcast.hpp.
#include "broadcast.hpp"

#include <algorithm>

#include "poputil/exceptions.hpp"

namespace popops::detail {

std::string shapeString(const std::vector<std::size_t> &shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

std::vector<std::size_t> broadcastShape(const std::vector<std::vector<std::size_t> > &shapes,
                                        const std::string &what) {
  std::size_t rank = 0;
  for (const auto &s : shapes)
    rank = std::max(rank, s.size());
  std::vector<std::size_t> out(rank, 1);
  for (const auto &s : shapes)
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::size_t &o = out[rank - s.size() + i];
      std::size_t d = s[i];
      if (d == o || d == 1)
        continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::string all;
      for (const auto &x : shapes)
        all += (all.empty() ? "" : ", ") + shapeString(x);
      throw poputil::poplibs_error(what + ": operand shapes " + all +
                                   " do not broadcast (each trailing dimension must match or be 1); reshape or "
                                   "slice the operands");
    }
  return out;
}

poplar::Tensor broadcastTo(const poplar::Tensor &t, const std::vector<std::size_t> &shape) {
  if (t.shape() == shape)
    return t;
  std::vector<std::size_t> padded(shape.size() - t.rank(), 1);
  padded.insert(padded.end(), t.shape().begin(), t.shape().end());
  poplar::Tensor v = t.reshape(padded);
  for (unsigned d = 0; d < shape.size(); ++d)
    if (v.dim(d) == 1 && shape[d] != 1)
      v = poplar::concat(std::vector<poplar::Tensor>(shape[d], v), d);
  return v;
}

} // namespace popops::detail
