// gcl collectives across 4 replicas (one IPU each) of a tiny IPU Model: all-reduce with every operator,
// all-gather, reduce-scatter of 6 elements (not a multiple of 4: the last replica's part is padding), broadcast,
// in place and to a destination, each against a host reference of every replica's data.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "gcl/Collectives.hpp"
#include "poplar/Engine.hpp"
#include "poplar/IPUModel.hpp"
#include "popops/codelets.hpp"
#include "poputil/exceptions.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

using namespace poplar;
using namespace poplar::program;

namespace {

const unsigned kReplicas = 4;
const std::size_t kN = 6;

float fIn(unsigned r, std::size_t i) { return float(r + 1) + 0.5f * float(i); }
int iIn(unsigned r, std::size_t i) { return int(r) * 10 - int(i); }
bool bIn(unsigned r, std::size_t i) { return (r + i) % 3 != 0 || i == 5; }

/// One output of the program: a device-to-host stream per replica, and what each replica must receive.
struct Check {
  std::string name;
  std::size_t elements;
  Type type;
  std::function<double(unsigned replica, std::size_t i)> expect;
};

double fold(std::function<double(double, double)> f, std::function<double(unsigned)> value) {
  double acc = value(0);
  for (unsigned r = 1; r < kReplicas; ++r)
    acc = f(acc, value(r));
  return acc;
}

void test_collectives(void **) {
  IPUModel model("tiny");
  model.numIPUs = kReplicas;
  model.memoryPerTile = 256 * 1024;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(kReplicas));
  popops::addCodelets(graph);
  Tensor f = graph.addLinearlyMappedVariable(FLOAT, {kN}, "f");
  Tensor in = graph.addLinearlyMappedVariable(INT, {kN}, "i");
  Tensor b = graph.addLinearlyMappedVariable(BOOL, {kN}, "b");
  Sequence prog(Copy(graph.addHostToDeviceFIFO("f", FLOAT, kN), f), Copy(graph.addHostToDeviceFIFO("i", INT, kN), in),
                Copy(graph.addHostToDeviceFIFO("b", BOOL, kN), b));
  std::vector<Check> checks;
  auto output = [&](const std::string &name, const Tensor &t, std::function<double(unsigned, std::size_t)> expect) {
    prog.add(Copy(t, graph.addDeviceToHostFIFO(name, t.elementType(), t.numElements())));
    checks.push_back(Check{name, t.numElements(), t.elementType(), expect});
  };
  using gcl::CollectiveOperator;
  auto sum = [](double a, double c) { return a + c; };
  auto fAt = [](std::size_t i) { return [i](unsigned r) { return double(fIn(r, i)); }; };
  output("add", gcl::allReduceWithOutput(graph, f, CollectiveOperator::ADD, prog),
         [&](unsigned, std::size_t i) { return fold(sum, fAt(i)); });
  output("mean", gcl::allReduceWithOutput(graph, f, CollectiveOperator::MEAN, prog),
         [&](unsigned, std::size_t i) { return fold(sum, fAt(i)) / kReplicas; });
  output("mul", gcl::allReduceWithOutput(graph, f, CollectiveOperator::MUL, prog),
         [&](unsigned, std::size_t i) { return fold([](double a, double c) { return a * c; }, fAt(i)); });
  output("min", gcl::allReduceWithOutput(graph, in, CollectiveOperator::MIN, prog),
         [&](unsigned, std::size_t i) {
           return fold([](double a, double c) { return std::min(a, c); }, [i](unsigned r) { return double(iIn(r, i)); });
         });
  output("max", gcl::allReduceWithOutput(graph, f, CollectiveOperator::MAX, prog),
         [&](unsigned, std::size_t i) { return fold([](double a, double c) { return std::max(a, c); }, fAt(i)); });
  output("square_add", gcl::allReduceWithOutput(graph, f, CollectiveOperator::SQUARE_ADD, prog),
         [&](unsigned, std::size_t i) {
           return fold(sum, [i](unsigned r) { return double(fIn(r, i)) * double(fIn(r, i)); });
         });
  output("and", gcl::allReduceWithOutput(graph, b, CollectiveOperator::LOGICAL_AND, prog),
         [&](unsigned, std::size_t i) {
           return fold([](double a, double c) { return double(a != 0 && c != 0); }, [i](unsigned r) { return double(bIn(r, i)); });
         });
  output("or", gcl::allReduceWithOutput(graph, b, CollectiveOperator::LOGICAL_OR, prog),
         [&](unsigned, std::size_t i) {
           return fold([](double a, double c) { return double(a != 0 || c != 0); }, [i](unsigned r) { return double(bIn(r, i)); });
         });
  output("local", gcl::allReduceWithOutput(graph, in, CollectiveOperator::LOCAL, prog),
         [&](unsigned r, std::size_t i) { return double(iIn(r, i)); });
  output("gather", gcl::allGatherWithOutput(graph, in, prog),
         [&](unsigned, std::size_t j) { return double(iIn(unsigned(j / kN), j % kN)); });
  output("scatter", gcl::reduceScatterWithOutput(graph, in, CollectiveOperator::ADD, prog),
         [&](unsigned r, std::size_t i) {
           const std::size_t at = r * 2 + i; // ceil(6 / 4) = 2 elements per replica
           return at < kN ? fold(sum, [at](unsigned q) { return double(iIn(q, at)); }) : 0.0;
         });
  output("broadcast", gcl::broadcastWithOutput(graph, f, prog, 2),
         [&](unsigned, std::size_t i) { return double(fIn(2, i)); });
  Tensor dest = graph.clone(in, "dest");
  gcl::allReduceToDestination(graph, in, dest, CollectiveOperator::ADD, prog);
  output("destination", dest, [&](unsigned, std::size_t i) {
    return fold(sum, [i](unsigned r) { return double(iIn(r, i)); });
  });
  gcl::allReduceInPlace(graph, f, CollectiveOperator::MIN, prog);
  output("in_place", f, [&](unsigned, std::size_t i) {
    return fold([](double a, double c) { return std::min(a, c); }, fAt(i));
  });

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<std::vector<float>> fData(kReplicas, std::vector<float>(kN));
  std::vector<std::vector<int>> iData(kReplicas, std::vector<int>(kN));
  std::vector<std::vector<std::uint8_t>> bData(kReplicas, std::vector<std::uint8_t>(kN));
  for (unsigned r = 0; r < kReplicas; ++r) {
    for (std::size_t i = 0; i < kN; ++i) {
      fData[r][i] = fIn(r, i);
      iData[r][i] = iIn(r, i);
      bData[r][i] = bIn(r, i);
    }
    engine.connectStream("f", r, fData[r].data());
    engine.connectStream("i", r, iData[r].data());
    engine.connectStream("b", r, bData[r].data());
  }
  // Each output's bytes per replica (4-byte float/int, 1-byte bool).
  std::vector<std::vector<std::vector<std::uint8_t>>> results(checks.size());
  for (std::size_t c = 0; c < checks.size(); ++c) {
    results[c].assign(kReplicas, std::vector<std::uint8_t>(checks[c].elements * checks[c].type.getSize()));
    for (unsigned r = 0; r < kReplicas; ++r)
      engine.connectStream(checks[c].name, r, results[c][r].data());
  }
  engine.run(0);
  unsigned bad = 0;
  for (std::size_t c = 0; c < checks.size(); ++c)
    for (unsigned r = 0; r < kReplicas; ++r)
      for (std::size_t i = 0; i < checks[c].elements; ++i) {
        const std::uint8_t *p = results[c][r].data() + i * checks[c].type.getSize();
        double got;
        if (checks[c].type == FLOAT) {
          float v;
          std::memcpy(&v, p, 4);
          got = v;
        } else if (checks[c].type == INT) {
          int v;
          std::memcpy(&v, p, 4);
          got = v;
        } else {
          got = *p != 0;
        }
        const double want = checks[c].expect(r, i);
        if (got != want) {
          print_error("%s, replica %u, element %zu: got %g, expected %g\n", checks[c].name.c_str(), r, i, got, want);
          ++bad;
        }
      }
  print_message("%zu collectives checked in %u replicas, %llu cycles\n", checks.size(), kReplicas,
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
