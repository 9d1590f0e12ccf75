// popops::sort, sortInPlace, sortKeyValue and sortKeyValueInPlace against std::stable_sort on a 16-tile IPU Model:
// every dimension of a rank-3 tensor spread over the tiles, odd sizes, ties (stability of the values), FLOAT, HALF,
// INT and UNSIGNED_INT keys, values of 4 and 2 bytes, a transposed view sorted in place, allTrue; and the errors.
#include <algorithm>
#include <numeric>

#include <popops/AllTrue.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Sort.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

const std::size_t D0 = 3, D1 = 5, D2 = 7, N = D0 * D1 * D2;

// The index of element (i0, i1, i2) of a D0 x D1 x D2 row-major tensor.
std::size_t at(std::size_t i0, std::size_t i1, std::size_t i2) { return (i0 * D1 + i1) * D2 + i2; }

// keys (and values) sorted stably along `dim` of the D0 x D1 x D2 layout.
template <typename K, typename V>
void reference(std::vector<K> &keys, std::vector<V> *values, unsigned dim) {
  const std::size_t dims[3] = {D0, D1, D2};
  std::size_t o[3];
  for (o[0] = 0; o[0] < (dim == 0 ? 1 : D0); ++o[0])
    for (o[1] = 0; o[1] < (dim == 1 ? 1 : D1); ++o[1])
      for (o[2] = 0; o[2] < (dim == 2 ? 1 : D2); ++o[2]) {
        std::vector<std::size_t> pos;
        for (std::size_t j = 0; j < dims[dim]; ++j) {
          std::size_t p[3] = {o[0], o[1], o[2]};
          p[dim] = j;
          pos.push_back(at(p[0], p[1], p[2]));
        }
        std::vector<std::size_t> order(pos.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return keys[pos[a]] < keys[pos[b]]; });
        std::vector<K> k2;
        std::vector<V> v2;
        for (std::size_t j : order) {
          k2.push_back(keys[pos[j]]);
          if (values)
            v2.push_back((*values)[pos[j]]);
        }
        for (std::size_t j = 0; j < pos.size(); ++j) {
          keys[pos[j]] = k2[j];
          if (values)
            (*values)[pos[j]] = v2[j];
        }
      }
}

void test_sort_every_dimension(void **) {
  Fixture f;
  Tensor a = f.var(FLOAT, {D0, D1, D2}, "a"), k = f.var(INT, {D0, D1, D2}, "k");
  Tensor h = f.var(HALF, {D0, D1, D2}, "h"), u = f.var(UNSIGNED_INT, {D0, D1, D2}, "u");
  std::vector<Tensor> sorted;
  for (unsigned d = 0; d < 3; ++d) {
    sorted.push_back(popops::sort(f.graph, a, d, f.prog));
    f.readable(sorted.back(), ("a" + std::to_string(d)).c_str());
  }
  Tensor hs = popops::sort(f.graph, h, 2, f.prog);
  popops::sortInPlace(f.graph, k, 1, f.prog);
  popops::sortInPlace(f.graph, u, 0, f.prog);
  f.readable(hs, "hs");
  f.build();
  auto ha = floats(N, 1), hh = f.rh(floats(N, 2));
  auto hk = ints(N, 3);
  std::vector<unsigned> hu(N);
  for (std::size_t i = 0; i < N; ++i)
    hu[i] = unsigned(i * 2654435761u) >> 7;
  f.write("a", ha);
  f.writeHalf("h", hh);
  f.write("k", hk);
  f.write("u", hu);
  f.engine->run(0);
  for (unsigned d = 0; d < 3; ++d) {
    auto want = ha;
    reference<float, int>(want, nullptr, d);
    expectNear(f.read<float>("a" + std::to_string(d), N), want, "sort float", 0.0f);
  }
  reference<float, int>(hh, nullptr, 2);
  expectNear(f.readHalf("hs", N), hh, "sort half", 0.0f);
  reference<int, int>(hk, nullptr, 1);
  expectEqual(f.read<int>("k.r", N), hk, "sortInPlace int");
  reference<unsigned, int>(hu, nullptr, 0);
  expectEqual(f.read<unsigned>("u.r", N), hu, "sortInPlace unsigned");
  // The input of a sort (not in place) is unchanged.
  expectNear(f.read<float>("a.r", N), ha, "input kept", 0.0f);
}

// Keys with many ties: the values show that equal keys keep their order.
void test_sort_key_value(void **) {
  Fixture f;
  Tensor k = f.var(INT, {D0, D1, D2}, "k"), v = f.var(FLOAT, {D0, D1, D2}, "v");
  Tensor k2 = f.var(FLOAT, {D0, D1, D2}, "k2"), v2 = f.var(HALF, {D0, D1, D2}, "v2");
  Tensor kt = f.var(FLOAT, {D2, 40}, "kt"), vt = f.var(UNSIGNED_INT, {D2, 40}, "vt");
  Tensor sv = popops::sortKeyValue(f.graph, k, v, 0, f.prog);
  popops::sortKeyValueInPlace(f.graph, k2, v2, 2, f.prog);
  // A transposed view: sorting kt.transpose() along dimension 0 sorts kt's rows.
  popops::sortKeyValueInPlace(f.graph, kt.transpose(), vt.transpose(), 0, f.prog);
  f.readable(sv, "sv");
  f.build();
  std::vector<int> hk(N);
  for (std::size_t i = 0; i < N; ++i)
    hk[i] = int(i % 4) - 1; // ties everywhere
  auto hv = floats(N, 5), hk2 = floats(N, 6), hv2 = f.rh(floats(N, 7)), hkt = floats(D2 * 40, 8);
  for (float &x : hk2)
    x = std::floor(x); // ties
  std::vector<unsigned> hvt(D2 * 40);
  std::iota(hvt.begin(), hvt.end(), 0u);
  f.write("k", hk);
  f.write("v", hv);
  f.write("k2", hk2);
  f.writeHalf("v2", hv2);
  f.write("kt", hkt);
  f.write("vt", hvt);
  f.engine->run(0);
  reference(hk, &hv, 0);
  expectNear(f.read<float>("sv", N), hv, "sortKeyValue values", 0.0f);
  reference(hk2, &hv2, 2);
  expectNear(f.read<float>("k2.r", N), hk2, "keys in place", 0.0f);
  expectNear(f.readHalf("v2.r", N), hv2, "half values in place", 0.0f);
  for (std::size_t r = 0; r < D2; ++r) {
    std::vector<std::size_t> order(40);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return hkt[r * 40 + a] < hkt[r * 40 + b]; });
    auto got = f.read<unsigned>("vt.r", D2 * 40);
    for (std::size_t j = 0; j < 40; ++j)
      assert_int_equal(got[r * 40 + j], r * 40 + order[j]);
  }
}

// One long row over every tile of 16 (sorted by pieces and merges of neighbouring pieces), keys with ties over
// 16 tiles whose values show the stability across pieces, and allTrue.
void test_long_row_all_true(void **) {
  Fixture f;
  const std::size_t n = 1001, m = 2, w = 301;
  Tensor a = f.var(FLOAT, {n}, "a"), b = f.var(BOOL, {4, 9}, "b"), c = f.var(BOOL, {4, 9}, "c");
  Tensor tk = f.var(INT, {m, w}, "tk"), tv = f.var(UNSIGNED_INT, {m, w}, "tv");
  Tensor s = popops::sort(f.graph, a, 0, f.prog);
  popops::sortKeyValueInPlace(f.graph, tk, tv, 1, f.prog);
  Tensor allB = popops::allTrue(f.graph, b, f.prog), allC = popops::allTrue(f.graph, c, f.prog);
  f.readable(s, "s");
  f.readable(allB, "allB");
  f.readable(allC, "allC");
  assert_true(allB.elementType() == BOOL && allB.numElements() == 1);
  f.build();
  std::vector<float> ha(n);
  for (std::size_t i = 0; i < n; ++i)
    ha[i] = float((i * 7919) % 1013) - 500.0f;
  std::vector<unsigned char> hc(36, 1);
  hc[35] = 0;
  f.write("a", ha);
  f.write("b", std::vector<unsigned char>(36, 1));
  f.write("c", hc);
  std::vector<int> htk(m * w);
  std::vector<unsigned> htv(m * w);
  for (std::size_t i = 0; i < m * w; ++i) {
    htk[i] = int((i * 13) % 5);
    htv[i] = unsigned(i);
  }
  f.write("tk", htk);
  f.write("tv", htv);
  f.engine->run(0);
  std::stable_sort(ha.begin(), ha.end());
  expectNear(f.read<float>("s", n), ha, "long row", 0.0f);
  auto gk = f.read<int>("tk.r", m * w);
  auto gv = f.read<unsigned>("tv.r", m * w);
  for (std::size_t r = 0; r < m; ++r) {
    std::vector<unsigned> order(w);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](unsigned x, unsigned y) { return htk[r * w + x] < htk[r * w + y]; });
    for (std::size_t j = 0; j < w; ++j) {
      assert_int_equal(gk[r * w + j], htk[r * w + order[j]]);
      assert_int_equal(gv[r * w + j], r * w + order[j]);
    }
  }
  assert_int_equal(f.read<unsigned char>("allB", 1)[0], 1);
  assert_int_equal(f.read<unsigned char>("allC", 1)[0], 0);
}

void test_errors(void **) {
  Fixture f(4);
  Tensor a = f.var(FLOAT, {3, 4}, "a"), b = f.var(BOOL, {3, 4}, "b"), v = f.var(FLOAT, {4, 3}, "v");
  Tensor c = f.var(UNSIGNED_CHAR, {3, 4}, "c");
  Sequence &p = f.prog;
  expectThrow<poputil::poplibs_error>([&] { popops::sort(f.graph, a, 2, p); }, "out of range");
  expectThrow<poputil::poplibs_error>([&] { popops::sort(f.graph, b, 0, p); }, "cannot be sorted");
  expectThrow<poputil::poplibs_error>([&] { popops::sortKeyValue(f.graph, a, v, 0, p); }, "keys' shape");
  expectThrow<poputil::poplibs_error>([&] { popops::sortKeyValue(f.graph, a, c, 0, p); }, "cannot be permuted");
  expectThrow<poputil::poplibs_error>([&] { popops::sortInPlace(f.graph, a[0].broadcast(3, 0), 0, p); },
                                      "aliased elements");
  expectThrow<poputil::poplibs_error>([&] { popops::allTrue(f.graph, a, p); }, "not BOOL");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_sort_every_dimension), cmocka_unit_test(test_sort_key_value),
                                     cmocka_unit_test(test_long_row_all_true), cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
