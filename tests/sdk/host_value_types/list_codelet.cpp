// Codelet for host_value_types: a vertex with a VectorList input (its items' sizes and values are what the perf
// estimator reads through FieldData) that writes the sum of every item.
#include <poplar/Vertex.hpp>

class SumLists : public poplar::Vertex {
public:
  poplar::Input<poplar::VectorList<int, poplar::VectorListLayout::DELTANELEMENTS>> lists;
  poplar::Output<int> sum;
  bool compute() {
    int s = 0;
    for (unsigned i = 0; i < lists.size(); ++i)
      for (unsigned j = 0; j < lists[i].size(); ++j)
        s += lists[i][j];
    *sum = s;
    return true;
  }
};
