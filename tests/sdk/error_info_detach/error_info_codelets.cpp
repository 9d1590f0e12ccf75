// Codelets for error_info_detach: one adds one to its element, one stores to the tile address its field gives (an
// address outside the tile's memory, so the store faults).
#include <poplar/Vertex.hpp>

class AddOne : public poplar::Vertex {
public:
  poplar::InOut<int> x;
  bool compute() {
    *x += 1;
    return true;
  }
};

class StoresTo : public poplar::Vertex {
public:
  poplar::Input<unsigned> address;
  bool compute() {
    volatile int *p = reinterpret_cast<volatile int *>(static_cast<unsigned long>(*address));
    *p = 1;
    return true;
  }
};
