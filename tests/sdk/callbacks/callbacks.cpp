// Stream callbacks with a replica index (connectStreamToCallback(handle, index, callback)), a StreamCallback
// object, and setPrintStream for the tiles' own printf output.
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {
class Counter : public StreamCallback {
public:
  explicit Counter(int start) : next_(start) {}
  Result prefetch(void *) override { return Result::NotAvailable; }
  void fetch(void *p) override {
    int v[2] = {next_, next_ + 1};
    next_ += 2;
    std::memcpy(p, v, sizeof v);
  }
  void complete() override {}

private:
  int next_;
};
} // namespace

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("printer.cpp");

  Tensor x = graph.addVariable(INT, {2}, "x");
  graph.setTileMapping(x, 0);
  DataStream in = graph.addHostToDeviceFIFO("in", INT, 2);
  DataStream out = graph.addDeviceToHostFIFO("out", INT, 2);
  ComputeSet cs = graph.addComputeSet("say");
  VertexRef v = graph.addVertex(cs, "Printer", {{"x", x}});
  graph.setTileMapping(v, 0);

  Engine engine(graph, Sequence(Copy(in, x), Execute(cs), Copy(x, out)));
  int sum = 0;
  engine.connectStreamToCallback("in", 0, std::unique_ptr<StreamCallback>(new Counter(40)));
  engine.connectStreamToCallback("out", 0, [&sum](void *p) {
    int v[2];
    std::memcpy(v, p, sizeof v);
    sum += v[0] + v[1];
  });
  std::ostringstream tileOutput;
  engine.setPrintStream(tileOutput);
  engine.load(device);
  engine.run(0);
  engine.run(0);
  std::cout << "sum of what came back: " << sum << "\n";
  std::cout << "tiles said: " << tileOutput.str();
  try {
    engine.connectStreamToCallback("in", 3, [](void *) {});
  } catch (const poplar::poplar_error &e) {
    std::cout << "replica 3: " << e.what() << "\n";
  }
  return 0;
}
