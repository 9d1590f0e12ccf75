// gcl collectives across 4 replicas (one IPU each) of a tiny IPU Model: all-reduce with every operator,
// all-gather, reduce-scatter of 6 elements (not a multiple of 4: the last replica's part is padding), broadcast,
// in place and to a destination, each against a host reference of every replica's data.
#include <algorithm>
#include <string>

#include "collective_checks.hpp"
#include "gcl/Collectives.hpp"
#include "poplar/Engine.hpp"
#include "poplar/IPUModel.hpp"
#include "popops/codelets.hpp"
#include "poputil/exceptions.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace gcltest;

namespace {

/// Float data whose sums and products are exact in any order.
float fIn(unsigned r, std::size_t i) { return float(r + 1) + 0.5f * float(i); }

void test_collectives(void **) {
  IPUModel model("tiny");
  model.numIPUs = kReplicas;
  model.memoryPerTile = 256 * 1024;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(kReplicas));
  popops::addCodelets(graph);
  CollectiveProgram p(graph, fIn);
  Sequence &prog = p.prog;
  using gcl::CollectiveOperator;
  auto sum = [](double a, double c) { return a + c; };
  auto fAt = [](std::size_t i) { return [i](unsigned r) { return double(fIn(r, i)); }; };
  auto iAt = [](std::size_t i) { return [i](unsigned r) { return double(iIn(r, i)); }; };
  auto bAt = [](std::size_t i) { return [i](unsigned r) { return double(bIn(r, i)); }; };
  p.output("add", gcl::allReduceWithOutput(graph, p.f, CollectiveOperator::ADD, prog),
           [&](unsigned, std::size_t i) { return fold(sum, fAt(i)); });
  p.output("mean", gcl::allReduceWithOutput(graph, p.f, CollectiveOperator::MEAN, prog),
           [&](unsigned, std::size_t i) { return fold(sum, fAt(i)) / kReplicas; });
  p.output("mul", gcl::allReduceWithOutput(graph, p.f, CollectiveOperator::MUL, prog),
           [&](unsigned, std::size_t i) { return fold([](double a, double c) { return a * c; }, fAt(i)); });
  p.output("min", gcl::allReduceWithOutput(graph, p.in, CollectiveOperator::MIN, prog),
           [&](unsigned, std::size_t i) { return fold([](double a, double c) { return std::min(a, c); }, iAt(i)); });
  p.output("max", gcl::allReduceWithOutput(graph, p.f, CollectiveOperator::MAX, prog),
           [&](unsigned, std::size_t i) { return fold([](double a, double c) { return std::max(a, c); }, fAt(i)); });
  p.output("square_add", gcl::allReduceWithOutput(graph, p.f, CollectiveOperator::SQUARE_ADD, prog),
           [&](unsigned, std::size_t i) {
             return fold(sum, [i](unsigned r) { return double(fIn(r, i)) * double(fIn(r, i)); });
           });
  p.output("and", gcl::allReduceWithOutput(graph, p.b, CollectiveOperator::LOGICAL_AND, prog),
           [&](unsigned, std::size_t i) {
             return fold([](double a, double c) { return double(a != 0 && c != 0); }, bAt(i));
           });
  p.output("or", gcl::allReduceWithOutput(graph, p.b, CollectiveOperator::LOGICAL_OR, prog),
           [&](unsigned, std::size_t i) {
             return fold([](double a, double c) { return double(a != 0 || c != 0); }, bAt(i));
           });
  p.output("local", gcl::allReduceWithOutput(graph, p.in, CollectiveOperator::LOCAL, prog),
           [&](unsigned r, std::size_t i) { return double(iIn(r, i)); });
  p.output("gather", gcl::allGatherWithOutput(graph, p.in, prog),
           [&](unsigned, std::size_t j) { return double(iIn(unsigned(j / kN), j % kN)); });
  p.output("scatter", gcl::reduceScatterWithOutput(graph, p.in, CollectiveOperator::ADD, prog),
           [&](unsigned r, std::size_t i) {
             const std::size_t at = r * 2 + i; // ceil(6 / 4) = 2 elements per replica
             return at < kN ? fold(sum, iAt(at)) : 0.0;
           });
  p.output("broadcast", gcl::broadcastWithOutput(graph, p.f, prog, 2),
           [&](unsigned, std::size_t i) { return double(fIn(2, i)); });
  Tensor dest = graph.clone(p.in, "dest");
  gcl::allReduceToDestination(graph, p.in, dest, CollectiveOperator::ADD, prog);
  p.output("destination", dest, [&](unsigned, std::size_t i) { return fold(sum, iAt(i)); });
  gcl::allReduceInPlace(graph, p.f, CollectiveOperator::MIN, prog);
  p.output("in_place", p.f, [&](unsigned, std::size_t i) {
    return fold([](double a, double c) { return std::min(a, c); }, fAt(i));
  });

  Engine engine(graph, prog);
  engine.load(device);
  p.connect(engine, kReplicas, 0);
  engine.run(0);
  const unsigned bad = p.mismatches();
  print_message("%zu collectives checked in %u replicas, %llu cycles\n", p.size(), kReplicas,
                (unsigned long long)engine.getLastRunCycles());
  assert_int_equal(bad, 0);
}

void test_errors(void **) {
  IPUModel model("tiny");
  model.numIPUs = 2;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(2));
  Tensor t = graph.addLinearlyMappedVariable(INT, {4}, "t");
  Sequence prog;
  bool threw = false;
  try {
    gcl::broadcastWithOutput(graph, t, prog, 2);
  } catch (const poputil::poplibs_error &e) {
    threw = std::string(e.what()).find("root replica 2 does not exist") != std::string::npos;
  }
  assert_true(threw);
  threw = false;
  try {
    gcl::allReduceWithOutput(graph, t, gcl::CollectiveOperator::MEAN, prog);
  } catch (const poputil::poplibs_error &e) {
    threw = std::string(e.what()).find("MEAN takes FLOAT or HALF") != std::string::npos;
  }
  assert_true(threw);
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_collectives),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
