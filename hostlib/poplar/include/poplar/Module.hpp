// poplar::Module and compileModule (the SDK's poplar/Module.hpp): one program compiled for a device, whose tile
// images can be walked segment by segment (forEachSegment, forEachLoadableSegment) and saved (serialize). A saved
// module is an executable file: Executable::deserialize reads it and an Engine runs it, which is how a module is
// run here.
#ifndef POPLAR_MODULE_HPP
#define POPLAR_MODULE_HPP

#include <cstddef>
#include <functional>
#include <memory>
#include <ostream>

#include "poplar/DebugContext.hpp"
#include "poplar/Executable.hpp"
#include "poplar/Graph.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/Program.hpp"

namespace poplar {

namespace core {
class Executable; ///< the compiled graph a Module holds (internal)
} // namespace core

/// Everything needed to run one compiled program on an IPU. Movable, not copyable; a default-constructed or
/// moved-from Module holds nothing, and its members then throw poplar_error.
class Module {
public:
  ~Module();
  Module();
  Module(Module &&other) noexcept;
  Module &operator=(Module &&other) noexcept;
  /// Internal: wraps a compiled graph.
  explicit Module(std::shared_ptr<const core::Executable> impl);

  /// Writes the module to `out` in the executable file format (open files with std::ios::binary); read it back
  /// with Executable::deserialize and run it with an Engine (program 0). Throws poplar_error, as the SDK does, when
  /// the module was compiled for a CPU or IPU_MODEL target: only IPU modules are written.
  void serialize(std::ostream &out) const;
  /// Internal: the compiled graph.
  const core::Executable &getImpl() const;
  /// Calls `f` for every segment of every tile's image: the tile (Poplar's tile index), the segment's address,
  /// the bytes the image holds for it (`fileSize`, at `data`) and the bytes it covers in tile memory (`memorySize`;
  /// the rest is zero-filled). Throws poplar_error when the module is not for an IPU target.
  void forEachSegment(std::function<void(std::size_t tile, std::size_t address, std::size_t fileSize,
                                         std::size_t memorySize, const char *data)> f) const;
  /// Calls `f` for every segment a device load writes to each tile (tile, address, size, data): the code and
  /// data of the tile image and the initialised parts of the tile's own data; empty segments are skipped. Throws
  /// poplar_error when the module is not for an IPU target.
  void forEachLoadableSegment(
      std::function<void(std::size_t tile, std::size_t address, std::size_t size, const char *data)> f) const;

private:
  Module(const Module &);
  Module &operator=(const Module &);
  std::shared_ptr<const core::Executable> impl_;
};

/// Compiles `prog` for `graph` as compileGraph(graph, {prog}, options, progressCallBack) does (the same options,
/// checked the same way) and returns it as a Module. `debugContext` names the compilation in the log.
Module compileModule(const Graph &graph, program::Program prog, const OptionFlags &options = OptionFlags(),
                     ProgressFunc progressCallBack = ProgressFunc(), const DebugContext &debugContext = {});

} // namespace poplar

#endif // POPLAR_MODULE_HPP
