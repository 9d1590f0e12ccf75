// The matMul family: every form is a grouped product A {G, m, k} * B {G, k, n} (2-D operands are one group). The
// plan (MatMulPlan.hpp) cuts it into blocks; each block is one MatMul vertex on its tile, running on all six
// workers, with the block's operands gathered from wherever they live. An inner-dimension split writes partials
// (float, or half for HALF operands with partialsType half: each block's sum rounded to half), which
// ReducePartials vertices sum in stages of up to kMaxReduceFanIn partials, each stage spread over the tiles that
// made them, the last one where the result lives; half partials are rounded again after every stage.
#include "poplin/MatMul.hpp"

#include <algorithm>
#include <ostream>

#include <poplar/Program.hpp>

#include "MatMulPlan.hpp"
#include "matmul_build.hpp"
#include "popops/ScaledAdd.hpp"
#include "poputil/exceptions.hpp"
#include "vertex_names.hpp"

namespace poplin {

using poplar::Tensor;
using poputil::poplibs_error;

namespace detail {

namespace {

std::string shapeStr(const std::vector<std::size_t> &s) {
  std::string r = "{";
  for (std::size_t i = 0; i < s.size(); ++i)
    r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "}";
}

void checkType(const poplar::Type &t, const std::string &what, const char *operand) {
  if (t != poplar::FLOAT && t != poplar::HALF)
    throw poplibs_error(what + ": " + operand + " has element type " + t.toString() +
                        "; matrix products take FLOAT or HALF operands");
}

// Splits the flattened `t` into `n` nearly equal runs; run i goes to tiles[i].
void spread(poplar::Graph &graph, const Tensor &t, const std::vector<unsigned> &tiles) {
  const std::size_t len = t.numElements(), n = tiles.size();
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t b = len * i / n, e = len * (i + 1) / n;
    if (e > b)
      graph.setTileMapping(t.slice(b, e), tiles[i]);
  }
}

struct Range {
  std::size_t b, e;
};
Range part(std::size_t n, std::size_t block, unsigned i) { return {std::min(n, i * block), std::min(n, (i + 1) * block)}; }

// The reduction vertex summing partials of type `in` (FLOAT or HALF) into `out` (HALF, else FLOAT).
std::string reduceVertexFor(const poplar::Type &in, const poplar::Type &out) {
  return poputil::detail::templateVertex("poplin::ReducePartials",
                                         {in == poplar::HALF ? poplar::HALF : poplar::FLOAT,
                                          out == poplar::HALF ? poplar::HALF : poplar::FLOAT});
}

// The product vertex: float operands give a float result; half operands a half result or float partials.
std::string vertexFor(const poplar::Type &in, const poplar::Type &out) {
  if (in == poplar::FLOAT)
    return poputil::detail::templateVertex("poplin::MatMul", {poplar::FLOAT, poplar::FLOAT});
  return poputil::detail::templateVertex("poplin::MatMul", {poplar::HALF, out == poplar::HALF ? poplar::HALF
                                                                                               : poplar::FLOAT});
}

} // namespace

MatMulProblem problemOf(const std::vector<std::size_t> &a, const std::vector<std::size_t> &b,
                        const poplar::Type &inputType, const poplar::Type &outputType, const std::string &what) {
  if (a.size() != 3 || b.size() != 3)
    throw poplibs_error(what + ": the operands have shapes " + shapeStr(a) + " and " + shapeStr(b) +
                        "; a grouped product takes 3-D {G, m, k} and {G, k, n} tensors");
  if (a[0] != b[0])
    throw poplibs_error(what + ": the operands have " + std::to_string(a[0]) + " and " + std::to_string(b[0]) +
                        " groups; give both the same first dimension");
  if (a[2] != b[1])
    throw poplibs_error(what + ": the inner dimensions differ: A is " + shapeStr(a) + " and B is " + shapeStr(b) +
                        " (A's columns must equal B's rows; transpose an operand?)");
  checkType(inputType, what, "the input");
  if (outputType != poplar::FLOAT && outputType != inputType)
    throw poplibs_error(what + ": output type " + outputType.toString() + " for " + inputType.toString() +
                        " operands; the result is FLOAT or the operands' type");
  MatMulProblem p;
  p.groups = a[0], p.rows = a[1], p.inner = a[2], p.cols = b[2];
  p.inputType = inputType, p.outputType = outputType;
  return p;
}

Tensor createOperand(poplar::Graph &graph, const MatMulPlan &pl, const MatMulProblem &p, Operand which,
                     const std::string &name) {
  std::vector<std::size_t> shape;
  poplar::Type type = which == Operand::Out ? p.outputType : p.inputType;
  if (which == Operand::A)
    shape = {p.groups, p.rows, p.inner};
  else if (which == Operand::B)
    shape = {p.groups, p.inner, p.cols};
  else
    shape = {p.groups, p.rows, p.cols};
  Tensor t = graph.addVariable(type, shape, name);
  mapOperand(graph, t, pl, p, which);
  return t;
}

void mapOperand(poplar::Graph &graph, const Tensor &t, const MatMulPlan &pl, const MatMulProblem &p, Operand which) {
  for (unsigned g = 0; g < pl.gSplit; ++g)
    for (unsigned r = 0; r < pl.rSplit; ++r)
      for (unsigned c = 0; c < pl.cSplit; ++c)
        for (unsigned k = 0; k < pl.kSplit; ++k) {
          // Each block is spread over the tiles that use it: an A block over the column parts, a B block over the
          // row parts, a result block over the inner parts (whose partials it sums).
          const bool first = which == Operand::A ? c == 0 : which == Operand::B ? r == 0 : k == 0;
          if (!first)
            continue;
          Range gr = part(p.groups, pl.gBlock, g), rr = part(p.rows, pl.rBlock, r);
          Range cr = part(p.cols, pl.cBlock, c), kr = part(p.inner, pl.kBlock, k);
          std::vector<unsigned> tiles;
          Tensor block;
          if (which == Operand::A) {
            block = t.slice({gr.b, rr.b, kr.b}, {gr.e, rr.e, kr.e});
            for (unsigned i = 0; i < pl.cSplit; ++i)
              tiles.push_back(pl.tileOf(g, r, i, k));
          } else if (which == Operand::B) {
            block = t.slice({gr.b, kr.b, cr.b}, {gr.e, kr.e, cr.e});
            for (unsigned i = 0; i < pl.rSplit; ++i)
              tiles.push_back(pl.tileOf(g, i, c, k));
          } else {
            block = t.slice({gr.b, rr.b, cr.b}, {gr.e, rr.e, cr.e});
            for (unsigned i = 0; i < pl.kSplit; ++i)
              tiles.push_back(pl.tileOf(g, r, c, i));
          }
          spread(graph, block.flatten(), tiles);
        }
}

void buildMatMul(poplar::Graph &graph, const Tensor &A, const Tensor &B, const Tensor &C, const MatMulPlan &pl,
                 const MatMulProblem &p, poplar::program::Sequence &prog, const std::string &name) {
  if (C.numElements() == 0)
    return;
  if (p.inner == 0)
    throw poplibs_error(name + ": the inner dimension is 0; a product over no elements has no plan here");
  recordPlanInProfile(graph, name, pl);
  const bool split = pl.kSplit > 1;
  Tensor partials;
  if (split) {
    partials = graph.addVariable(pl.partialsType, {pl.kSplit, p.groups, p.rows, p.cols}, name + "/partials");
    for (unsigned k = 0; k < pl.kSplit; ++k) {
      // Each inner part's partials: block (g, r, c) on the tile of (g, r, c, k).
      for (unsigned g = 0; g < pl.gSplit; ++g)
        for (unsigned r = 0; r < pl.rSplit; ++r)
          for (unsigned c = 0; c < pl.cSplit; ++c) {
            Range gr = part(p.groups, pl.gBlock, g), rr = part(p.rows, pl.rBlock, r), cr = part(p.cols, pl.cBlock, c);
            graph.setTileMapping(partials[k].slice({gr.b, rr.b, cr.b}, {gr.e, rr.e, cr.e}), pl.tileOf(g, r, c, k));
          }
    }
  }
  poplar::ComputeSet cs = graph.addComputeSet(name + "/MatMul");
  const std::string vertex = vertexFor(p.inputType, split ? pl.partialsType : p.outputType);
  for (unsigned g = 0; g < pl.gSplit; ++g)
    for (unsigned r = 0; r < pl.rSplit; ++r)
      for (unsigned c = 0; c < pl.cSplit; ++c)
        for (unsigned k = 0; k < pl.kSplit; ++k) {
          Range gr = part(p.groups, pl.gBlock, g), rr = part(p.rows, pl.rBlock, r);
          Range cr = part(p.cols, pl.cBlock, c), kr = part(p.inner, pl.kBlock, k);
          if (gr.e == gr.b || rr.e == rr.b || cr.e == cr.b || kr.e == kr.b)
            continue;
          const unsigned tile = pl.tileOf(g, r, c, k);
          poplar::VertexRef v = graph.addVertex(cs, vertex);
          graph.setTileMapping(v, tile);
          graph.connect(v["a"], A.slice({gr.b, rr.b, kr.b}, {gr.e, rr.e, kr.e}).flatten());
          graph.connect(v["b"], B.slice({gr.b, kr.b, cr.b}, {gr.e, kr.e, cr.e}).flatten());
          const Tensor &dst = split ? partials[k] : C;
          graph.connect(v["c"], dst.slice({gr.b, rr.b, cr.b}, {gr.e, rr.e, cr.e}).flatten());
          graph.setInitialValue(v["rows"], unsigned(rr.e - rr.b));
          graph.setInitialValue(v["inner"], unsigned(kr.e - kr.b));
          graph.setInitialValue(v["cols"], unsigned(cr.e - cr.b));
        }
  prog.add(poplar::program::Execute(cs, name + "/MatMul"));
  if (!split)
    return;

  // The reduction: per result block, a list of partial tensors (the block's elements, flattened), each with the
  // range of inner parts whose tiles hold it; every stage sums groups of up to kMaxReduceFanIn of them.
  struct Partial {
    Tensor t;
    unsigned kb, ke;
  };
  std::vector<std::vector<Partial> > blocks;
  std::vector<Tensor> results;
  std::vector<std::vector<unsigned> > blockTiles; // tileOf(g, r, c, k) for each k
  for (unsigned g = 0; g < pl.gSplit; ++g)
    for (unsigned r = 0; r < pl.rSplit; ++r)
      for (unsigned c = 0; c < pl.cSplit; ++c) {
        Range gr = part(p.groups, pl.gBlock, g), rr = part(p.rows, pl.rBlock, r), cr = part(p.cols, pl.cBlock, c);
        if (gr.e == gr.b || rr.e == rr.b || cr.e == cr.b)
          continue;
        std::vector<Partial> ps;
        std::vector<unsigned> tiles;
        for (unsigned k = 0; k < pl.kSplit; ++k) {
          if (part(p.inner, pl.kBlock, k).e > part(p.inner, pl.kBlock, k).b)
            ps.push_back({partials[k].slice({gr.b, rr.b, cr.b}, {gr.e, rr.e, cr.e}).flatten(), k, k + 1});
          tiles.push_back(pl.tileOf(g, r, c, k));
        }
        blocks.push_back(ps);
        results.push_back(C.slice({gr.b, rr.b, cr.b}, {gr.e, rr.e, cr.e}).flatten());
        blockTiles.push_back(tiles);
      }
  // Half partials stay half between stages (each stage rounds its sums), float ones float.
  const std::string reduceVertex = reduceVertexFor(pl.partialsType, p.outputType);
  const std::string stageVertex = reduceVertexFor(pl.partialsType, pl.partialsType);
  for (unsigned stage = 1;; ++stage) {
    bool last = true;
    for (const auto &ps : blocks)
      last = last && ps.size() <= kMaxReduceFanIn;
    poplar::ComputeSet rcs = graph.addComputeSet(name + "/Reduce" + std::to_string(stage));
    for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
      std::vector<Partial> &ps = blocks[bi];
      std::vector<Partial> next;
      const std::size_t groupSize = last ? ps.size() : kMaxReduceFanIn;
      for (std::size_t first = 0; first < ps.size(); first += groupSize) {
        const std::size_t end = std::min(ps.size(), first + groupSize);
        const unsigned kb = ps[first].kb, ke = ps[end - 1].ke;
        Tensor out = results[bi];
        if (!last) {
          out = graph.addVariable(pl.partialsType, {out.numElements()}, name + "/partials" + std::to_string(stage));
          spread(graph, out, std::vector<unsigned>(blockTiles[bi].begin() + kb, blockTiles[bi].begin() + ke));
        }
        // One vertex per tile of the group, over that tile's share of the block; the last stage's shares follow
        // the result's mapping (createMatMulOutput spreads a block over all kSplit tiles).
        const unsigned shares = last ? pl.kSplit : ke - kb;
        const std::size_t len = out.numElements();
        for (unsigned s = 0; s < shares; ++s) {
          std::size_t b = len * s / shares, e = len * (s + 1) / shares;
          if (e == b)
            continue;
          std::vector<Tensor> ins;
          for (std::size_t i = first; i < end; ++i)
            ins.push_back(ps[i].t.slice(b, e));
          poplar::VertexRef v = graph.addVertex(rcs, last ? reduceVertex : stageVertex);
          graph.setTileMapping(v, blockTiles[bi][last ? s : kb + s]);
          graph.connect(v["in"], poplar::concat(ins));
          graph.connect(v["out"], out.slice(b, e));
        }
        next.push_back({out, kb, ke});
      }
      ps = next;
    }
    prog.add(poplar::program::Execute(rcs, name + "/Reduce" + std::to_string(stage)));
    if (last)
      break;
  }
}

} // namespace detail

namespace {

using detail::MatMulPlan;
using detail::MatMulProblem;
using detail::Operand;

std::string opName(const poplar::DebugContext &debugContext, const char *fn) {
  const std::string debugPrefix = debugContext.getPathName();
  return debugPrefix.empty() ? std::string("poplin::") + fn : debugPrefix + "/" + fn;
}

void checkRank(const Tensor &t, unsigned rank, const std::string &what, const char *operand) {
  if (!t.valid())
    throw poplibs_error(what + ": " + operand + " is an invalid (default-constructed) tensor");
  if (t.rank() != rank)
    throw poplibs_error(what + ": " + operand + " has shape " + t.shapeToString() + "; " +
                        (rank == 2 ? "matMul takes 2-D matrices (matMulGrouped takes 3-D {G, m, n})"
                                   : "matMulGrouped takes 3-D {G, m, n} tensors (matMul takes 2-D matrices)"));
}

// The grouped product into `out` (3-D views), planned through the cache.
void groupedInto(poplar::Graph &graph, const Tensor &A, const Tensor &B, const Tensor &out,
                 poplar::program::Sequence &prog, const poplar::OptionFlags &options,
                 matmul::PlanningCache *cache, const std::string &name) {
  if (A.elementType() != B.elementType())
    throw poplibs_error(name + ": A is " + A.elementType().toString() + " but B is " + B.elementType().toString() +
                        "; cast one operand (popops::cast) so that both have the same type");
  detail::MatMulOptions o = detail::parseMatMulOptions(options, name);
  MatMulProblem p = detail::problemOf(A.shape(), B.shape(), A.elementType(), out.elementType(), name);
  if (out.shape() != std::vector<std::size_t>{p.groups, p.rows, p.cols})
    throw poplibs_error(name + ": the output has shape " + out.shapeToString() + " but the product has {" +
                        std::to_string(p.groups) + ", " + std::to_string(p.rows) + ", " + std::to_string(p.cols) +
                        "}");
  if (!out.isParallelWriteable())
    throw poplibs_error(name + ": the output has aliased elements; write into a tensor whose elements are distinct");
  MatMulPlan pl = detail::getMatMulPlan(graph.getTarget(), p, o, cache, name);
  std::size_t mapped = 0;
  for (const auto &tile : graph.getTileMapping(out, false))
    for (const auto &iv : tile)
      mapped += iv.size();
  if (mapped == 0)
    detail::mapOperand(graph, out, pl, p, Operand::Out);
  detail::buildMatMul(graph, A, B, out, pl, p, prog, name);
}

Tensor groupedNew(poplar::Graph &graph, const Tensor &A, const Tensor &B, poplar::program::Sequence &prog,
                  const poplar::Type &outputType, const poplar::OptionFlags &options, matmul::PlanningCache *cache,
                  const std::string &name) {
  if (A.elementType() != B.elementType())
    throw poplibs_error(name + ": A is " + A.elementType().toString() + " but B is " + B.elementType().toString() +
                        "; cast one operand (popops::cast) so that both have the same type");
  detail::MatMulOptions o = detail::parseMatMulOptions(options, name);
  MatMulProblem p = detail::problemOf(A.shape(), B.shape(), A.elementType(), outputType, name);
  MatMulPlan pl = detail::getMatMulPlan(graph.getTarget(), p, o, cache, name);
  Tensor out = detail::createOperand(graph, pl, p, Operand::Out, name + "/out");
  detail::buildMatMul(graph, A, B, out, pl, p, prog, name);
  return out;
}

Tensor createGrouped(poplar::Graph &graph, const poplar::Type &inputType, const poplar::Type &outputType,
                     const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                     const std::string &name, const poplar::OptionFlags &options, matmul::PlanningCache *cache,
                     Operand which, const char *fn) {
  const std::string what = std::string("poplin::") + fn;
  detail::MatMulOptions o = detail::parseMatMulOptions(options, what);
  MatMulProblem p = detail::problemOf(aShape, bShape, inputType, outputType, what);
  MatMulPlan pl = detail::getMatMulPlan(graph.getTarget(), p, o, cache, what);
  return detail::createOperand(graph, pl, p, which, name);
}

std::vector<std::size_t> grouped(const std::vector<std::size_t> &s, const char *fn, const char *operand) {
  if (s.size() != 2)
    throw poplibs_error(std::string("poplin::") + fn + ": " + operand + " has " + std::to_string(s.size()) +
                        " dimensions; give a 2-D {rows, cols} shape (the Grouped functions take 3-D)");
  return {1, s[0], s[1]};
}

} // namespace

Tensor matMul(poplar::Graph &graph, const Tensor &A, const Tensor &B, poplar::program::Sequence &prog,
              const poplar::DebugContext &debugContext, const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "matMul");
  checkRank(A, 2, name, "A");
  checkRank(B, 2, name, "B");
  return matMul(graph, A, B, prog, A.elementType(), debugPrefix, options, cache);
}

Tensor matMul(poplar::Graph &graph, const Tensor &A, const Tensor &B, poplar::program::Sequence &prog,
              const poplar::Type &outputType, const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
              matmul::PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "matMul");
  checkRank(A, 2, name, "A");
  checkRank(B, 2, name, "B");
  return groupedNew(graph, A.expand({0}), B.expand({0}), prog, outputType, options, cache, name)[0];
}

void matMulWithOutput(poplar::Graph &graph, const Tensor &A, const Tensor &B, const Tensor &out,
                      poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "matMulWithOutput");
  checkRank(A, 2, name, "A");
  checkRank(B, 2, name, "B");
  checkRank(out, 2, name, "the output");
  groupedInto(graph, A.expand({0}), B.expand({0}), out.expand({0}), prog, options, cache, name);
}

Tensor matMulGrouped(poplar::Graph &graph, const Tensor &A, const Tensor &B, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                     matmul::PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "matMulGrouped");
  checkRank(A, 3, name, "A");
  return matMulGrouped(graph, A, B, prog, A.elementType(), debugPrefix, options, cache);
}

Tensor matMulGrouped(poplar::Graph &graph, const Tensor &A, const Tensor &B, poplar::program::Sequence &prog,
                     const poplar::Type &outputType, const poplar::DebugContext &debugContext,
                     const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "matMulGrouped");
  checkRank(A, 3, name, "A");
  checkRank(B, 3, name, "B");
  return groupedNew(graph, A, B, prog, outputType, options, cache, name);
}

void matMulGroupedWithOutput(poplar::Graph &graph, const Tensor &A, const Tensor &B, const Tensor &out,
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                             const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "matMulGroupedWithOutput");
  checkRank(A, 3, name, "A");
  checkRank(B, 3, name, "B");
  checkRank(out, 3, name, "the output");
  groupedInto(graph, A, B, out, prog, options, cache, name);
}

void matMulGroupedReportPlan(std::ostream &out, const poplar::Graph &graph, const poplar::Type &inputType,
                             const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                             const std::vector<std::size_t> &bShape, const poplar::OptionFlags &options,
                             matmul::PlanningCache *cache) {
  const std::string what = "poplin::matMulReportPlan";
  detail::MatMulOptions o = detail::parseMatMulOptions(options, what);
  MatMulProblem p = detail::problemOf(aShape, bShape, inputType, outputType, what);
  out << "matMul {" << p.groups << "} x {" << p.rows << " x " << p.inner << "} * {" << p.inner << " x " << p.cols
      << "} " << inputType.toString() << " -> " << outputType.toString() << ": "
      << detail::getMatMulPlan(graph.getTarget(), p, o, cache, what).toString() << "\n";
}

void matMulReportPlan(std::ostream &out, const poplar::Graph &graph, const poplar::Type &inputType,
                      const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                      const std::vector<std::size_t> &bShape, const poplar::OptionFlags &options,
                      matmul::PlanningCache *cache) {
  matMulGroupedReportPlan(out, graph, inputType, outputType, grouped(aShape, "matMulReportPlan", "aShape"),
                          grouped(bShape, "matMulReportPlan", "bShape"), options, cache);
}

void matMulReportPlan(std::ostream &out, const poplar::Graph &graph, const poplar::Type &dType,
                      const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                      const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  matMulReportPlan(out, graph, dType, dType, aShape, bShape, options, cache);
}

namespace {

// C += k * product: the product into a new tensor laid out like C's plan, then one scaled add.
template <typename Scale>
void accumulate(poplar::Graph &graph, const Tensor &C, const Scale &k, const Tensor &A, const Tensor &B,
                poplar::program::Sequence &prog, const poplar::OptionFlags &options, matmul::PlanningCache *cache,
                const std::string &name) {
  if (!C.valid())
    throw poplibs_error(name + ": C is an invalid (default-constructed) tensor");
  Tensor product = groupedNew(graph, A, B, prog, C.elementType(), options, cache, name);
  if (product.shape() != C.shape())
    throw poplibs_error(name + ": C has shape " + C.shapeToString() + " but the product has " +
                        product.shapeToString());
  popops::scaledAddTo(graph, C, product, k, prog, name + "/add");
}

} // namespace

void matMulAcc(poplar::Graph &graph, const Tensor &C, float k, const Tensor &A, const Tensor &B,
               poplar::program::Sequence &prog, const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
               matmul::PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "matMulAcc");
  checkRank(A, 2, name, "A");
  checkRank(B, 2, name, "B");
  checkRank(C, 2, name, "C");
  accumulate(graph, C.expand({0}), k, A.expand({0}), B.expand({0}), prog, options, cache, name);
}

void matMulAcc(poplar::Graph &graph, const Tensor &C, const Tensor &k, const Tensor &A, const Tensor &B,
               poplar::program::Sequence &prog, const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
               matmul::PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "matMulAcc");
  checkRank(A, 2, name, "A");
  checkRank(B, 2, name, "B");
  checkRank(C, 2, name, "C");
  accumulate(graph, C.expand({0}), k, A.expand({0}), B.expand({0}), prog, options, cache, name);
}

void matMulGroupedAcc(poplar::Graph &graph, const Tensor &C, float k, const Tensor &A, const Tensor &B,
                      poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "matMulGroupedAcc");
  checkRank(A, 3, name, "A");
  checkRank(B, 3, name, "B");
  checkRank(C, 3, name, "C");
  accumulate(graph, C, k, A, B, prog, options, cache, name);
}

void matMulGroupedAcc(poplar::Graph &graph, const Tensor &C, const Tensor &k, const Tensor &A, const Tensor &B,
                      poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = opName(debugPrefix, "matMulGroupedAcc");
  checkRank(A, 3, name, "A");
  checkRank(B, 3, name, "B");
  checkRank(C, 3, name, "C");
  accumulate(graph, C, k, A, B, prog, options, cache, name);
}

Tensor createMatMulInputLHS(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &aShape,
                            const std::vector<std::size_t> &bShape, const poplar::DebugContext &debugContext,
                            const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  const std::string name = debugContext.getPathName();
  return createMatMulInputLHS(graph, type, type, aShape, bShape, name, options, cache);
}

Tensor createMatMulInputLHS(poplar::Graph &graph, const poplar::Type &inputType, const poplar::Type &outputType,
                            const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                            const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                            matmul::PlanningCache *cache) {
  const std::string name = debugContext.getPathName();
  return createGrouped(graph, inputType, outputType, grouped(aShape, "createMatMulInputLHS", "aShape"),
                       grouped(bShape, "createMatMulInputLHS", "bShape"), name, options, cache, Operand::A,
                       "createMatMulInputLHS")[0];
}

Tensor createMatMulInputRHS(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &aShape,
                            const std::vector<std::size_t> &bShape, const poplar::DebugContext &debugContext,
                            const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  const std::string name = debugContext.getPathName();
  return createMatMulInputRHS(graph, type, type, aShape, bShape, name, options, cache);
}

Tensor createMatMulInputRHS(poplar::Graph &graph, const poplar::Type &inputType, const poplar::Type &outputType,
                            const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                            const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                            matmul::PlanningCache *cache) {
  const std::string name = debugContext.getPathName();
  return createGrouped(graph, inputType, outputType, grouped(aShape, "createMatMulInputRHS", "aShape"),
                       grouped(bShape, "createMatMulInputRHS", "bShape"), name, options, cache, Operand::B,
                       "createMatMulInputRHS")[0];
}

Tensor createMatMulOutput(poplar::Graph &graph, const poplar::Type &inputType, const poplar::Type &outputType,
                          const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                          const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                          matmul::PlanningCache *cache) {
  const std::string name = debugContext.getPathName();
  return createGrouped(graph, inputType, outputType, grouped(aShape, "createMatMulOutput", "aShape"),
                       grouped(bShape, "createMatMulOutput", "bShape"), name, options, cache, Operand::Out,
                       "createMatMulOutput")[0];
}

Tensor createMatMulOutput(poplar::Graph &graph, const poplar::Type &dataType, const std::vector<std::size_t> &aShape,
                          const std::vector<std::size_t> &bShape, const poplar::DebugContext &debugContext,
                          const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  return createMatMulOutput(graph, dataType, dataType, aShape, bShape, debugContext, options, cache);
}

namespace {
// B copied into the layout createGrouped gives the right operand of groupedAShape x B's grouped shape.
Tensor preArranged(poplar::Graph &graph, const std::vector<std::size_t> &groupedAShape, const Tensor &groupedB,
                   poplar::program::Sequence &prog, const poplar::Type &outputType, const std::string &name,
                   const poplar::OptionFlags &options, matmul::PlanningCache *cache, const char *fn) {
  if (!groupedB.valid() || groupedB.rank() != 3 || groupedAShape.size() != 3 || groupedB.dim(0) != groupedAShape[0] ||
      groupedB.dim(1) != groupedAShape[2])
    throw poputil::poplibs_error(std::string("poplin::") + fn + ": B has shape " +
                                 (groupedB.valid() ? groupedB.shapeToString() : std::string("(none)")) +
                                 "; it must be {[groups,] k, n} with the groups and k of aShape");
  Tensor out = createGrouped(graph, groupedB.elementType(), outputType, groupedAShape, groupedB.shape(), name, options,
                             cache, Operand::B, fn);
  prog.add(poplar::program::Copy(groupedB, out, false, {name + "/preArrange"}));
  return out;
}
} // namespace

Tensor preArrangeMatMulInputRHS(poplar::Graph &graph, const std::vector<std::size_t> &aShape, const Tensor &B,
                                poplar::program::Sequence &prog, const poplar::Type &outputType,
                                const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                                matmul::PlanningCache *cache) {
  const char *fn = "preArrangeMatMulInputRHS";
  if (!B.valid() || B.rank() != 2)
    throw poputil::poplibs_error(std::string("poplin::") + fn + ": B must be a 2-D tensor {k, n}");
  return preArranged(graph, grouped(aShape, fn, "aShape"), B.expand({0}), prog, outputType,
                     debugContext.getPathName(), options, cache, fn)[0];
}

Tensor preArrangeMatMulInputRHS(poplar::Graph &graph, const std::vector<std::size_t> &aShape, const Tensor &B,
                                poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                                const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  if (!B.valid())
    throw poputil::poplibs_error("poplin::preArrangeMatMulInputRHS: B is not a tensor");
  return preArrangeMatMulInputRHS(graph, aShape, B, prog, B.elementType(), debugContext, options, cache);
}

Tensor preArrangeMatMulGroupedInputRHS(poplar::Graph &graph, const std::vector<std::size_t> &aShape, const Tensor &B,
                                       poplar::program::Sequence &prog, const poplar::Type &outputType,
                                       const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                                       matmul::PlanningCache *cache) {
  return preArranged(graph, aShape, B, prog, outputType, debugContext.getPathName(), options, cache,
                     "preArrangeMatMulGroupedInputRHS");
}

Tensor createMatMulGroupedInputLHS(poplar::Graph &graph, const poplar::Type &type,
                                   const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                                   const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                                   matmul::PlanningCache *cache) {
  const std::string name = debugContext.getPathName();
  return createGrouped(graph, type, type, aShape, bShape, name, options, cache, Operand::A,
                       "createMatMulGroupedInputLHS");
}

Tensor createMatMulGroupedInputRHS(poplar::Graph &graph, const poplar::Type &type,
                                   const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                                   const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                                   matmul::PlanningCache *cache) {
  const std::string name = debugContext.getPathName();
  return createGrouped(graph, type, type, aShape, bShape, name, options, cache, Operand::B,
                       "createMatMulGroupedInputRHS");
}

Tensor createMatMulGroupedInputLHS(poplar::Graph &graph, const poplar::Type &inputType, const poplar::Type &outputType,
                                   const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                                   const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                                   matmul::PlanningCache *cache) {
  const std::string name = debugContext.getPathName();
  return createGrouped(graph, inputType, outputType, aShape, bShape, name, options, cache, Operand::A,
                       "createMatMulGroupedInputLHS");
}

Tensor createMatMulGroupedInputRHS(poplar::Graph &graph, const poplar::Type &inputType, const poplar::Type &outputType,
                                   const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                                   const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                                   matmul::PlanningCache *cache) {
  const std::string name = debugContext.getPathName();
  return createGrouped(graph, inputType, outputType, aShape, bShape, name, options, cache, Operand::B,
                       "createMatMulGroupedInputRHS");
}

void matmulValidateOptions(const poplar::OptionFlags &options) {
  detail::parseMatMulOptions(options, "poplin::matmulValidateOptions");
}

Tensor createMatMulGroupedOutput(poplar::Graph &graph, const poplar::Type &inputType, const poplar::Type &outputType,
                                 const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                                 const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                                 matmul::PlanningCache *cache) {
  const std::string name = debugContext.getPathName();
  return createGrouped(graph, inputType, outputType, aShape, bShape, name, options, cache, Operand::Out,
                       "createMatMulGroupedOutput");
}

Tensor transposeGroupedMatrix(const Tensor &A) {
  if (!A.valid() || A.rank() != 3)
    throw poplibs_error("poplin::transposeGroupedMatrix: A has shape " + (A.valid() ? A.shapeToString() : "none") +
                        "; give a 3-D {G, m, n} tensor");
  return A.dimShuffle({0, 2, 1});
}

} // namespace poplin
