// Replication in one process: a graph of replication factor 4 on a 4-IPU IPU Model runs as 4 replicas, one per IPU.
// Each replica reads its own input (a REPLICATE stream, connected per replica), the same shift (a BROADCAST
// stream, connected once), and sends its result to its own buffer; the host checks every replica's result.
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  const unsigned replicas = 4;
  const std::size_t n = 32;
  IPUModel model;
  model.numIPUs = replicas;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(replicas));
  graph.addCodelets("scale_add.cpp");
  std::cout << "replication factor " << graph.getReplicationFactor() << ", IPUs per replica "
            << graph.getTarget().getNumIPUs() << ", tiles per replica " << graph.getTarget().getNumTiles() << "\n";

  Tensor in = graph.addVariable(FLOAT, {n}, "in");
  Tensor shift = graph.addVariable(FLOAT, {n}, "shift");
  Tensor out = graph.addVariable(FLOAT, {n}, "out");
  ComputeSet cs = graph.addComputeSet("scaleAdd");
  const unsigned tiles = graph.getTarget().getNumTiles();
  const std::size_t perTile = n / tiles;
  for (unsigned tile = 0; tile < tiles; ++tile) {
    Tensor i = in.slice(tile * perTile, (tile + 1) * perTile);
    Tensor s = shift.slice(tile * perTile, (tile + 1) * perTile);
    Tensor o = out.slice(tile * perTile, (tile + 1) * perTile);
    graph.setTileMapping(i, tile);
    graph.setTileMapping(s, tile);
    graph.setTileMapping(o, tile);
    VertexRef v = graph.addVertex(cs, "ScaleAdd", {{"in", i}, {"shift", s}, {"out", o}});
    graph.setInitialValue(v["scale"], 2.0f);
    graph.setTileMapping(v, tile);
  }
  DataStream inStream = graph.addHostToDeviceFIFO("in", FLOAT, n, ReplicatedStreamMode::REPLICATE);
  DataStream shiftStream = graph.addHostToDeviceFIFO("shift", FLOAT, n, ReplicatedStreamMode::BROADCAST);
  DataStream outStream = graph.addDeviceToHostFIFO("out", FLOAT, n);
  Sequence prog(Copy(inStream, in), Copy(shiftStream, shift), Execute(cs), Copy(out, outStream));

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<std::vector<float> > input(replicas, std::vector<float>(n)), output(replicas, std::vector<float>(n));
  std::vector<float> shifts(n);
  for (std::size_t i = 0; i < n; ++i)
    shifts[i] = float(i) * 0.5f;
  for (unsigned r = 0; r < replicas; ++r) {
    for (std::size_t i = 0; i < n; ++i)
      input[r][i] = float(r * 1000 + i);
    engine.connectStream("in", r, input[r].data());
    engine.connectStream("out", r, output[r].data());
  }
  engine.connectStream("shift", shifts.data());
  engine.run(0);

  unsigned good = 0;
  for (unsigned r = 0; r < replicas; ++r) {
    std::size_t matches = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (output[r][i] == input[r][i] * 2.0f + shifts[i])
        ++matches;
    std::cout << "replica " << r << ": " << matches << " of " << n << " values match, first " << output[r][0]
              << "\n";
    if (matches == n)
      ++good;
  }
  std::cout << good << " of " << replicas << " replicas give their own results\n";
  return good == replicas ? 0 : 1;
}
