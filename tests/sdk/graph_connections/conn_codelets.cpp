// Codelet for graph_connections: sums a VectorList of ints, scales by a plain field and adds another.
#include <poplar/Vertex.hpp>

using namespace poplar;

class Summer : public Vertex {
public:
  Input<VectorList<int, VectorListLayout::DELTANELEMENTS>> parts;
  Output<int> out;
  unsigned n;
  int bias;
  bool compute() {
    int sum = 0;
    for (unsigned j = 0; j < parts.size(); ++j)
      for (unsigned i = 0; i < parts[j].size(); ++i)
        sum += parts[j][i];
    *out = sum * int(n) + bias;
    return true;
  }
};
