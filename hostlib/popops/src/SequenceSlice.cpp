// popops/SequenceSlice.hpp. Each output row works out, with element-wise maps over [output rows, entries], which
// entry covers it and the input row it takes (the sum over entries of the covering one's source: at most one
// covers a row); a multiSlice gathers those input rows, and a select writes them where some entry covered the row
// (and 0 or the old value elsewhere). So the offsets and lengths can change at run time.
#include "popops/SequenceSlice.hpp"

#include <string>
#include <vector>

#include "counting_constant.hpp"
#include "op_name.hpp"
#include "popops/DynamicSlice.hpp"
#include "popops/ElementWise.hpp"
#include "popops/Reduce.hpp"
#include "popops/Zero.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;
namespace pe = popops::expr;

void sequenceSlice(poplar::Graph &graph, const Tensor &tIn, const Tensor &tOut, const Tensor &tN,
                   const Tensor &tInOffset, const Tensor &tOutOffset, bool zeroUnused, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "sequenceSlice");
  if (tIn.rank() < 2 || tOut.rank() < 2 || tIn.numElements() / tIn.dim(0) != tOut.numElements() / tOut.dim(0))
    throw poplibs_error(name + ": tIn and tOut must have rank 2 or more and the same elements per outer row");
  if (tIn.elementType() != tOut.elementType())
    throw poplibs_error(name + ": tIn and tOut must have one element type");
  for (const Tensor *t : {&tN, &tInOffset, &tOutOffset})
    if (t->rank() != 1 || t->dim(0) != tN.dim(0) ||
        (t->elementType() != poplar::UNSIGNED_INT && t->elementType() != poplar::INT))
      throw poplibs_error(name + ": tN, tInOffset and tOutOffset must be rank-1 UNSIGNED_INT of one size");
  const std::size_t rowsIn = tIn.dim(0), rowsOut = tOut.dim(0), entries = tN.dim(0);
  if (rowsOut == 0 || tOut.numElements() == 0)
    return;
  Tensor out2 = tOut.reshape({rowsOut, tOut.numElements() / rowsOut});
  if (entries == 0 || rowsIn == 0) {
    if (zeroUnused)
      zero(graph, out2, prog, name + "/zero");
    return;
  }
  Tensor rowIds = detail::countingConstant(graph, rowsOut, name + "/rows");
  auto perEntry = [&](const Tensor &t) {
    return t.reinterpret(poplar::UNSIGNED_INT).expand({0}).broadcast(unsigned(rowsOut), 0);
  };
  Tensor r = rowIds.expand({1}).broadcast(unsigned(entries), 1);
  // _1 row, _2 length, _3 input offset, _4 output offset; j = row - output offset is the position in the run.
  auto j = pe::_1 - pe::_4;
  auto covers = pe::Gte(pe::_1, pe::_4) && pe::Lt(j, pe::_2) && pe::Lt(j + pe::_3, pe::Const(unsigned(rowsIn)));
  const std::vector<Tensor> ops = {r, perEntry(tN), perEntry(tInOffset), perEntry(tOutOffset)};
  Tensor src = map(graph, pe::Select(j + pe::_3, pe::Const(0u), covers), ops, prog, name + "/source");
  Tensor hit = map(graph, pe::Select(pe::Const(1u), pe::Const(0u), covers), ops, prog, name + "/covered");
  Tensor srcRow = reduce(graph, src, {1}, ReduceParams(Operation::ADD), prog, name + "/sourceRow");
  Tensor hits = reduce(graph, hit, {1}, ReduceParams(Operation::ADD), prog, name + "/coveredRow");
  Tensor in2 = tIn.reshape({rowsIn, tIn.numElements() / rowsIn});
  Tensor rows = multiSlice(graph, in2, srcRow.expand({1}), {0}, {1}, prog, SlicePlan(), poplar::OptionFlags(),
                           name + "/gather");
  Tensor gathered = rows.reshape(out2.shape());
  Tensor covered = hits.expand({1}).broadcast(unsigned(out2.dim(1)), 1);
  if (zeroUnused)
    mapInPlace(graph, pe::Select(pe::_2, pe::Const(0), pe::_3 != pe::Const(0u)), {out2, gathered, covered}, prog,
               name + "/write");
  else
    mapInPlace(graph, pe::Select(pe::_2, pe::_1, pe::_3 != pe::Const(0u)), {out2, gathered, covered}, prog,
               name + "/write");
}

} // namespace popops
