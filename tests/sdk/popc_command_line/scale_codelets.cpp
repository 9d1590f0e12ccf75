// Codelets for popc_command_line: need -D SCALE=... and the folder of scale_offset.h on the include path.
#include <poplar/Vertex.hpp>

#include "scale_offset.h" // found only through popc -I

#ifndef SCALE
#error "SCALE is not defined: popc must pass -D to the tile compiler"
#endif

using namespace poplar;

class ScaleAndOffset : public Vertex {
public:
  InOut<Vector<int>> v;
  bool compute() {
    for (unsigned i = 0; i < v.size(); ++i)
      v[i] = v[i] * SCALE + OFFSET;
    return true;
  }
};
