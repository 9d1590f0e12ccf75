// Convolution as a grouped matrix product (see Convolution.hpp). The input transform (truncation, dilation,
// padding, flip) is a view of the input with zero constants spliced in; for every position of the transformed
// kernel, the input field sliced at that offset and strided by the output stride is one column block of the
// im2col view {G, B * outputPositions, kernelPositions * Ci}. The weights, transformed alike, are the right
// operand {G, kernelPositions * Ci, Co} and the result lands in the output's unpadded interior, viewed as
// {G, B * outputPositions, Co}. The weight gradient is the product of the output gradient's transpose with the
// same im2col view; the input gradient is a convolution with getGradientParams.
#include "poplin/Convolution.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <ostream>

#include <poplar/exceptions.hpp>

#include "MatMulPlan.hpp"
#include "conv_nx1.hpp"
#include "conv_plan.hpp"
#include "matmul_build.hpp"
#include "popops/ElementWise.hpp"
#include "popops/Reduce.hpp"
#include "popops/ScaledAdd.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"

namespace poplin {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

std::string opName(const poplar::DebugContext &debugContext, const char *fn) {
  const std::string debugPrefix = debugContext.getPathName();
  return debugPrefix.empty() ? std::string("poplin::") + fn : debugPrefix + "/" + fn;
}

std::string shapeStr(const std::vector<std::size_t> &s) {
  std::string r = "{";
  for (std::size_t i = 0; i < s.size(); ++i)
    r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "}";
}

// The matMul options of a convolution's options; the convolution-only ones are checked here. An FC_ pass is the
// matMul fullyConnectedPass of the same name, so that a fully connected layer expressed as convolutions
// (matMulGetConvPlanParams) is planned as matMul plans it.
detail::MatMulOptions convOptions(const poplar::OptionFlags &options, const std::string &what) {
  poplar::OptionFlags mm;
  static const char *const kBool[] = {"use128BitConvUnitLoad", "enableMultiStageReduce", "enableFastReduce",
                                      "remapOutputTensor", "enableConvDithering", "gatherConvOutput",
                                      // Accepted for compatibility: no transform programs exist here to time.
                                      "insertTransformsCycleCountProgs"};
  static const char *const kPasses[] = {"NONE", "NONE_MATMUL", "INFERENCE_FWD", "TRAINING_FWD", "TRAINING_BWD",
                                        "TRAINING_WU", "FC_INFERENCE_FWD", "FC_TRAINING_FWD", "FC_TRAINING_BWD",
                                        "FC_TRAINING_WU"};
  for (const auto &o : options) {
    if (o.first == "availableMemoryProportion" || o.first == "partialsType") {
      mm.set(o.first, o.second);
    } else if (o.first == "pass") {
      if (std::find(std::begin(kPasses), std::end(kPasses), o.second) == std::end(kPasses))
        throw poplar::invalid_option(what + ": option pass='" + o.second +
                                     "' is not one of NONE, NONE_MATMUL, INFERENCE_FWD, TRAINING_FWD, "
                                     "TRAINING_BWD, TRAINING_WU, FC_INFERENCE_FWD, FC_TRAINING_FWD, "
                                     "FC_TRAINING_BWD, FC_TRAINING_WU");
      if (o.second.rfind("FC_", 0) == 0)
        mm.set("fullyConnectedPass", o.second.substr(3));
    } else if (std::find(std::begin(kBool), std::end(kBool), o.first) != std::end(kBool)) {
      if (o.second != "true" && o.second != "false")
        throw poplar::invalid_option(what + ": option " + o.first + "='" + o.second + "' is not true or false");
    } else {
      throw poplar::invalid_option(what + ": unknown option '" + o.first +
                                   "' (known: availableMemoryProportion, partialsType, pass, use128BitConvUnitLoad, "
                                   "enableMultiStageReduce, enableFastReduce, remapOutputTensor, "
                                   "enableConvDithering, gatherConvOutput, insertTransformsCycleCountProgs)");
    }
  }
  return detail::parseMatMulOptions(mm, what);
}

// The options of the weight-update product: the convolution's, planned alone (a fully connected pass describes
// the forward product's shapes, not those of dW = zDeltas^T * windows).
detail::MatMulOptions wuOptions(const poplar::OptionFlags &options, const std::string &what) {
  detail::MatMulOptions o = convOptions(options, what);
  o.fullyConnectedPass = "NONE";
  return o;
}

matmul::PlanningCache *mmCache(PlanningCache *cache) { return cache; }

std::size_t product(const std::vector<std::size_t> &v) {
  return std::accumulate(v.begin(), v.end(), std::size_t(1), std::multiplies<std::size_t>());
}

// A zero constant of `shape`, spread over the tiles (one broadcast element would make its tile send it to
// every tile that reads padding, one element at a time).
Tensor zeros(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape) {
  Tensor z = graph.addConstant(type, shape, 0.0f, "zero");
  poputil::mapTensorLinearly(graph, z);
  return z;
}

std::vector<std::size_t> withDim(std::vector<std::size_t> shape, unsigned dim, std::size_t size) {
  shape[dim] = size;
  return shape;
}

// `x` with the transform applied to its spatial dimensions (from `first` on), as a view.
Tensor transformView(poplar::Graph &graph, Tensor x, unsigned first, const ConvParams::InputTransform &t) {
  for (unsigned d = 0; d < t.dilation.size(); ++d) {
    const unsigned dim = first + d;
    x = x.slice(t.truncationLower[d], x.dim(dim) - t.truncationUpper[d], dim);
    const std::size_t n = x.dim(dim);
    if (t.dilation[d] > 1 && n > 1) {
      std::vector<Tensor> pieces;
      Tensor gap = zeros(graph, x.elementType(), withDim(x.shape(), dim, t.dilation[d] - 1));
      for (std::size_t i = 0; i < n; ++i) {
        if (i)
          pieces.push_back(gap);
        pieces.push_back(x.slice(i, i + 1, dim));
      }
      x = poplar::concat(pieces, dim);
    }
    if (t.paddingLower[d] || t.paddingUpper[d]) {
      std::vector<Tensor> pieces;
      if (t.paddingLower[d])
        pieces.push_back(zeros(graph, x.elementType(), withDim(x.shape(), dim, t.paddingLower[d])));
      pieces.push_back(x);
      if (t.paddingUpper[d])
        pieces.push_back(zeros(graph, x.elementType(), withDim(x.shape(), dim, t.paddingUpper[d])));
      x = poplar::concat(pieces, dim);
    }
    if (t.flip[d])
      x = x.reverse(dim);
  }
  return x;
}

bool isIdentity(const ConvParams::InputTransform &t) {
  for (std::size_t d = 0; d < t.dilation.size(); ++d)
    if (t.truncationLower[d] || t.truncationUpper[d] || t.dilation[d] != 1 || t.paddingLower[d] ||
        t.paddingUpper[d] || t.flip[d])
      return false;
  return true;
}

// Output positions computed per dimension (before the output padding).
std::vector<std::size_t> computedField(const ConvParams &p) {
  std::vector<std::size_t> o;
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d)
    o.push_back(p.getOutputSize(d) - p.outputTransform.paddingLower[d] - p.outputTransform.paddingUpper[d]);
  return o;
}

std::vector<std::size_t> transformedKernel(const ConvParams &p) {
  std::vector<std::size_t> k;
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d)
    k.push_back(p.getTransformedKernelSize(d));
  return k;
}

// The im2col view of `in` {B, G*Ci, field...}: {G, B * prod(computedField), prod(transformedKernel) * Ci}.
Tensor im2col(poplar::Graph &graph, const Tensor &in, const ConvParams &p) {
  const std::size_t nd = p.getNumFieldDims(), G = p.numConvGroups, Ci = p.inputChannels, B = p.batchSize;
  Tensor x = transformView(graph, in, 2, p.inputTransform);
  const std::vector<std::size_t> out = computedField(p), kernel = transformedKernel(p);
  const std::size_t positions = product(out), kernelPositions = product(kernel);
  std::vector<Tensor> columns;
  std::vector<std::size_t> k(nd, 0);
  // The view's order {B, G, Ci, out...} -> {G, B, out..., Ci}.
  std::vector<unsigned> perm = {1, 0};
  for (unsigned d = 0; d < nd; ++d)
    perm.push_back(3 + d);
  perm.push_back(2);
  for (std::size_t kp = 0; kp < kernelPositions; ++kp) {
    Tensor v = x;
    for (unsigned d = 0; d < nd; ++d) {
      const unsigned s = p.outputTransform.stride[d];
      const std::size_t begin = p.outputTransform.truncationLower[d] + k[d];
      v = v.slice(begin, begin + (out[d] - 1) * s + 1, 2 + d);
      if (s > 1)
        v = v.subSample(s, 2 + d);
    }
    std::vector<std::size_t> split = {B, G, Ci};
    split.insert(split.end(), out.begin(), out.end());
    columns.push_back(v.reshape(split).dimShuffle(perm).reshape({G, B * positions, Ci}));
    for (int d = int(nd) - 1; d >= 0; --d) { // next kernel position, last dimension fastest
      if (++k[d] < kernel[d])
        break;
      k[d] = 0;
    }
  }
  return poplar::concat(columns, 2);
}

// The nx1 vertices' operands (conv_nx1.hpp), each with a unit height for a 1-D convolution: the transformed input
// {B, G*Ci, field...} from the first row and column its output truncation keeps, the transformed weights
// {G, Co, Ci, kernel...}, and the output's interior {B, G*Co, out...} (its padding left out).
Tensor unitHeight(const Tensor &t, const ConvParams &p, unsigned fieldDim) {
  return p.getNumFieldDims() == 1 ? t.expand({fieldDim}) : t;
}

Tensor nx1Input(poplar::Graph &graph, const Tensor &in, const ConvParams &p) {
  Tensor x = transformView(graph, in, 2, p.inputTransform);
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d)
    x = x.slice(p.outputTransform.truncationLower[d], x.dim(2 + d), 2 + d);
  return unitHeight(x, p, 2);
}

Tensor transformedWeights(poplar::Graph &graph, const Tensor &w, const ConvParams &p) {
  return unitHeight(transformView(graph, w, 3, p.kernelTransform), p, 3);
}

Tensor nx1Output(const Tensor &out, const ConvParams &p) {
  Tensor o = out;
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d)
    o = o.slice(p.outputTransform.paddingLower[d], o.dim(2 + d) - p.outputTransform.paddingUpper[d], 2 + d);
  return unitHeight(o, p, 2);
}

// The weights {G, Co, Ci, kernel...} (transformed) as {G, prod(transformedKernel) * Ci, Co}.
Tensor weightMatrix(poplar::Graph &graph, const Tensor &w, const ConvParams &p) {
  const std::size_t nd = p.getNumFieldDims();
  Tensor t = transformView(graph, w, 3, p.kernelTransform);
  std::vector<unsigned> perm = {0};
  for (unsigned d = 0; d < nd; ++d)
    perm.push_back(3 + d);
  perm.push_back(2);
  perm.push_back(1);
  return t.dimShuffle(perm).reshape({p.numConvGroups, product(transformedKernel(p)) * p.inputChannels,
                                     p.outputChannels});
}

// {B, G*C, out...} (the unpadded interior of an output or output gradient) as {G, B * positions, C}.
Tensor fieldMatrix(const Tensor &t, const ConvParams &p, std::size_t C) {
  const std::size_t nd = p.getNumFieldDims(), G = p.numConvGroups, B = p.batchSize;
  Tensor v = t;
  for (unsigned d = 0; d < nd; ++d)
    v = v.slice(p.outputTransform.paddingLower[d], v.dim(2 + d) - p.outputTransform.paddingUpper[d], 2 + d);
  const std::vector<std::size_t> out = computedField(p);
  std::vector<std::size_t> split = {B, G, C};
  split.insert(split.end(), out.begin(), out.end());
  std::vector<unsigned> perm = {1, 0};
  for (unsigned d = 0; d < nd; ++d)
    perm.push_back(3 + d);
  perm.push_back(2);
  return v.reshape(split).dimShuffle(perm).reshape({G, B * product(out), C});
}

detail::MatMulProblem fwdProblem(const ConvParams &p, const std::string &what) {
  const std::size_t G = p.numConvGroups;
  return detail::problemOf({G, p.batchSize * product(computedField(p)), product(transformedKernel(p)) * p.inputChannels},
                           {G, product(transformedKernel(p)) * p.inputChannels, p.outputChannels}, p.inputType,
                           p.outputType, what);
}

// The weight-update product: zDeltas^T {G, Co, B * positions} * the input's windows {G, B * positions, kernel * Ci}.
detail::MatMulProblem wuProblem(const ConvParams &p, const std::string &what) {
  const std::size_t G = p.numConvGroups, positions = p.batchSize * product(computedField(p));
  return detail::problemOf({G, p.outputChannels, positions},
                           {G, positions, product(transformedKernel(p)) * p.inputChannels}, p.inputType,
                           p.inputType, what);
}

std::vector<std::size_t> activationShape(const ConvParams &p, std::size_t chans, const std::vector<std::size_t> &f) {
  std::vector<std::size_t> s = {p.batchSize, chans * p.numConvGroups};
  s.insert(s.end(), f.begin(), f.end());
  return s;
}

std::vector<std::size_t> weightShape(const ConvParams &p) {
  std::vector<std::size_t> s = {p.numConvGroups, p.outputChannels, p.inputChannels};
  s.insert(s.end(), p.kernelShape.begin(), p.kernelShape.end());
  return s;
}

void checkTensor(const Tensor &t, const std::vector<std::size_t> &shape, const poplar::Type &type,
                 const std::string &what, const char *role) {
  if (!t.valid())
    throw poplibs_error(what + ": " + role + " is an invalid (default-constructed) tensor");
  if (t.shape() != shape)
    throw poplibs_error(what + ": " + role + " has shape " + t.shapeToString() + " but the parameters give " +
                        shapeStr(shape));
  if (t.elementType() != type)
    throw poplibs_error(what + ": " + role + " is " + t.elementType().toString() + " but the parameters give " +
                        type.toString());
}

// Activations {B, C, field...} stored as {B, field..., C} (so that each pixel's channels, which one row of the
// im2col view takes together, are one run), mapped linearly over the tiles in whole groups' channel vectors.
Tensor createActivations(poplar::Graph &graph, const poplar::Type &type, std::size_t batch,
                         const std::vector<std::size_t> &field, std::size_t chans, std::size_t grain,
                         const std::string &name) {
  std::vector<std::size_t> storage = {batch};
  storage.insert(storage.end(), field.begin(), field.end());
  storage.push_back(chans);
  Tensor t = graph.addVariable(type, storage, name);
  poputil::mapTensorLinearly(graph, t, 0, unsigned(grain));
  std::vector<unsigned> perm = {0, unsigned(field.size() + 1)};
  for (unsigned d = 0; d < field.size(); ++d)
    perm.push_back(1 + d);
  return t.dimShuffle(perm);
}

// Zeroes the output padding of `out` {B, C, out...}.
void zeroPadding(poplar::Graph &graph, const Tensor &out, const ConvParams &p, poplar::program::Sequence &prog) {
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d) {
    const unsigned dim = 2 + d;
    const std::size_t lo = p.outputTransform.paddingLower[d], hi = p.outputTransform.paddingUpper[d];
    if (lo)
      prog.add(poplar::program::Copy(zeros(graph, out.elementType(), withDim(out.shape(), dim, lo)),
                                     out.slice(0, lo, dim)));
    if (hi)
      prog.add(poplar::program::Copy(zeros(graph, out.elementType(), withDim(out.shape(), dim, hi)),
                                     out.slice(out.dim(dim) - hi, out.dim(dim), dim)));
  }
}

} // namespace

namespace detail {
MatMulOptions convMatMulOptions(const poplar::OptionFlags &options, const std::string &what) {
  return convOptions(options, what);
}
MatMulProblem convFwdProblem(const ConvParams &params, const std::string &what) {
  params.validate();
  return fwdProblem(params, what);
}
} // namespace detail

Tensor createWeights(poplar::Graph &graph, const ConvParams &params, const poplar::DebugContext &debugContext,
                     const poplar::OptionFlags &options, PlanningCache *cache) {
  const std::string name = debugContext.getPathName();
  const std::string what = "poplin::createWeights";
  params.validate();
  detail::MatMulOptions o = convOptions(options, what);
  if (!isIdentity(params.kernelTransform)) {
    Tensor w = graph.addVariable(params.inputType, weightShape(params), name);
    poputil::mapTensorLinearly(graph, w);
    return w;
  }
  // Stored in the product's order {G, kernel..., Ci, Co}, mapped as its right operand; returned as a view
  // {G, Co, Ci, kernel...}.
  const std::size_t nd = params.getNumFieldDims();
  std::vector<std::size_t> storage = {params.numConvGroups};
  storage.insert(storage.end(), params.kernelShape.begin(), params.kernelShape.end());
  storage.push_back(params.inputChannels);
  storage.push_back(params.outputChannels);
  Tensor w = graph.addVariable(params.inputType, storage, name);
  detail::MatMulProblem p = fwdProblem(params, what);
  detail::MatMulPlan pl = detail::getMatMulPlan(graph.getTarget(), p, o, mmCache(cache), what);
  detail::mapOperand(graph, w.reshape({p.groups, p.inner, p.cols}), pl, p, detail::Operand::B);
  std::vector<unsigned> perm = {0, unsigned(nd + 2), unsigned(nd + 1)};
  for (unsigned d = 0; d < nd; ++d)
    perm.push_back(1 + d);
  return w.dimShuffle(perm);
}

Tensor createInput(poplar::Graph &graph, const ConvParams &params, const poplar::DebugContext &debugContext,
                   const poplar::OptionFlags &options, PlanningCache *) {
  const std::string name = debugContext.getPathName();
  params.validate();
  convOptions(options, "poplin::createInput");
  return createActivations(graph, params.inputType, params.batchSize, params.inputFieldShape,
                           params.numConvGroups * params.inputChannels, params.inputChannels, name);
}

Tensor createBiases(poplar::Graph &graph, const Tensor &activations, const poplar::DebugContext &debugContext) {
  const std::string name = debugContext.getPathName();
  if (!activations.valid() || activations.rank() < 2)
    throw poplibs_error("poplin::createBiases: the activations must be {batch, channels, field...}");
  Tensor b = graph.addVariable(activations.elementType(), {activations.dim(1)}, name);
  poputil::mapTensorLinearly(graph, b);
  return b;
}

Tensor createBiases(poplar::Graph &graph, const Tensor &activations, const ConvParams &params,
                    const poplar::DebugContext &debugContext, const poplar::OptionFlags &options, PlanningCache *) {
  const std::string name = debugContext.getPathName();
  const std::string what = "poplin::createBiases";
  params.validate();
  convOptions(options, what);
  checkTensor(activations, activationShape(params, params.outputChannels, params.getOutputFieldShape()),
              params.outputType, what, "the activations (the convolution's output)");
  const std::size_t channels = activations.dim(1), field = product(params.getOutputFieldShape());
  Tensor b = graph.addVariable(activations.elementType(), {channels}, name);
  // Channel c's first element is element c * field of the activations (batch 0, field origin).
  std::vector<int> tileOf(channels, -1);
  const auto mapping = graph.getTileMapping(activations, false);
  for (std::size_t tile = 0; tile < mapping.size(); ++tile)
    for (const auto &iv : mapping[tile])
      for (std::size_t c = (iv.begin() + field - 1) / field; c < channels && c * field < iv.end(); ++c)
        tileOf[c] = int(tile);
  if (std::find(tileOf.begin(), tileOf.end(), -1) != tileOf.end()) {
    poputil::mapTensorLinearly(graph, b); // activations not (fully) mapped yet: no layout to follow
    return b;
  }
  for (std::size_t c = 0; c < channels; ++c)
    graph.setTileMapping(b[c], unsigned(tileOf[c]));
  return b;
}

Tensor createConvOutput(poplar::Graph &graph, const ConvParams &params, const poplar::DebugContext &debugContext,
                        const poplar::OptionFlags &options, PlanningCache *cache) {
  const std::string name = debugContext.getPathName();
  const std::string what = "poplin::createConvOutput";
  params.validate();
  detail::MatMulOptions o = convOptions(options, what);
  detail::MatMulProblem p = fwdProblem(params, what);
  detail::MatMulPlan pl = detail::getMatMulPlan(graph.getTarget(), p, o, mmCache(cache), what);
  // The padding is mapped linearly; the interior is mapped by the plan next.
  Tensor out = createActivations(graph, params.outputType, params.batchSize, params.getOutputFieldShape(),
                                 params.numConvGroups * params.outputChannels, params.outputChannels, name);
  detail::mapOperand(graph, fieldMatrix(out, params, params.outputChannels), pl, p, detail::Operand::Out);
  return out;
}

void convolutionWithOutput(poplar::Graph &graph, const Tensor &in, const Tensor &weights, const Tensor &out,
                           const ConvParams &params, bool transposeAndFlipWeights, poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext, const poplar::OptionFlags &options, PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "convolution");
  params.validate();
  detail::MatMulOptions o = convOptions(options, name);
  checkTensor(in, activationShape(params, params.inputChannels, params.inputFieldShape), params.inputType, name,
              "the input");
  checkTensor(out, activationShape(params, params.outputChannels, params.getOutputFieldShape()), params.outputType,
              name, "the output");
  if (!out.isParallelWriteable())
    throw poplibs_error(name + ": the output has aliased elements; write into a tensor whose elements are distinct");
  Tensor w = weights;
  if (transposeAndFlipWeights) {
    if (!w.valid() || w.rank() != params.getNumFieldDims() + 3)
      throw poplibs_error(name + ": the weights must be {G, Ci, Co, kernel...} to be transposed and flipped");
    w = w.dimShuffle([&] {
      std::vector<unsigned> perm = {0, 2, 1};
      for (unsigned d = 0; d < params.getNumFieldDims(); ++d)
        perm.push_back(3 + d);
      return perm;
    }());
    for (unsigned d = 0; d < params.getNumFieldDims(); ++d)
      w = w.reverse(3 + d);
  }
  checkTensor(w, weightShape(params), params.inputType, name,
              transposeAndFlipWeights ? "the weights (transposed)" : "the weights");
  if (detail::convNx1Applies(graph.getTarget(), params)) {
    zeroPadding(graph, out, params, prog);
    detail::buildConvNx1(graph, nx1Input(graph, in, params), transformedWeights(graph, w, params),
                         nx1Output(out, params), params, prog, name);
    return;
  }
  detail::MatMulProblem p = fwdProblem(params, name);
  detail::MatMulPlan pl = detail::getMatMulPlan(graph.getTarget(), p, o, mmCache(cache), name);
  zeroPadding(graph, out, params, prog);
  detail::buildMatMul(graph, im2col(graph, in, params), weightMatrix(graph, w, params),
                      fieldMatrix(out, params, params.outputChannels), pl, p, prog, name);
}

Tensor convolution(poplar::Graph &graph, const Tensor &in, const Tensor &weights, const ConvParams &params,
                   bool transposeAndFlipWeights, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                   const poplar::OptionFlags &options, PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "convolution");
  params.validate();
  convOptions(options, name); // errors name the convolution, not createConvOutput
  Tensor out = createConvOutput(graph, params, name + "/out", options, cache);
  convolutionWithOutput(graph, in, weights, out, params, transposeAndFlipWeights, prog, debugPrefix, options, cache);
  return out;
}

void convolutionValidateOptions(const poplar::OptionFlags &options) {
  convOptions(options, "poplin::convolutionValidateOptions");
}

void weightsTransposeChansFlipXY(poplar::Graph &, const Tensor &weightsIn, const Tensor &weightsOut,
                                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "weightsTransposeChansFlipXY");
  if (!weightsIn.valid() || !weightsOut.valid() || weightsIn.rank() < 3 || weightsIn.rank() != weightsOut.rank())
    throw poplibs_error(name + ": give weights {G, Co, Ci, kernel...} and {G, Ci, Co, kernel...}");
  std::vector<unsigned> perm = {0, 2, 1};
  for (unsigned d = 3; d < weightsIn.rank(); ++d)
    perm.push_back(d);
  Tensor v = weightsIn.dimShuffle(perm);
  for (unsigned d = 3; d < weightsIn.rank(); ++d)
    v = v.reverse(d);
  if (v.shape() != weightsOut.shape())
    throw poplibs_error(name + ": weightsIn " + weightsIn.shapeToString() + " transposed is " + v.shapeToString() +
                        " but weightsOut is " + weightsOut.shapeToString());
  prog.add(poplar::program::Copy(v, weightsOut));
}

Tensor calculateWeightDeltas(poplar::Graph &graph, const Tensor &zDeltas, const Tensor &activations,
                             const ConvParams &params, poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                             PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "calculateWeightDeltas");
  params.validate();
  detail::MatMulOptions o = wuOptions(options, name);
  checkTensor(activations, activationShape(params, params.inputChannels, params.inputFieldShape),
              params.inputType, name, "the activations");
  checkTensor(zDeltas, activationShape(params, params.outputChannels, params.getOutputFieldShape()),
              params.outputType, name, "zDeltas");
  if (params.inputType != params.outputType)
    throw poplibs_error(name + ": the input and output types differ; the weight gradient needs both the same");
  // dW {G, Co, kernel * Ci} = zDeltas^T {G, Co, positions} * im2col {G, positions, kernel * Ci}.
  Tensor dz = fieldMatrix(zDeltas, params, params.outputChannels).dimShuffle({0, 2, 1});
  Tensor cols = im2col(graph, activations, params);
  detail::MatMulProblem p = wuProblem(params, name);
  detail::MatMulPlan pl = detail::getMatMulPlan(graph.getTarget(), p, o, mmCache(cache), name);
  Tensor dwm = detail::createOperand(graph, pl, p, detail::Operand::Out, name + "/deltas");
  detail::buildMatMul(graph, dz, cols, dwm, pl, p, prog, name);
  // {G, Co, kernel..., Ci} -> {G, Co, Ci, kernel...} of the transformed kernel, then back through the kernel
  // transform: unflip, drop the padding, keep every dilation-th element, zeros for the truncated elements.
  const std::size_t nd = params.getNumFieldDims();
  std::vector<std::size_t> split = {params.numConvGroups, params.outputChannels};
  const std::vector<std::size_t> kt = transformedKernel(params);
  split.insert(split.end(), kt.begin(), kt.end());
  split.push_back(params.inputChannels);
  std::vector<unsigned> perm = {0, 1, unsigned(nd + 2)};
  for (unsigned d = 0; d < nd; ++d)
    perm.push_back(2 + d);
  Tensor dw = dwm.reshape(split).dimShuffle(perm);
  if (isIdentity(params.kernelTransform))
    return dw;
  const ConvParams::InputTransform &t = params.kernelTransform;
  for (unsigned d = 0; d < nd; ++d) {
    const unsigned dim = 3 + d;
    if (t.flip[d])
      dw = dw.reverse(dim);
    dw = dw.slice(t.paddingLower[d], dw.dim(dim) - t.paddingUpper[d], dim);
    if (t.dilation[d] > 1)
      dw = dw.subSample(t.dilation[d], dim);
    std::vector<Tensor> pieces;
    if (t.truncationLower[d])
      pieces.push_back(zeros(graph, dw.elementType(), withDim(dw.shape(), dim, t.truncationLower[d])));
    pieces.push_back(dw);
    if (t.truncationUpper[d])
      pieces.push_back(zeros(graph, dw.elementType(), withDim(dw.shape(), dim, t.truncationUpper[d])));
    dw = poplar::concat(pieces, dim);
  }
  Tensor result = graph.addVariable(params.inputType, weightShape(params), name + "/weightDeltas");
  poputil::mapTensorLinearly(graph, result);
  prog.add(poplar::program::Copy(dw, result));
  return result;
}

void convolutionWeightUpdate(poplar::Graph &graph, const Tensor &zDeltas, const Tensor &weights,
                             const Tensor &activations, const ConvParams &params, const Tensor &scale,
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                             const poplar::OptionFlags &options, PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  Tensor dw = calculateWeightDeltas(graph, zDeltas, activations, params, prog, debugPrefix, options, cache);
  popops::scaledAddTo(graph, weights, dw, scale, prog, opName(debugPrefix, "convolutionWeightUpdate"));
}

void convolutionWeightUpdate(poplar::Graph &graph, const Tensor &zDeltas, const Tensor &weights,
                             const Tensor &activations, const ConvParams &params, float scale,
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                             const poplar::OptionFlags &options, PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  Tensor dw = calculateWeightDeltas(graph, zDeltas, activations, params, prog, debugPrefix, options, cache);
  popops::scaledAddTo(graph, weights, dw, scale, prog, opName(debugPrefix, "convolutionWeightUpdate"));
}

namespace {

Tensor biasDeltas(poplar::Graph &graph, const Tensor &zDeltas, const Tensor &biases, const poplar::OptionFlags &options,
                  poplar::program::Sequence &prog, const std::string &name) {
  convOptions(options, name);
  if (!zDeltas.valid() || zDeltas.rank() < 2 || !biases.valid() || biases.rank() != 1 ||
      biases.dim(0) != zDeltas.dim(1))
    throw poplibs_error(name + ": give zDeltas {batch, channels, field...} and biases {channels}");
  std::vector<std::size_t> dims = {0};
  for (std::size_t d = 2; d < zDeltas.rank(); ++d)
    dims.push_back(d);
  return popops::reduce(graph, zDeltas, poplar::FLOAT, dims, popops::Operation::ADD, prog, name + "/reduce");
}

} // namespace

void convolutionBiasUpdate(poplar::Graph &graph, const Tensor &zDeltas, const Tensor &biases, const Tensor &scale,
                           const poplar::OptionFlags &options, poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "convolutionBiasUpdate");
  popops::scaledAddTo(graph, biases, biasDeltas(graph, zDeltas, biases, options, prog, name), scale, prog, name);
}

void convolutionBiasUpdate(poplar::Graph &graph, const Tensor &zDeltas, const Tensor &biases, float scale,
                           const poplar::OptionFlags &options, poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "convolutionBiasUpdate");
  popops::scaledAddTo(graph, biases, biasDeltas(graph, zDeltas, biases, options, prog, name), scale, prog, name);
}

void addBias(poplar::Graph &graph, const Tensor &acts, const Tensor &biases, poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "addBias");
  if (!acts.valid() || acts.rank() < 2 || !biases.valid() || biases.rank() != 1 || biases.dim(0) != acts.dim(1))
    throw poplibs_error(name + ": give acts {batch, channels, field...} and biases {channels}; got " +
                        (acts.valid() ? acts.shapeToString() : "none") + " and " +
                        (biases.valid() ? biases.shapeToString() : "none"));
  std::vector<std::size_t> shape(acts.rank() - 1, 1);
  shape[0] = biases.dim(0);
  popops::addInPlace(graph, acts, biases.reshape(shape), prog, name);
}

namespace {
// One line: "<pass> as {G} x {rows x inner} * {inner x cols}: <the plan>".
void reportProduct(std::ostream &out, const char *pass, const poplar::Graph &graph, const detail::MatMulProblem &p,
                   const detail::MatMulOptions &o, PlanningCache *cache, const std::string &what) {
  out << pass << " as {" << p.groups << "} x {" << p.rows << " x " << p.inner << "} * {" << p.inner << " x "
      << p.cols << "}: " << detail::getMatMulPlan(graph.getTarget(), p, o, mmCache(cache), what).toString() << "\n";
}
} // namespace

void reportPlanInfo(std::ostream &out, const poplar::Graph &graph, const ConvParams &params,
                    const poplar::OptionFlags &options, PlanningCache *cache) {
  const std::string what = "poplin::reportPlanInfo";
  params.validate();
  detail::MatMulOptions o = convOptions(options, what);
  detail::MatMulProblem p = fwdProblem(params, what);
  // The plan still lays out the operands (createInput, createWeights, createConvOutput) when the nx1 vertices
  // compute the convolution, so both are reported.
  if (detail::convNx1Applies(graph.getTarget(), params))
    out << "convolution built from ConvPartialnx1 vertices (each tile's output rows read straight from the input); "
           "operands laid out by the plan below\n";
  reportProduct(out, "convolution", graph, p, o, cache, what);
}

void reportWeightUpdatePlanInfo(std::ostream &out, const poplar::Graph &graph, const ConvParams &fwdParams,
                                const poplar::OptionFlags &fwdOptions, PlanningCache *cache) {
  const std::string what = "poplin::reportWeightUpdatePlanInfo";
  fwdParams.validate();
  detail::MatMulOptions o = wuOptions(fwdOptions, what);
  detail::MatMulProblem p = wuProblem(fwdParams, what);
  reportProduct(out, "weight update", graph, p, o, cache, what);
}

Tensor fullyConnectedWeightTranspose(poplar::Graph &graph, Tensor weights, const ConvParams &params,
                                     poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                                     const poplar::OptionFlags &options, PlanningCache *cache) {
  const std::string name = opName(debugContext, "fullyConnectedWeightTranspose");
  params.validate();
  convOptions(options, name);
  if (params.getNumFieldDims() != 1)
    throw poplibs_error(name + ": the parameters have " + std::to_string(params.getNumFieldDims()) +
                        " field dimensions; give the 1-D convolution of a fully connected layer's backward pass "
                        "(matMulGetConvPlanParams gives it)");
  std::vector<std::size_t> shape = {params.numConvGroups, params.inputChannels, params.outputChannels};
  shape.insert(shape.end(), params.kernelShape.begin(), params.kernelShape.end());
  checkTensor(weights, shape, params.inputType, name, "the weights ({G, Ci, Co, kernel...})");
  // The transposed weights laid out for the backward pass's plan; the copy moves each element to its tile.
  Tensor transposed = createWeights(graph, params, name + "/transposed", options, cache);
  prog.add(poplar::program::Copy(weights.dimShuffle({0, 2, 1, 3}), transposed));
  return transposed;
}

PlanCosts reportPlanEstimatedCosts(const poplar::Graph &graph, const ConvParams &params,
                                   const poplar::OptionFlags &options, PlanningCache *cache) {
  const std::string what = "poplin::reportPlanEstimatedCosts";
  params.validate();
  const detail::MatMulPlan plan = detail::getMatMulPlan(graph.getTarget(), fwdProblem(params, what),
                                                        convOptions(options, what), mmCache(cache), what);
  PlanCosts costs;
  costs.cycles = std::size_t(plan.cycles() + 0.5);
  costs.memory = plan.bytesPerTile * plan.tiles;
  return costs;
}

} // namespace poplin
