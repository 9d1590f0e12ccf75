// poputil/GraphFunction.hpp: the body is built once on parameter clones; a call is copies in, the body (a
// program::Call or the body inlined), copies out.
#include "poputil/GraphFunction.hpp"

#include "poputil/DebugInfo.hpp"
#include "poputil/exceptions.hpp"

namespace poputil::graphfn {

using poplar::Tensor;
using poplar::program::Copy;
using poplar::program::Sequence;

namespace {

// The parameters of `sig`: a clone of each example, an invalid tensor for a CreatedArg.
std::vector<Tensor> makeParams(poplar::Graph &graph, const Signature &sig, const poplar::DebugNameAndId &dnai) {
  std::vector<Tensor> params;
  for (const ArgSig &s : sig) {
    if (s.type == CreatedArg) {
      params.emplace_back();
      continue;
    }
    if (!s.similarTensor.valid())
      throw poplibs_error("graphfn: the example tensor of argument '" + s.debugName +
                          "' is invalid; only created() arguments may have none");
    params.push_back(graph.clone(s.similarTensor, {dnai, s.debugName}));
  }
  return params;
}

Signature withCreated(Signature s) {
  s.push_back(created("result"));
  return s;
}

} // namespace

VoidFunction::VoidFunction(VoidFunction &&) = default;

VoidFunction::VoidFunction(poplar::Graph &graph_, Signature sig_,
                           std::function<void(std::vector<Tensor> &, Sequence &)> f, bool inlined_,
                           const poplar::DebugContext &debugContext)
    : VoidFunction(
          graph_, std::move(sig_),
          [&f](std::vector<Tensor> &args, Sequence &seq, const poplar::DebugNameAndId &) { f(args, seq); }, inlined_,
          debugContext) {}

VoidFunction::VoidFunction(poplar::Graph &graph_, Signature sig_,
                           std::function<void(std::vector<Tensor> &, Sequence &, const poplar::DebugNameAndId &)> f,
                           bool inlined_, const poplar::DebugContext &debugContext)
    : graph(graph_), sig(std::move(sig_)), inlined(inlined_), prog(debugContext) {
  PoplibsOpDebugInfo di(debugContext, {{"inlined", toProfileValue(inlined)}}, "poputil::graphfn::VoidFunction");
  params = makeParams(graph, sig, di);
  f(params, prog, di);
  for (std::size_t i = 0; i < sig.size(); ++i)
    if (sig[i].type == CreatedArg && !params[i].valid())
      throw poplibs_error("graphfn: the function body did not set created argument " + std::to_string(i) + " ('" +
                          sig[i].debugName + "')");
  if (!inlined)
    func = graph.addFunction(prog);
}

void VoidFunction::operator()(std::vector<Tensor> &args, Sequence &seq, const poplar::DebugContext &dc) {
  PoplibsOpDebugInfo di(dc, {{"args", toProfileValue(args)}}, "poputil::graphfn::VoidFunction::operator()");
  if (args.size() != sig.size())
    throw poplibs_error("graphfn: called with " + std::to_string(args.size()) +
                        " arguments; the signature has " + std::to_string(sig.size()));
  for (std::size_t i = 0; i < sig.size(); ++i)
    if (sig[i].type == InputArg || sig[i].type == InOutArg)
      seq.add(Copy(args[i], params[i], false, {di}));
  if (inlined)
    seq.add(prog);
  else
    seq.add(poplar::program::Call(func, {di}));
  for (std::size_t i = 0; i < sig.size(); ++i) {
    if (sig[i].type == CreatedArg)
      args[i] = graph.clone(params[i], {di, sig[i].debugName});
    if (sig[i].type != InputArg)
      seq.add(Copy(params[i], args[i], false, {di}));
  }
}

ProgramFunction::ProgramFunction(poplar::Graph &graph, Signature sig,
                                 std::function<poplar::program::Program(std::vector<Tensor> &)> f, bool inlined,
                                 const poplar::DebugContext &debugContext)
    : voidFunc(
          graph, std::move(sig), [&f](std::vector<Tensor> &args, Sequence &seq) { seq.add(f(args)); }, inlined,
          debugContext) {}

ProgramFunction::ProgramFunction(
    poplar::Graph &graph, Signature sig,
    std::function<poplar::program::Program(std::vector<Tensor> &, const poplar::DebugNameAndId &)> f, bool inlined,
    const poplar::DebugContext &debugContext)
    : voidFunc(
          graph, std::move(sig),
          [&f](std::vector<Tensor> &args, Sequence &seq, const poplar::DebugNameAndId &dnai) {
            seq.add(f(args, dnai));
          },
          inlined, debugContext) {}

poplar::program::Program ProgramFunction::operator()(std::vector<Tensor> &args,
                                                     const poplar::DebugContext &debugContext) {
  Sequence seq(debugContext);
  voidFunc(args, seq, debugContext);
  return seq;
}

TensorFunction::TensorFunction(poplar::Graph &graph, Signature sig,
                               std::function<Tensor(std::vector<Tensor> &, Sequence &)> f, bool inlined,
                               const poplar::DebugContext &debugContext)
    : voidFunc(
          graph, withCreated(std::move(sig)),
          [&f](std::vector<Tensor> &args, Sequence &seq) { args.back() = f(args, seq); }, inlined, debugContext) {}

TensorFunction::TensorFunction(
    poplar::Graph &graph, Signature sig,
    std::function<Tensor(std::vector<Tensor> &, Sequence &, const poplar::DebugNameAndId &)> f, bool inlined,
    const poplar::DebugContext &debugContext)
    : voidFunc(
          graph, withCreated(std::move(sig)),
          [&f](std::vector<Tensor> &args, Sequence &seq, const poplar::DebugNameAndId &dnai) {
            args.back() = f(args, seq, dnai);
          },
          inlined, debugContext) {}

Tensor TensorFunction::operator()(std::vector<Tensor> &args, Sequence &prog,
                                  const poplar::DebugContext &debugContext) {
  args.emplace_back();
  voidFunc(args, prog, debugContext);
  Tensor result = args.back();
  args.pop_back();
  return result;
}

} // namespace poputil::graphfn
