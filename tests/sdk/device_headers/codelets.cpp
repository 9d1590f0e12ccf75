#ifdef __POPC__
#include <poplar/Vertex.hpp>
#else
#error "codelets are compiled by the codelet compiler, which defines __POPC__"
#endif
#ifdef __IPU__
#include <ipu_vector_math>
#endif
#include <print.h>

using namespace poplar;

// Halves each value in place (a half tensor) and writes the square root of the original as float.
class HalveAndRoot : public Vertex {
public:
  InOut<Vector<half, VectorLayout::SPAN>> h;
  Output<Vector<float, VectorLayout::ONE_PTR>> sq;
  bool compute() {
    for (unsigned i = 0; i < h->size(); ++i) {
      float v = h[i];
      sq.data()[i] = ipu::sqrt(ipu::fabs(v));
      h[i] = v * 0.5f;
    }
    return true;
  }
};

// Sums each vector of a list; reports whether __IPU__ was defined and the size of half on the tile.
class ListSums : public Vertex {
public:
  Input<VectorList<float, VectorListLayout::DELTANELEMENTS>> lists;
  Output<Vector<float>> sums;
  Output<Vector<int>> flags;
  bool compute() {
    for (unsigned i = 0; i < lists.size(); ++i) {
      float s = 0;
      for (float x : lists[i])
        s += x;
      sums[i] = s;
    }
#ifdef __IPU__
    flags[0] = 1;
#else
    flags[0] = 0;
#endif
    flags[1] = sizeof(half);
    return true;
  }
};

// Runs on every worker: worker w triples elements w, w + numWorkers(), ... and counts its calls.
class TripleOnWorkers : public MultiVertex {
public:
  InOut<Vector<int>> v;
  InOut<Vector<int>> calls;
  bool compute(unsigned workerId) {
    for (unsigned i = workerId; i < v.size(); i += numWorkers())
      v[i] *= 3;
    calls[workerId] += 1;
    return true;
  }
};
