// The GRU training passes (gruBwd, gruWU, gruBwdWithWU and the attention GRU's auGru* forms), on the device with
// popops maps and poplin matMuls, the steps unrolled in reverse. For step t, with the forward's gates r, u, c
// (after their non-linearities), h the previous output, u' = u (or (1 - a) u with attention a) and dh the
// output's gradient (the step's gradLayerNext plus what flows back from step t+1, times the realTimeSteps mask):
//   dc^ = dh * (1 - u') * act'(c),   du^ = dh * (h - c) * (1 - a) * sigma'(u),   da = -sum(dh * (h - c) * u)
//   without resetAfter: g = dc^ Uc^T,  dr^ = g * h * sigma'(r),
//                       dh_prev = dh * u' + g * r + [dr^ du^] [Ur Uu]^T
//   with resetAfter:    dr^ = dc^ * (h Uc + bc1) * sigma'(r),
//                       dh_prev = dh * u' + [dr^ du^ (dc^ * r)] [Ur Uu Uc]^T
// where ^ marks a gradient before the gate's non-linearity (written in terms of the non-linearity's output).
// The pre-activation gradients of all steps are the backward intermediates {T, 3, B, out}; the input gradient is
// one matMul of them by Wi^T, and the weight update multiplies them by the inputs and the previous outputs.
#include <memory>

#include <poplin/MatMul.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>

#include "gru_detail.hpp"
#include "poputil/exceptions.hpp"

namespace popnn {
namespace gru {

namespace pe = popops::expr;
using poplar::Tensor;
using poputil::poplibs_error;
using namespace detail;

namespace {

// What every training pass is given, checked; returns the layer.
Layer checkTraining(const GruParams &params, const Tensor &fwdOutputInit, const Tensor &fwdIntermediates,
                    const GruWeights &weights, const Tensor &input, const Tensor &output, const std::string &name) {
  const Layer l = checkLayer(params, weights, name);
  checkShape(fwdOutputInit, {l.B, l.O}, l.type, name, "the initial output (fwdOutputInit)");
  checkShape(fwdIntermediates, {l.T, l.fwdSlots, l.B, l.O}, l.type, name,
             "the forward intermediates (gruFwd's, for these params)");
  checkShape(input, {l.T, l.B, l.I}, l.type, name, "the input");
  if (l.fullSequence)
    checkShape(output, {l.T, l.B, l.O}, l.type, name, "the output");
  else
    checkShape(output, {l.B, l.O}, l.type, name, "the output");
  return l;
}

// Each step's previous output {T, B, out}: the initial output, then the forward's outputs of steps 0..T-2.
Tensor previousOutputs(const Layer &l, const Tensor &init, const Tensor &fwdIntermediates, const Tensor &output) {
  const Tensor outs = l.fullSequence
                          ? output
                          : fwdIntermediates.slice(l.outputSlot, l.outputSlot + 1, 1).reshape({l.T, l.B, l.O});
  Tensor prev = init.expand({0});
  return l.T > 1 ? poplar::concat(prev, outs.slice(0, l.T - 1)) : prev;
}

// {T, 3, B, out} in unit order as {T*B, 3*out} with the gate slots in the weights' order.
Tensor bySlotRows(const Layer &l, const Tensor &perUnit) {
  std::vector<Tensor> slots(3);
  for (std::size_t unit = 0; unit < 3; ++unit)
    slots[l.slot[unit]] = perUnit.slice(unit, unit + 1, 1);
  return poplar::concat(slots, 1).dimShuffle({0, 2, 1, 3}).reshape({l.T * l.B, 3 * l.O});
}

// The backward pass; realTimeSteps, attention and attentionGrad may be null. Returns the initial output's gradient.
Tensor backward(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                const Tensor &fwdOutputInit, const Tensor &fwdIntermediates, const GruWeights &weights,
                const Tensor &input, const Tensor *realTimeSteps, const Tensor &output, const Tensor &outputGrad,
                Tensor *inputGrad, Tensor *bwdIntermediates, const Tensor *attention, Tensor *attentionGrad,
                const std::string &name, const poplar::OptionFlags &options) {
  poplar::OptionFlags mm = matMulOptions(options, name);
  const Layer l = checkTraining(params, fwdOutputInit, fwdIntermediates, weights, input, output, name);
  const std::size_t T = l.T, B = l.B, I = l.I, O = l.O;
  Tensor countsOfParams;
  realTimeSteps = stepCounts(params, realTimeSteps, countsOfParams);
  if (bool(inputGrad) != params.calcInputGradients)
    throw poplibs_error(name + ": inputGrad must be " + (params.calcInputGradients ? "non-null" : "null") +
                        " when params.calcInputGradients is " + (params.calcInputGradients ? "true" : "false"));
  checkShape(outputGrad, l.fullSequence ? std::vector<std::size_t>{T, B, O} : std::vector<std::size_t>{B, O}, l.type,
             name, "the output gradient");
  if (attention)
    checkShape(*attention, {B, T}, l.type, name, "the attention scores");
  Tensor masks;
  if (realTimeSteps) {
    checkRealTimeSteps(l, *realTimeSteps, name);
    masks = stepMasks(graph, l, *realTimeSteps, prog, name).transpose();
  }
  // Derivatives as expressions of operand 3 (sigma'(_3) and act'(_3)) and of operand 4 (sigma'(_4)).
  const std::unique_ptr<pe::Expr> dAct3 = derivative(params.activation, pe::_3, name),
                                  dSig3 = derivative(params.recurrentActivation, pe::_3, name),
                                  dSig4 = derivative(params.recurrentActivation, pe::_4, name);
  const std::size_t r = l.slot[BASIC_GRU_CELL_RESET_GATE], u = l.slot[BASIC_GRU_CELL_UPDATE_GATE],
                    c = l.slot[BASIC_GRU_CELL_CANDIDATE];
  const Tensor wo = weights.outputWeights;
  const Tensor hPrevAll = previousOutputs(l, fwdOutputInit, fwdIntermediates, output);

  Tensor grads = linear(graph, l.type, {T, 3, B, O}, name + "/gateGradients");
  // With attention: each step's -dh * (h - c) * u before the sum over the outputs.
  Tensor attTerms = attention ? linear(graph, l.type, {T, B, O}, name + "/attentionTerms") : Tensor();
  Tensor dh;
  for (std::size_t n = 0; n < T; ++n) {
    const std::size_t t = T - 1 - n;
    const std::string step = name + "/step" + std::to_string(t);
    const Tensor fi = fwdIntermediates[t], g = grads[t];
    const Tensor rg = fi[FWD_RESET], ug = fi[FWD_UPDATE], cg = fi[FWD_CANDIDATE], hp = hPrevAll[t];
    Tensor stepGrad = l.fullSequence ? outputGrad[t] : (t == T - 1 ? outputGrad : Tensor());
    if (!dh.valid())
      dh = stepGrad;
    else if (stepGrad.valid())
      dh = popops::add(graph, dh, stepGrad, prog, step + "/outputGradient");
    if (realTimeSteps)
      dh = popops::mul(graph, dh, perOutput(masks, t, O), prog, step + "/mask");
    // u' as an expression of operands 2 (u) and 5 (the attention, when there is one).
    const Tensor a = attention ? perOutput(*attention, t, O) : Tensor();
    std::unique_ptr<pe::Expr> uEff(pe::_2.clone());
    if (attention)
      uEff = (pe::_2 * (pe::Const(1.0f) - pe::_5)).clone();
    std::vector<Tensor> ops = {dh, ug, cg, ug};
    if (attention)
      ops.push_back(a);
    popops::mapWithOutput(graph, pe::_1 * (pe::Const(1.0f) - *uEff) * *dAct3, ops, g[BASIC_GRU_CELL_CANDIDATE], prog,
                          step + "/candidate");
    // du^ from {dh, h, c, u[, a]}.
    ops = {dh, hp, cg, ug};
    if (attention) {
      ops.push_back(a);
      popops::mapWithOutput(graph, pe::_1 * (pe::_2 - pe::_3) * (pe::Const(1.0f) - pe::_5) * *dSig4, ops,
                            g[BASIC_GRU_CELL_UPDATE_GATE], prog, step + "/updateGate");
      popops::mapWithOutput(graph, -(pe::_1 * (pe::_2 - pe::_3) * pe::_4), {dh, hp, cg, ug}, attTerms[t], prog,
                            step + "/attention");
    } else {
      popops::mapWithOutput(graph, pe::_1 * (pe::_2 - pe::_3) * *dSig4, ops, g[BASIC_GRU_CELL_UPDATE_GATE], prog,
                            step + "/updateGate");
    }
    const Tensor dC = g[BASIC_GRU_CELL_CANDIDATE], dR = g[BASIC_GRU_CELL_RESET_GATE],
                 dU = g[BASIC_GRU_CELL_UPDATE_GATE];
    Tensor back; // what the recurrent products pass back to h
    if (!l.resetAfter) {
      const Tensor gr = poplin::matMul(graph, dC, wo[c].transpose(), prog, step + "/resetOutputGradient", mm);
      popops::mapWithOutput(graph, pe::_1 * pe::_2 * *dSig3, {gr, hp, rg}, dR, prog, step + "/resetGate");
      back = poplin::matMul(graph, poplar::concat(dR, dU, 1), poplar::concat(wo[r], wo[u], 1).transpose(), prog,
                            step + "/gateProductsGradient", mm);
      popops::mapInPlace(graph, pe::_1 + pe::_2 * pe::_3, {back, gr, rg}, prog, step + "/resetProductGradient");
    } else {
      const Tensor candRec = fi[l.candidateRecurrentSlot];
      popops::mapWithOutput(graph, pe::_1 * pe::_2 * *dSig3, {dC, candRec, rg}, dR, prog, step + "/resetGate");
      std::vector<Tensor> bySlot(3);
      bySlot[r] = dR;
      bySlot[u] = dU;
      bySlot[c] = popops::mul(graph, dC, rg, prog, step + "/candidateRecurrentGradient");
      back = poplin::matMul(graph, poplar::concat(bySlot, 1),
                            wo.dimShuffle({1, 0, 2}).reshape({O, 3 * O}).transpose(), prog,
                            step + "/recurrentProductsGradient", mm);
    }
    // dh_prev = back + dh * u' from {back, u, dh[, a]}.
    ops = {back, ug, dh};
    if (attention) {
      ops.push_back(a);
      popops::mapInPlace(graph, pe::_1 + pe::_3 * pe::_2 * (pe::Const(1.0f) - pe::_4), ops, prog,
                         step + "/previousOutputGradient");
    } else {
      popops::mapInPlace(graph, pe::_1 + pe::_3 * pe::_2, ops, prog, step + "/previousOutputGradient");
    }
    dh = back;
  }
  if (inputGrad) {
    const Tensor wiT = weights.inputWeights.dimShuffle({1, 0, 2}).reshape({I, 3 * O}).transpose();
    *inputGrad =
        poplin::matMul(graph, bySlotRows(l, grads), wiT, prog, name + "/inputGradient", mm).reshape({T, B, I});
  }
  if (attentionGrad) {
    const Tensor sums = popops::reduce(graph, attTerms, l.type, {2}, popops::ReduceParams(popops::Operation::ADD),
                                       prog, name + "/attentionGradient");
    *attentionGrad = linear(graph, l.type, {B, T}, name + "/attentionGradient");
    prog.add(poplar::program::Copy(sums.transpose(), *attentionGrad));
  }
  if (bwdIntermediates)
    *bwdIntermediates = grads;
  return dh;
}

GruWeights weightUpdate(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                        const Tensor &fwdOutputInit, const Tensor &fwdIntermediates, const Tensor &bwdIntermediates,
                        const GruWeights &weights, const Tensor &input, const Tensor &output, const std::string &name,
                        const poplar::OptionFlags &options) {
  poplar::OptionFlags mm = matMulOptions(options, name);
  const Layer l = checkTraining(params, fwdOutputInit, fwdIntermediates, weights, input, output, name);
  const std::size_t T = l.T, B = l.B, I = l.I, O = l.O, rows = T * B;
  checkShape(bwdIntermediates, {T, 3, B, O}, l.type, name, "the backward intermediates (gruBwd's)");
  auto rowsOf = [&](const Tensor &t, std::size_t k) { return t.slice(k, k + 1, 1).reshape({rows, O}); };
  const Tensor hPrev = previousOutputs(l, fwdOutputInit, fwdIntermediates, output).reshape({rows, O});
  const Tensor rg = rowsOf(fwdIntermediates, FWD_RESET);
  const Tensor dR = rowsOf(bwdIntermediates, BASIC_GRU_CELL_RESET_GATE),
               dU = rowsOf(bwdIntermediates, BASIC_GRU_CELL_UPDATE_GATE),
               dC = rowsOf(bwdIntermediates, BASIC_GRU_CELL_CANDIDATE);
  GruWeights d;
  d.inputWeights = poplin::matMul(graph, input.reshape({rows, I}).transpose(), bySlotRows(l, bwdIntermediates), prog,
                                  name + "/inputWeights", mm)
                       .reshape({I, 3, O})
                       .dimShuffle({1, 0, 2});
  // The recurrent products' gradients per unit: h_prev^T by the gate gradient, except the candidate's: (r * h)^T
  // by dc^, or with resetAfter h^T by dc^ * r.
  std::vector<Tensor> perUnit(3);
  Tensor dCrec;
  if (l.resetAfter) {
    dCrec = popops::mul(graph, dC, rg, prog, name + "/candidateRecurrentGradient");
    Tensor all = poplin::matMul(graph, hPrev.transpose(), poplar::concat({dR, dU, dCrec}, 1), prog,
                                name + "/outputWeights", mm);
    for (std::size_t k = 0; k < 3; ++k)
      perUnit[k] = all.slice(k * O, (k + 1) * O, 1);
  } else {
    Tensor ru = poplin::matMul(graph, hPrev.transpose(), poplar::concat(dR, dU, 1), prog, name + "/gateWeights", mm);
    perUnit[BASIC_GRU_CELL_RESET_GATE] = ru.slice(0, O, 1);
    perUnit[BASIC_GRU_CELL_UPDATE_GATE] = ru.slice(O, 2 * O, 1);
    const Tensor rh = popops::mul(graph, rg, hPrev, prog, name + "/resetOutput");
    perUnit[BASIC_GRU_CELL_CANDIDATE] =
        poplin::matMul(graph, rh.transpose(), dC, prog, name + "/candidateWeights", mm);
  }
  std::vector<Tensor> wo(3);
  for (std::size_t unit = 0; unit < 3; ++unit)
    wo[l.slot[unit]] = perUnit[unit].expand({0});
  d.outputWeights = poplar::concat(wo);
  // The biases: every gate gradient summed over steps and batch (with resetAfter the recurrent biases take the
  // recurrent product's gradients: the same for r and u, dc^ * r for the candidate).
  std::vector<Tensor> sumsOf = {dR, dU, dC};
  if (l.resetAfter)
    sumsOf.push_back(dCrec);
  const Tensor sums = popops::reduce(graph, poplar::concat(sumsOf, 1), l.type, {0},
                                     popops::ReduceParams(popops::Operation::ADD), prog, name + "/biases");
  auto sumOf = [&](std::size_t k) { return sums.slice(k * O, (k + 1) * O).expand({0}); };
  std::vector<Tensor> b(3);
  for (std::size_t unit = 0; unit < 3; ++unit)
    b[l.slot[unit]] = l.resetAfter
                          ? poplar::concat(sumOf(unit), sumOf(unit == BASIC_GRU_CELL_CANDIDATE ? 3 : unit)).expand({0})
                          : sumOf(unit);
  d.biases = poplar::concat(b);
  return d;
}

// The combined pass of the four *BwdWithWU overloads.
Tensor backwardWithUpdate(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                          const Tensor &fwdOutputInit, const Tensor &fwdIntermediates, const GruWeights &weights,
                          const Tensor &input, const Tensor *realTimeSteps, const Tensor &output,
                          const Tensor &outputGrad, Tensor *inputGrad, GruWeights &weightsGrad,
                          const Tensor *attention, Tensor *attentionGrad, const std::string &name,
                          const poplar::OptionFlags &options) {
  Tensor bwdIntermediates;
  Tensor r = backward(graph, params, prog, fwdOutputInit, fwdIntermediates, weights, input, realTimeSteps, output,
                      outputGrad, inputGrad, &bwdIntermediates, attention, attentionGrad, name, options);
  weightsGrad = weightUpdate(graph, params, prog, fwdOutputInit, fwdIntermediates, bwdIntermediates, weights, input,
                             output, name, options);
  return r;
}

} // namespace

Tensor gruBwd(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
              const Tensor &fwdOutputInit, const Tensor &fwdIntermediatesSeq, const GruWeights &weights,
              const Tensor &fwdInputSeq, const Tensor &fwdOutput, const Tensor &gradLayerNext, Tensor *inputGrad,
              Tensor *bwdIntermediates, const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
              poplin::PlanningCache *) {
  return backward(graph, params, prog, fwdOutputInit, fwdIntermediatesSeq, weights, fwdInputSeq, 0, fwdOutput,
                  gradLayerNext, inputGrad, bwdIntermediates, 0, 0, nameOf(debugContext, "gruBwd"), options);
}

Tensor gruBwd(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
              const Tensor &fwdOutputInit, const Tensor &fwdIntermediatesSeq, const GruWeights &weights,
              const Tensor &fwdInputSeq, const Tensor &realTimeSteps, const Tensor &fwdOutput,
              const Tensor &gradLayerNext, Tensor *inputGrad, Tensor *bwdIntermediates,
              const poplar::DebugContext &debugContext, const poplar::OptionFlags &options, poplin::PlanningCache *) {
  return backward(graph, params, prog, fwdOutputInit, fwdIntermediatesSeq, weights, fwdInputSeq, &realTimeSteps,
                  fwdOutput, gradLayerNext, inputGrad, bwdIntermediates, 0, 0, nameOf(debugContext, "gruBwd"),
                  options);
}

Tensor auGruBwd(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                const Tensor &fwdOutputInit, const Tensor &fwdIntermediatesSeq, const GruWeights &weights,
                const Tensor &fwdInputSeq, const Tensor &fwdOutput, const Tensor &gradLayerNext, Tensor *inputGrad,
                Tensor *bwdIntermediates, const Tensor &attentions, Tensor *attentionsGrad,
                const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                poplin::PlanningCache *) {
  return backward(graph, params, prog, fwdOutputInit, fwdIntermediatesSeq, weights, fwdInputSeq, 0, fwdOutput,
                  gradLayerNext, inputGrad, bwdIntermediates, &attentions, attentionsGrad,
                  nameOf(debugContext, "auGruBwd"), options);
}

Tensor auGruBwd(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                const Tensor &fwdOutputInit, const Tensor &fwdIntermediatesSeq, const GruWeights &weights,
                const Tensor &fwdInputSeq, const Tensor &realTimeSteps, const Tensor &fwdOutput,
                const Tensor &gradLayerNext, Tensor *inputGrad, Tensor *bwdIntermediates, const Tensor &attentions,
                Tensor *attentionsGrad, const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                poplin::PlanningCache *) {
  return backward(graph, params, prog, fwdOutputInit, fwdIntermediatesSeq, weights, fwdInputSeq, &realTimeSteps,
                  fwdOutput, gradLayerNext, inputGrad, bwdIntermediates, &attentions, attentionsGrad,
                  nameOf(debugContext, "auGruBwd"), options);
}

GruWeights gruWU(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                 const Tensor &fwdOutputInit, const Tensor &fwdIntermediates, const Tensor &bwdIntermediates,
                 const GruWeights &weights, const Tensor &input, const Tensor &output,
                 const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                 poplin::PlanningCache *) {
  return weightUpdate(graph, params, prog, fwdOutputInit, fwdIntermediates, bwdIntermediates, weights, input, output,
                      nameOf(debugContext, "gruWU"), options);
}

GruWeights auGruWU(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                   const Tensor &fwdOutputInit, const Tensor &fwdIntermediates, const Tensor &bwdIntermediates,
                   const GruWeights &weights, const Tensor &input, const Tensor &output,
                   const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                   poplin::PlanningCache *) {
  return weightUpdate(graph, params, prog, fwdOutputInit, fwdIntermediates, bwdIntermediates, weights, input, output,
                      nameOf(debugContext, "auGruWU"), options);
}

Tensor gruBwdWithWU(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                    const Tensor &fwdOutputInit, const Tensor &fwdIntermediates, const GruWeights &weights,
                    const Tensor &input, const Tensor &output, const Tensor &outputGrad, Tensor *inputGrad,
                    GruWeights &weightsGrad, const poplar::DebugContext &debugContext,
                    const poplar::OptionFlags &options, poplin::PlanningCache *) {
  return backwardWithUpdate(graph, params, prog, fwdOutputInit, fwdIntermediates, weights, input, 0, output,
                            outputGrad, inputGrad, weightsGrad, 0, 0, nameOf(debugContext, "gruBwdWithWU"), options);
}

Tensor gruBwdWithWU(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                    const Tensor &fwdOutputInit, const Tensor &fwdIntermediates, const GruWeights &weights,
                    const Tensor &input, const Tensor &realTimeSteps, const Tensor &output,
                    const Tensor &outputGrad, Tensor *inputGrad, GruWeights &weightsGrad,
                    const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                    poplin::PlanningCache *) {
  return backwardWithUpdate(graph, params, prog, fwdOutputInit, fwdIntermediates, weights, input, &realTimeSteps,
                            output, outputGrad, inputGrad, weightsGrad, 0, 0, nameOf(debugContext, "gruBwdWithWU"),
                            options);
}

Tensor auGruBwdWithWU(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                      const Tensor &fwdOutputInit, const Tensor &fwdIntermediates, const GruWeights &weights,
                      const Tensor &input, const Tensor &output, const Tensor &outputGrad, Tensor *inputGrad,
                      GruWeights &weightsGrad, const Tensor &attentions, Tensor *attentionsGrad,
                      const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                      poplin::PlanningCache *) {
  return backwardWithUpdate(graph, params, prog, fwdOutputInit, fwdIntermediates, weights, input, 0, output,
                            outputGrad, inputGrad, weightsGrad, &attentions, attentionsGrad,
                            nameOf(debugContext, "auGruBwdWithWU"), options);
}

Tensor auGruBwdWithWU(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                      const Tensor &fwdOutputInit, const Tensor &fwdIntermediates, const GruWeights &weights,
                      const Tensor &input, const Tensor &realTimeSteps, const Tensor &output,
                      const Tensor &outputGrad, Tensor *inputGrad, GruWeights &weightsGrad,
                      const Tensor &attentions, Tensor *attentionsGrad, const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &options, poplin::PlanningCache *) {
  return backwardWithUpdate(graph, params, prog, fwdOutputInit, fwdIntermediates, weights, input, &realTimeSteps,
                            output, outputGrad, inputGrad, weightsGrad, &attentions, attentionsGrad,
                            nameOf(debugContext, "auGruBwdWithWU"), options);
}

} // namespace gru
} // namespace popnn
