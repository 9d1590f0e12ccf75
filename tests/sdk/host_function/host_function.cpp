// A user's program on host functions (Graph::addHostFunction, program::Call of a HostFunction,
// Engine::connectHostFunction with a HostCallbackHandle): the run stops at each Call, the input tensors reach the
// callback, what it writes lands in the output tensors, and the program goes on with them. Run on a 4-tile IPU
// Model and on the default (Mk2-shaped, 1472-tile) IPU device with the tensors on its last tile. Then every refusal:
// bad arguments, wrong tensors, unknown handles, an unconnected function at run time, a callback that throws.
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/HostFunctionCallback.hpp>
#include <poplar/IPUModel.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

// A HostCallback object: counts its calls, adds 1000 to its only input.
class AddThousand : public HostCallback {
public:
  explicit AddThousand(int *calls) : calls_(calls) {}
  void operator()(ArrayRef<const void *> inputs, ArrayRef<void *> outputs) override {
    ++*calls_;
    int v;
    std::memcpy(&v, inputs[0], sizeof v);
    v += 1000;
    std::memcpy(outputs[0], &v, sizeof v);
  }

private:
  int *calls_;
};

struct Seen {
  std::vector<float> x;
  std::vector<int> y;
  unsigned inputs = 0, outputs = 0;
  int calls = 0;
};

// Runs the example on `device`, its tensors on tile `tile`: z = x * y[0] + y[1] on the host, twice in one run
// (the second call takes the first call's result as x), then z goes to the host through a stream.
static void example(Device &device, unsigned tile, const std::string &where) {
  Graph graph(device.getTarget());
  Tensor x = graph.addVariable(FLOAT, {4}, "x");
  Tensor y = graph.addVariable(INT, {2}, "y");
  Tensor z = graph.addVariable(FLOAT, {2, 2}, "z");
  Tensor k = graph.addVariable(INT, {1}, "k");
  for (const Tensor &t : {x, y, z, k})
    graph.setTileMapping(t, tile);
  Tensor x0 = graph.addConstant(FLOAT, {4}, std::vector<float>{1, 2, 3, 4}.data(), "x0");
  Tensor y0 = graph.addConstant(INT, {2}, std::vector<int>{10, 20}.data(), "y0");
  graph.setTileMapping(x0, 0);
  graph.setTileMapping(y0, 0);
  HostFunction scale = graph.addHostFunction("scale", {{FLOAT, 4}, {INT, 2}}, {{FLOAT, 4}});
  HostFunction plus = graph.addHostFunction("plus", {{INT, 1}}, {{INT, 1}});
  HostFunction tick = graph.addHostFunction("tick", {}, {});
  check(scale.getId() == 0 && plus.getId() == 1 && tick.getId() == 2, where + ": HostFunction::getId counts 0, 1, 2");
  DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, 4);
  DataStream kOut = graph.addDeviceToHostFIFO("kOut", INT, 1);
  Sequence prog({Copy(x0, x), Copy(y0, y), Call(scale, {x, y}, {z}), Copy(z.flatten(), x),
                 Call(scale, {x, y}, {z}), Copy(z, out), Copy(y.slice(0, 1), k), Call(plus, {k}, {k}),
                 Repeat(3, Call(tick, {}, {})), Copy(k, kOut)});
  Engine engine(graph, prog);
  engine.load(device);

  Seen seen;
  engine.connectHostFunction("scale", 0, [&seen](ArrayRef<const void *> in, ArrayRef<void *> outs) {
    ++seen.calls;
    seen.inputs = unsigned(in.size());
    seen.outputs = unsigned(outs.size());
    const float *xs = static_cast<const float *>(in[0]);
    const int *ys = static_cast<const int *>(in[1]);
    seen.x.assign(xs, xs + 4);
    seen.y.assign(ys, ys + 2);
    float *zs = static_cast<float *>(outs[0]);
    for (unsigned i = 0; i < 4; ++i)
      zs[i] = xs[i] * float(ys[0]) + float(ys[1]);
  });
  int plusCalls = 0;
  engine.connectHostFunction("plus", 0, std::unique_ptr<AddThousand>(new AddThousand(&plusCalls)));
  int ticks = 0;
  std::function<void(ArrayRef<const void *>, ArrayRef<void *>)> tickFn = [&ticks](ArrayRef<const void *> in,
                                                                                  ArrayRef<void *> outs) {
    if (in.empty() && outs.empty())
      ++ticks;
  };
  engine.connectHostFunction(StringRef("tick"), 0, tickFn);
  std::vector<float> result(4, 0);
  int kBack = 0;
  engine.connectStream("out", result.data());
  engine.connectStream("kOut", &kBack);
  engine.run(0);

  check(seen.calls == 2 && seen.inputs == 2 && seen.outputs == 1,
        where + ": the callback ran at each of the 2 Calls with 2 inputs and 1 output");
  check(seen.y == std::vector<int>({10, 20}), where + ": the INT input reached the host: 10 20");
  // The second call saw the first call's result, copied back into x on the device: 30 40 50 60.
  check(seen.x == std::vector<float>({30, 40, 50, 60}), where + ": the second Call saw the first's output: 30 40 50 60");
  check(result == std::vector<float>({320, 420, 520, 620}), where + ": the outputs reached the device: 320 420 520 620");
  check(plusCalls == 1 && kBack == 1010, where + ": a unique_ptr<HostCallback> callback, in place (k -> k): 1010");
  check(ticks == 3, where + ": a host function of no arguments ran once per Repeat iteration: 3");
  engine.run(0);
  check(seen.calls == 4 && ticks == 6 && result[0] == 320, where + ": a second run calls back again");
}

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device modelDevice = model.createDevice();
  example(modelDevice, 1, "IPU Model");

  DeviceManager manager = DeviceManager::createDeviceManager();
  std::vector<Device> ipus = manager.getDevices(TargetType::IPU, 1);
  Device ipu;
  for (auto &d : ipus)
    if (d.attach()) {
      ipu = std::move(d);
      break;
    }
  check(ipu.getTarget().getNumTiles() == 1472, "the default IPU device has 1472 tiles");
  example(ipu, ipu.getTarget().getNumTiles() - 1, "IPU tile 1471");

  // A replicated graph: each replica calls back through its own connection (connectHostFunction's index).
  {
    IPUModel two;
    two.numIPUs = 2;
    two.tilesPerIPU = 4;
    Device twoDevice = two.createDevice();
    Graph rgraph(twoDevice.getTarget(), replication_factor(2));
    Tensor index = rgraph.addReplicationIndexConstant("index");
    Tensor y = rgraph.addVariable(UNSIGNED_INT, {1}, "y");
    rgraph.setTileMapping(index, 1);
    rgraph.setTileMapping(y, 2);
    HostFunction tag = rgraph.addHostFunction("tag", {{UNSIGNED_INT, 1}}, {{UNSIGNED_INT, 1}});
    DataStream yOut = rgraph.addDeviceToHostFIFO("yOut", UNSIGNED_INT, 1);
    Engine rengine(rgraph, Sequence({Call(tag, {index.reshape({1})}, {y}), Copy(y, yOut)}));
    rengine.load(twoDevice);
    for (unsigned r = 0; r < 2; ++r)
      rengine.connectHostFunction("tag", r, [r](ArrayRef<const void *> in, ArrayRef<void *> outs) {
        unsigned v;
        std::memcpy(&v, in[0], sizeof v);
        v += 7 + 100 * (r + 1);
        std::memcpy(outs[0], &v, sizeof v);
      });
    unsigned got[2] = {0, 0};
    rengine.connectStream("yOut", 0u, &got[0]);
    rengine.connectStream("yOut", 1u, &got[1]);
    rengine.run(0);
    check(got[0] == 107 && got[1] == 208,
          "2 replicas: each calls its own callback with its own input (index + 7 + 100 (r + 1)): 107 208");
  }

  // Refusals, on the IPU Model.
  Graph graph(modelDevice.getTarget());
  Tensor a = graph.addVariable(INT, {3}, "a");
  Tensor f = graph.addVariable(FLOAT, {3}, "f");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(f, 0);
  HostFunction h = graph.addHostFunction("h", {{INT, 3}}, {{INT, 3}});
  checkThrows([&] { graph.addHostFunction("h", {}, {}); }, "already exists", "a second host function 'h' is refused");
  checkThrows([&] { graph.addHostFunction("zero", {{INT, 0}}, {}); }, "input 0 has 0 elements",
              "an argument of 0 elements is refused");
  checkThrows([&] { graph.addHostFunction("", {}, {}); }, "handle is empty", "an empty handle is refused");
  check(has(refusal<poplar_error>([&] { Call(h, {a}, {}); }), "1 output(s)"),
        "Call with too few outputs is refused with poplar_error naming the count");
  check(has(refusal<poplar_error>([&] { Call(h, {f}, {a}); }), "must hold 3 int elements"),
        "Call with a FLOAT tensor for an INT argument is refused naming the type");
  check(has(refusal<poplar_error>([&] { Call(h, {a}, {a.slice(0, 2)}); }), "it has 2 int elements"),
        "Call with a tensor of the wrong size is refused naming the size");
  check(has(refusal<poplar_error>([&] { Call(HostFunction(), {}, {}); }), "invalid host function"),
        "Call of a default HostFunction is refused");
  check(has(refusal<poplar_error>([] { HostCallbackHandle hnd{std::unique_ptr<HostCallback>()}; }), "null pointer"),
        "a null HostCallback is refused with poplar_error");
  check(has(refusal<poplar_error>([] {
          HostCallbackHandle hnd{std::function<void(ArrayRef<const void *>, ArrayRef<void *>)>()};
        }),
            "function is empty"),
        "an empty callback function is refused with poplar_error");

  graph.createHostWrite("aw", a);
  graph.createHostRead("ar", a);
  Engine engine(graph, Sequence({Call(h, {a}, {a})}));
  engine.load(modelDevice);
  auto doubler = [](ArrayRef<const void *> in, ArrayRef<void *> outs) {
    const int *v = static_cast<const int *>(in[0]);
    int *w = static_cast<int *>(outs[0]);
    for (unsigned i = 0; i < 3; ++i)
      w[i] = 2 * v[i];
  };
  check(has(refusal<stream_connection_error>([&] { engine.connectHostFunction("nope", 0, doubler); }),
            "no host function 'nope'"),
        "connectHostFunction of an unknown handle throws stream_connection_error");
  check(has(refusal<invalid_option>([&] { engine.connectHostFunction("h", 1, doubler); }), "replica index 1"),
        "connectHostFunction of a replica that does not exist throws invalid_option");
  check(has(refusal<stream_connection_error>([&] { engine.run(0); }), "engine.connectHostFunction(\"h\", 0"),
        "a run reaching an unconnected host function throws stream_connection_error naming the fix");
  engine.connectHostFunction("h", 0, [](ArrayRef<const void *>, ArrayRef<void *>) {
    throw std::runtime_error("the user's own failure");
  });
  check(has(refusal<std::runtime_error>([&] { engine.run(0); }), "the user's own failure"),
        "a callback's exception comes out of Engine::run");
  engine.connectHostFunction("h", 0, doubler);
  std::vector<int> values{1, 2, 3}, back(3, 0);
  engine.writeTensor("aw", values.data(), values.data() + 3);
  engine.run(0);
  engine.readTensor("ar", back.data(), back.data() + 3);
  check(back == std::vector<int>({2, 4, 6}), "after the failures the engine runs again and calls back: 2 4 6");
  return checksDone("host functions: all checks passed");
}
