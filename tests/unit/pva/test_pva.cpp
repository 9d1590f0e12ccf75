// libpva: a report written by autoReport, reopened, gives the numbers the engine gave. With PVA_TEST_REPORT_DIR
// set, the report is written there and kept (the popvis page test renders it).
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>
#include <string>
#include <vector>

#include <unistd.h>

#include "poplar/Engine.hpp"
#include "poplar/IPUModel.hpp"
#include "pva/pva.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

using namespace poplar;
using namespace poplar::program;

namespace {

void test_reopen(void **) {
  const char *keep = std::getenv("PVA_TEST_REPORT_DIR");
  std::filesystem::path dir = keep ? std::filesystem::path(keep)
                                   : std::filesystem::temp_directory_path() / ("pva-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  ProfileValue graph, exec;
  std::uint64_t cycles = 0;
  {
    IPUModel model("tiny");
    Device device = model.createDevice();
    Graph g(device.getTarget());
    g.addCodelets(POPLAR_TEST_CODELETS);
    Tensor x = g.addVariable(INT, {4}, "x");
    Tensor y = g.addVariable(INT, {4}, "y");
    for (unsigned t = 0; t < 4; ++t)
      g.setTileMapping(x[t], t);
    g.setTileMapping(y, 3);
    ComputeSet cs = g.addComputeSet("inc");
    for (unsigned t = 0; t < 4; ++t) {
      VertexRef v = g.addVertex(cs, "Inc", {{"x", x[t]}});
      g.setTileMapping(v, t);
      g.setPerfEstimate(v, 10 * (t + 1));
    }
    DataStream in = g.addHostToDeviceFIFO("in", INT, 4);
    Engine e(g, Sequence(Copy(in, x), Execute(cs), Repeat(3, Execute(cs)), Copy(x, y)),
             OptionFlags{{"autoReport.all", "true"}, {"autoReport.directory", dir.string()}});
    e.load(device);
    std::vector<int> data{1, 2, 3, 4};
    e.connectStream("in", data.data());
    e.run(0);
    cycles = e.getLastRunCycles();
    graph = e.getGraphProfile();
    exec = e.getExecutionProfile();
  }
  pva::Report r = pva::Report::open(dir.string());
  assert_true(r.graphProfile() == graph);
  assert_true(r.executionProfile() == exec);
  assert_string_equal(r.targetType().c_str(), "IPU_MODEL");
  assert_int_equal(r.numTiles(), 4);
  std::uint64_t placed = 0;
  for (const auto &t : r.tiles())
    placed += t.totalIncludingGaps;
  assert_int_equal(placed, graph["memory"]["byTile"]["totalIncludingGaps"].sumUInt());
  assert_int_equal(r.totalCycles(), cycles);
  auto steps = r.steps();
  assert_int_equal(steps.size(), 4);
  assert_string_equal(steps[1].type.c_str(), "OnTileExecute");
  assert_int_equal(steps[1].activeTiles, 4);
  assert_int_equal(steps[3].cyclesTo - steps[0].cyclesFrom,
                   steps[0].cycles + steps[1].cycles + steps[2].cycles + steps[3].cycles);
  assert_true(r.computeSets().at(0).name == "inc" && r.computeSets().at(0).vertices == 4);
  assert_true(r.memoryByVertexType().at("Inc") > 0);
  assert_true(r.memoryByCategory().at("variable") >= 32);
  assert_int_equal(r.liveness().size(), 1);
  const auto &programs = r.compilation().programs();
  assert_true(programs.at(0)->type() == pva::Program::Type::Sequence && programs.at(0)->children().size() == 4);
  assert_true(r.tileCycles().at("compute") > 0);
  if (!keep)
    std::filesystem::remove_all(dir);
  try {
    pva::Report::open("/nonexistent-report");
    fail();
  } catch (const profiling_error &e) {
    assert_non_null(std::strstr(e.what(), "autoReport.all=true"));
  }
}

/// Issue 36: a profile nested 30,000 levels deep crashed `popvis report`; the error now names the file.
void test_corrupt_profiles(void **) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("pva-deep-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::pair<const char *, std::string> files[] = {
      {"profile.json", std::string(30000, '[') + std::string(30000, ']')},
      {"profile.cbor", std::string(30000, '\x81') + std::string(1, '\0')},
  };
  for (const auto &f : files) {
    std::filesystem::remove(dir / "profile.json");
    std::ofstream(dir / f.first, std::ios::binary) << f.second;
    const std::string want = (dir / f.first).string() + ": parseProfile";
    try {
      pva::Report::open(dir.string());
      fail_msg("%s was read", f.first);
    } catch (const profiling_error &e) {
      if (!std::strstr(e.what(), want.c_str()) || !std::strstr(e.what(), "nested deeper than 512"))
        fail_msg("message '%s' lacks '%s'", e.what(), want.c_str());
    }
  }
  std::filesystem::remove_all(dir);
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_corrupt_profiles), cmocka_unit_test(test_reopen)};
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
