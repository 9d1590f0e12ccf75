// Data stream handles: their name, type, size and direction.
#include "poplar/DataStream.hpp"

#include "graph_impl.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

static const detail::StreamInfo &info(detail::GraphImpl *g, unsigned id) {
  if (!g || id >= g->streams.size())
    throw poplar_error("invalid DataStream: create one with Graph::addHostToDeviceFIFO or addDeviceToHostFIFO");
  return g->streams[id];
}

std::string DataStream::handle() const { return info(graph_, id_).name; }
Type DataStream::elementType() const { return info(graph_, id_).type; }
std::size_t DataStream::numElements() const { return info(graph_, id_).numElements; }
DataStreamType DataStream::type() const { return info(graph_, id_).direction; }
ReplicatedStreamMode DataStream::replicatedMode() const {
  return info(graph_, id_).broadcast ? ReplicatedStreamMode::BROADCAST : ReplicatedStreamMode::REPLICATE;
}
unsigned DataStream::replicationFactor() const {
  info(graph_, id_); // throws for an invalid stream
  return graph_->replicationFactor;
}

static const detail::RemoteBufferInfo &remoteInfo(detail::GraphImpl *g, unsigned id) {
  if (!g || id >= g->remoteBuffers.size())
    throw poplar_error("invalid RemoteBuffer: create one with Graph::addRemoteBuffer");
  return g->remoteBuffers[id];
}

std::string RemoteBuffer::handle() const { return remoteInfo(graph_, id_).name; }
Type RemoteBuffer::elementType() const { return remoteInfo(graph_, id_).type; }
std::size_t RemoteBuffer::numElements() const { return remoteInfo(graph_, id_).numElements; }
std::size_t RemoteBuffer::getRepeats() const { return remoteInfo(graph_, id_).repeats; }
bool RemoteBuffer::isRearrangeOnHost() const { return remoteInfo(graph_, id_).rearrangeOnHost; }
bool RemoteBuffer::isOptimisedForMemory() const { return remoteInfo(graph_, id_).optimiseMemory; }
DataStream RemoteBuffer::getHostToIpuStream() const { return DataStream(graph_, remoteInfo(graph_, id_).toDeviceStream); }
DataStream RemoteBuffer::getIpuToHostStream() const { return DataStream(graph_, remoteInfo(graph_, id_).toHostStream); }

} // namespace poplar
