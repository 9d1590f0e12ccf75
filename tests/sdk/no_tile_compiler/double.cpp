#include <poplar/Vertex.hpp>

class Double : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float>> v;
  bool compute() {
    for (unsigned i = 0; i < v.size(); ++i)
      v[i] *= 2;
    return true;
  }
};
