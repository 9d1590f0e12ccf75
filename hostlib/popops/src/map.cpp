// popops::map, mapInPlace and mapWithOutput: one compute set per call. Each tile that holds output elements gets
// one MapInterpreter (a MultiVertex whose workers share the tile's elements) over the tile's output runs; operands
// are connected as the matching runs of their broadcast views (a one-element operand as itself), so the graph
// compiler brings remote operand elements to the output's tile.
#include <algorithm>

#include <poplar/Program.hpp>

#include "../codelets/map_code.h"
#include "broadcast.hpp"
#include "expr_compile.hpp"
#include "log.hpp"
#include "map_internal.hpp"
#include "op_name.hpp"
#include "poplibs_support.hpp"
#include "popops/ElementWise.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;
namespace plog = poputil::detail;

namespace {

const char *const kListSuffix[] = {"F", "I", "U", "B", "H"};

std::vector<poplar::Type> typesOf(const std::vector<Tensor> &ts, const std::string &what) {
  std::vector<poplar::Type> types;
  for (std::size_t i = 0; i < ts.size(); ++i) {
    if (!ts[i].valid())
      throw poplibs_error(what + ": operand " + std::to_string(i + 1) + " is an invalid (default-constructed) tensor");
    types.push_back(ts[i].elementType());
  }
  return types;
}

std::size_t mappedElements(const poplar::TileToTensorMapping &m) {
  std::size_t n = 0;
  for (const auto &tile : m)
    for (const auto &i : tile)
      n += i.size();
  return n;
}

// Adds to `cs` the vertices that evaluate `c` over `ts` into `out` (of the broadcast shape): on each tile, the
// output elements `given` lists for it (indices of the flattened output), or by default those the tile holds.
void buildMapVertices(poplar::Graph &graph, const detail::CompiledExpr &c, const std::vector<Tensor> &ts,
                      const Tensor &out, poplar::ComputeSet cs, const std::string &name,
                      const poplar::TileToTensorMapping *given = nullptr) {
  if (out.numElements() == 0)
    return;
  const std::vector<std::size_t> &shape = out.shape();
  std::vector<Tensor> flat;
  for (const Tensor &t : ts)
    flat.push_back(t.numElements() == 1 ? t.flatten() : detail::broadcastTo(t, shape).flatten());
  const Tensor outFlat = out.flatten();
  const unsigned resultList = detail::valueTypeOf(c.resultType, name);
  const std::uint32_t *counts = c.code.data(); // the header's operand counts per list
  const poplar::TileToTensorMapping mapping = given ? *given : detail::outputMapping(graph, out, name);
  std::size_t numVertices = 0, numTiles = 0;
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    const std::vector<poplar::Interval> &runs = mapping[tile];
    if (runs.empty())
      continue;
    ++numTiles;
    Tensor code = graph.addConstant(poplar::UNSIGNED_INT, {c.code.size()}, c.code, name + "/code");
    graph.setTileMapping(code, tile);
    {
      poplar::VertexRef v = graph.addVertex(cs, "popops::MapInterpreter");
      graph.setTileMapping(v, tile);
      ++numVertices;
      graph.connect(v["code"], code);
      for (unsigned l = 0; l < mapcode::NUM_TYPES; ++l) {
        graph.setFieldSize(v[std::string("in") + kListSuffix[l]], runs.size() * counts[l]);
        graph.setFieldSize(v[std::string("out") + kListSuffix[l]], l == resultList ? runs.size() : 0);
      }
      for (std::size_t r = 0; r < runs.size(); ++r) {
        const auto &iv = runs[r];
        for (std::size_t k = 0; k < ts.size(); ++k) {
          unsigned l = c.operandList[k];
          Tensor piece = flat[k].numElements() == 1 ? flat[k] : flat[k].slice(iv.begin(), iv.end());
          graph.connect(v[std::string("in") + kListSuffix[l]][r * counts[l] + c.operandIndex[k]], piece);
        }
        graph.connect(v[std::string("out") + kListSuffix[resultList]][r], outFlat.slice(iv.begin(), iv.end()));
      }
    }
  }
  if (plog::logEnabled(plog::LogLevel::Debug))
    plog::log(plog::LogLevel::Debug, name + ": map of " + std::to_string(out.numElements()) + " elements, " +
                                       std::to_string(c.code.size()) + " code words, " +
                                       std::to_string(numVertices) + " vertices on " + std::to_string(numTiles) +
                                       " tiles");
}

// Adds the compute set that evaluates `c` over `ts` into `out` to `prog` (nothing for an empty output).
void buildMap(poplar::Graph &graph, const detail::CompiledExpr &c, const std::vector<Tensor> &ts, const Tensor &out,
              poplar::program::Sequence &prog, const std::string &name) {
  if (out.numElements() == 0)
    return;
  poplar::ComputeSet cs = graph.addComputeSet(name);
  buildMapVertices(graph, c, ts, out, cs, name);
  prog.add(poplar::program::Execute(cs, name));
}

std::vector<std::size_t> resultShape(const std::vector<Tensor> &ts, const std::string &what) {
  std::vector<std::vector<std::size_t> > shapes;
  for (const Tensor &t : ts)
    shapes.push_back(t.shape());
  return detail::broadcastShape(shapes, what);
}

} // namespace

Tensor map(poplar::Graph &graph, const expr::Expr &e, const std::vector<Tensor> &ts, poplar::program::Sequence &prog,
           const poplar::DebugContext &debugContext, const poplar::OptionFlags &) {
  const std::string name = opName(debugContext, "map");
  detail::CompiledExpr c = detail::compileExpr(e, typesOf(ts, name), name);
  std::vector<std::size_t> shape = resultShape(ts, name);
  Tensor out = graph.addVariable(c.resultType, shape, name + "/out");
  detail::mapLike(graph, out, ts);
  buildMap(graph, c, ts, out, prog, name);
  return out;
}

void mapInPlace(poplar::Graph &graph, const expr::Expr &e, const std::vector<Tensor> &ts,
                poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                const poplar::OptionFlags &) {
  const std::string name = opName(debugContext, "mapInPlace");
  if (ts.empty())
    throw poplibs_error(name + ": no tensors; the first tensor is the one written");
  detail::CompiledExpr c = detail::compileExpr(e, typesOf(ts, name), name);
  std::vector<std::size_t> shape = resultShape(ts, name);
  if (shape != ts[0].shape())
    throw poplibs_error(name + ": the result has shape " + detail::shapeString(shape) +
                        " but the tensor written in place has shape " + detail::shapeString(ts[0].shape()) +
                        "; only the other operands may broadcast");
  if (c.resultType != ts[0].elementType())
    throw poplibs_error(name + ": the expression gives " + c.resultType.toString() +
                        " but the tensor written in place holds " + ts[0].elementType().toString() +
                        "; use map() or a Cast");
  if (!ts[0].isParallelWriteable())
    throw poplibs_error(name + ": the tensor written in place has aliased elements (a broadcast view?); write "
                               "into a tensor whose elements are distinct");
  buildMap(graph, c, ts, ts[0], prog, name);
}

namespace detail {

CompiledExpr checkMapWithOutput(const expr::Expr &e, const std::vector<Tensor> &ts, const Tensor &out,
                                const std::string &name) {
  if (!out.valid())
    throw poplibs_error(name + ": the output is an invalid (default-constructed) tensor");
  std::vector<poplar::Type> types = typesOf(ts, name);
  detail::CompiledExpr c = detail::compileExpr(e, types, name);
  std::vector<std::vector<std::size_t> > shapes;
  for (const Tensor &t : ts)
    shapes.push_back(t.shape());
  std::vector<std::size_t> shape = detail::broadcastShape(shapes, name);
  if (detail::broadcastShape({shape, out.shape()}, name) != out.shape())
    throw poplibs_error(name + ": the result has shape " + detail::shapeString(shape) + " but the output has shape " +
                        detail::shapeString(out.shape()) + "; pass an output of the broadcast shape");
  if (c.resultType != out.elementType())
    throw poplibs_error(name + ": the expression gives " + c.resultType.toString() + " but the output holds " +
                        out.elementType().toString() + "; wrap the expression in expr::Cast");
  if (!out.isParallelWriteable())
    throw poplibs_error(name + ": the output has aliased elements; write into a tensor whose elements are distinct");
  return c;
}

void mapIntoComputeSet(poplar::Graph &graph, const expr::Expr &e, const std::vector<Tensor> &ts, const Tensor &out,
                       poplar::ComputeSet cs, const std::string &name) {
  buildMapVertices(graph, checkMapWithOutput(e, ts, out, name), ts, out, cs, name);
}

poplar::TileToTensorMapping outputMapping(const poplar::Graph &graph, const Tensor &out, const std::string &name) {
  poplar::TileToTensorMapping mapping = graph.getTileMapping(out, false);
  if (mappedElements(mapping) != out.numElements())
    throw poplibs_error(name + ": the output tensor has unmapped elements; map it (e.g. poputil::mapTensorLinearly) "
                               "before the call");
  return mapping;
}

void mapLike(poplar::Graph &graph, const Tensor &out, const std::vector<Tensor> &operands) {
  for (const Tensor &t : operands)
    if (t.shape() == out.shape() && t.numElements() > 0) {
      poplar::TileToTensorMapping m = graph.getTileMapping(t, false);
      if (mappedElements(m) == t.numElements()) {
        graph.setTileMapping(out, m);
        return;
      }
    }
  poputil::mapTensorLinearly(graph, out);
}

poplar::TileToTensorMapping checkedRegions(const poplar::Graph &graph, const Tensor &out,
                                           const poplar::TileToTensorMapping &regions, const std::string &name) {
  if (regions.size() > graph.getTarget().getNumTiles())
    throw poplibs_error(name + ": the regions name tile " + std::to_string(regions.size() - 1) + " but the graph has " +
                        std::to_string(graph.getTarget().getNumTiles()) + " tiles; pass regions of existing tiles");
  poplar::TileToTensorMapping used(regions.size());
  for (std::size_t tile = 0; tile < regions.size(); ++tile)
    for (const poplar::Interval &iv : regions[tile]) {
      if (iv.end() > out.numElements() || iv.begin() > iv.end())
        throw poplibs_error(name + ": region [" + std::to_string(iv.begin()) + ", " + std::to_string(iv.end()) +
                            ") on tile " + std::to_string(tile) + " is outside the tensor's " +
                            std::to_string(out.numElements()) + " elements; pass regions of the flattened tensor");
      if (iv.size() > 0)
        used[tile].push_back(iv);
    }
  return used;
}

void mapRegionsIntoComputeSet(poplar::Graph &graph, const expr::Expr &e, const Tensor &out,
                              const poplar::TileToTensorMapping &regions, poplar::ComputeSet cs,
                              const std::string &name) {
  const CompiledExpr c = checkMapWithOutput(e, {}, out, name);
  const poplar::TileToTensorMapping used = checkedRegions(graph, out, regions, name);
  buildMapVertices(graph, c, {}, out, cs, name, &used);
}

} // namespace detail

void mapWithOutput(poplar::Graph &graph, const expr::Expr &e, const std::vector<Tensor> &ts, const Tensor &out,
                   poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                   const poplar::OptionFlags &) {
  const std::string name = opName(debugContext, "mapWithOutput");
  buildMap(graph, detail::checkMapWithOutput(e, ts, out, name), ts, out, prog, name);
}

} // namespace popops
