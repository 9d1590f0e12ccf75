// Internal: see generate.hpp.
#include "generate.hpp"

#include <algorithm>
#include <cmath>

#include "hw_state.hpp"
#include "log.hpp"
#include "poplibs_support.hpp"
#include "poputil/exceptions.hpp"

namespace poprand::detail {

using poplar::Tensor;
using poputil::poplibs_error;
namespace plog = poputil::detail;

std::string opName(const poplar::DebugContext &debugContext, const char *fn) {
  return poplibs_support::operationName(debugContext, "poprand::", fn);
}

void checkSeed(const Tensor *seed, const std::string &name) {
  if (!seed)
    return;
  if (!seed->valid())
    throw poplibs_error(name + ": the seed is an invalid (default-constructed) tensor; pass a tensor of two "
                               "UNSIGNED_INT elements, or nullptr to use the tiles' generator state");
  if (seed->elementType() != poplar::UNSIGNED_INT || seed->numElements() != 2)
    throw poplibs_error(name + ": the seed must be a tensor of two UNSIGNED_INT elements, not " +
                        seed->elementType().toString() + " of shape " + seed->shapeToString() +
                        "; create it as graph.addVariable(poplar::UNSIGNED_INT, {2})");
}

void setKeepProbability(Draw &draw, double probability, const std::string &what, const std::string &name) {
  if (!(probability >= 0.0 && probability <= 1.0))
    throw poplibs_error(name + ": " + what + " is " + std::to_string(probability) +
                        "; it is a probability, pass a value in [0, 1]");
  const double scaled = std::floor(probability * 4294967296.0);
  draw.u1 = probability >= 1.0 ? 1u : 0u;
  draw.u0 = unsigned(std::min(scaled, 4294967295.0));
}

static std::size_t mappedElements(const poplar::TileToTensorMapping &m) {
  std::size_t n = 0;
  for (const auto &tile : m)
    for (const auto &i : tile)
      n += i.size();
  return n;
}

Tensor cloneWithType(poplar::Graph &graph, const Tensor &like, const poplar::Type &type, const std::string &name) {
  if (!like.valid())
    throw poplibs_error(name + ": the reference is an invalid (default-constructed) tensor");
  poplar::TileToTensorMapping mapping = graph.getTileMapping(like, false);
  if (mappedElements(mapping) != like.numElements())
    throw poplibs_error(name + ": the reference tensor has unmapped elements; map it (e.g. "
                               "poputil::mapTensorLinearly) before the call, its mapping places the result");
  Tensor out = graph.addVariable(type, like.shape(), name + "/out");
  graph.setTileMapping(out, mapping);
  return out;
}

static std::string typeSuffix(const poplar::Type &t) {
  if (t == poplar::FLOAT)
    return "Float";
  if (t == poplar::HALF)
    return "Half";
  return "Int";
}

void generate(poplar::Graph &graph, const Tensor *seed, uint32_t seedModifier, const Tensor &out, const Tensor *in,
              const Draw &draw, poplar::program::Sequence &prog, const std::string &name) {
  if (out.numElements() == 0)
    return;
  if (out.numElements() > 0xffffffffull)
    throw poplibs_error(name + ": " + std::to_string(out.numElements()) +
                        " elements; random numbers are numbered with 32 bits, split the tensor");
  const std::string vertexType =
      "poprand::Generate" + typeSuffix(out.elementType()) + (seed ? "Seeded" : "Hw");
  Tensor state = seed ? Tensor() : hwState(graph, name);
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  const Tensor outFlat = out.flatten();
  const Tensor inFlat = in ? in->flatten() : Tensor();
  const Tensor seedFlat = seed ? seed->flatten() : Tensor();
  poplar::TileToTensorMapping mapping = graph.getTileMapping(out);
  poplar::ComputeSet cs = graph.addComputeSet(name);
  std::size_t numVertices = 0;
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    auto groups = poplibs_support::splitForWorkers(mapping[tile], workers);
    if (groups.empty())
      continue;
    Tensor offsets;
    if (seed) {
      std::vector<unsigned> starts;
      for (const auto &runs : groups)
        for (const auto &iv : runs)
          starts.push_back(unsigned(iv.begin()));
      offsets = graph.addConstant(poplar::UNSIGNED_INT, {starts.size()}, starts, name + "/offsets");
      graph.setTileMapping(offsets, tile);
    }
    std::size_t firstRun = 0;
    for (unsigned w = 0; w < groups.size(); ++w) {
      const auto &runs = groups[w];
      poplar::VertexRef v = graph.addVertex(cs, vertexType);
      graph.setTileMapping(v, tile);
      ++numVertices;
      graph.setFieldSize(v["out"], runs.size());
      graph.setFieldSize(v["in"], in ? runs.size() : 0);
      for (std::size_t r = 0; r < runs.size(); ++r) {
        graph.connect(v["out"][r], outFlat.slice(runs[r].begin(), runs[r].end()));
        if (in)
          graph.connect(v["in"][r], inFlat.slice(runs[r].begin(), runs[r].end()));
      }
      if (seed) {
        graph.connect(v["offsets"], offsets.slice(firstRun, firstRun + runs.size()));
        graph.connect(v["seed"], seedFlat);
        graph.setInitialValue(v["seedModifier"], unsigned(seedModifier));
      } else {
        graph.connect(v["state"], state[tile][w].flatten());
      }
      firstRun += runs.size();
      graph.setInitialValue(v["dist"], draw.kind);
      graph.setInitialValue(v["a"], draw.a);
      graph.setInitialValue(v["b"], draw.b);
      graph.setInitialValue(v["c"], draw.c);
      graph.setInitialValue(v["d"], draw.d);
      graph.setInitialValue(v["u0"], draw.u0);
      graph.setInitialValue(v["u1"], draw.u1);
    }
  }
  prog.add(poplar::program::Execute(cs, name));
  if (plog::logEnabled(plog::LogLevel::Debug))
    plog::log(plog::LogLevel::Debug, name + ": " + std::to_string(out.numElements()) + " " +
                                         out.elementType().toString() + " elements by " +
                                         std::to_string(numVertices) + " " + vertexType + " vertices");
}

} // namespace poprand::detail
