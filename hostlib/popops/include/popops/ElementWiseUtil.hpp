// Support for element-wise operations: an output laid out so that the operation needs little exchange.
#ifndef POPOPS_ELEMENTWISEUTIL_HPP
#define POPOPS_ELEMENTWISEUTIL_HPP

#include <string>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

namespace popops {

/// A new variable of `outputType` with the inputs' shape (all inputs have one shape), mapped like the input whose
/// complete mapping spreads over the most tiles (so that an element-wise operation into it reads mostly local
/// elements), or linearly when no input is completely mapped. Throws poputil::poplibs_error for no inputs or
/// inputs of different shapes.
poplar::Tensor createOutputForElementWiseOp(poplar::Graph &graph, const std::vector<poplar::Tensor> &inputs,
                                            const poplar::Type &outputType,
                                            const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_ELEMENTWISEUTIL_HPP
