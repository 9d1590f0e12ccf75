// A vertex that prints what it was given (the tiles' printf goes to Engine::setPrintStream's stream).
#include <poplar/Vertex.hpp>
#include <stdio.h>

class Printer : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<int>> x;
  bool compute() {
    printf("got %d and %d\n", x[0], x[1]);
    x[0] += 1;
    return true;
  }
};
