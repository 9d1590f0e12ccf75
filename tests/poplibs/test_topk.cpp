// popops::topK, topKKeyValue and topKWithPermutation against a host reference (a stable sort of each innermost
// row): largest and smallest, every SortOrder, ties (the earlier element first), FLOAT, HALF and INT, k of 1, of
// an odd size and of the whole row, rows spread over 16 tiles, createTopKInput; and the errors.
#include <algorithm>
#include <numeric>
#include <sstream>

#include <popops/TopK.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
using popops::SortOrder;
using popops::TopKParams;

namespace {

const std::size_t ROWS = 6, COLS = 37;

// The indices of row r's top k, in the order `params` asks (NONE: as selected).
template <typename T> std::vector<unsigned> reference(const std::vector<T> &h, std::size_t r, const TopKParams &p) {
  std::vector<unsigned> idx(COLS);
  std::iota(idx.begin(), idx.end(), 0u);
  const T *row = h.data() + r * COLS;
  std::stable_sort(idx.begin(), idx.end(), [&](unsigned a, unsigned b) {
    return p.largest ? row[b] < row[a] : row[a] < row[b];
  });
  idx.resize(p.k);
  const bool reverse = (p.largest && p.sortOrder == SortOrder::ASCENDING) ||
                       (!p.largest && p.sortOrder == SortOrder::DESCENDING);
  if (reverse)
    std::stable_sort(idx.begin(), idx.end(), [&](unsigned a, unsigned b) {
      return p.largest ? row[a] < row[b] : row[b] < row[a];
    });
  return idx;
}

void test_params_and_orders(void **) {
  Fixture f;
  Tensor a = f.var(FLOAT, {ROWS, COLS}, "a");
  const std::vector<TopKParams> params = {
      TopKParams(5, true, SortOrder::DESCENDING), TopKParams(5, true, SortOrder::ASCENDING),
      TopKParams(7, false, SortOrder::ASCENDING), TopKParams(7, false, SortOrder::DESCENDING, true),
      TopKParams(1, true, SortOrder::NONE),       TopKParams(unsigned(COLS), false, SortOrder::ASCENDING)};
  std::vector<std::pair<Tensor, Tensor> > outs;
  for (std::size_t i = 0; i < params.size(); ++i) {
    outs.push_back(popops::topKWithPermutation(f.graph, f.prog, a, params[i]));
    f.readable(outs.back().first, ("v" + std::to_string(i)).c_str());
    f.readable(outs.back().second, ("i" + std::to_string(i)).c_str());
    assert_true(outs.back().first.shape() == std::vector<std::size_t>({ROWS, params[i].k}));
    assert_true(outs.back().second.elementType() == UNSIGNED_INT);
  }
  Tensor onlyValues = popops::topK(f.graph, f.prog, a, params[0]);
  f.readable(onlyValues, "only");
  f.build();
  auto h = floats(ROWS * COLS, 3); // 17 distinct values in 37 columns: ties in every row
  f.write("a", h);
  f.engine->run(0);
  for (std::size_t i = 0; i < params.size(); ++i) {
    const unsigned k = params[i].k;
    auto v = f.read<float>("v" + std::to_string(i), ROWS * k);
    auto ix = f.read<unsigned>("i" + std::to_string(i), ROWS * k);
    for (std::size_t r = 0; r < ROWS; ++r) {
      auto want = reference(h, r, params[i]);
      for (unsigned j = 0; j < k; ++j) {
        if (ix[r * k + j] != want[j] || v[r * k + j] != h[r * COLS + want[j]]) {
          print_error("params %zu row %zu [%u]: got index %u value %g, want %u value %g\n", i, r, j, ix[r * k + j],
                      double(v[r * k + j]), want[j], double(h[r * COLS + want[j]]));
          fail();
        }
      }
    }
  }
  auto only = f.read<float>("only", ROWS * 5);
  for (std::size_t r = 0; r < ROWS; ++r) {
    auto want = reference(h, r, params[0]);
    for (unsigned j = 0; j < 5; ++j)
      assert_true(only[r * 5 + j] == h[r * COLS + want[j]]);
  }
}

// HALF and INT keys, a rank-3 input made by createTopKInput, values permuted by topKKeyValue.
void test_types_key_value(void **) {
  Fixture f;
  Tensor h = f.var(HALF, {ROWS, COLS}, "h");
  Tensor k = popops::createTopKInput(f.graph, INT, {2, 3, COLS}, TopKParams(4, true, SortOrder::DESCENDING));
  f.graph.createHostWrite("k", k);
  Tensor vals = f.var(FLOAT, {2, 3, COLS}, "vals");
  Tensor hTop = popops::topK(f.graph, f.prog, h, TopKParams(3, false, SortOrder::ASCENDING));
  auto kv = popops::topKKeyValue(f.graph, f.prog, k, vals, TopKParams(4, true, SortOrder::DESCENDING));
  f.readable(hTop, "hTop");
  f.readable(kv.first, "kTop");
  f.readable(kv.second, "vTop");
  // createTopKInput keeps each row on one tile.
  auto m = f.graph.getTileMapping(k);
  for (const auto &tile : m)
    for (const auto &iv : tile)
      assert_int_equal(iv.begin() % COLS, 0);
  f.build();
  auto hh = f.rh(floats(ROWS * COLS, 4));
  auto hk = ints(ROWS * COLS, 5);
  auto hv = floats(ROWS * COLS, 6);
  f.writeHalf("h", hh);
  f.write("k", hk);
  f.write("vals", hv);
  f.engine->run(0);
  auto gotH = f.readHalf("hTop", ROWS * 3);
  auto gotK = f.read<int>("kTop", ROWS * 4);
  auto gotV = f.read<float>("vTop", ROWS * 4);
  for (std::size_t r = 0; r < ROWS; ++r) {
    auto wh = reference(hh, r, TopKParams(3, false, SortOrder::ASCENDING));
    for (unsigned j = 0; j < 3; ++j)
      assert_true(gotH[r * 3 + j] == hh[r * COLS + wh[j]]);
    auto wk = reference(hk, r, TopKParams(4, true, SortOrder::DESCENDING));
    for (unsigned j = 0; j < 4; ++j) {
      assert_int_equal(gotK[r * 4 + j], hk[r * COLS + wk[j]]);
      assert_true(gotV[r * 4 + j] == hv[r * COLS + wk[j]]);
    }
  }
}

void test_errors(void **) {
  Fixture f(4);
  Tensor a = f.var(FLOAT, {3, 4}, "a"), s = f.var(FLOAT, {}, "s"), v = f.var(FLOAT, {4, 3}, "v");
  Sequence &p = f.prog;
  expectThrow<poputil::poplibs_error>(
      [&] { popops::topK(f.graph, p, a, TopKParams(5, true, SortOrder::NONE)); }, "pass k <= 4");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::topK(f.graph, p, s, TopKParams(1, true, SortOrder::NONE)); }, "is a scalar");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::topKKeyValue(f.graph, p, a, v, TopKParams(1, true, SortOrder::NONE)); }, "keys' shape");
  std::ostringstream os;
  os << TopKParams(2, false, SortOrder::DESCENDING, true);
  assert_string_equal(os.str().c_str(), "{k=2, largest=false, sortOrder=descending, stableSort=true}");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_params_and_orders), cmocka_unit_test(test_types_key_value),
                                     cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
