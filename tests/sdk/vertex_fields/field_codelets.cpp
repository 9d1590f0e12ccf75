// Codelet for vertex_fields: a vertex with every kind of field (Vector, VectorList, scalar edge, plain fields).
#include <poplar/Vertex.hpp>

using namespace poplar;

class Fields : public Vertex {
public:
  Input<Vector<float>> in;
  Input<VectorList<float, VectorListLayout::DELTANELEMENTS>> lists;
  Output<float> out;
  unsigned short count;
  float scale;
  int offsets[3];
  bool compute() {
    float sum = 0;
    for (unsigned i = 0; i < in.size(); ++i)
      sum += in[i];
    for (unsigned j = 0; j < lists.size(); ++j)
      for (unsigned i = 0; i < lists[j].size(); ++i)
        sum += lists[j][i];
    *out = sum * scale + float(count) + float(offsets[0] + offsets[1] + offsets[2]);
    return true;
  }
};
