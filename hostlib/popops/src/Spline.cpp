// popops::splineBasis and popops::splineWeighting (SplineBasis.hpp, SplineWeighting.hpp). Both work edge by edge:
// the results are laid out in whole rows (one edge's values together) spread linearly over the tiles, and each
// tile's edges are cut into one chunk per worker, each chunk one vertex (spline_codelets.h) whose inputs the graph
// compiler brings to the tile. splineBasis computes into such a layout and copies into the caller's tensors,
// whose mapping it does not choose.
#include "popops/SplineBasis.hpp"
#include "popops/SplineWeighting.hpp"

#include <string>
#include <vector>

#include "poplibs_support.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/VertexTemplates.hpp"
#include "poputil/exceptions.hpp"
#include "op_name.hpp"

namespace popops {

using poplar::Interval;
using poplar::Tensor;
using poputil::poplibs_error;

namespace {

void expectRank(const Tensor &t, unsigned rank, const std::string &name, const char *what) {
  if (!t.valid() || t.rank() != rank)
    throw poplibs_error(name + ": " + what + " must be a tensor of rank " + std::to_string(rank) +
                        (t.valid() ? ", not " + std::to_string(t.rank()) : " (it is invalid)"));
}

void expectType(const Tensor &t, const poplar::Type &type, const std::string &name, const char *what) {
  if (t.elementType() != type)
    throw poplibs_error(name + ": " + what + " holds " + t.elementType().toString() + "; it must hold " +
                        type.toString());
}

void expectFloating(const Tensor &t, const std::string &name, const char *what) {
  if (t.elementType() != poplar::FLOAT && t.elementType() != poplar::HALF)
    throw poplibs_error(name + ": " + what + " holds " + t.elementType().toString() + "; it must be FLOAT or HALF");
}

void expectDim(std::size_t got, std::size_t want, const std::string &name, const std::string &what) {
  if (got != want)
    throw poplibs_error(name + ": " + what + " is " + std::to_string(got) + " but must be " + std::to_string(want));
}

/// A new [rows, width] tensor whose rows are each whole on one tile, spread linearly over the tiles.
Tensor newRows(poplar::Graph &graph, const poplar::Type &type, std::size_t rows, std::size_t width,
               const std::string &name) {
  Tensor t = graph.addVariable(type, {rows, width}, name);
  if (rows * width != 0)
    poputil::mapTensorLinearly(graph, t, 0, unsigned(width));
  return t;
}

/// Calls add(tile, rows) for each worker's chunk of the rows of `rowsOnTiles` (a newRows tensor).
template <typename Add> void forEachChunk(poplar::Graph &graph, const Tensor &rowsOnTiles, Add add) {
  if (rowsOnTiles.numElements() == 0)
    return;
  const auto mapping = graph.getTileMapping(rowsOnTiles.slice(0, 1, 1).flatten());
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto &group : poplibs_support::splitForWorkers(mapping[tile], workers))
      for (const Interval &rows : group)
        add(tile, rows);
}

} // namespace

void splineBasis(poplar::Graph &graph, const Tensor &pseudo, const Tensor &kernelSize, const Tensor &isOpenSpline,
                 const Tensor &basis, const Tensor &weightIndex, unsigned degree, poplar::program::Sequence &prog,
                 const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "splineBasis");
  expectRank(pseudo, 2, name, "pseudo");
  expectRank(kernelSize, 1, name, "kernelSize");
  expectRank(isOpenSpline, 1, name, "isOpenSpline");
  expectRank(basis, 2, name, "basis");
  expectRank(weightIndex, 2, name, "weightIndex");
  expectFloating(pseudo, name, "pseudo");
  expectType(kernelSize, poplar::INT, name, "kernelSize");
  expectType(isOpenSpline, poplar::UNSIGNED_CHAR, name, "isOpenSpline");
  expectType(basis, pseudo.elementType(), name, "basis");
  expectType(weightIndex, poplar::INT, name, "weightIndex");
  if (degree < 1 || degree > 3)
    throw poplibs_error(name + ": degree " + std::to_string(degree) + " is not supported; it must be 1, 2 or 3");
  const std::size_t edges = pseudo.dim(0), dims = pseudo.dim(1);
  expectDim(kernelSize.dim(0), dims, name, "kernelSize's size");
  expectDim(isOpenSpline.dim(0), dims, name, "isOpenSpline's size");
  std::size_t splines = 1;
  for (std::size_t d = 0; d < dims; ++d)
    splines *= degree + 1;
  for (const Tensor *t : {&basis, &weightIndex}) {
    expectDim(t->dim(0), edges, name, "the output's number of rows (edges)");
    expectDim(t->dim(1), splines, name, "the output's row length ((degree + 1)^numDims)");
  }
  if (edges == 0 || dims == 0)
    return;
  Tensor basisRows = newRows(graph, pseudo.elementType(), edges, splines, name + "/basis");
  Tensor indexRows = newRows(graph, poplar::INT, edges, splines, name + "/weightIndex");
  graph.setTileMapping(indexRows, graph.getTileMapping(basisRows));
  poplar::ComputeSet cs = graph.addComputeSet(name);
  const std::string vertex = poputil::templateVertex("popops::SplineBasis", pseudo.elementType());
  forEachChunk(graph, basisRows, [&](unsigned tile, const Interval &rows) {
    auto v = graph.addVertex(cs, vertex,
                             {{"pseudo", pseudo.slice(rows, 0).flatten()},
                              {"kernelSize", kernelSize},
                              {"isOpenSpline", isOpenSpline},
                              {"basis", basisRows.slice(rows, 0).flatten()},
                              {"weightIndex", indexRows.slice(rows, 0).flatten()}});
    graph.setInitialValue(v["degree"], degree);
    graph.setTileMapping(v, tile);
  });
  prog.add(poplar::program::Execute(cs, name));
  prog.add(poplar::program::Copy(basisRows, basis, false, name));
  prog.add(poplar::program::Copy(indexRows, weightIndex, false, name));
}

Tensor splineWeighting(poplar::Graph &graph, const Tensor &input, const Tensor &weight, const Tensor &basis,
                       const Tensor &weightIndex, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "splineWeighting");
  expectRank(input, 2, name, "input");
  expectRank(weight, 3, name, "weight");
  expectRank(basis, 2, name, "basis");
  expectRank(weightIndex, 2, name, "weightIndex");
  expectFloating(input, name, "input");
  expectType(weight, input.elementType(), name, "weight");
  expectType(basis, input.elementType(), name, "basis");
  expectType(weightIndex, poplar::INT, name, "weightIndex");
  const std::size_t edges = input.dim(0), inCh = input.dim(1), outCh = weight.dim(2);
  expectDim(basis.dim(0), edges, name, "basis's number of rows (edges)");
  expectDim(weightIndex.dim(0), edges, name, "weightIndex's number of rows (edges)");
  expectDim(weightIndex.dim(1), basis.dim(1), name, "weightIndex's row length (splines)");
  expectDim(weight.dim(1), inCh, name, "weight's dimension 1 (input channels)");
  Tensor output = newRows(graph, input.elementType(), edges, outCh, name + "/output");
  if (output.numElements() == 0)
    return output;
  poplar::ComputeSet cs = graph.addComputeSet(name);
  const std::string vertex = poputil::templateVertex("popops::SplineWeighting", input.elementType());
  forEachChunk(graph, output, [&](unsigned tile, const Interval &rows) {
    auto v = graph.addVertex(cs, vertex,
                             {{"input", input.slice(rows, 0).flatten()},
                              {"weight", weight.flatten()},
                              {"basis", basis.slice(rows, 0).flatten()},
                              {"weightIndex", weightIndex.slice(rows, 0).flatten()},
                              {"output", output.slice(rows, 0).flatten()}});
    graph.setInitialValue(v["numInCh"], unsigned(inCh));
    graph.setInitialValue(v["numOutCh"], unsigned(outCh));
    graph.setTileMapping(v, tile);
  });
  prog.add(poplar::program::Execute(cs, name));
  return output;
}

} // namespace popops
