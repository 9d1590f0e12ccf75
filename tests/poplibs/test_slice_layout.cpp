// popops' sliceable layouts and the slicing corner cases Graphcore's DynamicSlice tests rely on: one region per
// tile in every slice of createSliceableTensor (FLOAT and HALF), createSliceableTensorFromSlice following a
// shuffled reference slice's memory order, slices and updates over no dimension (the whole tensor), the order of
// the per-dimension steps (the dimension that shrinks most first), and the "validateIndices" option of the
// multi operations; results checked against host references.
#include <sstream>
#include <string>

#include <poplar/exceptions.hpp>
#include <popops/DynamicSlice.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

using Shape = std::vector<std::size_t>;

// createSliceableTensor over dims {0} of [15, 37, 52]: slice 0 is at most one region per tile (FLOAT and HALF),
// and a dynamicSlice / dynamicUpdate of the FLOAT one reads and writes the rows the host reference says.
void test_sliceable_one_region_per_tile(void **) {
  Fixture f(16);
  const Shape shape = {15, 37, 52};
  const std::size_t row = 37 * 52;
  for (const Type &type : {FLOAT, HALF}) {
    Tensor t = popops::createSliceableTensor(f.graph, type, shape, {0}, {1}, 0, "t");
    assert_true(t.slice(0, 1, 0).getVarRegions().size() <= 16);
    assert_true(t.slice(14, 15, 0).getVarRegions().size() <= 16);
  }
  Tensor t = popops::createSliceableTensor(f.graph, FLOAT, shape, {0}, {1}, 0, "tf");
  f.graph.createHostWrite("t", t);
  f.readable(t, "t.r");
  Tensor off = f.var(UNSIGNED_INT, {1}, "off"), upOff = f.var(UNSIGNED_INT, {1}, "upOff");
  Tensor out = popops::dynamicSlice(f.graph, t, off, {0}, {1}, f.prog, "sl");
  f.readable(out, "out");
  Tensor upd = popops::createSliceTensor(f.graph, t, {0}, {1}, 1, "upd")[0];
  f.graph.createHostWrite("upd", upd);
  popops::dynamicUpdate(f.graph, t, upd, upOff, {0}, {1}, f.prog, "up");
  f.build();
  const auto h = floats(15 * row, 1), hu = floats(row, 2);
  f.write("t", h);
  f.write("upd", hu);
  f.write("off", std::vector<unsigned>{9});
  f.write("upOff", std::vector<unsigned>{4});
  f.engine->run(0);
  expectNear(f.read<float>("out", row), std::vector<float>(h.begin() + 9 * row, h.begin() + 10 * row), "out");
  std::vector<float> want = h;
  std::copy(hu.begin(), hu.end(), want.begin() + 4 * row);
  expectNear(f.read<float>("t.r", want.size()), want, "t");
}

// A reference slice [20, 10, 10] seen as dimShuffle({2, 0, 1}) and mapped in that order: each of the 2 x 3
// copies in createSliceableTensorFromSlice's result, reordered as the slice simplifies, is one contiguous region
// per tile with the slice's mapping; a dynamicSlice over both dims returns the copy the host reference says.
void test_sliceable_from_shuffled_slice(void **) {
  Fixture f(16);
  Tensor s = f.graph.addVariable(HALF, {20, 10, 10}, "s").dimShuffle({2, 0, 1});
  poputil::mapTensorLinearly(f.graph, s, 1, 1);
  Tensor t = popops::createSliceableTensorFromSlice(f.graph, s, {0, 1}, {2, 3}, "t");
  assert_true(t.shape() == (Shape{20, 60, 10}));
  std::vector<Tensor> copies(6);
  std::vector<Tensor *> ptrs;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 2; ++j) {
      copies[i * 2 + j] = t.slice(i * 20, (i + 1) * 20, 1).slice(j * 10, (j + 1) * 10, 0).flatten();
      ptrs.push_back(&copies[i * 2 + j]);
    }
  Tensor flat = s.flatten();
  f.graph.reorderToSimplify(&flat, ptrs);
  const auto want = f.graph.getTileMapping(flat);
  for (const Tensor &c : copies) {
    const auto m = f.graph.getTileMapping(c);
    assert_true(m == want);
    for (unsigned tile = 0; tile < m.size(); ++tile)
      if (!m[tile].empty())
        assert_int_equal(f.graph.getSortedContiguousRegions(c, m[tile]).size(), 1);
  }
  // The data: a FLOAT copy of the same layout, sliced at copy (1, 2) of its [2, 3] grid of copies.
  Tensor sf = f.graph.addVariable(FLOAT, {4, 3, 5}, "sf").dimShuffle({2, 0, 1});
  poputil::mapTensorLinearly(f.graph, sf, 1, 1);
  Tensor tf = popops::createSliceableTensorFromSlice(f.graph, sf, {0, 1}, {2, 3}, "tf");
  f.graph.createHostWrite("tf", tf);
  Tensor off = f.var(UNSIGNED_INT, {2}, "off");
  Tensor out = popops::dynamicSlice(f.graph, tf, off, {0, 1}, {5, 4}, f.prog, "sl");
  f.readable(out, "out");
  f.build();
  const auto h = floats(10 * 12 * 3, 3); // tf is [10, 12, 3]
  f.write("tf", h);
  f.write("off", std::vector<unsigned>{5, 8});
  f.engine->run(0);
  std::vector<float> ref;
  for (std::size_t a = 5; a < 10; ++a)
    for (std::size_t b = 8; b < 12; ++b)
      for (std::size_t c = 0; c < 3; ++c)
        ref.push_back(h[(a * 12 + b) * 3 + c]);
  expectNear(f.read<float>("out", ref.size()), ref, "out");
}

// dynamicSlice and dynamicUpdate on one tile, where the vertex's six workers share the tile's contiguous block
// (popops' slice codelets, forWorkerColumns): [70, 45] UNSIGNED_CHAR (six 8-byte vectors a row, the last short, so
// each worker gets one) and [70, 131] INT (66 vectors, eleven a worker, the last short), more rows than the split
// of one item per row would take; three rows at offset 68 wrap to row 0, and an update writes rows 1..3.
void test_workers_share_columns(void **) {
  for (const std::size_t cols : {std::size_t(45), std::size_t(131)}) {
    Fixture f(1);
    const bool bytes = cols == 45;
    const Type type = bytes ? UNSIGNED_CHAR : INT;
    Tensor t = f.var(type, {70, cols}, "t"), u = f.var(type, {3, cols}, "u");
    Tensor off = f.var(UNSIGNED_INT, {1}, "off"), upOff = f.var(UNSIGNED_INT, {1}, "upOff");
    Tensor out = popops::dynamicSlice(f.graph, t, off, {0}, {3}, f.prog, "sl");
    f.readable(out, "out");
    popops::dynamicUpdate(f.graph, t, u, upOff, {0}, {3}, f.prog, "up");
    f.build();
    // Distinct values in every byte lane (for bytes: 0..255), so a worker writing a neighbour's lane shows.
    auto data = [&](std::size_t n, unsigned seed) {
      std::vector<int> v = ints(n, seed);
      if (bytes)
        for (int &x : v)
          x = (x + 9) * 13 % 256;
      return v;
    };
    std::vector<int> h = data(70 * cols, 6), hu = data(3 * cols, 7);
    auto put = [&](const char *name, const std::vector<int> &v) {
      if (bytes)
        f.write(name, std::vector<unsigned char>(v.begin(), v.end()));
      else
        f.write(name, v);
    };
    auto get = [&](const char *name, std::size_t n) {
      if (!bytes)
        return f.read<int>(name, n);
      const auto b = f.read<unsigned char>(name, n);
      return std::vector<int>(b.begin(), b.end());
    };
    put("t", h);
    put("u", hu);
    f.write("off", std::vector<unsigned>{68});
    f.write("upOff", std::vector<unsigned>{1});
    f.engine->run(0);
    std::vector<int> want;
    for (std::size_t r : {68, 69, 0})
      want.insert(want.end(), h.begin() + r * cols, h.begin() + (r + 1) * cols);
    expectEqual(get("out", 3 * cols), want, "out");
    std::copy(hu.begin(), hu.end(), h.begin() + cols);
    expectEqual(get("t.r", 70 * cols), h, "t");
  }
}

// No dimension to slice: dynamicSlice returns the whole tensor (copied, so a later update does not show through)
// and dynamicUpdate replaces the whole tensor; INT so that the values compare exactly.
void test_no_dimension(void **) {
  Fixture f(4);
  Tensor t = f.var(INT, {3, 4}, "t"), u = f.var(INT, {3, 4}, "u");
  Tensor none = f.var(UNSIGNED_INT, {0}, "none");
  Tensor whole = popops::dynamicSlice(f.graph, t, none, {}, {}, f.prog, "whole");
  assert_true(whole.shape() == t.shape());
  f.readable(whole, "whole");
  popops::dynamicUpdate(f.graph, t, u, none, {}, {}, f.prog, "all");
  f.build();
  const auto ht = ints(12, 1), hu = ints(12, 2);
  f.write("t", ht);
  f.write("u", hu);
  f.engine->run(0);
  expectEqual(f.read<int>("whole", 12), ht, "whole");
  expectEqual(f.read<int>("t.r", 12), hu, "t");
}

// Slicing dims {2, 0, 1} of [100, 50, 10] by {9, 90, 15}: dimension 1 shrinks most and goes first, then 2 and 0
// (equal ratios keep their order); the compute sets say so by name.
void test_step_order(void **) {
  Fixture f(4);
  Tensor t = popops::createSliceableTensor(f.graph, FLOAT, {100, 50, 10}, {2, 0, 1}, {9, 90, 15}, 2, "t");
  Tensor off = f.var(UNSIGNED_INT, {3}, "off");
  popops::dynamicSlice(f.graph, t, off, {2, 0, 1}, {9, 90, 15}, f.prog, "ds");
  std::stringstream ss;
  f.graph.outputComputeGraph(ss, {f.prog});
  const std::string g = ss.str();
  const auto d0 = g.find("dynamicSlice_d0/slice"), d1 = g.find("dynamicSlice_d1/slice"),
             d2 = g.find("dynamicSlice_d2/slice");
  assert_true(d0 != std::string::npos && d1 != std::string::npos && d2 != std::string::npos);
  assert_true(d1 < d2);
  assert_true(d2 < d0);
}

// validateIndices: multiSlice and multiUpdateAdd on a [10, 3] FLOAT base run with in-range indices (checked
// against the host) and stop with poplar::runtime_error when an index is 10 or more (or negative, as INT).
void test_validate_indices(void **) {
  Fixture f(4);
  const poplar::OptionFlags validate{{"validateIndices", "true"}};
  Tensor t = popops::createSliceableTensor(f.graph, FLOAT, {10, 3}, {0}, {1}, 0, "t");
  f.graph.createHostWrite("t", t);
  f.readable(t, "t.r");
  Tensor ids = popops::createIndicesTensor(f.graph, {0}, 3, popops::SlicePlan(), {}, "ids");
  f.graph.createHostWrite("ids", ids);
  Tensor out = popops::multiSlice(f.graph, t, ids, {0}, {1}, f.prog, popops::SlicePlan(), validate, "ms");
  f.readable(out, "out");
  Tensor sub = f.var(FLOAT, {3, 1, 3}, "sub");
  Tensor scale = f.graph.addConstant(FLOAT, {}, 2.0f, "scale");
  f.graph.setTileMapping(scale, 0);
  popops::multiUpdateAdd(f.graph, t, sub, ids, scale, {0}, {1}, f.prog, popops::SlicePlan(), validate, "mu");
  f.build();
  const auto h = floats(30, 4), hs = floats(9, 5);
  f.write("t", h);
  f.write("sub", hs);
  f.write("ids", std::vector<unsigned>{7, 0, 9});
  f.engine->run(0);
  std::vector<float> ref, upd = h;
  const unsigned rows[3] = {7, 0, 9};
  for (unsigned k = 0; k < 3; ++k)
    for (unsigned c = 0; c < 3; ++c) {
      ref.push_back(h[rows[k] * 3 + c]);
      upd[rows[k] * 3 + c] += 2.0f * hs[k * 3 + c];
    }
  expectNear(f.read<float>("out", 9), ref, "out");
  expectNear(f.read<float>("t.r", 30), upd, "t");
  for (unsigned bad : {10u, 0xffffffffu}) {
    f.write("ids", std::vector<unsigned>{1, bad, 2});
    expectThrow<poplar::runtime_error>([&] { f.engine->run(0); }, "validateIndices");
  }
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sliceable_one_region_per_tile),
      cmocka_unit_test(test_sliceable_from_shuffled_slice),
      cmocka_unit_test(test_workers_share_columns),
      cmocka_unit_test(test_no_dimension),
      cmocka_unit_test(test_step_order),
      cmocka_unit_test(test_validate_indices),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
