// Control programs: Sequence, Block, Execute, Copy, Repeat, RepeatWhileTrue/False, If, Switch, PrintTensor, Sync,
// WriteUndef, Call, ErrorProgram, Abort, AbortOnCondition.
#ifndef POPLAR_PROGRAM_HPP
#define POPLAR_PROGRAM_HPP

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "poplar/ComputeSet.hpp"
#include "poplar/DataStream.hpp"
#include "poplar/DebugContext.hpp"
#include "poplar/PrintTensor.hpp"
#include "poplar/SyncType.hpp"
#include "poplar/Tensor.hpp"

namespace poplar {

class Function;
class FunctionBuffer;
class Graph;
class HostFunction;

namespace program {

namespace detail {
struct Node;
}

/// Base of all programs: a shared, immutable node of the program tree.
class Program {
public:
  /// An empty program (does nothing).
  Program();
  virtual ~Program();
  /// True when the program does nothing.
  bool isEmpty() const;
  /// Internal: the node.
  const std::shared_ptr<detail::Node> &node() const { return node_; }

protected:
  explicit Program(std::shared_ptr<detail::Node> node);
  std::shared_ptr<detail::Node> node_;
};

/// Runs programs one after the other.
class Sequence : public Program {
public:
  /// An empty sequence.
  explicit Sequence(const DebugContext &debugContext = {});
  /// A sequence of the given programs.
  Sequence(std::initializer_list<Program> programs, const DebugContext &debugContext = {});
  /// A sequence of the given programs (any number, each a Program subclass).
  template <typename P1, typename... Ps,
            typename = typename std::enable_if<std::is_base_of<Program, P1>::value>::type>
  Sequence(const P1 &p1, const Ps &...ps) : Sequence() {
    addAll(p1, ps...);
  }
  /// Appends a program (after the ones already in the sequence).
  void add(const Program &p);

private:
  void addAll() {}
  template <typename P, typename... Ps> void addAll(const P &p, const Ps &...ps) {
    add(p);
    addAll(ps...);
  }
};

/// A program run as one unit: the same as its body here (the SDK uses it to stop merging across it).
class Block : public Program {
public:
  explicit Block(const Program &body, const DebugContext &debugContext = {});
};

/// Runs every vertex of a compute set: exchange of the vertices' inputs, compute, exchange of remote outputs.
class Execute : public Program {
public:
  explicit Execute(ComputeSet cs, const DebugContext &debugContext = {});
};

/// Copies data: tensor to tensor (the views may rearrange elements and span tiles), stream to tensor, or tensor to
/// stream. Tensors must have the same number of elements and type.
class Copy : public Program {
public:
  Copy(const Tensor &src, const Tensor &dst, bool dontOutline = false, const DebugContext &debugContext = {});
  Copy(const DataStream &stream, const Tensor &dst, bool optimiseMemory = false, const DebugContext &debugContext = {});
  Copy(const Tensor &src, const DataStream &stream, bool optimiseMemory = false, const DebugContext &debugContext = {});
  /// Copies row 0 of a remote buffer to `dst` (numElements() elements).
  Copy(const RemoteBuffer &buffer, const Tensor &dst, const DebugContext &debugContext = {});
  /// Copies rows of a remote buffer to `dst`: `offset` (UNSIGNED_INT, one element per row copied) holds the row
  /// indices, `dst` holds offset.numElements() rows of buffer.numElements() elements.
  Copy(const RemoteBuffer &buffer, const Tensor &dst, const Tensor &offset, const DebugContext &debugContext = {});
  /// Copies `src` to row 0 of a remote buffer.
  Copy(const Tensor &src, const RemoteBuffer &buffer, const DebugContext &debugContext = {});
  /// Copies the rows of `src` to the rows of a remote buffer that `offset` names (see above).
  Copy(const Tensor &src, const RemoteBuffer &buffer, const Tensor &offset, const DebugContext &debugContext = {});
  /// Loads function `function`'s code from `buffer` (Graph::addFunctionBuffer) into the tiles' executable memory,
  /// as the SDK does to keep rarely used code off the tiles. Here a function's code is part of every program
  /// that calls it, so the load moves nothing; a buffer made for another function is refused with poplar_error.
  Copy(const FunctionBuffer &buffer, const Function &function, const DebugContext &debugContext = {});
};

/// Copies `src` of replica i to `dst` of replica replicaMap[i], for every entry of the map, in a replicated graph
/// (Graph(target, replication_factor(n)) or createReplicatedGraph). A replica that is no entry's source sends
/// nothing; a replica that is no entry's destination keeps its `dst`. Each destination may appear once. The map
/// is checked against the replication factor when the graph is compiled.
class CrossReplicaCopy : public Program {
public:
  CrossReplicaCopy(const Tensor &src, const Tensor &dst, std::map<unsigned, unsigned> replicaMap,
                   const DebugContext &debugContext = {});
};

/// Runs `body` `count` times.
class Repeat : public Program {
public:
  Repeat(unsigned count, const Program &body, const DebugContext &debugContext = {});
};

/// Runs `body` over and over until something ends the run: an AbortOnCondition or ErrorProgram in it (the run
/// throws poplar::application_runtime_error), or the engine's limits (debug.runTimeout, debug.watchdogKiloInsns).
/// The control program counts the repetitions in 32 bits, so it stops after 2^32 - 1 of them.
class Loop : public Program {
public:
  explicit Loop(const Program &body, const DebugContext &debugContext = {});
};

/// Runs `body`, telling the compiler that its results are equal in every replica (so control flow that depends on
/// them may be taken the same way by all replicas). The emulator runs `body` unchanged: it does not check the
/// claim, as the SDK does not.
class AssumeEqualAcrossReplicas : public Program {
public:
  AssumeEqualAcrossReplicas(const Program &body, const DebugContext &debugContext = {});
};

/// Runs `cond`, then `body` while the scalar `predicate` (set by cond) is non-zero, then `cond` again.
class RepeatWhileTrue : public Program {
public:
  RepeatWhileTrue(const Program &cond, const Tensor &predicate, const Program &body,
                  const DebugContext &debugContext = {});
};

/// Runs `cond`, then `body` while the scalar `predicate` is zero.
class RepeatWhileFalse : public Program {
public:
  RepeatWhileFalse(const Program &cond, const Tensor &predicate, const Program &body,
                   const DebugContext &debugContext = {});
};

/// Runs `thenBody` when the scalar `predicate` is non-zero, else `elseBody`.
class If : public Program {
public:
  If(const Tensor &predicate, const Program &thenBody, const Program &elseBody = Sequence(),
     const DebugContext &debugContext = {});
};

/// Runs the case whose value equals the scalar integer `control`, or the default.
class Switch : public Program {
public:
  Switch(const Tensor &control, const DebugContext &debugContext = {});
  Switch(const Tensor &control, const Program &defaultBody, const DebugContext &debugContext = {});
  Switch(const Tensor &control, const std::vector<std::pair<std::int32_t, Program> > &cases,
         const DebugContext &debugContext = {});
  Switch(const Tensor &control, const std::vector<std::pair<std::int32_t, Program> > &cases,
         const Program &defaultBody, const DebugContext &debugContext = {});
  /// Adds a case; throws poplar_error when `value` already has one.
  Switch &add(std::int32_t value, const Program &body);
  /// A switch over `cases` whose default stops the run with poplar::application_runtime_error naming the control
  /// value (as ErrorProgram does): a value that no case has is an error, not a no-op.
  static Switch switchWithBoundsChecking(const Tensor &control,
                                         const std::vector<std::pair<std::int32_t, Program> > &cases,
                                         const DebugContext &debugContext = {});
  /// A switch with no cases yet (add them with add()) whose default the program promises is never taken. The SDK
  /// may then leave the default out; here taking it stops the run as switchWithBoundsChecking's does.
  static Switch switchWithUnreachableDefault(const Tensor &control, const DebugContext &debugContext = {});
};

/// Prints the tensor's values on the host console as "title: {1,1.5,2}" (nested braces for each dimension).
class PrintTensor : public Program {
public:
  explicit PrintTensor(const Tensor &t, const DebugContext &debugContext = {});
  PrintTensor(const std::string &title, const Tensor &t, const DebugContext &debugContext = {});
  /// As above, laid out as `fmt` says (PrintTensorFmt).
  PrintTensor(const std::string &title, const Tensor &t, const PrintTensorFmt &fmt,
              const DebugContext &debugContext = {});
  /// Untitled, laid out as `fmt` says.
  PrintTensor(const Tensor &t, const PrintTensorFmt &fmt, const DebugContext &debugContext = {});
};

/// A sync of every tile.
class Sync : public Program {
public:
  explicit Sync(SyncType type, const DebugContext &debugContext = {});
};

/// Marks the contents of `t` undefined from here on (its memory may be reused); does nothing on the device here.
class WriteUndef : public Program {
public:
  explicit WriteUndef(const Tensor &t, const DebugContext &debugContext = {});
};

/// Runs a function made by Graph::addFunction, or calls a host function made by Graph::addHostFunction: the run
/// stops there, `inputs` go to the host, the HostCallback connected with Engine::connectHostFunction runs, and its
/// results come back into `outputs` (one tensor per argument, each of the argument's type and number of elements).
class Call : public Program {
public:
  explicit Call(const Function &f, const DebugContext &debugContext = {});
  Call(const HostFunction &f, ArrayRef<Tensor> inputs, ArrayRef<Tensor> outputs,
       const DebugContext &debugContext = {});
};

/// Stops the run with poplar::application_runtime_error: its message is `message` followed by the values of
/// `debugTensor` (printed as PrintTensor prints them).
class ErrorProgram : public Program {
public:
  ErrorProgram(const std::string &message, const Tensor &debugTensor, const DebugContext &debugContext = {});
};

/// Ends the run: Engine::run throws poplar::application_runtime_error whose message is "Abort: " followed by
/// `message` (or "the program aborted" without one). The tiles stop where they are, so the engine loads itself
/// again (constants and initial values afresh) before its next run. The const char * form keeps a string literal
/// from being taken for a DebugContext.
class Abort : public Program {
public:
  explicit Abort(const DebugContext &debugContext = {});
  explicit Abort(const std::string &message, const DebugContext &debugContext = {});
  explicit Abort(const char *message, const DebugContext &debugContext = {});
};

/// Ends the run as Abort does when the scalar `predicate` is non-zero ("Abort: " followed by `message`, or "the
/// condition is true" without one); does nothing otherwise.
class AbortOnCondition : public Program {
public:
  explicit AbortOnCondition(const Tensor &predicate, const DebugContext &debugContext = {});
  AbortOnCondition(const Tensor &predicate, const std::string &message, const DebugContext &debugContext = {});
  AbortOnCondition(const Tensor &predicate, const char *message, const DebugContext &debugContext = {});
};

/// Writes `program`'s tree as JSON to `out`: each program an object with its "type" (Sequence, Execute, Copy,
/// StreamCopy, Repeat, RepeatWhileTrue, RepeatWhileFalse, If, Switch, PrintTensor, Sync, Abort), its "name" when it has
/// one, and its "children". `graph` is the graph the program was built for (accepted for the SDK's signature).
void dumpProgram(const Graph &graph, const Program &program, std::ostream &out);

} // namespace program

/// A program that program::Call runs (Graph::addFunction). Calls here run the function's program in place.
class Function {
public:
  /// An empty function.
  Function() {}
  /// Internal: the function whose body is `body`, the graph's `id`th.
  explicit Function(const program::Program &body, unsigned id = 0) : body_(body), id_(id) {}
  /// Internal: the body.
  const program::Program &body() const { return body_; }
  /// The function's number in its graph: 0, 1, ... in the order of Graph::addFunction.
  unsigned getId() const { return id_; }

private:
  program::Program body_;
  unsigned id_ = 0;
};

/// Where Graph::addFunctionBuffer keeps a function's code: program::Copy(buffer, function) loads it.
class FunctionBuffer {
public:
  /// The graph's `id`th function buffer.
  explicit FunctionBuffer(unsigned id) : id_(id) {}
  /// Internal: the buffer of function `functionId`.
  FunctionBuffer(unsigned id, unsigned functionId) : id_(id), functionId_(functionId), hasFunction_(true) {}
  /// The buffer's number in its graph: 0, 1, ... in the order of Graph::addFunctionBuffer.
  unsigned getId() const { return id_; }
  /// Internal: whether the function the buffer holds is known, and which it is (Function::getId()).
  bool knowsFunction() const { return hasFunction_; }
  unsigned functionId() const { return functionId_; }

private:
  unsigned id_ = 0;
  unsigned functionId_ = 0;
  bool hasFunction_ = false;
};

/// A function the host runs when a program reaches program::Call of it (Graph::addHostFunction).
class HostFunction {
public:
  /// An empty host function (not one a Call accepts).
  HostFunction() {}
  /// Internal: the graph's `id`th host function.
  HostFunction(detail::GraphImpl *graph, unsigned id) : graph_(graph), id_(id) {}
  /// The function's number in its graph: 0, 1, ... in the order of Graph::addHostFunction.
  unsigned getId() const { return id_; }
  /// Internal: the graph that made it (null for an empty one).
  detail::GraphImpl *graphImpl() const { return graph_; }

private:
  detail::GraphImpl *graph_ = nullptr;
  unsigned id_ = 0;
};

} // namespace poplar

#endif // POPLAR_PROGRAM_HPP
