// poputil/Broadcast.hpp: shape matching by views (expand and broadcast), never a copy.
#include "poputil/Broadcast.hpp"

#include <algorithm>
#include <string>

#include "poputil/exceptions.hpp"

namespace poputil {

using poplar::Tensor;

namespace {

std::string shapeString(const std::vector<std::size_t> &shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

// `t` with `n` outer dimensions of size 1 added.
Tensor withOuterOnes(const Tensor &t, std::size_t n) {
  return n == 0 ? t : t.expand(std::vector<std::size_t>(n, 0));
}

// The common shape of `a` and `b` under numpy's rules, or false.
bool commonShape(std::vector<std::size_t> a, std::vector<std::size_t> b, std::vector<std::size_t> &out) {
  if (a.size() < b.size())
    a.insert(a.begin(), b.size() - a.size(), 1);
  if (b.size() < a.size())
    b.insert(b.begin(), a.size() - b.size(), 1);
  out.resize(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i] && a[i] != 1 && b[i] != 1)
      return false;
    out[i] = a[i] == 1 ? b[i] : a[i];
  }
  return true;
}

std::vector<std::size_t> commonShapeOrThrow(const Tensor &a, const Tensor &b) {
  std::vector<std::size_t> shape;
  if (!commonShape(a.shape(), b.shape(), shape))
    throw poplibs_error("broadcastToMatch: shapes " + shapeString(a.shape()) + " and " + shapeString(b.shape()) +
                        " do not broadcast (each dimension must be equal or 1 on one side); reshape an operand");
  return shape;
}

} // namespace

void expandToMatchRanks(Tensor &a, Tensor &b) {
  if (a.rank() < b.rank())
    a = withOuterOnes(a, b.rank() - a.rank());
  else if (b.rank() < a.rank())
    b = withOuterOnes(b, a.rank() - b.rank());
}

void broadcastToMatch(Tensor &a, const std::vector<std::size_t> &shape) {
  if (a.rank() > shape.size())
    throw poplibs_error("broadcastToMatch: a tensor of shape " + shapeString(a.shape()) +
                        " has more dimensions than the shape " + shapeString(shape) +
                        " to match; pass a shape of at least its rank");
  Tensor t = withOuterOnes(a, shape.size() - a.rank());
  for (unsigned d = 0; d < shape.size(); ++d) {
    if (t.dim(d) == shape[d])
      continue;
    if (t.dim(d) != 1)
      throw poplibs_error("broadcastToMatch: dimension " + std::to_string(d) + " of shape " +
                          shapeString(a.shape()) + " (expanded to rank " + std::to_string(shape.size()) +
                          ") is " + std::to_string(t.dim(d)) + ", neither 1 nor " + std::to_string(shape[d]) +
                          " of the shape " + shapeString(shape) + " to match");
    t = t.broadcast(unsigned(shape[d]), d);
  }
  a = t;
}

void broadcastToMatch(Tensor &a, Tensor &b) {
  const std::vector<std::size_t> shape = commonShapeOrThrow(a, b);
  broadcastToMatch(a, shape);
  broadcastToMatch(b, shape);
}

void broadcastToMatch(Tensor &a, Tensor &b, Tensor &c) {
  std::vector<std::size_t> ab = commonShapeOrThrow(a, b), shape;
  if (!commonShape(ab, c.shape(), shape))
    throw poplibs_error("broadcastToMatch: shapes " + shapeString(a.shape()) + ", " + shapeString(b.shape()) +
                        " and " + shapeString(c.shape()) +
                        " do not broadcast (each dimension must be equal or 1); reshape an operand");
  broadcastToMatch(a, shape);
  broadcastToMatch(b, shape);
  broadcastToMatch(c, shape);
}

bool canBroadcastToMatch(const Tensor &a, const Tensor &b) {
  std::vector<std::size_t> shape;
  return commonShape(a.shape(), b.shape(), shape);
}

} // namespace poputil
