// Control programs: each class builds one node of the program tree.
#include "poplar/Program.hpp"

#include <algorithm>

#include "graph_impl.hpp"
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

Sequence::Sequence(const std::string &debugName) : Program(makeNode(Kind::Sequence, debugName)) {}
Sequence::Sequence(std::initializer_list<Program> programs, const std::string &debugName)
    : Program(makeNode(Kind::Sequence, debugName)) {
  for (const auto &p : programs)
    add(p);
}
void Sequence::add(const Program &p) {
  if (p.node().get() == node_.get())
    throw poplar_error("Sequence::add: a sequence cannot contain itself");
  node_->children.push_back(p.node());
}

Execute::Execute(ComputeSet cs, const std::string &debugName) : Program(makeNode(Kind::Execute, debugName)) {
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

Copy::Copy(const Tensor &src, const Tensor &dst, bool, const std::string &debugName)
    : Program(makeNode(Kind::Copy, debugName)) {
  if (!src.valid() || !dst.valid())
    throw poplar_error("Copy: invalid tensor");
  checkSameSize(dst, src.numElements(), src.elementType(), "Copy");
  node_->src = src;
  node_->dst = dst;
}

CrossReplicaCopy::CrossReplicaCopy(const Tensor &src, const Tensor &dst, std::map<unsigned, unsigned> replicaMap,
                                   const std::string &debugName)
    : Program(makeNode(Kind::Copy, debugName)) {
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

Copy::Copy(const DataStream &stream, const Tensor &dst, bool, const std::string &debugName)
    : Program(makeNode(Kind::StreamIn, debugName)) {
  if (stream.type() != DataStreamType::HostToDeviceFIFO)
    throw poplar_error("Copy(stream '" + stream.handle() + "', tensor): the stream goes to the host; "
                       "copy from a stream made by addHostToDeviceFIFO");
  checkSameSize(dst, stream.numElements(), stream.elementType(), "Copy(stream '" + stream.handle() + "', tensor)");
  node_->stream = stream;
  node_->dst = dst;
}

Copy::Copy(const Tensor &src, const DataStream &stream, bool, const std::string &debugName)
    : Program(makeNode(Kind::StreamOut, debugName)) {
  if (stream.type() != DataStreamType::DeviceToHostFIFO)
    throw poplar_error("Copy(tensor, stream '" + stream.handle() + "'): the stream comes from the host; "
                       "copy to a stream made by addDeviceToHostFIFO");
  checkSameSize(src, stream.numElements(), stream.elementType(), "Copy(tensor, stream '" + stream.handle() + "')");
  node_->stream = stream;
  node_->src = src;
}

Repeat::Repeat(unsigned count, const Program &body, const std::string &debugName)
    : Program(makeNode(Kind::Repeat, debugName)) {
  node_->count = count;
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
                                 const std::string &debugName)
    : Program(makeNode(Kind::WhileTrue, debugName)) {
  checkPredicate(predicate, "RepeatWhileTrue");
  node_->src = predicate;
  node_->children = {cond.node(), body.node()};
}

RepeatWhileFalse::RepeatWhileFalse(const Program &cond, const Tensor &predicate, const Program &body,
                                   const std::string &debugName)
    : Program(makeNode(Kind::WhileFalse, debugName)) {
  checkPredicate(predicate, "RepeatWhileFalse");
  node_->src = predicate;
  node_->children = {cond.node(), body.node()};
}

If::If(const Tensor &predicate, const Program &thenBody, const Program &elseBody, const std::string &debugName)
    : Program(makeNode(Kind::If, debugName)) {
  checkPredicate(predicate, "If");
  node_->src = predicate;
  node_->children = {thenBody.node(), elseBody.node()};
}

Switch::Switch(const Tensor &control, const std::string &debugName) : Switch(control, Sequence(), debugName) {}

Switch::Switch(const Tensor &control, const Program &defaultBody, const std::string &debugName)
    : Program(makeNode(Kind::Switch, debugName)) {
  checkPredicate(control, "Switch");
  node_->src = control;
  node_->children = {defaultBody.node()};
}

Switch::Switch(const Tensor &control, const std::vector<std::pair<std::int32_t, Program>> &cases,
               const std::string &debugName)
    : Switch(control, cases, Sequence(), debugName) {}

Switch::Switch(const Tensor &control, const std::vector<std::pair<std::int32_t, Program>> &cases,
               const Program &defaultBody, const std::string &debugName)
    : Switch(control, defaultBody, debugName) {
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

PrintTensor::PrintTensor(const Tensor &t, const std::string &debugName) : PrintTensor("", t, debugName) {}

PrintTensor::PrintTensor(const std::string &title, const Tensor &t, const std::string &debugName)
    : Program(makeNode(Kind::Print, debugName.empty() ? title : debugName)) {
  if (!t.valid())
    throw poplar_error("PrintTensor(" + title + "): invalid tensor");
  node_->src = t;
  node_->name = title;
}

Sync::Sync(SyncType, const std::string &debugName) : Program(makeNode(Kind::Sync, debugName)) {}

Block::Block(const Program &body, const std::string &debugName) : Program(makeNode(Kind::Sequence, debugName)) {
  node_->children.push_back(body.node());
}

WriteUndef::WriteUndef(const Tensor &t, const std::string &debugName) : Program(makeNode(Kind::Sequence, debugName)) {
  if (!t.valid())
    throw poplar_error("WriteUndef: invalid tensor");
}

Call::Call(const Function &f, const std::string &debugName) : Program(makeNode(Kind::Sequence, debugName)) {
  node_->children.push_back(f.body().node());
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

Copy::Copy(const RemoteBuffer &buffer, const Tensor &dst, const std::string &debugName)
    : Program(remoteCopy(buffer, dst, nullptr, true, debugName)) {}
Copy::Copy(const RemoteBuffer &buffer, const Tensor &dst, const Tensor &offset, const std::string &debugName)
    : Program(remoteCopy(buffer, dst, &offset, true, debugName)) {}
Copy::Copy(const Tensor &src, const RemoteBuffer &buffer, const std::string &debugName)
    : Program(remoteCopy(buffer, src, nullptr, false, debugName)) {}
Copy::Copy(const Tensor &src, const RemoteBuffer &buffer, const Tensor &offset, const std::string &debugName)
    : Program(remoteCopy(buffer, src, &offset, false, debugName)) {}

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

ErrorProgram::ErrorProgram(const std::string &message, const Tensor &debugTensor, const std::string &debugName)
    : Program(errorNode(message, debugTensor, debugName)) {}

AbortOnCondition::AbortOnCondition(const Tensor &predicate, const std::string &message,
                                   const std::string &debugName)
    : Program(If(predicate, ErrorProgram(message.empty() ? "AbortOnCondition: the condition is true" : message,
                                         predicate, debugName),
                 Sequence(), debugName)
                  .node()) {}

} // namespace poplar::program
