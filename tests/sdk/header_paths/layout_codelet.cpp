// Codelet for header_paths: a Vector input, a VectorList input and a plain field, summed into one output.
#include <poplar/Vertex.hpp>

using namespace poplar;

class Layouts : public Vertex {
public:
  Input<Vector<float>> in;
  Input<VectorList<float, VectorListLayout::DELTANELEMENTS>> lists;
  Output<float> out;
  unsigned count;
  bool compute() {
    float sum = float(count);
    for (unsigned i = 0; i < in.size(); ++i)
      sum += in[i];
    for (unsigned j = 0; j < lists.size(); ++j)
      for (unsigned i = 0; i < lists[j].size(); ++i)
        sum += lists[j][i];
    *out = sum;
    return true;
  }
};
