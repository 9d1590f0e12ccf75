// compileGraph() and the Executable handle; the file format is in executable_io.cpp.
#include "poplar/Executable.hpp"

#include <chrono>

#include "compiler.hpp"
#include "engine_options.hpp"
#include "executable_impl.hpp"
#include "profiling/profiles.hpp"
#include "log.hpp"
#include "trace.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

Executable::Executable(std::unique_ptr<detail::ExecutableImpl> impl) : impl_(std::move(impl)) {}
Executable::Executable(Executable &&other) : impl_(std::move(other.impl_)) {}
Executable &Executable::operator=(Executable &&other) {
  impl_ = std::move(other.impl_);
  return *this;
}
Executable::~Executable() = default;

detail::ExecutableImpl &Executable::impl() const {
  if (!impl_)
    throw poplar_error("this Executable was moved from (an Engine took it); compile or deserialize another one");
  return *impl_;
}

void Executable::serialize(std::ostream &out) const { detail::writeExecutable(out, impl()); }

Executable Executable::deserialize(std::istream &in) {
  std::unique_ptr<detail::ExecutableImpl> impl(new detail::ExecutableImpl(detail::readExecutable(in)));
  return Executable(std::move(impl));
}

Executable compileGraph(const Graph &graph, const std::vector<program::Program> &programs,
                        const OptionFlags &options, ProgressFunc progressCallBack) {
  auto start = std::chrono::steady_clock::now();
  detail::graphConstructionEnds();
  detail::TraceScope trace([] { return "compileGraph"; });
  const OptionFlags merged = detail::withEnvironmentOptions(options);
  detail::EngineOptions opts = detail::parseEngineOptions(merged);
  if (progressCallBack)
    progressCallBack(0, 1);
  // Per-step cycles are measured on the IPU Model unless debug.instrument says otherwise (the seed's default for
  // hardware is off).
  detail::CompileOptions copts;
  // An execution report (autoReport.outputExecutionProfile) needs measurements, so it turns them on unless
  // debug.instrument says otherwise.
  detail::ProfilingOptions profiling =
      detail::parseProfilingOptions(merged,
                                    graph.getTarget().getTargetType() != TargetType::IPU);
  copts.instrument = opts.instrumentSet ? opts.instrument : profiling.instrument;
  copts.reuseMemory = opts.reuseMemory;
  copts.dumpPath = opts.dumpPath;
  copts.replicaToProfile = opts.replicaToProfile;
  std::unique_ptr<detail::ExecutableImpl> exe(new detail::ExecutableImpl);
  exe->cg = detail::compileGraph(graph.impl(), programs, copts);
  // The whole device's target (a virtual or replicated graph's own target has only its part of the tiles, while
  // the compiled graph spans all of them).
  const Target &target = graph.impl().target;
  exe->target = target.values();
  detail::TraceScope profileTrace([] { return "graph profile"; });
  exe->profile = detail::makeGraphProfileData(graph.impl(), exe->cg, target, profiling);
  exe->compileSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (progressCallBack)
    progressCallBack(1, 1);
  detail::log(detail::LogLevel::Info, "compiled " + std::to_string(programs.size()) + " program(s) for " +
                                          std::to_string(exe->cg.tiles.size()) + " tiles in " +
                                          std::to_string(exe->compileSeconds) + " s");
  return Executable(std::move(exe));
}

} // namespace poplar
