// A compiled graph that outlives its Graph: poplar::compileGraph() makes one, serialize() writes it to a stream
// (a file), deserialize() reads it back, and Engine(Executable) loads it without compiling again.
#ifndef POPLAR_EXECUTABLE_HPP
#define POPLAR_EXECUTABLE_HPP

#include <functional>
#include <istream>
#include <memory>
#include <ostream>
#include <vector>

#include "poplar/Graph.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/Program.hpp"

namespace poplar {

namespace detail {
struct ExecutableImpl;
}

/// The compiled form of a graph and its programs, ready to load on a device of the target it was compiled for.
/// Movable, not copyable.
class Executable {
public:
  Executable(Executable &&other);
  Executable &operator=(Executable &&other);
  ~Executable();

  /// Writes the executable to `out` (binary; open files with std::ios::binary).
  void serialize(std::ostream &out) const;
  /// Reads an executable written by serialize(). Throws poplar_error when the stream holds something else, was
  /// written by an incompatible version, or ends early.
  static Executable deserialize(std::istream &in);

  /// Internal: wraps a compiled graph.
  explicit Executable(std::unique_ptr<detail::ExecutableImpl> impl);
  /// Internal: the compiled graph; throws poplar_error on a moved-from executable.
  detail::ExecutableImpl &impl() const;

private:
  Executable(const Executable &);
  Executable &operator=(const Executable &);
  std::unique_ptr<detail::ExecutableImpl> impl_;
};

/// Compilation progress: (steps done, total steps).
typedef std::function<void(int, int)> ProgressFunc;

/// Compiles `programs` for `graph` (program i is what Engine::run(i) runs). The options are the Engine's compile
/// options (see Engine.hpp); they are validated as the Engine does. Throws as the Engine constructor.
Executable compileGraph(const Graph &graph, const std::vector<program::Program> &programs,
                        const OptionFlags &options = OptionFlags(), ProgressFunc progressCallBack = ProgressFunc());

} // namespace poplar

#endif // POPLAR_EXECUTABLE_HPP
