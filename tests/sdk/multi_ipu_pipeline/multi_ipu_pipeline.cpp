// A pipeline over a 4-IPU IPU Model: one virtual graph per IPU; each IPU applies its step to the data the previous
// IPU computed (the copies between the virtual graphs cross the IPU-Links), and the host checks the result against
// its own computation of the same steps.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  const unsigned numIPUs = 4;
  const std::size_t n = 64;
  IPUModel model;
  model.numIPUs = numIPUs;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("pipeline_step.cpp");
  const Target &target = graph.getTarget();
  const unsigned tilesPerIPU = target.getTilesPerIPU();
  std::cout << "IPUs " << target.getNumIPUs() << ", tiles per IPU " << tilesPerIPU << ", tiles "
            << target.getNumTiles() << "\n";

  Sequence prog;
  DataStream input = graph.addHostToDeviceFIFO("input", FLOAT, n);
  DataStream output = graph.addDeviceToHostFIFO("output", FLOAT, n);
  Tensor previous;
  for (unsigned ipu = 0; ipu < numIPUs; ++ipu) {
    Graph stage = graph.createVirtualGraph(ipu * tilesPerIPU, (ipu + 1) * tilesPerIPU);
    Tensor in = stage.addVariable(FLOAT, {n}, "in" + std::to_string(ipu));
    Tensor out = stage.addVariable(FLOAT, {n}, "out" + std::to_string(ipu));
    ComputeSet cs = stage.addComputeSet("step" + std::to_string(ipu));
    const std::size_t perTile = n / tilesPerIPU;
    for (unsigned tile = 0; tile < tilesPerIPU; ++tile) {
      Tensor inPart = in.slice(tile * perTile, (tile + 1) * perTile);
      Tensor outPart = out.slice(tile * perTile, (tile + 1) * perTile);
      stage.setTileMapping(inPart, tile);
      stage.setTileMapping(outPart, tile);
      VertexRef v = stage.addVertex(cs, "PipelineStep", {{"in", inPart}, {"out", outPart}});
      stage.setInitialValue(v["scale"], float(ipu + 2));
      stage.setInitialValue(v["shift"], float(ipu) - 1.5f);
      stage.setTileMapping(v, tile);
    }
    if (ipu == 0)
      prog.add(Copy(input, in));
    else
      prog.add(Copy(previous, in)); // from the previous IPU's tiles
    prog.add(Execute(cs));
    previous = out;
  }
  prog.add(Copy(previous, output));

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> in(n), out(n, 0.0f);
  for (std::size_t i = 0; i < n; ++i)
    in[i] = float(i) * 0.25f - 4.0f;
  engine.connectStream("input", in.data());
  engine.connectStream("output", out.data());
  engine.run(0);

  std::size_t matches = 0;
  for (std::size_t i = 0; i < n; ++i) {
    float expect = in[i];
    for (unsigned ipu = 0; ipu < numIPUs; ++ipu)
      expect = expect * float(ipu + 2) + (float(ipu) - 1.5f);
    if (out[i] == expect)
      ++matches;
    else
      std::cout << "element " << i << ": got " << out[i] << ", expected " << expect << "\n";
  }
  std::cout << "pipeline over " << numIPUs << " IPUs: " << matches << " of " << n
            << " values match the host reference\n";
  OptionFlags opts;
  opts.set("showPerIpuMemoryUsage", "true");
  engine.printProfileSummary(std::cout, opts);
  return matches == n ? 0 : 1;
}
