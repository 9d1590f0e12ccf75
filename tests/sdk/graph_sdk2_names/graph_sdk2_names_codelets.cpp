// One vertex for graph_sdk2_names: adds one to every element of a vector in place.
#include <poplar/Vertex.hpp>

class AddOne : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float>> x;
  bool compute() {
    for (unsigned i = 0; i < x.size(); ++i)
      x[i] += 1;
    return true;
  }
};
