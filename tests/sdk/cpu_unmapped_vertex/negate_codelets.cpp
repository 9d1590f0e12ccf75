// Codelet for cpu_unmapped_vertex.
#include <poplar/Vertex.hpp>

using namespace poplar;

class Negate : public Vertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = -in[i];
    return true;
  }
};
