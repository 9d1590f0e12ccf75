// scaledAddTo / scaledSubtractFrom as in-place maps (one compute set each). The arithmetic is done in the type of
// A, except that HALF data is computed in float (a FLOAT or constant scale keeps its precision) and rounded once
// into A; B and a scale tensor of another type are converted in the expression, not by a separate step.
#include "popops/ScaledAdd.hpp"

#include "op_name.hpp"
#include "poplibs_support.hpp"
#include "popops/ElementWise.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

using namespace expr;

namespace {

void checkScale(const poplar::Tensor &scale, const std::string &what) {
  if (!scale.valid() || scale.numElements() != 1)
    throw poputil::poplibs_error(what + ": the scale tensor must have exactly one element (it has " +
                                 std::to_string(scale.valid() ? scale.numElements() : 0) + ")");
}

void checkData(const poplar::Tensor &A, const poplar::Tensor &B, const std::string &what) {
  if (!A.valid() || !B.valid())
    throw poputil::poplibs_error(what + ": A or B is an invalid (default-constructed) tensor");
  const bool floating = A.elementType() == poplar::FLOAT || A.elementType() == poplar::HALF;
  const bool floatingB = B.elementType() == poplar::FLOAT || B.elementType() == poplar::HALF;
  if (floating != floatingB)
    throw poputil::poplibs_error(what + ": A holds " + A.elementType().toString() + " but B holds " +
                                 B.elementType().toString() + "; cast B to A's type first");
}

// The type the update is computed in.
poplar::Type computeType(const poplar::Tensor &A) {
  return A.elementType() == poplar::HALF ? poplar::FLOAT : A.elementType();
}

// A = scaleA * A + sign * scaleB * B, with the scales either constants or one-element tensors (_3, _4).
void update(poplar::Graph &graph, const poplar::Tensor &A, const Expr &scaleA, const poplar::Tensor &B,
            const Expr &scaleB, bool subtract, const std::vector<poplar::Tensor> &scales,
            poplar::program::Sequence &prog, const std::string &name, const poplar::OptionFlags &options) {
  checkData(A, B, name);
  for (const poplar::Tensor &s : scales)
    checkScale(s, name);
  const poplar::Type ct = computeType(A);
  std::vector<poplar::Tensor> ts = {A, B};
  ts.insert(ts.end(), scales.begin(), scales.end());
  const Mul a = Cast(_1, ct) * scaleA, b = Cast(_2, ct) * scaleB;
  if (subtract)
    mapInPlace(graph, Cast(a - b, A.elementType()), ts, prog, name, options);
  else
    mapInPlace(graph, Cast(a + b, A.elementType()), ts, prog, name, options);
}

Cast constant(float v, const poplar::Tensor &A) { return Cast(Const(v), computeType(A)); }

Cast scaleOperand(const PlaceHolder &p, const poplar::Tensor &A) { return Cast(p, computeType(A)); }

// The factor of A for `speciality`: scaleA itself, or 1 - scaleA (computed on the tile in the update's type).
std::unique_ptr<Expr> factorOfA(const Expr &scaleA, const poplar::Tensor &A, ScaledAddSpecialisation speciality) {
  if (speciality == ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY)
    return Sub(constant(1.0f, A), scaleA).clone();
  return scaleA.clone();
}

} // namespace

void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                 const poplar::OptionFlags &options) {
  update(graph, A, constant(1.0f, A), B, constant(scaleB, A), false, {}, prog, opName(debugContext, "scaledAddTo"),
         options);
}

void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B, poplar::Tensor scaleB,
                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                 const poplar::OptionFlags &options) {
  update(graph, A, constant(1.0f, A), B, scaleOperand(_3, A), false, {scaleB}, prog,
         opName(debugContext, "scaledAddTo"), options);
}

void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, float scaleA, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                 const poplar::OptionFlags &options) {
  update(graph, A, constant(scaleA, A), B, constant(scaleB, A), false, {}, prog, opName(debugContext, "scaledAddTo"),
         options);
}

void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B, poplar::Tensor scaleB,
                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                 const poplar::OptionFlags &options) {
  update(graph, A, scaleOperand(_3, A), B, scaleOperand(_4, A), false, {scaleA, scaleB}, prog,
         opName(debugContext, "scaledAddTo"), options);
}

void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, float scaleA, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence &prog, const ScaledAddSpecialisation speciality,
                 const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  update(graph, A, *factorOfA(constant(scaleA, A), A, speciality), B, constant(scaleB, A), false, {}, prog,
         opName(debugContext, "scaledAddTo"), options);
}

void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B, poplar::Tensor scaleB,
                 poplar::program::Sequence &prog, const ScaledAddSpecialisation speciality,
                 const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  update(graph, A, *factorOfA(scaleOperand(_3, A), A, speciality), B, scaleOperand(_4, A), false, {scaleA, scaleB},
         prog, opName(debugContext, "scaledAddTo"), options);
}

void scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                        const poplar::OptionFlags &options) {
  update(graph, A, constant(1.0f, A), B, constant(scaleB, A), true, {}, prog,
         opName(debugContext, "scaledSubtractFrom"), options);
}

void scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B, poplar::Tensor scaleB,
                        poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                        const poplar::OptionFlags &options) {
  update(graph, A, constant(1.0f, A), B, scaleOperand(_3, A), true, {scaleB}, prog,
         opName(debugContext, "scaledSubtractFrom"), options);
}

void scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, float scaleA, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                        const poplar::OptionFlags &options) {
  update(graph, A, constant(scaleA, A), B, constant(scaleB, A), true, {}, prog,
         opName(debugContext, "scaledSubtractFrom"), options);
}

void scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B,
                        poplar::Tensor scaleB, poplar::program::Sequence &prog,
                        const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  update(graph, A, scaleOperand(_3, A), B, scaleOperand(_4, A), true, {scaleA, scaleB}, prog,
         opName(debugContext, "scaledSubtractFrom"), options);
}

} // namespace popops
