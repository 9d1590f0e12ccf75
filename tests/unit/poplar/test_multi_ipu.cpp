// Several IPUs on one card (issue 19): IPU Models with numIPUs > 1, the IPU-Link cost of an exchange that crosses
// IPUs, virtual graphs per IPU with copies between them, and per-IPU memory in the profile summary.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "poplar/DeviceManager.hpp"
#include "poplar/Engine.hpp"
#include "poplar/IPUModel.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

#include "expect_throw.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {

/// The tiny board with `ipus` IPUs of 4 tiles each.
Device tinyDevice(unsigned ipus) {
  IPUModel m("tiny");
  m.numIPUs = ipus;
  return m.createDevice();
}

/// Cycles of one copy of `n` floats from tile `from` to tile `to`.
std::uint64_t copyCycles(Device &device, unsigned from, unsigned to, std::size_t n) {
  Graph g(device.getTarget());
  Tensor a = g.addVariable(FLOAT, {n}, "a"), b = g.addVariable(FLOAT, {n}, "b");
  g.setTileMapping(a, from);
  g.setTileMapping(b, to);
  g.createHostWrite("a", a);
  g.createHostRead("b", b);
  Engine e(g, Copy(a, b));
  e.load(device);
  std::vector<float> in(n), out(n, -1.0f);
  for (std::size_t i = 0; i < n; ++i)
    in[i] = float(i) * 0.5f;
  e.writeTensor("a", in.data());
  e.run(0);
  e.readTensor("b", out.data());
  assert_true(out == in);
  return e.getLastRunCycles();
}

// Tiles 0..3 are IPU 0 and 4..7 IPU 1: a copy to tile 4 costs the board's IPU-Link latency plus the bytes over the
// link's bandwidth more than the same copy to tile 1 (boards/README.md, "Several IPUs on a card").
void test_link_cost(void **) {
  Device d = tinyDevice(2);
  assert_int_equal(d.getTarget().getNumIPUs(), 2);
  assert_int_equal(d.getTarget().getNumTiles(), 8);
  for (std::size_t n : {240u, 960u}) { // tiny tiles hold about 5 KiB of data
    const std::uint64_t bytes = n * 4;
    const std::uint64_t local = copyCycles(d, 0, 1, n), remote = copyCycles(d, 0, 4, n);
    print_message("copy of %zu bytes: %llu cycles within an IPU, %llu across IPUs\n", std::size_t(bytes),
                  (unsigned long long)local, (unsigned long long)remote);
    assert_int_equal(remote - local, 300 + bytes / 24); // tiny2: ipu_link_latency_cycles, ipu_link_bytes_per_cycle
  }
}

// A pipeline over 4 IPUs: a virtual graph per IPU, each stage adds its IPU's index + 1 to the values it got from the
// previous one; the copies between the virtual graphs cross the IPU-Links.
void test_pipeline_over_virtual_graphs(void **) {
  const unsigned ipus = 4;
  Device d = tinyDevice(ipus);
  Graph top(d.getTarget());
  top.addCodelets(POPLAR_TEST_CODELETS);
  const unsigned tpi = top.getTarget().getTilesPerIPU();
  const std::size_t n = 16;
  Sequence prog;
  Tensor first, prev;
  for (unsigned ipu = 0; ipu < ipus; ++ipu) {
    Graph vg = top.createVirtualGraph(ipu * tpi, (ipu + 1) * tpi);
    assert_int_equal(vg.getTarget().getNumTiles(), tpi);
    Tensor in = vg.addVariable(FLOAT, {n}, "in" + std::to_string(ipu));
    Tensor out = vg.addVariable(FLOAT, {n}, "out" + std::to_string(ipu));
    vg.setTileMapping(in, 1);
    vg.setTileMapping(out, 2);
    ComputeSet cs = vg.addComputeSet("stage" + std::to_string(ipu));
    VertexRef v = vg.addVertex(cs, "Scale", {{"in", in}, {"out", out}});
    vg.setInitialValue(v["factor"], float(ipu + 2));
    vg.setTileMapping(v, 1);
    if (ipu == 0)
      first = in;
    else
      prog.add(Copy(prev, in));
    prog.add(Execute(cs));
    prev = out;
  }
  top.createHostWrite("in", first);
  top.createHostRead("out", prev);
  Engine e(top, prog);
  e.load(d);
  std::vector<float> in(n), out(n);
  for (std::size_t i = 0; i < n; ++i)
    in[i] = float(i) - 3.0f;
  e.writeTensor("in", in.data());
  e.run(0);
  e.readTensor("out", out.data());
  for (std::size_t i = 0; i < n; ++i)
    assert_true(out[i] == in[i] * 2.0f * 3.0f * 4.0f * 5.0f);
  std::ostringstream summary;
  e.printProfileSummary(summary, {{"showPerIpuMemoryUsage", "true"}});
  print_message("%s", summary.str().c_str());
  assert_true(summary.str().find("Number of IPUs:         4") != std::string::npos);
  assert_true(summary.str().find("IPU 3") != std::string::npos);
}

// A virtual graph names tiles of its own IPU only: tiles past the card are refused.
void test_virtual_graph_range(void **) {
  Device d = tinyDevice(2);
  Graph top(d.getTarget());
  expectThrow<poplar_error>([&] { top.createVirtualGraph(4, 9); }, "inside tiles 0..8");
}

// A card of a multi-IPU board (IPU_EMU_DEVICES=tiny4) is one device of 4 IPUs, and runs a program on tiles of its
// last IPU.
void test_multi_ipu_card(void **) {
  setenv("IPU_EMU_DEVICES", "tiny4", 1);
  DeviceManager manager = DeviceManager::createDeviceManager();
  std::vector<Device> four = manager.getDevices(TargetType::IPU, 4);
  assert_int_equal(four.size(), 1);
  assert_int_equal(manager.getDevices(TargetType::IPU, 1).size(), 0);
  Device &d = four.front();
  assert_true(d.attach());
  assert_int_equal(d.getTarget().getNumIPUs(), 4);
  assert_int_equal(d.getTarget().getNumTiles(), 16);
  assert_true(copyCycles(d, 12, 15, 64) > 0);
  d.detach();
  unsetenv("IPU_EMU_DEVICES");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_link_cost),
      cmocka_unit_test(test_pipeline_over_virtual_graphs),
      cmocka_unit_test(test_virtual_graph_range),
      cmocka_unit_test(test_multi_ipu_card),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
