// Codelets for type_constants: 64-bit integers on the tile, and a byte vertex for the quarter check.
#include <poplar/Vertex.hpp>

using namespace poplar;

class TimesThousand : public Vertex {
public:
  InOut<Vector<long long>> v;
  bool compute() {
    for (unsigned i = 0; i < v.size(); ++i)
      v[i] = v[i] * 1000;
    return true;
  }
};

class Bytes : public Vertex {
public:
  InOut<Vector<unsigned char>> v;
  bool compute() { return true; }
};
