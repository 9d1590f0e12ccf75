// poplar::Module and compileModule: a compiled graph (the ExecutableImpl compileGraph makes) shared by Module
// handles, walked as the tile images a device load writes (the same segments Engine::load sends).
#include "poplar/Module.hpp"

#include <utility>

#include "executable_impl.hpp"
#include "log.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

namespace core {
/// What a Module holds: the compiled graph.
class Executable {
public:
  explicit Executable(detail::ExecutableImpl &&e) : exe(std::move(e)) {}
  detail::ExecutableImpl exe;
};
} // namespace core

Module::~Module() = default;
Module::Module() = default;
Module::Module(Module &&other) noexcept : impl_(std::move(other.impl_)) {}
Module &Module::operator=(Module &&other) noexcept {
  impl_ = std::move(other.impl_);
  return *this;
}
Module::Module(std::shared_ptr<const core::Executable> impl) : impl_(std::move(impl)) {}

const core::Executable &Module::getImpl() const {
  if (!impl_)
    throw poplar_error("this Module is empty (default-constructed or moved from); make one with compileModule");
  return *impl_;
}

/// The compiled graph of `m`; throws poplar_error naming `what` unless it was compiled for an IPU, as the SDK's
/// Module does.
static const detail::ExecutableImpl &ipuModule(const Module &m, const char *what) {
  const detail::ExecutableImpl &exe = m.getImpl().exe;
  if (exe.target.type != TargetType::IPU)
    throw poplar_error(std::string("Module::") + what + ": the module was compiled for target type " +
                       toString(exe.target.type) + ", and only IPU modules have tile images; compile with "
                       "the Target of a device from DeviceManager (TargetType::IPU), or use compileGraph and "
                       "Executable for other targets");
  return exe;
}

void Module::serialize(std::ostream &out) const { detail::writeExecutable(out, ipuModule(*this, "serialize")); }

void Module::forEachSegment(std::function<void(std::size_t, std::size_t, std::size_t, std::size_t, const char *)> f)
    const {
  const detail::CompiledGraph &cg = ipuModule(*this, "forEachSegment").cg;
  for (std::uint32_t t : cg.tiles) {
    for (const auto &s : cg.image.image.segments)
      f(t, s.vaddr, s.bytes.size(), s.memsz, reinterpret_cast<const char *>(s.bytes.data()));
    // The tile's own data (variables, vertex states, control programs) from the end of the image to its peak.
    const detail::TileData &td = cg.tileData.at(t);
    f(t, cg.image.freeStart, td.bytes.size(), td.top > cg.image.freeStart ? td.top - cg.image.freeStart : 0,
      reinterpret_cast<const char *>(td.bytes.data()));
  }
}

void Module::forEachLoadableSegment(std::function<void(std::size_t, std::size_t, std::size_t, const char *)> f)
    const {
  const detail::CompiledGraph &cg = ipuModule(*this, "forEachLoadableSegment").cg;
  for (std::uint32_t t : cg.tiles) {
    for (const auto &s : cg.image.image.segments)
      if (!s.bytes.empty())
        f(t, s.vaddr, s.bytes.size(), reinterpret_cast<const char *>(s.bytes.data()));
    for (const auto &s : detail::initialisedSegments(cg, t))
      if (!s.bytes.empty())
        f(t, s.vaddr, s.bytes.size(), reinterpret_cast<const char *>(s.bytes.data()));
  }
}

Module compileModule(const Graph &graph, program::Program prog, const OptionFlags &options,
                     ProgressFunc progressCallBack, const DebugContext &debugContext) {
  Executable exe = compileGraph(graph, {prog}, options, progressCallBack);
  const std::string name = debugContext.getPathName();
  if (!name.empty())
    detail::log(detail::LogLevel::Info, "compileModule: " + name);
  return Module(std::make_shared<const core::Executable>(std::move(exe.impl())));
}

} // namespace poplar
