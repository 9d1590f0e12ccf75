// Data streams: named FIFOs between host and device (Graph::addHostToDeviceFIFO, program::Copy).
#ifndef POPLAR_DATA_STREAM_HPP
#define POPLAR_DATA_STREAM_HPP

#include <cstddef>
#include <string>

#include "poplar/DataStreamType.hpp"
#include "poplar/ReplicatedStreamMode.hpp"
#include "poplar/Type.hpp"

namespace poplar {

namespace detail {
struct GraphImpl;
}

/// A stream of a graph: each copy through it moves numElements() elements of elementType().
class DataStream {
public:
  DataStream() : graph_(0), id_(~0u) {}
  /// Internal: stream `id` of `graph`.
  DataStream(detail::GraphImpl *graph, unsigned id) : graph_(graph), id_(id) {}
  /// The handle name given at creation (what Engine::connectStream takes).
  std::string handle() const;
  /// Element type.
  Type elementType() const;
  /// Elements per copy.
  std::size_t numElements() const;
  /// Direction.
  DataStreamType type() const;
  /// How a host-to-device stream feeds the replicas of a replicated graph: REPLICATE (each its own data) or
  /// BROADCAST (one copy for all); device-to-host streams report REPLICATE.
  ReplicatedStreamMode replicatedMode() const;
  /// The replication factor of the graph the stream belongs to.
  unsigned replicationFactor() const;
  /// Internal: the stream's index in its graph.
  unsigned getId() const { return id_; }
  /// Internal.
  detail::GraphImpl *graphImpl() const { return graph_; }

private:
  detail::GraphImpl *graph_;
  unsigned id_;
};

/// Off-chip storage held by the host runtime (Graph::addRemoteBuffer): getRepeats() rows of numElements()
/// elements that program::Copy moves to and from tensors, one row per copy, at a row index (the offset).
class RemoteBuffer {
public:
  RemoteBuffer() : graph_(0), id_(~0u) {}
  /// Internal: remote buffer `id` of `graph`.
  RemoteBuffer(detail::GraphImpl *graph, unsigned id) : graph_(graph), id_(id) {}
  /// The handle given at creation (what Engine::copyToRemoteBuffer takes).
  std::string handle() const;
  /// Element type.
  Type elementType() const;
  /// Elements per row.
  std::size_t numElements() const;
  /// Number of rows.
  std::size_t getRepeats() const;
  /// The rearrangeOnHost hint given to Graph::addRemoteBuffer. A hint only: rows always travel as laid out.
  bool isRearrangeOnHost() const;
  /// The optimiseMemory hint given to Graph::addRemoteBuffer. A hint only: copies use the same buffers either way.
  bool isOptimisedForMemory() const;
  /// The stream that carries a row to the device (program::Copy from the buffer uses it).
  DataStream getHostToIpuStream() const;
  /// The stream that carries a row to the host (program::Copy to the buffer uses it).
  DataStream getIpuToHostStream() const;
  /// The same buffer of the same graph.
  bool operator==(const RemoteBuffer &other) const { return graph_ == other.graph_ && id_ == other.id_; }
  bool operator!=(const RemoteBuffer &other) const { return !(*this == other); }
  /// Internal: the buffer's index in its graph.
  unsigned getId() const { return id_; }
  /// Internal.
  detail::GraphImpl *graphImpl() const { return graph_; }

private:
  detail::GraphImpl *graph_;
  unsigned id_;
};

} // namespace poplar

#endif // POPLAR_DATA_STREAM_HPP
