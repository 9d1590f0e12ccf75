// What the gcl tests (test_collectives.cpp, test_instances.cpp) share: their input data, the host reference fold,
// and a program of collectives whose every output is read back per replica and compared with that reference.
//
// A run has kReplicas replicas in all (global replicas 0 .. kReplicas - 1), in one process or spread over poprun's
// instances; each replica holds kN elements (not a multiple of kReplicas, so reduce-scatter pads) of three inputs:
// f (FLOAT, from the test's own data function), i (INT) and b (BOOL).
#ifndef IPU_EMU_TESTS_GCL_COLLECTIVE_CHECKS_HPP
#define IPU_EMU_TESTS_GCL_COLLECTIVE_CHECKS_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "poplar/Engine.hpp"
#include "poplar/Graph.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

namespace gcltest {

const unsigned kReplicas = 4; ///< replicas of the whole run, in every configuration
const std::size_t kN = 6;     ///< elements per replica

/// Global replica g's INT and BOOL inputs.
inline int iIn(unsigned g, std::size_t i) { return int(g) * 10 - int(i); }
inline bool bIn(unsigned g, std::size_t i) { return (g + i) % 3 != 0 || i == 5; }

/// Global replica g's FLOAT input; each test chooses its own (exact sums, or sums whose order matters).
using FloatInput = float (*)(unsigned g, std::size_t i);

/// Float data whose sums round differently in different orders (large and small magnitudes mixed).
inline float orderSensitiveF(unsigned g, std::size_t i) {
  const float big[] = {16777216.0f, -3.0e7f, 0.3f, 1.0e-3f};
  return big[(g + i) % 4] * (1.0f + 0.1f * float(i)) + 0.7f * float(g);
}

/// ((value(0) f value(1)) f value(2)) ... over every global replica: the host reference of a reduction.
inline double fold(const std::function<double(double, double)> &f, const std::function<double(unsigned)> &value) {
  double acc = value(0);
  for (unsigned g = 1; g < kReplicas; ++g)
    acc = f(acc, value(g));
  return acc;
}

/// What global replica `global` must receive at element i of an output.
using Expect = std::function<double(unsigned global, std::size_t i)>;

/// One output of the program: a device-to-host stream per replica, and its reference.
struct Check {
  std::string name;
  std::size_t elements;
  poplar::Type type;
  Expect expect;
  double tolerance; ///< relative; 0 for exact (float reductions whose order the host reference does not follow)
};

/// A program of collectives on a replicated graph of `local` replicas, global replicas offset .. offset+local-1:
/// it reads f, i and b from host streams, then runs what the test appends to `prog`, each output added with
/// output(); after the run, mismatches() compares every output with its reference.
class CollectiveProgram {
public:
  CollectiveProgram(poplar::Graph &graph, FloatInput fIn)
      : f(graph.addLinearlyMappedVariable(poplar::FLOAT, {kN}, "f")),
        in(graph.addLinearlyMappedVariable(poplar::INT, {kN}, "i")),
        b(graph.addLinearlyMappedVariable(poplar::BOOL, {kN}, "b")), graph_(graph), fIn_(fIn) {
    using poplar::program::Copy;
    prog.add(Copy(graph.addHostToDeviceFIFO("f", poplar::FLOAT, kN), f));
    prog.add(Copy(graph.addHostToDeviceFIFO("i", poplar::INT, kN), in));
    prog.add(Copy(graph.addHostToDeviceFIFO("b", poplar::BOOL, kN), b));
  }

  poplar::Tensor f, in, b;        ///< the inputs, every replica's own data
  poplar::program::Sequence prog; ///< the program: input copies, then what the test appends

  /// Appends the copy of `t` to host stream `name` and records its reference.
  void output(const std::string &name, const poplar::Tensor &t, Expect expect, double tolerance = 0) {
    prog.add(poplar::program::Copy(t, graph_.addDeviceToHostFIFO(name, t.elementType(), t.numElements())));
    checks_.push_back(Check{name, t.numElements(), t.elementType(), expect, tolerance});
  }

  /// Connects every stream of `local` replicas that are global replicas offset, offset + 1, ...
  void connect(poplar::Engine &engine, unsigned local, unsigned offset) {
    local_ = local;
    offset_ = offset;
    fData_.assign(local, std::vector<float>(kN));
    iData_.assign(local, std::vector<int>(kN));
    bData_.assign(local, std::vector<std::uint8_t>(kN));
    for (unsigned r = 0; r < local; ++r) {
      for (std::size_t i = 0; i < kN; ++i) {
        fData_[r][i] = fIn_(offset + r, i);
        iData_[r][i] = iIn(offset + r, i);
        bData_[r][i] = bIn(offset + r, i);
      }
      engine.connectStream("f", r, fData_[r].data());
      engine.connectStream("i", r, iData_[r].data());
      engine.connectStream("b", r, bData_[r].data());
    }
    results_.assign(checks_.size(), {});
    for (std::size_t c = 0; c < checks_.size(); ++c) {
      results_[c].assign(local, std::vector<std::uint8_t>(checks_[c].elements * checks_[c].type.getSize()));
      for (unsigned r = 0; r < local; ++r)
        engine.connectStream(checks_[c].name, r, results_[c][r].data());
    }
  }

  /// After the run: the outputs that differ from their reference, each printed; 0 when all match.
  unsigned mismatches() const {
    unsigned bad = 0;
    for (std::size_t c = 0; c < checks_.size(); ++c)
      for (unsigned r = 0; r < local_; ++r)
        for (std::size_t i = 0; i < checks_[c].elements; ++i) {
          const double got = valueAt(c, r, i), want = checks_[c].expect(offset_ + r, i);
          if (std::fabs(got - want) > checks_[c].tolerance * std::max(1.0, std::fabs(want) * 4)) {
            print_error("%s, global replica %u, element %zu: got %.9g, expected %.9g\n", checks_[c].name.c_str(),
                        offset_ + r, i, got, want);
            ++bad;
          }
        }
    return bad;
  }

  std::size_t size() const { return checks_.size(); }
  const Check &check(std::size_t c) const { return checks_[c]; }
  /// Output c's bytes as local replica r received them (4-byte float/int, 1-byte bool).
  const std::vector<std::uint8_t> &bytes(std::size_t c, unsigned r) const { return results_[c][r]; }

private:
  double valueAt(std::size_t c, unsigned r, std::size_t i) const {
    const std::uint8_t *p = results_[c][r].data() + i * checks_[c].type.getSize();
    if (checks_[c].type == poplar::FLOAT) {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    if (checks_[c].type == poplar::INT) {
      int v;
      std::memcpy(&v, p, 4);
      return v;
    }
    return *p != 0;
  }

  poplar::Graph &graph_;
  FloatInput fIn_;
  std::vector<Check> checks_;
  unsigned local_ = 0, offset_ = 0;
  std::vector<std::vector<float>> fData_;
  std::vector<std::vector<int>> iData_;
  std::vector<std::vector<std::uint8_t>> bData_;
  std::vector<std::vector<std::vector<std::uint8_t>>> results_; ///< [check][local replica] bytes
};

} // namespace gcltest

#endif
