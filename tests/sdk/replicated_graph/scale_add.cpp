// out = in * scale + shift[i], element by element: `in` differs per replica, `shift` is the same for all.
#include <poplar/Vertex.hpp>

using namespace poplar;

class ScaleAdd : public Vertex {
public:
  Input<Vector<float>> in;
  Input<Vector<float>> shift;
  Output<Vector<float>> out;
  float scale;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = in[i] * scale + shift[i];
    return true;
  }
};
