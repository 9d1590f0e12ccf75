// One vertex that fails (returns false: a VERTEX_FAILED fault) and one that works.
#include <poplar/Vertex.hpp>

class Refuses : public poplar::Vertex {
public:
  poplar::InOut<int> x;
  bool compute() { return false; }
};

class Adds : public poplar::Vertex {
public:
  poplar::InOut<int> x;
  bool compute() {
    *x += 1;
    return true;
  }
};
