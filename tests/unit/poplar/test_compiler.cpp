// Graph compiler tests through the public API: memory shared between data not in use at the same time (against the
// plain bump layout, debug.reuseMemory=false), and golden dumps of the compiled form (debug.dumpCompiledGraph: step
// lists, addresses, exchange lists) for a few small graphs. IPU_UPDATE_GOLDEN=1 rewrites the golden files.
#include <cctype>
#include <cstdio>
#include <cstdlib>
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

IPUModel tinyWith(unsigned memoryPerTile) {
  IPUModel m("tiny");
  if (memoryPerTile)
    m.memoryPerTile = memoryPerTile;
  return m;
}

struct Fixture {
  IPUModel model;
  Device device = model.createDevice();
  Graph graph{device.getTarget()};
  explicit Fixture(unsigned memoryPerTile = 0) : model(tinyWith(memoryPerTile)) {
    graph.addCodelets(POPLAR_TEST_CODELETS);
  }
  Tensor var(const Type &t, std::size_t n, unsigned tile, const std::string &name) {
    Tensor x = graph.addVariable(t, {n}, name);
    graph.setTileMapping(x, tile);
    return x;
  }
  Program scale(Tensor in, Tensor out, float factor, unsigned tile) {
    ComputeSet cs = graph.addComputeSet("scale");
    VertexRef v = graph.addVertex(cs, "Scale", {{"in", in}, {"out", out}});
    graph.setInitialValue(v["factor"], factor);
    graph.setTileMapping(v, tile);
    return Execute(cs);
  }
};

std::string readFile(const std::string &path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// The "Maximum: N" bytes of a tile in the profile summary.
unsigned long maxTileBytes(Engine &e) {
  std::ostringstream os;
  e.printProfileSummary(os);
  std::string s = os.str();
  auto at = s.find("Maximum: ");
  assert_true(at != std::string::npos);
  std::string digits;
  for (std::size_t i = at + 9; i < s.size() && (isdigit(s[i]) || s[i] == ','); ++i)
    if (s[i] != ',')
      digits += s[i];
  return std::stoul(digits);
}

// A chain of 16 temporaries of 4 KiB on one tile, each in use only between the compute set that writes it and the
// one that reads it: 72 KiB laid out one after the other, which a 64 KiB tile (about 50 KiB free for data once the
// lean tile image and the stacks are placed) cannot
// hold; with liveness the chain needs the input, the output and two temporaries at a time.
void test_disjoint_temporaries_share_memory(void **) {
  const std::size_t n = 1024;
  const unsigned stages = 16;
  Fixture f(64 * 1024);
  Tensor in = f.var(FLOAT, n, 0, "in"), out = f.var(FLOAT, n, 0, "out");
  f.graph.createHostWrite("in", in);
  f.graph.createHostRead("out", out);
  Sequence prog;
  Tensor prev = in;
  for (unsigned i = 0; i < stages; ++i) {
    Tensor next = i + 1 == stages ? out : f.var(FLOAT, n, 0, "t" + std::to_string(i));
    prog.add(f.scale(prev, next, 2.0f, 0));
    prev = next;
  }
  std::string bumpMessage;
  try {
    Engine bump(f.graph, prog, OptionFlags{{"debug.reuseMemory", "false"}});
    fail_msg("the bump layout fit %u temporaries of %zu bytes; the test no longer shows reuse", stages, n * 4);
  } catch (const graph_memory_allocation_error &e) {
    bumpMessage = e.what();
  }
  assert_true(bumpMessage.find("tile 0 is out of memory by") != std::string::npos);
  Engine engine(f.graph, prog);
  engine.load(f.device);
  std::vector<float> input(n), output(n);
  for (std::size_t i = 0; i < n; ++i)
    input[i] = float(i % 17) - 8.0f;
  engine.writeTensor("in", input.data(), input.data() + n);
  engine.run(0);
  engine.readTensor("out", output.data(), output.data() + n);
  for (std::size_t i = 0; i < n; ++i)
    assert_true(output[i] == input[i] * 65536.0f);
  unsigned long shared = maxTileBytes(engine);
  std::printf("bump layout: %s\nwith liveness: tile 0 peaks at %lu bytes of %u (code included)\n",
              bumpMessage.substr(0, bumpMessage.find(" bytes are free") + 15).c_str(), shared,
              f.device.getTarget().getBytesPerTile());
  assert_true(shared < f.device.getTarget().getBytesPerTile());
}

// A value carried around a loop keeps its memory over the whole body. `acc` is written in the middle of the body
// and read at its start, and tmp2 is used only after acc's last access in the body: were acc's range cut at the
// back edge, tmp2 would take acc's bytes (first fit puts it there) and the next iteration would read tmp2's values.
// `acc` has no host handle, so only liveness keeps it.
void test_loop_carried_value_survives(void **) {
  const std::size_t n = 128;
  Fixture f;
  Tensor init = f.var(FLOAT, n, 1, "init"), acc = f.var(FLOAT, n, 1, "acc");
  Tensor tmp = f.var(FLOAT, n, 1, "tmp"), tmp2 = f.var(FLOAT, n, 1, "tmp2");
  Tensor result = f.var(FLOAT, n, 1, "result");
  f.graph.createHostWrite("init", init);
  f.graph.createHostRead("result", result);
  Sequence body({f.scale(acc, tmp, 3.0f, 1), Copy(tmp, acc), f.scale(tmp, tmp2, 0.5f, 1), Copy(tmp2, result)});
  Sequence prog({Copy(init, acc), Repeat(4, body)});
  std::string dumpPath = std::string(POPLAR_TEST_BINARY_DIR) + "/loop_carried.dump";
  Engine engine(f.graph, prog, OptionFlags{{"debug.dumpCompiledGraph", dumpPath}});
  // acc is subject to liveness (a live range, not kept for the whole run).
  std::string dump = readFile(dumpPath);
  std::size_t accLine = dump.find("variable 'acc'");
  assert_true(accLine != std::string::npos);
  std::string line = dump.substr(dump.rfind('\n', accLine) + 1, accLine - dump.rfind('\n', accLine));
  if (line.find(" shared p0:") == std::string::npos)
    fail_msg("acc is not subject to liveness: %s", line.c_str());
  engine.load(f.device);
  std::vector<float> a(n, 1.0f), r(n);
  engine.writeTensor("init", a.data(), a.data() + n);
  engine.run(0);
  engine.readTensor("result", r.data(), r.data() + n);
  for (float v : r)
    assert_true(v == 40.5f); // acc: 1, 3, 9, 27, 81; result: the last acc halved
}

void checkGolden(const std::string &name, Graph &graph, const Program &prog) {
  std::string path = std::string(POPLAR_TEST_BINARY_DIR) + "/" + name + ".dump";
  Engine engine(graph, prog, OptionFlags{{"debug.instrument", "false"}, {"debug.dumpCompiledGraph", path}});
  std::string got = readFile(path);
  std::string golden = std::string(POPLAR_GOLDEN_DIR) + "/" + name + ".txt";
  if (const char *u = std::getenv("IPU_UPDATE_GOLDEN"); u && *u == '1') {
    std::ofstream(golden) << got;
    return;
  }
  std::string want = readFile(golden);
  if (got != want) {
    print_error("%s differs from %s (IPU_UPDATE_GOLDEN=1 rewrites it):\n%s\n", path.c_str(), golden.c_str(),
                got.c_str());
    fail();
  }
}

void test_golden_copy_across_tiles(void **) {
  Fixture f;
  Tensor a = f.graph.addVariable(FLOAT, {8}, "a"), b = f.graph.addVariable(FLOAT, {8}, "b");
  f.graph.setTileMapping(a.slice(0, 4), 0);
  f.graph.setTileMapping(a.slice(4, 8), 1);
  f.graph.setTileMapping(b.slice(0, 2), 2);
  f.graph.setTileMapping(b.slice(2, 8), 3);
  f.graph.createHostWrite("a", a);
  f.graph.createHostRead("b", b);
  checkGolden("copy_across_tiles", f.graph, Copy(a, b));
}

void test_golden_edge_buffers_and_if(void **) {
  Fixture f;
  Tensor x = f.graph.addVariable(FLOAT, {6}, "x"), y = f.var(FLOAT, 6, 1, "y");
  f.graph.setTileMapping(x.slice(0, 3), 0);
  f.graph.setTileMapping(x.slice(3, 6), 1);
  Tensor pred = f.graph.addVariable(BOOL, {}, "pred");
  f.graph.setTileMapping(pred, 2);
  f.graph.createHostWrite("x", x);
  f.graph.createHostWrite("pred", pred);
  f.graph.createHostRead("y", y);
  checkGolden("edge_buffers_and_if", f.graph, If(pred, f.scale(x, y, 2.0f, 1), Sequence()));
}

void test_golden_stream_and_repeat(void **) {
  Fixture f;
  Tensor t = f.var(FLOAT, 4, 0, "t"), u = f.var(FLOAT, 4, 2, "u");
  DataStream in = f.graph.addHostToDeviceFIFO("in", FLOAT, 4);
  DataStream out = f.graph.addDeviceToHostFIFO("out", FLOAT, 4);
  Sequence prog({Copy(in, t), Repeat(3, Sequence({f.scale(t, u, 2.0f, 2), Copy(u, t)})), Copy(t, out)});
  checkGolden("stream_and_repeat", f.graph, prog);
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_disjoint_temporaries_share_memory),
      cmocka_unit_test(test_loop_carried_value_survives),
      cmocka_unit_test(test_golden_copy_across_tiles),
      cmocka_unit_test(test_golden_edge_buffers_and_if),
      cmocka_unit_test(test_golden_stream_and_repeat),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
