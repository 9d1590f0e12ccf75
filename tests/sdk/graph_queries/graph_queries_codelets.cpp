// One vertex for graph_queries: doubles a vector in place.
#include <poplar/Vertex.hpp>

class Doubler : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float>> x;
  bool compute() {
    for (unsigned i = 0; i < x.size(); ++i)
      x[i] *= 2;
    return true;
  }
};
