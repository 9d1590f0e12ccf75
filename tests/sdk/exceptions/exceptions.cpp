// A user's program on poplar/exceptions.hpp: the SDK's class hierarchy (every error a poplar_error, the run-time
// ones under runtime_error and system_runtime_error), each class's `type` field and extra members, the 2.x alias
// missing_cycle_estimate, toString/operator<< for RecoveryAction, and real failures caught by their base classes:
// a tile fault as a poplar_error and a tile out of memory as a graph_memory_allocation_error that
// graph_program_compilation_error does not catch (as on the SDK, where the two are siblings).
#include <cstdio>
#include <sstream>
#include <string>
#include <type_traits>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

#define BASE(b, d) static_assert(std::is_base_of<b, d>::value, #d " derives from " #b)
BASE(std::runtime_error, poplar_error);
BASE(poplar_error, graph_cycle_error);
BASE(poplar_error, graph_memory_allocation_error);
BASE(poplar_error, stream_memory_allocation_error);
BASE(poplar_error, tensor_io_state_error);
BASE(poplar_error, unknown_vertex_type);
BASE(poplar_error, link_error);
BASE(poplar_error, symbol_error);
BASE(poplar_error, file_load_error);
BASE(poplar_error, runtime_error);
BASE(runtime_error, application_runtime_error);
BASE(runtime_error, system_runtime_error);
BASE(system_runtime_error, recoverable_runtime_error);
BASE(system_runtime_error, unrecoverable_runtime_error);
BASE(system_runtime_error, unknown_runtime_error);
static_assert(!std::is_base_of<graph_program_compilation_error, graph_memory_allocation_error>::value,
              "out of memory is not a compilation error on the SDK");
static_assert(std::is_same<missing_cycle_estimate, missing_perf_estimate>::value, "2.x alias");

template <typename E> static std::string typeOf(const E &e) { return e.type; }

int main() {
  check(typeOf(poplar_error("x")) == "poplar_error", "poplar_error type");
  check(typeOf(graph_cycle_error("x")) == "graph_cycle_error", "graph_cycle_error type");
  check(typeOf(parse_error(std::string("x"))) == "parse_error", "parse_error type (std::string)");
  check(typeOf(unknown_runtime_error("x")) == "unknown_runtime_error", "unknown_runtime_error type");
  link_error le("link failed", "undefined reference to `f'");
  check(le.output == "undefined reference to `f'" && std::string(le.what()) == "link failed", "link_error output");
  symbol_error se("foo", 3);
  check(se.name == "foo" && se.tile == 3 && std::string(se.what()).find("tile 3") != std::string::npos,
        "symbol_error names the symbol and the tile");
  index_error ie("Vertex.in", 7);
  check(std::string(ie.what()).find("7") != std::string::npos &&
            std::string(ie.what()).find("Vertex.in") != std::string::npos,
        "index_error(vertexDotField, index)");
  check(std::string(file_load_error("/no/such.gp").what()).find("/no/such.gp") != std::string::npos,
        "file_load_error names the path");
  std::ostringstream os;
  os << RecoveryAction::PARTITION_RESET;
  check(toString(RecoveryAction::FULL_RESET) == std::string("FULL_RESET") && os.str() == "PARTITION_RESET",
        "toString and operator<< for RecoveryAction");

  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  {
    // A vertex that fails: the run's error is a recoverable_runtime_error, which a catch of poplar_error sees.
    Graph graph(device.getTarget());
    graph.addCodelets("faulty.cpp");
    Tensor x = graph.addVariable(INT, {}, "x");
    graph.setTileMapping(x, 0);
    ComputeSet bad = graph.addComputeSet("bad");
    graph.setTileMapping(graph.addVertex(bad, "Refuses", {{"x", x}}), 0);
    Engine engine(graph, Execute(bad));
    engine.load(device);
    std::string caughtType;
    try {
      engine.run(0);
    } catch (const poplar_error &e) {
      caughtType = e.type;
    }
    check(caughtType == "recoverable_runtime_error", "a tile fault is caught as poplar_error (type " + caughtType +
                                                         ")");
    device.reset();
  }
  {
    // More data on one tile than it holds.
    Graph graph(device.getTarget());
    Tensor big = graph.addVariable(FLOAT, {1u << 20}, "big");
    graph.setTileMapping(big, 0);
    bool asCompilation = false, asAllocation = false;
    std::string profilePath = "unset";
    try {
      try {
        Engine engine(graph, Copy(big, big));
      } catch (const graph_program_compilation_error &) {
        asCompilation = true;
      }
    } catch (const graph_memory_allocation_error &e) {
      asAllocation = e.type == "graph_memory_allocation_error";
      profilePath = e.profilePath;
    }
    check(asAllocation && !asCompilation, "out of memory is a graph_memory_allocation_error only");
    check(profilePath.empty(), "no report was asked for, so profilePath is empty");
  }
  return checksDone("all exception checks passed");
}
