// Codelets for engine_get_report: two vertex types, so that the report's counts by type can be checked.
#include <poplar/Vertex.hpp>

using namespace poplar;

class Divide : public Vertex {
public:
  Input<Vector<float>> a;
  Input<Vector<float>> b;
  Output<Vector<float>> out;
  bool compute() {
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = a[i] / b[i];
    return true;
  }
};

class Negate : public Vertex {
public:
  InOut<Vector<float>> x;
  bool compute() {
    for (unsigned i = 0; i < x.size(); ++i)
      x[i] = -x[i];
    return true;
  }
};
