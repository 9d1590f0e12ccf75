// The graph profile's variables per compute set (hostlib/poplar/src/profiling/compute_set_vars.hpp): the right ids
// and names on a small graph, and on a graph with many variables and many compute sets a cost that follows the
// edges, not variables x compute sets (a flag vector allocated and scanned per compute set took minutes there).
#include <chrono>
#include <cstddef>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "graph_impl.hpp"
#include "profiling/compute_set_vars.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

using poplar::Tensor;
using poplar::detail::ComputeSetVariables;
using poplar::detail::GraphImpl;
using poplar::detail::VarRegion;

namespace {

// A graph of `numVars` one-element variables named v<i>, with no vertex yet.
std::unique_ptr<GraphImpl> graphOf(std::size_t numVars) {
  auto g = std::make_unique<GraphImpl>(poplar::Target::createIPUTarget("tiny"));
  g->vars.resize(numVars);
  for (std::size_t i = 0; i < numVars; ++i) {
    g->vars[i].name = "v" + std::to_string(i);
    g->vars[i].type = poplar::FLOAT;
    g->vars[i].shape = {1};
    g->vars[i].numElements = 1;
  }
  return g;
}

Tensor viewOf(GraphImpl &g, std::vector<unsigned> vars) {
  auto regions = std::make_shared<std::vector<VarRegion>>();
  for (unsigned v : vars)
    regions->push_back(VarRegion{v, 0, 1, 0});
  return Tensor(&g, poplar::FLOAT, {vars.size()}, regions);
}

// Adds a compute set with one vertex whose edge "in" views `inVars` and whose list "xs" holds one view per entry of
// `listVars`; returns its id.
unsigned addComputeSet(GraphImpl &g, const std::vector<unsigned> &inVars, const std::vector<unsigned> &listVars) {
  unsigned cs = unsigned(g.computeSets.size());
  g.computeSets.push_back({"cs" + std::to_string(cs), {unsigned(g.vertices.size())}});
  g.vertices.emplace_back();
  poplar::detail::Vertex &v = g.vertices.back();
  v.computeSet = cs;
  v.type = "V";
  v.edges.emplace("in", viewOf(g, inVars));
  for (unsigned x : listVars)
    v.lists["xs"].push_back(viewOf(g, {x}));
  return cs;
}

void test_ids_and_names(void **) {
  auto g = graphOf(12);
  unsigned a = addComputeSet(*g, {3, 11, 3}, {0, 11});
  unsigned b = addComputeSet(*g, {5}, {});
  unsigned c = addComputeSet(*g, {11, 10}, {3});
  ComputeSetVariables vars(*g);
  // Asked out of order and twice: each answer is that compute set's own, so no flag leaks from one to the next.
  assert_true(vars.ids(c) == (std::set<std::size_t>{3, 10, 11}));
  assert_true(vars.ids(a) == (std::set<std::size_t>{0, 3, 11}));
  assert_true(vars.ids(b) == (std::set<std::size_t>{5}));
  assert_true(vars.ids(c) == (std::set<std::size_t>{3, 10, 11}));
  // Names in name order: "v10" < "v11" < "v3".
  const auto &names = vars.names(c).asVector();
  assert_int_equal(names.size(), 3);
  assert_string_equal(names[0].asString().c_str(), "v10");
  assert_string_equal(names[1].asString().c_str(), "v11");
  assert_string_equal(names[2].asString().c_str(), "v3");
  // An id past the graph's compute sets has no variables.
  assert_true(vars.ids(99).empty());
}

void test_many_variables_many_compute_sets(void **) {
  // 1,000,000 variables and 20,000 compute sets of one vertex each: per compute set, a pass over every variable's
  // flag is 2 * 10^10 steps (and 20 GB of allocation); the edges are 40,000. A bound of seconds separates the two
  // by three orders of magnitude, also under the sanitizers on a loaded machine.
  constexpr std::size_t kVars = 1000000;
  constexpr unsigned kComputeSets = 20000;
  auto g = graphOf(kVars);
  for (unsigned i = 0; i < kComputeSets; ++i)
    addComputeSet(*g, {unsigned((std::size_t(i) * 7919) % kVars)}, {unsigned(kVars - 1 - i)});
  auto start = std::chrono::steady_clock::now();
  ComputeSetVariables vars(*g);
  for (unsigned cs = 0; cs < kComputeSets; ++cs) {
    const auto &ids = vars.ids(cs);
    assert_int_equal(ids.size(), 2);
    assert_true(ids.count((std::size_t(cs) * 7919) % kVars) == 1);
    assert_true(ids.count(kVars - 1 - cs) == 1);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  print_message("20,000 compute sets over 1,000,000 variables: %.3f s\n", seconds);
  assert_true(seconds < 5.0);
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ids_and_names),
      cmocka_unit_test(test_many_variables_many_compute_sets),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
