// A user's program: a lookup table on the device read at run-time positions. The table (10 rows of 4 floats)
// is sliceable; the row to read comes from the host through a stream on each run of the same engine
// (dynamicSlice), and three rows at once come from an indices tensor (multiSlice). Built with
// g++ --std=c++11 popops_slice.cpp -lpoplar -lpopops -lpoputil.
#include <cstdio>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

static void printRow(const char *what, const std::vector<float> &v, std::size_t begin, std::size_t n) {
  std::printf("%s:", what);
  for (std::size_t i = begin; i < begin + n; ++i)
    std::printf(" %g", v[i]);
  std::printf("\n");
}

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  const std::size_t rows = 10, cols = 4;
  Tensor table = popops::createSliceableTensor(graph, FLOAT, {rows, cols}, {0}, {1}, 1, "table");
  Tensor offset = graph.addVariable(UNSIGNED_INT, {1}, "offset");
  graph.setTileMapping(offset, 0);
  DataStream offsetIn = graph.addHostToDeviceFIFO("offset", UNSIGNED_INT, 1);
  DataStream rowOut = graph.addDeviceToHostFIFO("row", FLOAT, cols);

  Sequence lookup;
  lookup.add(Copy(offsetIn, offset));
  Tensor row = popops::dynamicSlice(graph, table, offset, {0}, {1}, lookup, "lookup");
  lookup.add(Copy(row, rowOut));

  popops::SlicePlan plan;
  Tensor ids = popops::createIndicesTensor(graph, {0}, 3, plan, {}, "ids");
  Tensor picked = popops::multiSlice(graph, table, ids, {0}, {1}, lookup, plan, {}, "picked");
  graph.createHostWrite("table", table);
  graph.createHostWrite("ids", ids);
  graph.createHostRead("picked", picked);

  Engine engine(graph, lookup);
  engine.load(device);
  std::vector<float> hostTable(rows * cols);
  for (std::size_t i = 0; i < hostTable.size(); ++i)
    hostTable[i] = float(i) * 0.5f;
  engine.writeTensor("table", hostTable.data(), hostTable.data() + hostTable.size());
  std::vector<unsigned> hostIds = {9, 0, 4};
  engine.writeTensor("ids", hostIds.data(), hostIds.data() + hostIds.size());

  unsigned which = 0;
  std::vector<float> got(cols);
  engine.connectStream("offset", &which);
  engine.connectStream("row", got.data());
  const unsigned wanted[] = {3, 7, 12};
  for (unsigned w : wanted) {
    which = w;
    engine.run(0);
    char label[32];
    std::snprintf(label, sizeof label, "row %u", w);
    printRow(label, got, 0, cols);
  }
  std::vector<float> rowsPicked(3 * cols);
  engine.readTensor("picked", rowsPicked.data(), rowsPicked.data() + rowsPicked.size());
  for (std::size_t k = 0; k < 3; ++k) {
    char label[32];
    std::snprintf(label, sizeof label, "picked %u", hostIds[k]);
    printRow(label, rowsPicked, k * cols, cols);
  }
  return 0;
}
