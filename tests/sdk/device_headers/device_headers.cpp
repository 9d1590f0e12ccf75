// Codelets as SDK programs write them: host-only includes guarded by __POPC__, IPU paths by __IPU__, `half`
// vectors, ipu:: math, member access through edges (in->size(), out.data()), VectorList fields and vector layouts.
#include <cstdint>
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Target.hpp>

int main() {
  poplar::IPUModel model;
  poplar::Device device = model.createDevice();
  const poplar::Target &target = device.getTarget();
  poplar::Graph graph(target);
  graph.addCodelets("codelets.cpp");

  poplar::Tensor h = graph.addVariable(poplar::HALF, {6}, "h");
  poplar::Tensor sq = graph.addVariable(poplar::FLOAT, {6}, "sq");
  poplar::Tensor a = graph.addVariable(poplar::FLOAT, {3}, "a");
  poplar::Tensor b = graph.addVariable(poplar::FLOAT, {2}, "b");
  poplar::Tensor sums = graph.addVariable(poplar::FLOAT, {2}, "sums");
  poplar::Tensor flags = graph.addVariable(poplar::INT, {2}, "flags");
  poplar::Tensor v = graph.addVariable(poplar::INT, {15}, "v");
  poplar::Tensor calls = graph.addVariable(poplar::INT, {6}, "calls");
  for (poplar::Tensor t : {h, sq, a, b, sums, flags, v, calls})
    graph.setTileMapping(t, 0);

  poplar::ComputeSet cs = graph.addComputeSet("cs");
  poplar::VertexRef halve = graph.addVertex(cs, "HalveAndRoot", {{"h", h}, {"sq", sq}});
  poplar::VertexRef list = graph.addVertex(cs, "ListSums", {{"sums", sums}, {"flags", flags}});
  graph.setFieldSize(list["lists"], 2);
  graph.connect(list["lists"][0], a);
  graph.connect(list["lists"][1], b);
  poplar::VertexRef triple = graph.addVertex(cs, "TripleOnWorkers", {{"v", v}, {"calls", calls}});
  graph.setTileMapping(triple, 0);
  graph.setTileMapping(halve, 0);
  graph.setTileMapping(list, 0);

  auto hin = graph.addHostToDeviceFIFO("hin", poplar::HALF, 6);
  auto hout = graph.addDeviceToHostFIFO("hout", poplar::HALF, 6);
  auto sqout = graph.addDeviceToHostFIFO("sqout", poplar::FLOAT, 6);
  auto ain = graph.addHostToDeviceFIFO("ain", poplar::FLOAT, 3);
  auto bin = graph.addHostToDeviceFIFO("bin", poplar::FLOAT, 2);
  auto sumsout = graph.addDeviceToHostFIFO("sumsout", poplar::FLOAT, 2);
  auto flagsout = graph.addDeviceToHostFIFO("flagsout", poplar::INT, 2);
  auto vinout = graph.addHostToDeviceFIFO("vin", poplar::INT, 15);
  auto voutout = graph.addDeviceToHostFIFO("vout", poplar::INT, 15);
  auto callsout = graph.addDeviceToHostFIFO("callsout", poplar::INT, 6);
  auto callsin = graph.addHostToDeviceFIFO("callsin", poplar::INT, 6);
  poplar::program::Sequence prog({poplar::program::Copy(vinout, v), poplar::program::Copy(callsin, calls),
                                  poplar::program::Copy(hin, h), poplar::program::Copy(ain, a),
                                  poplar::program::Copy(bin, b), poplar::program::Execute(cs),
                                  poplar::program::Copy(h, hout), poplar::program::Copy(sq, sqout),
                                  poplar::program::Copy(sums, sumsout), poplar::program::Copy(flags, flagsout),
                                  poplar::program::Copy(v, voutout), poplar::program::Copy(calls, callsout)});
  poplar::Engine engine(graph, prog);
  engine.load(device);

  const float values[6] = {1.0f, 4.0f, 9.0f, 0.5f, 65504.0f, -3.0f};
  std::vector<std::uint16_t> hIn(6), hOut(6);
  poplar::copyFloatToDeviceHalf(target, values, hIn.data(), 6);
  float aIn[3] = {1, 2, 3}, bIn[2] = {10, 20}, sqOut[6], sumsOut[2];
  int flagsOut[2], vIn[15], vOut[15], callsOut[6];
  for (int i = 0; i < 15; ++i)
    vIn[i] = i;
  engine.connectStream("vin", vIn);
  engine.connectStream("vout", vOut);
  engine.connectStream("callsout", callsOut);
  int callsIn[6] = {0, 0, 0, 0, 0, 0};
  engine.connectStream("callsin", callsIn);
  engine.connectStream("hin", hIn.data());
  engine.connectStream("hout", hOut.data());
  engine.connectStream("sqout", sqOut);
  engine.connectStream("ain", aIn);
  engine.connectStream("bin", bIn);
  engine.connectStream("sumsout", sumsOut);
  engine.connectStream("flagsout", flagsOut);
  engine.run(0);

  float halved[6];
  poplar::copyDeviceHalfToFloat(target, hOut.data(), halved, 6);
  std::cout << "halved:";
  for (float f : halved)
    std::cout << " " << f;
  std::cout << "\nroots:";
  for (float f : sqOut)
    std::cout << " " << f;
  std::cout << "\nlist sums: " << sumsOut[0] << " " << sumsOut[1] << "\n";
  std::cout << "__IPU__ on the tile: " << flagsOut[0] << ", sizeof(half) on the tile: " << flagsOut[1] << "\n";
  std::cout << "tripled on workers:";
  for (int x : vOut)
    std::cout << " " << x;
  std::cout << "\ncalls per worker:";
  for (int c : callsOut)
    std::cout << " " << c;
  std::cout << "\n";
  return 0;
}
