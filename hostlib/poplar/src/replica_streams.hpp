// Internal: the host side of a replicated stream. The compiler gives such a stream one staging slot per replica
// (CompiledStream::replicas); the runtime sees one stream of replicas x bytes, connected to a ReplicaFan, which
// hands each replica's slot to that replica's own connection (a circular buffer, a function or a callback).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ipu_runtime/streams.hpp"
#include "poplar/StreamCallback.hpp"

namespace poplar::detail {

class ReplicaFan {
public:
  ReplicaFan(std::string name, bool toDevice, std::size_t bytes, unsigned replicas);

  /// Connects replica `r` to the circular buffer [begin, end) (a whole number of copies).
  void connectBuffer(unsigned r, void *begin, void *end);
  /// Connects replica `r` to a function that fills (host to device) or reads (device to host) its copy.
  void connectFunction(unsigned r, std::function<void(void *)> f);
  /// Connects replica `r` to a callback object (shared, so that one object may serve several replicas).
  void connectCallback(unsigned r, std::shared_ptr<poplar::StreamCallback> cb);

  /// The runtime callback for the whole stream: each call serves every replica's slot in replica order.
  std::unique_ptr<ipu::runtime::StreamCallback> runtimeCallback(const std::shared_ptr<ReplicaFan> &self) const;

  /// Moves one copy between the staging bytes at `p` (replicas x bytes) and every replica's connection.
  void fetch(void *p);
  /// Tells every replica's callback that its copy is complete.
  void complete();

private:
  struct Slot {
    enum class Kind { None, Buffer, Function, Callback } kind = Kind::None;
    std::uint8_t *begin = nullptr, *end = nullptr, *pos = nullptr;
    std::function<void(void *)> function;
    std::shared_ptr<poplar::StreamCallback> callback;
  };
  Slot &slot(unsigned r);
  std::string name_;
  bool toDevice_;
  std::size_t bytes_;
  std::vector<Slot> slots_;
};

} // namespace poplar::detail
