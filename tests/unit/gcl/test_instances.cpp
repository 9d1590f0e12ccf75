// gcl collectives over 4 replicas, run as 1 instance x 4 replicas, or under poprun as 2 x 2 and 4 x 1: every
// collective, every reduction operator, 6 elements (not a multiple of 4). Each run checks its results against a
// host reference; the 1-instance run (`--write FILE`) saves every global replica's result bytes and the runs under
// poprun (`--compare FILE`) must match them bit for bit, float sums included: the data are chosen so that the
// order of the float additions changes the result.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "collective_checks.hpp"
#include "gcl/Collectives.hpp"
#include "popdist/popdist_poplar.hpp"
#include "poplar/Engine.hpp"
#include "poplar/IPUModel.hpp"
#include "popops/codelets.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace gcltest;

namespace {

std::string gMode, gFile; ///< "--write" or "--compare", and the reference file

/// The float input: sums whose order matters, so that the bit-for-bit comparison sees a changed fold order.
float fIn(unsigned g, std::size_t i) { return orderSensitiveF(g, i); }

void test_instances(void **) {
  const unsigned local = popdist::isPopdistEnvSet() ? popdist::getNumLocalReplicas() : kReplicas;
  const unsigned offset = popdist::getReplicaIndexOffset();
  assert_int_equal(popdist::isPopdistEnvSet() ? popdist::getNumTotalReplicas() : kReplicas, kReplicas);
  IPUModel model("tiny");
  model.numIPUs = local;
  model.memoryPerTile = 256 * 1024;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(local));
  popops::addCodelets(graph);
  CollectiveProgram p(graph, fIn);
  Sequence &prog = p.prog;
  using gcl::CollectiveOperator;
  auto sum = [](double a, double c) { return a + c; };
  auto fAt = [](std::size_t i) { return [i](unsigned g) { return double(fIn(g, i)); }; };
  auto iAt = [](std::size_t i) { return [i](unsigned g) { return double(iIn(g, i)); }; };
  auto bAt = [](std::size_t i) { return [i](unsigned g) { return double(bIn(g, i)); }; };
  auto mn = [](double a, double c) { return std::min(a, c); };
  auto mx = [](double a, double c) { return std::max(a, c); };
  const double loose = 1e-6; // float reductions: the host reference adds in double
  p.output("add", gcl::allReduceWithOutput(graph, p.f, CollectiveOperator::ADD, prog),
           [&](unsigned, std::size_t i) { return fold(sum, fAt(i)); }, loose);
  p.output("mean", gcl::allReduceWithOutput(graph, p.f, CollectiveOperator::MEAN, prog),
           [&](unsigned, std::size_t i) { return fold(sum, fAt(i)) / kReplicas; }, loose);
  p.output("mul", gcl::allReduceWithOutput(graph, p.f, CollectiveOperator::MUL, prog),
           [&](unsigned, std::size_t i) { return fold([](double a, double c) { return a * c; }, fAt(i)); }, loose);
  p.output("min", gcl::allReduceWithOutput(graph, p.f, CollectiveOperator::MIN, prog),
           [&](unsigned, std::size_t i) { return fold(mn, fAt(i)); });
  p.output("max", gcl::allReduceWithOutput(graph, p.in, CollectiveOperator::MAX, prog),
           [&](unsigned, std::size_t i) { return fold(mx, iAt(i)); });
  p.output("square_add", gcl::allReduceWithOutput(graph, p.f, CollectiveOperator::SQUARE_ADD, prog),
           [&](unsigned, std::size_t i) {
             return fold(sum, [i](unsigned g) { return double(fIn(g, i)) * double(fIn(g, i)); });
           }, loose);
  p.output("add_int", gcl::allReduceWithOutput(graph, p.in, CollectiveOperator::ADD, prog),
           [&](unsigned, std::size_t i) { return fold(sum, iAt(i)); });
  p.output("and", gcl::allReduceWithOutput(graph, p.b, CollectiveOperator::LOGICAL_AND, prog),
           [&](unsigned, std::size_t i) {
             return fold([](double a, double c) { return double(a != 0 && c != 0); }, bAt(i));
           });
  p.output("or", gcl::allReduceWithOutput(graph, p.b, CollectiveOperator::LOGICAL_OR, prog),
           [&](unsigned, std::size_t i) {
             return fold([](double a, double c) { return double(a != 0 || c != 0); }, bAt(i));
           });
  p.output("local", gcl::allReduceWithOutput(graph, p.in, CollectiveOperator::LOCAL, prog),
           [&](unsigned g, std::size_t i) { return double(iIn(g, i)); });
  p.output("gather", gcl::allGatherWithOutput(graph, p.f, prog),
           [&](unsigned, std::size_t j) { return double(fIn(unsigned(j / kN), j % kN)); });
  p.output("scatter", gcl::reduceScatterWithOutput(graph, p.f, CollectiveOperator::ADD, prog),
           [&](unsigned g, std::size_t i) {
             const std::size_t at = g * 2 + i; // ceil(6 / 4) = 2 elements per replica; global replica 3 gets padding
             return at < kN ? fold(sum, fAt(at)) : 0.0;
           }, loose);
  p.output("broadcast", gcl::broadcastWithOutput(graph, p.f, prog, 2),
           [&](unsigned, std::size_t i) { return double(fIn(2, i)); });
  Tensor dest = graph.clone(p.in, "dest");
  gcl::allReduceToDestination(graph, p.in, dest, CollectiveOperator::MIN, prog);
  p.output("destination", dest, [&](unsigned, std::size_t i) { return fold(mn, iAt(i)); });
  gcl::allReduceInPlace(graph, p.f, CollectiveOperator::ADD, prog);
  p.output("in_place", p.f, [&](unsigned, std::size_t i) { return fold(sum, fAt(i)); }, loose);

  Engine engine(graph, prog);
  engine.load(device);
  p.connect(engine, local, offset);
  engine.run(0);
  unsigned bad = p.mismatches();
  std::vector<std::vector<std::uint8_t>> bytes(local); // per local replica: every output, in order
  for (unsigned r = 0; r < local; ++r)
    for (std::size_t c = 0; c < p.size(); ++c)
      bytes[r].insert(bytes[r].end(), p.bytes(c, r).begin(), p.bytes(c, r).end());
  assert_int_equal(bad, 0);
  const std::size_t rowBytes = bytes[0].size();
  if (gMode == "--write") {
    std::ofstream out(gFile, std::ios::binary);
    for (unsigned r = 0; r < local; ++r)
      out.write(reinterpret_cast<const char *>(bytes[r].data()), std::streamsize(rowBytes));
    assert_true(bool(out));
    print_message("%zu collectives checked in %u replicas; reference written to %s\n", p.size(), local,
                  gFile.c_str());
  } else if (gMode == "--compare") {
    std::ifstream inFile(gFile, std::ios::binary);
    std::vector<std::uint8_t> ref((std::istreambuf_iterator<char>(inFile)), std::istreambuf_iterator<char>());
    if (ref.size() != rowBytes * kReplicas)
      fail_msg("reference %s has %zu bytes, expected %zu; run the 1-instance test (gcl_instances_reference) first",
               gFile.c_str(), ref.size(), rowBytes * kReplicas);
    for (unsigned r = 0; r < local; ++r) {
      const std::uint8_t *want = ref.data() + std::size_t(offset + r) * rowBytes;
      std::size_t at = 0, c = 0;
      for (; c < p.size(); ++c) {
        const std::size_t n = p.bytes(c, r).size();
        if (std::memcmp(p.bytes(c, r).data(), want + at, n) != 0) {
          print_error("%s of global replica %u differs from the 1-instance run's bits\n", p.check(c).name.c_str(),
                      offset + r);
          ++bad;
        }
        at += n;
      }
    }
    assert_int_equal(bad, 0);
    print_message("instance %u: %zu collectives bit-identical to the 1-instance run for replicas %u..%u\n",
                  popdist::getInstanceIndex(), p.size(), offset, offset + local - 1);
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
