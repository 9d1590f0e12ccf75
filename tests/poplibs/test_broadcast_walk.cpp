// Building element-wise maps over large broadcast views on a 1,472-tile ipu2 model: the write step of
// popops::sequenceSlice (a per-row flag broadcast along the columns, a region per element) and a row broadcast
// ([1, 3072] to [2048, 3072]). Poplar's view walks (getTileMapping, slicing) are counted through its internal step
// counter, not timed: each build must stay within a small multiple of the regions its views hold. The mappings of
// such views are checked element by element against the mapping of the variables behind them.
#include <map>

#include <popops/ElementWise.hpp>
#include <popops/SequenceSlice.hpp>

#include "poplibs_test.hpp"
#include "view_work.hpp"

using namespace poplar;
using namespace poplibs_test;
namespace pe = popops::expr;

namespace {

const unsigned kTiles = 1472;

/// getTileMapping of `view` worked out per element: each element's tile read from its variable's own mapping.
Graph::TileToTensorMapping perElementMapping(const Graph &graph, const Tensor &view) {
  Graph::TileToTensorMapping out(graph.getTarget().getNumTiles());
  std::map<unsigned, std::vector<unsigned> > tilesOf; // per variable id: the tile of each element
  std::size_t pos = 0;
  for (const VariableInterval &r : view.getVarRegions()) {
    std::vector<unsigned> &tileOf = tilesOf[r.var.id];
    if (tileOf.empty()) {
      Tensor var = graph.getVariable(r.var);
      tileOf.assign(var.numElements(), ~0u);
      Graph::TileToTensorMapping whole = graph.getTileMapping(var, false);
      for (unsigned tile = 0; tile < whole.size(); ++tile)
        for (const Interval &i : whole[tile])
          for (std::size_t e = i.begin(); e < i.end(); ++e)
            tileOf[e] = tile;
    }
    for (std::size_t e = r.interval.begin(); e < r.interval.end(); ++e, ++pos) {
      auto &list = out[tileOf[e]];
      if (!list.empty() && list.back().end() == pos)
        list.back() = Interval(list.back().begin(), pos + 1);
      else
        list.emplace_back(pos, pos + 1);
    }
  }
  return out;
}

void expectSameMapping(const Graph &graph, const Tensor &view, const char *what) {
  Graph::TileToTensorMapping got = graph.getTileMapping(view), want = perElementMapping(graph, view);
  assert_int_equal(got.size(), want.size());
  for (unsigned tile = 0; tile < got.size(); ++tile)
    if (got[tile] != want[tile]) {
      print_error("%s: tile %u has %zu intervals, the per-element walk gives %zu\n", what, tile, got[tile].size(),
                  want[tile].size());
      fail();
    }
}

/// Steps Poplar's view walks take in fn().
template <typename Fn> std::uint64_t stepsOf(Fn fn) {
  const std::uint64_t before = poplar::detail::viewSteps();
  fn();
  return poplar::detail::viewSteps() - before;
}

// sequenceSlice's write: mapInPlace(Select(gathered, out, covered != 0)) with covered = hits broadcast along the
// columns. Before the fix each of covered's regions walked hits' whole mapping and each tile's slice summed every
// region again (about 10^9 steps here); the bound is ten steps per element of the view.
void test_column_broadcast_write(void **) {
  const std::size_t rows = 256, cols = 3072;
  Fixture f(kTiles);
  Tensor out = f.graph.addVariable(FLOAT, {rows, cols}, "out");
  Tensor gathered = f.graph.addVariable(FLOAT, {rows, cols}, "gathered");
  Tensor hits = f.graph.addVariable(UNSIGNED_INT, {rows}, "hits");
  for (const Tensor &t : {out, gathered, hits})
    poputil::mapTensorLinearly(f.graph, t);
  Tensor covered = hits.expand({1}).broadcast(unsigned(cols), 1);
  // A region per element, except that the last copy of one flag and the first of the next are adjacent.
  assert_int_equal(covered.getVarRegions().size(), rows * cols - (rows - 1));
  std::uint64_t steps = stepsOf([&] {
    popops::mapInPlace(f.graph, pe::Select(pe::_2, pe::_1, pe::_3 != pe::Const(0u)), {out, gathered, covered},
                       f.prog, "write");
  });
  print_message("column broadcast [%zu, %zu]: %llu view steps\n", rows, cols, (unsigned long long)steps);
  assert_true(steps <= 10 * rows * cols);
  expectSameMapping(f.graph, covered, "covered");
  expectSameMapping(f.graph, covered.transpose(), "covered transposed");
  expectSameMapping(f.graph, covered.slice(17, 200, 0).reverse(1).subSample(3, 1), "covered sliced");
}

// The row broadcast of the brief: [1, 3072] seen as [2048, 3072], added into a [2048, 3072] variable, then the
// sequenceSlice of two entries into its first 512 rows. The broadcast holds a few thousand regions; the bound is
// ten steps per region plus ten per output run on the tiles.
void test_row_broadcast_sequence_slice(void **) {
  const std::size_t rows = 2048, cols = 3072;
  Fixture f(kTiles);
  Tensor bias = f.graph.addVariable(FLOAT, {1, cols}, "bias");
  Tensor out = f.graph.addVariable(FLOAT, {rows, cols}, "out");
  Tensor in = f.graph.addVariable(FLOAT, {rows, cols}, "in");
  for (const Tensor &t : {bias, out, in})
    poputil::mapTensorLinearly(f.graph, t);
  Tensor n = f.graph.addVariable(UNSIGNED_INT, {2}, "n"), io = f.graph.addVariable(UNSIGNED_INT, {2}, "io"),
         oo = f.graph.addVariable(UNSIGNED_INT, {2}, "oo");
  for (const Tensor &t : {n, io, oo})
    f.graph.setTileMapping(t, 0);
  Tensor wide = bias.broadcast(unsigned(rows), 0);
  std::uint64_t mapSteps = stepsOf([&] { popops::addInPlace(f.graph, out, wide, f.prog, "bias"); });
  print_message("row broadcast [%zu, %zu]: %llu view steps\n", rows, cols, (unsigned long long)mapSteps);
  assert_true(mapSteps <= 10 * (rows + kTiles * 4));
  expectSameMapping(f.graph, wide, "row broadcast");
  // sequenceSlice's own views (its flags broadcast along the columns among them) cost a few steps per element of
  // the input and the output; the old walks cost thousands.
  const std::size_t sliceRows = 512;
  Tensor part = out.slice(0, sliceRows, 0);
  std::uint64_t sliceSteps = stepsOf([&] { popops::sequenceSlice(f.graph, in, part, n, io, oo, true, f.prog); });
  print_message("sequenceSlice [%zu, %zu]: %llu view steps\n", sliceRows, cols, (unsigned long long)sliceSteps);
  assert_true(sliceSteps <= 10 * (rows + sliceRows) * cols);
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_column_broadcast_write),
      cmocka_unit_test(test_row_broadcast_sequence_slice),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
