// Dynamic sparse x dense products: the sparse operand is the fully connected layer's weights under another name
// (the [m, k] of each group is the weights' [out, in], dynamic_layout.hpp), made dense on the device from its values
// and meta-information, then multiplied by poplin's grouped matmul. The grid rides in the operand's metadata.
#include "popsparse/MatMul.hpp"

#include <string>

#include <poplin/MatMul.hpp>
#include <popsparse/MatMulParams.hpp>

#include "dynamic_layout.hpp"
#include "matmul_options.hpp"
#include "poputil/exceptions.hpp"

namespace popsparse {
namespace dynamic {

using poplar::Tensor;

namespace {

poplar::OptionFlags productOptions(const poplar::OptionFlags &options, const std::string &name) {
  return popsparse::detail::poplinMatMulOptions(options, popsparse::detail::MatMulOptionSet::Dynamic, name);
}

} // namespace

SparseTensor createSparseDenseMatMulLHS(poplar::Graph &graph, const poplar::Type &inputType,
                                        const MatMulParams &params, const poplar::DebugContext &debugContext,
                                        const poplar::OptionFlags &options, PlanningCache *) {
  const std::string name = detail::opName(debugContext, "createSparseDenseMatMulLHS");
  productOptions(options, name);
  const detail::Grid grid = detail::gridOf(params);
  return detail::createSparse(graph, inputType, grid, name,
                              poputil::TensorMetaData(detail::MatMulLayout(grid).clone()));
}

Tensor createSparseDenseMatMulRHS(poplar::Graph &graph, const poplar::Type &inputType, const MatMulParams &params,
                                  const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                                  PlanningCache *) {
  const std::string name = detail::opName(debugContext, "createSparseDenseMatMulRHS");
  const std::size_t g = params.getNumGroups();
  return poplin::createMatMulGroupedInputRHS(graph, inputType, inputType, {g, params.getM(), params.getK()},
                                             {g, params.getK(), params.getN()}, name, productOptions(options, name));
}

Tensor sparseDenseMatMul(poplar::Graph &graph, const SparseTensor &lhs, const Tensor &rhs,
                         poplar::program::Sequence &prog, bool transposeLHS, bool transposeRHS,
                         const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                         PlanningCache *) {
  const std::string name = detail::opName(debugContext, "sparseDenseMatMul");
  const auto *layout = dynamic_cast<const detail::MatMulLayout *>(lhs.getOpMetaData().getData());
  if (!layout)
    throw poputil::poplibs_error(name + ": the sparse operand carries no product parameters; make it with "
                                        "createSparseDenseMatMulLHS");
  const detail::Grid &grid = layout->grid;
  detail::checkWeights(lhs, grid, name);
  const poplar::OptionFlags mm = productOptions(options, name);
  const poplar::Type type = lhs.getNzValuesTensor().elementType();
  if (!rhs.valid() || rhs.rank() != 3)
    throw poputil::poplibs_error(name + ": rhs is " + (rhs.valid() ? rhs.shapeToString() : "invalid") +
                                 "; pass a 3-D [groups][k][n] tensor");
  if (rhs.elementType() != type)
    throw poputil::poplibs_error(name + ": rhs is " + rhs.elementType().toString() + " and the sparse operand " +
                                 type.toString() + "; pass one type");
  const Tensor b = transposeRHS ? rhs.dimShuffle({0, 2, 1}) : rhs;
  const std::size_t inner = transposeLHS ? grid.outPerGroup : grid.inPerGroup;
  if (b.dim(0) != grid.groups || b.dim(1) != inner)
    throw poputil::poplibs_error(name + ": rhs" + (transposeRHS ? " transposed" : "") + " is " + b.shapeToString() +
                                 "; the sparse operand" + (transposeLHS ? " transposed" : "") + " wants [" +
                                 std::to_string(grid.groups) + ", " + std::to_string(inner) + ", n]");
  const Tensor w = detail::densify(graph, lhs, grid, prog, name); // [groups, m, k]
  return poplin::matMulGrouped(graph, transposeLHS ? w.dimShuffle({0, 2, 1}) : w, b, prog, type, name, mm);
}

} // namespace dynamic
} // namespace popsparse
