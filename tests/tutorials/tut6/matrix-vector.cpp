// Tutorial 6 (matrix-vector multiplication), written after the seed user guide: one DotProductVertex per matrix
// row, data in and out through streams, and a check of the result on the host.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

// Builds the compute set: vertex i multiplies row i of the matrix by the whole input vector.
static Program buildMultiplyProgram(Graph &graph, Tensor matrix, Tensor in, Tensor out) {
  ComputeSet mulCS = graph.addComputeSet("mulCS");
  unsigned numRows = unsigned(matrix.dim(0));
  unsigned numTiles = graph.getTarget().getNumTiles();
  for (unsigned i = 0; i < numRows; ++i) {
    VertexRef v = graph.addVertex(mulCS, "DotProductVertex", {{"a", matrix[i]}, {"b", in}, {"out", out[i]}});
    graph.setTileMapping(v, i % numTiles);
  }
  return Execute(mulCS);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " numRows numCols\n";
    return 1;
  }
  unsigned numRows = unsigned(std::atoi(argv[1]));
  unsigned numCols = unsigned(std::atoi(argv[2]));
  std::cout << "Multiplying matrix of size " << numRows << "x" << numCols << " by vector of size " << numCols
            << "\n";

  std::cout << "Creating environment (compiling vertex programs)\n";
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();
  Graph graph(target);
  graph.addCodelets("matrix-mul-codelets.cpp");

  std::cout << "Constructing compute graph and control program\n";
  Tensor matrix = graph.addVariable(FLOAT, {numRows, numCols}, "matrix");
  Tensor inputVector = graph.addVariable(FLOAT, {numCols}, "inputVector");
  Tensor outputVector = graph.addVariable(FLOAT, {numRows}, "outputVector");
  unsigned numTiles = target.getNumTiles();
  for (unsigned i = 0; i < numRows; ++i) {
    graph.setTileMapping(matrix[i], i % numTiles);
    graph.setTileMapping(outputVector[i], i % numTiles);
  }
  graph.setTileMapping(inputVector, 0);

  DataStream inStreamV = graph.addHostToDeviceFIFO("inputVector", FLOAT, numCols);
  DataStream inStreamM = graph.addHostToDeviceFIFO("inputMatrix", FLOAT, numCols * numRows);
  DataStream outStream = graph.addDeviceToHostFIFO("out", FLOAT, numRows);

  Program mulProg = buildMultiplyProgram(graph, matrix, inputVector, outputVector);
  Sequence prog({Copy(inStreamV, inputVector), Copy(inStreamM, matrix), mulProg, Copy(outputVector, outStream)});

  std::vector<float> hMatrix(numRows * numCols), hInput(numCols), hOutput(numRows);
  for (unsigned col = 0; col < numCols; ++col) {
    hInput[col] = float(col % 7) - 3.0f;
    for (unsigned row = 0; row < numRows; ++row)
      hMatrix[row * numCols + col] = float((row * 3 + col) % 11) * 0.5f - 2.0f;
  }

  Engine engine(graph, prog);
  engine.load(device);
  engine.connectStream("inputVector", &hInput[0]);
  engine.connectStream("inputMatrix", &hMatrix[0]);
  engine.connectStream("out", &hOutput[0]);

  std::cout << "Running graph program to multiply matrix by vector\n";
  engine.run(0);

  bool ok = true;
  for (unsigned row = 0; row < numRows; ++row) {
    float expected = 0;
    for (unsigned col = 0; col < numCols; ++col)
      expected += hMatrix[row * numCols + col] * hInput[col];
    if (std::fabs(hOutput[row] - expected) > 1e-3f * (1.0f + std::fabs(expected))) {
      std::cerr << "ERROR: output " << row << ": expected " << expected << " got " << hOutput[row] << "\n";
      ok = false;
    }
  }
  std::cout << (ok ? "Multiplication result OK\n" : "Multiplication result WRONG\n");
  return ok ? 0 : 1;
}
