// Internal: see vertices.hpp.
#include "vertices.hpp"

#include <algorithm>

#include "poputil/exceptions.hpp"

namespace popnn::detail {

poplar::TileToTensorMapping completeMapping(const poplar::Graph &graph, const poplar::Tensor &t,
                                            const std::string &what) {
  poplar::TileToTensorMapping m = graph.getTileMapping(t, false);
  std::size_t n = 0;
  for (const auto &tile : m)
    for (const auto &iv : tile)
      n += iv.size();
  if (n != t.numElements())
    throw poputil::poplibs_error(what + ": the tensor has unmapped elements; map it (e.g. "
                                        "poputil::mapTensorLinearly) before the call");
  return m;
}

void checkFloatOrHalf(const poplar::Tensor &t, const std::string &what, const char *role) {
  if (!t.valid())
    throw poputil::poplibs_error(what + ": " + role + " is an invalid (default-constructed) tensor");
  if (t.elementType() != poplar::FLOAT && t.elementType() != poplar::HALF)
    throw poputil::poplibs_error(what + ": " + role + " holds " + t.elementType().toString() +
                                 "; only FLOAT and HALF are supported (cast it with popops::cast)");
}

std::string vertexFor(const char *vertex, const poplar::Type &type) {
  return std::string(vertex) + (type == poplar::HALF ? "Half" : "");
}

} // namespace popnn::detail
