// scaledAddTo / scaledSubtractFrom as in-place maps (one compute set each).
#include "popops/ScaledAdd.hpp"

#include "popops/ElementWise.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

using namespace expr;

static void checkScale(const poplar::Tensor &scale, const std::string &what) {
  if (!scale.valid() || scale.numElements() != 1)
    throw poputil::poplibs_error(what + ": the scale tensor must have exactly one element (it has " +
                                 std::to_string(scale.valid() ? scale.numElements() : 0) + ")");
}

static poplar::Tensor scaleAs(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &scale,
                              poplar::program::Sequence &prog, const std::string &name) {
  if (scale.elementType() == A.elementType())
    return scale;
  return map(graph, Cast(_1, A.elementType()), {scale}, prog, name + "/castScale");
}

void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence &prog, const std::string &debugPrefix, const poplar::OptionFlags &options) {
  std::string name = debugPrefix.empty() ? "popops::scaledAddTo" : debugPrefix;
  mapInPlace(graph, _1 + _2 * Const(scaleB), {A, B}, prog, name, options);
}

void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B, poplar::Tensor scaleB,
                 poplar::program::Sequence &prog, const std::string &debugPrefix, const poplar::OptionFlags &options) {
  std::string name = debugPrefix.empty() ? "popops::scaledAddTo" : debugPrefix;
  checkScale(scaleB, name);
  mapInPlace(graph, _1 + _2 * _3, {A, B, scaleAs(graph, A, scaleB, prog, name)}, prog, name, options);
}

void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, float scaleA, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence &prog, const std::string &debugPrefix, const poplar::OptionFlags &options) {
  std::string name = debugPrefix.empty() ? "popops::scaledAddTo" : debugPrefix;
  mapInPlace(graph, _1 * Const(scaleA) + _2 * Const(scaleB), {A, B}, prog, name, options);
}

void scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence &prog, const std::string &debugPrefix,
                        const poplar::OptionFlags &options) {
  std::string name = debugPrefix.empty() ? "popops::scaledSubtractFrom" : debugPrefix;
  mapInPlace(graph, _1 - _2 * Const(scaleB), {A, B}, prog, name, options);
}

void scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B, poplar::Tensor scaleB,
                        poplar::program::Sequence &prog, const std::string &debugPrefix,
                        const poplar::OptionFlags &options) {
  std::string name = debugPrefix.empty() ? "popops::scaledSubtractFrom" : debugPrefix;
  checkScale(scaleB, name);
  mapInPlace(graph, _1 - _2 * _3, {A, B, scaleAs(graph, A, scaleB, prog, name)}, prog, name, options);
}

} // namespace popops
