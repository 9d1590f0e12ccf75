// poprand::dropout and shapedDropout. Plain dropout draws the keep/drop decision of each element in the same
// vertex that scales the input (one compute set). Shaped dropout draws one decision per element of the smaller
// reference (bernoulli) and applies it through a broadcast view, so dropped rows/columns stay whole.
#include <cmath>

#include "../codelets/params.h"
#include "generate.hpp"
#include "poplibs_support.hpp"
#include "poprand/RandomGen.hpp"
#include "poputil/exceptions.hpp"

namespace poprand {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

void checkInput(const Tensor &input, double scale, const std::string &name) {
  if (!input.valid())
    throw poplibs_error(name + ": the input is an invalid (default-constructed) tensor");
  if (input.elementType() != poplar::FLOAT && input.elementType() != poplar::HALF)
    throw poplibs_error(name + ": input type " + input.elementType().toString() +
                        " is not supported; dropout takes FLOAT or HALF");
  if (!std::isfinite(scale))
    throw poplibs_error(name + ": scale is not finite; pass a finite scale (typically 1 / keepProbability)");
}

std::string shapeText(const std::vector<std::size_t> &s) {
  std::string t = "{";
  for (std::size_t i = 0; i < s.size(); ++i)
    t += (i ? "," : "") + std::to_string(s[i]);
  return t + "}";
}

} // namespace

Tensor dropout(poplar::Graph &graph, const Tensor *seed, const uint32_t seedModifier, const Tensor &input,
               const Tensor &reference, double keepProbability, double scale, bool outputClonesRef,
               poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = detail::opName(debugContext, "dropout");
  checkInput(input, scale, name);
  detail::checkSeed(seed, name);
  if (!reference.valid() || reference.shape() != input.shape())
    throw poplibs_error(name + ": the reference has shape " +
                        (reference.valid() ? shapeText(reference.shape()) : std::string("(invalid)")) +
                        " but the input has shape " + shapeText(input.shape()) +
                        "; pass a reference of the input's shape (or use shapedDropout)");
  detail::Draw draw;
  draw.kind = dist::DROPOUT;
  draw.a = float(scale);
  detail::setKeepProbability(draw, keepProbability, "keepProbability", name);
  Tensor out = detail::cloneWithType(graph, outputClonesRef ? reference : input, input.elementType(), name);
  detail::generate(graph, seed, seedModifier, out, &input, draw, prog, name);
  return out;
}

Tensor dropout(poplar::Graph &graph, const Tensor *seed, const uint32_t seedModifier, const Tensor &input,
               const Tensor &reference, double keepProbability, double scale, poplar::program::Sequence &prog,
               const poplar::DebugContext &debugContext) {
  return dropout(graph, seed, seedModifier, input, reference, keepProbability, scale, true, prog, debugContext);
}

Tensor shapedDropout(poplar::Graph &graph, const Tensor *seed, const uint32_t seedModifier, const Tensor &input,
                     const Tensor &reference, double keepProbability, double scale, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext) {
  const std::string name = detail::opName(debugContext, "shapedDropout");
  checkInput(input, scale, name);
  if (!reference.valid())
    throw poplibs_error(name + ": the reference is an invalid (default-constructed) tensor");
  // numpy broadcasting of the reference's shape to the input's: aligned on the right, each size equal or 1.
  const auto &in = input.shape();
  const auto &ref = reference.shape();
  bool ok = ref.size() <= in.size();
  for (std::size_t i = 0; ok && i < ref.size(); ++i) {
    const std::size_t r = ref[ref.size() - 1 - i], n = in[in.size() - 1 - i];
    ok = r == n || r == 1;
  }
  if (!ok)
    throw poplibs_error(name + ": the reference shape " + shapeText(ref) + " does not broadcast to the input shape " +
                        shapeText(in) + "; each reference dimension (aligned on the right) must equal the input's "
                                        "or be 1");
  Tensor mask = bernoulli(graph, seed, seedModifier, reference, input.elementType(), keepProbability, prog,
                          name + "/mask");
  std::vector<std::size_t> padded(in.size() - ref.size(), 1);
  padded.insert(padded.end(), ref.begin(), ref.end());
  Tensor maskView = mask.reshape(padded);
  for (unsigned d = 0; d < in.size(); ++d)
    if (padded[d] != in[d])
      maskView = maskView.broadcast(unsigned(in[d]), d);
  Tensor out = detail::cloneWithType(graph, input, input.elementType(), name);
  const Tensor outFlat = out.flatten(), inFlat = input.flatten(), maskFlat = maskView.flatten();
  const std::string vertexType =
      std::string("poprand::ApplyMask") + (input.elementType() == poplar::FLOAT ? "Float" : "Half");
  poplar::TileToTensorMapping mapping = graph.getTileMapping(out);
  poplar::ComputeSet cs = graph.addComputeSet(name + "/apply");
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto &runs : poplibs_support::splitForWorkers(mapping[tile], graph.getTarget().getNumWorkerContexts())) {
      poplar::VertexRef v = graph.addVertex(cs, vertexType);
      graph.setTileMapping(v, tile);
      for (const char *field : {"in", "mask", "out"})
        graph.setFieldSize(v[field], runs.size());
      for (std::size_t r = 0; r < runs.size(); ++r) {
        graph.connect(v["in"][r], inFlat.slice(runs[r].begin(), runs[r].end()));
        graph.connect(v["mask"][r], maskFlat.slice(runs[r].begin(), runs[r].end()));
        graph.connect(v["out"][r], outFlat.slice(runs[r].begin(), runs[r].end()));
      }
      graph.setInitialValue(v["scale"], float(scale));
    }
  prog.add(poplar::program::Execute(cs, name + "/apply"));
  return out;
}

} // namespace poprand
