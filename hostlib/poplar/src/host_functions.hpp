// Internal: the host side of an engine's host functions (Graph::addHostFunction, program::Call of one,
// Engine::connectHostFunction). The compiler knows a host function only as streams (graph_impl.hpp's
// kHostFunctionStreamPrefix); this table finds the functions again from the stream names, so a deserialized
// executable has them too.
#pragma once

#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler.hpp"
#include "poplar/HostFunctionCallback.hpp"

namespace poplar::detail {

class HostFunctionTable {
public:
  HostFunctionTable(const std::vector<CompiledStream> &streams, unsigned replicas);

  /// What the runtime calls on one of the host functions' streams, for one replica.
  using StreamFunction = std::function<void(void *)>;
  /// Every stream of every host function, with the function for a replica's copies through it.
  std::vector<std::pair<std::string, std::function<StreamFunction(unsigned)>>> streamFunctions();

  /// Connects `callback` to replica `replica`'s calls of `handle`. Throws stream_connection_error for a handle no
  /// host function has.
  void connect(const std::string &handle, unsigned replica, std::shared_ptr<HostCallback> callback);

  /// The error that stopped the last run inside a host function (an unconnected function, or the callback's own
  /// exception), or null; taking it clears it.
  std::exception_ptr takeError();

private:
  struct Replica {
    std::shared_ptr<HostCallback> callback;
    std::vector<std::vector<unsigned char>> inputs, outputs;
  };
  struct Function {
    std::vector<Replica> replicas;
  };
  StreamFunction callFunction(const std::string &handle, unsigned replica);
  std::map<std::string, Function> functions_;
  std::vector<std::pair<std::string, std::function<StreamFunction(unsigned)>>> streams_;
  std::exception_ptr error_;
};

} // namespace poplar::detail
