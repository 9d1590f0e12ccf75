// One stage of the pipeline: out = in * scale + shift, element by element.
#include <poplar/Vertex.hpp>

using namespace poplar;

class PipelineStep : public Vertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;
  float scale;
  float shift;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = in[i] * scale + shift;
    return true;
  }
};
