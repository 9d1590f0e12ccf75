// The vertices of two_ipu_pipeline.cpp: one stage of the pipeline per IPU.
#include <poplar/Vertex.hpp>

using namespace poplar;

// out[i] = in[i] * gain + bias: a stage the host can recompute exactly in float.
class AffineStage : public Vertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;
  float gain;
  float bias;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = in[i] * gain + bias;
    return true;
  }
};
