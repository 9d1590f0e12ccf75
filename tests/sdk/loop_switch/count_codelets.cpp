// Codelet for loop_switch: counts up and says when the count reaches a limit.
#include <poplar/Vertex.hpp>

using namespace poplar;

class CountUp : public Vertex {
public:
  InOut<unsigned> n;
  Input<unsigned> limit;
  Output<unsigned> done;
  bool compute() {
    const unsigned previous = n;
    const unsigned count = previous + 1u;
    const unsigned last = limit;
    n = count;
    done = count >= last ? 1u : 0u;
    return true;
  }
};
