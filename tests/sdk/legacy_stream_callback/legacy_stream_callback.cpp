// A user's program with stream callbacks written the SDK's way: classes derived from a default-constructed
// LegacyStreamCallback that override fetch() only, one feeding the device and one receiving from it.
#include <cstdio>
#include <cstring>
#include <memory>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/StreamCallback.hpp>

using namespace poplar;
using namespace poplar::program;

class Counter : public LegacyStreamCallback {
public:
  void fetch(void *p) override {
    int values[2] = {next_, next_ + 1};
    next_ += 10;
    std::memcpy(p, values, sizeof values);
  }

private:
  int next_ = 1;
};

class Printer : public LegacyStreamCallback {
public:
  void fetch(void *p) override {
    int values[2];
    std::memcpy(values, p, sizeof values);
    std::printf("received: %d %d\n", values[0], values[1]);
  }
};

int main() {
  IPUModel model;
  model.tilesPerIPU = 2;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor t = graph.addVariable(INT, {2}, "t");
  graph.setTileMapping(t, 1);
  DataStream in = graph.addHostToDeviceFIFO("in", INT, 2);
  DataStream out = graph.addDeviceToHostFIFO("out", INT, 2);
  Engine engine(graph, Sequence({Copy(in, t), Copy(t, out)}));
  engine.connectStreamToCallback("in", std::unique_ptr<StreamCallback>(new Counter()));
  engine.connectStreamToCallback("out", std::unique_ptr<StreamCallback>(new Printer()));
  engine.load(device);
  engine.run(0);
  engine.run(0);
  LegacyStreamCallback bare;
  try {
    int buf[2];
    bare.fetch(buf);
    std::printf("a bare LegacyStreamCallback fetched\n");
  } catch (const poplar_error &e) {
    std::printf("bare fetch refused: %s\n", std::strstr(e.what(), "override fetch") ? "names the fix" : e.what());
  }
  return 0;
}
