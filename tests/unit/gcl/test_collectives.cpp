// gcl collectives across 4 replicas (one IPU each) of a tiny IPU Model: all-reduce with every operator,
// all-gather, reduce-scatter of 6 elements (not a multiple of 4: the last replica's part is padding), broadcast,
// in place and to a destination, each against a host reference of every replica's data; and gcl's fold exported
// for programs (gcl/FoldOrder.hpp) against allReduce, bit for bit.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "collective_checks.hpp"
#include "gcl/Collectives.hpp"
#include "gcl/FoldOrder.hpp"
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

/// gcl::foldInReplicaOrder (gcl/FoldOrder.hpp) is the fold gcl's reductions use: the kReplicas parts folded in one
/// replica give, bit for bit, what allReduce gives over kReplicas replicas each holding one part, with data whose
/// float sums depend on the order (so a fold in another order would not match: checked on the host below).
void test_fold_in_replica_order(void **) {
  IPUModel model("tiny");
  model.numIPUs = kReplicas;
  model.memoryPerTile = 256 * 1024;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(kReplicas));
  popops::addCodelets(graph);
  Tensor mine = graph.addLinearlyMappedVariable(FLOAT, {kN}, "mine");   // global replica r's part r
  Tensor all = graph.addLinearlyMappedVariable(FLOAT, {kReplicas, kN}, "all"); // every part, in every replica
  Sequence prog(Copy(graph.addHostToDeviceFIFO("mine", FLOAT, kN), mine),
                Copy(graph.addHostToDeviceFIFO("all", FLOAT, kReplicas * kN), all));
  std::vector<Tensor> parts;
  for (unsigned g = 0; g < kReplicas; ++g)
    parts.push_back(all[g]);
  const gcl::CollectiveOperator ops[] = {gcl::CollectiveOperator::ADD, gcl::CollectiveOperator::MEAN,
                                         gcl::CollectiveOperator::SQUARE_ADD};
  const unsigned kOps = 3;
  for (unsigned o = 0; o < kOps; ++o) {
    Tensor reduced = gcl::allReduceWithOutput(graph, mine, ops[o], prog);
    Tensor folded = gcl::foldInReplicaOrder(graph, parts, ops[o], prog, "fold");
    prog.add(Copy(reduced, graph.addDeviceToHostFIFO("reduced" + std::to_string(o), FLOAT, kN)));
    prog.add(Copy(folded, graph.addDeviceToHostFIFO("folded" + std::to_string(o), FLOAT, kN)));
  }
  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> allData(kReplicas * kN);
  for (unsigned g = 0; g < kReplicas; ++g)
    for (std::size_t i = 0; i < kN; ++i)
      allData[g * kN + i] = orderSensitiveF(g, i);
  std::vector<std::vector<float>> reduced(kOps * kReplicas, std::vector<float>(kN)),
      folded(kOps * kReplicas, std::vector<float>(kN));
  for (unsigned r = 0; r < kReplicas; ++r) {
    engine.connectStream("mine", r, &allData[r * kN]);
    engine.connectStream("all", r, allData.data());
    for (unsigned o = 0; o < kOps; ++o) {
      engine.connectStream("reduced" + std::to_string(o), r, reduced[o * kReplicas + r].data());
      engine.connectStream("folded" + std::to_string(o), r, folded[o * kReplicas + r].data());
    }
  }
  engine.run(0);
  unsigned bad = 0;
  for (unsigned k = 0; k < kOps * kReplicas; ++k)
    if (std::memcmp(reduced[k].data(), folded[k].data(), kN * sizeof(float)) != 0) {
      print_error("operator %u, replica %u: foldInReplicaOrder's bits differ from allReduceWithOutput's\n",
                  k / kReplicas, k % kReplicas);
      ++bad;
    }
  // The device's ADD is the host's float fold in replica order, and the reverse order gives other bits.
  unsigned orderMatters = 0;
  for (std::size_t i = 0; i < kN; ++i) {
    float forward = allData[i], backward = allData[(kReplicas - 1) * kN + i];
    for (unsigned g = 1; g < kReplicas; ++g) {
      forward += allData[g * kN + i];
      backward += allData[(kReplicas - 1 - g) * kN + i];
    }
    if (std::memcmp(&forward, &folded[0][i], sizeof(float)) != 0) {
      print_error("element %zu: the fold gave %.9g, the host's fold in replica order %.9g\n", i, folded[0][i],
                  forward);
      ++bad;
    }
    orderMatters += std::memcmp(&forward, &backward, sizeof(float)) != 0;
  }
  assert_int_equal(bad, 0);
  assert_true(orderMatters > 0);
  print_message("foldInReplicaOrder == allReduce bit for bit (ADD, MEAN, SQUARE_ADD); the reverse order differs in "
                "%u of %zu elements\n", orderMatters, kN);
}

/// foldInReplicaOrder refuses what it cannot fold, naming the problem.
void test_fold_errors(void **) {
  IPUModel model("tiny");
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor a = graph.addLinearlyMappedVariable(FLOAT, {4}, "a");
  Tensor b = graph.addLinearlyMappedVariable(FLOAT, {5}, "b");
  Tensor n = graph.addLinearlyMappedVariable(INT, {4}, "n");
  Sequence prog;
  auto message = [&](std::vector<Tensor> parts, gcl::CollectiveOperator op) {
    try {
      gcl::foldInReplicaOrder(graph, parts, op, prog);
    } catch (const poputil::poplibs_error &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  using gcl::CollectiveOperator;
  assert_true(message({}, CollectiveOperator::ADD).find("no parts to fold") != std::string::npos);
  assert_true(message({a, b}, CollectiveOperator::ADD).find("part 1 differs from part 0") != std::string::npos);
  assert_true(message({a, a}, CollectiveOperator::LOCAL).find("LOCAL is no reduction") != std::string::npos);
  assert_true(message({n, n}, CollectiveOperator::MEAN).find("MEAN takes FLOAT or HALF") != std::string::npos);
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
      cmocka_unit_test(test_fold_in_replica_order),
      cmocka_unit_test(test_fold_errors),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
