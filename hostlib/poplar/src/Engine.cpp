// The engine: compile on construction, load a device image through the host runtime, run with streams, move data.
#include "poplar/Engine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <vector>
#include <new>
#include <iomanip>
#include <iostream>
#include <limits>
#include <mutex>
#include <sstream>

#include "compiler.hpp"
#include "device_impl.hpp"
#include "engine_options.hpp"
#include "executable_impl.hpp"
#include "trace.hpp"
#include "ipu_runtime/loader.hpp"
#include "ipu_runtime/run.hpp"
#include "ipu_runtime/streams.hpp"
#include "log.hpp"
#include "poplar/exceptions.hpp"
#include "print_format.hpp"
#include "poplar/ProfileSummary.hpp"
#include "profiling/profiles.hpp"
#include "library_streams.hpp"
#include "replica_streams.hpp"
#include "host_functions.hpp"

namespace poplar {

namespace detail {

/// Adapts a poplar::StreamCallback to the runtime's callback interface. The engine keeps the callback (shared
/// with each adapter): every load of the engine makes a new stream registry, and the callback stays connected.
class CallbackAdapter : public ipu::runtime::StreamCallback {
public:
  explicit CallbackAdapter(std::shared_ptr<poplar::StreamCallback> cb) : cb_(std::move(cb)) {}
  Result prefetch(void *p) override {
    return cb_->prefetch(p) == poplar::StreamCallback::Result::Success ? Result::Success : Result::NotAvailable;
  }
  void fetch(void *p) override { cb_->fetch(p); }
  void complete() override { cb_->complete(); }
  void invalidatePrefetched() override { cb_->invalidatePrefetched(); }

private:
  std::shared_ptr<poplar::StreamCallback> cb_;
};

struct EngineImpl final : LoadedEngine {
  CompiledGraph cg;
  Target target;
  EngineOptions options;
  OptionFlags givenOptions; ///< the options in effect, as flags (getEngineOptions)
  /// The device loaded on. The engine shares its ownership, as the SDK's does: the card stays attached for the
  /// engine's life whatever becomes of the caller's Device object (destroyed, moved from, a temporary).
  std::shared_ptr<DeviceImpl> device;
  std::shared_ptr<DeviceImpl> prepared; ///< the device of prepare(), for deploy()
  std::unique_ptr<RuntimeOptions> preparedRuntime; ///< the RuntimeOptions of prepare(device, options), if any
  std::uint64_t resetsAtLoad = 0; ///< the card's reset count when this engine was loaded on it
  std::unique_ptr<ipu::runtime::StreamRegistry> streams;
  std::map<std::string, std::function<void(ipu::runtime::StreamRegistry &)>> connections;
  /// Replicated streams (one staging slot per replica): every replica's connection, by handle.
  std::map<std::string, std::shared_ptr<ReplicaFan>> fans;
  /// Remote buffer storage, by handle: each replica's own rows, replica after replica.
  std::map<std::string, std::vector<std::uint8_t>> remoteData;
  std::map<std::string, std::vector<std::uint64_t>> remoteOffset; ///< row of each replica's next copy, by handle
  std::string errorMessage; ///< set by an ErrorProgram's stream during a run
  std::atomic<bool> stopRequested{false}; ///< Engine::stop during the current run
  std::ostream *printStream = &std::cout;
  std::ostream *tensorStream = &std::cout;
  std::uint64_t lastCycles = 0;         ///< what getLastRunCycles reports (estimated on an IPU Model)
  std::uint64_t lastMeasuredCycles = 0; ///< the card's count for the last run (the tile model's measurement)
  std::map<std::string, double> phases;
  std::unique_ptr<EngineProfiling> profiling; ///< graph profile, runs since the last reset, autoReport
  bool recordRuns = true; ///< runs go into the execution profile (disableExecutionProfiling turns it off)
  std::uint64_t totalCycles = 0; ///< every run's cycles (as lastCycles), for getTimeStamp
  /// Graph::addHostFunction's functions: their streams and connected callbacks.
  std::unique_ptr<HostFunctionTable> hostFunctions;
  /// Armed simulated errors (Engine::insertSimulatedError), by (tile, compute set).
  std::map<std::pair<unsigned, unsigned>, ErrorCode> simulatedErrors;

  ipu::runtime::Device &dev() const {
    return *liveDevice().dev;
  }
  const CompiledStream &stream(const std::string &handle) const {
    for (const auto &s : cg.streams)
      if (s.name == handle)
        return s;
    std::string names;
    for (const auto &s : cg.streams)
      if (!s.isLibraryStream())
        names += (names.empty() ? "" : ", ") + s.name;
    throw unknown_field("no stream '" + handle + "' in the graph (streams: " + (names.empty() ? "none" : names) + ")");
  }
  const CompiledHandle &handle(const std::string &name, bool write) const {
    auto it = cg.handles.find(HostHandleKey{name, write});
    if (it == cg.handles.end()) {
      std::string names;
      for (const auto &[key, h] : cg.handles)
        if (key.write == write && key.name.rfind(kMetadataHandlePrefix, 0) != 0)
          names += (names.empty() ? "" : ", ") + key.name;
      throw unknown_field(std::string("no host-") + (write ? "write" : "read") + " handle '" + name +
                          "' (create it with graph.createHost" + (write ? "Write" : "Read") + "; handles: " +
                          (names.empty() ? "none" : names) + ")");
    }
    return it->second;
  }
  const CompiledRemoteBuffer &remote(const std::string &name) const {
    for (const auto &r : cg.remoteBuffers)
      if (r.name == name)
        return r;
    std::string names;
    for (const auto &r : cg.remoteBuffers)
      names += (names.empty() ? "" : ", ") + r.name;
    throw unknown_field("no remote buffer '" + name + "' (create it with graph.addRemoteBuffer; remote buffers: " +
                        (names.empty() ? "none" : names) + ")");
  }
  void connect(const std::string &handle, std::function<void(ipu::runtime::StreamRegistry &)> f) {
    if (stream(handle).bytes == 0)
      return; // nothing ever moves through a stream of 0 elements: any connection is accepted and unused
    connections[handle] = f;
    if (streams)
      f(*streams);
  }
  /// The fan of replicated stream `handle`, or nullptr for a stream with one connection (broadcast, or a graph
  /// that is not replicated). Throws unknown_field for an unknown handle.
  ReplicaFan *fan(const std::string &handle) {
    stream(handle);
    auto it = fans.find(handle);
    return it == fans.end() ? nullptr : it->second.get();
  }
  /// Throws invalid_option unless replica `index` exists.
  void checkReplica(const std::string &call, unsigned index) const {
    if (index >= cg.replicas)
      throw invalid_option(call + ": replica index " + std::to_string(index) + " does not exist; the graph has " +
                           std::to_string(cg.replicas) + " replica(s), use 0.." + std::to_string(cg.replicas - 1));
  }
  void makeReplicaFans();
  /// Connects library stream `stream` to the function `make(replica)` for each replica's copies (one function for
  /// a stream that is not replicated).
  void connectPerReplica(const std::string &stream, const std::function<std::function<void(void *)>(unsigned)> &make);
  void connectRemoteBuffers();
  void connectHostFunctions();
  void connectErrorStreams();
  void connectLibraryStreams();
  ~EngineImpl() {
    if (device && device->loadedBy == this)
      device->unload();
  }
  /// Off the card (another engine loaded, reset, detach, a stopped run): the staging buffers go, so that their
  /// device addresses are free for the next engine. The connections stay; the next load makes them again.
  void unloaded() noexcept override { streams.reset(); }
  /// The device this engine was loaded on, attached; throws when there is none (not loaded, detached, destroyed).
  DeviceImpl &liveDevice() const {
    if (!device || !device->dev)
      throw ipu::runtime::application_runtime_error("the engine is not loaded on an attached device: call "
                                                    "engine.load(device) first");
    if (device->temporarilyDetached)
      throw ipu::runtime::application_runtime_error("the engine's device was temporarily detached "
                                                    "(Device::temporarilyDetach): call device.attach() to use the "
                                                    "engine again, without reloading it");
    return *device;
  }
  void loadOn(const std::shared_ptr<DeviceImpl> &dp);
  /// The device, with this engine's graph on it: loads it again when another engine was loaded since, or the
  /// card was reset.
  ipu::runtime::Device &loaded();
  void printLine(const std::string &line);
};

// Variables and buffers are left out: their contents are undefined until written, and leaving them out keeps the
// upload to what the program needs.
std::vector<ipu::runtime::TileSegment> initialisedSegments(const CompiledGraph &cg, std::uint32_t t) {
  const TileData &td = cg.tileData.at(t);
  // Items come in placement order, which need not be address order: sort before merging neighbours.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> items, ranges;
  for (const auto &item : td.items)
    if (item.initialised && item.size != 0)
      items.emplace_back(item.addr, item.addr + item.size);
  std::sort(items.begin(), items.end());
  for (const auto &[b, e] : items) {
    if (!ranges.empty() && b <= ranges.back().second + 64)
      ranges.back().second = std::max(ranges.back().second, e);
    else
      ranges.emplace_back(b, e);
  }
  std::vector<ipu::runtime::TileSegment> out;
  for (const auto &[b, e] : ranges) {
    ipu::runtime::TileSegment seg;
    seg.vaddr = b;
    seg.memsz = e - b;
    seg.flags = 6;
    seg.bytes.assign(td.bytes.begin() + (b - cg.image.freeStart), td.bytes.begin() + (e - cg.image.freeStart));
    out.push_back(std::move(seg));
  }
  return out;
}

static double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

/// "@P3: [1 2 3 4]" -> "title: " and the values in the SDK's format (print_format.hpp).
void EngineImpl::printLine(const std::string &line) {
  auto colon = line.find(": [");
  auto it = colon == std::string::npos ? cg.prints.end() : cg.prints.find(line.substr(0, colon));
  if (it == cg.prints.end() || line.back() != ']') {
    *printStream << line << "\n";
    return;
  }
  std::vector<std::string> values;
  std::istringstream is(line.substr(colon + 3, line.size() - colon - 4));
  for (std::string v; is >> v;)
    values.push_back(it->second.formatted ? v : formatElementText(v, it->second.type));
  const PrintInfo &info = it->second;
  *tensorStream << (info.title.empty() ? "" : info.title + ": ")
                << (info.formatted ? formatTensor(values, info.shape, info.type, info.fmt) : formatTensor(values, info.shape))
                << "\n";
}

} // namespace detail

using detail::EngineImpl;

namespace {

/// A runtime error's text without the driver's advice: that names the driver's own calls (ipudrv_map,
/// ipudrv_reset), which a Poplar program does not make. The text is "; "-separated parts; those go.
std::string withoutDriverAdvice(const std::string &what) {
  std::string kept, rest = what;
  while (!rest.empty()) {
    std::size_t cut = rest.find("; ");
    std::string part = rest.substr(0, cut);
    rest = cut == std::string::npos ? "" : rest.substr(cut + 2);
    if (part.find("ipudrv_") == std::string::npos)
      kept += (kept.empty() ? "" : "; ") + part;
  }
  return kept;
}

/// Throws `e` (a copy of the most-derived type, so that a handler catches it by its own class) with `info`: a
/// rethrow with more text keeps what the device reported (runtime_error::ErrorInfo).
template <class E> [[noreturn]] void throwWithInfo(E e, const runtime_error::ErrorInfo &info) {
  e.setErrorInfo(info);
  throw e;
}

/// Adds the Poplar-level recovery to a runtime error's text: a Poplar program has device.reset() and
/// engine.load(device).
std::string withPoplarRecovery(const std::string &what) {
  return withoutDriverAdvice(what) + "\nin Poplar: call device.reset() or engine.load(device) (load resets a "
                                     "faulted device), then engine.run() again";
}

/// The same for a failed Engine::load.
std::string withPoplarLoadRecovery(const std::string &what) {
  return "Engine::load: the card failed while the program was loaded: " + withoutDriverAdvice(what) +
         "\nin Poplar: call engine.load(device) again (load resets a faulted device) or device.reset() first; if "
         "the load fails again, the device or its board is at fault: try another device";
}

/// The handle of a DataStream given to an Engine call, or stream_connection_error when it names no stream (a
/// default-constructed DataStream).
std::string streamHandle(const DataStream &stream, const char *call) {
  if (!stream.graphImpl())
    throw stream_connection_error(std::string("Engine::") + call + ": the DataStream is default-constructed and "
                                  "names no stream; pass the DataStream that Graph::addHostToDeviceFIFO or "
                                  "addDeviceToHostFIFO returned");
  return stream.handle();
}

} // namespace

Engine::Engine(const Graph &graph, const program::Program &prog, const OptionFlags &options)
    : Engine(graph, std::vector<program::Program>{prog}, options) {}

Engine::Engine(const Graph &graph, const std::vector<program::Program> &programs, const OptionFlags &options)
    : Engine(compileGraph(graph, programs, options), options) {}

Engine::Engine(Executable &&exe, const OptionFlags &options) : impl_(new EngineImpl) {
  detail::graphConstructionEnds(); // an engine made from a deserialized executable ends it too
  detail::TraceScope trace([] { return "Engine construction"; });
  impl_->givenOptions = detail::withEnvironmentOptions(options);
  impl_->options = detail::parseEngineOptions(impl_->givenOptions);
  Executable taken(std::move(exe)); // the engine owns the compiled graph: `exe` is left moved-from
  detail::ExecutableImpl &x = taken.impl();
  impl_->cg = std::move(x.cg);
  impl_->target = Target(x.target);
  impl_->phases["compile"] = x.compileSeconds;
  for (const auto &r : impl_->cg.remoteBuffers) {
    const std::uint64_t bytes = r.rowBytes * r.repeats * impl_->cg.replicas; // bounded when deserialized
    try {
      impl_->remoteData[r.name].assign(std::size_t(bytes), 0);
    } catch (const std::bad_alloc &) {
      throw poplar_error("Engine: remote buffer '" + r.name + "' needs " + std::to_string(bytes) +
                         " bytes of host memory, which cannot be allocated; make it smaller");
    }
  }
  impl_->makeReplicaFans();
  impl_->connectRemoteBuffers();
  impl_->connectHostFunctions();
  impl_->connectErrorStreams();
  impl_->connectLibraryStreams();
  impl_->profiling.reset(new detail::EngineProfiling(
      impl_->cg, x.profile, detail::parseProfilingOptions(impl_->givenOptions, false)));
}

Engine::Engine(Engine &&other) : impl_(std::move(other.impl_)) {}
Engine &Engine::operator=(Engine &&other) {
  impl_ = std::move(other.impl_);
  return *this;
}
Engine::~Engine() {
  // autoReport files are written when the engine goes; a destructor must not throw, so a failure is logged.
  try {
    if (impl_ && impl_->profiling)
      impl_->profiling->writeReports();
  } catch (const std::exception &e) {
    detail::log(detail::LogLevel::Err, e.what());
  }
}

namespace detail {

/// A replicated stream is one runtime stream of replicas x bytes whose callback is the stream's fan.
void EngineImpl::makeReplicaFans() {
  for (const auto &s : cg.streams) {
    if (s.replicas <= 1 || s.bytes == 0)
      continue;
    auto f = std::make_shared<ReplicaFan>(s.name, s.toDevice, s.bytes, s.replicas);
    fans[s.name] = f;
    std::string name = s.name;
    connections[name] = [f, name](ipu::runtime::StreamRegistry &reg) { reg.connect(name, f->runtimeCallback(f)); };
  }
}

/// Each remote buffer is three streams the compiler made (see Graph::addRemoteBuffer): the offset copy sends the
/// row index to the host first, then the data copy reads or writes that row of the host-held storage. In a
/// replicated graph the streams are replicated: each replica sends its own offset and moves its own row of its
/// own storage (Engine::copyToRemoteBuffer's replicationIndex).
void EngineImpl::connectRemoteBuffers() {
  for (const auto &r : cg.remoteBuffers) {
    std::string name = r.name;
    std::size_t rowBytes = std::size_t(r.rowBytes);
    std::uint64_t repeats = r.repeats;
    remoteOffset[name].assign(cg.replicas, 0);
    auto row = [this, name, rowBytes, repeats](unsigned replica) -> std::uint8_t * {
      std::uint64_t i = remoteOffset[name][replica];
      remoteOffset[name][replica] = 0;
      if (i >= repeats)
        throw ipu::runtime::application_runtime_error(
            "remote buffer '" + name + "': offset " + std::to_string(i) + " is past its " + std::to_string(repeats) +
            " rows; keep the offset tensor below the repeats given to addRemoteBuffer");
      return remoteData[name].data() + (replica * repeats + i) * rowBytes;
    };
    connectPerReplica(r.offsetStream, [this, name](unsigned replica) {
      return std::function<void(void *)>([this, name, replica](void *p) {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        remoteOffset[name][replica] = v;
      });
    });
    connectPerReplica(r.toDeviceStream, [row, rowBytes](unsigned replica) {
      return std::function<void(void *)>([row, rowBytes, replica](void *p) { std::memcpy(p, row(replica), rowBytes); });
    });
    connectPerReplica(r.toHostStream, [row, rowBytes](unsigned replica) {
      return std::function<void(void *)>([row, rowBytes, replica](void *p) { std::memcpy(row(replica), p, rowBytes); });
    });
  }
}

void EngineImpl::connectPerReplica(const std::string &stream,
                                   const std::function<std::function<void(void *)>(unsigned)> &make) {
  // One function per replica on a replicated stream, else one for the only copy.
  if (ReplicaFan *f = fan(stream)) {
    for (unsigned replica = 0; replica < cg.replicas; ++replica)
      f->connectFunction(replica, make(replica));
    return;
  }
  std::function<void(void *)> only = make(0);
  connections[stream] = [stream, only](ipu::runtime::StreamRegistry &reg) { reg.connect(stream, only); };
}

/// Every stream of a host function is connected for the engine's life; Engine::connectHostFunction only sets the
/// callback the call stream runs.
void EngineImpl::connectHostFunctions() {
  hostFunctions.reset(new HostFunctionTable(cg.streams, cg.replicas));
  for (const auto &[stream, make] : hostFunctions->streamFunctions())
    connectPerReplica(stream, make);
}

/// An ErrorProgram's stream delivers its debug tensor (an Abort's, nothing): remember the message (with the values)
/// and stop the run (the runtime stops a run whose callback throws; Engine::run then throws the message alone).
void EngineImpl::connectErrorStreams() {
  for (const auto &e : cg.errorStreams) {
    CompiledErrorStream info = e;
    std::function<void(void *)> report = [this, info](void *p) {
      std::size_t n = 1;
      for (std::size_t d : info.shape)
        n *= d;
      std::vector<std::string> values;
      for (std::size_t i = 0; i < n; ++i)
        values.push_back(formatElementBytes(static_cast<const std::uint8_t *>(p), i, info.type));
      // An Abort's stream carries no tensor; an ErrorProgram's shows its values.
      errorMessage = info.kind == ErrorKind::Abort
                         ? "Abort: " + info.message
                         : "ErrorProgram: " + info.message + "\n" + formatTensor(values, info.shape);
      throw std::runtime_error(errorMessage);
    };
    if (ReplicaFan *f = fan(info.stream)) {
      for (unsigned r = 0; r < cg.replicas; ++r)
        f->connectFunction(r, report);
      continue;
    }
    connections[e.stream] = [info, report](ipu::runtime::StreamRegistry &reg) { reg.connect(info.stream, report); };
  }
}

/// Streams a library registered (poplar/LibraryStreams.hpp) are connected before the program can connect its own.
void EngineImpl::connectLibraryStreams() {
  for (const auto &s : cg.streams) {
    LibraryStreamFunction f = libraryStream(s.name);
    if (!f || s.bytes == 0)
      continue;
    if (ReplicaFan *fn = fan(s.name)) {
      for (unsigned r = 0; r < cg.replicas; ++r)
        fn->connectFunction(r, [f, r](void *p) { f(r, p); });
      continue;
    }
    std::string name = s.name;
    connections[name] = [f, name](ipu::runtime::StreamRegistry &reg) { reg.connect(name, [f](void *p) { f(0, p); }); };
  }
}

void EngineImpl::loadOn(const std::shared_ptr<DeviceImpl> &dp) {
  DeviceImpl &d = *dp;
  auto start = std::chrono::steady_clock::now();
  TraceScope trace([] { return "Engine::load"; });
  if (!d.attach())
    throw ipu::runtime::application_runtime_error("Engine::load: device " + std::to_string(d.id) +
                                                  " is in use by another process; pick another device");
  if (d.dev->numTiles() < cg.board.num_ipus * cg.board.tiles_per_ipu ||
      d.dev->info().board.bytes_per_tile < cg.board.bytes_per_tile)
    throw ipu::runtime::application_runtime_error(
        "Engine::load: the graph was compiled for " + std::string(cg.board.name) + " (" +
        std::to_string(cg.board.tiles_per_ipu) + " tiles x " + std::to_string(cg.board.bytes_per_tile) +
        " bytes) but the device is " + d.dev->describe() + "; build the Graph with device.getTarget()");
  if (d.faulted)
    d.reset(); // the card keeps its error state until reset: make load(device) the whole recovery
  // One engine at a time on a card: this one comes off the device it was on, and whichever engine holds this
  // device comes off it (the SDK's second load replaces the first; that engine loads again on its next use).
  if (device && device->loadedBy == this)
    device->unload();
  d.unload();
  streams.reset();
  device = dp;
  ipu::runtime::DeviceImage image;
  image.tiles = cg.tiles;
  image.shared = cg.image.image.segments;
  image.defaultBoot.entry = cg.image.image.entry;
  for (std::uint32_t t : cg.tiles) {
    image.perTile[t] = initialisedSegments(cg, t);
    image.boot[t] = ipu::runtime::TileBoot{cg.image.image.entry, cg.programAddr.empty() ? 0 : cg.programAddr[0].at(t)};
  }
  ipu::runtime::LoadStats stats;
  try {
    stats = ipu::runtime::loadImage(*d.dev, image);
  } catch (const ipu::runtime::recoverable_runtime_error &e) {
    d.faulted = true; // the next load resets the card first
    throwWithInfo(ipu::runtime::recoverable_runtime_error(e.getRecoveryAction(), withPoplarLoadRecovery(e.what())),
                  e.getErrorInfo());
  }
  d.loadedBy = this;
  resetsAtLoad = d.dev->resetCount();
  streams.reset(new ipu::runtime::StreamRegistry(*d.dev));
  for (const auto &s : cg.streams)
    if (s.bytes > 0) // a stream of 0 elements never reaches the runtime: its copies were lowered to nothing
      streams->declare(s.id, s.name,
                       s.toDevice ? ipu::runtime::StreamDirection::HostToDevice
                                  : ipu::runtime::StreamDirection::DeviceToHost,
                       s.bytes * s.replicas, s.devAddr);
  for (auto &[name, f] : connections)
    f(*streams);
  phases["load"] = seconds(start);
  log(LogLevel::Info, "loaded " + std::to_string(stats.tileBytes) + " bytes onto " + std::to_string(cg.tiles.size()) +
                          " tiles (" + std::to_string(stats.busBytes) + " over the bus)");
}

ipu::runtime::Device &EngineImpl::loaded() {
  DeviceImpl &di = liveDevice();
  if (di.loadedBy != this || di.dev->resetCount() != resetsAtLoad) {
    const char *why = di.loadedBy == nullptr ? "left without an engine (a run stopped mid-program, or a reset)"
                      : di.loadedBy != this    ? "loaded with another engine"
                                               : "reset";
    log(LogLevel::Info, std::string("the device was ") + why +
                            " since this engine was loaded: loading it again (its tensors start over)");
    loadOn(std::shared_ptr<DeviceImpl>(device)); // a copy: loadOn assigns `device`
  }
  return *di.dev;
}

} // namespace detail

void Engine::load(const Device &device) { impl_->loadOn(device.implPtr()); }

void Engine::loadAndRun(const Device &device) {
  load(device);
  run(0);
}

void Engine::prepare(const Device &device) {
  detail::DeviceImpl &d = device.impl();
  if (!d.attach())
    throw ipu::runtime::application_runtime_error("Engine::prepare: device " + std::to_string(d.id) +
                                                  " is in use by another process; pick another device");
  impl_->prepared = device.implPtr();
}

void Engine::prepare(const Device &device, const RuntimeOptions &runtimeOptions) {
  prepare(device);
  impl_->preparedRuntime.reset(new RuntimeOptions(runtimeOptions));
}

void Engine::deploy() {
  std::shared_ptr<detail::DeviceImpl> d = impl_->prepared;
  if (!d)
    throw ipu::runtime::application_runtime_error("Engine::deploy: no device; call engine.prepare(device) first");
  impl_->loadOn(d);
}

unsigned Engine::getNumPrograms() const { return unsigned(impl_->cg.programAddr.size()); }

OptionFlags Engine::getEngineOptions() const { return impl_->givenOptions; }

std::vector<std::string> Engine::listStreams() const {
  std::vector<std::string> names;
  for (const auto &s : impl_->cg.streams)
    if (!s.isLibraryStream())
      names.push_back(s.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

void Engine::run(unsigned prog, const std::string &debugName) { run(prog, debugName, RuntimeOptions()); }

void Engine::run(unsigned prog, const std::string &, const RuntimeOptions &runtimeOptions) {
  const auto &cg = impl_->cg;
  // The run's options: the engine's, with those of prepare() and of this call (and POPLAR_RUNTIME_OPTIONS) over them.
  const detail::EngineOptions runOptions = detail::parseEngineOptions(
      detail::withRuntimeOptions(impl_->givenOptions, impl_->preparedRuntime.get(), &runtimeOptions));
  if (prog >= cg.programAddr.size())
    throw ipu::runtime::application_runtime_error(
        "Engine::run(" + std::to_string(prog) + "): the engine has " + std::to_string(cg.programAddr.size()) +
        " program(s)" +
        (cg.programAddr.empty() ? "; build it with a program: Engine(graph, program) or Engine(graph, {p0, p1})"
                                : "; run a program from 0 to " + std::to_string(cg.programAddr.size() - 1)));
  raiseSimulatedError(prog);
  auto &dev = impl_->loaded();
  detail::TraceScope trace([&] { return "Engine::run(" + std::to_string(prog) + ")"; });
  auto start = std::chrono::steady_clock::now();
  for (std::uint32_t t : cg.tiles)
    dev.check(ipudrv_tile_setup(dev.handle(), t, cg.image.image.entry, cg.programAddr[prog].at(t), 1),
              "ipudrv_tile_setup");
  ipu::runtime::RunOptions opts;
  // The SDK documents target.hostSyncTimeout "0" as no timeout; the runtime takes a positive limit.
  opts.hostSyncTimeoutSeconds =
      runOptions.hostSyncTimeout > 0 ? runOptions.hostSyncTimeout : std::numeric_limits<double>::infinity();
  opts.runTimeoutSeconds = impl_->options.runTimeout;
  opts.watchdogKiloInsns = impl_->options.watchdogKiloInsns;
  std::mutex m;
  opts.console = [&](std::uint32_t, const std::string &line) {
    std::lock_guard<std::mutex> lock(m);
    impl_->printLine(line);
  };
  detail::EngineImpl *impl = impl_.get();
  opts.stopRequested = [impl] { return impl->stopRequested.load(); };
  ipu::runtime::RunResult r;
  impl_->errorMessage.clear();
  impl_->stopRequested = false;
  try {
    r = ipu::runtime::runDevice(dev, cg.tiles, impl_->streams.get(), opts);
  } catch (const ipu::runtime::run_stopped_error &) {
    impl_->printStream->flush();
    impl_->tensorStream->flush();
    // The tiles were halted mid-program: load afresh (after a reset) before the next run.
    impl_->liveDevice().faulted = true;
    impl_->liveDevice().unload();
    throw ipu::runtime::application_runtime_error(
        "Engine::run(" + std::to_string(prog) + "): stopped by Engine::stop() before the program's end; the "
        "engine loads itself again before its next run (constants and initial values afresh)");
  } catch (const ipu::runtime::run_timeout_error &e) {
    impl_->liveDevice().faulted = true;
    impl_->printStream->flush();
    impl_->tensorStream->flush();
    throwWithInfo(ipu::runtime::run_timeout_error(withPoplarRecovery(e.what())), e.getErrorInfo());
  } catch (const ipu::runtime::recoverable_runtime_error &e) {
    impl_->liveDevice().faulted = true;
    impl_->printStream->flush();
    impl_->tensorStream->flush();
    throwWithInfo(ipu::runtime::recoverable_runtime_error(e.getRecoveryAction(), withPoplarRecovery(e.what())),
                  e.getErrorInfo());
  } catch (const ipu::runtime::application_runtime_error &e) {
    impl_->printStream->flush();
    impl_->tensorStream->flush();
    if (std::exception_ptr hostError = impl_->hostFunctions->takeError()) {
      // A host function stopped the run (unconnected, or its callback threw): the tiles stopped mid-program.
      impl_->liveDevice().faulted = true;
      impl_->liveDevice().unload();
      std::rethrow_exception(hostError);
    }
    if (impl_->errorMessage.empty())
      throw;
    // The tiles were stopped mid-program: load afresh (after a reset) before the next run.
    impl_->liveDevice().faulted = true;
    impl_->liveDevice().unload();
    throw ipu::runtime::application_runtime_error(impl_->errorMessage);
  }
  impl_->printStream->flush();
  impl_->tensorStream->flush();
  impl_->lastMeasuredCycles = r.cycles;
  std::vector<std::uint64_t> measuredSteps;
  if (cg.instr.enabled) {
    const auto &slots = cg.instr.slots[prog];
    std::vector<std::uint32_t> stamps(slots.size());
    for (std::size_t k = 0; k < slots.size(); ++k)
      dev.readTile(cg.instr.tile, slots[k], &stamps[k], 4);
    for (std::size_t k = 1; k < stamps.size(); ++k)
      measuredSteps.push_back(stamps[k] - stamps[k - 1]);
  }
  // An IPU Model reports its time model's cycles (docs/time-model.md); cards that model hardware (QEMU, RTL, FPGA)
  // and debug.cycleModel=measured report what the card counted. Both stay in the execution profile.
  const bool estimated = impl_->target.getTargetType() == TargetType::IPU_MODEL && !impl_->options.measuredCycles &&
                         prog < cg.estimate.size();
  impl_->lastCycles = estimated ? cg.estimate[prog].cycles : r.cycles;
  impl_->totalCycles += impl_->lastCycles;
  // Per top-level step (instrumented engines): the time model's when the run's cycles are.
  const std::vector<std::uint64_t> stepCycles =
      estimated && cg.instr.enabled ? cg.estimate[prog].topStepCycles : measuredSteps;
  if (impl_->profiling && impl_->recordRuns)
    impl_->profiling->recordRun(
        detail::RunRecord{prog, impl_->lastCycles, stepCycles, r.cycles, measuredSteps, estimated});
  impl_->phases["run"] = detail::seconds(start);
  // The run's cycles as a metric series: a report places the IPU's steps inside this run's interval with them.
  if (pvti::checkTraceChannel(&pvti::tracePoplar))
    pvti::Graph("IPU cycles", "cycles").addSeries("Engine::run(" + std::to_string(prog) + ")").add(
        double(impl_->lastCycles));
  detail::log(detail::LogLevel::Info, "program " + std::to_string(prog) + " ran " +
                                          std::to_string(impl_->lastCycles) + (estimated ? " estimated" : "") +
                                          " cycles (" + std::to_string(r.cycles) + " measured), " +
                                          std::to_string(r.hostSyncs) + " host syncs");
}

void Engine::stop() { impl_->stopRequested = true; }

void Engine::connectStream(const std::string &handle, void *p) {
  std::size_t bytes = impl_->stream(handle).bytes;
  connectStream(handle, p, static_cast<char *>(p) + bytes);
}

void Engine::connectStream(const std::string &handle, void *begin, void *end) {
  if (detail::ReplicaFan *f = impl_->fan(handle)) {
    for (unsigned r = 0; r < impl_->cg.replicas; ++r)
      f->connectBuffer(r, begin, end);
    return;
  }
  impl_->connect(handle, [=](ipu::runtime::StreamRegistry &r) { r.connect(handle, begin, end); });
}

void Engine::connectStream(const std::string &handle, unsigned replicaIndex, void *p) {
  std::size_t bytes = impl_->stream(handle).bytes;
  connectStream(handle, replicaIndex, p, static_cast<char *>(p) + bytes);
}

void Engine::connectStream(const std::string &handle, unsigned replicaIndex, void *begin, void *end) {
  impl_->checkReplica("connectStream('" + handle + "')", replicaIndex);
  if (detail::ReplicaFan *f = impl_->fan(handle))
    f->connectBuffer(replicaIndex, begin, end);
  else
    connectStream(handle, begin, end);
}

void Engine::connectStreamToCallback(const std::string &handle, StreamCallbackHandle f) {
  std::shared_ptr<StreamCallback> shared(static_cast<std::unique_ptr<StreamCallback>>(std::move(f)));
  if (detail::ReplicaFan *fan = impl_->fan(handle)) {
    for (unsigned r = 0; r < impl_->cg.replicas; ++r)
      fan->connectCallback(r, shared);
    return;
  }
  impl_->connect(handle, [=](ipu::runtime::StreamRegistry &r) {
    r.connect(handle, std::unique_ptr<ipu::runtime::StreamCallback>(new detail::CallbackAdapter(shared)));
  });
}

void Engine::connectStreamToCallback(const std::string &handle, unsigned index, StreamCallbackHandle f) {
  impl_->checkReplica("connectStreamToCallback('" + handle + "')", index);
  if (detail::ReplicaFan *fan = impl_->fan(handle))
    fan->connectCallback(index,
                         std::shared_ptr<StreamCallback>(static_cast<std::unique_ptr<StreamCallback>>(std::move(f))));
  else
    connectStreamToCallback(handle, std::move(f));
}

void Engine::connectHostFunction(StringRef handle, unsigned index, HostCallbackHandle callback) {
  const std::string name = handle;
  impl_->checkReplica("connectHostFunction('" + name + "')", index);
  impl_->hostFunctions->connect(
      name, index, std::shared_ptr<HostCallback>(static_cast<std::unique_ptr<HostCallback>>(std::move(callback))));
}

void Engine::connectStreamToCallback(const DataStream &stream, StreamCallbackHandle f) {
  connectStreamToCallback(streamHandle(stream, "connectStreamToCallback"), std::move(f));
}

void Engine::connectStreamToCallback(const DataStream &stream, unsigned index, StreamCallbackHandle f) {
  connectStreamToCallback(streamHandle(stream, "connectStreamToCallback"), index, std::move(f));
}

void Engine::copyToRemoteBuffer(const void *data, const std::string &handle, std::uint64_t repeatIndex,
                                unsigned replicationIndex) {
  impl_->checkReplica("copyToRemoteBuffer('" + handle + "')", replicationIndex);
  const auto &r = impl_->remote(handle);
  if (repeatIndex >= r.repeats)
    throw index_error("copyToRemoteBuffer('" + handle + "'): row " + std::to_string(repeatIndex) +
                      " is past its " + std::to_string(r.repeats) + " rows");
  std::memcpy(impl_->remoteData[handle].data() + (replicationIndex * r.repeats + repeatIndex) * r.rowBytes, data,
              std::size_t(r.rowBytes));
}

void Engine::copyFromRemoteBuffer(const std::string &handle, void *data, std::uint64_t repeatIndex,
                                  unsigned replicationIndex) {
  impl_->checkReplica("copyFromRemoteBuffer('" + handle + "')", replicationIndex);
  const auto &r = impl_->remote(handle);
  if (repeatIndex >= r.repeats)
    throw index_error("copyFromRemoteBuffer('" + handle + "'): row " + std::to_string(repeatIndex) +
                      " is past its " + std::to_string(r.repeats) + " rows");
  std::memcpy(data, impl_->remoteData[handle].data() + (replicationIndex * r.repeats + repeatIndex) * r.rowBytes,
              std::size_t(r.rowBytes));
}

void Engine::setPrintTensorStream(std::ostream &stream) { impl_->tensorStream = &stream; }
void Engine::setPrintStream(std::ostream &stream) { impl_->printStream = &stream; }

void Engine::resetExecutionProfile() {
  impl_->lastCycles = 0;
  impl_->lastMeasuredCycles = 0;
  impl_->phases.erase("run");
  if (impl_->profiling)
    impl_->profiling->reset();
}

void Engine::readTensor(const std::string &handle, void *buf) {
  const auto &h = impl_->handle(handle, false);
  auto &dev = impl_->loaded();
  detail::TraceScope trace([&] { return "Engine::readTensor(" + handle + ")"; });
  for (const auto &p : h.pieces)
    dev.readTile(p.tile, p.addr, static_cast<char *>(buf) + p.hostOffset, p.len);
}

void Engine::readTensor(const std::string &handle, void *begin, void *end) {
  const auto &h = impl_->handle(handle, false);
  std::size_t n = std::size_t(static_cast<char *>(end) - static_cast<char *>(begin));
  // The end pointer bounds the copy, as in Poplar: a larger buffer is fine (its tail is left alone), a smaller
  // one is refused.
  if (end < begin || n < h.bytes)
    throw ipu::runtime::application_runtime_error("readTensor('" + handle + "'): the buffer has " +
                                                  std::to_string(n) + " bytes, the tensor " + std::to_string(h.bytes) +
                                                  "; pass a buffer of at least " + std::to_string(h.bytes) + " bytes");
  readTensor(handle, begin);
}

void Engine::writeTensor(const std::string &handle, const void *buf) {
  const auto &h = impl_->handle(handle, true);
  auto &dev = impl_->loaded();
  detail::TraceScope trace([&] { return "Engine::writeTensor(" + handle + ")"; });
  for (const auto &p : h.pieces)
    dev.writeTile(p.tile, p.addr, static_cast<const char *>(buf) + p.hostOffset, p.len);
}

void Engine::writeTensor(const std::string &handle, const void *begin, const void *end) {
  const auto &h = impl_->handle(handle, true);
  std::size_t n = std::size_t(static_cast<const char *>(end) - static_cast<const char *>(begin));
  // The end pointer bounds the copy, as in Poplar: a larger buffer is fine (its tail is left alone), a smaller
  // one is refused.
  if (end < begin || n < h.bytes)
    throw ipu::runtime::application_runtime_error("writeTensor('" + handle + "'): the buffer has " +
                                                  std::to_string(n) + " bytes, the tensor " + std::to_string(h.bytes) +
                                                  "; pass a buffer of at least " + std::to_string(h.bytes) + " bytes");
  writeTensor(handle, begin);
}

// The metadata handle Graph::createHostWrite/Read added beside a QUARTER tensor's; poplar_error when the
// tensor has none (the handle itself must exist: handle() says so otherwise).
static const detail::CompiledHandle &metadataHandle(const detail::CompiledGraph &cg, const std::string &handle,
                                                    bool write, const char *what) {
  auto it = cg.handles.find(HostHandleKey{kMetadataHandlePrefix + handle, write});
  if (it == cg.handles.end())
    throw poplar_error(std::string(what) + "('" + handle + "', metadata, ...): the handle's tensor is not a QUARTER "
                       "tensor with metadata; create it with Graph::addVariable(QUARTER, metadataTensor, ...) or "
                       "call " + what + " without the QuarterMetadata");
  return it->second;
}

void Engine::writeTensor(const std::string &handle, const QuarterMetadata &metadata, const void *begin,
                         const void *end) {
  impl_->handle(handle, true);
  const detail::CompiledHandle &m = metadataHandle(impl_->cg, handle, true, "writeTensor");
  writeTensor(handle, begin, end);
  const std::uint8_t binary = metadata.getBinary();
  auto &dev = impl_->loaded();
  for (const auto &p : m.pieces)
    dev.writeTile(p.tile, p.addr, &binary, p.len);
}

void Engine::readTensor(const std::string &handle, QuarterMetadata &metadata, void *begin, void *end) {
  impl_->handle(handle, false);
  const detail::CompiledHandle &m = metadataHandle(impl_->cg, handle, false, "readTensor");
  readTensor(handle, begin, end);
  std::uint8_t binary = 0;
  auto &dev = impl_->loaded();
  for (const auto &p : m.pieces)
    dev.readTile(p.tile, p.addr, &binary, p.len);
  metadata = QuarterMetadata::fromBinary(binary);
}

// As in the SDK, the engine's summary is printProfileSummary of its two profiles: one printer for both.
void Engine::printProfileSummary(std::ostream &out, const OptionFlags &opts) const {
  poplar::printProfileSummary(out, getGraphProfile(), getExecutionProfile(), opts);
}

std::uint64_t Engine::getLastRunCycles() const { return impl_->lastCycles; }
std::uint64_t Engine::getLastRunMeasuredCycles() const { return impl_->lastMeasuredCycles; }

double Engine::getPhaseSeconds(const std::string &phase) const {
  auto it = impl_->phases.find(phase);
  return it == impl_->phases.end() ? 0.0 : it->second;
}

// --- profiling (the profiles themselves are built in src/profiling/) ---
ProfileValue Engine::getGraphProfile() const { return impl_->profiling->graphProfile(); }

ProfileValue Engine::getExecutionProfile() const { return impl_->profiling->executionProfile(); }

ProfileValue Engine::getProfile() const {
  ProfileValue::Map both = getGraphProfile().asMap();
  const ProfileValue execution = getExecutionProfile(); // kept alive for the loop (asMap() is a reference into it)
  for (const auto &entry : execution.asMap())
    if (!both.emplace(entry.first, entry.second).second)
      throw poplar_error("Engine::getProfile: the graph and execution profiles both have an entry '" + entry.first +
                         "'; read them apart with getGraphProfile() and getExecutionProfile()");
  return ProfileValue(both);
}


void Engine::writeReports() const { impl_->profiling->writeReports(); }

void Engine::enableExecutionProfiling() { impl_->recordRuns = true; }

Engine::TimerTimePoint Engine::getTimeStamp() {
  TimerTimePoint t;
  t.cycles = impl_->totalCycles;
  t.hostNanoseconds = std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
  return t;
}

std::string Engine::reportTiming(const TimerTimePoint &start, const TimerTimePoint &end) const {
  if (end.cycles < start.cycles || end.hostNanoseconds < start.hostNanoseconds)
    throw poplar_error("reportTiming(start, end): end was taken before start; pass the earlier stamp first");
  const std::uint64_t cycles = end.cycles - start.cycles;
  std::ostringstream out;
  out << "Cycles: " << cycles << "\nTime: " << double(cycles) / impl_->target.getTileClockFrequency() * 1e6
      << " us\n";
  return out.str();
}

void Engine::disableExecutionProfiling() { impl_->recordRuns = false; }

// --- simulated errors ---
void Engine::insertSimulatedError(ErrorCode code, const ErrorLocation &location) {
  if (code == ErrorCode::NONE)
    throw poplar_error("insertSimulatedError: ErrorCode::NONE is not an error; pass the code to simulate (e.g. "
                       "ErrorCode::FLOATING_POINT_OVERFLOW), or call eraseSimulatedError to disarm a location");
  if (static_cast<unsigned>(code) > static_cast<unsigned>(ErrorCode::IPU_MEMORY_FAILURE))
    throw poplar_error("insertSimulatedError: " + std::to_string(static_cast<unsigned>(code)) +
                       " is not an ErrorCode; pass one of the ErrorCode enumerators");
  const std::size_t numCS = impl_->profiling->graphProfile()["computeSets"]["names"].size();
  if (location.computeSet_ >= numCS || location.tile_ >= impl_->target.getNumTiles())
    throw poplar_error("insertSimulatedError: the location (tile " + std::to_string(location.tile_) +
                       ") is not one of this engine's; pass a location from this engine's "
                       "getSimulatedErrorLocations");
  impl_->simulatedErrors[std::make_pair(location.tile_, location.computeSet_)] = code;
}

void Engine::eraseSimulatedError(const ErrorLocation &location) {
  impl_->simulatedErrors.erase(std::make_pair(location.tile_, location.computeSet_));
}

void Engine::clearSimulatedErrors() { impl_->simulatedErrors.clear(); }

std::vector<ErrorLocation> Engine::getSimulatedErrorLocations(unsigned tile, unsigned maxLocations) {
  if (tile >= impl_->target.getNumTiles())
    throw poplar_error("getSimulatedErrorLocations: tile " + std::to_string(tile) + " is past the target's " +
                       std::to_string(impl_->target.getNumTiles()) + " tiles; pass a tile below " +
                       std::to_string(impl_->target.getNumTiles()));
  return locationsWhere(true, tile, maxLocations);
}

std::vector<ErrorLocation> Engine::getSimulatedErrorLocations(StringRef computeSetName, unsigned maxLocations) {
  const std::string name = computeSetName.cloneAsString();
  const auto &names = impl_->profiling->graphProfile()["computeSets"]["names"].asVector();
  std::string known;
  for (unsigned cs = 0; cs < names.size(); ++cs) {
    if (names[cs].asString() == name)
      return locationsWhere(false, cs, maxLocations);
    known += (known.empty() ? "" : ", ") + names[cs].asString();
  }
  throw poplar_error("getSimulatedErrorLocations: the graph has no compute set '" + name +
                     "'; pass one of: " + (known.empty() ? "(none)" : known));
}

/// The (tile, compute set) pairs with vertices whose tile (`byTile`) or compute set is `key`, ascending, at most
/// `maxLocations`.
std::vector<ErrorLocation> Engine::locationsWhere(bool byTile, unsigned key, unsigned maxLocations) const {
  std::set<std::pair<unsigned, unsigned>> found;
  for (const auto &v : impl_->profiling->vertices())
    if ((byTile ? v.tile : v.computeSet) == key)
      found.insert(std::make_pair(v.tile, v.computeSet));
  std::vector<ErrorLocation> out;
  for (const auto &f : found)
    if (out.size() < maxLocations)
      out.push_back(ErrorLocation(f.first, f.second));
  return out;
}

/// Throws the armed simulated error of the first compute set of program `prog` that has one (see
/// insertSimulatedError), as the device would report it.
void Engine::raiseSimulatedError(unsigned prog) {
  if (impl_->simulatedErrors.empty() || prog >= impl_->cg.steps.size())
    return;
  const auto &names = impl_->profiling->graphProfile()["computeSets"]["names"].asVector();
  for (const detail::StepInfo &step : impl_->cg.steps[prog]) {
    if (step.kind != "OnTileExecute")
      continue;
    for (const auto &armed : impl_->simulatedErrors) {
      if (armed.first.second != step.computeSet)
        continue;
      const ErrorCode code = armed.second;
      const std::string what = "Engine::run(" + std::to_string(prog) + "): simulated error " +
                               errorCodeToString(code) + " on tile " + std::to_string(armed.first.first) +
                               " in compute set '" + names[step.computeSet].asString() +
                               "' (Engine::insertSimulatedError; clearSimulatedErrors() disarms it)";
      // ErrorInfo as the device would report it: the code, and the tile and compute set for a tile error (a link,
      // host-sync or memory failure belongs to no tile).
      runtime_error::ErrorInfo info;
      info.code = code;
      info.computeSet = names[step.computeSet].asString();
      const bool link =
          code == ErrorCode::LINK_DOWN || code == ErrorCode::HOST_LINK_DOWN || code == ErrorCode::HOST_SYNC_TIMEOUT;
      if (!link && code != ErrorCode::IPU_MEMORY_FAILURE)
        info.tile = armed.first.first;
      if (link)
        throwWithInfo(recoverable_runtime_error(ipu::runtime::RecoveryAction::IPU_RESET, what), info);
      if (code == ErrorCode::IPU_MEMORY_FAILURE)
        throwWithInfo(unrecoverable_runtime_error(what), info);
      throwWithInfo(application_runtime_error(what), info);
    }
  }
}
// --- end simulated errors ---

void Engine::reportIntervals(std::ostream &out) {
  if (!impl_->recordRuns)
    throw profiling_disabled("reportIntervals: execution profiling is off (disableExecutionProfiling() was "
                             "called); call enableExecutionProfiling() before the runs whose intervals you want");
  const ProfileValue profile = getExecutionProfile();
  for (const ProfileValue &step : profile["simulation"]["steps"].asVector()) {
    const std::string type = step["type"].asString();
    const std::uint64_t tiles = step["activeTiles"].asUInt();
    const bool compute = type == "OnTileExecute", sync = type == "Sync";
    const bool exchange = type == "DoExchange" || type == "StreamCopy" || type == "PrintTensor";
    out << step["cyclesFrom"].asUInt() << ',' << step["cyclesTo"].asUInt() << ',' << (compute ? tiles : 0) << ','
        << (exchange ? tiles : 0) << ',' << (sync ? tiles : 0) << '\n';
  }
}
// --- end profiling ---

} // namespace poplar
