// The engine: compiles a graph and its programs for the tiles, loads them on a device, runs them, moves data.
#ifndef POPLAR_ENGINE_HPP
#define POPLAR_ENGINE_HPP

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "poplar/ArrayRef.hpp"
#include "poplar/Device.hpp"
#include "poplar/Error.hpp"
#include "poplar/Executable.hpp"
#include "poplar/Graph.hpp"
#include "poplar/HostFunctionCallback.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/ProfileSummary.hpp"
#include "poplar/ProfileValue.hpp"
#include "pva/pva.hpp"
#include "poplar/Program.hpp"
#include "poplar/Quarter.hpp"
#include "poplar/RuntimeOptions.hpp"
#include "poplar/StreamCallback.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

namespace detail {
struct EngineImpl;
}

/// A compiled graph with one or more programs. Construction compiles (per-tile control programs, memory layout,
/// exchange schedule, tile images); load() puts it on a device; run(i) runs program i.
/// Options (the constructor's and POPLAR_ENGINE_OPTIONS, which wins), each validated at construction (an unknown
/// option or a malformed value throws poplar::invalid_option naming it and what it accepts): "debug.instrument"
/// ("true": measure cycles per program step for printProfileSummary), "debug.reuseMemory", "debug.dumpCompiledGraph"
/// (a file), "target.hostSyncTimeout" (seconds), "debug.runTimeout" (seconds, 0 = none), "debug.watchdogKiloInsns"
/// (a whole number). The SDK's autoReport.*, profiler.* and opt.* options are accepted and not acted on yet.
///
/// One device holds one loaded engine at a time: loading engine B on a device that holds engine A replaces A (A's
/// stream buffers are released; its stream connections and callbacks stay with A). When another engine was loaded
/// on the device since this one (or the device was reset, or a run stopped mid-program), run(), readTensor() and
/// writeTensor() load this engine again first, and the log (POPLAR_LOG_LEVEL=INFO) says so: constants and initial
/// values (Graph::setInitialValue) start over, other variables are undefined, as after any load. Either engine can
/// be destroyed while the other is loaded. After device.detach(), run() throws application_runtime_error until
/// engine.load(device) attaches the device again.
class Engine {
public:
  /// A point in the device's time, as getTimeStamp() read it: the cycles the engine's runs have taken so far
  /// (each run counted as getLastRunCycles() reports it) and the host's steady clock then.
  struct TimerTimePoint {
    std::uint64_t cycles;
    std::uint64_t hostNanoseconds;
    TimerTimePoint() : cycles(0), hostNanoseconds(0) {}
  };

  /// Compiles `prog` for `graph`.
  Engine(const Graph &graph, const program::Program &prog, const OptionFlags &options = OptionFlags());
  /// Compiles several programs (run(i) runs programs[i]).
  Engine(const Graph &graph, const std::vector<program::Program> &programs,
         const OptionFlags &options = OptionFlags());
  /// Takes a graph compiled by compileGraph() (or read by Executable::deserialize()); nothing is compiled again.
  /// `options` are the run-time options (target.hostSyncTimeout, debug.runTimeout, ...), validated as above.
  explicit Engine(Executable &&exe, const OptionFlags &options = OptionFlags());
  /// Engines move (the moved-from engine can only be destroyed or assigned to).
  Engine(Engine &&other);
  Engine &operator=(Engine &&other);
  ~Engine();

  /// Attaches `device` if needed and loads the compiled graph on it (constants and initial values set; other
  /// variables are undefined until written). A device that faulted is reset first, so after a
  /// recoverable_runtime_error load(device) then run() is the whole recovery. The engine shares the device: it
  /// stays attached for the engine's life even when the caller's Device object is destroyed or was a temporary
  /// (engine.load(Device::createCPUDevice())).
  void load(const Device &device);
  /// load(device), then run(0).
  void loadAndRun(const Device &device);
  /// The first half of load(): attaches `device` and remembers it (shared, as load does); deploy() then loads the
  /// graph on it.
  void prepare(const Device &device);
  /// prepare(device), and `runtimeOptions` over the engine's options for every run from then on.
  void prepare(const Device &device, const RuntimeOptions &runtimeOptions);
  /// The second half of load(): loads the graph on the device given to prepare().
  void deploy();
  /// Runs program `prog`; returns when the tiles are done. Throws poplar::application_runtime_error for misuse
  /// (no such program, a stream nobody connected), poplar::recoverable_runtime_error when a tile faults (its
  /// message names the recovery: device.reset() or engine.load(device), then run again).
  void run(unsigned prog = 0, const std::string &debugName = "");
  /// run(prog, debugName) with `runtimeOptions` over the engine's options (and those given to prepare) for this
  /// run alone.
  void run(unsigned prog, const std::string &debugName, const RuntimeOptions &runtimeOptions);
  /// Asks the run under way (on another thread, or from one of its stream callbacks) to end: the tiles are halted
  /// within a quarter of a second (at once after a stream callback), and run() throws
  /// poplar::application_runtime_error saying it was stopped. As after an Abort, the engine loads itself again before
  /// its next run(), readTensor() or writeTensor() (constants and initial values afresh, other variables undefined).
  /// Without a run under way, stop() has no effect: each run() starts unstopped.
  void stop();
  /// Number of programs run() accepts.
  unsigned getNumPrograms() const;
  /// The engine options in effect: those given to the constructor with POPLAR_ENGINE_OPTIONS applied over them.
  OptionFlags getEngineOptions() const;
  /// The handles of the graph's data streams (addHostToDeviceFIFO, addDeviceToHostFIFO), in name order; the
  /// library's own streams (remote buffers, error programs) are left out.
  std::vector<std::string> listStreams() const;

  /// Connects a stream to one buffer holding exactly one copy. In a replicated graph every replica of a
  /// replicated stream is connected to it (each replica moves its own copies through it).
  void connectStream(const std::string &handle, void *p);
  /// Connects a stream to the circular buffer [begin, end) (a whole number of copies); every replica, as above.
  void connectStream(const std::string &handle, void *begin, void *end);
  /// Connects replica `replicaIndex` of a stream to one buffer holding exactly one copy. A broadcast stream has
  /// one connection for all replicas: any index connects it.
  void connectStream(const std::string &handle, unsigned replicaIndex, void *p);
  /// Connects replica `replicaIndex` of a stream to the circular buffer [begin, end).
  void connectStream(const std::string &handle, unsigned replicaIndex, void *begin, void *end);
  /// Connects a stream to a callback: a StreamCallback object (the engine owns it) or a function that fills (host
  /// to device) or reads (device to host) each copy (see StreamCallbackHandle). In a replicated graph every replica
  /// of the stream is connected to the one callback.
  void connectStreamToCallback(const std::string &handle, StreamCallbackHandle f);
  /// As above for replica `index` only (0 .. replication factor - 1).
  void connectStreamToCallback(const std::string &handle, unsigned index, StreamCallbackHandle f);
  /// As above, naming the stream by the DataStream Graph::addHostToDeviceFIFO/addDeviceToHostFIFO returned.
  void connectStreamToCallback(const DataStream &stream, StreamCallbackHandle f);
  /// As above for replica `index` only.
  void connectStreamToCallback(const DataStream &stream, unsigned index, StreamCallbackHandle f);
  /// Connects `callback` to replica `index`'s calls of host function `handle` (Graph::addHostFunction): a run that
  /// reaches program::Call of the function stops there, runs the callback with the input tensors' data and sends
  /// what it writes to the output tensors. Throws stream_connection_error for an unknown handle, invalid_option for
  /// a replica that does not exist. A run that calls an unconnected host function throws stream_connection_error; one
  /// whose callback throws rethrows that exception.
  void connectHostFunction(StringRef handle, unsigned index, HostCallbackHandle callback);

  /// Copies the tensor of host-read handle `handle` to `buf` (numElements x type size bytes). A handle of a
  /// replicated graph's tensor reads replica 0 (writeTensor writes every replica); for every replica's own values
  /// make the handle on graph.getTopLevelGraph().getNonReplicatedTensor(t), [replicas, ...] with replica r in row r.
  void readTensor(const std::string &handle, void *buf);
  /// As above; [begin, end) must be exactly the tensor's size.
  void readTensor(const std::string &handle, void *begin, void *end);
  /// Copies `buf` to the tensor of host-write handle `handle`.
  void writeTensor(const std::string &handle, const void *buf);
  /// As above; [begin, end) must be exactly the tensor's size.
  void writeTensor(const std::string &handle, const void *begin, const void *end);
  /// For a QUARTER tensor created with metadata (Graph::addVariable(QUARTER, metadata, ...)): writes its elements
  /// from [begin, end) and its QUARTER_METADATA tensor from `metadata`, so the device reads the bytes as the host
  /// encoded them (convertToDeviceType with the same metadata). Throws poplar_error for a tensor without metadata.
  void writeTensor(const std::string &handle, const QuarterMetadata &metadata, const void *begin, const void *end);
  /// The reading side: copies the QUARTER tensor's elements to [begin, end) and its metadata to `metadata`, which
  /// convertFromDeviceType needs to decode them. Throws poplar_error for a tensor without metadata.
  void readTensor(const std::string &handle, QuarterMetadata &metadata, void *begin, void *end);

  /// Graphcore's ArrayRef forms: the view's elements are the buffer, which must be exactly the tensor's (or one
  /// stream copy's, or one remote-buffer row's) size; readTensor and copyFromRemoteBuffer write through the view.
  template <typename T> void readTensor(const std::string &handle, ArrayRef<T> buf) {
    T *p = const_cast<T *>(buf.data());
    readTensor(handle, p, p + buf.size());
  }
  template <typename T> void writeTensor(const std::string &handle, ArrayRef<T> buf) {
    writeTensor(handle, buf.data(), buf.data() + buf.size());
  }
  template <typename T> void connectStream(const std::string &handle, const ArrayRef<T> &buf) {
    T *p = const_cast<T *>(buf.data());
    connectStream(handle, p, p + buf.size());
  }
  template <typename T>
  void copyToRemoteBuffer(ArrayRef<T> data, const std::string &handle, std::uint64_t repeatIndex,
                          unsigned replicationIndex = 0) {
    copyToRemoteBuffer(static_cast<const void *>(data.data()), handle, repeatIndex, replicationIndex);
  }
  template <typename T>
  void copyFromRemoteBuffer(const std::string &handle, ArrayRef<T> data, std::uint64_t repeatIndex,
                            unsigned replicationIndex = 0) {
    copyFromRemoteBuffer(handle, static_cast<void *>(const_cast<T *>(data.data())), repeatIndex, replicationIndex);
  }

  /// Copies one row (`repeatIndex`) of remote buffer `handle` from `data` (numElements x type size bytes). In a
  /// replicated graph each replica has its own rows: `replicationIndex` names the replica's.
  void copyToRemoteBuffer(const void *data, const std::string &handle, std::uint64_t repeatIndex,
                          unsigned replicationIndex = 0);
  /// Copies row `repeatIndex` of remote buffer `handle` (of replica `replicationIndex`) to `data`.
  void copyFromRemoteBuffer(const std::string &handle, void *data, std::uint64_t repeatIndex,
                            unsigned replicationIndex = 0);

  /// Where PrintTensor programs print (default std::cout). The stream must outlive the runs.
  void setPrintTensorStream(std::ostream &stream);
  /// Where the tiles' own printf output goes (default std::cout). The stream must outlive the runs.
  void setPrintStream(std::ostream &stream);

  /// Prints the target, the graph, memory use per tile (with a histogram) and, after a run, cycles per program
  /// step ("showExecutionSteps": "true" lists every step).
  void printProfileSummary(std::ostream &out, const OptionFlags &opts = OptionFlags()) const;
  /// Cycles of the last run: on an IPU Model the time model's estimate (vertex estimates, exchange bandwidth, sync
  /// delays; docs/time-model.md), on other cards (or with debug.cycleModel=measured) the card's count.
  std::uint64_t getLastRunCycles() const;
  /// The card's own cycle count of the last run (the tile model's RV32 execution), whatever getLastRunCycles shows.
  std::uint64_t getLastRunMeasuredCycles() const;
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
  /// The graph and execution profiles in one value, the SDK 2.x form: a map with every entry of
  /// getGraphProfile() and every entry of getExecutionProfile() (the two have no key in common). A copy: later
  /// runs do not change it.
  ProfileValue getProfile() const;
  /// Forgets the runs recorded so far and what the engine measured (last run's cycles, per-step cycles, the run
  /// phase's time).
  void resetExecutionProfile();
  /// Writes the autoReport files now (they are written again when the engine is destroyed).
  void writeReports() const;
  /// The device's time now (see TimerTimePoint). Take one before and one after the runs to time.
  TimerTimePoint getTimeStamp();
  /// The time between two stamps, as text: "Cycles: N" (device cycles between them) and "Time: T us" (those
  /// cycles at the target's tile clock), one per line. Throws poplar_error when `end` comes before `start`.
  std::string reportTiming(const TimerTimePoint &start, const TimerTimePoint &end) const;
  /// Stops recording runs into the execution profile: runs from now until enableExecutionProfiling() are left out
  /// of getExecutionProfile(), getReport() and the autoReport files (the last run's cycles are still measured).
  void disableExecutionProfiling();
  /// Records runs into the execution profile again (the default).
  void enableExecutionProfiling();
  /// Simulated device errors, to test a program's error handling. A location is a compute set's code on one tile;
  /// an inserted error stays armed until erased or cleared, and every run of a program that executes that compute
  /// set fails with it before the program starts (the emulator does not stop a program midway): tile errors
  /// (TRAP to IPUSOFTERR) throw application_runtime_error, LINK_DOWN, HOST_LINK_DOWN and HOST_SYNC_TIMEOUT
  /// recoverable_runtime_error (IPU_RESET), IPU_MEMORY_FAILURE unrecoverable_runtime_error; the message names the
  /// code, tile and compute set. NONE, or a location of another engine's graph, throws poplar_error.
  void insertSimulatedError(ErrorCode code, const ErrorLocation &location);
  /// Disarms the error at `location` (nothing happens when none is armed there).
  void eraseSimulatedError(const ErrorLocation &location);
  /// Disarms every simulated error.
  void clearSimulatedErrors();
  /// The locations on tile `tile`: one per compute set with vertices there, in compute-set order, at most
  /// `maxLocations`. Throws poplar_error for a tile past the target's, and profiling_error for an engine made
  /// from an Executable read from a file (it carries no vertex placement).
  std::vector<ErrorLocation> getSimulatedErrorLocations(unsigned tile, unsigned maxLocations = ~0u);
  /// The locations of compute set `computeSetName`: one per tile with its vertices, ascending, at most
  /// `maxLocations`. Throws poplar_error naming the compute sets when none has that name.
  std::vector<ErrorLocation> getSimulatedErrorLocations(StringRef computeSetName, unsigned maxLocations = ~0u);
  /// Writes CSV rows, one per program step of the runs in the execution profile, in time order: begin cycle, end
  /// cycle, and the number of tiles taking part in compute, in exchange (tile-to-tile, stream copies and prints)
  /// and in synchronisation during it (cycles are tile clock cycles, as getExecutionProfile() counts them). There
  /// is no header row. Throws profiling_disabled after disableExecutionProfiling() (no runs are being recorded).
  void reportIntervals(std::ostream &outputStream);
  /// The engine's profile as libpva's report: the graph profile and, when `reportExecution` is true, the execution
  /// profile of the runs so far (report.compilation().tiles(), .computeSets(), .graph(); report.execution()).
  /// libpoplar loads libpva (next to it) the first time; throws poplar_error naming the library when it cannot,
  /// and profiling_error for an engine made from a serialized Executable (it carries no graph profile).
  pva::Report getReport(bool reportExecution = true) const;
  // --- end profiling ---

private:
  void raiseSimulatedError(unsigned prog);
  std::vector<ErrorLocation> locationsWhere(bool byTile, unsigned key, unsigned maxLocations) const;
  Engine(const Engine &);
  Engine &operator=(const Engine &);
  std::unique_ptr<detail::EngineImpl> impl_;
};

} // namespace poplar

#endif // POPLAR_ENGINE_HPP
