// Tutorial 4 (profiling output), written after the seed user guide: three matrices made by poplin's create
// functions, the product ((m1 * m2) * m3) with poplin::matMul, where m3 is a column vector, checked against the
// host, and the profile summary of the run (memory, compute sets, execution cycles) printed at the end.
// Usage: tut4 [ipu1|ipu2]
#include <cmath>
#include <cstring>
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

int main(int argc, char **argv) {
  const char *version = argc > 1 ? argv[1] : "ipu2";
  IPUModel ipuModel(version);
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);

  const std::size_t rows = 120, inner = 90, cols = 70;
  // Each operand laid out for the product it takes part in; one cache plans each product once.
  poplin::matmul::PlanningCache cache;
  Tensor m1 = poplin::createMatMulInputLHS(graph, FLOAT, {rows, inner}, {inner, cols}, "m1", {}, &cache);
  Tensor m2 = poplin::createMatMulInputRHS(graph, FLOAT, {rows, inner}, {inner, cols}, "m2", {}, &cache);
  Tensor m3 = poplin::createMatMulInputRHS(graph, FLOAT, {rows, cols}, {cols, 1}, "m3", {}, &cache);

  std::vector<float> h1(rows * inner), h2(inner * cols), h3(cols);
  for (std::size_t i = 0; i < h1.size(); ++i)
    h1[i] = float(i % 7) - 3.0f;
  for (std::size_t i = 0; i < h2.size(); ++i)
    h2[i] = float(i % 5) * 0.5f - 1.0f;
  for (std::size_t i = 0; i < h3.size(); ++i)
    h3[i] = float(i % 3) - 1.0f;
  Tensor c1 = graph.addConstant<float>(FLOAT, {rows, inner}, h1, "c1");
  Tensor c2 = graph.addConstant<float>(FLOAT, {inner, cols}, h2, "c2");
  Tensor c3 = graph.addConstant<float>(FLOAT, {cols, 1}, h3, "c3");
  graph.setTileMapping(c1, 0);
  graph.setTileMapping(c2, 1);
  graph.setTileMapping(c3, 2);

  Sequence prog;
  prog.add(Copy(c1, m1));
  prog.add(Copy(c2, m2));
  prog.add(Copy(c3, m3));
  Tensor m4 = poplin::matMul(graph, m1, m2, prog, "m4", {}, &cache);
  Tensor m5 = poplin::matMul(graph, m4, m3, prog, "m5", {}, &cache);
  graph.createHostRead("m5", m5);
  poplin::matMulReportPlan(std::cout, graph, FLOAT, {rows, inner}, {inner, cols}, {}, &cache);
  poplin::matMulReportPlan(std::cout, graph, FLOAT, {rows, cols}, {cols, 1}, {}, &cache);

  Engine engine(graph, prog, OptionFlags{{"debug.instrument", "true"}});
  engine.load(device);
  engine.run(0);

  std::vector<float> got(rows);
  engine.readTensor("m5", got.data(), got.data() + got.size());
  bool ok = true;
  for (std::size_t i = 0; i < rows; ++i) {
    double want = 0;
    for (std::size_t j = 0; j < cols; ++j) {
      double m4ij = 0;
      for (std::size_t k = 0; k < inner; ++k)
        m4ij += double(h1[i * inner + k]) * double(h2[k * cols + j]);
      want += m4ij * double(h3[j]);
    }
    if (std::fabs(got[i] - want) > 1e-3 * std::max(1.0, std::fabs(want))) {
      std::cout << "m5[" << i << "] = " << got[i] << ", want " << want << "\n";
      ok = false;
    }
  }
  std::cout << (ok ? "Multiplication result OK" : "Multiplication result WRONG") << "\n";
  engine.printProfileSummary(std::cout, OptionFlags{{"showExecutionSteps", "true"}});
  return ok ? 0 : 1;
}
