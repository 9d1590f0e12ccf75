// Data streams: named FIFOs between host and device (Graph::addHostToDeviceFIFO, program::Copy).
#ifndef POPLAR_DATA_STREAM_HPP
#define POPLAR_DATA_STREAM_HPP

#include <cstddef>
#include <string>

#include "poplar/ReplicatedStreamMode.hpp"
#include "poplar/Type.hpp"

namespace poplar {

namespace detail {
struct GraphImpl;
}

/// Which way a stream moves data.
enum class DataStreamType { HostToDeviceFIFO, DeviceToHostFIFO };

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
