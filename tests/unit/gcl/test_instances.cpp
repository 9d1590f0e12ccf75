// gcl collectives over 4 replicas, run as 1 instance x 4 replicas, or under poprun as 2 x 2 and 4 x 1: every
// collective, every reduction operator, 6 elements (not a multiple of 4). Each run checks its results against a
// host reference; the 1-instance run (`--write FILE`) saves every global replica's result bytes and the runs under
// poprun (`--compare FILE`) must match them bit for bit, float sums included: the data are chosen so that the
// order of the float additions changes the result.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "gcl/Collectives.hpp"
#include "popdist/popdist_poplar.hpp"
#include "poplar/Engine.hpp"
#include "poplar/IPUModel.hpp"
#include "popops/codelets.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

using namespace poplar;
using namespace poplar::program;

namespace {

const unsigned kTotal = 4; ///< replicas of the whole run, in every configuration
const std::size_t kN = 6;
std::string gMode, gFile; ///< "--write" or "--compare", and the reference file

/// Float data whose sums round differently in different orders (large and small magnitudes mixed).
float fIn(unsigned g, std::size_t i) {
  const float big[] = {16777216.0f, -3.0e7f, 0.3f, 1.0e-3f};
  return big[(g + i) % 4] * (1.0f + 0.1f * float(i)) + 0.7f * float(g);
}
int iIn(unsigned g, std::size_t i) { return int(g) * 10 - int(i); }
bool bIn(unsigned g, std::size_t i) { return (g + i) % 3 != 0 || i == 5; }

struct Check {
  std::string name;
  std::size_t elements;
  Type type;
  std::function<double(unsigned global, std::size_t i)> expect;
  double tolerance; ///< relative, for float reductions whose order the host reference does not follow
};

double fold(std::function<double(double, double)> f, std::function<double(unsigned)> value) {
  double acc = value(0);
  for (unsigned g = 1; g < kTotal; ++g)
    acc = f(acc, value(g));
  return acc;
}

void test_instances(void **) {
  const unsigned local = popdist::isPopdistEnvSet() ? popdist::getNumLocalReplicas() : kTotal;
  const unsigned offset = popdist::getReplicaIndexOffset();
  assert_int_equal(popdist::isPopdistEnvSet() ? popdist::getNumTotalReplicas() : kTotal, kTotal);
  IPUModel model("tiny");
  model.numIPUs = local;
  model.memoryPerTile = 256 * 1024;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(local));
  popops::addCodelets(graph);
  Tensor f = graph.addLinearlyMappedVariable(FLOAT, {kN}, "f");
  Tensor in = graph.addLinearlyMappedVariable(INT, {kN}, "i");
  Tensor b = graph.addLinearlyMappedVariable(BOOL, {kN}, "b");
  Sequence prog(Copy(graph.addHostToDeviceFIFO("f", FLOAT, kN), f), Copy(graph.addHostToDeviceFIFO("i", INT, kN), in),
                Copy(graph.addHostToDeviceFIFO("b", BOOL, kN), b));
  std::vector<Check> checks;
  auto output = [&](const std::string &name, const Tensor &t, std::function<double(unsigned, std::size_t)> expect,
                    double tolerance = 0) {
    prog.add(Copy(t, graph.addDeviceToHostFIFO(name, t.elementType(), t.numElements())));
    checks.push_back(Check{name, t.numElements(), t.elementType(), expect, tolerance});
  };
  using gcl::CollectiveOperator;
  auto sum = [](double a, double c) { return a + c; };
  auto fAt = [](std::size_t i) { return [i](unsigned g) { return double(fIn(g, i)); }; };
  auto iAt = [](std::size_t i) { return [i](unsigned g) { return double(iIn(g, i)); }; };
  auto bAt = [](std::size_t i) { return [i](unsigned g) { return double(bIn(g, i)); }; };
  auto mn = [](double a, double c) { return std::min(a, c); };
  auto mx = [](double a, double c) { return std::max(a, c); };
  const double loose = 1e-6;
  output("add", gcl::allReduceWithOutput(graph, f, CollectiveOperator::ADD, prog),
         [&](unsigned, std::size_t i) { return fold(sum, fAt(i)); }, loose);
  output("mean", gcl::allReduceWithOutput(graph, f, CollectiveOperator::MEAN, prog),
         [&](unsigned, std::size_t i) { return fold(sum, fAt(i)) / kTotal; }, loose);
  output("mul", gcl::allReduceWithOutput(graph, f, CollectiveOperator::MUL, prog),
         [&](unsigned, std::size_t i) { return fold([](double a, double c) { return a * c; }, fAt(i)); }, loose);
  output("min", gcl::allReduceWithOutput(graph, f, CollectiveOperator::MIN, prog),
         [&](unsigned, std::size_t i) { return fold(mn, fAt(i)); });
  output("max", gcl::allReduceWithOutput(graph, in, CollectiveOperator::MAX, prog),
         [&](unsigned, std::size_t i) { return fold(mx, iAt(i)); });
  output("square_add", gcl::allReduceWithOutput(graph, f, CollectiveOperator::SQUARE_ADD, prog),
         [&](unsigned, std::size_t i) {
           return fold(sum, [i](unsigned g) { return double(fIn(g, i)) * double(fIn(g, i)); });
         }, loose);
  output("add_int", gcl::allReduceWithOutput(graph, in, CollectiveOperator::ADD, prog),
         [&](unsigned, std::size_t i) { return fold(sum, iAt(i)); });
  output("and", gcl::allReduceWithOutput(graph, b, CollectiveOperator::LOGICAL_AND, prog),
         [&](unsigned, std::size_t i) {
           return fold([](double a, double c) { return double(a != 0 && c != 0); }, bAt(i));
         });
  output("or", gcl::allReduceWithOutput(graph, b, CollectiveOperator::LOGICAL_OR, prog),
         [&](unsigned, std::size_t i) {
           return fold([](double a, double c) { return double(a != 0 || c != 0); }, bAt(i));
         });
  output("local", gcl::allReduceWithOutput(graph, in, CollectiveOperator::LOCAL, prog),
         [&](unsigned g, std::size_t i) { return double(iIn(g, i)); });
  output("gather", gcl::allGatherWithOutput(graph, f, prog),
         [&](unsigned, std::size_t j) { return double(fIn(unsigned(j / kN), j % kN)); });
  output("scatter", gcl::reduceScatterWithOutput(graph, f, CollectiveOperator::ADD, prog),
         [&](unsigned g, std::size_t i) {
           const std::size_t at = g * 2 + i; // ceil(6 / 4) = 2 elements per replica; global replica 3 gets padding
           return at < kN ? fold(sum, fAt(at)) : 0.0;
         }, loose);
  output("broadcast", gcl::broadcastWithOutput(graph, f, prog, 2),
         [&](unsigned, std::size_t i) { return double(fIn(2, i)); });
  Tensor dest = graph.clone(in, "dest");
  gcl::allReduceToDestination(graph, in, dest, CollectiveOperator::MIN, prog);
  output("destination", dest, [&](unsigned, std::size_t i) { return fold(mn, iAt(i)); });
  gcl::allReduceInPlace(graph, f, CollectiveOperator::ADD, prog);
  output("in_place", f, [&](unsigned, std::size_t i) { return fold(sum, fAt(i)); }, loose);

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<std::vector<float>> fData(local, std::vector<float>(kN));
  std::vector<std::vector<int>> iData(local, std::vector<int>(kN));
  std::vector<std::vector<std::uint8_t>> bData(local, std::vector<std::uint8_t>(kN));
  for (unsigned r = 0; r < local; ++r) {
    for (std::size_t i = 0; i < kN; ++i) {
      fData[r][i] = fIn(offset + r, i);
      iData[r][i] = iIn(offset + r, i);
      bData[r][i] = bIn(offset + r, i);
    }
    engine.connectStream("f", r, fData[r].data());
    engine.connectStream("i", r, iData[r].data());
    engine.connectStream("b", r, bData[r].data());
  }
  std::vector<std::vector<std::uint8_t>> bytes(local); // per local replica: every output, in order
  std::vector<std::vector<std::vector<std::uint8_t>>> results(checks.size());
  for (std::size_t c = 0; c < checks.size(); ++c) {
    results[c].assign(local, std::vector<std::uint8_t>(checks[c].elements * checks[c].type.getSize()));
    for (unsigned r = 0; r < local; ++r)
      engine.connectStream(checks[c].name, r, results[c][r].data());
  }
  engine.run(0);
  unsigned bad = 0;
  for (std::size_t c = 0; c < checks.size(); ++c)
    for (unsigned r = 0; r < local; ++r) {
      bytes[r].insert(bytes[r].end(), results[c][r].begin(), results[c][r].end());
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
        const double want = checks[c].expect(offset + r, i);
        if (std::fabs(got - want) > checks[c].tolerance * std::max(1.0, std::fabs(want) * 4)) {
          print_error("%s, global replica %u, element %zu: got %.9g, expected %.9g\n", checks[c].name.c_str(),
                      offset + r, i, got, want);
          ++bad;
        }
      }
    }
  assert_int_equal(bad, 0);
  const std::size_t rowBytes = bytes[0].size();
  if (gMode == "--write") {
    std::ofstream out(gFile, std::ios::binary);
    for (unsigned r = 0; r < local; ++r)
      out.write(reinterpret_cast<const char *>(bytes[r].data()), std::streamsize(rowBytes));
    assert_true(bool(out));
    print_message("%zu collectives checked in %u replicas; reference written to %s\n", checks.size(), local,
                  gFile.c_str());
  } else if (gMode == "--compare") {
    std::ifstream inFile(gFile, std::ios::binary);
    std::vector<std::uint8_t> ref((std::istreambuf_iterator<char>(inFile)), std::istreambuf_iterator<char>());
    if (ref.size() != rowBytes * kTotal)
      fail_msg("reference %s has %zu bytes, expected %zu; run the 1-instance test (gcl_instances_reference) first",
               gFile.c_str(), ref.size(), rowBytes * kTotal);
    for (unsigned r = 0; r < local; ++r) {
      const std::uint8_t *want = ref.data() + std::size_t(offset + r) * rowBytes;
      std::size_t at = 0, c = 0;
      for (; c < checks.size(); ++c) {
        const std::size_t n = results[c][r].size();
        if (std::memcmp(results[c][r].data(), want + at, n) != 0) {
          print_error("%s of global replica %u differs from the 1-instance run's bits\n", checks[c].name.c_str(),
                      offset + r);
          ++bad;
        }
        at += n;
      }
    }
    assert_int_equal(bad, 0);
    print_message("instance %u: %zu collectives bit-identical to the 1-instance run for replicas %u..%u\n",
                  popdist::getInstanceIndex(), checks.size(), offset, offset + local - 1);
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 3 && (std::string(argv[1]) == "--write" || std::string(argv[1]) == "--compare")) {
    gMode = argv[1];
    gFile = argv[2];
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--write FILE | --compare FILE]\n", argv[0]);
    return 2;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_instances),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
