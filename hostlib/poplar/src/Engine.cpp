// The engine: compile on construction, load a device image through the host runtime, run with streams, move data.
#include "poplar/Engine.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>

#include "compiler.hpp"
#include "device_impl.hpp"
#include "ipu_runtime/loader.hpp"
#include "ipu_runtime/run.hpp"
#include "ipu_runtime/streams.hpp"
#include "log.hpp"
#include "poplar/exceptions.hpp"
#include "profile.hpp"
#include "profiling/profiles.hpp"

namespace poplar {

namespace detail {

/// Adapts a poplar::StreamCallback to the runtime's callback interface.
class CallbackAdapter : public ipu::runtime::StreamCallback {
public:
  explicit CallbackAdapter(std::unique_ptr<poplar::StreamCallback> cb) : cb_(std::move(cb)) {}
  Result prefetch(void *p) override {
    return cb_->prefetch(p) == poplar::StreamCallback::Result::Success ? Result::Success : Result::NotAvailable;
  }
  void fetch(void *p) override { cb_->fetch(p); }
  void complete() override { cb_->complete(); }
  void invalidatePrefetched() override { cb_->invalidatePrefetched(); }

private:
  std::unique_ptr<poplar::StreamCallback> cb_;
};

struct EngineImpl {
  CompiledGraph cg;
  Target target;
  OptionFlags options;
  DeviceImpl *device = nullptr;
  std::unique_ptr<ipu::runtime::StreamRegistry> streams;
  std::map<std::string, std::function<void(ipu::runtime::StreamRegistry &)>> connections;
  std::uint64_t lastCycles = 0;
  unsigned lastProgram = 0;
  std::vector<std::uint64_t> stepCycles; ///< per top-level step of the last run (instrumented engines)
  bool ran = false;
  std::map<std::string, double> phases;
  std::unique_ptr<EngineProfiling> profiling; ///< graph profile, runs since the last reset, autoReport

  double option(const std::string &key, double dflt) const {
    return options.contains(key) ? std::atof(options.at(key).c_str()) : dflt;
  }
  ipu::runtime::Device &dev() const {
    if (!device || !device->dev)
      throw ipu::runtime::application_runtime_error("the engine is not loaded: call engine.load(device) first");
    return *device->dev;
  }
  const CompiledStream &stream(const std::string &handle) const {
    for (const auto &s : cg.streams)
      if (s.name == handle)
        return s;
    std::string names;
    for (const auto &s : cg.streams)
      names += (names.empty() ? "" : ", ") + s.name;
    throw unknown_field("no stream '" + handle + "' in the graph (streams: " + (names.empty() ? "none" : names) + ")");
  }
  const CompiledHandle &handle(const std::string &name, bool write) const {
    auto it = cg.handles.find(name);
    if (it == cg.handles.end() || it->second.write != write) {
      std::string names;
      for (const auto &[n, h] : cg.handles)
        if (h.write == write)
          names += (names.empty() ? "" : ", ") + n;
      throw unknown_field(std::string("no host-") + (write ? "write" : "read") + " handle '" + name +
                          "' (create it with graph.createHost" + (write ? "Write" : "Read") + "; handles: " +
                          (names.empty() ? "none" : names) + ")");
    }
    return it->second;
  }
  void connect(const std::string &handle, std::function<void(ipu::runtime::StreamRegistry &)> f) {
    stream(handle);
    connections[handle] = f;
    if (streams)
      f(*streams);
  }
  void printLine(const std::string &line);
};

/// The parts of tile `t`'s data that have defined contents (constants, vertex states, tables, exchange lists,
/// control programs). Variables and buffers are left out: their contents are undefined until written, and leaving
/// them out keeps the upload to what the program needs.
static std::vector<ipu::runtime::TileSegment> initialisedSegments(const CompiledGraph &cg, std::uint32_t t) {
  const TileData &td = cg.tileData.at(t);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  for (const auto &item : td.items) {
    if (!item.initialised || item.size == 0)
      continue;
    if (!ranges.empty() && item.addr <= ranges.back().second + 64)
      ranges.back().second = std::max(ranges.back().second, item.addr + item.size);
    else
      ranges.emplace_back(item.addr, item.addr + item.size);
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

/// "@P3: [1 2 3 4]" -> "title: {1,2,3,4}" with one level of braces per dimension.
void EngineImpl::printLine(const std::string &line) {
  auto colon = line.find(": [");
  auto it = colon == std::string::npos ? cg.prints.end() : cg.prints.find(line.substr(0, colon));
  if (it == cg.prints.end() || line.back() != ']') {
    std::cout << line << "\n";
    return;
  }
  std::vector<std::string> values;
  std::istringstream is(line.substr(colon + 3, line.size() - colon - 4));
  for (std::string v; is >> v;)
    values.push_back(v);
  const auto &shape = it->second.shape;
  std::size_t pos = 0;
  std::ostringstream os;
  std::function<void(std::size_t, const std::string &)> rec = [&](std::size_t d, const std::string &indent) {
    if (d + 1 >= shape.size()) {
      std::size_t n = shape.empty() ? 1 : shape[d];
      os << "{";
      for (std::size_t i = 0; i < n; ++i)
        os << (i ? "," : "") << (pos < values.size() ? values[pos++] : "?");
      os << "}";
      return;
    }
    os << "{\n";
    for (std::size_t i = 0; i < shape[d]; ++i) {
      os << indent << " ";
      rec(d + 1, indent + " ");
      os << (i + 1 < shape[d] ? ",\n" : "\n");
    }
    os << indent << "}";
  };
  rec(0, "");
  std::cout << (it->second.title.empty() ? "" : it->second.title + ": ") << os.str() << "\n";
}

} // namespace detail

using detail::EngineImpl;

Engine::Engine(const Graph &graph, const program::Program &prog, const OptionFlags &options)
    : Engine(graph, std::vector<program::Program>{prog}, options) {}

Engine::Engine(const Graph &graph, const std::vector<program::Program> &programs, const OptionFlags &options)
    : impl_(new EngineImpl) {
  impl_->options = options;
  if (const char *env = std::getenv("POPLAR_ENGINE_OPTIONS"); env && *env) {
    OptionFlags fromEnv;
    readJSON(std::string(env), fromEnv);
    for (const auto &kv : fromEnv)
      impl_->options.set(kv.first, kv.second);
  }
  impl_->target = graph.getTarget();
  auto start = std::chrono::steady_clock::now();
  // Per-step cycles are measured on the IPU Model unless debug.instrument says otherwise (the seed's default for
  // hardware is off).
  bool instrument = graph.getTarget().getTargetType() != TargetType::IPU;
  if (impl_->options.contains("debug.instrument"))
    instrument = impl_->options.at("debug.instrument") == "true";
  if (impl_->options.contains("debug.instrumentCompute"))
    instrument = impl_->options.at("debug.instrumentCompute") == "true";
  detail::CompileOptions copts;
  copts.instrument = instrument;
  detail::ProfilingOptions profilingOptions = detail::parseProfilingOptions(impl_->options, instrument);
  copts.instrument = profilingOptions.instrument; // an execution report asks for measurements
  if (impl_->options.contains("debug.reuseMemory")) {
    const std::string &v = impl_->options.at("debug.reuseMemory");
    if (v != "true" && v != "false")
      throw invalid_option("debug.reuseMemory: '" + v + "' is not a boolean; use \"true\" or \"false\"");
    copts.reuseMemory = v == "true";
  }
  if (impl_->options.contains("debug.dumpCompiledGraph"))
    copts.dumpPath = impl_->options.at("debug.dumpCompiledGraph");
  impl_->cg = detail::compileGraph(graph.impl(), programs, copts);
  impl_->profiling.reset(new detail::EngineProfiling(graph.impl(), impl_->cg, impl_->target, profilingOptions));
  impl_->phases["compile"] = detail::seconds(start);
  detail::log(detail::LogLevel::Info, "compiled " + std::to_string(programs.size()) + " program(s) for " +
                                          std::to_string(impl_->cg.tiles.size()) + " tiles in " +
                                          std::to_string(impl_->phases["compile"]) + " s");
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

void Engine::load(Device &device) {
  auto start = std::chrono::steady_clock::now();
  detail::DeviceImpl &d = device.impl();
  if (!d.attach())
    throw ipu::runtime::application_runtime_error("Engine::load: device " + std::to_string(d.id) +
                                                  " is in use by another process; pick another device");
  const auto &cg = impl_->cg;
  if (d.dev->numTiles() < cg.board.num_ipus * cg.board.tiles_per_ipu ||
      d.dev->info().board.bytes_per_tile < cg.board.bytes_per_tile)
    throw ipu::runtime::application_runtime_error(
        "Engine::load: the graph was compiled for " + std::string(cg.board.name) + " (" +
        std::to_string(cg.board.tiles_per_ipu) + " tiles x " + std::to_string(cg.board.bytes_per_tile) +
        " bytes) but the device is " + d.dev->describe() + "; build the Graph with device.getTarget()");
  impl_->streams.reset();
  impl_->device = &d;
  ipu::runtime::DeviceImage image;
  image.tiles = cg.tiles;
  image.shared = cg.image.image.segments;
  image.defaultBoot.entry = cg.image.image.entry;
  for (std::uint32_t t : cg.tiles) {
    image.perTile[t] = detail::initialisedSegments(cg, t);
    image.boot[t] = ipu::runtime::TileBoot{cg.image.image.entry, cg.programAddr.empty() ? 0 : cg.programAddr[0].at(t)};
  }
  ipu::runtime::LoadStats stats = ipu::runtime::loadImage(*d.dev, image);
  impl_->streams.reset(new ipu::runtime::StreamRegistry(*d.dev));
  for (const auto &s : cg.streams)
    impl_->streams->declare(s.id, s.name,
                            s.toDevice ? ipu::runtime::StreamDirection::HostToDevice
                                       : ipu::runtime::StreamDirection::DeviceToHost,
                            s.bytes, s.devAddr);
  for (auto &[name, f] : impl_->connections)
    f(*impl_->streams);
  impl_->phases["load"] = detail::seconds(start);
  detail::log(detail::LogLevel::Info, "loaded " + std::to_string(stats.tileBytes) + " bytes onto " +
                                          std::to_string(cg.tiles.size()) + " tiles (" +
                                          std::to_string(stats.busBytes) + " over the bus)");
}

void Engine::run(unsigned prog, const std::string &) {
  auto &dev = impl_->dev();
  const auto &cg = impl_->cg;
  if (prog >= cg.programAddr.size())
    throw ipu::runtime::application_runtime_error("Engine::run(" + std::to_string(prog) + "): the engine has " +
                                                  std::to_string(cg.programAddr.size()) + " program(s)");
  auto start = std::chrono::steady_clock::now();
  for (std::uint32_t t : cg.tiles)
    dev.check(ipudrv_tile_setup(dev.handle(), t, cg.image.image.entry, cg.programAddr[prog].at(t), 1),
              "ipudrv_tile_setup");
  ipu::runtime::RunOptions opts;
  opts.hostSyncTimeoutSeconds = impl_->option("target.hostSyncTimeout", 300.0);
  opts.runTimeoutSeconds = impl_->option("debug.runTimeout", 0.0);
  opts.watchdogKiloInsns = std::uint32_t(impl_->option("debug.watchdogKiloInsns", 0.0));
  std::mutex m;
  opts.console = [&](std::uint32_t, const std::string &line) {
    std::lock_guard<std::mutex> lock(m);
    impl_->printLine(line);
  };
  ipu::runtime::RunResult r = ipu::runtime::runDevice(dev, cg.tiles, impl_->streams.get(), opts);
  std::cout.flush();
  impl_->lastCycles = r.cycles;
  impl_->lastProgram = prog;
  impl_->stepCycles.clear();
  if (cg.instr.enabled) {
    const auto &slots = cg.instr.slots[prog];
    std::vector<std::uint32_t> stamps(slots.size());
    for (std::size_t k = 0; k < slots.size(); ++k)
      dev.readTile(cg.instr.tile, slots[k], &stamps[k], 4);
    for (std::size_t k = 1; k < stamps.size(); ++k)
      impl_->stepCycles.push_back(stamps[k] - stamps[k - 1]);
  }
  impl_->ran = true;
  if (impl_->profiling)
    impl_->profiling->recordRun(detail::RunRecord{prog, r.cycles, impl_->stepCycles});
  impl_->phases["run"] = detail::seconds(start);
  detail::log(detail::LogLevel::Info, "program " + std::to_string(prog) + " ran " + std::to_string(r.cycles) +
                                          " cycles, " + std::to_string(r.hostSyncs) + " host syncs");
}

void Engine::connectStream(const std::string &handle, void *p) {
  std::size_t bytes = impl_->stream(handle).bytes;
  connectStream(handle, p, static_cast<char *>(p) + bytes);
}

void Engine::connectStream(const std::string &handle, void *begin, void *end) {
  impl_->connect(handle, [=](ipu::runtime::StreamRegistry &r) { r.connect(handle, begin, end); });
}

void Engine::connectStreamToCallback(const std::string &handle, std::unique_ptr<StreamCallback> f) {
  auto shared = std::make_shared<std::unique_ptr<StreamCallback>>(std::move(f));
  impl_->connect(handle, [=](ipu::runtime::StreamRegistry &r) {
    if (!*shared)
      throw ipu::runtime::application_runtime_error("stream '" + handle + "': a callback object can be connected "
                                                    "to one loaded engine only; connect a new one");
    r.connect(handle, std::unique_ptr<ipu::runtime::StreamCallback>(new detail::CallbackAdapter(std::move(*shared))));
  });
}

void Engine::connectStreamToCallback(const std::string &handle, std::function<void(void *)> f) {
  impl_->connect(handle, [=](ipu::runtime::StreamRegistry &r) { r.connect(handle, f); });
}

void Engine::readTensor(const std::string &handle, void *buf) {
  const auto &h = impl_->handle(handle, false);
  auto &dev = impl_->dev();
  for (const auto &p : h.pieces)
    dev.readTile(p.tile, p.addr, static_cast<char *>(buf) + p.hostOffset, p.len);
}

void Engine::readTensor(const std::string &handle, void *begin, void *end) {
  const auto &h = impl_->handle(handle, false);
  std::size_t n = std::size_t(static_cast<char *>(end) - static_cast<char *>(begin));
  if (n != h.bytes)
    throw ipu::runtime::application_runtime_error("readTensor('" + handle + "'): the buffer has " +
                                                  std::to_string(n) + " bytes, the tensor " + std::to_string(h.bytes));
  readTensor(handle, begin);
}

void Engine::writeTensor(const std::string &handle, const void *buf) {
  const auto &h = impl_->handle(handle, true);
  auto &dev = impl_->dev();
  for (const auto &p : h.pieces)
    dev.writeTile(p.tile, p.addr, static_cast<const char *>(buf) + p.hostOffset, p.len);
}

void Engine::writeTensor(const std::string &handle, const void *begin, const void *end) {
  const auto &h = impl_->handle(handle, true);
  std::size_t n = std::size_t(static_cast<const char *>(end) - static_cast<const char *>(begin));
  if (n != h.bytes)
    throw ipu::runtime::application_runtime_error("writeTensor('" + handle + "'): the buffer has " +
                                                  std::to_string(n) + " bytes, the tensor " + std::to_string(h.bytes));
  writeTensor(handle, begin);
}

void Engine::printProfileSummary(std::ostream &out, const OptionFlags &opts) const {
  detail::printSummary(out, impl_->target, impl_->cg, impl_->ran, impl_->lastCycles, impl_->lastProgram,
                       impl_->stepCycles,
                       detail::parseSummaryOptions(opts).showExecutionSteps);
  detail::printOptionalSections(out, impl_->profiling->graphProfile(), opts);
}

std::uint64_t Engine::getLastRunCycles() const { return impl_->lastCycles; }

double Engine::getPhaseSeconds(const std::string &phase) const {
  auto it = impl_->phases.find(phase);
  return it == impl_->phases.end() ? 0.0 : it->second;
}

// --- profiling (the profiles themselves are built in src/profiling/) ---
ProfileValue Engine::getGraphProfile() const { return impl_->profiling->graphProfile(); }

ProfileValue Engine::getExecutionProfile() const { return impl_->profiling->executionProfile(); }

void Engine::resetExecutionProfile() { impl_->profiling->reset(); }

void Engine::writeReports() const { impl_->profiling->writeReports(); }
// --- end profiling ---

} // namespace poplar
