// libpoplar's own codelets for poplar/CycleCount.hpp: read the tile's 64-bit cycle counter (CSRs CYCLE 0xc00 and
// CYCLEH 0xc80, docs/hardware.md) and subtract two stamps. Compiled for the graph's tiles on first use.
#include <poplar/Vertex.hpp>

using namespace poplar;

// csrrs rd, csr, x0 spelled with .insn: it assembles for every tile ISA, also those without the Zicsr extension
// in -march (rv32im). The immediate is the CSR number as a signed 12-bit value.
static inline unsigned readCycleLow() {
  unsigned v;
  asm volatile(".insn i 0x73, 2, %0, x0, -1024" : "=r"(v)); // 0xc00
  return v;
}
static inline unsigned readCycleHigh() {
  unsigned v;
  asm volatile(".insn i 0x73, 2, %0, x0, -896" : "=r"(v)); // 0xc80
  return v;
}

// out = the cycle count now: {low word, high word}.
class PoplarCycleStamp : public Vertex {
public:
  Output<Vector<unsigned>> out;
  bool compute() {
    unsigned hi, lo;
    do { // the low word may wrap between the reads
      hi = readCycleHigh();
      lo = readCycleLow();
    } while (hi != readCycleHigh());
    out[0] = lo;
    out[1] = hi;
    return true;
  }
};

// out = end - start, each {low word, high word}.
class PoplarCycleDifference : public Vertex {
public:
  Input<Vector<unsigned>> start;
  Input<Vector<unsigned>> end;
  Output<Vector<unsigned>> out;
  bool compute() {
    unsigned long long s = (static_cast<unsigned long long>(start[1]) << 32) | start[0];
    unsigned long long e = (static_cast<unsigned long long>(end[1]) << 32) | end[0];
    unsigned long long d = e - s;
    out[0] = static_cast<unsigned>(d);
    out[1] = static_cast<unsigned>(d >> 32);
    return true;
  }
};
