// The vertex for graph_init_callback: reports where its two inputs are in tile memory and the field the host set
// by callback, so that the host can compare the callback's view of the layout with the tile's.
#include <poplar/Vertex.hpp>

class Where : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<int>> a;
  poplar::Input<poplar::Vector<int>> b;
  poplar::Output<poplar::Vector<unsigned>> out;
  unsigned gap;   // set by a callback: the byte distance from a to b
  unsigned start; // set by a callback: a's offset from the start of tile memory
  bool compute() {
    const char *pa = reinterpret_cast<const char *>(&a[0]);
    const char *pb = reinterpret_cast<const char *>(&b[0]);
    out[0] = gap;
    out[1] = unsigned(pb - pa);
    out[2] = start;
    out[3] = unsigned(reinterpret_cast<unsigned long>(pa) & 0xfffffu); // tile memory starts at 0x100000
    out[4] = unsigned(a[0] + b[0]);
    return true;
  }
};
