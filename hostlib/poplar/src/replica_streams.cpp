// Internal: the host side of a replicated stream (see replica_streams.hpp).
#include "replica_streams.hpp"

#include <cstring>

#include "ipu_runtime/errors.hpp"

namespace poplar::detail {

namespace {

/// The runtime's callback for a replicated stream: forwards to the fan it shares with the engine, so that a
/// reload (which connects the runtime stream again) keeps every replica's connection.
class FanCallback : public ipu::runtime::StreamCallback {
public:
  explicit FanCallback(std::shared_ptr<ReplicaFan> fan) : fan_(std::move(fan)) {}
  Result prefetch(void *) override { return Result::NotAvailable; }
  void fetch(void *p) override { fan_->fetch(p); }
  void complete() override { fan_->complete(); }

private:
  std::shared_ptr<ReplicaFan> fan_;
};

} // namespace

ReplicaFan::ReplicaFan(std::string name, bool toDevice, std::size_t bytes, unsigned replicas)
    : name_(std::move(name)), toDevice_(toDevice), bytes_(bytes), slots_(replicas) {}

ReplicaFan::Slot &ReplicaFan::slot(unsigned r) {
  if (r >= slots_.size())
    throw ipu::runtime::application_runtime_error("stream '" + name_ + "': replica " + std::to_string(r) +
                                                  " does not exist; the graph has " +
                                                  std::to_string(slots_.size()) + " replicas (0.." +
                                                  std::to_string(slots_.size() - 1) + ")");
  return slots_[r];
}

void ReplicaFan::connectBuffer(unsigned r, void *begin, void *end) {
  auto *b = static_cast<std::uint8_t *>(begin), *e = static_cast<std::uint8_t *>(end);
  if (!b || !e || e <= b || std::size_t(e - b) % bytes_ != 0)
    throw ipu::runtime::application_runtime_error(
        "stream '" + name_ + "', replica " + std::to_string(r) + ": connectStream(begin, end) needs begin < end "
        "and a whole number of " + std::to_string(bytes_) + "-byte copies");
  Slot &s = slot(r);
  s = Slot{};
  s.kind = Slot::Kind::Buffer;
  s.begin = s.pos = b;
  s.end = e;
}

void ReplicaFan::connectFunction(unsigned r, std::function<void(void *)> f) {
  Slot &s = slot(r);
  s = Slot{};
  s.kind = Slot::Kind::Function;
  s.function = std::move(f);
}

void ReplicaFan::connectCallback(unsigned r, std::shared_ptr<poplar::StreamCallback> cb) {
  Slot &s = slot(r);
  s = Slot{};
  s.kind = Slot::Kind::Callback;
  s.callback = std::move(cb);
}

std::unique_ptr<ipu::runtime::StreamCallback> ReplicaFan::runtimeCallback(const std::shared_ptr<ReplicaFan> &self)
    const {
  return std::unique_ptr<ipu::runtime::StreamCallback>(new FanCallback(self));
}

void ReplicaFan::fetch(void *p) {
  for (std::size_t r = 0; r < slots_.size(); ++r) {
    Slot &s = slots_[r];
    std::uint8_t *at = static_cast<std::uint8_t *>(p) + r * bytes_;
    switch (s.kind) {
    case Slot::Kind::None:
      throw ipu::runtime::application_runtime_error(
          "stream '" + name_ + "': replica " + std::to_string(r) + " is not connected; call "
          "engine.connectStream(\"" + name_ + "\", " + std::to_string(r) + ", ...) for every replica, or "
          "connectStream(\"" + name_ + "\", ...) without an index for all of them");
    case Slot::Kind::Buffer:
      if (toDevice_)
        std::memcpy(at, s.pos, bytes_);
      else
        std::memcpy(s.pos, at, bytes_);
      s.pos += bytes_;
      if (s.pos >= s.end)
        s.pos = s.begin;
      break;
    case Slot::Kind::Function:
      s.function(at);
      break;
    case Slot::Kind::Callback:
      s.callback->fetch(at);
      break;
    }
  }
}

void ReplicaFan::complete() {
  for (Slot &s : slots_)
    if (s.kind == Slot::Kind::Callback)
      s.callback->complete();
}

} // namespace poplar::detail
