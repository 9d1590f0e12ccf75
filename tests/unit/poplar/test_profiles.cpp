// The graph and execution profiles of a small program on the tiny IPU Model (4 tiles): every field the seed names
// is present with its type, for each instrumentation level; cycles are what the card measured; memory matches
// the summary's totals; autoReport files read back equal the profiles; the summaries honour their options.
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "poplar/Engine.hpp"
#include "poplar/IPUModel.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

using namespace poplar;
using namespace poplar::program;

namespace {

using T = ProfileValue::Type;

/// A path like "memory.byTile.total" into a profile, failing the test when a step is missing or the type differs.
const ProfileValue &at(const ProfileValue &root, const std::string &path, T type) {
  const ProfileValue *v = &root;
  std::istringstream is(path);
  for (std::string key; std::getline(is, key, '.');) {
    if (!v->contains(key)) {
      print_error("profile lacks '%s' (at '%s')\n", path.c_str(), key.c_str());
      fail();
    }
    v = &(*v)[key];
  }
  if (v->type() != type) {
    print_error("'%s' has the wrong type\n", path.c_str());
    fail();
  }
  return *v;
}

struct Program3 {
  IPUModel model{"tiny"};
  Device device = model.createDevice();
  Graph graph{device.getTarget()};
  Sequence prog;
  Program3() {
    graph.addCodelets(POPLAR_TEST_CODELETS);
    Tensor x = graph.addVariable(INT, {4}, "x");
    for (unsigned t = 0; t < 4; ++t)
      graph.setTileMapping(x[t], t);
    Tensor y = graph.addVariable(INT, {4}, "y");
    graph.setTileMapping(y, 3);
    ComputeSet cs = graph.addComputeSet("inc");
    for (unsigned t = 0; t < 4; ++t) {
      VertexRef v = graph.addVertex(cs, "Inc", {{"x", x[t]}});
      graph.setTileMapping(v, t);
      graph.setPerfEstimate(v, 20 + t);
    }
    DataStream in = graph.addHostToDeviceFIFO("in", INT, 4);
    prog = Sequence(Copy(in, x), Repeat(2, Execute(cs)), Copy(x, y));
    graph.createHostRead("y", y);
  }
};

void checkGraphProfile(const ProfileValue &g) {
  for (const char *k : {"target.bytesPerIPU", "target.bytesPerTile", "target.clockFrequency", "target.numIPUs",
                        "target.tilesPerIPU", "target.numTiles", "target.totalMemory", "target.minSyncDelay",
                        "graph.numComputeSets", "graph.numEdges", "graph.numVars", "graph.numVertices"})
    at(g, k, T::NUMBER);
  assert_string_equal(at(g, "target.type", T::STRING).asString().c_str(), "IPU_MODEL");
  assert_int_equal(at(g, "target.numTiles", T::NUMBER).asUInt(), 4);
  assert_int_equal(at(g, "target.relativeSyncDelayByTile", T::VECTOR).size(), 4);
  at(g, "optimizationInfo", T::MAP);
  for (const auto &kv : g["optimizationInfo"].asMap())
    assert_true(kv.second.isNumber());
  assert_string_equal(at(g, "vertexTypes.names", T::VECTOR)[0].asString().c_str(), "Inc");
  assert_true(at(g, "vertexTypes.sizes", T::VECTOR)[0].asUInt() >= 4);
  assert_string_equal(at(g, "computeSets.names", T::VECTOR)[0].asString().c_str(), "inc");
  assert_int_equal(at(g, "computeSets.vertexCounts", T::VECTOR)[0][0].asUInt(), 4);
  assert_int_equal(at(g, "computeSets.vertexTypes", T::VECTOR)[0][0].asUInt(), 0);
  const auto &active = at(g, "computeSets.cycleEstimates.activeCyclesByTile", T::VECTOR);
  assert_int_equal(active[0][3].asUInt(), 23);
  assert_int_equal(at(g, "computeSets.cycleEstimates.activeCyclesByVertexType", T::VECTOR)[0][0].asUInt(), 86);
  assert_int_equal(at(g, "computeSets.cycleEstimates.cyclesByTile", T::VECTOR)[0][3].asUInt(), 23 * 6);
  for (const char *k : {"exchanges.bytesReceivedByTile", "exchanges.bytesSentByTile", "exchanges.cyclesByTile",
                        "externalExchanges.bytesReceivedByTile", "hostExchanges.bytesReceivedByTile",
                        "hostExchanges.bytesSentByTile", "hostExchanges.estimatedCyclesByTile", "programs",
                        "controlPrograms", "functionPrograms"})
    at(g, k, T::VECTOR);
  // The Copy x -> y moves 16 bytes to tile 3 (tile 3's own element goes through the exchange too).
  const auto &sent = g["exchanges"]["bytesSentByTile"];
  assert_true(sent.size() >= 1);
  assert_int_equal(sent[sent.size() - 1].sumUInt(), 16);
  assert_int_equal(g["exchanges"]["bytesReceivedByTile"][sent.size() - 1][3].asUInt(), 16);
  // The stream copy brings 4 bytes to each tile.
  assert_int_equal(g["hostExchanges"]["bytesReceivedByTile"][0].sumUInt(), 16);
  // Program structure: program 0 is a Sequence whose children are steps; the Repeat holds an OnTileExecute.
  const auto &programs = g["programs"];
  const auto &root = programs[g["controlPrograms"][0].asUInt()];
  assert_string_equal(root["type"].asString().c_str(), "Sequence");
  bool sawRepeat = false, sawExecute = false, sawStream = false;
  for (const auto &c : root["children"].asVector()) {
    const auto &p = programs[c.asUInt()];
    at(p, "type", T::STRING);
    if (p["type"].asString() == "Repeat") {
      sawRepeat = true;
      for (const auto &cc : p["children"].asVector())
        if (programs[cc.asUInt()]["type"].asString() == "OnTileExecute") {
          sawExecute = true;
          assert_int_equal(programs[cc.asUInt()]["computeSet"].asUInt(), 0);
        }
    }
    if (p["type"].asString() == "StreamCopy") {
      sawStream = true;
      assert_int_equal(p["exchange"].asUInt(), 0);
    }
  }
  assert_true(sawRepeat && sawExecute && sawStream);
  // Memory.
  for (const char *k : {"interleaved", "interleavedIncludingGaps", "nonInterleaved", "nonInterleavedIncludingGaps",
                        "overflowed", "overflowedIncludingGaps", "total", "totalIncludingGaps"})
    assert_int_equal(at(g, std::string("memory.byTile.") + k, T::VECTOR).size(), 4);
  const auto &cats = at(g, "memory.byCategory", T::MAP);
  for (const char *c : {"variable", "vertexInstanceState", "vertexCode", "controlCode", "stack"}) {
    const auto &cat = at(cats, c, T::MAP);
    at(cat, "interleaved.nonOverlapped", T::VECTOR);
    at(cat, "nonInterleaved.overlapped", T::VECTOR);
    at(cat, "overflowed.nonOverlapped", T::VECTOR);
    at(cat, "total", T::VECTOR);
  }
  // Each tile's data without double counting lies between its non-overlapped items and its span with gaps.
  for (unsigned t = 0; t < 4; ++t) {
    std::uint64_t nonOverlapped = 0;
    for (const auto &kv : cats.asMap())
      if (kv.first != "stack")
        nonOverlapped += kv.second["nonInterleaved"]["nonOverlapped"][t].asUInt();
    assert_true(nonOverlapped <= g["memory"]["byTile"]["total"][t].asUInt());
    assert_true(g["memory"]["byTile"]["total"][t].asUInt() <= g["memory"]["byTile"]["totalIncludingGaps"][t].asUInt());
  }
  for (const char *area : {"byComputeSet", "byVertexType"})
    for (const char *k : {"codeBytes", "copyPtrBytes", "descriptorBytes", "edgePtrBytes", "paddingBytes",
                          "vertexDataBytes", "totalBytes"})
      at(g, std::string("memory.") + area + "." + k, T::VECTOR);
  assert_int_equal(g["memory"]["byVertexType"]["vertexDataBytes"][0].sumUInt(), 4 * g["vertexTypes"]["sizes"][0].asUInt());
  const auto &live = at(g, "memory.liveness.byProgram", T::VECTOR);
  assert_int_equal(live.size(), 1);
  assert_true(live[0]["liveBytes"].size() == live[0]["stepNames"].size() && live[0]["liveBytes"].size() >= 4);
}

/// Runs the program twice with `level`; checks the execution profile's mode, arrays and simulation.
void runAtLevel(const char *level, const char *mode, const char *modeArray) {
  Program3 p;
  Engine e(p.graph, p.prog, OptionFlags{{"debug.instrument", "true"}, {"debug.computeInstrumentationLevel", level}});
  checkGraphProfile(e.getGraphProfile());
  e.load(p.device);
  std::vector<int> in(4, 1);
  e.connectStream("in", in.data());
  e.run(0);
  std::uint64_t first = e.getLastRunCycles();
  e.run(0);
  std::uint64_t second = e.getLastRunCycles();
  ProfileValue x = e.getExecutionProfile();
  assert_string_equal(at(x, "profilerMode", T::STRING).asString().c_str(), mode);
  if (modeArray)
    at(x, modeArray, T::VECTOR);
  assert_int_equal(at(x, "programTrace", T::VECTOR).size(), 2);
  assert_int_equal(at(x, "simulation.cycles", T::NUMBER).asUInt(), first + second);
  for (const char *k : {"activeCompute", "compute", "copySharedStructure", "doExchange", "globalExchange",
                        "streamCopy", "sync"})
    at(x, std::string("simulation.tileCycles.") + k, T::NUMBER);
  const auto &steps = at(x, "simulation.steps", T::VECTOR);
  assert_true(steps.size() >= 6); // three top-level steps per run
  std::uint64_t sum = 0, prevTo = 0;
  bool sawExecute = false, sawExchange = false;
  for (const auto &s : steps.asVector()) {
    for (const char *k : {"program", "cycles", "cyclesFrom", "cyclesTo", "activeTiles", "tileBalance",
                          "activeTileBalance"})
      at(s, k, T::NUMBER);
    at(s, "type", T::STRING);
    at(s, "name", T::STRING);
    assert_true(s["cyclesFrom"].asUInt() >= prevTo || s["cyclesFrom"].asUInt() == first); // runs follow each other
    assert_int_equal(s["cyclesTo"].asUInt() - s["cyclesFrom"].asUInt(), s["cycles"].asUInt());
    prevTo = s["cyclesTo"].asUInt();
    sum += s["cycles"].asUInt();
    assert_true(s["tileBalance"].asDouble() > 0 && s["tileBalance"].asDouble() <= 1.0);
    if (s["type"].asString() == "DoExchange") {
      sawExchange = true;
      assert_int_equal(at(s, "totalData", T::NUMBER).asUInt(), 16);
      at(s, "dataBalance", T::NUMBER);
      at(s, "exchange", T::NUMBER);
      at(s, "cyclesOverlapped", T::NUMBER);
    }
    if (s["type"].asString() == "StreamCopy") {
      assert_int_equal(at(s, "totalData", T::NUMBER).asUInt(), 16);
      at(s, "hostExchange", T::NUMBER);
    }
  }
  for (const auto &s : steps.asVector())
    if (s["type"].asString() == "Repeat")
      sawExecute = true; // the compute set runs inside the top-level Repeat
  assert_true(sawExecute && sawExchange);
  assert_true(sum > 0 && sum <= first + second);
  e.resetExecutionProfile();
  assert_int_equal(e.getExecutionProfile()["programTrace"].size(), 0);
}

void test_levels(void **) {
  runAtLevel("tile", "COMPUTE_SETS", "computeSetCyclesByTile");
  runAtLevel("device", "SINGLE_TILE_COMPUTE_SETS", "computeSetCycles");
  runAtLevel("ipu", "SINGLE_TILE_COMPUTE_SETS", "computeSetCycles");
  runAtLevel("vertex", "VERTICES", "vertexCycles");
}

void test_compute_set_cycles_measured(void **) {
  Program3 p;
  // An Execute at the top level is its own measured step.
  ComputeSet cs = p.graph.addComputeSet("top");
  Tensor z = p.graph.addVariable(INT, {}, "z");
  p.graph.setTileMapping(z, 1);
  VertexRef v = p.graph.addVertex(cs, "Inc", {{"x", z}});
  p.graph.setTileMapping(v, 1);
  Engine e(p.graph, Execute(cs), OptionFlags{{"debug.instrument", "true"}, {"debug.computeInstrumentationLevel", "device"}});
  e.load(p.device);
  e.run(0);
  ProfileValue x = e.getExecutionProfile();
  const auto &steps = x["simulation"]["steps"];
  assert_int_equal(steps.size(), 1);
  assert_string_equal(steps[0]["type"].asString().c_str(), "OnTileExecute");
  assert_int_equal(steps[0]["activeTiles"].asUInt(), 1);
  assert_true(steps[0]["tileBalance"].asDouble() == 0.25);
  assert_int_equal(x["computeSetCycles"][1].asUInt(), steps[0]["cycles"].asUInt());
  assert_true(steps[0]["cycles"].asUInt() > 0 && steps[0]["cycles"].asUInt() <= e.getLastRunCycles());
}

void test_memory_matches_summary(void **) {
  Program3 p;
  Engine e(p.graph, p.prog);
  std::ostringstream os;
  e.printProfileSummary(os);
  std::string s = os.str();
  std::string key = "Total (tiles in use, including code):";
  auto pos = s.find(key);
  assert_true(pos != std::string::npos);
  std::string digits;
  for (char c : s.substr(pos + key.size(), 40)) {
    if (c == 'B')
      break;
    if (c >= '0' && c <= '9')
      digits += c;
  }
  assert_int_equal(e.getGraphProfile()["memory"]["byTile"]["totalIncludingGaps"].sumUInt(), std::stoull(digits));
  // The engine's own summary honours the options too.
  std::ostringstream more;
  e.printProfileSummary(more, OptionFlags{{"showVarStorage", "true"}, {"showOptimizations", "true"},
                                          {"showPerIpuMemoryUsage", "true"}});
  for (const char *want : {"Variable storage", "Optimizations:", "IPU 0:", "peakLiveBytes"})
    assert_true(more.str().find(want) != std::string::npos);
  assert_true(s.find("Variable storage") == std::string::npos);
}

/// autoReport given through POPLAR_ENGINE_OPTIONS (as `make demo` does), not the constructor: the files appear too.
void test_auto_report_from_environment(void **) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("poplar-autoreport-env-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::string json = "{\"autoReport.all\": \"true\", \"autoReport.directory\": \"" + dir.string() + "\"}";
  setenv("POPLAR_ENGINE_OPTIONS", json.c_str(), 1);
  {
    Program3 p;
    Engine e(p.graph, p.prog);
    e.load(p.device);
    std::vector<int> in(4, 2);
    e.connectStream("in", in.data());
    e.run(0);
    assert_string_equal(e.getExecutionProfile()["profilerMode"].asString().c_str(), "COMPUTE_SETS");
  }
  unsetenv("POPLAR_ENGINE_OPTIONS");
  for (const char *name : {"profile.json", "profile.cbor", "execution.json", "execution.cbor"})
    assert_true(std::filesystem::exists(dir / name));
  std::filesystem::remove_all(dir);
}

void test_auto_report(void **) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("poplar-autoreport-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  ProfileValue graph, exec;
  {
    Program3 p;
    Engine e(p.graph, p.prog, OptionFlags{{"autoReport.all", "true"}, {"autoReport.directory", dir.string()}});
    e.load(p.device);
    std::vector<int> in(4, 2);
    e.connectStream("in", in.data());
    e.run(0);
    graph = e.getGraphProfile();
    exec = e.getExecutionProfile();
    assert_string_equal(exec["profilerMode"].asString().c_str(), "COMPUTE_SETS"); // autoReport turns it on
  }
  auto slurp = [&](const char *name) {
    std::ifstream f(dir / name, std::ios::binary);
    assert_true(f.good());
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  };
  assert_true(parseProfileJSON(slurp("profile.json")) == graph);
  assert_true(parseProfileCBOR(slurp("profile.cbor")) == graph);
  assert_true(parseProfileJSON(slurp("execution.json")) == exec);
  assert_true(parseProfileCBOR(slurp("execution.cbor")) == exec);
  std::filesystem::remove_all(dir);
  Program3 p;
  try {
    Engine e(p.graph, p.prog, OptionFlags{{"debug.computeInstrumentationLevel", "thread"}});
    fail();
  } catch (const invalid_option &err) {
    assert_non_null(std::strstr(err.what(), "debug.computeInstrumentationLevel"));
    assert_non_null(std::strstr(err.what(), "\"tile\""));
  }
}

void test_summaries(void **) {
  Program3 p;
  std::filesystem::path report = std::filesystem::temp_directory_path() / ("poplar-graph-report-" + std::to_string(getpid()));
  Engine e(p.graph, p.prog, OptionFlags{{"debug.graphReportDestination", report.string()}});
  std::ifstream f(report);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  assert_non_null(std::strstr(text.c_str(), "Memory Usage:"));
  std::filesystem::remove(report);
  {
    setenv("POPLAR_GRAPH_REPORT_DEST", report.c_str(), 1);
    Engine fromEnv(p.graph, p.prog);
    unsetenv("POPLAR_GRAPH_REPORT_DEST");
    assert_true(std::filesystem::file_size(report) > 0);
    std::filesystem::remove(report);
  }
  e.load(p.device);
  std::vector<int> in(4, 1);
  e.connectStream("in", in.data());
  e.run(0);
  std::ostringstream os;
  printProfileSummary(os, e.getGraphProfile(), e.getExecutionProfile(),
                      OptionFlags{{"showExecutionSteps", "true"}, {"showVarStorage", "true"},
                                  {"showOptimizations", "true"}, {"showPerIpuMemoryUsage", "true"}});
  std::string s = os.str();
  for (const char *want : {"Target:", "Memory Usage:", "By Vertex Type", "IPU 0:", "Optimizations:",
                           "Variable storage", "Execution:", "Steps (", "StreamCopy", "Total cycles:"})
    if (s.find(want) == std::string::npos) {
      print_error("summary lacks '%s':\n%s\n", want, s.c_str());
      fail();
    }
  assert_true(s.find("\033[") == std::string::npos);
  setenv("CLICOLOR_FORCE", "1", 1);
  std::ostringstream coloured;
  printGraphSummary(coloured, e.getGraphProfile());
  unsetenv("CLICOLOR_FORCE");
  assert_true(coloured.str().find("\033[") != std::string::npos);
  setenv("CLICOLOR", "0", 1);
  std::ostringstream plain;
  printGraphSummary(plain, e.getGraphProfile(), OptionFlags{{"colours", "true"}});
  unsetenv("CLICOLOR");
  assert_true(plain.str().find("\033[") == std::string::npos);
  std::ostringstream execOnly, none;
  printExecutionSummary(execOnly, e.getGraphProfile(), e.getExecutionProfile());
  assert_true(execOnly.str().find("Execution:") == 0);
  printProfileSummary(none, e.getGraphProfile());
  assert_true(none.str().find("Execution:") == std::string::npos);
  try {
    printProfileSummary(none, e.getGraphProfile(), ProfileValue(), OptionFlags{{"showEverything", "true"}});
    fail();
  } catch (const invalid_option &) {
  }
}

// The text of the summary's "Cycles by step" block (up to the tile cycles by activity).
std::string cyclesByStep(const Engine &e) {
  std::ostringstream os;
  printExecutionSummary(os, e.getGraphProfile(), e.getExecutionProfile());
  const std::string s = os.str();
  const std::size_t from = s.find("Cycles by step"), to = s.find("Tile cycles by activity");
  assert_true(from != std::string::npos && to != std::string::npos && from < to);
  return s.substr(from, to - from);
}

// Many runs keep the execution profile bounded: the last 1,000 runs whole (steps, trace, run records), the earlier
// ones only in the totals (simulation.earlierRuns, cycles, "Programs run"); the last run's steps print as after one.
void test_many_runs_bounded(void **) {
  Program3 p;
  Engine e(p.graph, p.prog, OptionFlags{{"debug.instrument", "true"}});
  e.load(p.device);
  std::vector<int> in(4, 1);
  e.connectStream("in", in.data());
  e.run(0);
  const std::string afterOne = cyclesByStep(e);
  const std::uint64_t perRun = e.getLastRunCycles();
  const std::size_t stepsPerRun = e.getExecutionProfile()["simulation"]["steps"].size();
  const ProfileValue tilesPerRun = e.getExecutionProfile()["simulation"]["tileCycles"];
  assert_true(stepsPerRun > 0);
  const unsigned runs = 1300, kept = 1000;
  for (unsigned r = 1; r < runs; ++r)
    e.run(0);
  const ProfileValue x = e.getExecutionProfile();
  const auto &sim = x["simulation"];
  assert_int_equal(sim["runs"].size(), kept);
  assert_int_equal(x["programTrace"].size(), kept);
  assert_int_equal(sim["steps"].size(), kept * stepsPerRun);
  assert_int_equal(sim["earlierRuns"].asUInt(), runs - kept);
  assert_int_equal(sim["cycles"].asUInt(), runs * perRun);
  // Every run still counts in the tile cycles by activity, the folded runs too: each is 1,300 times one run's.
  std::uint64_t busy = 0;
  for (const auto &[activity, cycles] : tilesPerRun.asMap()) {
    busy += cycles.asUInt();
    assert_int_equal(sim["tileCycles"][activity].asUInt(), runs * cycles.asUInt());
  }
  assert_true(busy > 0);
  assert_string_equal(cyclesByStep(e).c_str(), afterOne.c_str());
  std::ostringstream os;
  printExecutionSummary(os, e.getGraphProfile(), x);
  assert_non_null(std::strstr(os.str().c_str(), "Programs run:           1300\n"));
  // The steps' timeline stays absolute: the last step ends where the whole history does.
  assert_int_equal(sim["steps"][sim["steps"].size() - 1]["cyclesTo"].asUInt(), runs * perRun);
  // A reset starts the history afresh.
  e.resetExecutionProfile();
  e.run(0);
  assert_int_equal(e.getExecutionProfile()["simulation"]["earlierRuns"].asUInt(), 0);
}

/// Liveness counts every use of a variable, not only compute sets': in Program3, y is touched by the final
/// exchange alone (Copy x -> y) and x first by the stream copy, so both show as live at those steps.
void test_liveness_counts_exchanges(void **) {
  Program3 p;
  Engine e(p.graph, p.prog);
  const ProfileValue graph = e.getGraphProfile(); // a copy: the references below point into it
  const ProfileValue &live = graph["memory"]["liveness"];
  const auto &names = live["variables"]["names"];
  std::size_t xRow = names.size(), yRow = names.size();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].asString() == "x")
      xRow = i;
    if (names[i].asString() == "y")
      yRow = i;
  }
  assert_true(xRow < names.size() && yRow < names.size());
  const auto &prog = live["byProgram"][0];
  const auto &stepNames = prog["stepNames"];
  const auto &vars = prog["liveVariables"];
  assert_int_equal(stepNames.size(), vars.size());
  auto liveAt = [&](std::size_t step, std::size_t row) {
    for (const auto &v : vars[step].asVector())
      if (v.asUInt() == row)
        return true;
    return false;
  };
  bool yAtExchange = false, xAtStream = false;
  for (std::size_t i = 0; i < stepNames.size(); ++i) {
    const std::string what = stepNames[i].asString();
    if (what.find("StreamCopy") != std::string::npos && liveAt(i, xRow))
      xAtStream = true;
    if (what.find("Exchange") != std::string::npos && liveAt(i, yRow) && liveAt(i, xRow))
      yAtExchange = true;
  }
  if (!xAtStream || !yAtExchange) {
    for (std::size_t i = 0; i < stepNames.size(); ++i)
      print_message("step %zu '%s': %zu live\n", i, stepNames[i].asString().c_str(), vars[i].size());
  }
  assert_true(xAtStream);
  assert_true(yAtExchange);
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_levels),
      cmocka_unit_test(test_compute_set_cycles_measured),
      cmocka_unit_test(test_memory_matches_summary),
      cmocka_unit_test(test_auto_report),
      cmocka_unit_test(test_auto_report_from_environment),
      cmocka_unit_test(test_summaries),
      cmocka_unit_test(test_many_runs_bounded),
      cmocka_unit_test(test_liveness_counts_exchanges),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
