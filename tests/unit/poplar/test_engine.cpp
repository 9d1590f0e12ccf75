// Engine tests on the "tiny" IPU Model (4 tiles): control flow (Repeat, If, Switch, RepeatWhileTrue/False),
// rearranging copies, Vector/VectorList fields, streams and callbacks, several programs, and the errors a user
// meets: unmapped data or vertices, unconnected or wrongly typed fields, a full tile, a codelet that does not
// compile, a stream nobody connected, a vertex that fails.
#include <cstdio>
#include <fstream>
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

struct Fixture {
  IPUModel model{"tiny"};
  Device device = model.createDevice();
  Graph graph{device.getTarget()};
  Fixture() { graph.addCodelets(POPLAR_TEST_CODELETS); }
  Tensor scalar(const Type &t, unsigned tile, const std::string &name) {
    Tensor x = graph.addVariable(t, {}, name);
    graph.setTileMapping(x, tile);
    return x;
  }
  Program inc(Tensor x, unsigned tile) {
    ComputeSet cs = graph.addComputeSet("inc");
    VertexRef v = graph.addVertex(cs, "Inc", {{"x", x}});
    graph.setTileMapping(v, tile);
    return Execute(cs);
  }
};

int readInt(Engine &e, const std::string &h) {
  int v = 0;
  e.readTensor(h, &v);
  return v;
}

void test_control_flow(void **) {
  Fixture f;
  Tensor counter = f.scalar(INT, 1, "counter");
  Tensor n = f.scalar(INT, 2, "n");
  Tensor flag = f.scalar(INT, 3, "flag");
  Tensor sel = f.scalar(INT, 0, "sel");
  Tensor pred = f.scalar(BOOL, 2, "pred");
  for (auto &[h, t] : std::vector<std::pair<std::string, Tensor>>{
           {"counter", counter}, {"n", n}, {"sel", sel}, {"pred", pred}}) {
    f.graph.createHostWrite(h + "-w", t);
    f.graph.createHostRead(h + "-r", t);
  }
  ComputeSet cd = f.graph.addComputeSet("countdown");
  VertexRef v = f.graph.addVertex(cd, "CountDown", {{"n", n}, {"flag", flag}});
  f.graph.setTileMapping(v, 2);
  Program incC = f.inc(counter, 1);
  Sequence p0(Repeat(5, incC));                                     // counter += 5
  Sequence p1(If(pred, incC, Sequence(incC, incC)));                // +1 if pred else +2
  Switch sw(sel, Repeat(10, incC));                                 // default +10
  sw.add(1, incC).add(2, Repeat(3, incC));
  Sequence p2(sw);
  Sequence p3(RepeatWhileTrue(Execute(cd), flag, incC));           // counts n down, counter += n-1
  Sequence p4(RepeatWhileFalse(Sequence(), pred, Sequence()));      // pred true: body never runs
  Engine e(f.graph, {p0, p1, p2, p3, p4});
  e.load(f.device);
  int zero = 0, one = 1, two = 2, seven = 7, five = 5;
  e.writeTensor("counter-w", &zero);
  e.run(0);
  assert_int_equal(readInt(e, "counter-r"), 5);
  bool t = true, fl = false;
  e.writeTensor("pred-w", &t);
  e.run(1);
  assert_int_equal(readInt(e, "counter-r"), 6);
  e.writeTensor("pred-w", &fl);
  e.run(1);
  assert_int_equal(readInt(e, "counter-r"), 8);
  e.writeTensor("sel-w", &one);
  e.run(2);
  assert_int_equal(readInt(e, "counter-r"), 9);
  e.writeTensor("sel-w", &two);
  e.run(2);
  assert_int_equal(readInt(e, "counter-r"), 12);
  e.writeTensor("sel-w", &seven);
  e.run(2);
  assert_int_equal(readInt(e, "counter-r"), 22);
  e.writeTensor("n-w", &five);
  e.writeTensor("counter-w", &zero);
  e.run(3);
  assert_int_equal(readInt(e, "counter-r"), 4);
  assert_int_equal(readInt(e, "n-r"), 0);
  e.writeTensor("pred-w", &t);
  e.run(4);
  assert_true(e.getLastRunCycles() > 0);
}

void test_copies_and_fields(void **) {
  Fixture f;
  Tensor a = f.graph.addVariable(FLOAT, {4, 3}, "a");
  Tensor b = f.graph.addVariable(FLOAT, {3, 4}, "b");
  for (unsigned r = 0; r < 4; ++r)
    f.graph.setTileMapping(a[r], r);
  f.graph.setTileMapping(b, 1);
  Tensor scaled = f.graph.addVariable(FLOAT, {3, 4}, "scaled");
  f.graph.setTileMapping(scaled.slice(0, 2), 2);
  f.graph.setTileMapping(scaled.slice(2, 3), 3);
  Tensor sum = f.scalar(FLOAT, 0, "sum");
  ComputeSet cs = f.graph.addComputeSet("scale");
  VertexRef v = f.graph.addVertex(cs, "Scale", {{"in", a.transpose()}, {"out", scaled}});
  f.graph.setInitialValue(v["factor"], 2.0f);
  f.graph.setTileMapping(v, 0);
  ComputeSet cs2 = f.graph.addComputeSet("sumlist");
  VertexRef s = f.graph.addVertex(cs2, "SumList");
  f.graph.setFieldSize(s["in"], 2);
  f.graph.connect(s["in"][0], scaled[0]);
  f.graph.connect(s["in"][1], a.slice(0, 1, 1).flatten());
  f.graph.connect(s["out"], sum);
  f.graph.setTileMapping(s, 3);
  f.graph.createHostWrite("a", a);
  f.graph.createHostRead("b", b);
  f.graph.createHostRead("scaled", scaled);
  f.graph.createHostRead("sum", sum);
  DataStream out = f.graph.addDeviceToHostFIFO("out", FLOAT, 4);
  Engine e(f.graph, Sequence(Copy(a.transpose(), b), Execute(cs), Execute(cs2), Copy(scaled[2], out)));
  e.load(f.device);
  std::vector<float> ha(12), hb(12), hs(12), ho(4);
  for (unsigned i = 0; i < 12; ++i)
    ha[i] = float(i);
  e.writeTensor("a", ha.data(), ha.data() + 12);
  std::vector<std::vector<float>> got;
  e.connectStreamToCallback("out", [&](void *p) { got.emplace_back((float *)p, (float *)p + 4); });
  e.run(0);
  e.readTensor("b", hb.data());
  e.readTensor("scaled", hs.data());
  for (unsigned r = 0; r < 3; ++r)
    for (unsigned c = 0; c < 4; ++c) {
      assert_true(hb[r * 4 + c] == ha[c * 3 + r]);
      assert_true(hs[r * 4 + c] == 2 * ha[c * 3 + r]);
    }
  float hsum = 0;
  e.readTensor("sum", &hsum);
  assert_true(hsum == (0 + 6 + 12 + 18) + (0 + 3 + 6 + 9));
  assert_int_equal(got.size(), 1);
  assert_true(got[0][3] == 2 * ha[3 * 3 + 2]);
  expectThrow<unknown_field>([&] { e.readTensor("nope", hb.data()); }, "no host-read handle 'nope'");
  expectThrow<application_runtime_error>([&] { e.readTensor("b", hb.data(), hb.data() + 3); }, "12 bytes");
}

/// Host-to-device callback: fetch() fills 0, 1, 2 ... n-1 plus 100 * the copy number.
class Counter : public StreamCallback {
public:
  explicit Counter(int *completes) : completes_(completes) {}
  Result prefetch(void *) { return Result::NotAvailable; }
  void fetch(void *p) {
    int *v = static_cast<int *>(p);
    for (int i = 0; i < 4; ++i)
      v[i] = 100 * copies_ + i;
    ++copies_;
  }
  void complete() { ++*completes_; }

private:
  int copies_ = 0;
  int *completes_;
};

void test_stream_callbacks(void **) {
  Fixture f;
  Tensor x = f.graph.addVariable(INT, {4}, "x");
  f.graph.setTileMapping(x.slice(0, 2), 0);
  f.graph.setTileMapping(x.slice(2, 4), 3);
  DataStream in = f.graph.addHostToDeviceFIFO("in", INT, 4);
  DataStream out = f.graph.addDeviceToHostFIFO("out", INT, 4);
  Engine e(f.graph, Repeat(3, Sequence(Copy(in, x), Copy(x.reverse(0), out))));
  e.load(f.device);
  int completes = 0;
  e.connectStreamToCallback("in", std::unique_ptr<StreamCallback>(new Counter(&completes)));
  std::vector<int> ring(8, -1);
  e.connectStream("out", ring.data(), ring.data() + 8);
  e.run(0);
  assert_int_equal(completes, 3);
  // Three copies into a ring of two: the third wraps onto the first slot.
  assert_int_equal(ring[0], 203);
  assert_int_equal(ring[3], 200);
  assert_int_equal(ring[4], 103);
  assert_int_equal(ring[7], 100);
}

void test_errors(void **) {
  {
    Fixture f;
    Tensor x = f.graph.addVariable(FLOAT, {4}, "unmapped_x");
    expectThrow<graph_program_compilation_error>([&] { Engine e(f.graph, Copy(x, x)); },
                                                 "'unmapped_x' has elements [0, 4) not mapped");
  }
  {
    Fixture f;
    Tensor x = f.scalar(INT, 0, "x");
    ComputeSet cs = f.graph.addComputeSet("cs");
    f.graph.addVertex(cs, "Inc", {{"x", x}});
    expectThrow<graph_program_compilation_error>([&] { Engine e(f.graph, Execute(cs)); },
                                                 "(Inc) in compute set 'cs' is not mapped to a tile");
  }
  {
    // connect checks its tensor before anything else and names the field (the message is built only on failure).
    Fixture f, other;
    ComputeSet cs = f.graph.addComputeSet("cs");
    VertexRef v = f.graph.addVertex(cs, "Inc");
    expectThrow<graph_connection_error>([&] { f.graph.connect(v["x"], Tensor()); },
                                        "connect(field 'x'): the tensor is invalid");
    Tensor foreign = other.scalar(INT, 0, "foreign");
    expectThrow<graph_connection_error>([&] { f.graph.connect(v["x"], foreign); },
                                        "connect(field 'x'): the tensor belongs to another graph");
  }
  {
    Fixture f;
    Tensor n = f.scalar(INT, 0, "n");
    ComputeSet cs = f.graph.addComputeSet("cs");
    VertexRef v = f.graph.addVertex(cs, "CountDown", {{"n", n}});
    f.graph.setTileMapping(v, 0);
    expectThrow<graph_connection_error>([&] { Engine e(f.graph, Execute(cs)); }, "field 'flag' is not connected");
  }
  {
    Fixture f;
    Tensor x = f.scalar(FLOAT, 0, "x");
    ComputeSet cs = f.graph.addComputeSet("cs");
    VertexRef v = f.graph.addVertex(cs, "Inc", {{"x", x}});
    f.graph.setTileMapping(v, 0);
    expectThrow<graph_program_compilation_error>([&] { Engine e(f.graph, Execute(cs)); },
                                                 "field 'x' holds int but is connected to a float tensor");
  }
  {
    Fixture f;
    Tensor x = f.scalar(INT, 0, "x");
    ComputeSet cs = f.graph.addComputeSet("cs");
    VertexRef v = f.graph.addVertex(cs, "Inc", {{"y", x}});
    f.graph.setTileMapping(v, 0);
    expectThrow<graph_connection_error>([&] { Engine e(f.graph, Execute(cs)); }, "has no field 'y' (its fields: x)");
  }
  {
    Fixture f;
    ComputeSet cs = f.graph.addComputeSet("cs");
    VertexRef v = f.graph.addVertex(cs, "NoSuchVertex");
    f.graph.setTileMapping(v, 0);
    expectThrow<graph_connection_error>([&] { Engine e(f.graph, Execute(cs)); }, "'NoSuchVertex' is not defined");
  }
  {
    Fixture f;
    Tensor big = f.graph.addVariable(FLOAT, {100000}, "big");
    f.graph.setTileMapping(big, 2);
    expectThrow<graph_memory_allocation_error>([&] { Engine e(f.graph, Copy(big, big)); },
                                               "tile 2 is out of memory by");
  }
  {
    Fixture f;
    std::string bad = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/poplar_bad_codelet.cpp";
    std::ofstream(bad) << "#include <poplar/Vertex.hpp>\nclass B : public poplar::Vertex { public: bool compute() "
                          "{ return undefined_name; } };\n";
    expectThrow<graph_object_load_error>([&] { f.graph.addCodelets(bad); }, "undefined_name");
    std::remove(bad.c_str());
    expectThrow<graph_object_load_error>([&] { f.graph.addCodelets("/nonexistent.cpp"); }, "no file");
  }
  {
    Fixture f;
    Tensor x = f.graph.addVariable(INT, {4}, "x");
    f.graph.setTileMapping(x, 1);
    DataStream s = f.graph.addHostToDeviceFIFO("lonely-stream", INT, 4);
    Engine e(f.graph, Copy(s, x));
    e.load(f.device);
    expectThrow<application_runtime_error>([&] { e.run(0); }, "lonely-stream");
    expectThrow<unknown_field>([&] { e.connectStream("other", nullptr); }, "streams: lonely-stream");
  }
  {
    Fixture f;
    Tensor x = f.scalar(INT, 0, "x");
    ComputeSet cs = f.graph.addComputeSet("cs");
    VertexRef v = f.graph.addVertex(cs, "Fails", {{"x", x}});
    f.graph.setTileMapping(v, 0);
    Engine e(f.graph, Execute(cs));
    e.load(f.device);
    expectThrow<recoverable_runtime_error>([&] { e.run(0); }, "VERTEX_FAILED");
  }
}

void test_cpu_device_and_manager(void **) {
  Device cpu = Device::createCPUDevice();
  Graph g(cpu.getTarget());
  Tensor x = g.addConstant<int>(INT, {3}, {4, 5, 6});
  Tensor y = g.addVariable(INT, {3}, "y");
  g.setTileMapping(x, 0);
  g.setTileMapping(y, 0);
  g.createHostRead("y", y);
  Engine e(g, Copy(x.reverse(0), y));
  e.load(cpu);
  e.run();
  int h[3];
  e.readTensor("y", h);
  assert_true(h[0] == 6 && h[1] == 5 && h[2] == 4);
  DeviceManager dm = DeviceManager::createDeviceManager();
  assert_true(dm.getNumDevices() >= 1);
  Device d = dm.getDevice(0);
  assert_true(d.getTarget().getTargetType() == TargetType::IPU);
  expectThrow<poplar_error>([&] { dm.getDevice(999); }, "no device 999");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_control_flow),
      cmocka_unit_test(test_copies_and_fields),
      cmocka_unit_test(test_stream_callbacks),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_cpu_device_and_manager),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
