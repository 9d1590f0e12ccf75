// GfloatCast's operations on a graph (popfloat/experimental/CastToGfloat.hpp): the parameter tensor, computed on
// the device by popfloat::GfloatParams from the packed format word, and the casts, one vertex of
// codelets/popfloat_codelets.cpp per worker's run of each tile's elements.
#include "popfloat/experimental/CastToGfloat.hpp"

#include <atomic>
#include <string>
#include <type_traits>

#include "poplibs_support.hpp"
#include "popops/Cast.hpp"
#include "poputil/DebugInfo.hpp"
#include "vertex_names.hpp"

namespace popfloat {
namespace experimental {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

const unsigned kNumParams = 8; // gfloat_math.h's ParamWord::NUM_PARAMS

void checkCalculationType(const poplar::Type &t, const char *what) {
  if (t != poplar::FLOAT && t != poplar::HALF)
    throw poplibs_error(std::string(what) + ": the calculation type must be FLOAT or HALF, not " + t.toString());
}

void checkParam(const Tensor &param, const char *what) {
  if (!param.valid() || param.elementType() != poplar::INT || param.numElements() != kNumParams)
    throw poplibs_error(std::string(what) + ": `param` must be the tensor createCastOpParamsTensor returns (" +
                        std::to_string(kNumParams) + " INT elements)");
}

void checkInput(const Tensor &input, const char *what) {
  if (!input.valid())
    throw poplibs_error(std::string(what) + ": the input is an invalid (default-constructed) tensor");
}

// The stochastic roundings' noise counter: each cast's vertices start from a different seed, so two casts of one
// program draw different noise (the same on every run of it).
unsigned nextSeed() {
  static std::atomic<unsigned> counter(0x5eed1234u);
  return counter.fetch_add(0x9e3779b9u);
}

// The vertices of one cast: for each tile of `mapped`'s mapping and each worker's run there, a `vertex` connected
// to `param` and to the run's elements through `connect`, with the rounding fields of `cfg` when `rounding`.
void addVertices(poplar::Graph &graph, const Tensor &mapped, const std::string &vertex, const Tensor &param,
                 poplar::ComputeSet cs, const GfloatCast::CastConfig *rounding,
                 const std::function<void(poplar::VertexRef, const poplar::Interval &)> &connect) {
  const unsigned seed = nextSeed();
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  const auto mapping = graph.getTileMapping(mapped);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto &group : poplibs_support::splitForWorkers(mapping[tile], workers))
      for (const poplar::Interval &iv : group) {
        poplar::VertexRef v = graph.addVertex(cs, vertex);
        graph.setTileMapping(v, tile);
        graph.connect(v["param"], param);
        connect(v, iv);
        if (!rounding)
          continue;
        graph.setInitialValue(v["roundMode"], unsigned(rounding->getRoundMode()));
        graph.setInitialValue(v["srBits"], rounding->getNumSRBits());
        graph.setInitialValue(v["density"], unsigned(rounding->getSRNoiseDensity()));
        graph.setInitialValue(v["noiseOffset"], rounding->getSRNoiseOffset());
        graph.setInitialValue(v["noiseScale"], rounding->getSRNoiseScale());
        graph.setInitialValue(v["noiseMin"], rounding->getSRNoiseMin());
        graph.setInitialValue(v["noiseMax"], rounding->getSRNoiseMax());
        graph.setInitialValue(v["bernoulli"], rounding->getBernoulliProbability());
        graph.setInitialValue(v["nanoo"], unsigned(rounding->isNanooModeEnabled()));
        graph.setInitialValue(v["seed"], seed);
        graph.setInitialValue(v["first"], unsigned(iv.begin()));
      }
}

// Adds to `cs` the cast of `input` to the gfloat of `cfg`, into `out` (a new tensor of the storage type, or
// `input` itself when `inPlace`).
void addCastToGfloat(poplar::Graph &graph, const Tensor &input, const Tensor &out, const Tensor &param,
                     poplar::ComputeSet cs, const GfloatCast::CastConfig &cfg, bool inPlace, const char *what) {
  checkInput(input, what);
  checkParam(param, what);
  const poplar::Type in = input.elementType(), storage = cfg.getStorageType();
  if (in != poplar::FLOAT && in != poplar::HALF)
    throw poplibs_error(std::string(what) + ": the input holds " + in.toString() + "; cast FLOAT or HALF");
  if (inPlace && !cfg.inPlaceOp(in))
    throw poplibs_error(std::string(what) + ": the gfloat is held as " + storage.toString() + ", not as the input's " +
                        in.toString() + ", so the cast cannot be in place; use castNativeToGfloat");
  const Tensor flatIn = input.flatten(), flatOut = out.flatten();
  if (!flatOut.isParallelWriteable())
    throw poplibs_error(std::string(what) + ": the tensor written has aliased elements; pass one whose elements "
                                            "are distinct");
  using poputil::detail::templateVertex;
  const std::string vertex = inPlace ? templateVertex("popfloat::CastToGfloatInPlace", {in})
                                     : templateVertex("popfloat::CastToGfloat", {in, storage});
  addVertices(graph, flatOut, vertex, param, cs, &cfg, [&](poplar::VertexRef v, const poplar::Interval &iv) {
    if (inPlace) {
      graph.connect(v["inOut"], flatOut.slice(iv));
    } else {
      graph.connect(v["in"], flatIn.slice(iv));
      graph.connect(v["out"], flatOut.slice(iv));
    }
  });
}

// Runs `addTo` on a new compute set, then appends the compute set to `prog` (the program forms of the
// compute-set forms); returns what addTo returns.
template <typename F>
auto inNewComputeSet(poplar::Graph &graph, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                     const char *name, F addTo) {
  poplar::ComputeSet cs = graph.addComputeSet({debugContext, name});
  if constexpr (std::is_void_v<decltype(addTo(cs))>) {
    addTo(cs);
    prog.add(poplar::program::Execute(cs));
  } else {
    auto result = addTo(cs);
    prog.add(poplar::program::Execute(cs));
    return result;
  }
}

Tensor newLike(poplar::Graph &graph, const poplar::Type &type, const Tensor &input, const std::string &name) {
  return graph.clone(type, input, name);
}

} // namespace

// --- parameters -----------------------------------------------------------------------------------------------

Tensor GfloatCast::createCastOpParamsTensor(poplar::Graph &graph, const poplar::ComputeSet &cs,
                                            poplar::Type calculationType, Tensor gfPacked,
                                            const poplar::DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, {}, "createCastOpParamsTensor");
  checkCalculationType(calculationType, "GfloatCast::createCastOpParamsTensor");
  if (!gfPacked.valid() || gfPacked.numElements() != 1 ||
      (gfPacked.elementType() != poplar::INT && gfPacked.elementType() != poplar::UNSIGNED_INT))
    throw poplibs_error("GfloatCast::createCastOpParamsTensor: the packed format must be a one-element INT or "
                        "UNSIGNED_INT tensor (FormatConfig::getPackedFloatParameters)");
  Tensor param = graph.addVariable(poplar::INT, {kNumParams}, {di, "gfloatParams"});
  graph.setTileMapping(param, 0);
  poplar::VertexRef v = graph.addVertex(cs, "popfloat::GfloatParams");
  graph.setTileMapping(v, 0);
  graph.connect(v["gfStruct"], gfPacked.flatten().reinterpret(poplar::INT));
  graph.connect(v["param"], param);
  di.addOutput(param);
  return param;
}

Tensor GfloatCast::createCastOpParamsTensor(poplar::Graph &graph, const poplar::ComputeSet &cs,
                                            poplar::Type calculationType, const unsigned gfPacked,
                                            const poplar::DebugContext &debugContext) {
  Tensor word = graph.addConstant(poplar::UNSIGNED_INT, {1}, gfPacked, {debugContext, "gfloatStruct"});
  graph.setTileMapping(word, 0);
  return createCastOpParamsTensor(graph, cs, calculationType, word, debugContext);
}

Tensor GfloatCast::createCastOpParamsTensor(poplar::Graph &graph, poplar::program::Sequence &prog,
                                            poplar::Type calculationType, const unsigned gfStruct,
                                            const poplar::DebugContext &debugContext) {
  return inNewComputeSet(graph, prog, debugContext, "gfloatParams", [&](poplar::ComputeSet cs) {
    return createCastOpParamsTensor(graph, cs, calculationType, gfStruct, debugContext);
  });
}

Tensor GfloatCast::createCastOpParamsTensor(poplar::Graph &graph, poplar::program::Sequence &prog,
                                            poplar::Type calculationType, Tensor gfStruct,
                                            const poplar::DebugContext &debugContext) {
  return inNewComputeSet(graph, prog, debugContext, "gfloatParams", [&](poplar::ComputeSet cs) {
    return createCastOpParamsTensor(graph, cs, calculationType, gfStruct, debugContext);
  });
}

void GfloatCast::createCastOpParamsTensor(poplar::Graph &graph, poplar::program::Sequence &prog,
                                          const poplar::DebugContext &debugContext) {
  setGfloatCastParameters(new Tensor(createCastOpParamsTensor(graph, prog, formatCfg.getCalculationType(),
                                                              formatCfg.getPackedFloatParameters(), debugContext)));
}

void GfloatCast::createCastOpParamsTensor(poplar::Graph &graph, const poplar::ComputeSet &cs) {
  setGfloatCastParameters(new Tensor(
      createCastOpParamsTensor(graph, cs, formatCfg.getCalculationType(), formatCfg.getPackedFloatParameters())));
}

// --- native to gfloat -----------------------------------------------------------------------------------------

Tensor GfloatCast::castNativeToGfloat(poplar::Graph &graph, Tensor input, const Tensor &param,
                                      const poplar::ComputeSet &cs, const CastConfig &gfCastCfg,
                                      const poplar::DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, {}, "castNativeToGfloat");
  checkInput(input, "GfloatCast::castNativeToGfloat");
  Tensor out = newLike(graph, gfCastCfg.getStorageType(), input, "gfloat");
  addCastToGfloat(graph, input, out, param, cs, gfCastCfg, false, "GfloatCast::castNativeToGfloat");
  di.addOutput(out);
  return out;
}

Tensor GfloatCast::castNativeToGfloat(poplar::Graph &graph, Tensor input, const Tensor &param,
                                      poplar::program::Sequence &prog, const CastConfig &gfCastCfg,
                                      const poplar::DebugContext &debugContext) {
  return inNewComputeSet(graph, prog, debugContext, "castNativeToGfloat", [&](poplar::ComputeSet cs) {
    return castNativeToGfloat(graph, input, param, cs, gfCastCfg, debugContext);
  });
}

Tensor GfloatCast::castNativeToGfloat(poplar::Graph &graph, Tensor input, poplar::program::Sequence &prog,
                                      const poplar::DebugContext &debugContext) {
  return castNativeToGfloat(graph, input, getCastOpParams(), prog, nativeToGFCastCfg, debugContext);
}

void GfloatCast::castNativeToGfloatInPlace(poplar::Graph &graph, Tensor input, const Tensor &param,
                                           const poplar::ComputeSet &cs, const CastConfig &gfCastCfg,
                                           const poplar::DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, {}, "castNativeToGfloatInPlace");
  addCastToGfloat(graph, input, input, param, cs, gfCastCfg, true, "GfloatCast::castNativeToGfloatInPlace");
}

void GfloatCast::castNativeToGfloatInPlace(poplar::Graph &graph, Tensor input, const Tensor &param,
                                           poplar::program::Sequence &prog, const CastConfig &gfCastCfg,
                                           const poplar::DebugContext &debugContext) {
  inNewComputeSet(graph, prog, debugContext, "castNativeToGfloatInPlace", [&](poplar::ComputeSet cs) {
    castNativeToGfloatInPlace(graph, input, param, cs, gfCastCfg, debugContext);
  });
}

void GfloatCast::castNativeToGfloatInPlace(poplar::Graph &graph, Tensor input, poplar::program::Sequence &prog,
                                           const poplar::DebugContext &debugContext) {
  castNativeToGfloatInPlace(graph, input, getCastOpParams(), prog, nativeToGFCastCfg, debugContext);
}

void GfloatCast::castNativeToGfloatInPlace(poplar::Graph &graph, Tensor input, const poplar::ComputeSet &cs) {
  castNativeToGfloatInPlace(graph, input, getCastOpParams(), cs, nativeToGFCastCfg);
}

// --- gfloat to native -----------------------------------------------------------------------------------------

Tensor GfloatCast::castGfloatToNative(poplar::Graph &graph, Tensor input, const Tensor &param,
                                      const poplar::ComputeSet &cs, const CastConfig &gfCastCfg,
                                      const poplar::DebugContext &debugContext) {
  const char *what = "GfloatCast::castGfloatToNative";
  poputil::PoplibsOpDebugInfo di(debugContext, {}, "castGfloatToNative");
  checkInput(input, what);
  checkParam(param, what);
  const poplar::Type in = input.elementType(), native = gfCastCfg.getStorageType();
  Tensor out = newLike(graph, native, input, "native");
  if (in == poplar::FLOAT || in == poplar::HALF) {
    // A gfloat held as an IEEE value is already that value: only the type may change.
    popops::cast(graph, input, out, cs);
  } else if (in == poplar::SIGNED_CHAR || in == poplar::CHAR || in == poplar::SHORT) {
    const Tensor flatIn = input.flatten(), flatOut = out.flatten();
    addVertices(graph, flatOut,
                poputil::detail::templateVertex("popfloat::CastGfloatToNative",
                                                {in == poplar::SHORT ? poplar::SHORT : poplar::SIGNED_CHAR, native}),
                param, cs, nullptr, [&](poplar::VertexRef v, const poplar::Interval &iv) {
                  graph.connect(v["in"], flatIn.slice(iv));
                  graph.connect(v["out"], flatOut.slice(iv));
                });
  } else {
    throw poplibs_error(std::string(what) + ": the input holds " + in.toString() +
                        "; a gfloat is held as FLOAT, HALF, SIGNED_CHAR or SHORT");
  }
  di.addOutput(out);
  return out;
}

Tensor GfloatCast::castGfloatToNative(poplar::Graph &graph, Tensor input, const Tensor &param,
                                      poplar::program::Sequence &prog, const CastConfig &gfCastCfg,
                                      const poplar::DebugContext &debugContext) {
  return inNewComputeSet(graph, prog, debugContext, "castGfloatToNative", [&](poplar::ComputeSet cs) {
    return castGfloatToNative(graph, input, param, cs, gfCastCfg, debugContext);
  });
}

Tensor GfloatCast::castGfloatToNative(poplar::Graph &graph, Tensor input, poplar::program::Sequence &prog,
                                      const poplar::DebugContext &debugContext) {
  return castGfloatToNative(graph, input, getCastOpParams(), prog, gfToNativeCastCfg, debugContext);
}

Tensor GfloatCast::castGfloatToNative(poplar::Graph &graph, Tensor input, const poplar::ComputeSet &cs) {
  return castGfloatToNative(graph, input, getCastOpParams(), cs, gfToNativeCastCfg);
}

} // namespace experimental
} // namespace popfloat
