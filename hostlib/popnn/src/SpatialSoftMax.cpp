// spatialSoftMax2D: the fields scaled by 1 / temperature and softmaxed as one vector, then one matrix product
// with the coordinate grids as two columns gives every field's expected y and x.
#include "popnn/SpatialSoftMax.hpp"

#include <poplin/MatMul.hpp>
#include <poplin/MeshGrid.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {

namespace pe = popops::expr;

std::pair<poplar::Tensor, poplar::Tensor> spatialSoftMax2D(poplar::Graph &graph, poplar::program::Sequence &prog,
                                                           const poplar::Tensor &fields, float temperature,
                                                           bool disableSoftmax,
                                                           const poplar::DebugContext &debugContext) {
  const std::string path = debugContext.getPathName();
  const std::string name = (path.empty() ? std::string("popnn::spatialSoftMax2D") : path + "/spatialSoftMax2D");
  if (!fields.valid() || fields.rank() != 3)
    throw poputil::poplibs_error(name + ": fields has shape " + (fields.valid() ? fields.shapeToString() : "none") +
                                 "; give {fields, height, width}");
  const poplar::Type type = fields.elementType();
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poputil::poplibs_error(name + ": fields holds " + type.toString() + "; give FLOAT or HALF");
  const std::size_t F = fields.dim(0), H = fields.dim(1), W = fields.dim(2), HW = H * W;

  poplar::Tensor temp = graph.addVariable(type, {}, name + "/temperature");
  graph.setTileMapping(temp, 0);
  graph.setInitialValue(temp, temperature);

  // The scaled fields as the rows of the product's left operand, laid out for it.
  const std::vector<std::size_t> lhsShape = {F, HW}, rhsShape = {HW, 2};
  poplar::Tensor lhs = poplin::createMatMulInputLHS(graph, type, lhsShape, rhsShape, name + "/lhs");
  popops::mapWithOutput(graph, pe::_1 / pe::_2, {fields.reshape(lhsShape), temp}, lhs, prog, name + "/scale");
  if (!disableSoftmax)
    nonLinearityInPlace(graph, NonLinearityType::SOFTMAX_STABLE, lhs.flatten(), prog, name + "/softmax");

  // Column 0 holds each position's y, column 1 its x (row-major positions, as the fields are flattened).
  std::vector<poplar::Tensor> grids =
      poplin::meshgrid2d(graph, poplin::linspace(graph, type, -1.f, 1.f, W, {debugContext, "x"}),
                         poplin::linspace(graph, type, -1.f, 1.f, H, {debugContext, "y"}));
  poplar::Tensor coords = poplar::concat(grids[1].reshape({HW, 1}), grids[0].reshape({HW, 1}), 1);
  poplar::Tensor rhs = poplin::createMatMulInputRHS(graph, type, lhsShape, rhsShape, name + "/rhs");
  prog.add(poplar::program::Copy(coords, rhs));
  return std::make_pair(poplin::matMul(graph, lhs, rhs, prog, name + "/matMul"), temp);
}

} // namespace popnn
