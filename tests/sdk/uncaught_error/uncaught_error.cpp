// A program that does not catch a Poplar error: what it printed before is not lost (its output goes to a file,
// where the C and C++ libraries buffer it), and the error is named.
#include <iostream>

#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

int main() {
  std::cout << "printed before the error\n";
  std::printf("printed with printf before the error\n");
  poplar::IPUModel model;
  poplar::Graph graph(model.createDevice().getTarget());
  poplar::Tensor t = graph.addVariable(poplar::FLOAT, {4}, "t");
  t.slice(2, 9); // out of range: throws, and nothing catches it
  std::cout << "not reached\n";
  return 0;
}
