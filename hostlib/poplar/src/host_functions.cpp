// Host functions on the host: each input arrives on its own stream and is kept, the call stream's host sync runs
// the connected HostCallback on the kept inputs, and each output stream sends what the callback wrote. The runtime
// serves a program's stream copies in program order, so a Call's inputs are all in before its callback runs.
#include "host_functions.hpp"

#include <cstring>
#include <stdexcept>

#include "graph_impl.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

HostCallback::~HostCallback() = default;

namespace {
/// A HostCallback made from a function (HostCallbackHandle's second form).
class FunctionHostCallback final : public HostCallback {
public:
  explicit FunctionHostCallback(std::function<void(ArrayRef<const void *>, ArrayRef<void *>)> f) : f_(std::move(f)) {}
  void operator()(ArrayRef<const void *> inputs, ArrayRef<void *> outputs) override { f_(inputs, outputs); }

private:
  std::function<void(ArrayRef<const void *>, ArrayRef<void *>)> f_;
};
} // namespace

std::unique_ptr<HostCallback> HostCallbackHandle::nonNull(std::unique_ptr<HostCallback> callback) {
  if (!callback)
    throw poplar_error("HostCallbackHandle: the host callback is a null pointer; pass a std::unique_ptr that owns a "
                       "HostCallback object, or a function of (ArrayRef<const void *>, ArrayRef<void *>)");
  return callback;
}

std::unique_ptr<HostCallback>
HostCallbackHandle::fromFunction(std::function<void(ArrayRef<const void *>, ArrayRef<void *>)> f) {
  if (!f)
    throw poplar_error("HostCallbackHandle: the host callback function is empty (a null function pointer or an empty "
                       "std::function); pass a function of (ArrayRef<const void *> inputs, ArrayRef<void *> outputs)");
  return std::unique_ptr<HostCallback>(new FunctionHostCallback(std::move(f)));
}

namespace detail {

namespace {
/// Splits "<prefix><handle>/<kind>[/<index>]" into its parts; false for any other stream.
bool parseStream(const std::string &name, std::string &handle, std::string &kind, std::size_t &index) {
  const std::string prefix = kHostFunctionStreamPrefix;
  if (name.rfind(prefix, 0) != 0)
    return false;
  std::string rest = name.substr(prefix.size());
  if (rest.size() > 5 && rest.compare(rest.size() - 5, 5, "/call") == 0) {
    handle = rest.substr(0, rest.size() - 5);
    kind = "call";
    return true;
  }
  // The handle may itself hold '/': the kind and index are the last two parts.
  std::size_t slash = rest.rfind('/');
  std::size_t kindSlash = slash == std::string::npos || slash == 0 ? std::string::npos : rest.rfind('/', slash - 1);
  if (kindSlash == std::string::npos)
    return false;
  handle = rest.substr(0, kindSlash);
  kind = rest.substr(kindSlash + 1, slash - kindSlash - 1);
  index = std::stoul(rest.substr(slash + 1));
  return kind == "in" || kind == "out";
}
} // namespace

HostFunctionTable::HostFunctionTable(const std::vector<CompiledStream> &streams, unsigned replicas) {
  for (const auto &s : streams) {
    std::string handle, kind;
    std::size_t index = 0;
    if (!parseStream(s.name, handle, kind, index))
      continue;
    Function &f = functions_[handle];
    f.replicas.resize(replicas);
    const std::size_t bytes = s.bytes;
    if (kind == "call") {
      streams_.emplace_back(s.name, [this, handle](unsigned r) { return callFunction(handle, r); });
      continue;
    }
    const bool in = kind == "in";
    for (Replica &r : f.replicas) {
      auto &slots = in ? r.inputs : r.outputs;
      if (slots.size() <= index)
        slots.resize(index + 1);
      slots[index].assign(bytes, 0);
    }
    streams_.emplace_back(s.name, [this, handle, in, index, bytes](unsigned r) -> StreamFunction {
      Replica &rep = functions_.at(handle).replicas.at(r);
      if (in)
        return [&rep, index, bytes](void *p) { std::memcpy(rep.inputs[index].data(), p, bytes); };
      return [&rep, index, bytes](void *p) { std::memcpy(p, rep.outputs[index].data(), bytes); };
    });
  }
}

std::vector<std::pair<std::string, std::function<HostFunctionTable::StreamFunction(unsigned)>>>
HostFunctionTable::streamFunctions() {
  return streams_;
}

HostFunctionTable::StreamFunction HostFunctionTable::callFunction(const std::string &handle, unsigned replica) {
  return [this, handle, replica](void *) {
    Replica &rep = functions_.at(handle).replicas.at(replica);
    if (!rep.callback) {
      const std::string message = "host function '" + handle + "' was called (replica " + std::to_string(replica) +
                                  ") but nothing is connected to it; call engine.connectHostFunction(\"" + handle +
                                  "\", " + std::to_string(replica) + ", callback) before engine.run";
      error_ = std::make_exception_ptr(stream_connection_error(message));
      throw std::runtime_error(message);
    }
    std::vector<const void *> ins;
    for (const auto &b : rep.inputs)
      ins.push_back(b.data());
    std::vector<void *> outs;
    for (auto &b : rep.outputs)
      outs.push_back(b.data());
    try {
      (*rep.callback)(ArrayRef<const void *>(ins), ArrayRef<void *>(outs));
    } catch (...) {
      // Engine::run throws the callback's own exception once the runtime has stopped the run.
      error_ = std::current_exception();
      throw std::runtime_error("host function '" + handle + "': the callback threw");
    }
  };
}

void HostFunctionTable::connect(const std::string &handle, unsigned replica, std::shared_ptr<HostCallback> callback) {
  auto it = functions_.find(handle);
  if (it == functions_.end()) {
    std::string names;
    for (const auto &f : functions_)
      names += (names.empty() ? "" : ", ") + f.first;
    throw stream_connection_error("connectHostFunction: no host function '" + handle +
                                  "' in the graph (create it with graph.addHostFunction; host functions: " +
                                  (names.empty() ? "none" : names) + ")");
  }
  it->second.replicas.at(replica).callback = std::move(callback);
}

std::exception_ptr HostFunctionTable::takeError() {
  std::exception_ptr e = error_;
  error_ = nullptr;
  return e;
}

} // namespace detail
} // namespace poplar
