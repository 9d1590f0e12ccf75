// Codelet for graph_external: doubles its element.
#include <poplar/Vertex.hpp>

class Doubles : public poplar::Vertex {
public:
  poplar::InOut<float> x;
  bool compute() {
    *x *= 2.0f;
    return true;
  }
};
