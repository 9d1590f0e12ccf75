// Codelet for csr_functions: one float division, whose operands the host chooses (0 divisors, huge dividends).
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
