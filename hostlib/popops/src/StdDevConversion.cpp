// popops::varianceToInvStdDev / invStdDevToVariance with a destination type (ElementWise.hpp): one map that
// computes in the input's type and converts the result, so that e.g. float statistics give a half inverse.
#include <string>

#include "poplibs_support.hpp"
#include "popops/ElementWise.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

using poplar::Tensor;
namespace pe = popops::expr;

namespace {

// The conversion `op` of src with epsilon (operand _2, or a constant when `epsilon` is null) into dstType, which
// must be `allowed` or src's own type.
Tensor convert(poplar::Graph &graph, pe::BinaryOpType op, const Tensor &src, const Tensor *epsilon, float constant,
               poplar::program::Sequence &prog, const poplar::Type &dstType, const poplar::Type &allowed,
               const poplar::DebugContext &debugContext, const char *fn) {
  const std::string name = poplibs_support::operationName(debugContext, "popops::", fn);
  if (!src.valid())
    throw poputil::poplibs_error(name + ": the source is an invalid (default-constructed) tensor");
  const poplar::Type &in = src.elementType();
  if (in != poplar::FLOAT && in != poplar::HALF)
    throw poputil::poplibs_error(name + ": the source holds " + in.toString() + "; it must be FLOAT or HALF");
  if (dstType != in && dstType != allowed)
    throw poputil::poplibs_error(name + ": dstType " + dstType.toString() + " must be " + allowed.toString() +
                                 " or the source's type (" + in.toString() + ")");
  if (epsilon)
    return map(graph, pe::Cast(pe::BinaryOp(op, pe::_1, pe::Cast(pe::_2, in)), dstType), {src, *epsilon}, prog,
               name);
  return map(graph, pe::Cast(pe::BinaryOp(op, pe::_1, pe::Cast(pe::Const(constant), in)), dstType), {src}, prog,
             name);
}

} // namespace

Tensor varianceToInvStdDev(poplar::Graph &graph, const Tensor &src, const Tensor &epsilon,
                           poplar::program::Sequence &prog, const poplar::Type dstType,
                           const poplar::DebugContext &debugContext) {
  return convert(graph, pe::BinaryOpType::VARIANCE_TO_INV_STD_DEV, src, &epsilon, 0.0f, prog, dstType, poplar::HALF,
                 debugContext, "varianceToInvStdDev");
}

Tensor varianceToInvStdDev(poplar::Graph &graph, const Tensor &src, const float epsilon,
                           poplar::program::Sequence &prog, const poplar::Type dstType,
                           const poplar::DebugContext &debugContext) {
  return convert(graph, pe::BinaryOpType::VARIANCE_TO_INV_STD_DEV, src, nullptr, epsilon, prog, dstType,
                 poplar::HALF, debugContext, "varianceToInvStdDev");
}

Tensor invStdDevToVariance(poplar::Graph &graph, const Tensor &src, const Tensor &epsilon,
                           poplar::program::Sequence &prog, const poplar::Type dstType,
                           const poplar::DebugContext &debugContext) {
  return convert(graph, pe::BinaryOpType::INV_STD_DEV_TO_VARIANCE, src, &epsilon, 0.0f, prog, dstType, poplar::FLOAT,
                 debugContext, "invStdDevToVariance");
}

Tensor invStdDevToVariance(poplar::Graph &graph, const Tensor &src, const float epsilon,
                           poplar::program::Sequence &prog, const poplar::Type dstType,
                           const poplar::DebugContext &debugContext) {
  return convert(graph, pe::BinaryOpType::INV_STD_DEV_TO_VARIANCE, src, nullptr, epsilon, prog, dstType,
                 poplar::FLOAT, debugContext, "invStdDevToVariance");
}

} // namespace popops
