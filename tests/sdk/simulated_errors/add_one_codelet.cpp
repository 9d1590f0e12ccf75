// Codelet for simulated_errors: adds one to every element of its vector.
#include <poplar/Vertex.hpp>

using namespace poplar;

class AddOne : public Vertex {
public:
  InOut<Vector<float>> x;
  bool compute() {
    for (unsigned i = 0; i < x.size(); ++i)
      x[i] += 1.0f;
    return true;
  }
};
