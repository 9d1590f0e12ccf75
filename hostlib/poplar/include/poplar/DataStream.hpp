// Data streams: named FIFOs between host and device (Graph::addHostToDeviceFIFO, program::Copy).
#ifndef POPLAR_DATA_STREAM_HPP
#define POPLAR_DATA_STREAM_HPP

#include <cstddef>
#include <string>

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
  /// Internal: the stream's index in its graph.
  unsigned getId() const { return id_; }
  /// Internal.
  detail::GraphImpl *graphImpl() const { return graph_; }

private:
  detail::GraphImpl *graph_;
  unsigned id_;
};

/// Poplar's name for a stream created with addHostToDeviceFIFO / addDeviceToHostFIFO.
typedef DataStream RemoteBuffer;

} // namespace poplar

#endif // POPLAR_DATA_STREAM_HPP
