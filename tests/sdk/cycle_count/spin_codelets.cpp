// Codelet for cycle_count: work whose length the host chooses.
#include <poplar/Vertex.hpp>

using namespace poplar;

class Spin : public Vertex {
public:
  Input<unsigned> n;
  InOut<unsigned> acc;
  bool compute() {
    volatile unsigned sum = acc;
    for (unsigned i = 0; i < n; ++i)
      sum = sum + i;
    acc = static_cast<unsigned>(sum);
    return true;
  }
};
