// poplin's planner report: every product's plan at log level DEBUG (POPLIBS_LOG_LEVEL, "PL:[D]" lines with the
// problem, the partials type, whether the plan cache held it, the split, tiles, bytes per tile and the estimate),
// and the estimate in the graph profile's optimizationInfo under "poplin::<function>/<debug name>", read back from
// Engine::getGraphProfile, from the autoReport files through libpva and in printProfileSummary.
// The log variables are read once per process, so main sets them (DEBUG into a file) before anything runs.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <pva/pva.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

std::string logFile; // POPLIBS_LOG_DEST, set by main

std::string readAll(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The estimate matMulReportPlan prints for a {m, k} * {k, n} FLOAT product ("estimate N cycles").
long long reportedEstimate(const Graph &graph, std::size_t m, std::size_t k, std::size_t n) {
  std::ostringstream s;
  poplin::matMulReportPlan(s, graph, FLOAT, {m, k}, {k, n});
  const std::string text = s.str();
  const std::size_t at = text.find("estimate ");
  assert_true(at != std::string::npos);
  return std::atoll(text.c_str() + at + 9);
}

// The lines of `text` that contain `needle`.
std::size_t countLines(const std::string &text, const std::string &needle) {
  std::size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    n += line.find(needle) != std::string::npos;
  return n;
}

void test_plan_in_profile(void **) {
  Fixture f(16);
  poplin::addCodelets(f.graph);
  Tensor a = f.var(FLOAT, {24, 40}, "a"), b = f.var(FLOAT, {40, 12}, "b"), c = f.var(FLOAT, {24, 12}, "c");
  poplin::matMul(f.graph, a, b, f.prog, "layer0");
  poplin::matMul(f.graph, a, b, f.prog, "layer0"); // the same debug name again: a second entry
  poplin::matMul(f.graph, b.transpose(), a.transpose(), f.prog);
  poplin::matMulAcc(f.graph, c, 0.5f, a, b, f.prog, "update");
  const std::string dir = "matmul_report_profile." + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  {
    Engine engine(f.graph, f.prog, {{"autoReport.outputGraphProfile", "true"}, {"autoReport.directory", dir}});
    const long long estimate = reportedEstimate(f.graph, 24, 40, 12);
    const ProfileValue profile = engine.getGraphProfile();
    const ProfileValue &info = profile["optimizationInfo"];
    for (const char *key : {"poplin::matMul/layer0", "poplin::matMul/layer0 (2)", "poplin::matMulAcc/update"}) {
      if (!info.asMap().count(key)) {
        print_error("optimizationInfo has no '%s'\n", key);
        fail();
      }
      assert_int_equal(std::llround(info[key].asDouble()), estimate);
    }
    // Without a debug prefix the entry is the function's name; the transposed product has its own estimate.
    assert_int_equal(std::llround(info["poplin::matMul"].asDouble()), reportedEstimate(f.graph, 12, 40, 24));
    // libpoplar's own figures stay.
    assert_true(info["tilesInUse"].asDouble() > 0);
    std::ostringstream summary;
    engine.printProfileSummary(summary, {{"showOptimizations", "true"}});
    assert_true(summary.str().find("poplin::matMul/layer0:") != std::string::npos);
    engine.writeReports();
  }
  // The report directory, as a profile reader sees it.
  pva::Report report = pva::Report::open(dir);
  const std::map<std::string, double> info = report.optimizationInfo();
  assert_true(info.count("poplin::matMul/layer0") == 1);
  assert_true(info.at("poplin::matMul/layer0") > 0);
  assert_true(readAll(dir + "/profile.json").find("\"poplin::matMulAcc/update\"") != std::string::npos);
  std::filesystem::remove_all(dir);
}

void test_plan_at_debug(void **) {
  Fixture f(16);
  poplin::addCodelets(f.graph);
  poplin::matmul::PlanningCache cache;
  Tensor a = f.var(FLOAT, {8, 16}, "a"), b = f.var(FLOAT, {16, 4}, "b");
  poplin::matMul(f.graph, a, b, f.prog, "first", {}, &cache);
  poplin::matMul(f.graph, a, b, f.prog, "second", {{"partialsType", "float"}}, &cache);
  poplin::matMul(f.graph, a, b, f.prog, "uncached");
  const std::string log = readAll(logFile);
  const std::string plan = ": plan of {1} x {8 x 16} * {16 x 4} float -> float, partials float, plan cache ";
  assert_int_equal(countLines(log, "PL:[D] first/matMul" + plan + "miss: split groups/rows/cols/inner "), 1);
  assert_int_equal(countLines(log, "PL:[D] second/matMul" + plan + "hit: split groups/rows/cols/inner "), 1);
  assert_int_equal(countLines(log, "PL:[D] uncached/matMul" + plan + "not used: split "), 1);
  // Each line carries the tiles, the memory and the estimate.
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);)
    if (line.find("first/matMul: plan") != std::string::npos) {
      assert_true(line.find(" tiles, ") != std::string::npos);
      assert_true(line.find(" bytes per tile; estimate ") != std::string::npos);
      assert_true(line.find(" cycles (compute ") != std::string::npos);
    }
  assert_int_equal(cache.size(), 1);
}

} // namespace

int main(void) {
  logFile = (std::filesystem::temp_directory_path() / ("poplin_plan_log." + std::to_string(getpid()))).string();
  std::filesystem::remove(logFile);
  setenv("POPLIBS_LOG_LEVEL", "DEBUG", 1);
  setenv("POPLIBS_LOG_DEST", logFile.c_str(), 1);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plan_in_profile),
      cmocka_unit_test(test_plan_at_debug),
  };
  const int failed = cmocka_run_group_tests(tests, NULL, NULL);
  std::filesystem::remove(logFile);
  return failed;
}
