// The name a host handle is found by. Poplar keeps host writes (Graph::createHostWrite) and host reads
// (Graph::createHostRead) in separate name spaces, so a program may read and write one tensor under one name:
// the key is the name and the direction together.
#pragma once

#include <compare>
#include <string>

namespace poplar {

/// The handle of a QUARTER tensor's metadata lives beside the tensor's under this prefix (Graph::createHostWrite/
/// Read add it), so Engine::writeTensor/readTensor with a QuarterMetadata move both; users never name it.
constexpr const char *kMetadataHandlePrefix = "__metadata/";

struct HostHandleKey {
  std::string name;
  bool write = false; ///< a host write (Engine::writeTensor) rather than a host read (Engine::readTensor)

  auto operator<=>(const HostHandleKey &) const = default;
  bool operator==(const HostHandleKey &) const = default;

  /// "host-write handle 'x'" or "host-read handle 'x'", for messages.
  std::string describe() const { return std::string(write ? "host-write" : "host-read") + " handle '" + name + "'"; }
};

} // namespace poplar
