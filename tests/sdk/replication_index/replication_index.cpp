// Graph::addReplicationIndexConstant: in a graph of 4 replicas each replica's copy of the constant holds its own
// index (each replica sends it to the host through its own stream buffer, and uses it on the device as a Switch
// value); in a graph that is not replicated it holds 0. replication_factor's comparisons and increments.
#include <iostream>
#include <utility>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  const unsigned replicas = 4;
  IPUModel model;
  model.numIPUs = replicas;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(replicas));
  Tensor index = graph.addReplicationIndexConstant("myIndex");
  graph.setTileMapping(index, 1);
  std::cout << "type " << index.elementType() << ", rank " << index.rank() << ", constant "
            << graph.isConstant(index) << "\n";

  // Each replica picks a value by its index: replica r sends 10 * (r + 1).
  Tensor picked = graph.addVariable(INT, {}, "picked");
  graph.setTileMapping(picked, 2);
  std::vector<std::pair<std::int32_t, Program> > cases;
  for (int r = 0; r < int(replicas); ++r) {
    Tensor value = graph.addConstant<int>(INT, {}, 10 * (r + 1));
    graph.setTileMapping(value, 2);
    cases.push_back(std::make_pair(r, Program(Copy(value, picked))));
  }
  DataStream indexOut = graph.addDeviceToHostFIFO("index", UNSIGNED_INT, 1);
  DataStream pickedOut = graph.addDeviceToHostFIFO("picked", INT, 1);
  Engine engine(graph, Sequence({Copy(index, indexOut), Switch(index, cases), Copy(picked, pickedOut)}));
  engine.load(device);
  std::vector<unsigned> got(replicas, 99);
  std::vector<int> values(replicas, 0);
  for (unsigned r = 0; r < replicas; ++r) {
    engine.connectStream("index", r, &got[r]);
    engine.connectStream("picked", r, &values[r]);
  }
  engine.run(0);
  for (unsigned r = 0; r < replicas; ++r)
    std::cout << "replica " << r << ": index " << got[r] << ", picked " << values[r] << "\n";

  // Not replicated: the index is 0.
  IPUModel single;
  single.tilesPerIPU = 4;
  Device one = single.createDevice();
  Graph plain(one.getTarget());
  Tensor plainIndex = plain.addReplicationIndexConstant();
  plain.setTileMapping(plainIndex, 3);
  DataStream plainOut = plain.addDeviceToHostFIFO("index", UNSIGNED_INT, 1);
  Engine plainEngine(plain, Copy(plainIndex, plainOut));
  plainEngine.load(one);
  unsigned plainValue = 99;
  plainEngine.connectStream("index", &plainValue);
  plainEngine.run(0);
  std::cout << "not replicated: index " << plainValue << "\n";

  // replication_factor compares and counts.
  replication_factor factor(2);
  replication_factor before = factor++;
  ++factor;
  std::cout << "replication_factor " << before.value << " -> " << factor.value << ", equal "
            << (factor == replication_factor(4)) << ", differ " << (factor != before) << ", less " << (before < factor)
            << "\n";
  return 0;
}
