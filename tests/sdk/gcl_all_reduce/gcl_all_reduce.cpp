// Data-parallel style sum across replicas: 4 replicas of one IPU each on a 4-IPU IPU Model, each with its own
// gradient-like vector; gcl::allReduceInPlace with ADD leaves the sum of all four in every replica.
#include <iostream>
#include <vector>

#include <gcl/Collectives.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  const unsigned replicas = 4;
  const std::size_t n = 10;
  IPUModel model;
  model.numIPUs = replicas;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(replicas));
  popops::addCodelets(graph);
  Tensor grads = graph.addLinearlyMappedVariable(FLOAT, {n}, "grads");
  Sequence prog(Copy(graph.addHostToDeviceFIFO("grads", FLOAT, n), grads));
  gcl::allReduceInPlace(graph, grads, gcl::CollectiveOperator::ADD, prog);
  prog.add(Copy(grads, graph.addDeviceToHostFIFO("summed", FLOAT, n)));

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<std::vector<float> > in(replicas, std::vector<float>(n)), out(replicas, std::vector<float>(n));
  for (unsigned r = 0; r < replicas; ++r) {
    for (std::size_t i = 0; i < n; ++i)
      in[r][i] = float(r + 1) * 0.25f + float(i);
    engine.connectStream("grads", r, in[r].data());
    engine.connectStream("summed", r, out[r].data());
  }
  engine.run(0);
  unsigned agree = 0;
  for (unsigned r = 0; r < replicas; ++r) {
    bool ok = true;
    for (std::size_t i = 0; i < n; ++i) {
      float sum = 0;
      for (unsigned q = 0; q < replicas; ++q)
        sum += in[q][i];
      ok = ok && out[r][i] == sum;
    }
    std::cout << "replica " << r << ": first " << out[r][0] << ", last " << out[r][n - 1]
              << (ok ? ", the host's sums" : ", WRONG") << "\n";
    agree += ok;
  }
  std::cout << agree << " of " << replicas << " replicas hold the sum of all replicas\n";
  return agree == replicas ? 0 : 1;
}
