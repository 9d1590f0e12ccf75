// Unit tests of Tensor views: every view's elements are checked against a host reference that computes, for each
// element of the result, which element of the source it shows (row-major), independently of libpoplar's region
// arithmetic. Also the region queries, ArrayRef, and the refusal of shapes whose element count overflows 64 bits.
#include <array>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "poplar/ArrayRef.hpp"
#include "poplar/Graph.hpp"
#include "poplar/IPUModel.hpp"
#include "poplar/Tensor.hpp"
#include "poplar/exceptions.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

#include "expect_throw.hpp"

using namespace poplar;
using Shape = std::vector<std::size_t>;
using Index = std::vector<std::size_t>;

namespace {

/// The (variable, element) pairs a view shows, one per element in row-major order.
std::vector<std::pair<unsigned, std::size_t>> elements(const Tensor &t) {
  std::vector<std::pair<unsigned, std::size_t>> out;
  for (const VariableInterval &r : t.getVarRegions())
    for (std::size_t i = r.interval.begin(); i < r.interval.end(); ++i)
      out.push_back({r.var.id, i});
  return out;
}

std::size_t count(const Shape &s) {
  std::size_t n = 1;
  for (std::size_t d : s)
    n *= d;
  return n;
}

std::size_t flatOf(const Index &i, const Shape &s) {
  std::size_t f = 0;
  for (std::size_t d = 0; d < s.size(); ++d)
    f = f * s[d] + i[d];
  return f;
}

/// Host reference: the flat source element for every element of a result of shape `out`, given the source index
/// of each result index.
std::vector<std::size_t> reference(const Shape &out, const Shape &src, const std::function<Index(const Index &)> &map) {
  std::vector<std::size_t> r;
  Index i(out.size(), 0);
  for (std::size_t k = 0; k < count(out); ++k) {
    r.push_back(flatOf(map(i), src));
    for (std::size_t d = out.size(); d-- > 0;) {
      if (++i[d] < out[d])
        break;
      i[d] = 0;
    }
  }
  return r;
}

/// Checks that view `v` of the single variable `var` shows exactly `want` (flat source elements) with `shape`.
void expectView(const Tensor &v, const Shape &shape, unsigned var, const std::vector<std::size_t> &want) {
  assert_true(v.shape() == shape);
  auto got = elements(v);
  assert_int_equal(got.size(), want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    assert_int_equal(got[k].first, var);
    assert_int_equal(got[k].second, want[k]);
  }
}

struct Fixture {
  Fixture() : device(IPUModel("tiny").createDevice()), graph(device.getTarget()) {}
  Device device;
  Graph graph;
};

void test_array_ref(void **) {
  std::vector<unsigned> v = {3, 4, 5};
  ArrayRef<unsigned> a(v);
  assert_int_equal(a.size(), 3);
  assert_int_equal(a[2], 5);
  assert_true(a.data() == v.data());
  std::array<unsigned, 2> arr = {{7, 8}};
  ArrayRef<unsigned> b(arr);
  assert_int_equal(b.back(), 8);
  unsigned raw[4] = {1, 2, 3, 4};
  ArrayRef<unsigned> c(raw, 3);
  assert_int_equal(c.size(), 3);
  assert_int_equal(c.front(), 1);
  ArrayRef<unsigned> d(raw);
  assert_int_equal(d.size(), 4);
  auto sum = [](ArrayRef<unsigned> x) {
    unsigned s = 0;
    for (unsigned e : x)
      s += e;
    return s;
  };
  assert_int_equal(sum({1, 2, 3}), 6);
  assert_int_equal(sum({}), 0);
  assert_true(ArrayRef<unsigned>().empty());
  std::vector<unsigned> back = a;
  assert_true(back == v);
  assert_true(a == ArrayRef<unsigned>(v));
  assert_true(a != b);
}

void test_basic_queries(void **) {
  Fixture f;
  Tensor t = f.graph.addVariable(FLOAT, {2, 3, 4}, "t");
  assert_int_equal(t.rank(), 3);
  assert_int_equal(t.numElements(), 24);
  assert_int_equal(t.dim(2), 4);
  assert_true(t.elementType() == FLOAT);
  assert_true(t.valid() && !Tensor().valid());
  assert_true(t.shapeToString() == "{2,3,4}");
  assert_true(t.getDebugStr() == "t");
  assert_true(t.isContiguous());
  Tensor u = f.graph.addVariable(FLOAT, {4}, "u");
  assert_true(concat(t[0][0], u).getDebugStr() == "t/u");
  // operator== compares views: the same elements in the same order with the same shape and type.
  assert_true(t == t.reshape({2, 3, 4}));
  assert_true(t[1] == t.slice(1, 2).reshape({3, 4}));
  assert_false(t == t.reshape({6, 4}));
  assert_false(t.flatten() == t.flatten().reverse(0));
  assert_false(t.reinterpret(INT) == t);
  std::ostringstream os;
  t.slice(1, 3, 2).outputRegions(os);
  assert_true(os.str() == "{t[1,3), t[5,7), t[9,11), t[13,15), t[17,19), t[21,23)}");
}

void test_views_against_reference(void **) {
  Fixture f;
  Shape s = {2, 3, 4};
  Tensor t = f.graph.addVariable(INT, s, "t");
  using R = std::function<Index(const Index &)>;
  // slice, slice(Interval), slice(begin[], end[])
  expectView(t.slice(1, 3, 1), {2, 2, 4}, 0, reference({2, 2, 4}, s, R([](const Index &i) {
               return Index{i[0], i[1] + 1, i[2]};
             })));
  expectView(t.slice(Interval(2, 4), 2), {2, 3, 2}, 0, reference({2, 3, 2}, s, R([](const Index &i) {
               return Index{i[0], i[1], i[2] + 2};
             })));
  expectView(t.slice({1, 0, 1}, {2, 2, 4}), {1, 2, 3}, 0, reference({1, 2, 3}, s, R([](const Index &i) {
               return Index{i[0] + 1, i[1], i[2] + 1};
             })));
  // index == chained operator[]
  expectView(t.index({1, 2}), {4}, 0, reference({4}, s, R([](const Index &i) { return Index{1, 2, i[0]}; })));
  assert_true(t.index({1, 2}) == t[1][2]);
  assert_true(t.index({}) == t);
  // broadcast: the whole tensor repeated along a dimension
  expectView(t.broadcast(2, 1), {2, 6, 4}, 0, reference({2, 6, 4}, s, R([](const Index &i) {
               return Index{i[0], i[1] % 3, i[2]};
             })));
  // upsample: each element repeated in place
  expectView(t.upsample(3, 2, UpsampleMethod::REPEAT), {2, 3, 12}, 0, reference({2, 3, 12}, s, R([](const Index &i) {
               return Index{i[0], i[1], i[2] / 3};
             })));
  assert_int_equal(t.upsample(0, 1).numElements(), 0);
  // subSample: every stride-th element from the first (ceil)
  expectView(t.subSample(3, 2), {2, 3, 2}, 0, reference({2, 3, 2}, s, R([](const Index &i) {
               return Index{i[0], i[1], i[2] * 3};
             })));
  expectView(t.subSample(2, 1), {2, 2, 4}, 0, reference({2, 2, 4}, s, R([](const Index &i) {
               return Index{i[0], i[1] * 2, i[2]};
             })));
  // reverse, dimShuffle, transpose
  expectView(t.reverse(1), s, 0, reference(s, s, R([](const Index &i) { return Index{i[0], 2 - i[1], i[2]}; })));
  expectView(t.dimShuffle({2, 0, 1}), {4, 2, 3}, 0, reference({4, 2, 3}, s, R([](const Index &i) {
               return Index{i[1], i[2], i[0]};
             })));
  // dimShufflePartial: dimension 2 to position 0, the others keep their order (= dimRoll(2, 0))
  assert_true(t.dimShufflePartial({2}, {0}) == t.dimShuffle({2, 0, 1}));
  assert_true(t.dimRoll(2) == t.dimShuffle({2, 0, 1}));
  assert_true(t.dimRoll(0, 2) == t.dimShuffle({1, 2, 0}));
  assert_true(t.dimShufflePartial({0, 2}, {2, 0}) == t.dimShuffle({2, 1, 0}));
  assert_true(t[0].transpose() == t[0].dimShuffle({1, 0}));
  // reshape keeps the row-major order; reshapePartial reshapes a range of dimensions
  expectView(t.reshapePartial(1, 3, {2, 6}), {2, 2, 6}, 0, reference({2, 2, 6}, {2, 2, 6}, R([](const Index &i) {
               return i;
             })));
  assert_true(t.reshapePartial(1, 1, {1}).shape() == (Shape{2, 1, 3, 4}));
  assert_true(t.flatten(1, 3).shape() == (Shape{2, 12}));
  assert_true(t.flatten().shape() == (Shape{24}));
  // expand / squeeze
  assert_true(t.expand({0, 3}).shape() == (Shape{1, 2, 3, 4, 1}));
  assert_true(t.expand({0, 3}).squeeze({0, 4}) == t);
  // a view of a view: upsample of a reversed slice
  Tensor v = t[1].reverse(0).upsample(2, 0);
  expectView(v, {6, 4}, 0, reference({6, 4}, s, R([](const Index &i) { return Index{1, 2 - i[0] / 2, i[1]}; })));
  // reinterpret keeps the elements and needs the same element size
  Tensor r = t.reinterpret(FLOAT);
  assert_true(r.elementType() == FLOAT);
  expectView(r, s, 0, reference(s, s, R([](const Index &i) { return i; })));
  expectThrow<poplar_error>([&] { t.reinterpret(HALF); }, "must have the same size");
}

void test_slices_concat_append(void **) {
  Fixture f;
  Tensor t = f.graph.addVariable(FLOAT, {4, 3}, "t");
  std::vector<Tensor> a = t.slices({Interval(0, 1), Interval(2, 4)}, 0);
  assert_int_equal(a.size(), 2);
  assert_true(a[1] == t.slice(2, 4));
  std::vector<std::vector<Interval>> lists = {{Interval(0, 1), Interval(3, 4)}, {Interval(1, 2)}};
  std::vector<Tensor> b = t.slices(lists, 0);
  assert_true(b[0] == concat(t.slice(0, 1), t.slice(3, 4)));
  assert_true(b[1] == t.slice(1, 2));
  std::vector<unsigned> idx = {2, 0};
  std::vector<Tensor> c = t.slices(idx, 1);
  assert_true(c[0] == t.slice(2, 3, 1) && c[1] == t.slice(0, 1, 1));
  // concat forms: an ArrayRef of tensors, a braced list, two tensors
  std::vector<Tensor> parts = {t[0], t[3], t[1]};
  Tensor joined = concat(parts);
  expectView(joined, {9}, 0, {0, 1, 2, 9, 10, 11, 3, 4, 5});
  assert_true(concat({t[0], t[3], t[1]}) == joined);
  assert_true(concat(t.slice(0, 1, 1), t.slice(1, 3, 1), 1) == t);
  // append adds one element along a dimension
  Tensor ap = append(t, t[0], 0);
  assert_true(ap.shape() == (Shape{5, 3}));
  assert_true(ap[4] == t[0]);
  Tensor col = append(t, t.slice(0, 1, 1).reshape({4}), 1);
  assert_true(col.shape() == (Shape{4, 4}));
  expectThrow<index_error>([&] { append(t, t, 0); }, "rank 2 - 1");
  Graph other(f.device.getTarget());
  Tensor o = other.addVariable(FLOAT, {3});
  expectThrow<index_error>([&] { concat(t[0], o); }, "different graphs");
}

void test_region_queries(void **) {
  Fixture f;
  Tensor t = f.graph.addVariable(FLOAT, {4, 3}, "t");
  Tensor k = f.graph.addConstant(FLOAT, {2}, 1.0f, "k");
  // columns 1..2 of every row: four runs of two elements
  Tensor s = t.slice(1, 3, 1);
  std::vector<Interval> cr = s.getContiguousRegions();
  assert_int_equal(cr.size(), 4);
  assert_true(cr[0] == Interval(0, 2) && cr[3] == Interval(6, 8));
  std::vector<VariableInterval> vr = s.getVarRegions();
  assert_int_equal(vr.size(), 4);
  assert_true(vr[1].interval == Interval(4, 6));
  assert_false(s.isContiguous());
  assert_true(t[2].isContiguous());
  // aliases: broadcast and upsample repeat elements; a plain view does not
  assert_false(t.containsAliases());
  assert_true(t[0].broadcast(2, 0).containsAliases());
  assert_true(t[0].upsample(2, 0).containsAliases());
  assert_false(t.subSample(2, 0).containsAliases());
  assert_true(concat(t[0], t[0]).containsAliases());
  // constants
  assert_false(t.containsConstant());
  assert_true(concat(t[0], k).containsConstant());
  // constant values: all elements of constants and equal
  float kv = 0;
  assert_true(k.getConstantValue(&kv));
  assert_true(kv == 1.0f);
  int asInt = 0;
  assert_true(k[1].getConstantValue(&asInt));
  assert_int_equal(asInt, 1);
  Tensor mixed = f.graph.addConstant(INT, {3}, std::vector<int>{-4, -4, 5}, "mixed");
  int mv = 7;
  assert_true(mixed.slice(0, 2).getConstantValue(&mv));
  assert_int_equal(mv, -4);
  assert_false(mixed.getConstantValue(&mv));
  assert_false(t.getConstantValue(&kv));
  assert_false(concat(t[0], k).getConstantValue(&kv));
  Tensor h = f.graph.addConstant(HALF, {2}, 0.5f, "h");
  assert_true(h.getConstantValue(&kv) && kv == 0.5f);
  // parallel writeable: no aliases and no constants
  assert_true(t.isParallelWriteable());
  assert_false(t[0].broadcast(2, 0).isParallelWriteable());
  assert_false(k.isParallelWriteable());
  // intersection
  assert_true(t[1].intersectsWith(t.slice(1, 2, 1)));
  assert_false(t[1].intersectsWith(t[2]));
  assert_false(t.intersectsWith(k));
}

void test_view_errors(void **) {
  Fixture f;
  Tensor t = f.graph.addVariable(FLOAT, {2, 3}, "t");
  expectThrow<index_error>([&] { t.subSample(0, 0); }, "stride 0");
  expectThrow<index_error>([&] { t.subSample(1, 2); }, "no dimension 2");
  expectThrow<index_error>([&] { t.broadcast(2, 5); }, "no dimension 5");
  expectThrow<index_error>([&] { t.index({0, 0, 0}); }, "3 indices");
  expectThrow<index_error>([&] { t.reshapePartial(0, 1, {3}); }, "do not have the elements");
  expectThrow<index_error>([&] { t.reshapePartial(2, 1, {1}); }, "not a range");
  expectThrow<index_error>([&] { t.dimShufflePartial({0, 0}, {0, 1}); }, "distinct");
  expectThrow<index_error>([&] { t.dimShufflePartial({0}, {0, 1}); }, "give one destination each");
  expectThrow<index_error>([&] { t.slices(std::vector<std::vector<Interval>>{{}}, 0); }, "inner list");
}

// Issue 18: a shape whose element count overflows 64 bits looked empty (numElements() == 0) and compiled.
void test_overflowing_shape_refused(void **) {
  Fixture f;
  const std::size_t big = std::size_t(1) << 33;
  expectThrow<poplar_error>([&] { f.graph.addVariable(FLOAT, {big, big}, "huge"); },
                            "more than 2^64 - 1 elements");
  expectThrow<poplar_error>([&] { f.graph.addVariable(INT, {big, big, 1}, "huge"); }, "shape {8589934592,");
  // a zero dimension makes any shape empty, not an overflow
  assert_int_equal(f.graph.addVariable(FLOAT, {big, big, 0}, "empty").numElements(), 0);
  Tensor t = f.graph.addVariable(FLOAT, {4}, "t");
  expectThrow<poplar_error>([&] { t.reshape({big, big}); }, "Tensor::reshape: shape");
  Tensor wide = f.graph.addVariable(FLOAT, {big}, "wide");
  expectThrow<poplar_error>([&] { wide.broadcast(1u << 31, 0); }, "does not fit in 64 bits");
  expectThrow<poplar_error>([&] { wide.upsample(1u << 31, 0); }, "does not fit in 64 bits");
  expectThrow<poplar_error>([&] { wide.expand({0}).broadcast(1u << 31, 0); }, "more than 2^64 - 1 elements");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_array_ref),       cmocka_unit_test(test_basic_queries),
      cmocka_unit_test(test_views_against_reference), cmocka_unit_test(test_slices_concat_append),
      cmocka_unit_test(test_region_queries),  cmocka_unit_test(test_view_errors),
      cmocka_unit_test(test_overflowing_shape_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
