// The engine: compiles a graph and its programs for the tiles, loads them on a device, runs them, moves data.
#ifndef POPLAR_ENGINE_HPP
#define POPLAR_ENGINE_HPP

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "poplar/Device.hpp"
#include "poplar/Graph.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/ProfileSummary.hpp"
#include "poplar/ProfileValue.hpp"
#include "poplar/Program.hpp"
#include "poplar/StreamCallback.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

namespace detail {
struct EngineImpl;
}

/// A compiled graph with one or more programs. Construction compiles (per-tile control programs, memory layout,
/// exchange schedule, tile images); load() puts it on a device; run(i) runs program i.
/// Options (the constructor's and POPLAR_ENGINE_OPTIONS, which wins): "debug.instrument" ("true": measure cycles
/// per program step for printProfileSummary), "target.hostSyncTimeout" (seconds), "debug.runTimeout" (seconds, 0 =
/// none), "debug.watchdogKiloInsns".
class Engine {
public:
  /// Compiles `prog` for `graph`.
  Engine(const Graph &graph, const program::Program &prog, const OptionFlags &options = OptionFlags());
  /// Compiles several programs (run(i) runs programs[i]).
  Engine(const Graph &graph, const std::vector<program::Program> &programs,
         const OptionFlags &options = OptionFlags());
  ~Engine();

  /// Attaches `device` if needed and loads the compiled graph on it (tensor values start as the graph says:
  /// constants set, variables zero).
  void load(Device &device);
  /// Runs program `prog`; returns when the tiles are done. Throws poplar::application_runtime_error for misuse
  /// (e.g. a stream nobody connected), poplar::recoverable_runtime_error when a tile faults.
  void run(unsigned prog = 0, const std::string &debugName = "");

  /// Connects a stream to one buffer holding exactly one copy.
  void connectStream(const std::string &handle, void *p);
  /// Connects a stream to the circular buffer [begin, end) (a whole number of copies).
  void connectStream(const std::string &handle, void *begin, void *end);
  /// Connects a stream to a callback (the engine owns it).
  void connectStreamToCallback(const std::string &handle, std::unique_ptr<StreamCallback> f);
  /// Connects a stream to a function that fills (host to device) or reads (device to host) each copy.
  void connectStreamToCallback(const std::string &handle, std::function<void(void *)> f);

  /// Copies the tensor of host-read handle `handle` to `buf` (numElements x type size bytes).
  void readTensor(const std::string &handle, void *buf);
  /// As above; [begin, end) must be exactly the tensor's size.
  void readTensor(const std::string &handle, void *begin, void *end);
  /// Copies `buf` to the tensor of host-write handle `handle`.
  void writeTensor(const std::string &handle, const void *buf);
  /// As above; [begin, end) must be exactly the tensor's size.
  void writeTensor(const std::string &handle, const void *begin, const void *end);

  /// Prints the target, the graph, memory use per tile (with a histogram) and, after a run, cycles per program
  /// step ("showExecutionSteps": "true" lists every step).
  void printProfileSummary(std::ostream &out, const OptionFlags &opts = OptionFlags()) const;
  /// Simulated card cycles of the last run.
  std::uint64_t getLastRunCycles() const;
  /// Wall-clock seconds spent in each phase: "compile", "load", "run" (last run).
  double getPhaseSeconds(const std::string &phase) const;

  // --- profiling (src/profiling/) ---
  /// The graph profile (target, graph, vertex types, compute sets, exchanges, programs, memory per tile, by
  /// category, by compute set, by vertex type and liveness per program step), known once the engine is compiled.
  /// Options: "autoReport.all", "autoReport.outputGraphProfile", "autoReport.outputExecutionProfile" ("true":
  /// write profile.{json,cbor} / execution.{json,cbor} into "autoReport.directory" when the engine is destroyed),
  /// "debug.computeInstrumentationLevel" (tile, vertex, device, ipu: the execution profile's mode),
  /// "debug.graphReportDestination" or POPLAR_GRAPH_REPORT_DEST (a file, or stdout/stderr, for the graph summary).
  ProfileValue getGraphProfile() const;
  /// The execution profile of every run since construction or the last resetExecutionProfile(): profilerMode,
  /// its per-mode arrays, programTrace and simulation (cycles, tileCycles, steps), from the card's cycle stamps.
  ProfileValue getExecutionProfile() const;
  /// Forgets the runs recorded so far.
  void resetExecutionProfile();
  /// Writes the autoReport files now (they are written again when the engine is destroyed).
  void writeReports() const;
  // --- end profiling ---

private:
  Engine(const Engine &);
  Engine &operator=(const Engine &);
  std::unique_ptr<detail::EngineImpl> impl_;
};

} // namespace poplar

#endif // POPLAR_ENGINE_HPP
