// Codelets of the replication tests: element-wise sum of two vectors, and a scaled copy.
#include <poplar/Vertex.hpp>

using namespace poplar;

class AddVectors : public Vertex {
public:
  Input<Vector<float>> a;
  Input<Vector<float>> b;
  Output<Vector<float>> out;
  bool compute() {
    for (unsigned i = 0; i < a.size(); ++i)
      out[i] = a[i] + b[i];
    return true;
  }
};

class ScaleBy : public Vertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;
  float factor;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = in[i] * factor;
    return true;
  }
};
