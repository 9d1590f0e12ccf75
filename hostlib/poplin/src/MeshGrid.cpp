// linspace and meshgrid2d: a mapped constant and two broadcast views.
#include "poplin/MeshGrid.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace poplin {

poplar::Tensor linspace(poplar::Graph &graph, const poplar::Type &type, float left, float right, std::size_t count,
                        const poplar::DebugContext &debugContext) {
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poputil::poplibs_error("poplin::linspace: type " + type.toString() + " is not FLOAT or HALF");
  std::vector<float> values(count);
  // Each value from its index (not by repeated addition) so that the last one is `right` up to one rounding.
  const double step = count > 1 ? (double(right) - double(left)) / double(count - 1) : 0.0;
  for (std::size_t i = 0; i < count; ++i)
    values[i] = float(double(left) + double(i) * step);
  if (count > 1)
    values[count - 1] = right;
  poplar::Tensor t = graph.addConstant(type, {count}, values, {debugContext, "linspace"});
  poputil::mapTensorLinearly(graph, t);
  return t;
}

std::vector<poplar::Tensor> meshgrid2d(poplar::Graph &, poplar::Tensor x, poplar::Tensor y) {
  if (x.rank() != 1 || y.rank() != 1)
    throw poputil::poplibs_error("poplin::meshgrid2d: x has shape " + x.shapeToString() + " and y " +
                                 y.shapeToString() + "; both must be vectors (rank 1)");
  if (x.elementType() != y.elementType())
    throw poputil::poplibs_error("poplin::meshgrid2d: x holds " + x.elementType().toString() + " but y holds " +
                                 y.elementType().toString() + "; pass both of one type");
  const std::size_t nx = x.numElements(), ny = y.numElements();
  return {x.reshape({1, nx}).broadcast(unsigned(ny), 0), y.reshape({ny, 1}).broadcast(unsigned(nx), 1)};
}

} // namespace poplin
