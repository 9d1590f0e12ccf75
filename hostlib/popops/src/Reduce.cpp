// popops::reduce: the input is viewed as [outputs, reduced elements] (kept dimensions first). Stage 1 reduces, on
// every tile that holds input, each output row's local elements to one partial (written straight to the output
// when a row lives on one tile only; a row with many elements on a tile of few rows is cut into one piece per
// worker); the last stage reduces each row's partials on the tile of its output element. A
// scale, an update or a change of type is one more map over the outputs. An output with more than 32 partials gets
// intermediate stages (groups of 32 reduced where their first partial lives) so that no tile gathers them all.
#include "popops/Reduce.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "broadcast.hpp"
#include "log.hpp"
#include "map_internal.hpp"
#include "op_name.hpp"
#include "poplibs_support.hpp"
#include "popops/ElementWise.hpp"
#include "popops/Fill.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"
#include "vertex_names.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;
namespace plog = poputil::detail;

namespace {

bool isFloating(const poplar::Type &t) { return t == poplar::FLOAT || t == poplar::HALF; }

// The vertex of one stage that reads `in` and writes `out` (the same type, or HALF/FLOAT to the other):
// popops::Reduce<In, Out> (codelets/popops_codelets.cpp instantiates exactly these pairs).
std::string vertexFor(const poplar::Type &in, const poplar::Type &out, const std::string &name) {
  if (isFloating(in)) // a half result, else float (the partials of a half reduction, or a FLOAT result)
    return poputil::detail::templateVertex("popops::Reduce", {in, out == poplar::HALF ? poplar::HALF : poplar::FLOAT});
  if (in == poplar::INT || in == poplar::UNSIGNED_INT || in == poplar::BOOL)
    return poputil::detail::templateVertex("popops::Reduce", {in, in});
  throw poplibs_error(name + ": element type " + in.toString() +
                      " is not supported by popops' reduce here (FLOAT, HALF, INT, UNSIGNED_INT and BOOL are)");
}

// The type of partial results between stages: FLOAT for HALF input (the precision of the sum), else the input's.
poplar::Type partialType(const poplar::Type &in) { return in == poplar::HALF ? poplar::FLOAT : in; }

// Compute set `k` of a reduction's list, added when the list is shorter.
poplar::ComputeSet stageSet(poplar::Graph &graph, std::vector<poplar::ComputeSet> &css, std::size_t k,
                            const std::string &name) {
  while (css.size() <= k)
    css.push_back(graph.addComputeSet(name + "/stage" + std::to_string(css.size() + 1)));
  return css[k];
}

// The lowest (highest when `highest`) value of the integral type `t`, in its own range: an empty MAX/MIN of SHORT,
// CHAR and the rest gives that type's extreme, not INT's cut to its width. BOOL's are false and true.
long long integralExtreme(const poplar::Type &t, bool highest) {
  auto pick = [highest](auto type) {
    using L = std::numeric_limits<decltype(type)>;
    return highest ? static_cast<long long>(L::max()) : static_cast<long long>(L::lowest());
  };
  if (t == poplar::INT)
    return pick(int());
  if (t == poplar::UNSIGNED_INT)
    return pick(unsigned());
  if (t == poplar::SHORT)
    return pick(short());
  if (t == poplar::UNSIGNED_SHORT)
    return pick((unsigned short)0);
  if (t == poplar::CHAR) // char is signed on the hosts and tiles we build for
    return pick(char());
  if (t == poplar::SIGNED_CHAR)
    return pick((signed char)0);
  if (t == poplar::UNSIGNED_CHAR)
    return pick((unsigned char)0);
  return highest ? 1 : 0; // BOOL
}

// The value a reduction over no elements gives (Graphcore's reduce fills the output with it) for an integral
// type: 0 for ADD, SQUARE_ADD and LOGICAL_OR, 1 for MUL and LOGICAL_AND, the type's lowest for MAX, its highest
// for MIN.
long long integralIdentity(Operation op, const poplar::Type &t) {
  switch (op) {
  case Operation::MUL:
  case Operation::LOGICAL_AND: return 1;
  case Operation::MAX: return integralExtreme(t, false);
  case Operation::MIN: return integralExtreme(t, true);
  default: return 0;
  }
}

// Fills flat `target` (numOut elements on their tiles) with the identity of `op` in one compute set: FLOAT and
// HALF get -inf for MAX (and LOG_ADD's log 0) and +inf for MIN; the 1- and 2-byte integers are written as bits by
// their own fill vertex, the rest through map.
void fillIdentity(poplar::Graph &graph, const Tensor &target, Operation op, poplar::ComputeSet cs,
                  const std::string &name) {
  const poplar::Type t = target.elementType();
  const poplar::TileToTensorMapping mapping = graph.getTileMapping(target);
  if (t.getSize() < 4 && t != poplar::HALF && t != poplar::BOOL) {
    detail::fillNarrowRegions(graph, target, mapping, cs, unsigned(integralIdentity(op, t)), name + "/identity");
    return;
  }
  const float inf = std::numeric_limits<float>::infinity();
  expr::Const value(0u);
  if (isFloating(t))
    value = op == Operation::MAX || op == Operation::LOG_ADD ? expr::Const(-inf)
            : op == Operation::MIN                           ? expr::Const(inf)
                                                             : expr::Const(float(integralIdentity(op, t)));
  else if (t == poplar::INT)
    value = expr::Const(int(integralIdentity(op, t)));
  else
    value = expr::Const(unsigned(integralIdentity(op, t)));
  detail::mapRegionsIntoComputeSet(graph, expr::Cast(value, t), target, mapping, cs, name + "/identity");
}

// One vertex's work: for each of its outputs, the runs reduced into it.
struct ReduceJob {
  std::vector<std::vector<Tensor> > runs; // per output
  std::vector<Tensor> outs;               // one element each
};

void addReduceVertices(poplar::Graph &graph, poplar::ComputeSet cs, unsigned tile, const std::vector<ReduceJob> &jobs,
                       const std::string &vertex, unsigned op, const std::string &name) {
  for (const ReduceJob &job : jobs) {
    if (job.outs.empty())
      continue;
    poplar::VertexRef v = graph.addVertex(cs, vertex);
    graph.setTileMapping(v, tile);
    std::vector<unsigned> counts;
    std::size_t numRuns = 0;
    for (const auto &r : job.runs) {
      counts.push_back(unsigned(r.size()));
      numRuns += r.size();
    }
    Tensor c = graph.addConstant(poplar::UNSIGNED_INT, {counts.size()}, counts, name + "/counts");
    graph.setTileMapping(c, tile);
    graph.connect(v["counts"], c);
    graph.setFieldSize(v["in"], numRuns);
    std::size_t item = 0;
    for (const auto &r : job.runs)
      for (const Tensor &t : r)
        graph.connect(v["in"][item++], t);
    graph.connect(v["out"], poplar::concat(job.outs));
    graph.setInitialValue(v["op"], op);
  }
}

// Splits `rows` (with their element counts) into at most `workers` consecutive groups of similar size.
std::vector<std::vector<std::size_t> > groupRows(const std::vector<std::size_t> &rows,
                                                 const std::vector<std::size_t> &sizes, unsigned workers) {
  std::size_t total = 0;
  for (std::size_t s : sizes)
    total += s;
  std::size_t per = std::max<std::size_t>(1, (total + workers - 1) / std::max(1u, workers));
  std::vector<std::vector<std::size_t> > groups(1);
  std::size_t filled = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (filled >= per && groups.size() < workers) {
      groups.emplace_back();
      filled = 0;
    }
    groups.back().push_back(rows[i]);
    filled += sizes[i];
  }
  return groups;
}

// The input seen as [numOut, R] rows: the permutation that puts the kept dimensions first, and the two sizes.
struct Rows {
  std::vector<unsigned> perm;
  std::size_t numOut = 1, R = 1;
};
Rows rowsOf(const Tensor &in, const std::vector<std::size_t> &dims) {
  Rows r;
  for (unsigned d = 0; d < in.rank(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) {
      r.perm.push_back(d);
      r.numOut *= in.dim(d);
    }
  for (std::size_t d : dims) {
    r.perm.push_back(unsigned(d));
    r.R *= in.dim(unsigned(d));
  }
  return r;
}

// Reduces `in` over `dims` into the flat `target` (numOut elements of in's type, or of the other of HALF/FLOAT)
// with `op`, adding stage k's vertices to css[k]. Returns the number of stages.
std::size_t reduceInto(poplar::Graph &graph, const Tensor &in, const std::vector<std::size_t> &dims, Operation op,
                       const Tensor &target, std::vector<poplar::ComputeSet> &css, const std::string &name) {
  const auto [perm, numOut, R] = rowsOf(in, dims);
  if (numOut == 0)
    return 0;
  if (R == 0) { // nothing to reduce: every output is the operation's identity, written by one compute set
    fillIdentity(graph, target, op, stageSet(graph, css, 0, name), name);
    return 1;
  }
  const poplar::Type pt = partialType(in.elementType());
  const Tensor V = in.dimShuffle(perm).reshape({numOut * R});
  const poplar::TileToTensorMapping inMap = graph.getTileMapping(V, false);
  // Per tile, the runs of each row it holds.
  std::vector<std::map<std::size_t, std::vector<Tensor> > > local(inMap.size());
  std::vector<std::size_t> mapped(numOut, 0);
  for (unsigned tile = 0; tile < inMap.size(); ++tile)
    for (const auto &iv : inMap[tile])
      for (std::size_t b = iv.begin(); b < iv.end();) {
        std::size_t row = b / R, e = std::min<std::size_t>(iv.end(), (row + 1) * R);
        local[tile][row].push_back(V.slice(b, e));
        mapped[row] += e - b;
        b = e;
      }
  for (std::size_t row = 0; row < numOut; ++row)
    if (mapped[row] != R)
      throw poplibs_error(name + ": the input has unmapped elements; map it before reducing");
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  // Each tile's work as pieces (row, runs): a row with many elements on a tile of few rows is cut into up to one
  // piece per worker, each with its own partial, so that every worker has a share.
  const std::size_t kMinPerPiece = 64;
  std::vector<std::vector<std::pair<std::size_t, std::vector<Tensor> > > > pieces(local.size());
  std::vector<std::size_t> piecesPerRow(numOut, 0);
  for (unsigned tile = 0; tile < local.size(); ++tile)
    for (const auto &[row, runs] : local[tile]) {
      std::size_t n = 0;
      for (const Tensor &t : runs)
        n += t.numElements();
      std::size_t k = std::min<std::size_t>({std::max<std::size_t>(1, workers / local[tile].size()),
                                             std::max<std::size_t>(1, n / kMinPerPiece), workers});
      std::size_t per = (n + k - 1) / k, room = 0;
      for (const Tensor &t : runs)
        for (std::size_t b = 0; b < t.numElements();) {
          if (room == 0) {
            pieces[tile].emplace_back(row, std::vector<Tensor>());
            ++piecesPerRow[row];
            room = per;
          }
          std::size_t e = std::min(t.numElements(), b + room);
          pieces[tile].back().second.push_back(t.slice(b, e));
          room -= e - b;
          b = e;
        }
    }
  const bool oneStage = std::all_of(piecesPerRow.begin(), piecesPerRow.end(), [](std::size_t n) { return n == 1; });
  poplar::ComputeSet cs1 = stageSet(graph, css, 0, name);
  const std::string vertex1 = vertexFor(in.elementType(), oneStage ? target.elementType() : pt, name),
                    vertexP = vertexFor(pt, pt, name), vertexLast = vertexFor(pt, target.elementType(), name);
  // Stage 1. partialOf[row] lists the partial elements for the later stages.
  std::vector<std::vector<Tensor> > partialOf(numOut);
  std::vector<std::vector<unsigned> > partialTile(numOut);
  std::size_t vertices = 0;
  for (unsigned tile = 0; tile < pieces.size(); ++tile) {
    if (pieces[tile].empty())
      continue;
    std::vector<std::size_t> idx, sizes;
    for (std::size_t i = 0; i < pieces[tile].size(); ++i) {
      idx.push_back(i);
      std::size_t n = 0;
      for (const Tensor &t : pieces[tile][i].second)
        n += t.numElements();
      sizes.push_back(n);
    }
    Tensor partials;
    if (!oneStage) {
      partials = graph.addVariable(pt, {idx.size()}, name + "/partials");
      graph.setTileMapping(partials, tile);
    }
    std::vector<ReduceJob> jobs;
    for (const auto &group : groupRows(idx, sizes, workers)) {
      ReduceJob job;
      for (std::size_t i : group) {
        std::size_t row = pieces[tile][i].first;
        job.runs.push_back(pieces[tile][i].second);
        Tensor o = oneStage ? target.slice(row, row + 1) : partials.slice(i, i + 1);
        job.outs.push_back(o);
        if (!oneStage) {
          partialOf[row].push_back(o);
          partialTile[row].push_back(tile);
        }
      }
      jobs.push_back(job);
    }
    vertices += jobs.size();
    addReduceVertices(graph, cs1, tile, jobs, vertex1, unsigned(op), name);
  }
  std::size_t stages = 1;
  Operation op2 = op == Operation::SQUARE_ADD ? Operation::ADD : op;
  // Intermediate stages while an output has more than kFanIn partials: groups of kFanIn partials are reduced on the
  // tile of the group's first partial, so no tile receives more than kFanIn partials of one output at once.
  const std::size_t kFanIn = 32;
  while (!oneStage && std::any_of(partialOf.begin(), partialOf.end(),
                                  [&](const std::vector<Tensor> &p) { return p.size() > kFanIn; })) {
    ++stages;
    std::map<unsigned, std::vector<std::pair<std::size_t, std::vector<Tensor> > > > byTile; // tile -> (row, group)
    std::vector<std::vector<Tensor> > nextOf(numOut);
    std::vector<std::vector<unsigned> > nextTile(numOut);
    for (std::size_t row = 0; row < numOut; ++row) {
      if (partialOf[row].size() <= kFanIn) {
        nextOf[row] = partialOf[row];
        nextTile[row] = partialTile[row];
        continue;
      }
      for (std::size_t g = 0; g < partialOf[row].size(); g += kFanIn) {
        std::size_t e = std::min(partialOf[row].size(), g + kFanIn);
        byTile[partialTile[row][g]].emplace_back(
            row, std::vector<Tensor>(partialOf[row].begin() + g, partialOf[row].begin() + e));
      }
    }
    poplar::ComputeSet csi = stageSet(graph, css, stages - 1, name);
    for (auto &[tile, groups] : byTile) {
      Tensor partials = graph.addVariable(pt, {groups.size()}, name + "/partials");
      graph.setTileMapping(partials, tile);
      std::vector<std::size_t> idx, sizes;
      for (std::size_t i = 0; i < groups.size(); ++i) {
        idx.push_back(i);
        sizes.push_back(groups[i].second.size());
      }
      std::vector<ReduceJob> jobs;
      for (const auto &part : groupRows(idx, sizes, workers)) {
        ReduceJob job;
        for (std::size_t i : part) {
          Tensor o = partials.slice(i, i + 1);
          job.runs.push_back(groups[i].second);
          job.outs.push_back(o);
          nextOf[groups[i].first].push_back(o);
          nextTile[groups[i].first].push_back(tile);
        }
        jobs.push_back(job);
      }
      vertices += jobs.size();
      addReduceVertices(graph, csi, tile, jobs, vertexP, unsigned(op2), name);
    }
    partialOf.swap(nextOf);
    partialTile.swap(nextTile);
  }
  if (!oneStage) {
    // The last stage on the tile of each output element.
    ++stages;
    const poplar::TileToTensorMapping outMap = graph.getTileMapping(target);
    poplar::ComputeSet cs2 = stageSet(graph, css, stages - 1, name);
    for (unsigned tile = 0; tile < outMap.size(); ++tile) {
      std::vector<std::size_t> rows, sizes;
      for (const auto &iv : outMap[tile])
        for (std::size_t row = iv.begin(); row < iv.end(); ++row) {
          rows.push_back(row);
          sizes.push_back(partialOf[row].size());
        }
      if (rows.empty())
        continue;
      std::vector<ReduceJob> jobs;
      for (const auto &group : groupRows(rows, sizes, workers)) {
        ReduceJob job;
        for (std::size_t row : group) {
          job.runs.push_back(partialOf[row]);
          job.outs.push_back(target.slice(row, row + 1));
        }
        jobs.push_back(job);
      }
      vertices += jobs.size();
      addReduceVertices(graph, cs2, tile, jobs, vertexLast, unsigned(op2), name);
    }
  }
  if (plog::logEnabled(plog::LogLevel::Debug))
    plog::log(plog::LogLevel::Debug, name + ": " + std::to_string(numOut) + " outputs of " + std::to_string(R) +
                                         " elements, " + std::to_string(stages) + " stages, " +
                                         std::to_string(vertices) + " vertices");
  return stages;
}

void checkArgs(const Tensor &in, const std::vector<std::size_t> &dims, const ReduceParams &params,
               const std::string &name) {
  if (!in.valid())
    throw poplibs_error(name + ": the input is an invalid (default-constructed) tensor");
  std::set<std::size_t> seen;
  for (std::size_t d : dims) {
    if (d >= in.rank())
      throw poplibs_error(name + ": dimension " + std::to_string(d) + " is out of range for an input of shape " +
                          detail::shapeString(in.shape()) + "; pass dimensions 0 .. " +
                          std::to_string(in.rank() == 0 ? 0 : in.rank() - 1));
    if (!seen.insert(d).second)
      throw poplibs_error(name + ": dimension " + std::to_string(d) + " is listed twice; list each dimension once");
  }
  if ((params.op == Operation::LOGICAL_AND || params.op == Operation::LOGICAL_OR) &&
      in.elementType() != poplar::BOOL)
    throw poplibs_error(name + ": LOGICAL_AND and LOGICAL_OR reduce BOOL tensors, not " +
                        in.elementType().toString() + "; compare or cast the input first");
  if (params.op == Operation::LOG_ADD && !isFloating(in.elementType()))
    throw poplibs_error(name + ": LOG_ADD reduces FLOAT or HALF log-probabilities, not " +
                        in.elementType().toString() + "; cast the input first");
  if (params.useScale && (!params.scale.valid() || params.scale.numElements() != 1))
    throw poplibs_error(name + ": the scale must be a one-element tensor");
}

std::vector<std::size_t> keptShape(const Tensor &in, const std::vector<std::size_t> &dims) {
  std::vector<std::size_t> shape;
  for (unsigned d = 0; d < in.rank(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end())
      shape.push_back(in.dim(d));
  return shape;
}

// Reduces `in` into `out` (checked), adding the stages to css and the scale/update/cast map after them.
void reduceToOutput(poplar::Graph &graph, const Tensor &in, const Tensor &out, const std::vector<std::size_t> &dims,
                    const ReduceParams &params, std::vector<poplar::ComputeSet> &css, const std::string &name) {
  const Tensor outFlat = out.flatten();
  const poplar::Type inT = in.elementType(), t = out.elementType();
  const bool convertible = t == inT || (isFloating(t) && isFloating(inT));
  if (params.op == Operation::LOG_ADD && !isFloating(t))
    throw poplibs_error(name + ": LOG_ADD writes FLOAT or HALF outputs, not " + t.toString() +
                        "; pass a FLOAT or HALF output");
  if (!params.useScale && !params.update && convertible) {
    reduceInto(graph, in, dims, params.op, outFlat, css, name);
    return;
  }
  Tensor tmp = graph.addVariable(partialType(inT), {outFlat.numElements()}, name + "/result");
  graph.setTileMapping(tmp, graph.getTileMapping(outFlat));
  std::size_t stages = reduceInto(graph, in, dims, params.op, tmp, css, name);
  poplar::ComputeSet cs = stageSet(graph, css, stages, name);
  using namespace expr;
  // HALF results are computed in float and rounded once.
  const poplar::Type ct = t == poplar::HALF ? poplar::FLOAT : t;
  if (params.op == Operation::LOG_ADD) {
    // Log-probabilities: a scale multiplies the probabilities (adds to the logs), an update log-adds the old value.
    // Operands: _1 the reduction, then the scale when there is one, then the old output for an update.
    std::vector<Tensor> ops = {tmp};
    std::unique_ptr<Expr> e = Cast(_1, poplar::FLOAT).clone();
    if (params.useScale) {
      ops.push_back(params.scale.flatten());
      e = (*e + Cast(_2, poplar::FLOAT)).clone();
    }
    if (params.update) {
      ops.push_back(outFlat);
      const Cast old(PlaceHolder(unsigned(ops.size())), poplar::FLOAT);
      // log(exp(a) + exp(b)) = hi + log1p(exp(lo - hi)), exactly hi when lo is log(0) = -inf.
      const Max hi(old, *e);
      const Min lo(old, *e);
      e = Select(hi + Log1p(Exp(lo - hi)), hi, lo == Const(-std::numeric_limits<float>::infinity())).clone();
    }
    detail::mapIntoComputeSet(graph, Cast(*e, t), ops, outFlat, cs, name + "/logAdd");
    return;
  }
  if (params.useScale) {
    const poplar::Type st = params.scale.elementType() == poplar::FLOAT ? poplar::FLOAT : ct;
    Tensor scale = params.scale.flatten();
    if (params.update)
      detail::mapIntoComputeSet(graph, Cast(Cast(_1, st) + Cast(_2, st) * Cast(_3, st), t), {outFlat, tmp, scale},
                                outFlat, cs, name + "/scaleUpdate");
    else
      detail::mapIntoComputeSet(graph, Cast(Cast(_1, st) * Cast(_2, st), t), {tmp, scale}, outFlat, cs,
                                name + "/scale");
  } else if (params.update) {
    detail::mapIntoComputeSet(graph, Cast(Cast(_1, ct) + Cast(_2, ct), t), {outFlat, tmp}, outFlat, cs,
                              name + "/update");
  } else {
    detail::mapIntoComputeSet(graph, Cast(_1, t), {tmp}, outFlat, cs, name + "/cast");
  }
}

void addExecutes(poplar::program::Sequence &prog, const std::vector<poplar::ComputeSet> &css,
                 const std::string &name) {
  for (const poplar::ComputeSet &cs : css)
    prog.add(poplar::program::Execute(cs, name));
}

void checkOutput(const Tensor &in, const Tensor &out, const std::vector<std::size_t> &dims,
                 const std::string &name) {
  if (!out.valid())
    throw poplibs_error(name + ": the output is an invalid (default-constructed) tensor");
  std::vector<std::size_t> kept = keptShape(in, dims);
  std::size_t n = 1;
  for (std::size_t d : kept)
    n *= d;
  if (out.numElements() != n)
    throw poplibs_error(name + ": the output has shape " + detail::shapeString(out.shape()) + " but reducing " +
                        detail::shapeString(in.shape()) + " leaves " + detail::shapeString(kept) +
                        "; pass an output of that shape");
}

// The mapping of reduce()'s output that puts each output element on the tile of its row's first input element;
// empty when the output type is narrower than 4 bytes (one such element alone on a tile would be written by
// sub-word stores), the reduction is empty or an input row starts unmapped.
poplar::TileToTensorMapping followingInput(const poplar::Graph &graph, const Tensor &in,
                                           const std::vector<std::size_t> &dims, const poplar::Type &outType) {
  const auto [perm, numOut, R] = rowsOf(in, dims);
  if (outType.getSize() < 4 || numOut == 0 || R == 0)
    return {};
  poplar::TileToTensorMapping m =
      graph.getTileMapping(in.dimShuffle(perm).reshape({numOut, R}).slice(0, 1, 1), false);
  std::size_t mapped = 0;
  for (const auto &tile : m)
    for (const auto &iv : tile)
      mapped += iv.size();
  return mapped == numOut ? m : poplar::TileToTensorMapping();
}

// The output of reduce(): a new variable.
Tensor newOutput(poplar::Graph &graph, const Tensor &in, const poplar::Type &outType,
                 const std::vector<std::size_t> &dims, const ReduceParams &params, const std::string &name) {
  checkArgs(in, dims, params, name);
  if (params.update)
    throw poplibs_error(name + ": update needs an output to update; use reduceWithOutput");
  Tensor out = graph.addVariable(outType, keptShape(in, dims), name + "/out");
  const poplar::TileToTensorMapping linear = poputil::calcLinearTileMapping(graph, out);
  const poplar::TileToTensorMapping follow = followingInput(graph, in, dims, outType);
  // As Graphcore's: each output where its row's input starts (its last stage then runs there), unless that uses
  // fewer tiles than a linear mapping or would leave sub-word elements alone on tiles (HALF, CHAR, ...).
  graph.setTileMapping(out, !follow.empty() && poputil::getNumTilesUsed(follow) >= poputil::getNumTilesUsed(linear)
                                ? follow
                                : linear);
  return out;
}

// Maps whatever of `out` is unmapped (the reference maps an incompletely mapped output).
void mapIfUnmapped(poplar::Graph &graph, const Tensor &out) {
  std::size_t mapped = 0;
  for (const auto &tile : graph.getTileMapping(out, false))
    for (const auto &iv : tile)
      mapped += iv.size();
  if (mapped != out.numElements())
    poputil::mapTensorLinearly(graph, out);
}

// A reduction that only drops dimensions of size 1 into an output of the input's type, unscaled and not updating,
// is a copy: the program forms add a Copy and no compute set (as Graphcore's do). SQUARE_ADD still squares.
bool isCopy(const Tensor &in, const poplar::Type &outType, const std::vector<std::size_t> &dims,
            const ReduceParams &params) {
  std::size_t r = 1;
  for (std::size_t d : dims)
    r *= in.dim(unsigned(d));
  return r == 1 && in.numElements() != 0 && outType == in.elementType() && !params.useScale && !params.update &&
         params.op != Operation::SQUARE_ADD;
}

// The one reduction builder every public form ends in, after its arguments are checked and `out` exists and is
// mapped: a Copy added to `copyProg` when the reduction is a copy and the caller has a program (the compute-set
// forms pass none, so they always get stages), else the stages added to css.
void buildReduction(poplar::Graph &graph, const Tensor &in, const Tensor &out, const std::vector<std::size_t> &dims,
                    const ReduceParams &params, std::vector<poplar::ComputeSet> &css,
                    poplar::program::Sequence *copyProg, const std::string &name) {
  if (copyProg && isCopy(in, out.elementType(), dims, params))
    copyProg->add(poplar::program::Copy(in.reshape(out.shape()), out, false, name));
  else
    reduceToOutput(graph, in, out, dims, params, css, name);
}

// reduce(): a new output of `outType`, then the reduction.
Tensor reduceNew(poplar::Graph &graph, const Tensor &in, const poplar::Type &outType,
                 const std::vector<std::size_t> &dims, const ReduceParams &params,
                 std::vector<poplar::ComputeSet> &css, poplar::program::Sequence *copyProg, const std::string &name) {
  Tensor out = newOutput(graph, in, outType, dims, params, name);
  buildReduction(graph, in, out, dims, params, css, copyProg, name);
  return out;
}

// reduceWithOutput(): `out` checked and mapped where it is not, then the reduction.
void reduceExisting(poplar::Graph &graph, const Tensor &in, const Tensor &out, const std::vector<std::size_t> &dims,
                    const ReduceParams &params, std::vector<poplar::ComputeSet> &css,
                    poplar::program::Sequence *copyProg, const std::string &name) {
  checkArgs(in, dims, params, name);
  checkOutput(in, out, dims, name);
  mapIfUnmapped(graph, out);
  buildReduction(graph, in, out, dims, params, css, copyProg, name);
}

Tensor checkedInput(const Tensor &in) {
  if (!in.valid())
    throw poplibs_error("popops::reduce: the input is an invalid (default-constructed) tensor");
  return in;
}

} // namespace

Tensor reduce(poplar::Graph &graph, const Tensor &in, const poplar::Type &outType, const std::vector<std::size_t> &dims,
              ReduceParams params, std::vector<poplar::ComputeSet> &css, const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &) {
  return reduceNew(graph, in, outType, dims, params, css, nullptr, opName(debugContext, "reduce"));
}

Tensor reduce(poplar::Graph &graph, const Tensor &in, const std::vector<std::size_t> &dims, ReduceParams params,
              std::vector<poplar::ComputeSet> &css, const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &options) {
  return reduce(graph, in, checkedInput(in).elementType(), dims, params, css, debugContext, options);
}

void reduceWithOutput(poplar::Graph &graph, const Tensor &in, const Tensor &out, const std::vector<std::size_t> &dims,
                      ReduceParams params, std::vector<poplar::ComputeSet> &css,
                      const poplar::DebugContext &debugContext, const poplar::OptionFlags &) {
  reduceExisting(graph, in, out, dims, params, css, nullptr, opName(debugContext, "reduceWithOutput"));
}

Tensor reduce(poplar::Graph &graph, const Tensor &in, const poplar::Type &outType, const std::vector<std::size_t> &dims,
              ReduceParams params, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &) {
  const std::string name = opName(debugContext, "reduce");
  std::vector<poplar::ComputeSet> css;
  Tensor out = reduceNew(graph, in, outType, dims, params, css, &prog, name);
  addExecutes(prog, css, name);
  return out;
}

Tensor reduce(poplar::Graph &graph, const Tensor &in, const std::vector<std::size_t> &dims, ReduceParams params,
              poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &options) {
  return reduce(graph, in, checkedInput(in).elementType(), dims, params, prog, debugContext, options);
}

void reduceWithOutput(poplar::Graph &graph, const Tensor &in, const Tensor &out, const std::vector<std::size_t> &dims,
                      ReduceParams params, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                      const poplar::OptionFlags &) {
  const std::string name = opName(debugContext, "reduceWithOutput");
  std::vector<poplar::ComputeSet> css;
  reduceExisting(graph, in, out, dims, params, css, &prog, name);
  addExecutes(prog, css, name);
}

void reduceMany(poplar::Graph &graph, const std::vector<SingleReduceOp> &reductions, std::vector<Tensor> &outputs,
                poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                const poplar::OptionFlags &) {
  const std::string name = opName(debugContext, "reduceMany");
  const bool given = !outputs.empty();
  if (given && outputs.size() != reductions.size())
    throw poplibs_error(name + ": " + std::to_string(outputs.size()) + " outputs for " +
                        std::to_string(reductions.size()) + " reductions; pass one output per reduction, or none");
  std::vector<poplar::ComputeSet> css;
  for (std::size_t i = 0; i < reductions.size(); ++i) {
    const SingleReduceOp &r = reductions[i];
    const std::string rname = name + "/" + (r.debugName.empty() ? std::to_string(i) : r.debugName);
    if (!r.in.valid())
      throw poplibs_error(rname + ": the input is an invalid (default-constructed) tensor");
    if (given)
      reduceExisting(graph, r.in, outputs[i], r.dims, r.params, css, &prog, rname);
    else
      outputs.push_back(
          reduceNew(graph, r.in, r.useOutType ? r.outType : r.in.elementType(), r.dims, r.params, css, &prog, rname));
  }
  addExecutes(prog, css, name);
  if (plog::logEnabled(plog::LogLevel::Debug))
    plog::log(plog::LogLevel::Debug, name + ": " + std::to_string(reductions.size()) + " reductions in " +
                                         std::to_string(css.size()) + " compute sets");
}

} // namespace popops
