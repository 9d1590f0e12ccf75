// Codelets used by the poplar engine tests: counters and predicates for control flow, and a float scaler.
#include <poplar/Vertex.hpp>

using namespace poplar;

class Inc : public Vertex {
public:
  InOut<int> x;
  bool compute() {
    *x += 1;
    return true;
  }
};

// Counts n down and sets flag to (n > 0) after the decrement.
class CountDown : public Vertex {
public:
  InOut<int> n;
  Output<int> flag;
  bool compute() {
    *n -= 1;
    *flag = *n > 0;
    return true;
  }
};

class Scale : public Vertex {
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

class SumList : public Vertex {
public:
  Input<VectorList<float>> in;
  Output<float> out;
  bool compute() {
    float s = 0;
    for (unsigned i = 0; i < in.size(); ++i)
      for (float v : in[i])
        s += v;
    *out = s;
    return true;
  }
};

class Fails : public Vertex {
public:
  Output<int> x;
  bool compute() { return false; }
};
