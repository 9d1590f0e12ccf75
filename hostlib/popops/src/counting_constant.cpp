// The constant 0 .. n-1 mapped linearly (counting_constant.hpp).
#include "counting_constant.hpp"

#include <vector>

#include "poputil/TileMapping.hpp"

namespace popops::detail {

poplar::Tensor countingConstant(poplar::Graph &graph, std::size_t n, const std::string &name) {
  std::vector<unsigned> numbers(n);
  for (std::size_t i = 0; i < n; ++i)
    numbers[i] = unsigned(i);
  poplar::Tensor ids = graph.addConstant(poplar::UNSIGNED_INT, {n}, numbers, name);
  poputil::mapTensorLinearly(graph, ids);
  return ids;
}

} // namespace popops::detail
