// Control programs: each class builds one node of the program tree.
#include "poplar/Program.hpp"

#include <algorithm>

#include "graph_impl.hpp"
#include "json_string.hpp"
#include "poplar/exceptions.hpp"
#include "program_node.hpp"

namespace poplar::program {

using detail::Kind;
using detail::Node;

static std::shared_ptr<Node> makeNode(Kind k, const std::string &name) {
  auto n = std::make_shared<Node>();
  n->kind = k;
  n->name = name;
  return n;
}

Program::Program() : node_(makeNode(Kind::Sequence, "")) {}
Program::Program(std::shared_ptr<Node> n) : node_(std::move(n)) {}
Program::~Program() = default;
bool Program::isEmpty() const { return node_->kind == Kind::Sequence && node_->children.empty(); }

Sequence::Sequence(const DebugContext &debugContext) : Program(makeNode(Kind::Sequence, debugContext.getPathName())) {}
Sequence::Sequence(std::initializer_list<Program> programs, const DebugContext &debugContext)
    : Program(makeNode(Kind::Sequence, debugContext.getPathName())) {
  for (const auto &p : programs)
    add(p);
}
void Sequence::add(const Program &p) {
  if (p.node().get() == node_.get())
    throw poplar_error("Sequence::add: a sequence cannot contain itself");
  node_->children.push_back(p.node());
}

Execute::Execute(ComputeSet cs, const DebugContext &debugContext)
    : Program(makeNode(Kind::Execute, debugContext.getPathName())) {
  if (!cs.valid())
    throw poplar_error("Execute: invalid compute set (create one with graph.addComputeSet)");
  node_->cs = cs;
}

static void checkSameSize(const Tensor &a, std::size_t n, const Type &t, const std::string &what) {
  if (!a.valid())
    throw poplar_error(what + ": invalid tensor");
  if (a.numElements() != n)
    throw poplar_error(what + ": the tensor has " + std::to_string(a.numElements()) + " elements, the other side " +
                       std::to_string(n) + "; slice or reshape one of them");
  if (a.elementType() != t)
    throw poplar_error(what + ": element types differ (" + a.elementType().toString() + " and " + t.toString() +
                       "); copies do not convert types");
}

Copy::Copy(const Tensor &src, const Tensor &dst, bool, const DebugContext &debugContext)
    : Program(makeNode(Kind::Copy, debugContext.getPathName())) {
  if (!src.valid() || !dst.valid())
    throw poplar_error("Copy: invalid tensor");
  checkSameSize(dst, src.numElements(), src.elementType(), "Copy");
  node_->src = src;
  node_->dst = dst;
}

CrossReplicaCopy::CrossReplicaCopy(const Tensor &src, const Tensor &dst, std::map<unsigned, unsigned> replicaMap,
                                   const DebugContext &debugContext)
    : Program(makeNode(Kind::Copy, debugContext.getPathName())) {
  if (!src.valid() || !dst.valid())
    throw poplar_error("CrossReplicaCopy: invalid tensor");
  checkSameSize(dst, src.numElements(), src.elementType(), "CrossReplicaCopy");
  std::map<unsigned, unsigned> seen;
  for (const auto &kv : replicaMap)
    if (!seen.emplace(kv.second, kv.first).second)
      throw poplar_error("CrossReplicaCopy: replicas " + std::to_string(seen[kv.second]) + " and " +
                         std::to_string(kv.first) + " both copy to replica " + std::to_string(kv.second) +
                         "; each destination replica may receive from one source");
  node_->src = src;
  node_->dst = dst;
  node_->crossReplica = true;
  node_->replicaMap = std::move(replicaMap);
}

Copy::Copy(const DataStream &stream, const Tensor &dst, bool, const DebugContext &debugContext)
    : Program(makeNode(Kind::StreamIn, debugContext.getPathName())) {
  if (stream.type() != DataStreamType::HostToDeviceFIFO)
    throw poplar_error("Copy(stream '" + stream.handle() + "', tensor): the stream goes to the host; "
                       "copy from a stream made by addHostToDeviceFIFO");
  checkSameSize(dst, stream.numElements(), stream.elementType(), "Copy(stream '" + stream.handle() + "', tensor)");
  node_->stream = stream;
  node_->dst = dst;
}

Copy::Copy(const Tensor &src, const DataStream &stream, bool, const DebugContext &debugContext)
    : Program(makeNode(Kind::StreamOut, debugContext.getPathName())) {
  if (stream.type() != DataStreamType::DeviceToHostFIFO)
    throw poplar_error("Copy(tensor, stream '" + stream.handle() + "'): the stream comes from the host; "
                       "copy to a stream made by addDeviceToHostFIFO");
  checkSameSize(src, stream.numElements(), stream.elementType(), "Copy(tensor, stream '" + stream.handle() + "')");
  node_->stream = stream;
  node_->src = src;
}

Repeat::Repeat(unsigned count, const Program &body, const DebugContext &debugContext)
    : Program(makeNode(Kind::Repeat, debugContext.getPathName())) {
  node_->count = count;
  node_->children.push_back(body.node());
}

Loop::Loop(const Program &body, const DebugContext &debugContext)
    : Program(makeNode(Kind::Repeat, debugContext.getPathName())) {
  // The largest count the control program's repeat takes: a loop that only an abort or a limit ends.
  node_->count = 0xffffffffu;
  node_->children.push_back(body.node());
}

AssumeEqualAcrossReplicas::AssumeEqualAcrossReplicas(const Program &body, const DebugContext &debugContext)
    : Program(makeNode(Kind::Sequence, debugContext.getPathName())) {
  // A sequence of one program: the body runs as written (the claim only guides the SDK's compiler).
  node_->children.push_back(body.node());
}

static void checkPredicate(const Tensor &p, const std::string &what) {
  if (!p.valid() || p.numElements() != 1)
    throw poplar_error(what + ": the predicate must be a tensor of one element");
  if (p.elementType().isFloatingPoint())
    throw poplar_error(what + ": the predicate must be an integer or bool tensor, not " +
                       p.elementType().toString());
}

RepeatWhileTrue::RepeatWhileTrue(const Program &cond, const Tensor &predicate, const Program &body,
                                 const DebugContext &debugContext)
    : Program(makeNode(Kind::WhileTrue, debugContext.getPathName())) {
  checkPredicate(predicate, "RepeatWhileTrue");
  node_->src = predicate;
  node_->children = {cond.node(), body.node()};
}

RepeatWhileFalse::RepeatWhileFalse(const Program &cond, const Tensor &predicate, const Program &body,
                                   const DebugContext &debugContext)
    : Program(makeNode(Kind::WhileFalse, debugContext.getPathName())) {
  checkPredicate(predicate, "RepeatWhileFalse");
  node_->src = predicate;
  node_->children = {cond.node(), body.node()};
}

If::If(const Tensor &predicate, const Program &thenBody, const Program &elseBody, const DebugContext &debugContext)
    : Program(makeNode(Kind::If, debugContext.getPathName())) {
  checkPredicate(predicate, "If");
  node_->src = predicate;
  node_->children = {thenBody.node(), elseBody.node()};
}

Switch::Switch(const Tensor &control, const DebugContext &debugContext) : Switch(control, Sequence(), debugContext) {}

Switch::Switch(const Tensor &control, const Program &defaultBody, const DebugContext &debugContext)
    : Program(makeNode(Kind::Switch, debugContext.getPathName())) {
  checkPredicate(control, "Switch");
  node_->src = control;
  node_->children = {defaultBody.node()};
}

Switch::Switch(const Tensor &control, const std::vector<std::pair<std::int32_t, Program>> &cases,
               const DebugContext &debugContext)
    : Switch(control, cases, Sequence(), debugContext) {}

Switch::Switch(const Tensor &control, const std::vector<std::pair<std::int32_t, Program>> &cases,
               const Program &defaultBody, const DebugContext &debugContext)
    : Switch(control, defaultBody, debugContext) {
  for (const auto &c : cases)
    add(c.first, c.second);
}

Switch &Switch::add(std::int32_t value, const Program &body) {
  auto &v = node_->caseValues;
  if (std::find(v.begin(), v.end(), value) != v.end())
    throw poplar_error("Switch::add: case " + std::to_string(value) + " already exists");
  v.push_back(value);
  node_->children.insert(node_->children.end() - 1, body.node());
  return *this;
}

Switch Switch::switchWithBoundsChecking(const Tensor &control,
                                        const std::vector<std::pair<std::int32_t, Program>> &cases,
                                        const DebugContext &debugContext) {
  // The default stops the run, showing the control value that matched no case.
  return Switch(control, cases,
                ErrorProgram("Switch: the control value matches no case", control, {debugContext, "outOfBounds"}),
                debugContext);
}

Switch Switch::switchWithUnreachableDefault(const Tensor &control, const DebugContext &debugContext) {
  // The SDK's compiler may assume the default is never taken; taking it here stops the run rather than doing
  // something undefined.
  return Switch(control,
                ErrorProgram("Switch: the control value matches no case and the default was declared unreachable",
                             control, {debugContext, "unreachableDefault"}),
                debugContext);
}

PrintTensor::PrintTensor(const Tensor &t, const DebugContext &debugContext) : PrintTensor("", t, debugContext) {}

PrintTensor::PrintTensor(const std::string &title, const Tensor &t, const DebugContext &debugContext)
    : Program(makeNode(Kind::Print, debugContext.getPathName().empty() ? title : debugContext.getPathName())) {
  if (!t.valid())
    throw poplar_error("PrintTensor(" + title + "): invalid tensor");
  node_->src = t;
  node_->name = title;
}

PrintTensor::PrintTensor(const std::string &title, const Tensor &t, const PrintTensorFmt &fmt,
                         const DebugContext &debugContext)
    : PrintTensor(title, t, debugContext) {
  node_->fmt = std::make_shared<const PrintTensorFmt>(fmt);
}

PrintTensor::PrintTensor(const Tensor &t, const PrintTensorFmt &fmt, const DebugContext &debugContext)
    : PrintTensor("", t, fmt, debugContext) {}

Sync::Sync(SyncType, const DebugContext &debugContext) : Program(makeNode(Kind::Sync, debugContext.getPathName())) {}

Block::Block(const Program &body, const DebugContext &debugContext)
    : Program(makeNode(Kind::Sequence, debugContext.getPathName())) {
  node_->children.push_back(body.node());
}

WriteUndef::WriteUndef(const Tensor &t, const DebugContext &debugContext)
    : Program(makeNode(Kind::Sequence, debugContext.getPathName())) {
  if (!t.valid())
    throw poplar_error("WriteUndef: invalid tensor");
}

Call::Call(const Function &f, const DebugContext &debugContext)
    : Program(makeNode(Kind::Sequence, debugContext.getPathName())) {
  node_->children.push_back(f.body().node());
}

/// A host function call: each input goes to the host on its own stream, then the call stream's host sync runs the
/// callback (Engine), then each output comes back on its own stream. The call stream carries no tensor: no tile
/// sends anything, the sync alone is the signal (as an Abort's is).
static std::shared_ptr<Node> hostCall(const HostFunction &f, ArrayRef<Tensor> inputs, ArrayRef<Tensor> outputs,
                                      const std::string &debugName) {
  ::poplar::detail::GraphImpl *g = f.graphImpl();
  if (!g || f.getId() >= g->hostFunctions.size())
    throw poplar_error("Call(HostFunction): invalid host function (create one with graph.addHostFunction)");
  const auto &info = g->hostFunctions[f.getId()];
  const auto check = [&](ArrayRef<Tensor> ts, const std::vector<unsigned> &streams, const char *what) {
    if (ts.size() != streams.size())
      throw poplar_error("Call(HostFunction '" + info.name + "'): " + std::to_string(ts.size()) + " " + what +
                         " tensor(s) given, the function has " + std::to_string(streams.size()) + " " + what +
                         "(s); pass one tensor per argument given to addHostFunction");
    for (std::size_t i = 0; i < ts.size(); ++i) {
      const auto &s = g->streams[streams[i]];
      if (!ts[i].valid())
        throw poplar_error("Call(HostFunction '" + info.name + "'): " + what + " " + std::to_string(i) +
                           " is an invalid tensor");
      if (ts[i].elementType() != s.type || ts[i].numElements() != s.numElements)
        throw poplar_error("Call(HostFunction '" + info.name + "'): " + what + " " + std::to_string(i) + " must hold " +
                           std::to_string(s.numElements) + " " + s.type.toString() + " elements, it has " +
                           std::to_string(ts[i].numElements()) + " " + ts[i].elementType().toString() +
                           " elements; pass a tensor of the argument's type and size");
    }
  };
  check(inputs, info.inputStreams, "input");
  check(outputs, info.outputStreams, "output");
  auto seq = makeNode(Kind::Sequence, debugName);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    auto n = makeNode(Kind::StreamOut, debugName);
    n->stream = DataStream(g, info.inputStreams[i]);
    n->src = inputs[i];
    seq->children.push_back(n);
  }
  auto call = makeNode(Kind::StreamOut, debugName);
  call->stream = DataStream(g, info.callStream);
  seq->children.push_back(call);
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    auto n = makeNode(Kind::StreamIn, debugName);
    n->stream = DataStream(g, info.outputStreams[i]);
    n->dst = outputs[i];
    seq->children.push_back(n);
  }
  return seq;
}

Call::Call(const HostFunction &f, ArrayRef<Tensor> inputs, ArrayRef<Tensor> outputs, const DebugContext &debugContext)
    : Program(hostCall(f, inputs, outputs, debugContext.getPathName())) {}

Copy::Copy(const FunctionBuffer &buffer, const Function &function, const DebugContext &debugContext)
    : Program(makeNode(Kind::Sequence, debugContext.getPathName())) {
  if (buffer.knowsFunction() && buffer.functionId() != function.getId())
    throw poplar_error("Copy(FunctionBuffer " + std::to_string(buffer.getId()) + ", Function " +
                       std::to_string(function.getId()) + "): the buffer holds function " +
                       std::to_string(buffer.functionId()) + "'s code; load it into that function");
}

/// A remote buffer copy: for each row, the row index goes to the host (offset stream), then the row moves through
/// the buffer's data stream; the host side (Engine) keeps the rows.
static std::shared_ptr<Node> remoteCopy(const RemoteBuffer &rb, const Tensor &data, const Tensor *offset,
                                        bool toDevice, const std::string &debugName) {
  const char *what = toDevice ? "Copy(RemoteBuffer, tensor)" : "Copy(tensor, RemoteBuffer)";
  ::poplar::detail::GraphImpl *g = rb.graphImpl();
  if (!g || rb.getId() >= g->remoteBuffers.size())
    throw poplar_error(std::string(what) + ": invalid RemoteBuffer (create one with graph.addRemoteBuffer)");
  const auto &info = g->remoteBuffers[rb.getId()];
  if (!data.valid())
    throw poplar_error(std::string(what) + ": invalid tensor");
  std::size_t rows = 1;
  if (offset) {
    if (!offset->valid() || offset->elementType() != UNSIGNED_INT)
      throw poplar_error(std::string(what) + " of '" + info.name + "': the offset must be an UNSIGNED_INT tensor "
                         "(one row index per row copied)");
    rows = offset->numElements();
  }
  if (data.elementType() != info.type || data.numElements() != rows * info.numElements)
    throw poplar_error(std::string(what) + " of '" + info.name + "': the tensor must hold " + std::to_string(rows) +
                       " row(s) of " + std::to_string(info.numElements) + " " + info.type.toString() +
                       " elements, it has " + std::to_string(data.numElements()) + " " +
                       data.elementType().toString() + " elements");
  auto seq = makeNode(Kind::Sequence, debugName);
  Tensor flat = data.flatten();
  Tensor offs = offset ? offset->flatten() : Tensor();
  for (std::size_t r = 0; r < rows; ++r) {
    if (offset) {
      auto o = makeNode(Kind::StreamOut, debugName);
      o->stream = DataStream(g, info.offsetStream);
      o->src = offs.slice(r, r + 1);
      seq->children.push_back(o);
    }
    auto c = makeNode(toDevice ? Kind::StreamIn : Kind::StreamOut, debugName);
    c->stream = DataStream(g, toDevice ? info.toDeviceStream : info.toHostStream);
    (toDevice ? c->dst : c->src) = flat.slice(r * info.numElements, (r + 1) * info.numElements);
    seq->children.push_back(c);
  }
  return seq;
}

Copy::Copy(const RemoteBuffer &buffer, const Tensor &dst, const DebugContext &debugContext)
    : Program(remoteCopy(buffer, dst, nullptr, true, debugContext.getPathName())) {}
Copy::Copy(const RemoteBuffer &buffer, const Tensor &dst, const Tensor &offset, const DebugContext &debugContext)
    : Program(remoteCopy(buffer, dst, &offset, true, debugContext.getPathName())) {}
Copy::Copy(const Tensor &src, const RemoteBuffer &buffer, const DebugContext &debugContext)
    : Program(remoteCopy(buffer, src, nullptr, false, debugContext.getPathName())) {}
Copy::Copy(const Tensor &src, const RemoteBuffer &buffer, const Tensor &offset, const DebugContext &debugContext)
    : Program(remoteCopy(buffer, src, &offset, false, debugContext.getPathName())) {}

/// The error program sends `debugTensor` to the host through a stream of its own; the Engine's callback for it
/// stops the run with the message and the values.
static std::shared_ptr<Node> errorNode(const std::string &message, const Tensor &t, const std::string &debugName) {
  if (!t.valid())
    throw poplar_error("ErrorProgram(\"" + message + "\"): invalid debug tensor");
  ::poplar::detail::GraphImpl *g = t.graphImpl();
  unsigned id = ::poplar::detail::addErrorStream(*g, message, t);
  auto n = makeNode(Kind::StreamOut, debugName);
  n->stream = DataStream(g, id);
  n->src = t;
  return n;
}

ErrorProgram::ErrorProgram(const std::string &message, const Tensor &debugTensor, const DebugContext &debugContext)
    : Program(errorNode(message, debugTensor, debugContext.getPathName())) {}

/// An Abort needs no tensor: the compiler gives it a stream of its own that no tile writes, and the host's callback
/// for it ends the run with the message.
static std::shared_ptr<Node> abortNode(const std::string &message, const std::string &debugName) {
  auto n = makeNode(Kind::Abort, debugName);
  n->message = message;
  return n;
}

Abort::Abort(const DebugContext &debugContext) : Program(abortNode("", debugContext.getPathName())) {}
Abort::Abort(const std::string &message, const DebugContext &debugContext)
    : Program(abortNode(message, debugContext.getPathName())) {}
Abort::Abort(const char *message, const DebugContext &debugContext)
    : Abort(std::string(message ? message : ""), debugContext) {}

AbortOnCondition::AbortOnCondition(const Tensor &predicate, const DebugContext &debugContext)
    : AbortOnCondition(predicate, std::string(), debugContext) {}
AbortOnCondition::AbortOnCondition(const Tensor &predicate, const std::string &message,
                                   const DebugContext &debugContext)
    : Program(If(predicate, Abort(message.empty() ? "the condition is true" : message, debugContext), Sequence(),
                 debugContext)
                  .node()) {}
AbortOnCondition::AbortOnCondition(const Tensor &predicate, const char *message, const DebugContext &debugContext)
    : AbortOnCondition(predicate, std::string(message ? message : ""), debugContext) {}

namespace {
const char *typeName(Kind k) {
  switch (k) {
  case Kind::Sequence: return "Sequence";
  case Kind::Execute: return "Execute";
  case Kind::Copy: return "Copy";
  case Kind::StreamIn: case Kind::StreamOut: return "StreamCopy";
  case Kind::Repeat: return "Repeat";
  case Kind::WhileTrue: return "RepeatWhileTrue";
  case Kind::WhileFalse: return "RepeatWhileFalse";
  case Kind::If: return "If";
  case Kind::Switch: return "Switch";
  case Kind::Print: return "PrintTensor";
  case Kind::Sync: return "Sync";
  case Kind::Abort: return "Abort";
  }
  return "Program";
}

void dumpNode(const Node &n, std::ostream &out) {
  out << "{\"type\":\"" << typeName(n.kind) << "\"";
  if (!n.name.empty()) {
    out << ",\"name\":";
    poplar::detail::writeJsonString(out, n.name);
  }
  if (n.kind == Kind::Repeat)
    out << ",\"count\":" << n.count;
  out << ",\"children\":[";
  for (std::size_t i = 0; i < n.children.size(); ++i) {
    if (i)
      out << ",";
    if (n.children[i])
      dumpNode(*n.children[i], out);
    else
      out << "null";
  }
  out << "]}";
}
} // namespace

void dumpProgram(const Graph &, const Program &program, std::ostream &out) {
  if (program.node())
    dumpNode(*program.node(), out);
  out << "\n";
}

} // namespace poplar::program
