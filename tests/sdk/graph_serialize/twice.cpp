// The vertex the serialized graph holds (it is never run here: the test looks at the graph's structure).
#include <poplar/Vertex.hpp>

class Twice : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float>> data;
  bool compute() {
    for (unsigned i = 0; i < data.size(); ++i)
      data[i] *= 2;
    return true;
  }
};
