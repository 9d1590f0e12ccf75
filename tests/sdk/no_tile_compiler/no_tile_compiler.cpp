// A machine without the tile cross compiler: adding codelets fails with one clear message that names the Debian
// package to install, as a graph_object_load_error the program can catch.
#include <iostream>
#include <string>

#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

int main() {
  poplar::IPUModel model;
  poplar::Graph graph(model.createDevice().getTarget());
  try {
    graph.addCodelets("double.cpp");
    std::cout << "codelets compiled without a compiler?\n";
    return 1;
  } catch (const poplar::graph_object_load_error &e) {
    std::string what = e.what();
    std::cout << "names the package: "
              << (what.find("apt-get install gcc-riscv64-unknown-elf") != std::string::npos ? "yes" : what) << "\n";
  }
  return 0;
}
