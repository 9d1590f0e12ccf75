// Graph functions: one copy of the graph structure (vertices, programs) of an operation, reused on several sets of
// tensors. A function is built once on parameter tensors cloned from example tensors; each call copies the
// arguments into the parameters, runs the body (through program::Call, or inlined) and copies the results out.
#ifndef POPUTIL_GRAPHFUNCTION_HPP
#define POPUTIL_GRAPHFUNCTION_HPP

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace poputil {
namespace graphfn {

/// How a function uses an argument: read, written, both, or created by the function (the caller passes nothing
/// and receives a new tensor).
enum ArgType { InputArg, OutputArg, InOutArg, CreatedArg };

/// One argument of a function's signature: its use, an example tensor whose shape, type and mapping the
/// parameter copies (none for CreatedArg), and a name for the parameter.
struct ArgSig {
  ArgType type;
  poplar::Tensor similarTensor;
  std::string debugName;
  ArgSig(ArgType type_, poplar::Tensor tensor, std::string debugName_)
      : type(type_), similarTensor(std::move(tensor)), debugName(std::move(debugName_)) {}
};

/// An argument the function reads, like `similar`.
inline ArgSig input(poplar::Tensor similar, std::string debugName = "") {
  return ArgSig(InputArg, std::move(similar), std::move(debugName));
}
/// An argument the function reads and writes, like `similar`.
inline ArgSig inout(poplar::Tensor similar, std::string debugName = "") {
  return ArgSig(InOutArg, std::move(similar), std::move(debugName));
}
/// An argument the function writes, like `similar`.
inline ArgSig output(poplar::Tensor similar, std::string debugName = "") {
  return ArgSig(OutputArg, std::move(similar), std::move(debugName));
}
/// A tensor the function creates: each call returns a new clone of it in that argument's place.
inline ArgSig created(std::string debugName = "") {
  return ArgSig(CreatedArg, poplar::Tensor(), std::move(debugName));
}

/// The arguments of a function, in order.
typedef std::vector<ArgSig> Signature;

/// A function that appends its work to a sequence. `f` is called once, at construction, with the parameters (an
/// invalid tensor in each CreatedArg place, which `f` must set) and the body to append to. With `inlined` each
/// call adds the body itself; otherwise the body becomes a poplar::Function that each call runs.
class VoidFunction {
  poplar::Graph &graph;
  Signature sig;
  bool inlined;
  poplar::program::Sequence prog;
  poplar::Function func;
  std::vector<poplar::Tensor> params;

public:
  VoidFunction(VoidFunction &&fn);
  VoidFunction(poplar::Graph &graph, Signature sig,
               std::function<void(std::vector<poplar::Tensor> &, poplar::program::Sequence &)> f,
               bool inlined = false, const poplar::DebugContext &debugContext = {});
  /// As above; `f` also receives the function's debug name and id for what it creates.
  VoidFunction(poplar::Graph &graph, Signature sig,
               std::function<void(std::vector<poplar::Tensor> &, poplar::program::Sequence &,
                                  const poplar::DebugNameAndId &)>
                   f,
               bool inlined = false, const poplar::DebugContext &debugContext = {});
  /// Appends a call on `args` (one per signature entry) to `seq`; each CreatedArg entry of `args` is replaced by
  /// a new tensor holding the created result.
  void operator()(std::vector<poplar::Tensor> &args, poplar::program::Sequence &seq,
                  const poplar::DebugContext &dc = {});
};

/// A function whose body is the program `f` returns.
class ProgramFunction {
  VoidFunction voidFunc;

public:
  ProgramFunction(poplar::Graph &graph, Signature sig,
                  std::function<poplar::program::Program(std::vector<poplar::Tensor> &)> f, bool inlined = false,
                  const poplar::DebugContext &debugContext = {});
  ProgramFunction(poplar::Graph &graph, Signature sig,
                  std::function<poplar::program::Program(std::vector<poplar::Tensor> &,
                                                         const poplar::DebugNameAndId &)>
                      f,
                  bool inlined = false, const poplar::DebugContext &debugContext = {});
  /// A program that calls the function on `args`.
  poplar::program::Program operator()(std::vector<poplar::Tensor> &args,
                                      const poplar::DebugContext &debugContext = {});
};

/// A function that returns a tensor: `f` appends its work and returns the result, which each call clones.
class TensorFunction {
  VoidFunction voidFunc;

public:
  TensorFunction(poplar::Graph &graph, Signature sig,
                 std::function<poplar::Tensor(std::vector<poplar::Tensor> &, poplar::program::Sequence &)> f,
                 bool inlined = false, const poplar::DebugContext &debugContext = {});
  TensorFunction(poplar::Graph &graph, Signature sig,
                 std::function<poplar::Tensor(std::vector<poplar::Tensor> &, poplar::program::Sequence &,
                                              const poplar::DebugNameAndId &)>
                     f,
                 bool inlined = false, const poplar::DebugContext &debugContext = {});
  /// Appends a call on `args` to `prog` and returns a new tensor holding the result.
  poplar::Tensor operator()(std::vector<poplar::Tensor> &args, poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {});
};

} // namespace graphfn
} // namespace poputil

#endif // POPUTIL_GRAPHFUNCTION_HPP
